"""Alembic migrations: empty → head → base → head, on PostgreSQL and SQLite."""

import uuid
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import column, create_engine, insert, inspect, select, table
from sqlalchemy.orm import Session

from app import migrate
from app.config import Settings
from app.db import Base
from app.models import (
    BlobRef,
    Dataset,
    DatasetRow,
    Evaluation,
    MetricSummary,
    Result,
    Run,
    RunScore,
    SignedOutSession,
    Tenant,
)
from app.models import TestCase as StoredCase
from tests.fixtures.services import PostgresServer

TABLES = set(Base.metadata.tables)


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def round_trip(settings: Settings) -> None:
    migrate.upgrade(settings)
    assert tables(settings.database_url) == TABLES
    migrate.downgrade(settings, "base")
    assert tables(settings.database_url) == set()
    migrate.upgrade(settings)
    assert tables(settings.database_url) == TABLES


def add_evaluation(session: Session, **values: object) -> None:
    """An evaluation row holding only these columns (and defaults), so the insert works at
    revisions before columns the model has gained since."""
    session.execute(insert(Evaluation), [values])


class TestMigrations:
    def test_postgres_up_down_up(self, postgres_server: PostgresServer) -> None:
        url = postgres_server.create_database(f"migrations_{uuid.uuid4().hex[:8]}")
        round_trip(Settings(database_url=url))

    def test_sqlite_up_down_up(self, tmp_path: Path) -> None:
        round_trip(Settings(database_url=f"sqlite:///{tmp_path}/m.db"))

    def test_head_matches_the_models(self, url: str) -> None:
        from alembic.autogenerate import compare_metadata
        from alembic.migration import MigrationContext

        migrate.upgrade(Settings(database_url=url))
        engine = create_engine(url)
        try:
            with engine.connect() as connection:
                diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        finally:
            engine.dispose()
        assert diff == [], f"models changed without a migration: {diff}"


def test_run_scores_are_backfilled_for_runs_stored_before_them(url: str) -> None:
    # 0005 adds the report's running sums; runs that finished under 0004 must keep their report.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "0004")
    engine = create_engine(url)

    def result(index: int, subset: str, type_: str, logs: dict, error: dict | None = None):
        # Rows (not ORM objects): columns added since 0004 must be left out of the INSERT.
        return {
            "id": f"res_{index}",
            "evaluation_id": "run_1",
            "test_case_index": index,
            "test_case_id": f"{subset}/{index}",
            "metric_index": 0,
            "metric": "m",
            "type": type_,
            "error": error,
            "logs": logs,
        }

    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.flush()
            session.add(
                Dataset(
                    id="ds_1",
                    tenant_id="ten_1",
                    name="d",
                    format="general_vmcq",
                    filename="d.zip",
                    subsets=[],
                    row_count=3,
                )
            )
            session.flush()
            add_evaluation(
                session, id="run_1", tenant_id="ten_1", kind="run", metrics=[], total_test_cases=3
            )
            session.add(Run(id="run_1", tenant_id="ten_1", dataset_id="ds_1", options={}))
            session.flush()
            session.execute(
                insert(Result),
                [
                    result(0, "a", "choice_accuracy", {"accuracy": 1.0}),
                    result(1, "a", "choice_accuracy", {"accuracy": 0.0}),
                    result(2, "b/c", "choice_accuracy", {"accuracy": 1.0}),
                    result(3, "b/c", "choice_accuracy", {}, {"type": "candidate_timeout"}),
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            rows = session.execute(
                select(RunScore.key, RunScore.subset, RunScore.total, RunScore.num)
            ).all()
        assert sorted(rows) == [("accuracy", "a", 1.0, 2), ("accuracy", "b/c", 1.0, 1)]
    finally:
        engine.dispose()


def test_metric_summaries_are_backfilled_for_evaluations_stored_before_them(url: str) -> None:
    # 0009 keeps per-metric counts as results are stored; older evaluations get theirs summed.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "0008")
    engine = create_engine(url)

    def result(index: int, metric: int, score: float | None, passed: bool | None, **extra):
        return {
            "id": f"res_{index}_{metric}",
            "evaluation_id": "eval_1",
            "test_case_index": index,
            "test_case_id": str(index),
            "metric_index": metric,
            "metric": "m",
            "type": "g_eval",
            "score": score,
            "passed": passed,
            "judge_calls": extra.get("calls", 1),
            "prompt_tokens": 10,
            "completion_tokens": 2,
            "error": extra.get("error"),
            "logs": {},
        }

    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.flush()
            add_evaluation(session, id="eval_1", tenant_id="ten_1", metrics=[], total_test_cases=3)
            session.flush()
            session.execute(
                insert(Result),
                [
                    result(0, 0, 0.75, True),
                    result(1, 0, 0.25, False),
                    result(2, 0, None, None, error={"type": "judge_timeout"}, calls=3),
                    result(0, 1, 1.0, True, calls=0),
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            rows = {
                row.metric_index: row
                for row in session.scalars(
                    select(MetricSummary).where(MetricSummary.evaluation_id == "eval_1")
                )
            }
        first, second = rows[0], rows[1]
        assert (first.stored, first.passed, first.failed, first.errored) == (3, 1, 1, 1)
        assert (first.score_sum, first.scored) == (1.0, 2)
        assert (first.calls, first.prompt_tokens, first.completion_tokens) == (5, 30, 6)
        assert (second.stored, second.passed, second.scored, second.calls) == (1, 1, 1, 0)
        # cost1: results stored before prices existed have an unknown cost, not a zero one.
        assert (first.judge_unpriced, second.judge_unpriced) == (3, 0)
    finally:
        engine.dispose()


def test_sums_of_squares_are_backfilled_for_evaluations_and_runs(url: str) -> None:
    # stats1 adds Σscore² to metric_summary and run_score; rows stored before get theirs summed
    # (stored under 0004, so 0005 and 0009 sum the rest on the way up).
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "0004")
    engine = create_engine(url)

    def result(evaluation_id: str, index: int, score: float | None, **extra: object) -> dict:
        return {
            "id": f"res_{evaluation_id}_{index}",
            "evaluation_id": evaluation_id,
            "test_case_index": index,
            "test_case_id": extra.get("case_id", str(index)),
            "metric_index": 0,
            "metric": "m",
            "type": extra.get("type", "exact_match"),
            "score": score,
            "passed": None,
            "error": extra.get("error"),
            "logs": extra.get("logs", {}),
        }

    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.flush()
            session.add(
                Dataset(
                    id="ds_1",
                    tenant_id="ten_1",
                    name="d",
                    format="general_vmcq",
                    filename="d.zip",
                    subsets=[],
                    row_count=3,
                )
            )
            add_evaluation(session, id="eval_1", tenant_id="ten_1", metrics=[], total_test_cases=3)
            add_evaluation(
                session, id="run_1", tenant_id="ten_1", kind="run", metrics=[], total_test_cases=3
            )
            session.flush()
            session.add(Run(id="run_1", tenant_id="ten_1", dataset_id="ds_1", options={}))
            session.flush()
            session.execute(
                insert(Result),
                [
                    result("eval_1", 0, 0.5),
                    result("eval_1", 1, 0.25),
                    result("eval_1", 2, None, error={"type": "judge_timeout"}),
                    *(
                        result(
                            "run_1",
                            index,
                            None,
                            case_id=f"a/{index}",
                            type="rouge",
                            logs={"bleu-1": value, "Rouge-L-R": 1.0},
                        )
                        for index, value in enumerate((0.5, 0.75))
                    ),
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            summary = session.scalars(
                select(MetricSummary).where(MetricSummary.evaluation_id == "eval_1")
            ).one()
            scores = session.execute(
                select(
                    RunScore.key, RunScore.subset, RunScore.total, RunScore.num, RunScore.total_sq
                )
            ).all()
            cluster_by = session.scalar(
                select(Evaluation.cluster_by).where(Evaluation.id == "eval_1")
            )
        assert (summary.score_sum, summary.scored, summary.score_sq_sum) == (0.75, 2, 0.3125)
        by_key = {row[0]: row[1:] for row in scores}
        assert by_key["bleu-1"] == ("a", 1.25, 2, 0.8125)
        assert by_key["Rouge-L-R"] == ("a", 2.0, 2, 2.0)
        assert cluster_by is None
    finally:
        engine.dispose()


def test_blob_refs_are_backfilled_for_rows_stored_before_them(url: str) -> None:
    # gc1 records which evaluations and datasets name each blob; older rows get theirs read once.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "cost4")
    engine = create_engine(url)
    image, audio = "a" * 64, "b" * 64
    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.flush()
            add_evaluation(session, id="eval_1", tenant_id="ten_1", metrics=[], total_test_cases=2)
            session.add(
                Dataset(
                    id="ds_1",
                    tenant_id="ten_1",
                    name="d",
                    format="general_vqa",
                    filename="d.jsonl",
                    subsets=[],
                    row_count=1,
                )
            )
            session.flush()
            part = {"type": "image_url", "image_url": {"url": f"blob:sha256:{image}"}}
            session.execute(
                insert(StoredCase),
                [
                    {"evaluation_id": "eval_1", "index": 0, "client_id": "0", "input": [part]},
                    {
                        "evaluation_id": "eval_1",
                        "index": 1,
                        "client_id": "1",
                        "input": "no media",
                        "actual_output": [part],
                    },
                ],
            )
            audio_part = {"type": "input_audio", "input_audio": {"data": f"blob:sha256:{audio}"}}
            session.execute(
                insert(DatasetRow),
                [
                    {
                        "dataset_id": "ds_1",
                        "subset": "default",
                        "index": 0,
                        "line": 1,
                        "kind": "vqa",
                        "messages": [{"role": "user", "content": [audio_part]}],
                    }
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            refs = {
                (ref.sha256, ref.holder_id, ref.tenant_id)
                for ref in session.scalars(select(BlobRef))
            }
        assert refs == {(image, "eval_1", "ten_1"), (audio, "ds_1", "ten_1")}
    finally:
        engine.dispose()


def test_signed_out_sessions_come_and_go_with_console1(url: str) -> None:
    # console1 adds the sign-outs every API process checks a console cookie against.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "gc1")
    assert "signed_out_session" not in tables(url)
    migrate.upgrade(settings, "console1")
    engine = create_engine(url)
    try:
        columns = {c["name"] for c in inspect(engine).get_columns("signed_out_session")}
        assert columns == {"nonce", "expires_at"}
        indexes = inspect(engine).get_indexes("signed_out_session")
        assert [index["column_names"] for index in indexes] == [["expires_at"]]
        with Session(engine) as session:
            expires = datetime(2026, 11, 24, tzinfo=UTC)
            session.add(SignedOutSession(nonce="n1", expires_at=expires))
            session.commit()
            assert session.get(SignedOutSession, "n1").expires_at == expires
    finally:
        engine.dispose()
    migrate.downgrade(settings, "gc1")
    assert "signed_out_session" not in tables(url)


def test_run_score_verdicts_are_backfilled_for_runs_stored_before_them(url: str) -> None:
    # stats3 counts the run's own metrics' passes and fails beside its running sums (the report
    # row's Wilson interval); runs stored under console1 get theirs counted from their results.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "console1")
    engine = create_engine(url)

    def result(index: int, metric: str, score: float | None, passed: bool | None, **extra):
        return {
            "id": f"res_{index}_{metric}",
            "evaluation_id": "run_1",
            "test_case_index": index,
            "test_case_id": extra.get("case_id", f"a/{index}"),
            "metric_index": 0 if metric == "accuracy" else 1,
            "metric": metric,
            "type": "choice_accuracy" if metric == "accuracy" else "bleu",
            "score": score,
            "passed": passed,
            "error": extra.get("error"),
            "logs": {"accuracy": score} if metric == "accuracy" else {},
        }

    def sums(key: str, subset: str, total: float, num: int) -> dict:
        return {"run_id": "run_1", "key": key, "subset": subset, "total": total, "num": num}

    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.flush()
            session.add(
                Dataset(
                    id="ds_1",
                    tenant_id="ten_1",
                    name="d",
                    format="general_vqa",
                    filename="d.zip",
                    subsets=[],
                    row_count=4,
                )
            )
            add_evaluation(
                session, id="run_1", tenant_id="ten_1", kind="run", metrics=[], total_test_cases=4
            )
            session.flush()
            session.add(Run(id="run_1", tenant_id="ten_1", dataset_id="ds_1", options={}))
            session.flush()
            session.execute(
                insert(Result),
                [
                    result(0, "b1", 0.9, True),
                    result(1, "b1", 0.1, False),
                    result(2, "b1", 0.2, False),
                    result(3, "b1", None, None, error={"type": "metric_error"}),
                    result(4, "b1", 0.8, True, case_id="b/c/4"),
                    # A scorer's verdict is not counted: its report key is read from its logs.
                    result(0, "accuracy", 1.0, True),
                ],
            )
            # What the jobs had stored by then: sums without verdicts.
            stored_sums = table(
                "run_score", *(column(name) for name in ("run_id", "key", "subset", "total", "num"))
            )
            session.execute(
                insert(stored_sums),
                [
                    sums("b1", "a", 1.2, 3),
                    sums("b1", "b/c", 0.8, 1),
                    sums("accuracy", "a", 1.0, 1),
                ],
            )
            session.commit()
        migrate.upgrade(settings)
        with Session(engine) as session:
            counts = session.execute(
                select(RunScore.key, RunScore.subset, RunScore.passed, RunScore.failed)
            ).all()
        assert sorted(counts) == [
            ("accuracy", "a", 0, 0),
            ("b1", "a", 1, 2),
            ("b1", "b/c", 1, 0),
        ]
    finally:
        engine.dispose()


def test_webhook_secrets_are_encrypted_by_whsec1_and_decrypted_back(url: str) -> None:
    # whsec1 replaces the secret in clear with its Fernet token under LOUPE_SECRET_KEY, for the
    # endpoints registered before it too; downgrading gives the same secrets back in clear.
    from app import crypto

    settings = Settings(database_url=url, secret_key="a-migration-secret-key-of-32-bytes+")
    migrate.upgrade(settings, "quota1")
    endpoint = table(
        "webhook_endpoint",
        column("id"),
        column("tenant_id"),
        column("url"),
        column("secret"),
        column("enabled"),
        column("created_at"),
    )
    secrets = {f"we_{n}": f"whsec_c2VjcmV0LW51bWJlci0{n}" for n in range(3)}
    engine = create_engine(url)
    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.execute(
                insert(endpoint),
                [
                    {
                        "id": endpoint_id,
                        "tenant_id": "ten_1",
                        "url": f"http://127.0.0.1:9/{endpoint_id}",
                        "secret": secret,
                        "enabled": True,
                        "created_at": datetime(2026, 11, 25, tzinfo=UTC),
                    }
                    for endpoint_id, secret in secrets.items()
                ],
            )
            session.commit()
        migrate.upgrade(settings, "whsec1")
        columns = {c["name"] for c in inspect(engine).get_columns("webhook_endpoint")}
        assert "secret" not in columns and "secret_encrypted" in columns
        encrypted = table("webhook_endpoint", column("id"), column("secret_encrypted"))
        with Session(engine) as session:
            tokens = dict(
                session.execute(select(encrypted.c.id, encrypted.c.secret_encrypted)).all()
            )
        assert all(b"whsec_" not in bytes(token) for token in tokens.values())
        assert {key: crypto.decrypt(settings, token) for key, token in tokens.items()} == secrets
        migrate.downgrade(settings, "quota1")
        engine.dispose()
        with Session(engine) as session:
            restored = dict(session.execute(select(endpoint.c.id, endpoint.c.secret)).all())
        assert restored == secrets
    finally:
        engine.dispose()


def test_endpoints_disabled_before_failing_since_were_disabled_by_a_410(url: str) -> None:
    # webhook_failing_since adds why an endpoint is off; a 410 was the only way before it.
    settings = Settings(database_url=url)
    migrate.upgrade(settings, "usage_outlives_evaluation")
    endpoint = table(
        "webhook_endpoint",
        column("id"),
        column("tenant_id"),
        column("url"),
        column("secret_encrypted"),
        column("enabled"),
        column("created_at"),
    )
    engine = create_engine(url)
    try:
        with Session(engine) as session:
            session.execute(insert(Tenant), [{"id": "ten_1", "name": "t"}])
            session.execute(
                insert(endpoint),
                [
                    {
                        "id": f"we_{state}",
                        "tenant_id": "ten_1",
                        "url": f"http://127.0.0.1:9/{state}",
                        "secret_encrypted": b"token",
                        "enabled": state == "on",
                        "created_at": datetime(2026, 11, 28, tzinfo=UTC),
                    }
                    for state in ("on", "off")
                ],
            )
            session.commit()
        migrate.upgrade(settings, "webhook_failing_since")
        after = table(
            "webhook_endpoint", column("id"), column("failing_since"), column("disabled_reason")
        )
        with Session(engine) as session:
            rows = session.execute(
                select(after.c.id, after.c.failing_since, after.c.disabled_reason)
            ).all()
        assert sorted(tuple(row) for row in rows) == [
            ("we_off", None, "the receiver answered 410 Gone"),
            ("we_on", None, None),
        ]
        migrate.downgrade(settings, "usage_outlives_evaluation")
        engine.dispose()
        columns = {c["name"] for c in inspect(engine).get_columns("webhook_endpoint")}
        assert not columns & {"failing_since", "disabled_reason"}
    finally:
        engine.dispose()
