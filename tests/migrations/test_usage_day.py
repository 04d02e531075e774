"""Migrations usage_day and score_bins: what results stored before them used is summed once
into usage_day (GET /v1/usage reads the same numbers through it), and their scores are counted
into the summaries' histogram bins with the edges the scoring write uses."""

from datetime import UTC, date, datetime

from sqlalchemy import column, create_engine, insert, select, table
from sqlalchemy.orm import Session

from app import migrate
from app.config import Settings
from app.models import Evaluation, MetricSummary, Result, Tenant, UsageDay
from app.models.metric_summary import BIN_COLUMNS, score_bin
from app.usage import service


def result(evaluation_id: str, index: int, stored: datetime, **usage: object) -> dict:
    return {
        "id": f"res_{evaluation_id}_{index}",
        "evaluation_id": evaluation_id,
        "test_case_index": index,
        "test_case_id": str(index),
        "metric_index": 0,
        "metric": "m",
        "type": "g_eval",
        "score": 0.5,
        "passed": True,
        "error": None,
        "logs": {},
        "created_at": stored,
        "judge_calls": 0,
        "judge_failed_calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "candidate_calls": 0,
        "candidate_failed_calls": 0,
        "candidate_prompt_tokens": 0,
        "candidate_completion_tokens": 0,
        **usage,
    }


def test_results_stored_before_are_summed_by_day_role_and_model(url: str) -> None:
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "scale_indexes")
    engine = create_engine(url)
    # 23:30 at UTC-5 is the next UTC day: days are UTC days.
    late = datetime.fromisoformat("2026-03-01T23:30:00-05:00").astimezone(UTC)
    early = datetime(2026, 3, 2, 8, tzinfo=UTC)
    try:
        with Session(engine) as session:
            session.execute(
                insert(Tenant), [{"id": "ten_1", "name": "a"}, {"id": "ten_2", "name": "b"}]
            )
            session.flush()
            session.execute(
                insert(Evaluation),
                [
                    {"id": "evn_1", "tenant_id": "ten_1", "metrics": [], "total_test_cases": 9},
                    {"id": "evn_2", "tenant_id": "ten_2", "metrics": [], "total_test_cases": 1},
                ],
            )
            session.flush()
            judged = {"judge_model": "gpt-j", "judge_calls": 2, "prompt_tokens": 100}
            session.execute(
                insert(Result),
                [
                    result("evn_1", 0, late, **judged, completion_tokens=7, judge_cost_usd=0.5),
                    result("evn_1", 1, early, **judged, completion_tokens=3, judge_cost_usd=0.25),
                    # No price: the day's cost is unknown, not smaller.
                    result("evn_1", 2, early, **judged, completion_tokens=1),
                    # Only failed requests count too (as failed calls).
                    result("evn_1", 3, early, judge_model="gpt-j", judge_failed_calls=3),
                    # No model named, a candidate's calls, and a result with no calls at all.
                    result("evn_1", 4, early, judge_calls=1, judge_cost_usd=0.0),
                    result(
                        "evn_1",
                        5,
                        early,
                        candidate_model="cand",
                        candidate_calls=1,
                        candidate_prompt_tokens=40,
                        candidate_cost_usd=0.1,
                    ),
                    result("evn_1", 6, early),
                    result("evn_2", 0, early, **judged, judge_cost_usd=9.0),
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            rows = {
                (row.evaluation_id, row.day, row.role, row.model): (
                    row.tenant_id,
                    row.calls,
                    row.failed_calls,
                    row.prompt_tokens,
                    row.completion_tokens,
                    row.cost_usd,
                    row.unpriced,
                )
                for row in session.scalars(select(UsageDay))
            }
            march_1, march_2 = date(2026, 3, 1), date(2026, 3, 2)
            assert late.date() == march_2 and rows == {
                ("evn_1", march_2, "judge", "gpt-j"): ("ten_1", 6, 3, 300, 11, 0.75, 2),
                ("evn_1", march_2, "judge", ""): ("ten_1", 1, 0, 0, 0, 0.0, 0),
                ("evn_1", march_2, "candidate", "cand"): ("ten_1", 1, 0, 40, 0, 0.1, 0),
                ("evn_2", march_2, "judge", "gpt-j"): ("ten_2", 2, 0, 100, 0, 9.0, 0),
            }
            by_model = service.usage(session, "ten_1", march_1, march_2, "model", march_2)
            buckets = {bucket.key: bucket for bucket in by_model.data}
            assert set(buckets) == {"gpt-j", "unknown", "cand"}
            assert buckets["gpt-j"].judge.calls == 6 and buckets["gpt-j"].judge.cost_usd is None
            assert buckets["cand"].candidate.prompt_tokens == 40
            assert by_model.judge.failed_calls == 3 and by_model.cost_usd is None
        migrate.downgrade(settings, "scale_indexes")
        migrate.upgrade(settings)
    finally:
        engine.dispose()


def test_score_bins_count_the_scores_stored_before_them(url: str) -> None:
    # score_bins adds the histogram's counts to metric_summary; older results are counted once,
    # with the edges the scoring write uses for new ones.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "usage_day")
    engine = create_engine(url)
    scores = [0.0, 0.1, 0.3, 0.29999999, 0.5, 0.99, 1.0, None, 1.5, -0.1, 0.7, 0.7]
    stored = datetime(2026, 3, 2, tzinfo=UTC)
    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "a"}])
            session.flush()
            session.execute(
                insert(Evaluation),
                [{"id": "evn_1", "tenant_id": "ten_1", "metrics": [], "total_test_cases": 12}],
            )
            session.flush()
            session.execute(
                insert(Result),
                [
                    {**result("evn_1", index, stored), "score": score}
                    for index, score in enumerate(scores)
                ],
            )
            summary = {
                "evaluation_id": "evn_1",
                "metric_index": 0,
                **dict.fromkeys(("stored", "passed", "failed", "errored", "scored"), 0),
                **dict.fromkeys(("score_sum", "calls", "prompt_tokens", "completion_tokens"), 0),
            }
            # Only the columns the revision before score_bins has.
            session.execute(insert(table("metric_summary", *map(column, summary))), [summary])
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            row = session.get(MetricSummary, ("evn_1", 0))
            counts = [getattr(row, name) for name in BIN_COLUMNS]
        expected = [0] * len(BIN_COLUMNS)
        for score in scores:
            if score_bin(score) is not None:
                expected[score_bin(score)] += 1
        assert counts == expected == [1, 1, 1, 1, 0, 1, 0, 2, 0, 2]
        migrate.downgrade(settings, "usage_day")
        migrate.upgrade(settings)
    finally:
        engine.dispose()
