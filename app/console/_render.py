"""What every console page shares: the templates, security headers, the signed-in session."""

from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from app import audit
from app.api.deps import RuntimeDep, SessionDep
from app.console import auth, csrf, reading, transcript, views

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
templates.env.filters.update(
    percent=views.percent,
    score=views.score,
    plain_error=views.plain_error,
    speaker=views.speaker,
    pretty_json=views.pretty_json,
    verdict=views.verdict,
)
templates.env.globals.update(
    parts=views.parts, outcome=views.outcome, histogram_bars=views.histogram_bars
)
# The test-case and comparison pages: scales, what each verdict judged, notes in words.
templates.env.filters["plural"] = reading.plural
templates.env.globals.update(
    score_scale=reading.score_scale,
    judge_scale=reading.judge_scale,
    verdict_subjects=reading.verdict_subjects,
    subject_header=reading.subject_header,
    image_scores=reading.image_scores,
    plain_notes=reading.plain_notes,
    retrieval_metrics=reading.RETRIEVAL_METRICS,
)
# Conversations: the transcript's turns, tool calls folded, verdicts pinned to turns.
templates.env.globals.update(
    is_conversation=transcript.is_conversation,
    transcript_turns=transcript.turns,
    tool_calls=transcript.tool_calls,
    pinned_verdicts=transcript.pinned,
    pins_of=transcript.pins_of,
    conversation_summary=transcript.summary,
)


def compile_templates() -> int:
    """Compile every console template now; Jinja keeps them compiled. A serving process calls
    it during start-up, before it answers (about 0.7 s for all of them here), so its first
    visitor of each page does not wait for the compile (docs/benchmarks.md, cold reads).
    Returns how many."""
    names = templates.env.list_templates(extensions=["html"])
    if templates.env.cache is not None and templates.env.cache.capacity < len(names):
        raise RuntimeError("the template cache is smaller than the console's templates")
    for name in names:
        templates.env.get_template(name)
    return len(names)


# Only Loupe's own scripts, styles and media; no framing; forms post back here only.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "media-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


def security_headers(policy: str) -> dict[str, str]:
    """The headers every HTML page Loupe serves sends: its Content-Security-Policy, no MIME
    sniffing, no framing, no full address sent to other sites."""
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }


SECURITY_HEADERS = {
    **security_headers(POLICY),
    # Pages show a tenant's data: never kept by shared caches or the back-forward cache.
    "Cache-Control": "no-store",
}


def see_other(target: str) -> RedirectResponse:
    """A 303 to `target` (after a form, or to sign in), with the pages' security headers."""
    return RedirectResponse(target, status_code=303, headers=SECURITY_HEADERS)


def current_session(
    request: Request, session: SessionDep, runtime: RuntimeDep
) -> auth.ConsoleSession:
    signed_in = auth.read(session, runtime.settings, request.cookies.get(auth.COOKIE))
    if signed_in is None:
        raise auth.SignInRequired()
    auth.check_scope(request, signed_in)
    # What a console action changes is recorded on the audit trail as the signed-in key's doing.
    audit.acting(session, signed_in.actor)
    return signed_in


SignedIn = Annotated[auth.ConsoleSession, Depends(current_session)]


def page(
    request: Request,
    template: str,
    signed_in: auth.ConsoleSession | None,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    """A rendered page with the console's security headers and, when signed in, the CSRF
    token its forms carry."""
    runtime = request.app.state.runtime
    if signed_in is not None:
        context.setdefault("tenant_name", signed_in.tenant.name)
        context.setdefault("signed_in_person", signed_in.person_id is not None)
        context.setdefault("signed_in_admin", "admin" in signed_in.scopes)
        context.setdefault("signed_in_review", "review" in signed_in.scopes)
        context.setdefault("signed_in_read", "read" in signed_in.scopes)
        context.setdefault("signed_in_write", "write" in signed_in.scopes)
        context.setdefault("signed_in_operator", signed_in.operator)
        context.setdefault("csrf_token", csrf.token(runtime.settings, signed_in.form_nonce))
    return templates.TemplateResponse(
        request, template, context, status_code=status_code, headers=SECURITY_HEADERS
    )


def live_page(
    request: Request,
    template: str,
    signed_in: auth.ConsoleSession,
    *,
    live: bool,
    hx_request: str | None,
    **context: Any,
) -> HTMLResponse:
    """A page htmx polls while its evaluation runs (`live`). When it finished while the page
    polled (`hx_request`, htmx's header), the answer tells htmx to reload the page whole, so
    its results show too."""
    response = page(request, template, signed_in, live=live, **context)
    if not live and hx_request:
        response.headers["HX-Refresh"] = "true"
    return response
