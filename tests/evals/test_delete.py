"""Deleting an eval or a run while a run is grading, on both backends: the API answers, the
run's job stops quietly at its next write (no error, no retry), no further judge call is made,
and nothing of the run is left behind."""

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import openai
import pytest
from sqlalchemy import func, select

from app.models import BlobRef, Evaluation, Result
from app.models import TestCase as StoredCase
from tests.evals.helpers import RED, create_eval, grading, row, wait
from tests.fixtures.api import Api
from tests.fixtures.jobs import assert_nothing_failed_or_requeued, stopped, wait_for
from tests.fixtures.judge import ScriptedJudge

# More rows than the judge client ever has in flight (LOUPE_JUDGE_CONCURRENCY is 64).
ROWS = [row(f"q{i}", "yes", RED, "yes") for i in range(100)]
LABEL = {
    "type": "label_model",
    "name": "judge",
    "model": "judge-model",
    "labels": ["correct", "incorrect"],
    "passing_labels": ["correct"],
    "input": [
        {"role": "developer", "content": "LABEL-GRADER: label the answer."},
        {
            "role": "user",
            "content": "Q: {{item.question}}\nReference: {{item.answer}}\n"
            "Answer: {{sample.output_text}}",
        },
    ],
}
# The image reaches the grader, so the run holds a blob reference.
WITH_IMAGE = {
    **LABEL,
    "input": [
        *LABEL["input"],
        {"role": "user", "content": [{"type": "input_image", "image_url": "{{ item.image }}"}]},
    ],
}


def rows_of(api: Api, evaluation_id: str) -> int:
    with api.served.runtime.session() as session:
        return sum(
            session.scalar(select(func.count()).select_from(table).where(column == evaluation_id))
            or 0
            for table, column in (
                (Evaluation, Evaluation.id),
                (StoredCase, StoredCase.evaluation_id),
                (Result, Result.evaluation_id),
                (BlobRef, BlobRef.holder_id),
            )
        )


def settled(count: Callable[[], int], quiet: float = 1.0, timeout: float = 30) -> int:
    """`count()` once it has not changed for `quiet` seconds."""
    deadline = time.monotonic() + timeout
    last, since = count(), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, "the judge's count never settled"
        time.sleep(0.05)
        now = count()
        if now != last:
            last, since = now, time.monotonic()
    return last


def delete_mid_run(
    api: Api,
    client: openai.OpenAI,
    judge: ScriptedJudge,
    records: list[logging.LogRecord],
    delete: Callable[[str, str], Any],
) -> tuple[str, int]:
    """Start a run, delete it (by `delete(eval_id, run_id)`) once the judge holds calls of
    it, and wait for its job to stop; returns the run id and the judge calls made."""
    judge.script(grading)
    judge.hold()
    try:
        ev = create_eval(client, [WITH_IMAGE])
        source = {"type": "file_content", "content": ROWS}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        answers: list[Any] = []

        def delete_once_asked() -> None:
            wait_for(lambda: judge.requests, "the judge was never asked")
            answers.append(delete(ev.id, run.id))

        deleter = threading.Thread(target=delete_once_asked)
        deleter.start()
        # Distributed: the burst worker runs the job here and returns once it stops, the
        # judge still holding its calls. Embedded: the job runs on the API's own thread.
        api.run_queue()
        deleter.join()
        wait_for(lambda: stopped(records, run.id), "the job did not notice the deletion")
        # Calls the job sent before it stopped may reach the judge a little later (a loaded
        # machine): the count is taken once it has settled, and must not move after.
        asked = settled(lambda: len(judge.requests))
    finally:
        judge.release()
    assert answers and answers[0].deleted is True
    # The held calls are answered now; no new one follows them.
    wait_for(lambda: judge.in_flight == 0, "the judge still answers")
    assert len(judge.requests) == asked < len(ROWS)
    return run.id, asked


class TestDeleteWhileRunning:
    def test_deleting_the_eval_stops_its_running_run(
        self,
        api: Api,
        client: openai.OpenAI,
        judge: ScriptedJudge,
        log_records: list[logging.LogRecord],
    ) -> None:
        run_id, _ = delete_mid_run(
            api, client, judge, log_records, lambda eval_id, _: client.evals.delete(eval_id)
        )
        assert_nothing_failed_or_requeued(api, log_records)
        assert rows_of(api, run_id) == 0
        # Canceled first, by the request that deleted it.
        events = [r.getMessage() for r in log_records if getattr(r, "evaluation_id", "") == run_id]
        assert "evaluation.canceled" in events

    def test_deleting_the_run_stops_it(
        self,
        api: Api,
        client: openai.OpenAI,
        judge: ScriptedJudge,
        log_records: list[logging.LogRecord],
    ) -> None:
        run_id, _ = delete_mid_run(
            api,
            client,
            judge,
            log_records,
            lambda eval_id, run_id: client.evals.runs.delete(run_id, eval_id=eval_id),
        )
        assert_nothing_failed_or_requeued(api, log_records)
        assert rows_of(api, run_id) == 0

    @pytest.mark.parametrize("deleting", ["eval", "run"])
    def test_a_finished_run_is_deleted_as_before(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge, deleting: str
    ) -> None:
        judge.script(grading)
        ev = create_eval(client, [WITH_IMAGE])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert wait(api, client, ev.id, run.id).status == "completed"
        assert rows_of(api, run.id) > 0
        if deleting == "eval":
            assert client.evals.delete(ev.id).deleted
        else:
            assert client.evals.runs.delete(run.id, eval_id=ev.id).deleted
        assert rows_of(api, run.id) == 0
