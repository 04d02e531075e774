"""The committed openapi.json is the app's spec, and its operationIds are the SDK's method names."""

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from app.cli import cli
from app.main import create_app

COMMITTED_SPEC = Path(__file__).resolve().parent.parent / "openapi.json"
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# (method, path) -> operationId: the generated SDK's function names, which must never churn.
STABLE_OPERATION_IDS = {
    ("get", "/healthz"): "healthz",
    ("get", "/readyz"): "readyz",
    ("post", "/v1/evaluations"): "create_evaluation",
    ("get", "/v1/evaluations"): "list_evaluations",
    ("get", "/v1/evaluations/{evaluation_id}"): "get_evaluation",
    ("get", "/v1/evaluations/{evaluation_id}/results"): "list_evaluation_results",
    ("post", "/v1/evaluations/{evaluation_id}/cancel"): "cancel_evaluation",
    ("post", "/v1/webhook_endpoints"): "create_webhook_endpoint",
    ("get", "/v1/webhook_endpoints"): "list_webhook_endpoints",
    ("get", "/v1/webhook_endpoints/{endpoint_id}/deliveries"): "list_webhook_deliveries",
}


def operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """Every operation of `spec`, keyed by (method, path)."""
    return {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in HTTP_METHODS
    }


def drift(committed: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Where two specs differ: operations, component schemas, then other top-level keys."""
    found: list[str] = []
    old_ops, new_ops = operations(committed), operations(current)
    for key in sorted(old_ops.keys() | new_ops.keys()):
        if old_ops.get(key) != new_ops.get(key):
            found.append(f"operation {key[0].upper()} {key[1]}")
    old_schemas = committed.get("components", {}).get("schemas", {})
    new_schemas = current.get("components", {}).get("schemas", {})
    for name in sorted(old_schemas.keys() | new_schemas.keys()):
        if old_schemas.get(name) != new_schemas.get(name):
            found.append(f"schema {name}")
    for key in sorted((committed.keys() | current.keys()) - {"paths", "components"}):
        if committed.get(key) != current.get(key):
            found.append(f"top-level {key!r}")
    return found


class TestCommittedSpec:
    def test_matches_the_app(self) -> None:
        printed = CliRunner().invoke(cli, ["openapi"])
        assert printed.exit_code == 0, printed.output
        current = create_app().openapi()
        assert json.loads(printed.stdout) == current

        committed_text = COMMITTED_SPEC.read_text(encoding="utf-8")
        committed = json.loads(committed_text)
        where = ", ".join(drift(committed, current)) or "formatting only"
        assert committed == current, (
            f"openapi.json is out of date ({where}); run `make openapi` and commit it"
        )
        assert committed_text == printed.stdout, (
            "openapi.json is not formatted as `loupe openapi` prints it; run `make openapi`"
        )


class TestOperationIds:
    def test_stable_names(self) -> None:
        ids = {key: op.get("operationId") for key, op in operations(create_app().openapi()).items()}
        for (method, path), expected in STABLE_OPERATION_IDS.items():
            assert (method, path) in ids, f"{method.upper()} {path} is gone from the API"
            assert ids[(method, path)] == expected, (
                f"{method.upper()} {path} has operationId {ids[(method, path)]!r}, "
                f"SDKs call it {expected!r}"
            )

    def test_unique_and_named_after_the_route_function(self) -> None:
        ids = [op.get("operationId") for op in operations(create_app().openapi()).values()]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        assert not duplicates, f"operationIds used twice: {duplicates}"
        for operation_id in ids:
            # FastAPI's default ids end in the path and method (`..._v1_evaluations_post`).
            assert operation_id and re.fullmatch(r"[a-z][a-z0-9_]*", operation_id)
            assert not re.search(r"_(get|post|put|patch|delete)$", operation_id), operation_id
