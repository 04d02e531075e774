"""Issue 28's audit fixes in the operator's CLI: every command that changes a tenant logs its
`loupe.audit` line (logging configured as `loupe serve` does it), and key names are checked in
one place (1 to 200 printable characters) with rows stored before printed escaped."""

import json
import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, update

from app.models import ApiKey

BIN = Path(sys.executable).parent


def loupe(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db", **env}
    return subprocess.run(
        [str(BIN / "loupe"), *args],
        env=environ,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        input="",
    )


def audit_lines(stderr: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    return [line for line in lines if line.get("logger") == "loupe.audit"]


def test_every_changing_command_logs_its_audit_line(tmp_path: Path) -> None:
    as_json = {"LOUPE_LOG_FORMAT": "json"}
    created = loupe(tmp_path, "tenants", "create", "acme", **as_json)
    assert created.returncode == 0, created.stderr
    assert [line["event"] for line in audit_lines(created.stderr)] == ["audit.tenant.create"]
    key = loupe(tmp_path, "keys", "create", "--tenant", "acme", "--name", "ci", **as_json)
    assert key.returncode == 0, key.stderr
    assert [line["event"] for line in audit_lines(key.stderr)] == ["audit.api_key.create"]
    assert key.stdout.splitlines()[-1] not in key.stderr
    key_id = loupe(tmp_path, "keys", "list", "--tenant", "acme").stdout.splitlines()[1].split()[0]
    revoked = loupe(tmp_path, "keys", "revoke", key_id, **as_json)
    assert [line["event"] for line in audit_lines(revoked.stderr)] == ["audit.api_key.revoke"]
    renamed = loupe(tmp_path, "tenants", "rename", "acme", "globex", **as_json)
    assert [line["event"] for line in audit_lines(renamed.stderr)] == ["audit.tenant.rename"]
    deleted = loupe(tmp_path, "tenants", "delete", "globex", "--yes", **as_json)
    assert deleted.returncode == 0, deleted.stderr
    # The tenant's trail went with it; its line has every audit line's fields.
    [line] = audit_lines(deleted.stderr)
    assert line["event"] == "audit.tenant.delete" and line["action"] == "tenant.delete"
    assert (line["actor"], line["object_type"]) == ("operator", "tenant")
    assert line["object_id"] == line["tenant_id"] and line["tenant_id"].startswith("ten_")
    assert line["details"]["name"] == "globex"
    # A key made with --create-tenant makes its tenant on the record too.
    made = loupe(tmp_path, "keys", "create", "--tenant", "initech", "--create-tenant", **as_json)
    assert made.returncode == 0, made.stderr
    assert [line["event"] for line in audit_lines(made.stderr)] == [
        "audit.tenant.create",
        "audit.api_key.create",
    ]


def test_key_names_are_checked_and_shown_escaped(tmp_path: Path) -> None:
    assert loupe(tmp_path, "tenants", "create", "acme").returncode == 0
    for bad, said in (
        ("evil\x1b]0;pwned\x07\nfake-line", "control characters"),
        ("x" * 5000, "1 to 200 characters"),
        ("", "1 to 200 characters"),
    ):
        refused = loupe(tmp_path, "keys", "create", "--tenant", "acme", "--name", bad)
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr
    assert loupe(tmp_path, "keys", "create", "--tenant", "acme", "--name", "ci").returncode == 0
    # A name stored before names were checked is printed escaped.
    engine = create_engine(f"sqlite:///{tmp_path}/loupe.db")
    with engine.begin() as connection:
        connection.execute(update(ApiKey).values(name="evil\x1b]0;pwned\x07\nfake-line"))
    engine.dispose()
    listed = loupe(tmp_path, "keys", "list", "--tenant", "acme")
    assert listed.returncode == 0, listed.stderr
    assert "\x1b" not in listed.stdout and "\x07" not in listed.stdout
    assert len(listed.stdout.splitlines()) == 2
    assert "evil\\x1b]0;pwned\\x07\\nfake-line" in listed.stdout
