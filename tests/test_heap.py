"""The collector settings of a service process (app/heap.py): what start-up left alive is
frozen and young collections are LOUPE_GC_YOUNG_THRESHOLD allocations apart; 0 leaves CPython's
collector as it is. Each case runs in a process of its own: freezing this one would keep every
later test's cycles."""

import json
import os
import subprocess
import sys
from pathlib import Path

REPORT = "import gc, json; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"


def last_line(code: str, tmp_path: Path, **env: str) -> str:
    """The last line `code` prints, run in a Python process of its own on a SQLite database."""
    environment = {
        **os.environ,
        "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def collector_after(code: str, tmp_path: Path, **env: str) -> tuple[list[int], int]:
    threshold, frozen = json.loads(last_line(f"{code}\n{REPORT}", tmp_path, **env))
    return threshold, frozen


class TestSettle:
    def test_freezes_what_is_alive_and_spaces_young_collections(self, tmp_path: Path) -> None:
        threshold, frozen = collector_after("from app import heap; heap.settle(50_000)", tmp_path)
        assert threshold[0] == 50_000
        assert frozen > 1_000

    def test_zero_leaves_the_collector_as_it_is(self, tmp_path: Path) -> None:
        threshold, frozen = collector_after("from app import heap; heap.settle(0)", tmp_path)
        assert threshold[0] == 700
        assert frozen == 0

    def test_a_served_app_process_is_settled_by_its_setting(self, tmp_path: Path) -> None:
        code = "from app.cli.service import served_app; served_app()"
        threshold, frozen = collector_after(code, tmp_path, LOUPE_GC_YOUNG_THRESHOLD="12345")
        assert threshold[0] == 12_345
        # The app, its routes and every imported library.
        assert frozen > 100_000
        threshold, frozen = collector_after(code, tmp_path, LOUPE_GC_YOUNG_THRESHOLD="0")
        assert (threshold[0], frozen) == (700, 0)
