"""Regenerate the SDKs' generated parts from an OpenAPI document (`make sdk`, the drift tests).

    python sdk/generate.py [--spec openapi.json] [--out sdk] [--python] [--typescript]

Writes `<out>/python/loupe_client/_generated/` (openapi-python-client) and `_version.py`, and
`<out>/typescript/src/generated/schema.ts` (openapi-typescript, from sdk/typescript's
node_modules: `npm ci` first). Nothing hand-written is touched.
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

SDK = Path(__file__).resolve().parent
TYPESCRIPT = SDK / "typescript"


def python(spec: Path, out: Path) -> None:
    package = out / "python" / "loupe_client"
    target = package / "_generated"
    shutil.rmtree(target, ignore_errors=True)
    package.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(target),
            "--meta",
            "none",
            "--config",
            str(SDK / "config.yml"),
            # A schema the generator cannot express is a warning; for us it is a failure.
            "--fail-on-warning",
        ],
        check=True,
        capture_output=True,
    )
    version = json.loads(spec.read_text())["info"]["version"]
    (package / "_version.py").write_text(
        '"""Written by `make sdk` from openapi.json `info.version`; do not edit."""\n\n'
        f'__version__ = "{version}"\n'
    )


def typescript(spec: Path, out: Path) -> None:
    target = out / "typescript" / "src" / "generated" / "schema.ts"
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(TYPESCRIPT / "node_modules" / ".bin" / "openapi-typescript"),
            str(spec),
            "--output",
            str(target),
            # A field with a default is optional in a request, as the API treats it.
            "--default-non-nullable=false",
        ],
        check=True,
        capture_output=True,
        cwd=TYPESCRIPT,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=SDK.parent / "openapi.json")
    parser.add_argument("--out", type=Path, default=SDK)
    parser.add_argument("--python", action="store_true", help="only the Python SDK")
    parser.add_argument("--typescript", action="store_true", help="only the TypeScript SDK")
    args = parser.parse_args()
    both = not (args.python or args.typescript)
    spec = args.spec.resolve()
    if args.python or both:
        python(spec, args.out.resolve())
    if args.typescript or both:
        typescript(spec, args.out.resolve())


if __name__ == "__main__":
    main()
