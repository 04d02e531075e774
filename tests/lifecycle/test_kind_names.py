"""A new kind is its own folder and one registry line: no module outside a kind's folder names
it (issue 25). What may: the registry (app/kinds.py), the tables (app/models: a kind that keeps
rows of its own adds its model there and a migration), and the run pages of the console, which
show dataset runs' own reports, and its production pages (online_pages.py, and the admins' forms
in online_admin_pages.py), online rules' own, and alignment_pages.py, alignments' own.

The check is a search for the kinds' stored names, their packages and their classes, as a
reviewer would grep: a fourth kind that needed a line anywhere else would show up here as the
first three did before (`evaluation.kind == "evaluation"`, kind literals in schemas, the
console's kind list, the webhook event list).
"""

import re
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def registered() -> dict[str, tuple[str, str]]:
    """Each registered kind other than the core's own (`evaluation`, app/evaluations), by its
    stored name: its folder (the package its strategy class lives in) and that class's name.
    Read from the registry, so a kind registered tomorrow is searched for too."""
    from app.evaluations.kinds import DEFAULT_KIND
    from app.kinds import KINDS

    found = {}
    for name, entry in KINDS.items():
        if name == DEFAULT_KIND:
            continue
        kind_class = type(entry.kind)
        found[name] = (kind_class.__module__.split(".")[1], kind_class.__name__)
    return found


KINDS = registered()
FOLDERS = {name: folder for name, (folder, _) in KINDS.items()}
# Kinds' own console pages (a kind with reports of its own shows them there).
ALLOWED = (
    "kinds.py",
    "models/",
    "console/run_pages.py",
    "console/online_pages.py",
    "console/online_admin_pages.py",
    "console/alignment_pages.py",
)
# Names of a kind's things that the registry does not say: the eval run kind's constant and
# its tables' classes.
ALIASES = ("EVAL_RUN", r"EvalRun\w*")
# Its stored name as a literal, an import of its package, or its classes' names.
NAMING = re.compile(
    rf"""(["'])(?:{"|".join(map(re.escape, KINDS))})\1"""
    rf"""|\bapp\.(?:{"|".join(FOLDERS.values())})\b"""
    rf"""|\b(?:{"|".join([*ALIASES, *(cls for _, cls in KINDS.values())])})\b"""
)
# The one kind-named member of the generic layer: an evaluation's `eval_run` origin (eval id
# and name, run name), an API field since OpenAI eval runs were listed beside evaluations;
# kept for clients, filled through `Naming`, and nothing a fourth kind would touch.
KEPT = {"evaluations/schemas.py": "EvalRunOrigin", "evaluations/kinds.py": "EvalRunOrigin"}


def mentions() -> list[str]:
    found = []
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).as_posix()
        if relative.split("/")[0] in FOLDERS.values() or relative.startswith(ALLOWED):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if NAMING.search(code) and KEPT.get(relative, "\0") not in code:
                found.append(f"app/{relative}:{number}: {line.strip()}")
    return found


def test_no_module_outside_a_kinds_folder_names_it() -> None:
    assert mentions() == []


def test_every_registered_kind_is_searched_for() -> None:
    """The registry's kinds (all but the core's own), each in a folder of its own under app/
    that no other kind shares."""
    assert {"run", "eval_run", "online"} <= set(KINDS)
    assert len(set(FOLDERS.values())) == len(FOLDERS)
    for folder, _ in KINDS.values():
        assert (APP / folder / "__init__.py").is_file(), folder


def test_the_search_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The pattern catches each way of naming a kind (so an empty answer means something)."""
    for line in (
        'if evaluation.kind == "run":',
        "from app.evals.service import KIND",
        "kinds = ('evaluation', EVAL_RUN)",
        "origin: EvalRunOrigin | None",
        "RunKind()",
        'kind="online"',
        "from app.online import ingest",
    ):
        assert NAMING.search(line), line
    assert not NAMING.search('status = "running"')
    assert not NAMING.search('"run\'s criterion id"')
