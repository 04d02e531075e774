"""Commands on tenants: `tenants list | create | rename | delete | limits`."""

import math

import typer

from app.cli._root import fail, migrated_runtime, tenants
from app.cli.accounts import shown, shown_time


def _finite(value: float | None) -> float | None:
    # Click reads `1e400` as an infinity and `nan` as NaN: stored, an infinity was no budget at
    # all and NaN never reached.
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number of dollars")
    return value


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
        callback=_finite,
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
    from app import audit
    from app.tenants import limits, repository
    from app.tenants.scopes import OPERATOR

    with migrated_runtime() as runtime, runtime.session() as session:
        row = repository.tenant_by_name(session, tenant)
        if row is None:
            typer.echo(f"no tenant named {tenant!r}", err=True)
            raise typer.Exit(1)
        if max_active_evaluations is not None:
            limits.set_limits(session, row, max_active_evaluations=max_active_evaluations or None)
        if daily_usd is not None:
            limits.set_limits(session, row, daily_usd=daily_usd or None)
        if storage_bytes is not None:
            limits.set_limits(session, row, storage_bytes=storage_bytes or None)
        changed = {
            name: value
            for name, value in (
                ("max_active_evaluations", max_active_evaluations),
                ("daily_usd", daily_usd),
                ("storage_bytes", storage_bytes),
            )
            if value is not None
        }
        if changed:
            audit.record(
                session,
                OPERATOR,
                "tenant.limits",
                "tenant",
                row.id,
                tenant_id=row.id,
                **changed,
            )
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


@tenants.command("list")
def list_tenants() -> None:
    """List every tenant: name, id, created, live keys (neither revoked nor expired)."""
    from app.tenants.service import all_tenants

    with migrated_runtime(log=False) as runtime, runtime.session() as session:
        found = all_tenants(session)
    rows = [(shown(t.name), t.id, shown_time(t.created_at), str(keys)) for t, keys in found]
    header = ("name", "id", "created", "keys")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        typer.echo("  ".join([*cells, row[-1]]).rstrip())


@tenants.command("create")
def create_tenant(name: str = typer.Argument(..., help="The new tenant's name.")) -> None:
    """Create a tenant (then `loupe keys create --tenant NAME`)."""
    from app import audit
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import TenantExists, check_tenant_name
    from app.tenants.service import create_tenant as make_tenant

    try:
        check_tenant_name(name)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    with migrated_runtime() as runtime, runtime.session() as session:
        try:
            row = make_tenant(session, name)
        except TenantExists:
            fail(f"a tenant named {name!r} exists already", 1)
        audit.record(session, OPERATOR, "tenant.create", "tenant", row.id, tenant_id=row.id)
        session.commit()
    typer.echo(f"created tenant {row.name} ({row.id})")


@tenants.command("rename")
def rename_tenant(
    name: str = typer.Argument(..., help="The tenant's name now."),
    new_name: str = typer.Argument(..., help="Its new name."),
) -> None:
    """Rename a tenant; its id, keys and everything it owns stay."""
    from app import audit
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import TenantExists, UnknownTenant, check_tenant_name
    from app.tenants.service import rename_tenant as rename

    try:
        check_tenant_name(new_name)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="NEW_NAME") from None
    with migrated_runtime() as runtime, runtime.session() as session:
        try:
            row = rename(session, name, new_name)
        except UnknownTenant:
            fail(f"no tenant named {name!r} (`loupe tenants list` shows them)", 1)
        except TenantExists:
            fail(f"a tenant named {new_name!r} exists already", 1)
        if name != new_name:
            audit.record(
                session,
                OPERATOR,
                "tenant.rename",
                "tenant",
                row.id,
                tenant_id=row.id,
                old_name=name,
                new_name=new_name,
            )
        session.commit()
    typer.echo(f"renamed tenant {name} to {new_name} ({row.id})")


@tenants.command("delete")
def delete_tenant(
    name: str = typer.Argument(..., help="The tenant to delete."),
    yes: bool = typer.Option(False, "--yes", help="Do not ask for confirmation."),
) -> None:
    """Delete a tenant with everything it owns: keys, evaluations and runs, datasets, files,
    models, evals, online rules, webhooks, comparisons, images no other tenant uses, and its
    audit trail. Running evaluations stop. There is no undo."""
    from app import audit
    from app.tenants import repository
    from app.tenants.scopes import OPERATOR
    from app.tenants.service import collect_blobs
    from app.tenants.service import delete_tenant as delete

    with migrated_runtime() as runtime:
        with runtime.session() as session:
            row = repository.tenant_by_name(session, name)
            if row is None:
                fail(f"no tenant named {name!r} (`loupe tenants list` shows them)", 1)
            tenant_id = row.id
            if not yes and not typer.confirm(
                f"Delete tenant {name} ({tenant_id}) and everything it owns? There is no undo",
                default=False,
            ):
                fail("nothing deleted", 1)
            digests = delete(session, row)
            session.commit()
        with runtime.session() as session:
            removed = collect_blobs(session, tenant_id, digests)
            session.commit()
    # The tenant's audit trail went with it: the operator's deletion is logged instead, with
    # the fields of every audit line.
    audit.log_only(
        OPERATOR,
        "tenant.delete",
        "tenant",
        tenant_id,
        tenant_id=tenant_id,
        name=name,
        images_deleted=len(removed),
    )
    typer.echo(f"deleted tenant {name} ({tenant_id}) and everything it owned")
