"""One background event loop per process, where every job's judge calls run.

Jobs are synchronous (RQ, the embedded thread pool); judge clients are async and long-lived.
Running all coroutines on one loop lets every job share the same clients, connection pools
and in-flight limits, instead of rebuilding them per job.
"""

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def judge_loop() -> asyncio.AbstractEventLoop:
    """The process's judge loop, started on first use."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="loupe-judge-loop", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def run_on_judge_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the judge loop and wait for its result from this thread."""
    return asyncio.run_coroutine_threadsafe(coro, judge_loop()).result()
