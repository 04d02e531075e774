"""The alignment as a kind of evaluation: the held-out items, judged by two versions."""

from sqlalchemy.orm import Session

from app.alignments.service import PREFIX
from app.evaluations.kinds import Kind
from app.models import Evaluation


class AlignmentKind(Kind):
    """`POST /v1/alignments`: its test cases come answered (the labelled items' content); it is
    read, listed, canceled and deleted through `/v1/alignments` (a running one's
    delete answers 409, as an evaluation's and a run's do), never the evaluation routes."""

    label = "alignment"
    listed = False
    id_prefixes = (PREFIX,)

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        return f"/v1/alignments/{evaluation.id}"
