"""Peak memory of parsing a dataset zip: the old way (the member read whole, decoded, split)
against now (the member parsed a line at a time as it inflates, under the zip caps).

    python bench/zip_bombs.py [--bomb-mib 200] [--honest-mib 64]

Each measurement runs in a fresh child process and prints its peak RSS (ru_maxrss), the bytes
it inflated and how it ended. Scenarios: the audit's bomb (`--bomb-mib` of repeated JSONL rows,
about 340:1) under the default caps, and an honest member (`--honest-mib` of rows) both ways
accept. Results go to docs/benchmarks.md.
"""

import argparse
import io
import json
import resource
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

MIB = 1024 * 1024
ROW = b'{"messages": [{"role": "user", "content": "What is 2 + 2?"}], "answer": "4"}\n'


def write_zip(path: Path, mebibytes: int) -> None:
    chunk = ROW * (MIB // len(ROW))
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("rows.jsonl", "w") as member,
    ):
        for _ in range(mebibytes):
            member.write(chunk)


def old_way(data: bytes) -> str:
    """What app/datasets did before: the member read whole (within the 2 GiB unpacked cap),
    decoded, split on LF and every line parsed into a record."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo("rows.jsonl")
        if info.file_size > 2 * 1024 * MIB:
            return "refused (unpacked size)"
        with archive.open(info) as member:
            content = member.read(info.file_size + 1)
    text = content.decode("utf-8-sig")
    records = [json.loads(line) for line in text.split("\n") if line.strip()]
    return f"parsed {len(records):,} records from {len(content):,} bytes"


def new_way(data: bytes, ratio: int) -> str:
    """Now: app.datasets' Archive under the settings' caps, the member read by read_records a
    line at a time as it inflates (rows are built from records the same way both times)."""
    from app.config import Settings
    from app.datasets._archive import Archive, ArchiveCaps, ArchiveTooLarge
    from app.datasets._tabular import read_records

    settings = Settings()
    caps = ArchiveCaps(settings.max_archive_members, settings.archive_bytes_cap, ratio)
    try:
        archive = Archive("rows.zip", data, caps)
        with archive.open("rows.jsonl") as member:
            records = read_records("rows.jsonl", member, [])
    except ArchiveTooLarge as error:
        return f"refused: {error.message} (cap {error.cap})"
    return f"parsed {len(records):,} records from {archive.inflated:,} bytes"


def child(way: str, path: str, ratio: int) -> None:
    data = Path(path).read_bytes()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcome = old_way(data) if way == "old" else new_way(data, ratio)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"before_mib": before / 1024, "peak_mib": peak / 1024, "outcome": outcome}))


def measure(way: str, path: Path, ratio: int) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--child", way, str(path), str(ratio)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bomb-mib", type=int, default=200)
    parser.add_argument("--honest-mib", type=int, default=64)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        bomb, honest = Path(directory, "bomb.zip"), Path(directory, "honest.zip")
        write_zip(bomb, args.bomb_mib)
        write_zip(honest, args.honest_mib)
        scenarios = [
            (f"bomb: {args.bomb_mib} MiB in {bomb.stat().st_size:,} B, default caps", bomb, 100),
            (f"honest: {args.honest_mib} MiB of rows, ratio cap 1000", honest, 1000),
        ]
        for label, path, ratio in scenarios:
            for way in ("old", "new"):
                result = measure(way, path, ratio)
                print(
                    f"{label:<48} {way}: peak RSS {result['peak_mib']:,.0f} MiB "
                    f"(at start {result['before_mib']:,.0f}) — {result['outcome']}"
                )


if __name__ == "__main__":
    main()
