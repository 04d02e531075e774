"""`loupe keys list` and `loupe keys revoke`: a revoked key answers 401 at once in every API
process (two apps on one database here), since no process caches authentication."""

import os
import stat
import subprocess
import sys
from pathlib import Path

from app import migrate
from tests.console.helpers import signed_in
from tests.fixtures.api import fast_settings, served_api, side_app
from tests.people.test_revoked_makers import key_id_of, made_key

BIN = Path(sys.executable).parent


def loupe(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db"}
    return subprocess.run(
        [str(BIN / "loupe"), *args], env=env, cwd=tmp_path, capture_output=True, text=True
    )


class TestKeys:
    def test_list_then_revoke_is_401_in_every_process(self, tmp_path: Path) -> None:
        created = loupe(tmp_path, "keys", "create", "--create-tenant", "--tenant", "acme")
        assert created.returncode == 0, created.stderr
        key = created.stdout.strip().splitlines()[-1]
        other = loupe(
            tmp_path, "keys", "create", "--create-tenant", "--tenant", "acme"
        ).stdout.splitlines()[-1]
        with side_app(tmp_path) as first, side_app(tmp_path) as second:
            with first.client(key) as a, second.client(key) as b:
                assert a.get("/v1/evaluations").status_code == 200
                assert b.get("/v1/evaluations").status_code == 200
                listed = loupe(tmp_path, "keys", "list", "--tenant", "acme")
                assert listed.returncode == 0, listed.stderr
                lines = listed.stdout.splitlines()
                assert lines[0].split()[:3] == ["id", "name", "prefix"]
                # Columns line up: every row's prefix starts under the header's (ids are 32
                # characters; a fixed width of 30 ran them into the prefix).
                column = lines[0].index("prefix")
                assert all(line[column:].startswith(key[:3]) for line in lines[1:]), lines
                assert len(lines) == 3
                ours = next(line for line in lines[1:] if key[:10] + "…" in line)
                theirs = next(line for line in lines[1:] if line is not ours)
                # Every scope (none asked for), by the operator, never expiring; used just now
                # (date and time), the other key never.
                cells = {
                    name: line[lines[0].index(name) :].split("  ")[0]
                    for name in ("scopes", "expires", "created by", "last used")
                    for line in [ours]
                }
                assert cells["scopes"] == "read,write,ingest,review,admin"
                assert cells["expires"] == "never" and cells["created by"] == "operator"
                assert cells["last used"] != "never"
                assert theirs[lines[0].index("last used") :].startswith("never")
                key_id = ours.split()[0]
                revoked = loupe(tmp_path, "keys", "revoke", key_id)
                assert revoked.returncode == 0 and key_id in revoked.stdout
                for client in (a, b):
                    response = client.get("/v1/evaluations")
                    assert response.status_code == 401
                    assert response.headers["content-type"].startswith("application/problem+json")
            with first.client(other) as still:
                assert still.get("/v1/evaluations").status_code == 200
        relisted = loupe(tmp_path, "keys", "list", "--tenant", "acme").stdout
        assert "revoked" in relisted.splitlines()[0]

    def test_revoke_takes_the_keys_made_with_it_and_names_them(self, tmp_path: Path) -> None:
        key = loupe(tmp_path, "keys", "create", "--create-tenant", "--tenant", "acme")
        key = key.stdout.strip().splitlines()[-1]
        with side_app(tmp_path) as app:
            made = made_key(signed_in(app, key), "made on the Keys page")
            made_id = key_id_of(app, made)
            key_id = key_id_of(app, key)
            revoked = loupe(tmp_path, "keys", "revoke", key_id)
            assert revoked.returncode == 0, revoked.stderr
            assert revoked.stdout.splitlines() == [
                f"revoked {key_id} ({key[:10]}…)",
                f"revoked {made_id} ({made[:10]}…), made with it",
            ]
            with app.client(made) as client:
                assert client.get("/v1/evaluations").status_code == 401

    def test_unknown_tenant_and_key(self, tmp_path: Path) -> None:
        loupe(tmp_path, "migrate")
        missing = loupe(tmp_path, "keys", "list", "--tenant", "nobody")
        assert missing.returncode == 1 and "no tenant named 'nobody'" in missing.stderr
        unknown = loupe(tmp_path, "keys", "revoke", "key_nope")
        assert unknown.returncode == 1 and "no key 'key_nope'" in unknown.stderr


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


class TestFileModes:
    def test_the_embedded_database_and_key_file_are_readable_by_their_owner_only(
        self, tmp_path: Path
    ) -> None:
        # The defaults' layout: ./var/loupe.db and, without LOUPE_SECRET_KEY, ./var/secret.key.
        directory = tmp_path / "var"
        settings = fast_settings(
            database_url=f"sqlite:///{directory}/loupe.db",
            secret_key=None,
            secret_key_file=directory / "secret.key",
        )
        with served_api(settings) as app:
            client = app.tenant_client()
            # Registering a webhook encrypts its secret: the key file is made then.
            created = client.post("/v1/webhook_endpoints", json={"url": "http://127.0.0.1:9/h"})
            assert created.status_code == 201, created.text
            files = {path.name: mode(path) for path in directory.iterdir()}
            assert {"loupe.db", "loupe.db-wal", "secret.key"} <= set(files)
            assert files == dict.fromkeys(files, 0o600)
        assert mode(directory) == 0o700

    def test_loupe_migrate_creates_the_database_owner_only(self, tmp_path: Path) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("LOUPE_")}
        done = subprocess.run(
            [str(BIN / "loupe"), "migrate"], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert mode(tmp_path / "var" / "loupe.db") == 0o600
        assert mode(tmp_path / "var") == 0o700

    def test_files_made_readable_by_others_earlier_are_tightened(self, tmp_path: Path) -> None:
        """An upgrade from a Loupe that made them with the umask's mode (0644)."""
        directory = tmp_path / "var"
        directory.mkdir()
        key_file = directory / "secret.key"
        key_file.write_text("an-old-key-file-of-a-loupe-before-this-one")
        settings = fast_settings(
            database_url=f"sqlite:///{directory}/loupe.db",
            secret_key=None,
            secret_key_file=key_file,
        )
        migrate.upgrade(settings)
        for path in directory.iterdir():
            path.chmod(0o644)
        with served_api(settings) as app:
            client = app.tenant_client()
            # Registering a webhook encrypts its secret with the key in the file.
            created = client.post("/v1/webhook_endpoints", json={"url": "http://127.0.0.1:9/h"})
            assert created.status_code == 201, created.text
            files = {path.name: mode(path) for path in directory.iterdir()}
        assert {"loupe.db", "secret.key"} <= set(files)
        assert files == dict.fromkeys(files, 0o600)

    def test_driver_options_are_no_part_of_the_file_name(self, tmp_path: Path) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/db/q.db?timeout=5"
        done = subprocess.run(
            [str(BIN / "loupe"), "migrate"], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert [path.name for path in (tmp_path / "db").iterdir()] == ["q.db"]
        assert mode(tmp_path / "db" / "q.db") == 0o600
