"""`loupe-client`: evaluate, read results and gate on comparisons from a CI step.

Exit codes: 0 success; 1 the gate failed (`evaluate --wait`: an evaluation that did not complete,
errored results past --allow-errored (default none) or a metric without a single score, a mean
score below --fail-below; `compare`: a metric that regressed, a metric of the baseline the
candidate lacks unless --allow-missing-metrics,
with --fail-on errored a candidate with more errored items, with --fail-on fragile a candidate with
fragile items, with --fail-on unmatched a candidate lacking items of the baseline); 2 the command
could not do its work or the gate cannot decide (bad input, an error answer, the service
unreachable, a wait that timed out; `compare`: no metric shared by both sides, a compared metric
with nothing to compare or with no 95% interval (fewer than 10 pairs), a metric whose settings
differ unless --accept-settings-change) — unless the gate already failed, which makes it 1.
"""

import argparse
import itertools
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from . import _gate
from ._client import Loupe
from ._errors import LoupeError
from ._inputs import NOT_JSON_NUMBER, non_finite, number_name, spelled

GATE_FAILED, CANNOT = 1, 2


class UsageError(Exception):
    """The command line or an input file is wrong."""


def _test_cases(path: Path) -> list[dict[str, Any]]:
    """One test case per non-blank JSONL line (UTF-8)."""
    cases = list(_each_test_case(path))
    if not cases:
        raise UsageError(f"{path}: no test cases")
    return cases


def _each_test_case(path: Path) -> Iterator[dict[str, Any]]:
    """The test cases of a JSONL file, read a line at a time (a large file is never held)."""
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UsageError(
                    f"{path}:{number}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at column "
                    f"{exc.start + 1}); save the file as UTF-8"
                ) from exc
            if not line.strip():
                continue
            try:
                case = json.loads(line)
            except ValueError as exc:
                raise UsageError(f"{path}:{number}: not JSON ({exc})") from exc
            if not isinstance(case, dict):
                raise UsageError(f"{path}:{number}: a test case is a JSON object")
            # Python's json reads NaN, Infinity and 1e400, which no JSON body can carry.
            found = non_finite(case)
            if found is not None:
                raise UsageError(
                    f"{path}:{number}: {spelled(found[0])}: {number_name(found[1])} "
                    f"{NOT_JSON_NUMBER}"
                )
            yield case


def _metrics(values: Sequence[str]) -> list[Any]:
    metrics = []
    for value in values:
        try:
            metric = json.loads(value)
        except ValueError as exc:
            raise UsageError(f"--metric {value!r}: not JSON ({exc})") from exc
        found = non_finite(metric)
        if found is not None:
            raise UsageError(
                f"--metric {value!r}: {spelled(found[0]) or 'the value'}: "
                f"{number_name(found[1])} {NOT_JSON_NUMBER}"
            )
        metrics.extend(metric if isinstance(metric, list) else [metric])
    return metrics


def _share(value: str) -> float:
    """An --allow-errored share: a number from 0 to 1."""
    try:
        share = float(value)
    except ValueError:
        share = -1.0
    if not 0 <= share <= 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a share from 0 to 1 (0.1 = 10%)")
    return share


def _finite(value: str) -> float:
    """A --fail-below or --timeout: a number, never NaN (no score is below it) or infinite."""
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number")
    return number


def _seconds(value: str) -> float:
    """A --timeout: a finite number of seconds, at least 0."""
    seconds = _finite(value)
    if seconds < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds (at least 0)")
    return seconds


def _mean_with_interval(summary: Any) -> str:
    """`0.500 [0.095, 0.905] wilson`: the mean, its 95% interval and how it was made, or that
    n is too small for one."""
    mean = summary.mean_score
    if mean is None:
        return "—"
    interval = summary.ci95 if isinstance(summary.ci95, list) else None
    if interval is None:
        return f"{mean:.3f} (no interval at n = {summary.n})"
    method = summary.ci_method if isinstance(summary.ci_method, str) else "t"
    return f"{mean:.3f} [{interval[0]:.3f}, {interval[1]:.3f}] {method.replace('_', ' ')}"


def _stability(summary: Any) -> str:
    """`; 3 fragile, pass^3 81%` for a metric judged more than once (samples, a panel); "" for
    a metric judged once (or from a server before judges were asked more than once)."""
    stability = getattr(summary, "stability", None)
    if not hasattr(stability, "fragile"):
        return ""
    k = stability.samples * (stability.members if isinstance(stability.members, int) else 1)
    said = f"; {stability.fragile} fragile"
    if isinstance(stability.pass_hat_k, float | int):
        said += f", pass^{k} {stability.pass_hat_k:.0%}"
    return said


def evaluate(client: Loupe, args: argparse.Namespace) -> int:
    if args.fail_below is not None and not args.wait:
        raise UsageError("--fail-below needs --wait")
    if args.allow_errored is not None and not args.wait:
        raise UsageError("--allow-errored needs --wait")
    fields: dict[str, Any] = {"metrics": _metrics(args.metric)}
    if args.name:
        fields["name"] = args.name
    if args.batch_size is None:
        fields["test_cases"] = _test_cases(args.cases)
        created = client.evaluations.create(idempotency_key=args.idempotency_key, **fields)
        print(created.id)
    else:
        created = _evaluate_in_batches(client, args, fields)
    if not args.wait:
        return 0
    final = client.evaluations.wait(created.id, timeout=args.timeout)
    counts = final.result_counts
    # The service's `completed_with_errors`, from the counts it derives from (any server).
    with_errors = final.status == "completed" and counts.errored > 0
    print(
        f"{'completed with errors' if with_errors else final.status}: {counts.passed} passed, "
        f"{counts.failed} failed, {counts.errored} errored of {counts.total}"
    )
    failing, unmeasured = [], []
    for summary in final.per_metric:
        mean = summary.mean_score
        print(f"  {summary.metric}: mean {_mean_with_interval(summary)}{_stability(summary)}")
        if args.fail_below is not None and (mean is None or mean < args.fail_below):
            failing.append(summary.metric)
        if mean is None and summary.errored:
            unmeasured.append(f"{summary.metric} ({summary.errored} errored)")
    if final.status != "completed":
        print(f"FAIL: evaluation {final.status}")
        return GATE_FAILED
    allowed = args.allow_errored or 0.0
    share = counts.errored / counts.total if counts.total else 0.0
    failed = False
    if share > allowed:
        print(
            f"FAIL: {counts.errored} of {counts.total} results errored ({share:.0%}); "
            + (
                f"--allow-errored {args.allow_errored} allows up to {allowed:.0%}"
                if allowed
                else "--allow-errored SHARE allows some (0.1 = 10%)"
            )
        )
        failed = True
    if unmeasured and share <= allowed:
        # A share of errored results is allowed, never a metric without a single score: the
        # gate would pass on a metric it never measured.
        print(
            f"FAIL: no scored result: {', '.join(unmeasured)}: --allow-errored allows a share "
            "of errored results, not a metric never measured"
        )
        failed = True
    if failing:
        print(f"FAIL: below {args.fail_below}: {', '.join(failing)}")
        failed = True
    return GATE_FAILED if failed else 0


def _evaluate_in_batches(client: Loupe, args: argparse.Namespace, fields: dict[str, Any]) -> Any:
    """An open evaluation given the file's cases `--batch-size` at a time, then closed.

    With --idempotency-key K, the batches are keyed `K-batch-<n>`: the same command run again
    after a failure replays what was appended and sends the rest."""
    cases = _each_test_case(args.cases)
    first = next(cases, None)
    if first is None:
        raise UsageError(f"{args.cases}: no test cases")
    created = client.evaluations.create_open(idempotency_key=args.idempotency_key, **fields)
    print(created.id, flush=True)
    prefix = f"{args.idempotency_key}-batch" if args.idempotency_key else None
    client.evaluations.append_all(
        created.id,
        itertools.chain([first], cases),
        batch_size=args.batch_size,
        idempotency_prefix=prefix,
        close=True,
    )
    return created


def _batch_size(value: str) -> int:
    """A --batch-size: a whole number of at least 1."""
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number of at least 1")
    return int(value)


def results(client: Loupe, args: argparse.Namespace) -> int:
    sys.stdout.write(
        client.evaluations.export(
            args.evaluation_id,
            format=args.format,
            metric=args.metric,
            status=args.status,
            fragile=args.fragile,
        )
    )
    return 0


def compare(client: Loupe, args: argparse.Namespace) -> int:
    comparison = client.comparisons.create(
        args.baseline_id,
        args.candidate_id,
        metrics=args.metric or None,
        fragile="exclude" if args.exclude_fragile else None,
    ).to_dict()
    print(_gate.table(comparison))
    code, lines = _gate.decide(
        comparison,
        args.fail_on or ["regressed"],
        args.accept_settings_change,
        allow_missing_metrics=args.allow_missing_metrics,
        metrics_named=bool(args.metric),
    )
    for line in lines:
        # Why the gate cannot decide goes where the other "cannot" (exit 2) messages go.
        print(line, file=sys.stderr if line.startswith("CANNOT") else sys.stdout)
    return code


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="loupe-client", description=__doc__.split("\n\n")[0])
    root.add_argument("--url", default=os.environ.get("LOUPE_URL"), help="default $LOUPE_URL")
    root.add_argument(
        "--api-key", default=os.environ.get("LOUPE_API_KEY"), help="default $LOUPE_API_KEY"
    )
    commands = root.add_subparsers(dest="command", required=True)

    run = commands.add_parser("evaluate", help="submit test cases from a JSONL file")
    run.add_argument("cases", type=Path, help="one test case (JSON object) per line")
    run.add_argument(
        "--metric", action="append", required=True, help="a metric spec as JSON (repeat)"
    )
    run.add_argument("--name")
    run.add_argument("--idempotency-key")
    run.add_argument(
        "--batch-size",
        type=_batch_size,
        metavar="N",
        help="read the file a line at a time and send it N cases per request to an open "
        "evaluation, closed once all are sent (for files past LOUPE_MAX_TEST_CASES)",
    )
    run.add_argument("--wait", action="store_true", help="wait until it finishes")
    run.add_argument("--timeout", type=_seconds, default=3600, help="seconds --wait waits")
    run.add_argument(
        "--fail-below", type=_finite, help="exit 1 if a metric's mean score is below this"
    )
    run.add_argument(
        "--allow-errored",
        type=_share,
        metavar="SHARE",
        help="with --wait, pass with up to this share of results errored (0.1 = 10%%); "
        "by default any errored result exits 1",
    )
    run.set_defaults(handler=evaluate)

    read = commands.add_parser("results", help="print an evaluation's results")
    read.add_argument("evaluation_id")
    read.add_argument("--format", choices=("csv", "jsonl"), default="jsonl")
    read.add_argument("--metric")
    read.add_argument("--status", choices=("passed", "failed", "errored"))
    read.add_argument(
        "--fragile",
        action=argparse.BooleanOptionalAction,
        help="only the results judged more than once whose judgments straddle the threshold "
        "(--no-fragile: only those whose judgments agree)",
    )
    read.set_defaults(handler=results)

    gate = commands.add_parser("compare", help="gate on a comparison of two evaluations or runs")
    gate.add_argument("baseline_id")
    gate.add_argument("candidate_id")
    gate.add_argument("--metric", action="append", help="a metric to compare (repeat)")
    gate.add_argument(
        "--fail-on",
        action="append",
        choices=_gate.FAIL_ON,
        help="exit 1 when a compared metric regressed, (errored) when the candidate has more "
        "errored items than the baseline, (fragile) when the candidate has fragile items "
        "(judgments straddling the threshold), or (unmatched) when the candidate lacks items "
        "of the baseline; repeat for several (default: regressed)",
    )
    gate.add_argument(
        "--exclude-fragile",
        action="store_true",
        help="set aside the items fragile on either side from the comparison (they are still "
        "counted, and --fail-on fragile still sees them)",
    )
    gate.add_argument(
        "--accept-settings-change",
        action="store_true",
        help="decide even on metrics whose settings differ between the sides (criteria, n, …); "
        "without it the gate cannot decide on them (exit 2)",
    )
    gate.add_argument(
        "--allow-missing-metrics",
        action="store_true",
        help="pass even when the candidate lacks a metric of the baseline (a warning); without "
        "it that exits 1, since no verdict covers the metric",
    )
    gate.set_defaults(handler=compare)
    return root


def _message(error: LoupeError) -> str:
    """Each problem of an error answer once: the detail when it already says the one field at
    fault (`404 Not Found: candidate_id: no evaluation or run 'nope'.`); else, for several
    fields, one `loc: msg` line each under the status (the detail only repeats the first
    three of them)."""
    problems = [(str(e.get("loc") or ""), str(e.get("msg") or "")) for e in error.errors]
    detail = error.detail or ""
    if len(problems) > 1:
        lines = [f"  {loc}: {msg}" if loc else f"  {msg}" for loc, msg in problems]
        return f"{error.status} {error.title}: {len(problems)} problems:\n" + "\n".join(lines)
    if problems:
        loc, msg = problems[0]
        if (loc and loc in detail) or msg in detail:
            return str(error)
        return f"{error} ({loc}: {msg})" if loc else f"{error} ({msg})"
    return str(error)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns (and, as a script, exits with) its exit code."""
    args = parser().parse_args(argv)
    if not args.url or not args.api_key:
        print("loupe-client: set LOUPE_URL and LOUPE_API_KEY (or --url/--api-key)", file=sys.stderr)
        return CANNOT
    try:
        with Loupe(args.url, args.api_key) as client:
            return args.handler(client, args)
    except LoupeError as error:
        print(f"loupe-client {args.command}: {_message(error)}", file=sys.stderr)
    except httpx.TransportError as error:
        print(
            f"loupe-client {args.command}: cannot reach Loupe at {_where(args.url)}: "
            f"{error or type(error).__name__}",
            file=sys.stderr,
        )
    except (UsageError, OSError, TimeoutError, httpx.HTTPError) as error:
        print(f"loupe-client {args.command}: {error}", file=sys.stderr)
    return CANNOT


def _where(url: str) -> str:
    """The service's URL for a message: scheme, host, port and path, never user info."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def script() -> None:
    sys.exit(main())
