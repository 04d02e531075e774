"""Where an image a run ingests came from in what the user sent, so a bad one's 400 names that
field: the row field its template's first `{{ path }}` reads (`data_source.source.content[2]
.item.chart_url`; for a file, under its id: `data_source.source.id.line[3].item.chart_url`,
the line in the message too), or where a literal URL was written (a criterion's or the
template's `image_url`)."""

from dataclasses import dataclass

from app.metrics import TemplateError, path_steps, template_paths
from app.problems import ProblemError, field_error, format_loc

Path = list[str | int]


@dataclass(frozen=True)
class Origin:
    """A field of the request (or of the eval) and, for a file's row, the line it is on."""

    path: Path
    prefix: str = ""


@dataclass(frozen=True)
class Row:
    """A data-source row: inline at `content[index]`, or in a file at `line`."""

    index: int
    line: int | None

    def field(self, steps: Path) -> Origin:
        """The row's field at `steps` (`["item", "chart_url"]`)."""
        if self.line is None:
            return Origin(["data_source", "source", "content", self.index, *steps])
        return Origin(
            ["data_source", "source", "id", "line", self.line, *steps],
            f"file line {self.line}, {format_loc(steps)}: ",
        )


def of_template(template: str, row: Row, literal: Origin) -> Origin:
    """Where the URL `template` rendered to for `row` came from; `literal` when it reads no
    row field."""
    try:
        paths = template_paths(template)
    except TemplateError:
        paths = []
    return row.field(path_steps(paths[0])) if paths else literal


def located(problem: ProblemError, origins: dict[str, Origin]) -> ProblemError:
    """`problem` (from ingesting) with each error at the origin of the location it names."""
    errors = []
    for error in problem.errors or []:
        origin = origins.get(error.loc)
        errors.append(
            field_error(origin.path, origin.prefix + error.msg, error.type) if origin else error
        )
    detail = "; ".join(f"{error.loc}: {error.msg}" for error in errors[:3])
    _, more, rest = (problem.detail or "").rpartition(" (and ")
    if more:
        detail += f" (and {rest}"
    return ProblemError(problem.status, problem.title, detail, slug=problem.slug, errors=errors)
