"""`loupe keys create` with scopes, a name and an expiry, and refusing a tenant that does not
exist unless told to create it; `loupe keys list` shows what each key may do."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.tenants.service import parse_expiry
from tests.fixtures.api import side_app
from tests.test_keys import loupe

NOW = datetime(2026, 11, 26, 21, 0, tzinfo=UTC)


def _cells(listing: str, prefix: str) -> dict[str, str]:
    """The columns of the key whose prefix is `prefix` in `loupe keys list`'s output."""
    header, *rows = listing.splitlines()
    [row] = [row for row in rows if prefix + "…" in row]
    names = ("id", "name", "prefix", "scopes", "expires", "created", "created by", "last used")
    return {name: row[header.index(name) :].split("  ")[0].strip() for name in names}


class TestKeysCreate:
    def test_an_unknown_tenant_is_refused_unless_created(self, tmp_path: Path) -> None:
        refused = loupe(tmp_path, "keys", "create", "--tenant", "acme")
        assert refused.returncode == 1
        assert "no tenant named 'acme'" in refused.stderr
        assert "--create-tenant" in refused.stderr and "loupe tenants create acme" in refused.stderr
        assert "lp_" not in refused.stdout
        # Nothing was made: the tenant still does not exist.
        assert loupe(tmp_path, "keys", "list", "--tenant", "acme").returncode == 1
        created = loupe(tmp_path, "keys", "create", "--tenant", "acme", "--create-tenant")
        assert created.returncode == 0, created.stderr
        # Once it exists, no flag is needed.
        again = loupe(tmp_path, "keys", "create", "--tenant", "acme")
        assert again.returncode == 0, again.stderr

    def test_a_scoped_named_expiring_key(self, tmp_path: Path) -> None:
        made = loupe(
            tmp_path,
            *("keys", "create", "--tenant", "ci-team", "--create-tenant"),
            *("--scopes", "ingest,read", "--name", "ci", "--expires", "90d"),
        )
        assert made.returncode == 0, made.stderr
        *said, key = made.stdout.strip().splitlines()
        assert key.startswith("lp_")
        assert "read,ingest" in said[0] and "expires 20" in said[0], said
        listing = loupe(tmp_path, "keys", "list", "--tenant", "ci-team")
        assert listing.returncode == 0, listing.stderr
        cells = _cells(listing.stdout, key[:10])
        assert cells["name"] == "ci" and cells["scopes"] == "read,ingest"
        assert cells["created by"] == "operator"
        expires = datetime.strptime(cells["expires"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        assert timedelta(days=89) < expires - datetime.now(UTC) <= timedelta(days=90)
        with side_app(tmp_path) as app, app.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200
            refused = client.post("/v1/models", json={})
            assert refused.status_code == 403 and refused.json()["required_scope"] == "write"

    @pytest.mark.parametrize(
        ("option", "value", "says"),
        [
            ("--expires", "soon", "neither a duration"),
            ("--expires", "0d", "no time at all"),
            ("--expires", "2001-01-01", "in the past"),
            ("--scopes", "read,root", "unknown scope 'root'"),
            ("--scopes", ",", "at least one scope"),
            ("--tenant", "two words", "no spaces"),
        ],
    )
    def test_a_bad_value_is_a_usage_error(
        self, tmp_path: Path, option: str, value: str, says: str
    ) -> None:
        args = ["--tenant", value] if option == "--tenant" else ["--tenant", "x", option, value]
        bad = loupe(tmp_path, "keys", "create", "--create-tenant", *args)
        assert bad.returncode == 2, bad.stderr
        assert option in bad.stderr and says in bad.stderr, bad.stderr
        assert "lp_" not in bad.stdout


class TestExpiry:
    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("90d", NOW + timedelta(days=90)),
            ("30d", NOW + timedelta(days=30)),
            ("12h", NOW + timedelta(hours=12)),
            ("45m", NOW + timedelta(minutes=45)),
            ("2027-01-31", datetime(2027, 1, 31, tzinfo=UTC)),
            ("2027-01-31T12:30:00Z", datetime(2027, 1, 31, 12, 30, tzinfo=UTC)),
            ("2027-01-31T12:30:00+02:00", datetime(2027, 1, 31, 10, 30, tzinfo=UTC)),
        ],
    )
    def test_durations_and_dates(self, text: str, expected: datetime) -> None:
        assert parse_expiry(text, NOW) == expected

    @pytest.mark.parametrize("text", ["", "d", "-5d", "1.5d", "90x", "2026-11-26T20:00:00Z"])
    def test_anything_else_is_refused(self, text: str) -> None:
        with pytest.raises(ValueError, match=repr(text)):
            parse_expiry(text, NOW)
