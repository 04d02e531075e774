"""Tenant scope by construction: no repository reads tenant-owned rows without its tenant.

Every public function and method in a repository module (`app/*/repository.py`,
`app/*/repository/*.py`, `app/repository.py`) that reads a tenant-owned table must name the
tenant (`self.tenant_id`, a `tenant_id` argument), start from the scoped base
(`get_base_statement`) or check a parent row is the tenant's (`self.owned`), directly or
through another such method of its class. Reads by bare id live in `app/unscoped/`, every
class there named `Unscoped...`. Every other module of `app/` (jobs, kinds, services, pages)
reads tenant-owned rows through those: no `session.get` of a tenant-owned model (a read by bare
id) and no `select` of one in a function that does not name its tenant.
"""

import ast
import importlib
from pathlib import Path

import pytest

from app.repository import NotTenantsRow, TenantScopedRepository

APP = Path(__file__).resolve().parents[2] / "app"

# Tables (and their ORM classes) whose rows belong to one tenant, directly or via a parent.
TENANT_OWNED = {
    "ApiKey": "api_key",
    "BlobOwner": "blob_owner",
    "BlobRef": "blob_ref",
    "CandidateModel": "candidate_model",
    "Comparison": "comparison",
    "Dataset": "dataset",
    "DatasetRow": "dataset_row",
    "EvalDefinition": "eval_definition",
    "EvalFile": "eval_file",
    "EvalRun": "eval_run",
    "Evaluation": "evaluation",
    "IdempotencyKey": "idempotency_key",
    "JudgeCacheEntry": "judge_cache_entry",
    "JudgeClaim": "judge_claim",
    "Label": "label",
    "MetricSummary": "metric_summary",
    "OnlineRule": "online_rule",
    "OnlineRuleCount": "online_rule_count",
    "OnlineRuleDay": "online_rule_day",
    "Result": "result",
    "ReviewAssignment": "review_assignment",
    "ReviewItem": "review_item",
    "ReviewQueue": "review_queue",
    "Run": "run",
    "RunScore": "run_score",
    "TestCase": "test_case",
    "WebhookDelivery": "webhook_delivery",
    "WebhookEndpoint": "webhook_endpoint",
    "WebhookEvent": "webhook_event",
}

# The one list of repository functions allowed to read without the tenant, and why.
ALLOWED: dict[str, str] = {
    "app/evaluations/repository/__init__.py:completed_with_errored_results": (
        "an SQL condition correlated to the evaluation row it is added to; used only inside "
        "scoped base statements (EvaluationRepository.page, RunRepository.page)"
    ),
}

READS = {"select", "get", "plain_rows", "scalar", "scalars", "execute", "exists"}
# What names the tenant: the repository's own (`self.tenant_id`, its base statement, a parent
# it checked) or a `tenant_id` the function is given; `X.tenant_id` alone is a join, not a filter.
GUARDS = {
    "self.tenant_id",
    "self.owned",
    "self.get_base_statement",
    "self.get_by_id",
    "param:tenant_id",
}


def _repository_modules() -> list[Path]:
    found = [APP / "repository.py"]
    found += sorted(APP.glob("*/repository.py")) + sorted(APP.glob("*/repository/*.py"))
    return [path for path in found if path.exists()]


def _names(node: ast.AST) -> set[str]:
    """Every name, attribute and (for SQL text) word the body of `node` mentions."""
    names: set[str] = set()
    body = node.body if isinstance(node, ast.FunctionDef) else [node]
    if isinstance(node, ast.FunctionDef):
        names.update(f"param:{argument.arg}" for argument in node.args.args)
    for statement in body:
        for child in ast.walk(statement):
            if isinstance(child, ast.Name):
                names.add(child.id)
            elif isinstance(child, ast.Attribute):
                names.add(child.attr)
                if isinstance(child.value, ast.Name) and child.value.id == "self":
                    names.add(f"self.{child.attr}")
            elif isinstance(child, ast.Constant) and isinstance(child.value, str):
                names.update(child.value.replace('"', " ").replace(",", " ").split())
    return names


def _reads_tenant_rows(names: set[str]) -> bool:
    tables = set(TENANT_OWNED.values())
    touches = bool(names & set(TENANT_OWNED)) or bool(names & tables and "SELECT" in names)
    return touches and bool(names & READS)


def _guarded(
    function: ast.FunctionDef, methods: dict[str, ast.FunctionDef], seen: dict[int, bool]
) -> bool:
    """Whether `function` names the tenant, or calls a method of its class that does."""
    if id(function) in seen:
        return seen[id(function)]
    seen[id(function)] = False  # a method calling itself back proves nothing
    names = _names(function)
    verdict = bool(names & GUARDS) or any(
        _guarded(methods[name], methods, seen)
        for name in {name.removeprefix("self.") for name in names} & set(methods)
        if methods[name] is not function
    )
    seen[id(function)] = verdict
    return verdict


def unscoped_reads() -> list[str]:
    """`module:function` of every public repository function reading tenant rows unscoped."""
    offenders = []
    for path in _repository_modules():
        tree = ast.parse(path.read_text())
        module = path.relative_to(APP.parent).as_posix()
        units: list[tuple[str, ast.FunctionDef, dict[str, ast.FunctionDef]]] = []
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                units.append((node.name, node, {}))
            elif isinstance(node, ast.ClassDef):
                assert not node.name.startswith("Unscoped"), (
                    f"{module}: {node.name} belongs in app/unscoped/"
                )
                methods = {m.name: m for m in node.body if isinstance(m, ast.FunctionDef)}
                units += [(f"{node.name}.{name}", m, methods) for name, m in methods.items()]
        guarded: dict[int, bool] = {}
        for name, function, methods in units:
            public = not function.name.startswith("_")
            if not public or f"{module}:{name}" in ALLOWED:
                continue
            if _reads_tenant_rows(_names(function)) and not _guarded(function, methods, guarded):
                offenders.append(f"{module}:{name}")
    return offenders


def _root(node: ast.AST) -> str | None:
    """The name an expression starts from: `Result` for `Result.metric`, `func.count()`..."""
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _tenant_reads(function: ast.FunctionDef) -> list[tuple[int, str, bool]]:
    """(line, what, by bare id) of each read of a tenant-owned table in `function`."""
    found = []
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", None)
        if name == "select" and any(_root(argument) in TENANT_OWNED for argument in node.args):
            found.append((node.lineno, "select", False))
        elif (
            name in {"get", "query"}
            and isinstance(called, ast.Attribute)
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in TENANT_OWNED
        ):
            found.append((node.lineno, f"{name}({node.args[0].id})", True))
    return found


def reads_outside_repositories() -> list[str]:
    """`module:line function what` of every read of tenant-owned rows in a module of `app/` that is
    neither a repository nor `app/unscoped/`: by bare id (`session.get`), or a `select` in a
    function that names no tenant."""
    skipped = set(_repository_modules())
    offenders = []
    for path in sorted(APP.rglob("*.py")):
        if path in skipped or (APP / "unscoped") in path.parents:
            continue
        tree = ast.parse(path.read_text())
        module = path.relative_to(APP.parent).as_posix()
        units: list[tuple[str, ast.FunctionDef, dict[str, ast.FunctionDef]]] = []
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                units.append((node.name, node, {}))  # type: ignore[arg-type]
            elif isinstance(node, ast.ClassDef):
                methods = {
                    m.name: m
                    for m in node.body
                    if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)
                }
                units += [(f"{node.name}.{name}", m, methods) for name, m in methods.items()]  # type: ignore[misc]
        guarded: dict[int, bool] = {}
        for name, function, methods in units:
            for line, what, bare in _tenant_reads(function):
                if bare or not _guarded(function, methods, guarded):
                    offenders.append(f"{module}:{line} {name} {what}")
    return offenders


class TestRepositoryScope:
    def test_every_repository_read_names_its_tenant(self) -> None:
        assert unscoped_reads() == []

    def test_no_module_outside_repositories_reads_tenant_rows_by_bare_id(self) -> None:
        # Jobs, kinds and services read through a tenant's repository or app/unscoped/.
        assert reads_outside_repositories() == []

    def test_the_wide_check_finds_a_job_reading_by_bare_id(self) -> None:
        job = ast.parse(
            "def api_path(self, session, evaluation):\n"
            "    run = session.get(EvalRun, evaluation.id)\n"
            "    locked = session.scalars(select(Evaluation).where(Evaluation.id == run.id))\n"
            "    return run.eval_id\n"
        ).body[0]
        scoped = ast.parse(
            "def run_labels(session, tenant_id, run_ids):\n"
            "    return session.execute(select(EvalRun.id).where(EvalRun.tenant_id == tenant_id))\n"
        ).body[0]
        assert isinstance(job, ast.FunctionDef) and isinstance(scoped, ast.FunctionDef)
        reads = _tenant_reads(job)
        assert [(what, bare) for _, what, bare in reads] == [
            ("get(EvalRun)", True),
            ("select", False),
        ]
        assert not _guarded(job, {}, {})
        assert _tenant_reads(scoped) == [(2, "select", False)] and _guarded(scoped, {}, {})

    def test_the_check_finds_a_read_by_bare_id(self) -> None:
        # The check itself, on a function like the free ones it replaced, and its scoped twin.
        bare = ast.parse(
            "def result_page(session, evaluation_id):\n"
            "    statement = select(Result).where(Result.evaluation_id == evaluation_id)\n"
            "    return session.scalars(statement)\n"
        ).body[0]
        scoped = ast.parse(
            "def result_page(self, evaluation):\n"
            "    parent = self.owned(evaluation)\n"
            "    statement = select(Result).where(Result.evaluation_id == parent.id)\n"
            "    return self.session.scalars(statement)\n"
        ).body[0]
        assert isinstance(bare, ast.FunctionDef) and isinstance(scoped, ast.FunctionDef)
        assert _reads_tenant_rows(_names(bare)) and not _guarded(bare, {}, {})
        assert _reads_tenant_rows(_names(scoped)) and _guarded(scoped, {}, {})

    def test_every_repository_class_starts_from_the_scoped_base(self) -> None:
        for path in _repository_modules():
            if path == APP / "repository.py":
                continue
            name = ".".join(path.relative_to(APP.parent).with_suffix("").parts)
            module = importlib.import_module(name.removesuffix(".__init__"))
            classes = [
                value
                for value in vars(module).values()
                if isinstance(value, type) and value.__module__ == module.__name__
            ]
            for found in classes:
                if found.__name__.endswith(("Repository", "Reads")):
                    assert issubclass(found, TenantScopedRepository), f"{name}.{found.__name__}"

    def test_unscoped_classes_say_so(self) -> None:
        for path in sorted((APP / "unscoped").glob("*.py")):
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.ClassDef):
                    assert node.name.startswith("Unscoped"), f"{path.name}: {node.name}"

    def test_a_scoped_repository_refuses_another_tenants_parent(self) -> None:
        class Row:
            id = "eval_1"
            tenant_id = "tenant_b"

        repository: TenantScopedRepository[Row] = TenantScopedRepository(None, "tenant_a")  # type: ignore[arg-type]
        with pytest.raises(NotTenantsRow):
            repository.owned(Row())
        assert TenantScopedRepository(None, "tenant_b").owned(row := Row()) is row  # type: ignore[arg-type]
