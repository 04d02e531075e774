"""Commands on API keys: `keys create | list | revoke` (tenants: tenant_commands.py)."""

from typing import TYPE_CHECKING

import typer

from app.cli._root import cli_logging, keys, start_up_settings

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@keys.command("create")
def create_key(
    tenant: str = typer.Option(..., "--tenant", help="Tenant name (`loupe tenants list`)."),
    create_tenant: bool = typer.Option(
        False, "--create-tenant", help="Create the tenant when there is none of that name."
    ),
    scopes: str | None = typer.Option(
        None,
        "--scopes",
        help="What the key may do, comma-separated: read, write, ingest (OTLP only), review, "
        "admin (online rules, the audit trail). "
        "Default: every scope.",
    ),
    name: str | None = typer.Option(None, "--name", help="A name to tell the key apart (ci)."),
    expires: str | None = typer.Option(
        None,
        "--expires",
        help="When it stops working: a duration from now (90d, 12h, 30m) or an ISO date or "
        "time (2027-01-31, UTC). Default: never.",
    ),
) -> None:
    """Create an API key for a tenant; the key is the last line printed, shown only once."""
    from app import audit
    from app import migrate as migrations
    from app.db import utcnow
    from app.runtime import current
    from app.tenants.repository import tenant_by_name
    from app.tenants.scopes import OPERATOR, parse_scopes
    from app.tenants.service import (
        UnknownTenant,
        check_key_name,
        check_tenant_name,
        parse_expiry,
    )
    from app.tenants.service import create_key as make_key

    try:
        chosen = parse_scopes(scopes) if scopes is not None else None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--scopes") from None
    try:
        expires_at = parse_expiry(expires, utcnow()) if expires is not None else None
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--expires") from None
    if name is not None:
        try:
            name = check_key_name(name)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--name") from None
    if create_tenant:
        try:
            check_tenant_name(tenant)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--tenant") from None
    # A newcomer may create a key before the first `serve`; the schema must exist either way.
    cli_logging()
    migrations.upgrade(start_up_settings())
    runtime = current()
    try:
        with runtime.session() as session:
            existed = tenant_by_name(session, tenant) is not None
            try:
                tenant_row, key = make_key(
                    session,
                    tenant,
                    create=create_tenant,
                    scopes=chosen,
                    name=name,
                    expires_at=expires_at,
                )
            except UnknownTenant:
                typer.echo(
                    f"loupe: no tenant named {tenant!r}; create it with this command's "
                    f"--create-tenant, or first `loupe tenants create {tenant}` "
                    "(`loupe tenants list` shows those there are)",
                    err=True,
                )
                raise typer.Exit(1) from None
            if not existed:
                audit.record(
                    session,
                    OPERATOR,
                    "tenant.create",
                    "tenant",
                    tenant_row.id,
                    tenant_id=tenant_row.id,
                )
            _audit_key(session, key, "api_key.create")
            session.commit()
    finally:
        runtime.close()
    what = ",".join(chosen) if chosen is not None else "every scope"
    until = f"expires {shown_time(expires_at)} UTC" if expires_at is not None else "no expiry"
    typer.echo(
        f"tenant {tenant_row.name} ({tenant_row.id}); {what}; {until}; store this key, it is "
        "not shown again:"
    )
    typer.echo(key)


@keys.command("list")
def list_keys(tenant: str = typer.Option(..., "--tenant", help="Tenant name.")) -> None:
    """List a tenant's keys: id, name, prefix, scopes, expiry, created (and by whom), last
    used, revoked."""
    from app.runtime import current
    from app.tenants.scopes import KEY_SCOPES
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
            shown(key.name) if key.name else "-",
            key.prefix + "…",
            ",".join(key.scopes if key.scopes is not None else KEY_SCOPES) or "-",
            shown_time(key.expires_at),
            shown_time(key.created_at),
            key.created_by or "-",
            shown_time(key.last_used_at),
            shown_time(key.revoked_at) if key.revoked_at else "",
        )
        for key in found
    ]
    header = (
        "id",
        "name",
        "prefix",
        "scopes",
        "expires",
        "created",
        "created by",
        "last used",
        "revoked",
    )
    # Each column as wide as its widest cell, so ids (32 characters) never run into the prefix.
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())


@keys.command("revoke")
def revoke_key(key_id: str = typer.Argument(..., help="The key's id (`loupe keys list`).")) -> None:
    """Revoke a key and the keys made with it: every API process answers 401 to them from the
    next request on."""
    from app.runtime import current
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import revoke_key as revoke

    cli_logging()
    runtime = current()
    with runtime.session() as session:
        revoked = revoke(session, key_id, OPERATOR)
        session.commit()
    runtime.close()
    if revoked is None:
        typer.echo(f"no key {key_id!r}", err=True)
        raise typer.Exit(1)
    api_key, along = revoked
    typer.echo(f"revoked {api_key.id} ({api_key.prefix}…)")
    for key in along:
        typer.echo(f"revoked {key.id} ({key.prefix}…), made with it")


def _audit_key(session: "Session", key: str, action: str) -> None:
    """The operator's audit event for the key `key` (its id and prefix, never the secret)."""
    from app import audit
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import hash_key
    from app.unscoped.api_keys import UnscopedApiKeyRepository

    found = UnscopedApiKeyRepository(session).tenant_and_key(hash_key(key))
    if found is not None:
        tenant_row, api_key = found
        audit.record(
            session,
            OPERATOR,
            action,
            "api_key",
            api_key.id,
            tenant_id=tenant_row.id,
            prefix=api_key.prefix,
        )


def shown(text: str) -> str:
    """Text for the terminal: control characters (a name stored before names were checked)
    escaped as Python writes them, so a row cannot rewrite the operator's screen."""
    return text if text.isprintable() else repr(text)[1:-1]


def shown_time(moment: object) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S") if moment is not None else "never"  # type: ignore[attr-defined]
