"""All SQL about a tenant's alignments, and the results and test cases they read."""

from collections.abc import Sequence

from sqlalchemy import select

from app.models import Alignment, Evaluation, Result, TestCase
from app.repository import TenantScopedRepository

# The most results of a version read to find its labelled items' content.
MAX_SOURCE_RESULTS = 50_000


class AlignmentRepository(TenantScopedRepository[Alignment]):
    """One tenant's alignments."""

    model = Alignment

    def get(self, alignment_id: str) -> Alignment | None:
        return self.get_by_id(alignment_id)

    def with_evaluation(self, alignment_id: str) -> tuple[Alignment, Evaluation] | None:
        row = self.session.execute(
            select(Alignment, Evaluation)
            .join(Evaluation, Evaluation.id == Alignment.id)
            .where(
                Alignment.tenant_id == self.tenant_id,
                Evaluation.tenant_id == self.tenant_id,
                Alignment.id == alignment_id,
            )
        ).one_or_none()
        return None if row is None else (row[0], row[1])

    def page(
        self, metric_version: str | None, after: str | None, limit: int
    ) -> Sequence[Alignment]:
        """`limit + 1` of the tenant's alignments, newest first, past `after`."""
        statement = self.get_base_statement()
        if metric_version is not None:
            statement = statement.where(Alignment.metric_version == metric_version)
        return self.keyset_page(statement, Alignment.id, after, limit, descending=True)

    def evaluations(self, ids: list[str]) -> dict[str, Evaluation]:
        rows = self.session.scalars(
            select(Evaluation).where(Evaluation.tenant_id == self.tenant_id, Evaluation.id.in_(ids))
        ).all()
        return {row.id: row for row in rows}

    def add(self, alignment: Alignment) -> None:
        assert alignment.tenant_id == self.tenant_id
        self.session.add(alignment)
        self.session.flush()

    def latest_result(self, metric_version: str) -> tuple[Result, Evaluation] | None:
        """The newest result of the version in the tenant, with its evaluation (its spec and
        resolved judge are what the version was judged with)."""
        row = self.session.execute(
            select(Result, Evaluation)
            .join(Evaluation, Evaluation.id == Result.evaluation_id)
            .where(Evaluation.tenant_id == self.tenant_id, Result.metric_version == metric_version)
            .order_by(Result.created_at.desc(), Result.id.desc())
            .limit(1)
        ).first()
        return None if row is None else (row[0], row[1])

    def judged_cases(self, metric_version: str) -> Sequence[TestCase]:
        """The test cases some result of the version judged (newest evaluations first), at
        most MAX_SOURCE_RESULTS."""
        return self.session.scalars(
            select(TestCase)
            .join(Evaluation, Evaluation.id == TestCase.evaluation_id)
            .join(
                Result,
                (Result.evaluation_id == TestCase.evaluation_id)
                & (Result.test_case_index == TestCase.index),
            )
            .where(Evaluation.tenant_id == self.tenant_id, Result.metric_version == metric_version)
            .order_by(Evaluation.created_at.desc(), TestCase.index)
            .limit(MAX_SOURCE_RESULTS)
        ).all()

    def results(self, evaluation: Evaluation) -> Sequence[Result]:
        """The results of the alignment's own evaluation, in test case and metric order."""
        self.owned(evaluation)
        return self.session.scalars(
            select(Result)
            .where(Result.evaluation_id == evaluation.id)
            .order_by(Result.test_case_index, Result.metric_index)
        ).all()
