"""The alignment as a kind of evaluation: the held-out items, judged by two versions."""

from sqlalchemy.orm import Session

from app.alignments.service import PREFIX
from app.evaluations.kinds import Kind
from app.models import Evaluation


class AlignmentKind(Kind):
    """`POST /v1/alignments`: its test cases come answered (the labelled items' content); it is
    read, listed and canceled through `/v1/alignments`, never the evaluation routes."""

    label = "alignment"
    listed = False
    id_prefixes = (PREFIX,)
    # Deleting a tenant's running one cancels it first, as a run's would be.
    cancels_on_delete = True

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        return f"/v1/alignments/{evaluation.id}"
