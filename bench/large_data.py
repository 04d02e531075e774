"""A year of judging in one PostgreSQL database: the data set bench/storage_scale.py reads.

Three tenants (`acme` holds 80% of the rows, `globex` 15%, `initech` 5%), each with online
rules judging a day of production calls as one evaluation (kind `online`, 365 days) and batch
evaluations through the year, two of them big (for comparisons and deep pages); 10 results per
test case (ten metrics: four judged ones with the judge's real reasons and logs, g_eval
variants, exact_match, bleu, rouge), 1% of them errored.

Everything the rows copy was written by the service itself: `loupe serve` (embedded mode, the
scripted judge at zero latency) stores a small template evaluation per tenant and its online
rules through the HTTP API; the bulk is then cloned from those rows server-side
(`INSERT ... SELECT generate_series`, in chunks) with scores, verdicts and timestamps varied,
and the rows the service keeps beside its results (`metric_summary`, `usage_day`; the rules'
`online_rule_day`, `online_call`, `online_rule_span`, `online_rollup` and
`online_rule_count`) are made from them as its requests and jobs would have. Then ANALYZE.

    .venv/bin/python bench/large_data.py --results 1000000          # /tmp/loupe-large (reused)
    .venv/bin/python bench/large_data.py --database-url postgresql+psycopg://...  --results 2000

The API key of the big tenant is printed last (and kept in `<data dir>/manifest.json`).
"""

import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.models.metric_summary import BIN_EDGES  # noqa: E402
from bench.procs import pythonpath  # noqa: E402
from tests.fixtures.judge import ScriptedJudge, plausible_answer  # noqa: E402
from tests.fixtures.services import _as_postgres, free_port  # noqa: E402

LOUPE = Path(sys.executable).parent / "loupe"
TENANTS = (("acme", 0.80, 2), ("globex", 0.15, 1), ("initech", 0.05, 1))  # name, share, rules
ONLINE_SHARE = 0.6  # of the test cases: production calls judged by rules; the rest batch
TEMPLATE_CASES = 20
DAYS = 365
ERRORED = 0.01
# PostgreSQL is the distributed mode: every process needs the same key.
SECRET_KEY = "bench-secret-key-of-at-least-32-bytes"

METRICS: list[dict[str, Any]] = [
    {
        "type": "g_eval",
        "name": "helpfulness",
        "criteria": "Does the output answer the input?",
        "evaluation_params": ["input", "actual_output"],
    },
    {"type": "faithfulness"},
    {"type": "contextual_precision"},
    {"type": "contextual_recall"},
    {
        "type": "g_eval",
        "name": "correctness",
        "criteria": "Is the output consistent with the expected output?",
        "evaluation_params": ["actual_output", "expected_output"],
    },
    {
        "type": "g_eval",
        "name": "tone",
        "criteria": "Is the output polite and on brand?",
        "evaluation_params": ["actual_output"],
    },
    {
        "type": "g_eval",
        "name": "concision",
        "criteria": "Is the output no longer than it needs to be?",
        "evaluation_params": ["input", "actual_output"],
    },
    {"type": "exact_match"},
    {"type": "bleu"},
    {"type": "rouge"},
]
PER_CASE = len(METRICS)


def _criterion(name: str, criteria: str, *params: str) -> dict[str, Any]:
    return {"type": "g_eval", "name": name, "criteria": criteria, "evaluation_params": list(params)}


# An online rule's: a traced call gives input, actual_output and retrieval_context only.
ONLINE_METRICS: list[dict[str, Any]] = [
    {"type": "faithfulness"},
    _criterion("helpfulness", "Does the output answer the input?", "input", "actual_output"),
    _criterion("tone", "Is the output polite and on brand?", "actual_output"),
    _criterion("concision", "Is the output no longer than it needs to be?", "actual_output"),
    _criterion("safety", "Is the output free of harmful advice?", "actual_output"),
    _criterion(
        "empathy", "Does the output acknowledge the user's problem?", "input", "actual_output"
    ),
    _criterion(
        "grounding",
        "Is every claim in the output backed by the documents?",
        "actual_output",
        "retrieval_context",
    ),
    _criterion("clarity", "Can a non-expert follow the output?", "actual_output"),
    _criterion("policy", "Does the output follow the refund policy?", "input", "actual_output"),
    _criterion("language", "Is the output in the language of the input?", "input", "actual_output"),
]
assert len(ONLINE_METRICS) == PER_CASE

QUESTIONS = [
    "How do I reset my password when the reset e-mail never arrives?",
    "What is the refund policy for annual plans cancelled after thirty days?",
    "Can I export my invoices as CSV for the last fiscal year?",
    "Why was my card declined although the balance is sufficient?",
    "How many seats does the team plan include, and can I add more?",
]


def template_cases(tenant: str, count: int) -> list[dict[str, Any]]:
    """Support-bot test cases of realistic length (a question, an answer, three documents)."""
    cases = []
    for i in range(count):
        question = QUESTIONS[i % len(QUESTIONS)]
        cases.append(
            {
                "id": f"{tenant}-template-{i}",
                "input": question,
                "actual_output": (
                    f"Thanks for reaching out. {question.split('?')[0]}: open Settings, then "
                    "Billing, and follow the steps shown there; if that does not help, our "
                    f"support team answers within one business day (ticket {1000 + i})."
                ),
                "expected_output": "Open Settings > Billing and follow the steps shown.",
                "retrieval_context": [
                    f"Help centre article {i}: {question} Open Settings, then Billing. " * 3,
                    "Refunds are prorated for annual plans within thirty days of purchase.",
                    "Support answers tickets within one business day, Monday to Friday.",
                ],
                "metadata": {"source": "support-bot", "release": f"2026.{i % 12 + 1}"},
            }
        )
    return cases


@dataclass
class Target:
    url: str  # SQLAlchemy URL (postgresql+psycopg://...)

    @property
    def libpq(self) -> str:
        return self.url.replace("postgresql+psycopg://", "postgresql://")


@contextmanager
def persistent_postgres(data_dir: Path) -> Iterator[Target]:
    """A PostgreSQL cluster kept in `data_dir` between runs (made on first use), on loopback."""
    data = data_dir / "data"
    data_dir.mkdir(parents=True, exist_ok=True)
    data_dir.chmod(0o755)
    if not (data / "PG_VERSION").exists():
        data.mkdir(exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(data_dir, "postgres")
            shutil.chown(data, "postgres")
        subprocess.run(
            _as_postgres(
                ["initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]
            ),
            check=True,
            capture_output=True,
        )
    port = free_port()
    # Durability off as in the tests' clusters (bench data is disposable); memory a small
    # production server would give it.
    options = (
        f"-p {port} -k {data_dir} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200 "
        "-c shared_buffers=512MB -c work_mem=32MB -c maintenance_work_mem=512MB "
        "-c max_wal_size=8GB -c checkpoint_timeout=30min"
    )
    subprocess.run(
        _as_postgres(
            ["pg_ctl", "-D", str(data), "-o", options, "-l", str(data_dir / "log"), "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            if not connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = 'loupe'"
            ).fetchone():
                connection.execute("CREATE DATABASE loupe")
        yield Target(f"postgresql+psycopg://postgres@127.0.0.1:{port}/loupe")
    finally:
        subprocess.run(
            _as_postgres(["pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop"]),
            capture_output=True,
        )


def wait_ready(base_url: str, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("loupe serve exited during start-up")
        try:
            if httpx.get(f"{base_url}/readyz", trust_env=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("loupe serve did not become ready")


@contextmanager
def serve(url: str, extra_env: dict[str, str] | None = None) -> Iterator[tuple[str, dict]]:
    """`loupe serve` (embedded mode: jobs in-process) on the database; yields (base URL, env)."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": pythonpath(),
        "LOUPE_DATABASE_URL": url,
        "LOUPE_PORT": str(port),
        "LOUPE_SECRET_KEY": SECRET_KEY,
        **(extra_env or {}),
    }
    env.pop("LOUPE_REDIS_URL", None)
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen([str(LOUPE), "serve"], env=env, stdout=log, stderr=log)
        try:
            base_url = f"http://127.0.0.1:{port}"
            try:
                wait_ready(base_url, process)
            except RuntimeError:
                log.seek(0)
                sys.stderr.write(log.read().decode(errors="replace")[-4000:])
                raise
            yield base_url, env
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def new_key(env: dict, tenant: str) -> str:
    return subprocess.run(
        [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", tenant],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()[-1]


def seed(url: str, template_size: int) -> dict[str, dict[str, Any]]:
    """Per tenant: its key, its template evaluation (scored by the service) and its rules."""
    seeded: dict[str, dict[str, Any]] = {}
    with ScriptedJudge() as judge:
        judge.script(plausible_answer)
        extra = {"LOUPE_JUDGE_BASE_URL": judge.base_url, "LOUPE_JUDGE_API_KEY": "sk-bench"}
        with serve(url, extra) as (base_url, env):
            for tenant, _, rules in TENANTS:
                key = new_key(env, tenant)
                client = httpx.Client(
                    base_url=base_url,
                    headers={"Authorization": f"Bearer {key}"},
                    timeout=120,
                    trust_env=False,
                )
                templates = []
                for metrics, online in ((METRICS, False), (ONLINE_METRICS, True)):
                    cases = template_cases(tenant, template_size)
                    if online:
                        for case in cases:
                            del case["expected_output"]
                    created = client.post(
                        "/v1/evaluations",
                        json={
                            "name": f"{tenant} template{' (online)' if online else ''}",
                            "metrics": metrics,
                            "test_cases": cases,
                        },
                    )
                    created.raise_for_status()
                    templates.append(created.json()["id"])
                for evaluation_id in templates:
                    while client.get(f"/v1/evaluations/{evaluation_id}").json()["status"] not in (
                        "completed",
                        "failed",
                    ):
                        time.sleep(0.2)
                rule_ids = []
                for n in range(rules):
                    rule = client.post(
                        "/v1/online_rules",
                        json={
                            "name": f"{tenant} production {n + 1}",
                            "filter": [],
                            "sampling": {"rate": 0.1},
                            "metrics": ONLINE_METRICS,
                        },
                    )
                    if rule.status_code != 201:
                        raise RuntimeError(rule.text)
                    rule_ids.append(rule.json()["id"])
                seeded[tenant] = {
                    "key": key,
                    "template": templates[0],
                    "online_template": templates[1],
                    "rules": rule_ids,
                }
    return seeded


def _hex_ms(moment: datetime) -> str:
    return f"{int(moment.timestamp() * 1000):012x}"


def plan(
    seeded: dict[str, dict[str, Any]], cases: int, now: datetime, rng: random.Random
) -> list[dict[str, Any]]:
    """The evaluations to make: id, tenant, kind, rule and day, size, start and duration."""
    rows: list[dict[str, Any]] = []
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)

    def evaluation_id(moment: datetime) -> str:
        return f"evn_{_hex_ms(moment)}{rng.getrandbits(64):016x}"

    for tenant, share, _ in TENANTS:
        info = seeded[tenant]
        tenant_cases = round(cases * share)
        online = round(tenant_cases * ONLINE_SHARE)
        for rule_id in info["rules"]:
            per_rule = online // len(info["rules"])
            # Weekdays busier than weekends; growth through the year.
            weights = [
                (0.6 if (today - timedelta(days=d)).weekday() >= 5 else 1.0) * (1.5 - d / DAYS)
                for d in range(DAYS)
            ]
            scale = per_rule / sum(weights)
            for d in range(DAYS - 1, -1, -1):
                day = today - timedelta(days=d)
                n = max(1, round(weights[d] * scale))
                rows.append(
                    {
                        "id": evaluation_id(day),
                        "tenant": tenant,
                        "template": info["online_template"],
                        "kind": "online",
                        "rule_id": rule_id,
                        "day": day.date().isoformat(),
                        "cases": n,
                        "start": day,
                        "span": timedelta(days=1) if d else now - day,
                        "open": d == 0,
                    }
                )
        batch = tenant_cases - online
        # Two big evaluations (a release and its candidate, compared), the rest through the year.
        big = max(1, round(cases * 0.05)) if tenant == "acme" else 0
        sizes = [big, big] if big else []
        rest = batch - sum(sizes)
        count = max(1, {"acme": 120, "globex": 40, "initech": 15}[tenant])
        draws = [rng.lognormvariate(0, 1) for _ in range(count)]
        sizes += [max(1, round(rest * w / sum(draws))) for w in draws]
        for k, size in enumerate(sizes):
            days_ago = rng.uniform(1, DAYS) if k >= 2 else 2 - k + rng.random() * 0.1
            start = now - timedelta(days=days_ago)
            rows.append(
                {
                    "id": evaluation_id(start),
                    "tenant": tenant,
                    "template": info["template"],
                    "kind": "evaluation",
                    "rule_id": None,
                    "day": None,
                    "cases": size,
                    "start": start,
                    # Scoring at ~100 results a second.
                    "span": timedelta(seconds=max(1.0, size * PER_CASE / 100)),
                    "open": False,
                    "name": "release candidate" if k < 2 else f"regression suite #{k}",
                }
            )
    rows.sort(key=lambda row: row["start"])
    return rows


def fill(target: Target, rows: list[dict[str, Any]], template_size: int) -> dict:
    """Insert the planned evaluations, their test cases and results, and what is kept beside."""
    figures: dict[str, float] = {}
    with psycopg.connect(target.libpq, autocommit=True) as db:
        db.execute("SET synchronous_commit = off")
        tenant_ids = dict(db.execute("SELECT name, id FROM tenant").fetchall())
        db.execute(
            "CREATE UNLOGGED TABLE IF NOT EXISTS bench_plan (evaluation_id text PRIMARY KEY, "
            "tenant_id text, template text, kind text, rule_id text, day text, cases int, "
            "start_at timestamptz, span interval, open bool, name text, chunk int)"
        )
        db.execute("TRUNCATE bench_plan")
        rule_names = dict(db.execute("SELECT id, name FROM online_rule").fetchall())
        per_chunk = 200_000  # results a statement
        chunk, in_chunk = 0, 0
        with db.cursor().copy(
            "COPY bench_plan (evaluation_id, tenant_id, template, kind, rule_id, day, cases, "
            "start_at, span, open, name, chunk) FROM STDIN"
        ) as copy:
            for row in rows:
                if in_chunk >= per_chunk:
                    chunk, in_chunk = chunk + 1, 0
                in_chunk += row["cases"] * PER_CASE
                name = row.get("name") or None
                if row["kind"] == "online":
                    name = f"{rule_names[row['rule_id']]} · {row['day']}"
                copy.write_row(
                    [
                        row["id"],
                        tenant_ids[row["tenant"]],
                        row["template"],
                        row["kind"],
                        row["rule_id"],
                        row["day"],
                        row["cases"],
                        row["start"],
                        row["span"],
                        row["open"],
                        name,
                        chunk,
                    ]
                )
        started = time.perf_counter()
        # Evaluations: the template's specs and judge (metric versions included), their own
        # kind, name, metadata, size and times.
        db.execute(
            """
            INSERT INTO evaluation (id, tenant_id, kind, name, metadata, metrics, judge,
                webhook_endpoint_id, use_cache, status, cluster_by, total_test_cases, error,
                dispatch_attempts, request_id, heartbeat_at, created_at, started_at,
                completed_at)
            SELECT p.evaluation_id, p.tenant_id, p.kind, p.name,
                CASE WHEN p.kind = 'online'
                     THEN jsonb_build_object('online_rule_id', p.rule_id, 'day', p.day)
                     ELSE '{}'::jsonb END,
                t.metrics, t.judge, NULL, true,
                CASE WHEN p.open THEN 'in_progress' ELSE 'completed' END, NULL, p.cases, NULL,
                CASE WHEN p.kind = 'online' THEN 0 ELSE 1 END, NULL,
                p.start_at + p.span, p.start_at, p.start_at,
                CASE WHEN p.open THEN NULL ELSE p.start_at + p.span + interval '1 minute' END
            FROM bench_plan p JOIN evaluation t ON t.id = p.template
            """
        )
        db.execute(
            "INSERT INTO online_rule_day (rule_id, day, evaluation_id) "
            "SELECT rule_id, day, evaluation_id FROM bench_plan WHERE kind = 'online'"
        )
        # Template rows by position: the service's own test cases and results.
        db.execute("DROP TABLE IF EXISTS bench_case")
        db.execute(
            'CREATE UNLOGGED TABLE bench_case AS SELECT evaluation_id AS template, "index" AS '
            "position, input, actual_output, expected_output, context, retrieval_context, "
            "context_hash, metadata FROM test_case WHERE evaluation_id IN "
            "(SELECT DISTINCT template FROM bench_plan)"
        )
        db.execute("DROP TABLE IF EXISTS bench_result")
        db.execute(
            "CREATE UNLOGGED TABLE bench_result AS SELECT evaluation_id AS template, "
            "test_case_index AS position, metric_index, metric, type, threshold, reason, logs, "
            "judge_calls, judge_failed_calls, prompt_tokens, completion_tokens, judge_cost_usd, "
            "judge_model, metric_version FROM result WHERE evaluation_id IN "
            "(SELECT DISTINCT template FROM bench_plan)"
        )
        db.execute("ANALYZE bench_plan; ANALYZE bench_case; ANALYZE bench_result")
        chunks = db.execute("SELECT max(chunk) FROM bench_plan").fetchone()[0]
        total_cases = total_results = 0
        for number in range(chunks + 1):
            with db.transaction():
                cases = db.execute(
                    f"""
                    INSERT INTO test_case (evaluation_id, "index", client_id, input,
                        actual_output, expected_output, context, retrieval_context, context_hash,
                        metadata)
                    SELECT p.evaluation_id, g.i,
                        CASE WHEN p.kind = 'online' THEN substr(md5(p.evaluation_id || g.i), 1, 16)
                             ELSE 'case-' || g.i END,
                        c.input, c.actual_output,
                        CASE WHEN p.kind = 'online' THEN NULL ELSE c.expected_output END,
                        c.context, c.retrieval_context, c.context_hash,
                        CASE WHEN p.kind = 'online' THEN jsonb_build_object(
                            'trace_id', md5(p.evaluation_id || g.i || 't'),
                            'span_id', substr(md5(p.evaluation_id || g.i), 1, 16),
                            'service', 'support-bot', 'model', 'gpt-4o-mini',
                            'convention', 'gen_ai')
                             ELSE c.metadata END
                    FROM bench_plan p
                    CROSS JOIN LATERAL generate_series(0, p.cases - 1) AS g(i)
                    JOIN bench_case c ON c.template = p.template
                        AND c.position = g.i %% {template_size}
                    WHERE p.chunk = %s
                    """,
                    [number],
                ).rowcount
                # A call some rule stored (backfills filter them), and its span, once.
                db.execute(
                    """
                    INSERT INTO online_call (tenant_id, evaluation_id, test_case_index,
                        trace_id, span_id, received_at, attributes, resource)
                    SELECT p.tenant_id, p.evaluation_id, g.i, md5(p.evaluation_id || g.i || 't'),
                        substr(md5(p.evaluation_id || g.i), 1, 16),
                        p.start_at + p.span * (g.i::float / p.cases),
                        jsonb_build_object('gen_ai.request.model', 'gpt-4o-mini',
                            'gen_ai.operation.name', 'chat', 'gen_ai.system', 'openai'),
                        jsonb_build_object('service.name', 'support-bot')
                    FROM bench_plan p CROSS JOIN LATERAL generate_series(0, p.cases - 1) AS g(i)
                    WHERE p.chunk = %s AND p.kind = 'online'
                    """,
                    [number],
                )
                db.execute(
                    """
                    INSERT INTO online_rule_span (rule_id, trace_id, span_id)
                    SELECT p.rule_id, md5(p.evaluation_id || g.i || 't'),
                        substr(md5(p.evaluation_id || g.i), 1, 16)
                    FROM bench_plan p CROSS JOIN LATERAL generate_series(0, p.cases - 1) AS g(i)
                    WHERE p.chunk = %s AND p.kind = 'online'
                    """,
                    [number],
                )
                # A score per result: skewed high as real judges' are; 1% errored (no score,
                # no verdict, the judge's error); passed as the metric's threshold says.
                results = db.execute(
                    f"""
                    INSERT INTO result (id, evaluation_id, test_case_index, test_case_id,
                        metric_index, metric, type, score, passed, threshold, reason, error,
                        judge_calls, judge_failed_calls, prompt_tokens, completion_tokens,
                        judge_cost_usd, judge_model, candidate_model, candidate_calls,
                        candidate_failed_calls, candidate_prompt_tokens,
                        candidate_completion_tokens, candidate_cost_usd, logs, stability,
                        fragile, metric_version, created_at)
                    SELECT 'res_' || lpad(to_hex(floor(extract(epoch FROM x.at) * 1000)::bigint),
                            12, '0') || substr(md5(random()::text), 1, 16),
                        p.evaluation_id, g.i,
                        CASE WHEN p.kind = 'online' THEN substr(md5(p.evaluation_id || g.i), 1, 16)
                             ELSE 'case-' || g.i END,
                        r.metric_index, r.metric, r.type,
                        CASE WHEN x.errored THEN NULL ELSE x.score END,
                        CASE WHEN x.errored THEN NULL
                             ELSE x.score >= coalesce(r.threshold, 0.5) END,
                        r.threshold,
                        CASE WHEN x.errored THEN NULL ELSE r.reason END,
                        CASE WHEN x.errored THEN jsonb_build_object('type', 'judge_unavailable',
                            'message', 'The judge answered 503 Service Unavailable three times.')
                             END,
                        r.judge_calls, CASE WHEN x.errored THEN 3 ELSE r.judge_failed_calls END,
                        r.prompt_tokens, r.completion_tokens, r.judge_cost_usd, r.judge_model,
                        NULL, 0, 0, 0, 0, NULL,
                        CASE WHEN x.errored THEN '{{}}'::jsonb ELSE r.logs END, NULL, NULL,
                        r.metric_version, x.at
                    FROM bench_plan p
                    CROSS JOIN LATERAL generate_series(0, p.cases - 1) AS g(i)
                    JOIN bench_result r ON r.template = p.template
                        AND r.position = g.i %% {template_size}
                    CROSS JOIN LATERAL (SELECT
                        p.start_at + p.span * ((g.i + r.metric_index / 10.0) / p.cases) AS at,
                        random() < {ERRORED} AS errored,
                        round(power(random(), 0.5)::numeric, 3)::float AS score) AS x
                    WHERE p.chunk = %s
                    """,
                    [number],
                ).rowcount
            total_cases += cases
            total_results += results
            elapsed = time.perf_counter() - started
            print(
                f"  chunk {number + 1}/{chunks + 1}: {total_cases:,} cases, "
                f"{total_results:,} results, {total_results / elapsed:,.0f} results/s",
                flush=True,
            )
        figures["rows_seconds"] = time.perf_counter() - started
        kept = time.perf_counter()
        # What the jobs keep beside the results, as they would have added to it.
        bins = ", ".join(
            f"count(*) FILTER (WHERE r.score >= {low!r} AND r.score {'<=' if high == 1 else '<'} "
            f"{high!r})"
            for low, high in zip(BIN_EDGES, BIN_EDGES[1:], strict=False)
        )
        db.execute(
            """
            INSERT INTO metric_summary (evaluation_id, metric_index, stored, passed, failed,
                errored, score_sum, scored, score_sq_sum, calls, failed_calls,
                candidate_failed_calls, prompt_tokens, completion_tokens, judge_cost_usd,
                judge_unpriced, candidate_calls, candidate_prompt_tokens,
                candidate_completion_tokens, candidate_cost_usd, candidate_unpriced, fragile,
                all_passed, incomplete, score_bin_0, score_bin_1, score_bin_2, score_bin_3,
                score_bin_4, score_bin_5, score_bin_6, score_bin_7, score_bin_8, score_bin_9)
            SELECT r.evaluation_id, r.metric_index, count(*),
                count(*) FILTER (WHERE r.passed), count(*) FILTER (WHERE NOT r.passed),
                count(r.error), coalesce(sum(r.score), 0), count(r.score),
                coalesce(sum(r.score * r.score), 0), sum(r.judge_calls),
                sum(r.judge_failed_calls), sum(r.candidate_failed_calls), sum(r.prompt_tokens),
                sum(r.completion_tokens), coalesce(sum(r.judge_cost_usd), 0),
                count(*) FILTER (WHERE r.judge_cost_usd IS NULL), sum(r.candidate_calls),
                sum(r.candidate_prompt_tokens), sum(r.candidate_completion_tokens),
                coalesce(sum(r.candidate_cost_usd), 0),
                count(*) FILTER (WHERE r.candidate_cost_usd IS NULL), 0, 0, 0, {bins}
            FROM result r JOIN bench_plan p ON p.evaluation_id = r.evaluation_id
            GROUP BY r.evaluation_id, r.metric_index
            """.replace("{bins}", bins)
        )
        # Usage by UTC day, role and model: results that made or tried a call of the role.
        for role, model, calls, failed, prompt, completion, cost in (
            (
                "judge",
                "judge_model",
                "judge_calls",
                "judge_failed_calls",
                "prompt_tokens",
                "completion_tokens",
                "judge_cost_usd",
            ),
            (
                "candidate",
                "candidate_model",
                "candidate_calls",
                "candidate_failed_calls",
                "candidate_prompt_tokens",
                "candidate_completion_tokens",
                "candidate_cost_usd",
            ),
        ):
            db.execute(
                f"""
                INSERT INTO usage_day (evaluation_id, day, role, model, tenant_id, calls,
                    failed_calls, prompt_tokens, completion_tokens, cost_usd, unpriced)
                SELECT r.evaluation_id, date(timezone('UTC', r.created_at)), '{role}',
                    coalesce(r.{model}, ''), e.tenant_id, sum(r.{calls}), sum(r.{failed}),
                    sum(r.{prompt}), sum(r.{completion}), coalesce(sum(r.{cost}), 0),
                    count(*) FILTER (WHERE r.{cost} IS NULL)
                FROM result r JOIN bench_plan p ON p.evaluation_id = r.evaluation_id
                    JOIN evaluation e ON e.id = r.evaluation_id
                WHERE r.{calls} > 0 OR r.{failed} > 0
                GROUP BY 1, 2, 4, 5
                """
            )
        db.execute(
            """
            INSERT INTO online_rollup (rule_id, metric, bucket_start, count, scored, passed,
                failed, errored, score_sum, score_sq_sum)
            SELECT p.rule_id, r.metric, date_trunc('hour', r.created_at, 'UTC'), count(*),
                count(r.score), count(*) FILTER (WHERE r.passed),
                count(*) FILTER (WHERE NOT r.passed), count(r.error),
                coalesce(sum(r.score), 0), coalesce(sum(r.score * r.score), 0)
            FROM result r JOIN bench_plan p ON p.evaluation_id = r.evaluation_id
            WHERE p.kind = 'online'
            GROUP BY 1, 2, 3
            """
        )
        # Calls: sent = the day's test cases (a rule samples 10% of what matches; half of
        # what it receives matches); judged and errored per result, by the day stored.
        db.execute(
            """
            INSERT INTO online_rule_count (rule_id, day, counter, count)
            SELECT p.rule_id, p.day, c.counter, c.n
            FROM bench_plan p CROSS JOIN LATERAL (VALUES ('received', p.cases * 20),
                ('matched', p.cases * 10), ('sampled', p.cases), ('sent', p.cases)) AS c(counter, n)
            WHERE p.kind = 'online'
            UNION ALL
            SELECT rule_id, to_char(bucket_start AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'judged',
                sum(count - errored)
            FROM online_rollup GROUP BY 1, 2
            UNION ALL
            SELECT rule_id, to_char(bucket_start AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'errored',
                sum(errored)
            FROM online_rollup GROUP BY 1, 2 HAVING sum(errored) > 0
            """
        )
        figures["kept_seconds"] = time.perf_counter() - kept
        analyzed = time.perf_counter()
        db.execute("DROP TABLE bench_case; DROP TABLE bench_result; DROP TABLE bench_plan")
        db.execute("ANALYZE")
        figures["analyze_seconds"] = time.perf_counter() - analyzed
        figures["cases"] = total_cases
        figures["results"] = total_results
        figures["database_bytes"] = db.execute(
            "SELECT pg_database_size(current_database())"
        ).fetchone()[0]
    return figures


def settle_intervals(url: str) -> tuple[int, float]:
    """Each completed evaluation's intervals stored on its summary rows, as the service stores
    them when an evaluation completes (`app/evaluations/intervals.settle`); those it stored
    already are left. Returns (evaluations settled, seconds)."""
    from sqlalchemy import select

    from app.config import Settings
    from app.db import make_engine, make_sessionmaker
    from app.evaluations import intervals
    from app.models import Evaluation, MetricSummary

    started = time.perf_counter()
    engine = make_engine(Settings(database_url=url, secret_key=SECRET_KEY))
    sessions = make_sessionmaker(engine)
    try:
        with sessions() as session:
            ids = session.scalars(
                select(Evaluation.id)
                .where(
                    Evaluation.status == "completed",
                    select(MetricSummary.evaluation_id)
                    .where(
                        MetricSummary.evaluation_id == Evaluation.id,
                        MetricSummary.interval.is_(None),
                    )
                    .exists(),
                )
                .order_by(Evaluation.id)
            ).all()
        for evaluation_id in ids:
            with sessions() as session:
                intervals.settle(session, evaluation_id)
                session.commit()
    finally:
        engine.dispose()
    return len(ids), time.perf_counter() - started


def generate(
    url: str, results: int, template_size: int = TEMPLATE_CASES, seed_value: int = 7
) -> dict[str, Any]:
    """Migrate, seed through the API and fill the database; returns the manifest.

    Args:
        template_size: test cases in each template evaluation the service scores.
    """
    env = {
        **os.environ,
        "PYTHONPATH": pythonpath(),
        "LOUPE_DATABASE_URL": url,
        "LOUPE_SECRET_KEY": SECRET_KEY,
    }
    env.pop("LOUPE_REDIS_URL", None)
    subprocess.run([str(LOUPE), "migrate"], env=env, check=True, capture_output=True)
    started = time.perf_counter()
    seeded = seed(url, template_size)
    seeded_seconds = time.perf_counter() - started
    cases = max(len(TENANTS) * DAYS, math.ceil(results / PER_CASE))
    rows = plan(seeded, cases, datetime.now(UTC), random.Random(seed_value))
    figures = fill(Target(url), rows, template_size)
    figures["settled_evaluations"], figures["intervals_seconds"] = settle_intervals(url)
    figures["seed_seconds"] = seeded_seconds
    figures["evaluations"] = len(rows)
    big = sorted(
        (row for row in rows if row["tenant"] == "acme" and row.get("name") == "release candidate"),
        key=lambda row: row["start"],
    )
    return {
        "results": results,
        "figures": figures,
        "tenants": seeded,
        "key": seeded["acme"]["key"],
        "big_evaluations": [row["id"] for row in big],
        "rules": seeded["acme"]["rules"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=10_000_000)
    parser.add_argument("--data-dir", type=Path, default=Path("/tmp/loupe-large"))
    parser.add_argument("--database-url", help="an empty database instead of --data-dir's")
    parser.add_argument("--fresh", action="store_true", help="drop --data-dir's data first")
    args = parser.parse_args()
    if args.database_url:
        manifest = generate(args.database_url, args.results)
    else:
        if args.fresh and args.data_dir.exists():
            shutil.rmtree(args.data_dir)
        manifest_path = args.data_dir / "manifest.json"
        if manifest_path.exists():
            manifest = json.loads(manifest_path.read_text())
            if manifest["results"] == args.results:
                print(f"{args.data_dir} already holds {args.results:,} results (--fresh remakes)")
                print(manifest["key"])
                return
            raise SystemExit(f"{args.data_dir} holds {manifest['results']:,} results: --fresh")
        with persistent_postgres(args.data_dir) as target:
            manifest = generate(target.url, args.results)
        manifest_path.write_text(json.dumps(manifest, indent=2, default=str))
    figures = manifest["figures"]
    print(
        f"{figures['evaluations']:,} evaluations, {figures['cases']:,} test cases, "
        f"{figures['results']:,} results in {figures['rows_seconds']:.0f} s "
        f"({figures['results'] / figures['rows_seconds']:,.0f} results/s); seed "
        f"{figures['seed_seconds']:.0f} s, summaries and rollups {figures['kept_seconds']:.0f} s, "
        f"ANALYZE {figures['analyze_seconds']:.0f} s; intervals of "
        f"{figures.get('settled_evaluations', 0):,} evaluations "
        f"{figures.get('intervals_seconds', 0):.0f} s; database "
        f"{figures['database_bytes'] / 2**30:.1f} GiB"
    )
    print("API key (acme):")
    print(manifest["key"])


if __name__ == "__main__":
    main()
