"""CPU seconds of processes from /proc, for the benches that count each component's."""

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
ROOT = Path(__file__).resolve().parent.parent


def pythonpath(*first: str | Path) -> str:
    """PYTHONPATH for a `loupe` process a bench starts: `first`, then the bench's own PYTHONPATH
    (an A/B's older checkout still wins), then this checkout. Without this checkout on it,
    `loupe` imports the code of the checkout the virtualenv was installed from (an editable
    install), not the code beside the bench: another worktree's, or main's in an A/B."""
    given = [part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part]
    return os.pathsep.join(dict.fromkeys([*map(str, first), *given, str(ROOT)]))


def proc_stat(path: Path) -> list[str] | None:
    """The fields of a /proc stat file after the command name (None: the process is gone)."""
    try:
        return path.read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of `pid` so far (its reaped children not included)."""
    fields = proc_stat(Path(f"/proc/{pid}/stat"))
    if fields is None:
        raise ProcessLookupError(pid)
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def children() -> dict[int, list[int]]:
    """Every live process's children, by parent pid."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := proc_stat(entry / "stat")) is not None:
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def tree_cpu(pid: int, tree: dict[int, list[int]]) -> float:
    """CPU seconds of a process and all its descendants, those it has reaped included."""
    fields = proc_stat(Path(f"/proc/{pid}/stat"))
    if fields is None:
        return 0.0
    # utime, stime, cutime (reaped children), cstime
    own = sum(int(value) for value in fields[11:15]) / TICKS
    return own + sum(tree_cpu(child, tree) for child in tree.get(pid, []))


def find_process(*words: str) -> int:
    """The pid of the one process whose command line holds all `words`."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if all(word in command for word in words):
            return int(entry.name)
    raise RuntimeError(f"no process with {words} in its command line")
