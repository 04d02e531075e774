"""The documentation site: docs/ builds with `mkdocs build --strict` (a broken link or anchor
fails), offline; the reference pages generated from the code are committed as the code writes
them; and the README stays the short front door with the two commands."""

import importlib.util
import re
import shutil
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from app.cli import cli
from app.config import Settings

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

# Every socket call made while a build runs (the conftest's hook refuses off-loopback ones; this
# one shows the build makes none at all, loopback included).
_sockets: list[str] | None = None


def _record_sockets(event: str, args: tuple[Any, ...]) -> None:
    if _sockets is not None and event.startswith("socket."):
        _sockets.append(event)


sys.addaudithook(_record_sockets)


def build_site(site: Path, **overrides: Any) -> list[str]:
    """Builds the site into `site` with --strict; returns the socket calls it made."""
    global _sockets
    config = load_config(str(ROOT / "mkdocs.yml"), strict=True, site_dir=str(site), **overrides)
    _sockets = []
    try:
        build(config)
        return _sockets
    finally:
        _sockets = None


def generator() -> Any:
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestSite:
    def test_builds_strict_and_offline(self, tmp_path: Path) -> None:
        sockets = build_site(tmp_path / "site")
        assert sockets == []
        for page in ("index", "api", "metrics", "configuration", "reference/settings"):
            assert (tmp_path / "site" / page.replace("index", "") / "index.html").exists()
        # The console page shows the browser tests' screenshots from docs/screenshots.
        console = (tmp_path / "site" / "console" / "index.html").read_text()
        assert 'src="../screenshots/evaluation.png"' in console
        assert (tmp_path / "site" / "screenshots" / "evaluation.png").exists()

    @pytest.mark.parametrize(
        "text",
        ["[gone](no-such-page.md)", "[gone](api.md#no-such-section)"],
        ids=["page", "anchor"],
    )
    def test_a_broken_link_fails_the_build(self, tmp_path: Path, text: str) -> None:
        docs = tmp_path / "docs"
        shutil.copytree(ROOT / "docs", docs)
        index = docs / "index.md"
        index.write_text(index.read_text() + f"\n{text}\n")
        with pytest.raises(Abort):
            build_site(tmp_path / "site", docs_dir=str(docs))


class TestReferencePages:
    @pytest.mark.parametrize("name", ["settings.md", "metrics.md"])
    def test_committed_page_is_what_the_code_generates(self, name: str) -> None:
        page = generator().PAGES[name]()
        committed = (ROOT / "docs" / "reference" / name).read_text(encoding="utf-8")
        assert committed == page, f"docs/reference/{name} is stale: run docs/generate.py"

    def test_every_setting_is_listed_with_a_description(self) -> None:
        page = (ROOT / "docs" / "reference" / "settings.md").read_text(encoding="utf-8")
        for name, field in Settings.model_fields.items():
            assert field.description, f"Settings.{name} has no docstring"
            assert f"| `LOUPE_{name.upper()}` |" in page

    def test_every_metric_type_is_listed(self) -> None:
        from app.metrics import GRADER_TYPES, MetricSpec

        page = (ROOT / "docs" / "reference" / "metrics.md").read_text(encoding="utf-8")
        public = [
            typing.get_args(spec.model_fields["type"].annotation)[0]
            for spec in typing.get_args(typing.get_args(MetricSpec)[0])
        ]
        for kind in [*public, *GRADER_TYPES]:
            assert f"| `{kind}` |" in page, kind


class TestReadme:
    def test_is_short(self) -> None:
        assert len(README.read_bytes()) <= 12 * 1024

    def test_names_the_two_commands(self) -> None:
        text = README.read_text(encoding="utf-8")
        assert "make run" in text and "make test" in text


class TestIndex:
    def test_lists_every_page_a_user_reads(self) -> None:
        # The home page's table is the map a new user starts from: each page under "Using
        # Loupe" and "Running Loupe" in the site's navigation is on it.
        nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
        sections = {name: pages for entry in nav for name, pages in entry.items()}
        pages = [
            page
            for section in ("Using Loupe", "Running Loupe")
            for entry in sections[section]
            for page in entry.values()
        ]
        index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
        assert [page for page in pages if f"]({page})" not in index] == []


class TestSettingNames:
    # Variables the docs name that are not server settings: the clients' (loupe-client, the
    # SDKs), and shell variables of the examples holding a key.
    NOT_SETTINGS = {"LOUPE_URL", "LOUPE_API_KEY", "LOUPE_KEY"}

    def test_every_variable_the_docs_name_is_a_setting(self) -> None:
        texts = [
            README,
            *sorted((ROOT / "docs").glob("*.md")),
            *sorted(ROOT.glob("deploy/**/*.yaml")),
        ]
        texts += [ROOT / "docker-compose.yml", ROOT / "Dockerfile"]
        settings = {f"LOUPE_{name.upper()}" for name in Settings.model_fields}
        unknown = {
            (path.name, name)
            for path in texts
            if path.name != "decisions.md"  # a record of what was, settings since renamed included
            # `LOUPE_MAX_*` names a family; a name ending in `_` is such a prefix.
            for name in re.findall(r"LOUPE_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8"))
            if name not in settings | self.NOT_SETTINGS
        }
        assert unknown == set()


class TestCommands:
    def test_every_loupe_command_the_docs_show_exists_with_its_options(self) -> None:
        root = typer.main.get_command(cli)
        texts = [
            README,
            *sorted((ROOT / "docs").glob("*.md")),
            *sorted(ROOT.glob("deploy/**/*.yaml")),
        ]
        wrong = set()
        for path in texts:
            if path.name in ("decisions.md", "benchmarks.md"):  # records of what was run then
                continue
            text = path.read_text(encoding="utf-8")
            for line in re.findall(
                r"(?<![\w/-])loupe((?: [a-z][\w-]*)+(?: --?[\w-]+[^\n`|#)]*)?)", text
            ):
                words = line.split()
                command: Any = root
                for word in words:
                    # A group has subcommands (typer's click is its own: no isinstance here).
                    if word.startswith("-") or not hasattr(command, "commands"):
                        break
                    sub = command.commands.get(word)
                    if sub is None:
                        break
                    command = sub
                if command is root:
                    continue  # prose: "loupe serves", "loupe is"
                options = {
                    name
                    for param in command.params
                    for name in [*param.opts, *param.secondary_opts]
                }
                for word in words:
                    flag = word.split("=")[0]
                    if flag.startswith("--") and flag not in options:
                        wrong.add((path.name, command.name, flag))
        assert wrong == set()


class TestMetricFamilies:
    def test_the_operations_page_lists_every_family(self) -> None:
        source = "\n".join(
            path.read_text(encoding="utf-8") for path in (ROOT / "app" / "telemetry").glob("*.py")
        )
        families = set(
            re.findall(r"(?:Counter|Gauge|Histogram|MetricFamily)\(\s*\"loupe_(\w+)\"", source)
        )
        assert len(families) > 20  # the pattern still finds them
        page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
        watching = page.split("## Watching it", 1)[1].split("\n## ", 1)[0]
        assert sorted(name for name in families if f"`{name}`" not in watching) == []
