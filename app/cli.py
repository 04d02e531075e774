"""`loupe serve | worker | worker-health | migrate | keys create | compare`."""

import logging
import os
import socket
import tempfile
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit

import typer

from app.config import ConfigError, Settings, get_settings

if TYPE_CHECKING:
    from fastapi import FastAPI

cli = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Loupe: judge LLM output.",
)
keys = typer.Typer(no_args_is_help=True, help="Manage API keys.")
cli.add_typer(keys, name="keys")
tenants = typer.Typer(no_args_is_help=True, help="Manage tenants.")
cli.add_typer(tenants, name="tenants")


@cli.command()
def serve(
    migrate: bool = typer.Option(True, help="Upgrade the database first."),
    workers: int = typer.Option(
        1, "--workers", min=1, help="API processes (distributed mode only: LOUPE_REDIS_URL)."
    ),
) -> None:
    """Start the API (and, without LOUPE_REDIS_URL, the embedded worker)."""
    import uvicorn

    from app import migrate as migrations
    from app.evaluations.judging import startup_line

    settings = _start_up_settings()
    if workers > 1 and settings.embedded:
        typer.echo(
            "loupe serve --workers N needs LOUPE_REDIS_URL: the embedded mode runs its jobs in "
            "the one API process, on a queue held in that process's memory",
            err=True,
        )
        raise typer.Exit(2)
    _configure_logging(settings)
    if migrate:
        # Alembic logs a line per revision (23 on a new database): one line says what changed.
        logging.getLogger("alembic").setLevel(logging.WARNING)
        before, after = migrations.upgrade(settings)
        if before != after:
            typer.echo(_schema_change(before, after))
    mode = "embedded worker" if settings.embedded else f"RQ queue {settings.queue_name!r}"
    processes = f", {workers} processes" if workers > 1 else ""
    typer.echo(
        f"Loupe on http://{settings.host}:{settings.port} ({mode}{processes}); "
        f"{startup_line(settings)}"
    )
    if workers == 1:
        from app.main import create_app

        # log_config=None: uvicorn's lines go through Loupe's handler (text or JSON) too.
        uvicorn.run(
            create_app(settings),
            host=settings.host,
            port=settings.port,
            log_config=None,
            **_proxy_options(settings),
        )
        return
    # Each process writes its metrics here and GET /metrics sums them (set before any process
    # imports prometheus_client, which reads it once).
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="loupe-metrics-")
    uvicorn.run(
        "app.cli:served_app",
        factory=True,
        workers=workers,
        host=settings.host,
        port=settings.port,
        log_config=None,
        **_proxy_options(settings),
    )


def _proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy-header options: forwarded addresses are believed only from the proxies
    in LOUPE_FORWARDED_ALLOW_IPS (uvicorn's default believes any local process)."""
    if not settings.forwarded_allow_ips:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": settings.forwarded_allow_ips}


def served_app() -> "FastAPI":
    """The app of one `loupe serve --workers N` process (settings from the environment)."""
    from app.main import create_app

    settings = _start_up_settings()
    _configure_logging(settings)
    return create_app(settings)


@cli.command()
def worker(burst: bool = typer.Option(False, help="Exit when the queue is empty.")) -> None:
    """Consume jobs from Redis (LOUPE_REDIS_URL); run as many as you like, anywhere."""
    from app.evaluations.judging import startup_line
    from workers.main import run_worker

    settings = _start_up_settings()
    _configure_logging(settings)
    logging.getLogger("loupe").info(startup_line(settings))
    run_worker(settings, burst=burst)


def _start_up_settings() -> Settings:
    """The settings of a process that serves, works or migrates: distributed mode needs the
    shared LOUPE_SECRET_KEY, and a key file must hold a usable key (ConfigError, exit 2,
    otherwise)."""
    from app import crypto

    settings = get_settings()
    settings.require_shared_secret_key()
    crypto.check_key(settings)
    return settings


def _configure_logging(settings: Settings) -> None:
    from app.telemetry import logs

    logs.configure(
        settings.log_format,
        settings.log_level,
        secrets=settings.secret_values(),
    )


@cli.command("worker-health")
def worker_health() -> None:
    """Exit 0 if a live `loupe worker` on this host serves the queue and the database and
    Redis answer (a worker container's health check)."""
    from redis import Redis
    from rq import Queue, Worker
    from sqlalchemy import text

    from app.db import make_engine

    settings = get_settings()
    if not settings.redis_url:
        typer.echo("LOUPE_REDIS_URL is not set: the embedded mode has no worker", err=True)
        raise typer.Exit(1)
    failures = []
    engine = make_engine(settings)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure means unhealthy
        failures.append(f"database: {type(exc).__name__}")
    finally:
        engine.dispose()
    host = socket.gethostname()
    redis = Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        workers = Worker.all(queue=Queue(settings.queue_name, connection=redis))
        # A SIGKILLed worker stays registered until its key expires; its pid is gone at once.
        if not any(w.hostname == host and w.pid and _running(w.pid) for w in workers):
            failures.append(f"no live worker on {host} for queue {settings.queue_name!r}")
    except Exception as exc:  # noqa: BLE001
        failures.append(f"redis: {type(exc).__name__}")
    finally:
        redis.close()
    if failures:
        typer.echo("unhealthy: " + "; ".join(failures), err=True)
        raise typer.Exit(1)
    typer.echo(f"worker on {host} is healthy")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by another user
    return True


@cli.command()
def migrate(
    downgrade_to: str = typer.Option(None, "--downgrade", help="Downgrade to this revision."),
) -> None:
    """Upgrade the database to the latest schema (or downgrade)."""
    from alembic.util import CommandError

    from app import migrate as migrations

    settings = _start_up_settings()
    if downgrade_to:
        try:
            migrations.downgrade(settings, downgrade_to)
        except CommandError as error:
            _fail(
                f"--downgrade {downgrade_to}: {error}; give a revision id from "
                f"migrations/versions/ or base (the database is at "
                f"{migrations.current(settings) or 'no schema'})",
                2,
            )
        typer.echo(f"downgraded to {downgrade_to}")
        return
    before, after = migrations.upgrade(settings)
    typer.echo(_schema_change(before, after))


def _schema_change(before: str | None, after: str | None) -> str:
    """What an upgrade did, in one line."""
    if before == after:
        return f"database already at the latest schema ({after})"
    if before is None:
        return f"created every table (schema {after})"
    return f"upgraded the schema from {before} to {after}"


@cli.command()
def openapi() -> None:
    """Print the OpenAPI document (what `openapi.json` and the SDK are made from)."""
    import json

    from app.main import create_app

    typer.echo(json.dumps(create_app().openapi(), indent=2, sort_keys=True))


@keys.command("create")
def create_key(
    tenant: str = typer.Option(..., "--tenant", help="Tenant name; created if new."),
) -> None:
    """Create an API key for a tenant; the key is the last line printed, shown only once."""
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants.service import create_key as make_key

    # A newcomer may create a key before the first `serve`; the schema must exist either way.
    migrations.upgrade(_start_up_settings())
    runtime = current()
    with runtime.session() as session:
        tenant_row, key = make_key(session, tenant)
        session.commit()
    typer.echo(
        f"tenant {tenant_row.name} ({tenant_row.id}); store this key, it is not shown again:"
    )
    typer.echo(key)
    runtime.close()


@cli.command()
def compare(
    baseline_id: str = typer.Argument(..., help="The baseline evaluation or run id."),
    candidate_id: str = typer.Argument(..., help="The candidate, of the same kind."),
    metric: list[str] = typer.Option(
        [], "--metric", help="A metric to compare (repeat); default every shared metric."
    ),
    fail_on: list[str] = typer.Option(
        [],
        "--fail-on",
        help="Exit 1 when a compared metric regressed, or (errored) when the candidate has more "
        "errored items than the baseline; repeat for both (default: regressed).",
    ),
    accept_settings_change: bool = typer.Option(
        False,
        "--accept-settings-change",
        help="Decide even on metrics whose settings differ between the sides (else exit 2).",
    ),
    url: str = typer.Option(
        "http://127.0.0.1:8000", envvar="LOUPE_URL", help="The Loupe service (LOUPE_URL)."
    ),
    api_key: str = typer.Option(
        ..., envvar="LOUPE_API_KEY", help="An API key (LOUPE_API_KEY).", show_default=False
    ),
) -> None:
    """Compare two evaluations (or runs) on a running service and gate a CI step on it:
    exit 1 when any compared metric regressed, 2 when the gate cannot decide (as
    `loupe-client compare`)."""
    # One gate for both commands: `loupe-client compare` (sdk/python, installed beside Loupe).
    try:
        from loupe_client._cli import main as client_main
        from loupe_client._gate import FAIL_ON
    except ImportError as exc:
        typer.echo(f"loupe compare: {exc}: pip install ./sdk/python (make does)", err=True)
        raise typer.Exit(2) from exc

    command = ["--url", url, "--api-key", api_key, "compare", baseline_id, candidate_id]
    for name in metric:
        command += ["--metric", name]
    for verdict in fail_on:
        if verdict not in FAIL_ON:
            raise typer.BadParameter(
                f"{verdict!r} is not one of {', '.join(FAIL_ON)}", param_hint="--fail-on"
            )
        command += ["--fail-on", verdict]
    if accept_settings_change:
        command.append("--accept-settings-change")
    raise typer.Exit(client_main(command))


@keys.command("list")
def list_keys(tenant: str = typer.Option(..., "--tenant", help="Tenant name.")) -> None:
    """List a tenant's keys: id, prefix, created, last used, revoked."""
    from app.runtime import current
    from app.tenants.service import keys_of

    runtime = current()
    with runtime.session() as session:
        found = keys_of(session, tenant)
    runtime.close()
    if found is None:
        typer.echo(f"no tenant named {tenant!r}", err=True)
        raise typer.Exit(1)
    rows = [
        (
            key.id,
            key.prefix + "…",
            _when(key.created_at),
            _when(key.last_used_at),
            _when(key.revoked_at) if key.revoked_at else "",
        )
        for key in found
    ]
    header = ("id", "prefix", "created", "last used", "revoked")
    # Each column as wide as its widest cell, so ids (32 characters) never run into the prefix.
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())


@keys.command("revoke")
def revoke_key(key_id: str = typer.Argument(..., help="The key's id (`loupe keys list`).")) -> None:
    """Revoke a key: every API process answers 401 to it from the next request on."""
    from app.runtime import current
    from app.tenants.service import revoke_key as revoke

    runtime = current()
    with runtime.session() as session:
        api_key = revoke(session, key_id)
        session.commit()
    runtime.close()
    if api_key is None:
        typer.echo(f"no key {key_id!r}", err=True)
        raise typer.Exit(1)
    typer.echo(f"revoked {api_key.id} ({api_key.prefix}…)")


def _when(moment: object) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "never"  # type: ignore[attr-defined]


@tenants.command("limits")
def tenant_limits(
    tenant: str = typer.Option(..., "--tenant", help="Tenant name."),
    max_active_evaluations: int | None = typer.Option(
        None,
        "--max-active-evaluations",
        min=0,
        help="Evaluations and runs queued or running at once; more are refused with 429. "
        "0 removes the limit.",
    ),
    daily_usd: float | None = typer.Option(
        None,
        "--daily-usd",
        min=0,
        help="USD the tenant may spend per UTC day (priced by LOUPE_MODEL_PRICES): past it "
        "submissions answer 429 and running evaluations stop calling models "
        "(budget_exceeded). 0 removes the limit.",
    ),
    storage_bytes: int | None = typer.Option(
        None,
        "--storage-bytes",
        min=0,
        help="Bytes the tenant's datasets, their images and audio, and uploaded files may "
        "occupy; an upload past it answers 413. 0 goes back to LOUPE_TENANT_STORAGE_BYTES.",
    ),
) -> None:
    """Show or set a tenant's limits (without options: show them)."""
    from app import migrate as migrations
    from app.runtime import current
    from app.tenants import limits, repository

    migrations.upgrade(get_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            row = repository.tenant_by_name(session, tenant)
            if row is None:
                typer.echo(f"no tenant named {tenant!r}", err=True)
                raise typer.Exit(1)
            if max_active_evaluations is not None:
                limits.set_limits(
                    session, row, max_active_evaluations=max_active_evaluations or None
                )
            if daily_usd is not None:
                limits.set_limits(session, row, daily_usd=daily_usd or None)
            if storage_bytes is not None:
                limits.set_limits(session, row, storage_bytes=storage_bytes or None)
            session.commit()
            active = row.max_active_evaluations
            budget = f"{row.daily_usd:g}" if row.daily_usd else "none"
            quota = limits.storage_quota(row, runtime.settings)
            origin = "" if row.storage_bytes else " (LOUPE_TENANT_STORAGE_BYTES)"
            used = limits.storage_used(session, row.id)
            typer.echo(
                f"tenant {row.name}: max_active_evaluations={active or 'none'} daily_usd={budget} "
                f"storage_bytes={quota}{origin} storage_used={used}"
            )
    finally:
        runtime.close()


# Exit statuses: 2 for settings (or arguments) the command cannot run with, 1 for a store
# (database, Redis) it cannot reach.
CONFIG_EXIT = 2
UNREACHABLE_EXIT = 1


def main() -> None:
    """The `loupe` command. Bad settings and unreachable stores end it with a line saying
    which variable or store and why, not a traceback."""
    try:
        cli()
    except ConfigError as error:
        _fail(str(error), CONFIG_EXIT)
    except Exception as error:
        failure = _store_failure(error)
        if failure is None:
            raise
        _fail(*failure)


def _fail(message: str, status: int) -> NoReturn:
    for line in message.splitlines():
        typer.echo(f"loupe: {line}", err=True)
    raise SystemExit(status)


def _store_failure(error: Exception) -> tuple[str, int] | None:
    """What to say when `error` is a store the settings point at failing, and the status."""
    import redis.exceptions
    import sqlalchemy.exc
    from alembic.util import CommandError

    from app.telemetry.logs import redact

    settings = get_settings()  # cached: it was read before anything could fail
    if isinstance(error, sqlalchemy.exc.ArgumentError | sqlalchemy.exc.NoSuchModuleError):
        return f"LOUPE_DATABASE_URL: not a database URL SQLAlchemy can use: {error}", CONFIG_EXIT
    if isinstance(error, sqlalchemy.exc.OperationalError):
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        where = _address(settings.database_url)
        message = f"cannot use the database{where} (LOUPE_DATABASE_URL): {reason}"
        return redact(message, *settings.secret_values()), UNREACHABLE_EXIT
    if isinstance(error, redis.exceptions.ConnectionError) and settings.redis_url:
        where = _address(settings.redis_url)
        message = f"cannot connect to Redis{where} (LOUPE_REDIS_URL): {error}"
        return redact(message, *settings.secret_values()), UNREACHABLE_EXIT
    if isinstance(error, CommandError):
        return f"migrations: {error}", UNREACHABLE_EXIT
    return None


def _address(url: str) -> str:
    """at host:port of a store URL, never its user or password ("" for a file)."""
    parts = urlsplit(url)
    if not parts.hostname:
        return ""
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f" at {parts.hostname}{port}"
