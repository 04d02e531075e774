"""deploy/kubernetes/ renders, in every overlay, into objects the Kubernetes API would accept
(checked offline against its OpenAPI schemas with kubernetes-validate), and they run Loupe as
it runs: its real commands, health paths, queue metric, settings and image user, with every
secret taken from the cluster's Secret."""

import copy
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from typer.testing import CliRunner

from app.cli import cli
from app.config import Settings
from app.health import router as health_router
from app.telemetry.exposition import QueueCollector

ROOT = Path(__file__).resolve().parent.parent
KUBERNETES = ROOT / "deploy" / "kubernetes"
OVERLAYS = ("small", "production")
# The oldest release still supported by the major providers, and the newest the validator knows.
SCHEMA_VERSIONS = ("1.30.0", kubernetes_validate.latest_version())
SECRET = "loupe"
# Settings that carry a password, a key or a token: only ever from the Secret.
SECRET_SETTINGS = {
    "LOUPE_DATABASE_URL",
    "LOUPE_REDIS_URL",
    "LOUPE_SECRET_KEY",
    "LOUPE_JUDGE_API_KEY",
    "LOUPE_METRICS_TOKEN",
    "LOUPE_OIDC_CLIENT_SECRET",
    "LOUPE_OTLP_EXPORT_HEADERS",
}
# Lists a strategic-merge patch merges item by item (by `name`) instead of replacing.
MERGED_BY_NAME = {"containers", "initContainers", "env", "ports", "volumes", "volumeMounts"}
Object = dict[str, Any]


# --- rendering -------------------------------------------------------------------------------


def merge(target: Object, patch: Object) -> None:
    """A strategic-merge patch, for what the overlays use: maps merge, lists named above merge
    by `name`, every other value (commands included) is replaced."""
    for key, value in patch.items():
        assert not key.startswith("$"), f"the Python renderer has no {key} directive"
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        elif key in MERGED_BY_NAME and isinstance(target.get(key), list):
            for item in value:
                same = [old for old in target[key] if old.get("name") == item["name"]]
                if same:
                    merge(same[0], item)
                else:
                    target[key].append(copy.deepcopy(item))
        else:
            target[key] = copy.deepcopy(value)


def documents(path: Path) -> list[Object]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def render_python(directory: Path) -> list[Object]:
    """What `kubectl kustomize directory` prints, for the kustomization fields used here."""
    kustomization = documents(directory / "kustomization.yaml")[0]
    known = {"apiVersion", "kind", "resources", "patches", "images", "namespace"}
    assert set(kustomization) <= known, f"the Python renderer knows only {sorted(known)}"
    objects: list[Object] = []
    for entry in kustomization.get("resources", []):
        path = directory / entry
        objects += render_python(path) if path.is_dir() else documents(path)
    for patch in kustomization.get("patches", []):
        assert set(patch) == {"path"}, f"only strategic-merge patch files: {patch}"
        for doc in documents(directory / patch["path"]):
            key = (doc["kind"], doc["metadata"]["name"])
            targets = [obj for obj in objects if (obj["kind"], obj["metadata"]["name"]) == key]
            assert len(targets) == 1, f"{patch['path']} patches {key}, found {len(targets)}"
            merge(targets[0], doc)
    for image in kustomization.get("images", []):
        for container in containers_of(objects):
            name, _, tag = container["image"].partition(":")
            if name == image["name"]:
                tag = image.get("newTag", tag)
                container["image"] = image.get("newName", name) + (f":{tag}" if tag else "")
    if "namespace" in kustomization:
        for obj in objects:
            obj["metadata"]["namespace"] = kustomization["namespace"]
    return objects


def render_kubectl(directory: Path) -> list[Object]:
    output = subprocess.run(
        ["kubectl", "kustomize", str(directory)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    return [doc for doc in yaml.safe_load_all(output) if doc]


def by_key(objects: list[Object]) -> dict[tuple[str, str], Object]:
    keyed = {(obj["kind"], obj["metadata"]["name"]): obj for obj in objects}
    assert len(keyed) == len(objects), "two objects of one kind share a name"
    return keyed


@cache
def rendered(overlay: str) -> dict[tuple[str, str], Object]:
    """The overlay as the cluster gets it: `kubectl kustomize` where kubectl is installed,
    else the Python renderer (test_python_renderer_agrees_with_kubectl keeps them equal)."""
    directory = KUBERNETES / "overlays" / overlay
    if shutil.which("kubectl"):
        return by_key(render_kubectl(directory))
    return by_key(render_python(directory))


def containers_of(objects: list[Object]) -> list[Object]:
    return [container for obj in objects for container in pod_spec(obj).get("containers", [])]


def pod_spec(obj: Object) -> Object:
    if obj["kind"] in ("Deployment", "Job"):
        return obj["spec"]["template"]["spec"]
    return {}


def container(overlay: str, kind: str, name: str) -> Object:
    (only,) = pod_spec(rendered(overlay)[(kind, name)])["containers"]
    return only


def config(overlay: str) -> dict[str, str]:
    return rendered(overlay)[("ConfigMap", "loupe-config")]["data"]


def runs_loupe(args: list[str]) -> None:
    """`args` is a real `loupe` command with real flags (parsed, not run)."""
    assert args[0] == "loupe", args
    result = CliRunner().invoke(cli, [*args[1:], "--help"])
    assert result.exit_code == 0, f"{args} is not a loupe command: {result.output}"


def selects(selector: dict[str, str], obj: Object) -> bool:
    labels = obj["spec"]["template"]["metadata"]["labels"]
    return all(labels.get(key) == value for key, value in selector.items())


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_python_renderer_agrees_with_kubectl(overlay: str) -> None:
    ours = by_key(render_python(KUBERNETES / "overlays" / overlay))
    # A patch merges into the base's container: probes and env survive a resources patch.
    api = pod_spec(ours[("Deployment", "loupe-api")])["containers"][0]
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz" and api["env"], api
    assert all(obj["metadata"]["namespace"] == "loupe" for obj in ours.values())
    if shutil.which("kubectl"):
        assert ours == by_key(render_kubectl(KUBERNETES / "overlays" / overlay))


@pytest.mark.parametrize("overlay", OVERLAYS)
@pytest.mark.parametrize("version", SCHEMA_VERSIONS)
def test_every_object_is_valid_kubernetes(overlay: str, version: str) -> None:
    objects = rendered(overlay)
    assert set(objects) == {
        ("ServiceAccount", "loupe"),
        ("ConfigMap", "loupe-config"),
        ("Job", "loupe-migrate"),
        ("Deployment", "loupe-api"),
        ("Service", "loupe-api"),
        ("Deployment", "loupe-worker"),
        ("HorizontalPodAutoscaler", "loupe-worker"),
        ("PodDisruptionBudget", "loupe-api"),
        ("PodDisruptionBudget", "loupe-worker"),
        ("NetworkPolicy", "loupe-api"),
        ("NetworkPolicy", "loupe-worker"),
        ("NetworkPolicy", "loupe-migrate"),
    }
    for obj in objects.values():
        # strict: a misspelt or misplaced field is an error, not ignored.
        kubernetes_validate.validate(obj, version, strict=True)


def test_the_validator_refuses_a_wrong_field() -> None:
    deployment = copy.deepcopy(rendered("small")[("Deployment", "loupe-api")])
    deployment["spec"]["template"]["spec"]["containers"][0]["livenessprobe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, SCHEMA_VERSIONS[-1], strict=True)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_commands_are_loupes(overlay: str) -> None:
    api = container(overlay, "Deployment", "loupe-api")["command"]
    assert api[:3] == ["loupe", "serve", "--no-migrate"], "the Job migrates, not each API pod"
    assert container(overlay, "Deployment", "loupe-worker")["command"] == ["loupe", "worker"]
    assert container(overlay, "Job", "loupe-migrate")["command"] == ["loupe", "migrate"]
    job = rendered(overlay)[("Job", "loupe-migrate")]
    assert pod_spec(job)["restartPolicy"] == "Never"
    for _, obj in sorted(rendered(overlay).items()):
        for each in pod_spec(obj).get("containers", []):
            runs_loupe(each["command"])


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_probes_ask_loupes_health(overlay: str) -> None:
    paths = {route.path for route in health_router.routes}  # type: ignore[attr-defined]
    api = container(overlay, "Deployment", "loupe-api")
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz" in paths
    assert api["livenessProbe"]["httpGet"]["path"] == "/healthz" in paths
    assert api["startupProbe"]["httpGet"]["path"] in paths
    ports = {port["name"]: port["containerPort"] for port in api["ports"]}
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert ports[api[probe]["httpGet"]["port"]] == int(config(overlay)["LOUPE_PORT"])
    worker = container(overlay, "Deployment", "loupe-worker")
    for probe in ("startupProbe", "livenessProbe"):
        assert worker[probe]["exec"]["command"] == ["loupe", "worker-health"]
        runs_loupe(worker[probe]["exec"]["command"])
    metrics = {port["name"]: port["containerPort"] for port in worker["ports"]}
    assert metrics[worker["readinessProbe"]["tcpSocket"]["port"]] == int(
        config(overlay)["LOUPE_METRICS_PORT"]
    )


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_workers_scale_on_loupes_queue_metric(overlay: str) -> None:
    hpa = rendered(overlay)[("HorizontalPodAutoscaler", "loupe-worker")]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "loupe-worker",
    }
    (metric,) = hpa["spec"]["metrics"]
    assert metric["type"] == "External"
    # What Loupe's /metrics really exposes for the queue the workers consume.
    queue = config(overlay)["LOUPE_QUEUE_NAME"]
    families = list(QueueCollector(queue, lambda: (3, 1.5)).collect())
    exposed = {
        family.name: {tuple(sorted(sample.labels.items())) for sample in family.samples}
        for family in families
    }
    wanted = metric["external"]["metric"]
    assert wanted["name"] == "loupe_queue_jobs" in exposed
    assert tuple(sorted(wanted["selector"]["matchLabels"].items())) in exposed[wanted["name"]]
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    # An applied count would undo the autoscaler's at every `kubectl apply`.
    assert "replicas" not in rendered(overlay)[("Deployment", "loupe-worker")]["spec"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_no_container_runs_as_root(overlay: str) -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    image_uid = int(re.search(r"useradd [^\n]*--uid (\d+)", dockerfile).group(1))  # type: ignore[union-attr]
    pods = [obj for obj in rendered(overlay).values() if pod_spec(obj)]
    assert len(pods) == 3
    for obj in pods:
        spec = pod_spec(obj)
        assert spec["securityContext"]["runAsNonRoot"] is True
        assert spec["securityContext"]["runAsUser"] == image_uid != 0
        assert spec["automountServiceAccountToken"] is False
        for each in spec["containers"]:
            context = each["securityContext"]
            assert context.get("runAsUser", image_uid) != 0
            assert context["allowPrivilegeEscalation"] is False
            assert context["capabilities"]["drop"] == ["ALL"]
            assert context["readOnlyRootFilesystem"] is True
            # Writable /tmp for `--workers N`'s metrics directory and Python's temporary files.
            assert "/tmp" in {mount["mountPath"] for mount in each["volumeMounts"]}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_secrets_come_from_the_clusters_secret(overlay: str) -> None:
    objects = rendered(overlay)
    assert not [key for key in objects if key[0] == "Secret"], "no Secret in the repository"
    data = config(overlay)
    assert not SECRET_SETTINGS & set(data), "a secret setting in the ConfigMap"
    # Every ConfigMap key is a real setting (an unknown LOUPE_ variable is silently ignored).
    fields = {f"LOUPE_{name.upper()}" for name in Settings.model_fields}
    assert set(data) <= fields, set(data) - fields
    for _, obj in sorted(objects.items()):
        for each in pod_spec(obj).get("containers", []):
            env = {var["name"]: var for var in each.get("env", [])}
            assert set(env) <= fields
            for name in ("LOUPE_DATABASE_URL", "LOUPE_REDIS_URL", "LOUPE_SECRET_KEY"):
                assert env[name]["valueFrom"]["secretKeyRef"]["name"] == SECRET, (obj, name)
            for name, var in env.items():
                assert name not in SECRET_SETTINGS or "value" not in var, f"literal {name}"
                if "secretKeyRef" in var.get("valueFrom", {}):
                    assert var["valueFrom"]["secretKeyRef"]["name"] == SECRET
            assert each["envFrom"] == [{"configMapRef": {"name": "loupe-config"}}]
    # No URL with a password, no key-like string anywhere in what is applied.
    text = yaml.safe_dump(list(objects.values()))
    assert not re.search(r"://[^/\s:@]+:[^/\s@]+@", text)
    assert not re.search(r"\b(sk-|ghp_|AKIA)[A-Za-z0-9]{8,}", text)
    # With the Secret's values, the pods' settings are Loupe's distributed mode.
    secret_values = {
        "LOUPE_DATABASE_URL": "postgresql+psycopg://loupe:pw@postgres:5432/loupe",
        "LOUPE_REDIS_URL": "redis://redis:6379/0",
        "LOUPE_SECRET_KEY": "test-secret-of-at-least-32-bytes-long",
    }
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        **{
            key.removeprefix("LOUPE_").lower(): value
            for key, value in {**data, **secret_values}.items()
        },
    )
    assert not settings.embedded and settings.host == "0.0.0.0"


def test_the_docs_name_every_secret_key() -> None:
    page = (ROOT / "docs" / "kubernetes.md").read_text(encoding="utf-8")
    keys = {
        var["valueFrom"]["secretKeyRef"]["key"]
        for overlay in OVERLAYS
        for _, obj in sorted(rendered(overlay).items())
        for each in pod_spec(obj).get("containers", [])
        for var in each.get("env", [])
        if "secretKeyRef" in var.get("valueFrom", {})
    }
    assert keys >= {"database-url", "redis-url", "secret-key"}
    assert not {key for key in keys if f"`{key}`" not in page}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_services_budgets_and_policies_select_loupes_pods(overlay: str) -> None:
    objects = rendered(overlay)
    api = objects[("Deployment", "loupe-api")]
    worker = objects[("Deployment", "loupe-worker")]
    job = objects[("Job", "loupe-migrate")]
    service = objects[("Service", "loupe-api")]
    assert selects(service["spec"]["selector"], api) and not selects(
        service["spec"]["selector"], worker
    )
    (port,) = service["spec"]["ports"]
    assert port["targetPort"] in {
        p["name"] for p in container(overlay, "Deployment", "loupe-api")["ports"]
    }
    for name, workload in (("loupe-api", api), ("loupe-worker", worker)):
        budget = objects[("PodDisruptionBudget", name)]["spec"]
        assert selects(budget["selector"]["matchLabels"], workload)
        assert budget["maxUnavailable"] == 1
    for name, workload in (("loupe-api", api), ("loupe-worker", worker), ("loupe-migrate", job)):
        policy = objects[("NetworkPolicy", name)]["spec"]
        assert selects(policy["podSelector"]["matchLabels"], workload)
        assert policy["policyTypes"] == ["Ingress", "Egress"]
        egress = {(p["protocol"], p["port"]) for rule in policy["egress"] for p in rule["ports"]}
        assert {("UDP", 53), ("TCP", 53), ("TCP", 5432), ("TCP", 6379)} <= egress
        if name != "loupe-migrate":
            assert ("TCP", 443) in egress, "the judge is reached over HTTPS"
    api_ingress = {
        p["port"]
        for rule in objects[("NetworkPolicy", "loupe-api")]["spec"]["ingress"]
        for p in rule["ports"]
    }
    assert api_ingress == {int(config(overlay)["LOUPE_PORT"])}
    assert "ingress" not in objects[("NetworkPolicy", "loupe-migrate")]["spec"]


def test_overlays_size_differently() -> None:
    def replicas(overlay: str) -> tuple[int, int, int]:
        objects = rendered(overlay)
        hpa = objects[("HorizontalPodAutoscaler", "loupe-worker")]["spec"]
        api = objects[("Deployment", "loupe-api")]["spec"]["replicas"]
        return api, hpa["minReplicas"], hpa["maxReplicas"]

    assert replicas("small") == (1, 1, 3)
    assert replicas("production") == (3, 3, 30)
    assert container("small", "Deployment", "loupe-api")["command"][-1] == "1"


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_container_has_requests_within_limits(overlay: str) -> None:
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}

    def quantity(value: str) -> float:
        number, unit = re.fullmatch(r"([\d.]+)(m|Ki|Mi|Gi)?", str(value)).groups()  # type: ignore[union-attr]
        return float(number) * units.get(unit or "", 1)

    for _, obj in sorted(rendered(overlay).items()):
        for each in pod_spec(obj).get("containers", []):
            resources = each["resources"]
            for resource in ("cpu", "memory"):
                request = quantity(resources["requests"][resource])
                assert 0 < request <= quantity(resources["limits"][resource]), (obj, resource)


def test_the_documented_migration_step_applies_the_job_and_what_it_needs() -> None:
    # docs/kubernetes.md step 2: `kubectl apply -k $OVERLAY -l '<key> in (<values>)'`.
    page = (ROOT / "docs" / "kubernetes.md").read_text(encoding="utf-8")
    (selector,) = re.findall(r"kubectl apply -k \$OVERLAY -l '([^']+)'", page)
    key, values = re.fullmatch(r"([\w./-]+) in \(([\w,-]+)\)", selector).groups()  # type: ignore[union-attr]
    chosen = {
        name
        for name, obj in rendered("production").items()
        if obj["metadata"].get("labels", {}).get(key) in values.split(",")
    }
    assert chosen == {
        ("ServiceAccount", "loupe"),
        ("ConfigMap", "loupe-config"),
        ("Job", "loupe-migrate"),
        ("NetworkPolicy", "loupe-migrate"),
    }
    job = pod_spec(rendered("production")[("Job", "loupe-migrate")])
    assert job["serviceAccountName"] == "loupe"
