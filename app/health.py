"""Liveness and readiness probes."""

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from app.api.deps import RuntimeDep
from app.problems import Problem, problem_response, problem_responses

router = APIRouter(tags=["health"])


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz", responses=problem_responses(503))
def readyz(runtime: RuntimeDep) -> JSONResponse:
    """Ready for traffic: the database answers. The queue (Redis) is checked and reported but
    does not make the process unready: requests are served while it is away (work is queued
    once it answers), and a blink of a store every API process shares must not take them all
    out of service at once."""
    checks: dict[str, str] = {}
    try:
        with runtime.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        checks["database"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        checks["database"] = type(exc).__name__
    try:
        runtime.dispatcher.ping()
        checks["queue"] = "ok"
    except Exception as exc:  # noqa: BLE001
        checks["queue"] = type(exc).__name__
    if checks["database"] == "ok":
        status = "ok" if checks["queue"] == "ok" else "degraded"
        return JSONResponse({"status": status, "checks": checks})
    failing = ", ".join(f"{k}: {v}" for k, v in checks.items() if v != "ok")
    return problem_response(
        Problem(title="Service Unavailable", status=503, detail=f"Not ready ({failing})."),
        {"Retry-After": "5"},
    )
