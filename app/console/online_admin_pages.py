"""A team admin's changes to its online rules in the console, and its limits: the Production
list's new-rule form, a rule's settings form, enable, disable and delete (after a confirmation
page). Every route here needs the `admin` scope (app/console/auth.py `_ADMIN_ROUTES`).

A form is turned into the API's own body (`OnlineRuleCreate`, `OnlineRuleUpdate`) and goes
through the same checks and service functions as `/v1/online_rules`, which record each change
on the audit trail as the signed-in person's or key's doing; what is wrong comes back on the
page (400), each error naming its field as the API's 422 would.
"""

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import Session

from app.api import nesting
from app.api.deps import RuntimeDep, SessionDep
from app.console import csrf
from app.console._render import SignedIn, page, see_other
from app.console.auth import ConsoleSession
from app.console.online_pages import rule_page, rules_page
from app.db import utcnow
from app.online import checks, service
from app.online.schemas import OnlineRuleCreate, OnlineRuleUpdate
from app.problems import FieldError, ProblemError, field_error, located_errors
from app.runtime import Runtime
from app.tenants import limits
from app.usage.service import spent_today

router = APIRouter(prefix="/console", include_in_schema=False)

S = TypeVar("S", bound=BaseModel)

# The forms take more than the schema allows, so a long value gets the page naming the limit.
NAME_MAX = 1024
NUMBER_MAX = 64
VALUE_MAX = 4096
METRICS_MAX = 65536
# Room for 16 headers of 4,096 characters with their names: the API's limits are its checks'.
HEADERS_MAX = 70000
# What the new-rule form's metrics start with (online_rules.html): the list the API takes.
METRICS_EXAMPLE = '[{"type": "answer_relevancy", "threshold": 0.7}]'

Text = Annotated[str, Form(max_length=NAME_MAX)]
Number = Annotated[str, Form(max_length=NUMBER_MAX)]
Token = Annotated[str, Form(max_length=128)]


def _number(text: str) -> float | str:
    """A form's number as the API takes it; text that is none stays text, for the schema to
    name its field."""
    try:
        return float(text.strip())
    except ValueError:
        return text


def _budget(text: str) -> float | str | None:
    """The daily budget field: empty is no cap."""
    return _number(text) if text.strip() else None


def _field_errors(error: ValidationError, body: Mapping[str, Any]) -> list[FieldError]:
    """The schema's errors as the API's 422 names them (`metrics[0].threshold`)."""
    found = []
    for path, message, kind, raw in located_errors(error.errors(), body):
        if raw.get("type") in ("union_tag_invalid", "union_tag_not_found"):
            path.append("type")
        found.append(field_error(path or ["body"], message, kind))
    return found


def _validated(
    schema: type[S], body: Mapping[str, Any], more: list[FieldError], check: Any
) -> tuple[S | None, list[FieldError]]:
    """The body as `schema`, or every error: the schema's, `more` (the form's own), and
    `check`'s (what the API's `checked_anyway` adds to a body failing its schema)."""
    try:
        made = schema.model_validate(body)
    except ValidationError as error:
        said = {e.loc for e in more}
        errors = more + [e for e in _field_errors(error, body) if e.loc not in said]
    else:
        if not more:
            return made, []
        errors = list(more)
    named = {e.loc for e in errors}
    return None, errors + [e for e in check() if e.loc not in named]


def _header_lines(text: str) -> tuple[dict[str, str], list[FieldError]]:
    """The settings form's `Name: value` lines as `export_headers`, and the lines that are
    none (named by number: a line may hold a secret)."""
    headers: dict[str, str] = {}
    bad = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, value = line.partition(":")
        if not colon:
            bad.append(number)
            continue
        headers[name.strip()] = value.strip()
    if not bad:
        return headers, []
    lines = ", ".join(str(number) for number in bad)
    return headers, [
        field_error(
            ["export_headers"],
            f"line{'s' if len(bad) > 1 else ''} {lines}: write each header as `Name: value`",
            "invalid_header",
        )
    ]


def _refused(problem: ProblemError) -> list[FieldError]:
    """A service's 4xx as the page's errors."""
    if not 400 <= problem.status < 500:
        raise problem
    return problem.errors or [field_error(["body"], problem.detail or problem.title)]


@router.post("/online_rules", name="create_online_rule_form")
def create_online_rule_form(
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    name: Text = "",
    filter_attribute: Text = "",
    filter_op: Annotated[str, Form(max_length=16)] = "eq",
    filter_value: Annotated[str, Form(max_length=VALUE_MAX)] = "",
    sampling_rate: Number = "",
    metrics: Annotated[str, Form(max_length=METRICS_MAX)] = "",
    daily_usd: Number = "",
    csrf_token: Token = "",
) -> Response:
    """A new rule from the Production page's form, checked as POST /v1/online_rules checks."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    tenant = signed_in.tenant
    body: dict[str, Any] = {
        "name": name,
        "filter": (
            [{"attribute": filter_attribute, "op": filter_op, "value": filter_value}]
            if filter_attribute or filter_value
            else []
        ),
        "sampling": {"rate": _number(sampling_rate)},
        "daily_usd": _budget(daily_usd),
    }
    more = []
    try:
        # Read as a JSON body is: a list nested 5,000 deep was a RecursionError (a 500 page).
        body["metrics"] = nesting.loads(metrics)
    except ValueError as error:
        more.append(
            field_error(
                ["metrics"],
                f"not JSON ({error}): give the list of metrics POST /v1/online_rules takes, "
                f"e.g. {METRICS_EXAMPLE}",
                "json_invalid",
            )
        )
    payload, errors = _validated(
        OnlineRuleCreate,
        body,
        more,
        lambda: checks.body_problems(session, tenant, runtime.settings, body),
    )
    if payload is not None:
        try:
            rule = service.create(session, tenant, payload, runtime.settings)
        except ProblemError as problem:
            errors = _refused(problem)
        else:
            session.commit()
            return see_other(f"/console/online_rules/{rule.id}")
    form = {
        "name": name,
        "filter_attribute": filter_attribute,
        "filter_op": filter_op,
        "filter_value": filter_value,
        "sampling_rate": sampling_rate,
        "metrics": metrics,
        "daily_usd": daily_usd,
    }
    return rules_page(
        request, session, runtime, signed_in, status_code=400, new_rule=form, errors=errors
    )


@router.post("/online_rules/{rule_id}/settings", name="update_online_rule_form")
def update_online_rule_form(
    request: Request,
    rule_id: str,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    name: Text = "",
    sampling_rate: Number = "",
    daily_usd: Number = "",
    enabled: Annotated[str, Form(max_length=8)] = "",
    export_endpoint: Annotated[str | None, Form(max_length=VALUE_MAX)] = None,
    export_headers: Annotated[str, Form(max_length=HEADERS_MAX)] = "",
    export_headers_clear: Annotated[str, Form(max_length=8)] = "",
    csrf_token: Token = "",
) -> Response:
    """A rule's name, sampling, budget, switch and collector, changed as PATCH
    /v1/online_rules/{id}. The header values typed are never shown again, on this page or
    another: empty keeps the stored ones."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    tenant = signed_in.tenant
    rule = service.get_or_404(session, tenant, rule_id)
    body: dict[str, Any] = {
        "name": name,
        "sampling": {"rate": _number(sampling_rate)},
        "daily_usd": _budget(daily_usd),
        "enabled": bool(enabled),
    }
    if export_endpoint is not None:
        body["export_endpoint"] = export_endpoint.strip() or None
    headers, more = _header_lines(export_headers)
    if export_headers_clear:
        body["export_headers"] = None
    elif headers:
        body["export_headers"] = headers
    payload, errors = _validated(
        OnlineRuleUpdate,
        body,
        more,
        lambda: checks.update_body_problems(session, tenant, runtime.settings, body, rule_id),
    )
    if payload is not None:
        try:
            service.update(session, tenant, rule, payload, runtime.settings)
        except ProblemError as problem:
            errors = _refused(problem)
        else:
            session.commit()
            return _back_to(rule_id)
    session.rollback()
    form = {
        "name": name,
        "sampling_rate": sampling_rate,
        "daily_usd": daily_usd,
        "enabled": enabled,
        "export_endpoint": export_endpoint or "",
        "export_headers_clear": export_headers_clear,
    }
    return rule_page(
        request, session, runtime, signed_in, rule_id, status_code=400, settings=form, errors=errors
    )


@router.post("/online_rules/{rule_id}/enable", name="enable_online_rule_form")
def enable_online_rule_form(
    request: Request,
    rule_id: str,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
) -> Response:
    return _switch(request, session, runtime, signed_in, rule_id, csrf_token, True)


@router.post("/online_rules/{rule_id}/disable", name="disable_online_rule_form")
def disable_online_rule_form(
    request: Request,
    rule_id: str,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
) -> Response:
    return _switch(request, session, runtime, signed_in, rule_id, csrf_token, False)


def _switch(
    request: Request,
    session: Session,
    runtime: Runtime,
    signed_in: ConsoleSession,
    rule_id: str,
    csrf_token: str,
    enabled: bool,
) -> Response:
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    service.set_enabled(session, service.get_or_404(session, signed_in.tenant, rule_id), enabled)
    session.commit()
    return _back_to(rule_id)


@router.get("/online_rules/{rule_id}/delete", name="delete_online_rule_confirm")
def delete_online_rule_confirm(
    request: Request, rule_id: str, session: SessionDep, signed_in: SignedIn
) -> HTMLResponse:
    """The confirmation step: what deleting forgets, and the button that does it."""
    rule = service.get_or_404(session, signed_in.tenant, rule_id)
    return page(request, "online_rule_delete.html", signed_in, rule=rule)


@router.post("/online_rules/{rule_id}/delete", name="delete_online_rule_form")
def delete_online_rule_form(
    request: Request,
    rule_id: str,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    csrf_token: Token = "",
) -> Response:
    """Forget the rule, as DELETE /v1/online_rules/{id} does."""
    csrf.check(request, runtime.settings, signed_in.form_nonce, csrf_token)
    tenant = signed_in.tenant
    service.delete(session, runtime, tenant, service.get_or_404(session, tenant, rule_id))
    session.commit()
    return see_other("/console/online_rules")


def _back_to(rule_id: str) -> Response:
    return see_other(f"/console/online_rules/{rule_id}")


@router.get("/limits", name="limits_page")
def limits_page(
    request: Request, session: SessionDep, runtime: RuntimeDep, signed_in: SignedIn
) -> HTMLResponse:
    """The team's limits and what it uses of them, read-only: the operator sets them."""
    tenant = signed_in.tenant
    spent, unpriced = spent_today(session, tenant.id, utcnow())
    return page(
        request,
        "limits.html",
        signed_in,
        max_active=tenant.max_active_evaluations,
        active=limits.active_evaluations(session, tenant.id),
        daily_usd=tenant.daily_usd,
        spent=spent,
        unpriced=unpriced,
        storage_quota=limits.storage_quota(tenant, runtime.settings),
        storage_own=bool(tenant.storage_bytes),
        storage_used=limits.storage_used(session, tenant.id),
    )
