"""No module under app/ grows past 400 lines (issue 25 item 5): a file that long holds more than
one concept, and is split by concept (a package keeping the same import names) instead."""

from pathlib import Path

APP = Path(__file__).resolve().parent.parent / "app"
MAX_LINES = 400


def test_no_module_in_app_exceeds_400_lines() -> None:
    sizes = {
        path.relative_to(APP.parent).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(APP.rglob("*.py"))
    }
    too_long = {path: lines for path, lines in sizes.items() if lines > MAX_LINES}
    assert not too_long, f"modules over {MAX_LINES} lines, split them by concept: " + ", ".join(
        f"{path} ({lines})" for path, lines in too_long.items()
    )
