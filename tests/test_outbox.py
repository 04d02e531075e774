"""Side effects recorded on a session's outbox run once its transaction commits, in order, and
never for one that rolled back."""

from sqlalchemy import text

from app.outbox import outbox
from tests.fixtures.api import Api


class TestOutbox:
    def test_effects_run_after_the_commit_in_order(self, api: Api) -> None:
        ran: list[str] = []
        with api.served.runtime.session() as session:
            session.execute(text("SELECT 1"))
            outbox(session).add(lambda: ran.append("first"))
            outbox(session).add(lambda: ran.append("second"))
            assert ran == []
            session.commit()
            assert ran == ["first", "second"]
            # A new transaction starts with an empty outbox.
            session.execute(text("SELECT 1"))
            session.commit()
        assert ran == ["first", "second"]

    def test_a_rollback_drops_them(self, api: Api) -> None:
        ran: list[str] = []
        with api.served.runtime.session() as session:
            session.execute(text("SELECT 1"))
            outbox(session).add(lambda: ran.append("rolled back"))
            session.rollback()
            session.execute(text("SELECT 1"))
            outbox(session).add(lambda: ran.append("committed"))
            session.commit()
        assert ran == ["committed"]

    def test_a_session_closed_uncommitted_drops_them(self, api: Api) -> None:
        ran: list[str] = []
        with api.served.runtime.session() as session:
            session.execute(text("SELECT 1"))
            outbox(session).add(lambda: ran.append("never"))
        # The same session used again after its close: its next commit is another unit of work.
        session.execute(text("SELECT 1"))
        session.commit()
        session.close()
        assert ran == []

    def test_a_failing_effect_does_not_stop_the_others(self, api: Api) -> None:
        ran: list[str] = []

        def fail() -> None:
            raise RuntimeError("Redis away")

        with api.served.runtime.session() as session:
            session.execute(text("SELECT 1"))
            outbox(session).add(fail)
            outbox(session).add(lambda: ran.append("after"))
            session.commit()
        assert ran == ["after"]


class TestJobHandles:
    def test_each_names_an_entry_point_the_worker_runs(self) -> None:
        import importlib

        from app.evaluations.jobs import SCORE_SLICE
        from app.webhooks.jobs import DELIVER_WEBHOOK

        for job in (SCORE_SLICE, DELIVER_WEBHOOK):
            module, _, name = job.entry.rpartition(".")
            assert callable(getattr(importlib.import_module(module), name)), job.entry
