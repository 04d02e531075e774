"""What capping a key by its root maker's role costs per request: the time of authenticating a
key (`caller_for_key`, the lookup every request makes) with and without `people.keys.capped`,
for a key made by the operator (no read more), by a person (one membership read), at the
end of a chain of keys making keys (one key read more per key in between) and made by a
revoked key (that key's read, no more: it holds nothing), on SQLite or, given
`--database-url`, PostgreSQL.

    .venv/bin/python bench/key_cap.py                        # SQLite in a temporary directory
    .venv/bin/python bench/key_cap.py --n 5000 --database-url postgresql+psycopg://...
"""

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    from sqlalchemy import select

    from app.config import Settings
    from app.db import utcnow
    from app.migrate import upgrade
    from app.models import ApiKey, Membership
    from app.people import repository as people_repository
    from app.people.keys import capped
    from app.runtime import configure
    from app.tenants import service
    from app.tenants.scopes import Caller

    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000, help="authentications per case")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--runs", type=int, default=5, help="runs per case; the best is shown")
    parser.add_argument("--chain", type=int, default=3, help="keys between the person and the key")
    arguments = parser.parse_args()
    url = arguments.database_url or f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    settings = Settings(database_url=url)
    upgrade(settings)
    runtime = configure(settings)
    tenant = f"bench-{uuid.uuid4().hex[:6]}"
    keys: dict[str, str] = {}
    with runtime.session() as session:
        _, keys["operator"] = service.create_key(session, tenant)
        person = people_repository.add_person(session, "https://bench", uuid.uuid4().hex)
        team = service.repository.tenant_by_name(session, tenant)
        assert team is not None
        session.add(Membership(person_id=person.id, tenant_id=team.id, role="admin", source="oidc"))
        maker = f"person:{person.id}"
        _, keys["person"] = service.create_key(session, tenant, created_by=maker)
        for _ in range(arguments.chain):
            made_id = service.repository.keys_of(session, team.id)[-1].id
            _, key = service.create_key(session, tenant, created_by=f"key:{made_id}")
        keys[f"chain of {arguments.chain}"] = key
        # A key whose maker (a key the person made) was revoked without it: the walk stops at
        # that maker, read as any key in between is, and the key holds nothing.
        _, revoked = service.create_key(session, tenant, created_by=maker)
        revoked_key = session.scalars(
            select(ApiKey).where(ApiKey.key_hash == service.hash_key(revoked))
        ).one()
        _, keys["revoked maker"] = service.create_key(
            session, tenant, created_by=f"key:{revoked_key.id}"
        )
        revoked_key.revoked_at = utcnow()
        session.commit()
    print(
        f"{url.split(':', 1)[0]}, {arguments.n} authentications per case, best of {arguments.runs}"
    )
    print(f"{'key made by':<14} {'lookup µs':>10} {'+ cap µs':>10} {'cap adds µs':>12}")

    def per_call(key: str, with_cap: bool) -> float:
        """µs per authentication, the best of `--runs` (a busy machine only adds)."""
        best = float("inf")
        for _ in range(arguments.runs):
            with runtime.session() as session:
                started = time.perf_counter()
                for _ in range(arguments.n):
                    caller = service.caller_for_key(session, key)
                    assert isinstance(caller, Caller)
                    if with_cap:
                        capped(session, caller)
                    # Each request has a session of its own: nothing is read from the last one.
                    session.expire_all()
                best = min(best, (time.perf_counter() - started) / arguments.n * 1e6)
        return best

    per_call(keys["operator"], True)  # warm up: connections, statement caches
    for name, key in keys.items():
        timings = [per_call(key, False), per_call(key, True)]
        print(
            f"{name:<14} {timings[0]:>10.0f} {timings[1]:>10.0f} {timings[1] - timings[0]:>12.0f}"
        )


if __name__ == "__main__":
    main()
