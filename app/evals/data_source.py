"""A run's data source: its rows read and checked, and each row as the test case an eval-run job
grades (images ingested at create). Its template and sampling params: app/evals/completions.py."""

from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evals import _schema, criteria
from app.evals._origins import Origin, Path, Row, located, of_template

# A completions run's template and sampling, still importable from here (service, report, tasks).
from app.evals.completions import SAMPLING_DEFAULTS as SAMPLING_DEFAULTS
from app.evals.completions import echo as echo
from app.evals.completions import generation_params as generation_params
from app.evals.completions import input_messages as input_messages
from app.evals.completions import item_messages
from app.evals.completions import sampling_used as sampling_used
from app.files import service as files
from app.media.ingest import Intake, take_in
from app.media.own import OwnMedia
from app.media.store import DatabaseBlobStore
from app.metrics import (
    RenderError,
    build_sample,
    image_url_templates,
    path_steps,
    render_messages,
    render_template,
    resolve,
)
from app.models import EvalDefinition, Tenant
from app.problems import (
    MAX_FIELD_ERRORS,
    Collected,
    FieldError,
    ProblemError,
    bad_request,
    field_error,
    format_loc,
    format_pointer,
    invalid_request,
)

SOURCE = ["data_source", "source"]
# A file source's line N is named at LINE + [N, ...]: under the id, as /v1/files names its own.
LINE: list[str | int] = [*SOURCE, "id", "line"]


def read_rows(
    session: Session, tenant: Tenant, source: Any, problems: Collected
) -> tuple[list[dict[str, Any]], list[int] | None, set[int]]:
    """The data source's rows, for a file each row's line number (errors name lines), and the
    indexes of inline rows that are not `{"item": {...}}`: a 400 naming each is added to
    `problems`, and the other rows are still checked."""
    if not isinstance(source, dict):
        raise bad_request("data_source.source must be an object", SOURCE)
    kind = source.get("type")
    if kind == "file_content":
        content = source.get("content")
        if not isinstance(content, list) or not content:
            raise bad_request("file_content needs a non-empty content array", [*SOURCE, "content"])
        bad = {
            index: problem
            for index, row in enumerate(content)
            if (problem := files.row_problem(row)) is not None
        }
        if bad:
            # Every bad row in one answer, each named by its place, beside the others' faults.
            problems.add(
                files.lines_problem(
                    [
                        field_error(
                            [*SOURCE, "content", index, *inside],
                            f"content[{index}]: {why}",
                            "invalid_value",
                        )
                        for index, (inside, why) in bad.items()
                    ]
                )
            )
        return content, None, set(bad)
    if kind == "file_id":
        file_id = source.get("id")
        if not isinstance(file_id, str):
            raise bad_request("file_id sources need an id", [*SOURCE, "id"])
        try:
            file = files.get_or_404(session, tenant, file_id, with_content=True)
        except ProblemError as exc:
            raise bad_request(f"no file {file_id!r}", [*SOURCE, "id"], "file_not_found") from exc
        # Each bad line named at its own place under the id (`id/line/3/item`), as /v1/files
        # names an upload's; the good lines are still checked, for one answer naming all.
        lines, faults = files.read_lines(file.content, [*SOURCE, "id"])
        if faults:
            problems.add(files.lines_problem(faults))
        elif not lines:
            raise bad_request("file has no rows", [*SOURCE, "id"])
        return [row for _, row in lines], [number for number, _ in lines], set()
    if kind in ("stored_completions", "responses"):
        raise bad_request(
            f"source type {kind!r} reads logs stored at OpenAI; use file_content or file_id",
            [*SOURCE, "type"],
            "unsupported_data_source",
        )
    raise bad_request("source.type must be file_content or file_id", [*SOURCE, "type"])


def check_items(
    schema: dict[str, Any],
    rows: list[dict[str, Any]],
    lines: list[int] | None,
    problems: Collected,
    not_items: set[int],
) -> set[int]:
    """The indexes of the rows whose items do not match the eval's item_schema, with the rows
    that are `not_items`; a 400 naming each is added to `problems` (raised at once when the schema
    itself cannot be applied)."""
    refused = _schema.refusal(schema)
    if refused is not None:
        # An eval stored before Loupe refused remote references and non-RE2 patterns.
        where = format_pointer(refused[0]) if refused[0] else "its root"
        raise bad_request(
            f"this eval's item_schema cannot be applied (at {where}): {refused[1]}; "
            "create a new eval with a schema Loupe can apply",
            ["path", "eval_id"],
            "invalid_item_schema",
        )
    checker = _schema.validator(schema)
    faults: list[FieldError] = []
    mismatched = set(not_items)
    for index, row in enumerate(rows):
        if index in not_items:
            continue
        try:
            error = _schema.first_error(checker, row["item"])
        except _schema.SchemaRefused as exc:
            if lines is not None:
                name, path = f"file line {lines[index]}", [*LINE, lines[index], "item"]
            else:
                name, path = f"content[{index}].item", [*SOURCE, "content", index, "item"]
            raise bad_request(f"{name}: {exc.message}", path, "invalid_item_schema") from exc
        if error is None:
            continue
        mismatched.add(index)
        where = "/".join(str(step) for step in error.absolute_path) or "(the item)"
        if lines is not None:
            faults.append(
                field_error(
                    [*LINE, lines[index], "item", *error.absolute_path],
                    f"file line {lines[index]}: item does not match item_schema at {where}: "
                    f"{error.message}",
                    "item_schema_mismatch",
                )
            )
        else:
            faults.append(
                field_error(
                    [*SOURCE, "content", index, "item", *error.absolute_path],
                    f"content[{index}].item does not match item_schema at {where}: {error.message}",
                    "item_schema_mismatch",
                )
            )
        if len(faults) >= MAX_FIELD_ERRORS:
            break
    if faults:
        # Every row that does not match, in one answer (at most MAX_FIELD_ERRORS named).
        problems.add(files.lines_problem(faults))
    return mismatched


def _content_parts(content: Any) -> list[tuple[Path, Any]]:
    """A message's parts with their place under `content` (none for a lone part)."""
    if isinstance(content, list):
        return [([index], part) for index, part in enumerate(content)]
    return [([], content)] if isinstance(content, dict) else []


def _grader_image_templates(definition: EvalDefinition) -> dict[str, Origin]:
    """Each image URL template of the graders, with where its first use was written."""
    templates: dict[str, Origin] = {}
    for number, criterion in enumerate(definition.testing_criteria):
        if criterion.get("type") not in criteria.MODEL_GRADERS:
            continue
        for position, message in enumerate(criterion.get("input") or []):
            content = message.get("content") if isinstance(message, dict) else None
            for where, part in _content_parts(content):
                url = part.get("image_url") if isinstance(part, dict) else None
                if isinstance(url, str) and part.get("type") == "input_image":
                    path = ["testing_criteria", number, "input", position, "content", *where]
                    templates.setdefault(url, Origin([*path, "image_url"]))
    return templates


def _identity(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


# Where ingesting reports a part's bad URL or clip, under the part's own location.
_PART_FIELDS: dict[str, Path] = {
    "image_url": ["image_url", "url"],
    "input_audio": ["input_audio", "data"],
}
# Where the written part that became it (a template's, or an item's) holds that URL or clip.
_WRITTEN_FIELDS: dict[str, Path] = {
    "input_image": ["image_url"],
    **_PART_FIELDS,
}


def _message_origins(
    messages: list[dict[str, Any]],
    template: list[Any],
    row: Row,
    spec: dict[str, Any],
) -> dict[tuple[int, int], Origin]:
    """(message, part) -> origin, for the media parts of a row's rendered messages (parts
    render one for one, so a rendered part's place is its template part's)."""
    origins: dict[tuple[int, int], Origin] = {}
    for position, message in enumerate(messages):
        if not isinstance(message["content"], list):
            continue
        written = _content_parts(template[position].get("content"))
        for index, part in enumerate(message["content"]):
            if part["type"] not in _PART_FIELDS:
                continue
            where, source = written[index]
            steps: Path = [position, "content", *where, *_WRITTEN_FIELDS[source["type"]]]
            if spec["type"] != "template":
                # An item's messages are sent as written: their URLs are the item's own.
                origins[(position, index)] = row.field(
                    [*path_steps(spec["item_reference"]), *steps]
                )
                continue
            literal = Origin(["data_source", "input_messages", "template", *steps])
            url = source.get("image_url") if source["type"] == "input_image" else None
            origins[(position, index)] = (
                of_template(url, row, literal) if isinstance(url, str) else literal
            )
    return origins


def _case(
    row: Row,
    data: dict[str, Any],
    image_templates: dict[str, Origin],
    spec: dict[str, Any] | None,
) -> tuple[dict[str, Any], list[Origin], dict[tuple[int, int], Origin]]:
    """The stored test case of one row (images are ingested afterwards, in place), and where
    its image parts and its messages' media parts came from."""
    item = data["item"]
    # The row's sample plus `output_json` parsed from its `output_text`, as a sampled row has.
    sample = build_sample(row_sample=data["sample"]) if data.get("sample") is not None else None
    namespaces = {"item": item, "sample": sample}
    urls: list[str] = []
    image_origins: list[Origin] = []
    for template, literal in image_templates.items():
        try:
            url = render_template(template, namespaces)
        except RenderError:
            continue  # the grader reports it for this row, as an errored result
        if url not in urls:
            urls.append(url)
            image_origins.append(of_template(template, row, literal))
    metadata: dict[str, Any] = {"item": item, "sample": sample, "image_urls": urls}
    messages = None
    message_origins: dict[tuple[int, int], Origin] = {}
    if spec is not None:
        try:
            if spec["type"] == "template":
                template = spec["template"]
                message_urls = image_url_templates(template)
                rendered = {render_template(url, {"item": item}): None for url in message_urls}
                messages = render_messages(
                    template, {"item": item}, {url: _identity(url) for url in rendered}
                )
            else:
                template = resolve(spec["item_reference"], {"item": item})
                if not isinstance(template, list):
                    raise RenderError(f"{spec['item_reference']} is not an array of messages")
                messages = item_messages(template)
            message_origins = _message_origins(messages, template, row, spec)
        except RenderError as error:
            metadata["error"] = {"code": error.type, "message": error.message}
    output_text = (sample or {}).get("output_text")
    case = {
        "index": row.index,
        "client_id": str(row.index),
        "input": [_identity(url) for url in urls] or None,
        "actual_output": output_text if isinstance(output_text, str) else None,
        "expected_output": None,
        "messages": messages,
        "metadata_": metadata,
    }
    return case, image_origins, message_origins


def test_cases(
    definition: EvalDefinition,
    rows: list[dict[str, Any]],
    lines: list[int] | None,
    spec: dict[str, Any] | None,
    settings: Settings,
    session: Session,
    tenant: Tenant,
    own: OwnMedia | None = None,
) -> list[dict[str, Any]]:
    """The run's test cases, one per row, their images ingested; a bad image is a 400 naming
    the field it came from.

    Args:
        lines: each row's line in its file (None: the rows came inline).
        spec: a completions run's checked `input_messages` (None for jsonl).
        own: this server's media as the tenant reads them (their URLs are not fetched).
    """
    cases, intake = checked_cases(definition, rows, lines, spec, settings, own)
    intake.store(DatabaseBlobStore(session, tenant.id))
    return cases


def checked_cases(
    definition: EvalDefinition,
    rows: list[dict[str, Any]],
    lines: list[int] | None,
    spec: dict[str, Any] | None,
    settings: Settings,
    own: OwnMedia | None = None,
    skipped: set[int] | None = None,
) -> tuple[list[dict[str, Any]], Intake]:
    """`test_cases` before anything is stored: the cases (images as the rows give them) and
    their images taken in; a bad image is a 400 naming the field it came from. `skipped`: rows
    already refused (not an item, or off the item_schema): not read, nor made cases."""
    image_templates = _grader_image_templates(definition)
    cases = []
    # Each media part is ingested on its own, under a location that finds its origin.
    contents: list[tuple[Path, Any]] = []
    origins: dict[str, Origin] = {}

    def add(part: dict[str, Any], origin: Origin) -> None:
        where: Path = ["part", len(contents)]
        contents.append((where, [part]))
        origins[format_loc([*where, 0, *_PART_FIELDS[part["type"]]])] = origin

    for index, data in enumerate(rows):
        if skipped and index in skipped:
            continue
        row = Row(index, lines[index] if lines is not None else None)
        case, image_origins, message_origins = _case(row, data, image_templates, spec)
        cases.append(case)
        for part, origin in zip(case["input"] or [], image_origins, strict=True):
            add(part, origin)
        for (position, part_index), origin in message_origins.items():
            add(case["messages"][position]["content"][part_index], origin)
    intake = take_in(contents, settings, own)
    if intake.errors:
        raise located(invalid_request(intake.errors), origins)
    return cases, intake
