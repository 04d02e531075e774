"""Memory probe for `loupe serve` under bench/online_memory.py (bench only, never in app/).

On PYTHONPATH with BENCH_MEMORY_DIR set, it starts a daemon thread that, for each file
`<label>.req` the bench writes into that directory, starts tracemalloc if the request asks
and it is not yet (BENCH_MEMORY_FRAMES frames a traceback), collects garbage and writes
`<label>.snap` (a tracemalloc snapshot, when tracing) and `<label>.json` (live objects by type, RSS,
SQLite's own allocations, glibc malloc's arena figures), then `<label>.done`.
"""

import os

DIRECTORY = os.environ.get("BENCH_MEMORY_DIR")


def _probe(directory: str) -> None:
    import collections
    import ctypes
    import ctypes.util
    import gc
    import json
    import sys
    import time
    import tracemalloc
    from pathlib import Path

    libc = ctypes.CDLL(None)
    sqlite = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    sqlite.sqlite3_memory_used.restype = ctypes.c_int64
    sqlite.sqlite3_memory_highwater.restype = ctypes.c_int64
    sqlite.sqlite3_memory_highwater.argtypes = [ctypes.c_int]
    sqlite.sqlite3_db_status.argtypes = [
        ctypes.c_void_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
    ]

    def db_status(conn) -> dict:
        """SQLite's bytes for one connection: page cache, schema, prepared statements."""
        # CPython 3.11's pysqlite_Connection: the sqlite3* follows the object header.
        db = ctypes.c_void_p.from_address(id(conn) + 16).value
        if not db:
            return {}
        figures = {}
        for op, name in ((1, "cache"), (2, "schema"), (3, "statements")):
            current, high = ctypes.c_int(), ctypes.c_int()
            sqlite.sqlite3_db_status(db, op, ctypes.byref(current), ctypes.byref(high), 0)
            figures[name] = current.value
        return figures

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in (
                "arena",
                "ordblks",
                "smblks",
                "hblks",
                "hblkhd",
                "usmblks",
                "fsmblks",
                "uordblks",
                "fordblks",
                "keepcost",
            )
        ]

    libc.mallinfo2.restype = MallInfo2

    def rss_kib() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cache_size(conn) -> object:
        try:
            return conn.execute("PRAGMA cache_size").fetchone()[0]
        except Exception as error:  # noqa: BLE001 - a closed connection not yet collected
            return type(error).__name__

    def figures() -> dict:
        gc.collect()
        types = collections.Counter(type(obj).__qualname__ for obj in gc.get_objects())
        info = libc.mallinfo2()
        connections = [
            obj
            for obj in gc.get_objects()
            if type(obj).__name__ == "Connection" and type(obj).__module__ == "sqlite3"
        ]
        return {
            "rss_kib": rss_kib(),
            "traced": tracemalloc.get_traced_memory() if tracemalloc.is_tracing() else None,
            "tracemalloc_overhead": tracemalloc.get_tracemalloc_memory(),
            "sqlite_memory_used": sqlite.sqlite3_memory_used(),
            "sqlite_memory_highwater": sqlite.sqlite3_memory_highwater(0),
            "sqlite_connections": len(connections),
            # Asked while the service is idle (the bench waits for the judge to settle).
            "sqlite_cache_size": [cache_size(conn) for conn in connections],
            "sqlite_db_status": [db_status(conn) for conn in connections],
            "malloc": {name: getattr(info, name) for name, _ in MallInfo2._fields_},
            "threads": len(sys._current_frames()),
            "objects": dict(types.most_common()),
        }

    def run() -> None:
        folder = Path(directory)
        while True:
            for request in sorted(folder.glob("*.req")):
                label = request.stem
                options = json.loads(request.read_text() or "{}")
                if options.get("trace") and not tracemalloc.is_tracing():
                    # From the first checkpoint that asks (tracing start-up's imports makes it
                    # too slow for the bench's readiness wait): what is traced grew since.
                    tracemalloc.start(int(os.environ.get("BENCH_MEMORY_FRAMES", "12")))
                try:
                    data = figures()
                    if options.get("trim"):
                        # What glibc gives back: free memory held in its arenas, not in use.
                        libc.malloc_trim(0)
                        data["rss_kib_after_trim"] = rss_kib()
                except Exception as error:  # noqa: BLE001 - reported to the bench
                    data = {"error": repr(error)}
                if tracemalloc.is_tracing():
                    tracemalloc.take_snapshot().dump(str(folder / f"{label}.snap"))
                (folder / f"{label}.json").write_text(json.dumps(data))
                request.rename(folder / f"{label}.done")
            time.sleep(0.2)

    import threading

    threading.Thread(target=run, name="bench-memory-probe", daemon=True).start()


if DIRECTORY:
    _probe(DIRECTORY)
