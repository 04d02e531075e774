"""Reads of an evaluation's test cases, through the evaluation (checked to be the tenant's)."""

from collections.abc import Sequence

from sqlalchemy import func, select

from app.models import Evaluation, TestCase
from app.repository import TenantScopedRepository


class TestCaseReads(TenantScopedRepository[Evaluation]):
    """An evaluation's test cases: in pages, by index, by client id."""

    def test_case_page(
        self, evaluation: Evaluation, after: str | None, limit: int
    ) -> Sequence[TestCase] | None:
        """Test cases in submission order after the one whose id is `after`; `limit + 1` rows.

        None when `after` is not a test case id of this evaluation.
        """
        session, evaluation_id = self.session, self.owned(evaluation).id
        statement = select(TestCase).where(TestCase.evaluation_id == evaluation_id)
        if after is not None:
            anchor = session.scalar(
                select(func.min(TestCase.index)).where(
                    TestCase.evaluation_id == evaluation_id, TestCase.client_id == after
                )
            )
            if anchor is None:
                return None
            statement = statement.where(TestCase.index > anchor)
        return session.scalars(statement.order_by(TestCase.index).limit(limit + 1)).all()

    def test_case_at(self, evaluation: Evaluation, index: int) -> TestCase | None:
        """The evaluation's test case at `index`."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        return session.scalars(
            select(TestCase).where(TestCase.evaluation_id == evaluation_id, TestCase.index == index)
        ).one_or_none()

    def every_test_case(self, evaluation: Evaluation) -> Sequence[TestCase]:
        """All the evaluation's test cases, in submission order."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        return session.scalars(
            select(TestCase).where(TestCase.evaluation_id == evaluation_id).order_by(TestCase.index)
        ).all()

    def test_cases_at(self, evaluation: Evaluation, indices: Sequence[int]) -> dict[int, TestCase]:
        """The evaluation's test cases at these indices, by index."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        if not indices:
            return {}
        cases = session.scalars(
            select(TestCase).where(
                TestCase.evaluation_id == evaluation_id, TestCase.index.in_(set(indices))
            )
        )
        return {case.index: case for case in cases}

    def test_cases_by_client_id(
        self, evaluation: Evaluation, client_ids: Sequence[str]
    ) -> dict[str, TestCase]:
        """The evaluation's test cases with these ids (the first, should an id repeat)."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        if not client_ids:
            return {}
        cases = session.scalars(
            select(TestCase)
            .where(TestCase.evaluation_id == evaluation_id, TestCase.client_id.in_(set(client_ids)))
            .order_by(TestCase.index.desc())
        )
        return {case.client_id: case for case in cases}

    def client_ids_before(
        self, evaluation: Evaluation, client_ids: Sequence[str], before: int
    ) -> set[str]:
        """Of these ids, those the evaluation's cases before index `before` hold (one indexed
        look-up per 500 ids: earlier batches are never read)."""
        session, evaluation_id = self.session, self.owned(evaluation).id
        wanted = sorted(set(client_ids))
        found: set[str] = set()
        for offset in range(0, len(wanted), 500):
            found.update(
                session.scalars(
                    select(TestCase.client_id).where(
                        TestCase.evaluation_id == evaluation_id,
                        TestCase.client_id.in_(wanted[offset : offset + 500]),
                        TestCase.index < before,
                    )
                )
            )
        return found
