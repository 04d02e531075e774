"""The operator's commands are on the audit trail as `operator`'s: `loupe keys create` (and the
tenant `--create-tenant` makes), `loupe keys revoke` and `loupe tenants limits` (a repeat revoke
or a limits read records nothing), never with the key's secret."""

from pathlib import Path

from tests.audit.helpers import events
from tests.fixtures.api import side_app
from tests.test_keys import loupe


class TestOperator:
    def test_keys_and_limits(self, tmp_path: Path) -> None:
        created = loupe(tmp_path, "keys", "create", "--create-tenant", "--tenant", "acme")
        assert created.returncode == 0, created.stderr
        key = created.stdout.strip().splitlines()[-1]
        spare = loupe(tmp_path, "keys", "create", "--tenant", "acme").stdout.splitlines()[-1]
        listed = loupe(tmp_path, "keys", "list", "--tenant", "acme").stdout.splitlines()[1:]
        spare_id = next(line.split()[0] for line in listed if spare[:10] in line)
        assert loupe(tmp_path, "keys", "revoke", spare_id).returncode == 0
        assert loupe(tmp_path, "keys", "revoke", spare_id).returncode == 0
        limited = loupe(tmp_path, "tenants", "limits", "--tenant", "acme", "--daily-usd", "5")
        assert limited.returncode == 0, limited.stderr
        assert loupe(tmp_path, "tenants", "limits", "--tenant", "acme").returncode == 0
        with side_app(tmp_path) as app, app.client(key) as client:
            trail = list(reversed(events(client)))
        assert [(e["actor"], e["action"]) for e in trail] == [
            ("operator", "tenant.create"),
            ("operator", "api_key.create"),
            ("operator", "api_key.create"),
            ("operator", "api_key.revoke"),
            ("operator", "tenant.limits"),
        ]
        assert trail[3]["object_id"] == spare_id and trail[2]["object_id"] == spare_id
        assert trail[4]["details"] == {"daily_usd": 5.0}
        assert key not in str(trail) and spare not in str(trail)
