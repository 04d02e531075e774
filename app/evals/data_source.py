"""A run's data source: its rows read and checked, its template and sampling params, and each
row as the test case an eval-run job grades (images ingested at create)."""

from typing import Any

from sqlalchemy.orm import Session

from app.config import Settings
from app.evals import _schema, criteria
from app.evals._origins import Origin, Path, Row, located, of_template
from app.files import service as files
from app.media.ingest import ingest_contents
from app.media.store import DatabaseBlobStore
from app.metrics import (
    RenderError,
    build_sample,
    check_template,
    check_templates,
    image_url_templates,
    path_steps,
    render_messages,
    render_template,
    resolve,
)
from app.models import EvalDefinition, Tenant
from app.problems import ProblemError, bad_request, format_loc, format_pointer

SOURCE = ["data_source", "source"]


def read_rows(
    session: Session, tenant: Tenant, source: Any
) -> tuple[list[dict[str, Any]], list[int] | None]:
    """The data source's rows, and for a file each row's line number (errors name lines)."""
    if not isinstance(source, dict):
        raise bad_request("data_source.source must be an object", SOURCE)
    kind = source.get("type")
    if kind == "file_content":
        content = source.get("content")
        if not isinstance(content, list) or not content:
            raise bad_request("file_content needs a non-empty content array", [*SOURCE, "content"])
        for index, row in enumerate(content):
            problem = files.row_problem(row)
            if problem is not None:
                raise bad_request(problem, [*SOURCE, "content", index])
        return content, None
    if kind == "file_id":
        file_id = source.get("id")
        if not isinstance(file_id, str):
            raise bad_request("file_id sources need an id", [*SOURCE, "id"])
        try:
            file = files.get_or_404(session, tenant, file_id, with_content=True)
        except ProblemError as exc:
            raise bad_request(f"no file {file_id!r}", [*SOURCE, "id"], "file_not_found") from exc
        lines = files.parse_lines(file.content, [*SOURCE, "id"])
        return [row for _, row in lines], [number for number, _ in lines]
    if kind in ("stored_completions", "responses"):
        raise bad_request(
            f"source type {kind!r} reads logs stored at OpenAI; use file_content or file_id",
            [*SOURCE, "type"],
            "unsupported_data_source",
        )
    raise bad_request("source.type must be file_content or file_id", [*SOURCE, "type"])


def check_items(
    schema: dict[str, Any], rows: list[dict[str, Any]], lines: list[int] | None
) -> None:
    """Refuse (400) the first row whose item does not match the eval's item_schema."""
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
    for index, row in enumerate(rows):
        try:
            error = _schema.first_error(checker, row["item"])
        except _schema.SchemaRefused as exc:
            if lines is not None:
                name, path = f"file line {lines[index]}", [*SOURCE, "id"]
            else:
                name, path = f"content[{index}].item", [*SOURCE, "content", index, "item"]
            raise bad_request(f"{name}: {exc.message}", path, "invalid_item_schema") from exc
        if error is None:
            continue
        where = "/".join(str(step) for step in error.absolute_path) or "(the item)"
        if lines is not None:
            raise bad_request(
                f"file line {lines[index]}: item does not match item_schema at {where}: "
                f"{error.message}",
                [*SOURCE, "id"],
                "item_schema_mismatch",
            )
        raise bad_request(
            f"content[{index}].item does not match item_schema at {where}: {error.message}",
            [*SOURCE, "content", index, "item", *error.absolute_path],
            "item_schema_mismatch",
        )


def input_messages(data_source: dict[str, Any]) -> dict[str, Any]:
    spec = data_source.get("input_messages")
    if not isinstance(spec, dict) or spec.get("type") not in ("template", "item_reference"):
        raise bad_request(
            "a completions run needs input_messages: {type: 'template', template: [...]} or "
            "{type: 'item_reference', item_reference: 'item.path'}",
            ["data_source", "input_messages"],
        )
    if spec["type"] == "template" and not isinstance(spec.get("template"), list):
        raise bad_request(
            "template must be an array", ["data_source", "input_messages", "template"]
        )
    if spec["type"] == "item_reference" and not isinstance(spec.get("item_reference"), str):
        raise bad_request(
            "item_reference must be a path such as item.messages",
            ["data_source", "input_messages", "item_reference"],
        )
    if spec["type"] == "template":
        _check_template(spec["template"])
    return spec


# What a template's content parts may be; each stands for a chat-completion part Loupe sends.
_PART_TYPES = ("input_text", "output_text", "input_image", "input_audio")


def _check_template(template: list[Any]) -> None:
    """Refuse, before any row is stored, the parts every row would fail on: `input_file`,
    `input_image` by `file_id` (OpenAI-hosted files) and unknown part types."""
    base: list[str | int] = ["data_source", "input_messages", "template"]
    strings: list[str] = []
    for position, message in enumerate(template):
        if not isinstance(message, dict):
            raise bad_request("each template message must be an object", [*base, position])
        content = message.get("content")
        if isinstance(content, dict):
            parts: list[tuple[list[str | int], Any]] = [([], content)]
        elif isinstance(content, list):
            parts = [([index], part) for index, part in enumerate(content)]
        else:
            # A string is rendered (or refused) per row; its size is bounded now.
            _check_bounds(content, [*base, position, "content"])
            if isinstance(content, str):
                strings.append(content)
            continue
        for where, part in parts:
            path = [*base, position, "content", *where]
            if not isinstance(part, dict):
                continue
            for field in ("text", "image_url"):
                _check_bounds(part.get(field), [*path, field])
                if isinstance(part.get(field), str):
                    strings.append(part[field])
            kind = part.get("type")
            if kind == "input_file":
                raise bad_request(
                    "input_file parts are not supported: Loupe has no OpenAI-hosted files to "
                    "send; put the text in an input_text part",
                    path,
                    "unsupported_content",
                )
            if kind == "input_image" and not isinstance(part.get("image_url"), str):
                raise bad_request(
                    "input_image needs an image_url (an https or data URL, or a template such "
                    "as {{ item.image_url }}); file_id images are not supported",
                    path,
                    "unsupported_content",
                )
            if kind not in _PART_TYPES:
                raise bad_request(
                    f"content parts of type {kind!r} are not supported; use one of "
                    f"{', '.join(_PART_TYPES)}",
                    path,
                    "unsupported_content",
                )
    try:
        check_templates(strings, "a template")
    except ValueError as error:
        raise bad_request(str(error), base) from None


def _check_bounds(template: Any, path: list[str | int]) -> None:
    """Refuse a template string past the size and placeholder bounds every row would pay."""
    if isinstance(template, str):
        try:
            check_template(template)
        except ValueError as error:
            raise bad_request(str(error), path) from None


_PARAMS = {
    "max_completion_tokens": "max_tokens",
    "max_completions_tokens": "max_tokens",
    "reasoning_effort": "reasoning_effort",
    "response_format": "response_format",
}
# OpenAI's defaults for a run's sampling (API reference), used when the run leaves them out.
SAMPLING_DEFAULTS = {"temperature": 1, "top_p": 1, "seed": 42}


def _sampling(data_source: dict[str, Any]) -> dict[str, Any]:
    sampling = data_source.get("sampling_params") or {}
    if not isinstance(sampling, dict):
        raise bad_request("sampling_params must be an object", ["data_source", "sampling_params"])
    return sampling


def sampling_used(data_source: dict[str, Any]) -> dict[str, Any]:
    """The sampling values a completions run's candidate calls use (defaults filled in), as
    an output item's `sample` shows them."""
    sampling = _sampling(data_source)
    used = {
        name: default if sampling.get(name) is None else sampling[name]
        for name, default in SAMPLING_DEFAULTS.items()
    }
    tokens = sampling.get("max_completion_tokens")
    used["max_completion_tokens"] = (
        sampling.get("max_completions_tokens") if tokens is None else tokens
    )
    return used


def generation_params(data_source: dict[str, Any]) -> dict[str, Any]:
    """The candidate call's body fields from `sampling_params` (both token spellings), with
    OpenAI's defaults for temperature, top_p and seed rather than the endpoint's."""
    sampling = _sampling(data_source)
    if sampling.get("tools"):
        raise bad_request(
            "tools in sampling_params are not supported yet",
            ["data_source", "sampling_params", "tools"],
            "unsupported_parameter",
        )
    used = sampling_used(data_source)
    params = {name: used[name] for name in SAMPLING_DEFAULTS}
    for key, value in sampling.items():
        if key in _PARAMS and value is not None:
            params[_PARAMS[key]] = value
    return params


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
# Where the template part that became it holds that URL or clip.
_TEMPLATE_FIELDS: dict[str, Path] = {
    "image_url": ["image_url"],
    "input_audio": ["input_audio", "data"],
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
        if isinstance(message["content"], str):
            continue
        written = _content_parts(template[position].get("content"))
        for index, part in enumerate(message["content"]):
            fields = _TEMPLATE_FIELDS.get(part["type"])
            if fields is None:
                continue
            where, source = written[index]
            steps: Path = [position, "content", *where, *fields]
            if spec["type"] == "template":
                literal = Origin(["data_source", "input_messages", "template", *steps])
            else:
                literal = row.field([*path_steps(spec["item_reference"]), *steps])
            url = source.get("image_url") if part["type"] == "image_url" else None
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
            else:
                template = resolve(spec["item_reference"], {"item": item})
                if not isinstance(template, list):
                    raise RenderError(f"{spec['item_reference']} is not an array of messages")
            message_urls = image_url_templates(template)
            rendered = {render_template(url, {"item": item}): None for url in message_urls}
            messages = render_messages(
                template, {"item": item}, {url: _identity(url) for url in rendered}
            )
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
) -> list[dict[str, Any]]:
    """The run's test cases, one per row, their images ingested; a bad image is a 400 naming
    the field it came from.

    Args:
        lines: each row's line in its file (None: the rows came inline).
        spec: a completions run's checked `input_messages` (None for jsonl).
    """
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
        row = Row(index, lines[index] if lines is not None else None)
        case, image_origins, message_origins = _case(row, data, image_templates, spec)
        cases.append(case)
        for part, origin in zip(case["input"] or [], image_origins, strict=True):
            add(part, origin)
        for (position, part_index), origin in message_origins.items():
            add(case["messages"][position]["content"][part_index], origin)
    try:
        ingest_contents(contents, DatabaseBlobStore(session, tenant.id), settings)
    except ProblemError as problem:
        raise located(problem, origins) from None
    return cases


def echo(data_source: dict[str, Any]) -> dict[str, Any]:
    """The data source as OpenAI echoes it: template messages typed (string content as an
    `input_text` part), the max-tokens field spelt as the SDK's run types spell it."""
    echoed = dict(data_source)
    spec = data_source.get("input_messages")
    if isinstance(spec, dict) and spec.get("type") == "template":
        echoed["input_messages"] = {
            **spec,
            "template": [criteria.echo_message(message) for message in spec["template"]],
        }
    if "sampling_params" in data_source:
        echoed["sampling_params"] = criteria.echo_tokens(
            data_source["sampling_params"], "max_completion_tokens"
        )
    return echoed
