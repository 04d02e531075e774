"""Results by score, a page at a time: scored ones by score (ties in test-case order), then the
unscored ones, each exactly once whatever the page size; on PostgreSQL read along
ix_result_evaluation_id_score, never by sorting the evaluation's every result."""

import json
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, event, text
from sqlalchemy.orm import Session

from app import migrate
from app.config import Settings
from app.evaluations.repository import EvaluationRepository
from app.models import Evaluation
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.services import PostgresServer

SCORES = [0.2, None, 0.9, 0.2, None, 0.5, 0.9, 0.2]  # None: the judge refuses (errored)


def judge_by_input(request: dict) -> Reply:
    text_ = json.dumps(request["messages"])
    for index, score in enumerate(SCORES):
        if f"question {index}." in text_:
            if score is None:
                return Reply(status=400, content="refused")
            return Reply(content=json.dumps({"reason": "ok", "score": round(score * 10)}))
    return Reply(content=json.dumps({"steps": ["Check it."]}))


def every_page(client: httpx.Client, evaluation_id: str, order: str, limit: int) -> list[dict]:
    seen: list[dict] = []
    after = None
    while True:
        params: dict[str, Any] = {"order": order, "limit": limit}
        if after:
            params["after"] = after
        page = client.get(f"/v1/evaluations/{evaluation_id}/results", params=params)
        assert page.status_code == 200, page.text
        seen += page.json()["data"]
        if not page.json()["has_more"]:
            return seen
        after = page.json()["last_id"]


@pytest.fixture
def scored(api: Api, judge: ScriptedJudge) -> tuple[httpx.Client, str]:
    judge.script(judge_by_input)
    client = api.tenant_client()
    response = client.post(
        "/v1/evaluations",
        json={
            "metrics": [
                {
                    "type": "g_eval",
                    "name": "quality",
                    "criteria": "Is it right?",
                    "evaluation_steps": ["Check it."],
                    "evaluation_params": ["input", "actual_output"],
                }
            ],
            "test_cases": [
                {"input": f"question {n}.", "actual_output": "answer"} for n in range(len(SCORES))
            ],
        },
    )
    assert response.status_code == 202, response.text
    assert api.wait(client, response.json()["id"])["status"] == "completed"
    return client, response.json()["id"]


class TestScoreOrder:
    @pytest.mark.parametrize("limit", [1, 2, 3, 100])
    def test_every_result_once_scored_by_score_then_unscored(
        self, scored: tuple[httpx.Client, str], limit: int
    ) -> None:
        client, evaluation_id = scored
        for order, reverse in (("score_asc", False), ("score_desc", True)):
            seen = every_page(client, evaluation_id, order, limit)
            keys = [(r["score"], r["test_case_index"]) for r in seen]
            with_score = sorted(
                [(s, i) for i, s in enumerate(SCORES) if s is not None],
                key=lambda pair: (-pair[0] if reverse else pair[0], pair[1]),
            )
            without = [(None, i) for i, s in enumerate(SCORES) if s is None]
            assert [(round(s, 1) if s is not None else None, i) for s, i in keys] == [
                *with_score,
                *without,
            ]


class TestScoreOrderPlan:
    @pytest.mark.parametrize("order", ["score_asc", "score_desc"])
    def test_postgres_reads_the_score_index_never_sorts_everything(
        self, postgres_server: PostgresServer, order: str
    ) -> None:
        settings = Settings(database_url=postgres_server.create_database(f"plan_{order}"))
        migrate.upgrade(settings)
        engine = create_engine(settings.database_url)
        statements: list[tuple[str, Any]] = []

        def seen(conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
            statements.append((statement, params))

        try:
            with Session(engine) as session:
                # As on a big table: reading every row and sorting them all is never the
                # cheap plan there; here it must not even be possible.
                for setting in ("enable_seqscan", "enable_bitmapscan", "enable_sort"):
                    session.execute(text(f"SET LOCAL {setting} = off"))
                evaluation = Evaluation(id="evn_plan", tenant_id="ten_plan")
                event.listen(engine, "before_cursor_execute", seen)
                try:
                    EvaluationRepository(session, "ten_plan").result_page(
                        evaluation, None, 100, metric="quality", order=order
                    )
                finally:
                    event.remove(engine, "before_cursor_execute", seen)
                statement, params = statements[0]
                plan = "\n".join(
                    session.connection().exec_driver_sql("EXPLAIN " + statement, params).scalars()
                )
        finally:
            engine.dispose()
        assert "ix_result_evaluation_id_score" in plan, plan
        sorts = [line for line in plan.splitlines() if "Sort" in line and "Sort Key" not in line]
        assert all("Incremental Sort" in line for line in sorts), plan
