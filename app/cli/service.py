"""Commands that run Loupe: `serve`, `worker`, `worker-health`, `migrate`, `openapi`."""

import logging
import os
import socket
import tempfile
from contextlib import suppress
from typing import TYPE_CHECKING, Any

import typer

from app.cli._root import cli, configure_logging, fail, start_up_settings
from app.config import Settings, get_settings

if TYPE_CHECKING:
    from fastapi import FastAPI


@cli.command()
def serve(
    migrate: bool = typer.Option(True, help="Upgrade the database first."),
    workers: int = typer.Option(
        1, "--workers", min=1, help="API processes (distributed mode only: LOUPE_REDIS_URL)."
    ),
) -> None:
    """Start the API (and, without LOUPE_REDIS_URL, the embedded worker)."""
    from app import migrate as migrations
    from app.evaluations.judging import startup_line

    settings = start_up_settings()
    if workers > 1 and settings.embedded:
        typer.echo(
            "loupe serve --workers N needs LOUPE_REDIS_URL: the embedded mode runs its jobs in "
            "the one API process, on a queue held in that process's memory",
            err=True,
        )
        raise typer.Exit(2)
    configure_logging(settings)
    if migrate:
        # Alembic logs a line per revision (23 on a new database): one line says what changed.
        logging.getLogger("alembic").setLevel(logging.WARNING)
        before, after = migrations.upgrade(settings, waiting=_told_waiting)
        if before != after:
            typer.echo(_schema_change(before, after))
    if not settings.embedded:
        _warn_if_redis_is_away(settings)
    mode = "embedded worker" if settings.embedded else f"RQ queue {settings.queue_name!r}"
    processes = f", {workers} processes" if workers > 1 else ""
    banner = (
        f"Loupe on http://{settings.host}:{settings.port} ({mode}{processes}); "
        f"{startup_line(settings)}"
    )
    if workers > 1:
        # Each process writes its metrics here and GET /metrics sums them (set before any
        # process imports prometheus_client, which reads it once).
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="loupe-metrics-")
    _serve(settings, workers, banner)


def _serve(settings: Settings, workers: int, banner: str) -> None:
    """Run uvicorn on a socket listening before `banner` is printed: a script waiting for the
    line then connects (its request waits for the app's start-up), never refused."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from app.limits import bounded_http

    config = uvicorn.Config(
        # One process serves an app made (and warmed up) here; several each make their own.
        _settled_app(settings) if workers == 1 else "app.cli:served_app",
        factory=workers > 1,
        workers=workers,
        host=settings.host,
        port=settings.port,
        # log_config=None: uvicorn's lines go through Loupe's handler (text or JSON) too.
        log_config=None,
        http=bounded_http(settings),
        **_proxy_options(settings),
    )
    # Bound and listening here, not by uvicorn, which listens only once a process's server has
    # started: the kernel queues connections from now on, so the line tells the truth at once.
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    try:
        sock = socket.create_server(
            (settings.host, settings.port), family=family, backlog=config.backlog
        )
    except OSError as error:
        fail(f"cannot listen on {settings.host}:{settings.port}: {error}", 3)
    # The processes of --workers N are spawned: they inherit it.
    sock.set_inheritable(True)
    typer.echo(banner)
    if workers > 1:
        Multiprocess(config, sockets=[sock]).run()
        return
    server = uvicorn.Server(config)
    with suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    if not server.started:
        # As uvicorn.run exits when its server never started (the app's start-up failed).
        raise typer.Exit(3)


def _proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's proxy-header options: forwarded addresses are believed only from the proxies
    in LOUPE_FORWARDED_ALLOW_IPS (uvicorn's default believes any local process)."""
    if not settings.forwarded_allow_ips:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": settings.forwarded_allow_ips}


def served_app() -> "FastAPI":
    """The app of one `loupe serve --workers N` process (settings from the environment)."""
    settings = start_up_settings()
    configure_logging(settings)
    return _settled_app(settings)


def _settled_app(settings: Settings) -> "FastAPI":
    """The app of a serving process, warmed up (`warm_up`) and what start-up left alive frozen
    (app/heap.py)."""
    from app import heap
    from app.main import create_app, warm_up

    app = create_app(settings)
    warm_up(app)
    heap.settle(settings.gc_young_threshold)
    return app


@cli.command()
def worker(burst: bool = typer.Option(False, help="Exit when the queue is empty.")) -> None:
    """Consume jobs from Redis (LOUPE_REDIS_URL); run as many as you like, anywhere."""
    from app.evaluations.judging import startup_line
    from workers.main import run_worker

    settings = start_up_settings()
    configure_logging(settings)
    logging.getLogger("loupe").info(startup_line(settings))
    run_worker(settings, burst=burst)


@cli.command("worker-health")
def worker_health() -> None:
    """Exit 0 unless Redis answers and no live `loupe worker` of this host serves the queue (a
    worker container's health check). A store that does not answer is reported, not failed:
    the worker waits out an outage of either, and restarting every worker at once for one only
    delays them when it is back."""
    from redis import Redis
    from rq import Queue, Worker
    from sqlalchemy import text

    from app.db import make_engine

    settings = get_settings()
    if not settings.redis_url:
        typer.echo("LOUPE_REDIS_URL is not set: the embedded mode has no worker", err=True)
        raise typer.Exit(1)
    away = []
    engine = make_engine(settings)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - reported, not failed
        away.append(f"database: {type(exc).__name__}")
    finally:
        engine.dispose()
    host = socket.gethostname()
    redis = Redis.from_url(settings.redis_url, socket_timeout=5, socket_connect_timeout=5)
    try:
        workers = Worker.all(queue=Queue(settings.queue_name, connection=redis))
    except Exception as exc:  # noqa: BLE001
        away.append(f"redis: {type(exc).__name__}")
        workers = None
    finally:
        redis.close()
    # A SIGKILLed worker stays registered until its key expires; its pid is gone at once.
    if workers is not None and not any(
        w.hostname == host and w.pid and _running(w.pid) for w in workers
    ):
        away.insert(0, f"no live worker on {host} for queue {settings.queue_name!r}")
        typer.echo("unhealthy: " + "; ".join(away), err=True)
        raise typer.Exit(1)
    if away:
        waiting = "; ".join(away)
        typer.echo(f"worker on {host} is alive, waiting for the stores ({waiting})", err=True)
        return
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

    settings = start_up_settings()
    if downgrade_to:
        try:
            migrations.downgrade(settings, downgrade_to)
        except CommandError as error:
            fail(
                f"--downgrade {downgrade_to}: {error}; give a revision id from "
                f"migrations/versions/ or base (the database is at "
                f"{migrations.current(settings) or 'no schema'})",
                2,
            )
        typer.echo(f"downgraded to {downgrade_to}")
        return
    before, after = migrations.upgrade(settings, waiting=_told_waiting)
    typer.echo(_schema_change(before, after))


def _told_waiting(error: BaseException, left: float) -> None:
    """One line on stderr per wait for a database that cannot be reached yet (logging may not
    be configured: `loupe migrate` logs nothing else). The driver's first line says why; it
    names the host and port, never the password."""
    orig = getattr(error, "orig", None) or error
    reason = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    typer.echo(f"loupe: waiting for the database ({reason}); {left:.0f} s left", err=True)


def _schema_change(before: str | None, after: str | None) -> str:
    """What an upgrade did, in one line a newcomer reads (a revision is a migration's id)."""
    if before == after:
        return f"database ready: already at the latest schema (schema revision {after})"
    if before is None:
        return f"database ready: created every table (schema revision {after})"
    return f"database ready: upgraded the schema from revision {before} to {after}"


@cli.command()
def openapi() -> None:
    """Print the OpenAPI document (what `openapi.json` and the SDK are made from)."""
    import json

    from app.main import create_app

    typer.echo(json.dumps(create_app().openapi(), indent=2, sort_keys=True))


def _warn_if_redis_is_away(settings: Settings) -> None:
    """The API serves while Redis is away (it accepts work and queues it once Redis answers;
    /readyz says `degraded` meanwhile), unlike a worker, which has nothing to do without it:
    say so."""
    import redis

    from app.cli import store_address
    from app.telemetry.logs import redact

    assert settings.redis_url is not None
    try:
        redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.exceptions.RedisError as error:
        message = (
            f"loupe: warning: cannot connect to Redis{store_address(settings.redis_url)} "
            f"(LOUPE_REDIS_URL): {error}; serving anyway: submissions are accepted and queued "
            "once Redis answers, and /readyz reports the queue away (`degraded`) until then"
        )
        typer.echo(redact(message, *settings.secret_values()), err=True)
