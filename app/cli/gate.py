"""`loupe compare`: gate a CI step on a comparison made by a running service."""

import typer


# Registered by app/cli/__init__.py after the service's commands (the order `loupe --help` lists).
def compare(
    baseline_id: str = typer.Argument(..., help="The baseline evaluation or run id."),
    candidate_id: str = typer.Argument(..., help="The candidate, of the same kind."),
    metric: list[str] = typer.Option(
        [], "--metric", help="A metric to compare (repeat); default every shared metric."
    ),
    fail_on: list[str] = typer.Option(
        [],
        "--fail-on",
        help="Exit 1 when a compared metric regressed, (errored) when the candidate has more "
        "errored items than the baseline, (fragile) when the candidate has fragile items "
        "(judgments straddling the threshold), or (unmatched) when the candidate lacks items of "
        "the baseline; repeat for several (default: regressed).",
    ),
    exclude_fragile: bool = typer.Option(
        False,
        "--exclude-fragile",
        help="Set aside the items fragile on either side from the comparison (still counted).",
    ),
    accept_settings_change: bool = typer.Option(
        False,
        "--accept-settings-change",
        help="Decide even on metrics whose settings differ between the sides (else exit 2).",
    ),
    allow_missing_metrics: bool = typer.Option(
        False,
        "--allow-missing-metrics",
        help="Pass even when the candidate lacks a metric of the baseline (else exit 1).",
    ),
    url: str = typer.Option(
        "http://127.0.0.1:8000", envvar="LOUPE_URL", help="The Loupe service (LOUPE_URL)."
    ),
    api_key: str = typer.Option(
        ..., envvar="LOUPE_API_KEY", help="An API key (LOUPE_API_KEY).", show_default=False
    ),
) -> None:
    """Compare two evaluations (or runs) on a running service and gate a CI step on it:
    exit 1 when any compared metric regressed or a metric of the baseline is missing, 2 when
    the gate cannot decide (as `loupe-client compare`)."""
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
    if exclude_fragile:
        command.append("--exclude-fragile")
    if allow_missing_metrics:
        command.append("--allow-missing-metrics")
    raise typer.Exit(client_main(command))
