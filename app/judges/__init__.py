"""OpenAI-compatible judge client: retries, limits, cache, JSON repair, logprobs.

The same client generates candidate answers (`JudgeClient.generate`, endpoint role "candidate").

No FastAPI, SQLAlchemy or RQ here: metrics and tests use it directly.
"""

import asyncio
import atexit
import contextlib
import threading
from collections import OrderedDict

from app.judges import _loop as _loop_module
from app.judges._cache import JudgeCache, cache_key
from app.judges._client import JudgeClient
from app.judges._cut_off import collecting as cut_off_calls
from app.judges._errors import endpoint_host
from app.judges._json import JSONExtractionError, JSONTooDeep, extract_json_object, loads_shallow
from app.judges._logprobs import weighted_score
from app.judges._loop import judge_loop, run_on_judge_loop
from app.judges._shared import SharedAnswers, answer_once
from app.judges._types import (
    Embeddings,
    Generation,
    JudgeEndpoint,
    JudgeError,
    JudgeReply,
    JudgeUsage,
    MismatchedAnswer,
)
from app.judges._wire import text_content

# Clients (each with its connection pool) kept per process: one per endpoint in use, and
# tenants register endpoints without limit. Past this many the least recently used is dropped;
# it closes once the jobs still holding it are done with it (JudgeClient's finalizer).
MAX_CLIENTS = 256
_clients: OrderedDict[tuple[JudgeEndpoint, int], JudgeClient] = OrderedDict()
_clients_lock = threading.Lock()


def get_client(endpoint: JudgeEndpoint) -> JudgeClient:
    """The shared client for an endpoint on the running loop (created on first use)."""
    key = (endpoint, id(asyncio.get_running_loop()))
    with _clients_lock:
        client = _clients.get(key)
        if client is not None:
            _clients.move_to_end(key)
            return client
        client = _clients[key] = JudgeClient(endpoint)
        while len(_clients) > MAX_CLIENTS:
            _clients.popitem(last=False)
    return client


@atexit.register
def close_clients() -> None:
    """Close the judge loop's clients (their connection pools) as the process exits.

    Not on a runtime's close: other runtimes of the process may still be using them.
    """
    loop = _loop_module._loop
    if loop is None or loop.is_closed():
        return
    with _clients_lock:
        closing = [_clients.pop(key) for key in [key for key in _clients if key[1] == id(loop)]]
    for client in closing:
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=5)


__all__ = [
    "close_clients",
    "endpoint_host",
    "text_content",
    "Embeddings",
    "Generation",
    "JSONExtractionError",
    "JSONTooDeep",
    "JudgeCache",
    "JudgeClient",
    "JudgeEndpoint",
    "JudgeError",
    "JudgeReply",
    "JudgeUsage",
    "MismatchedAnswer",
    "SharedAnswers",
    "answer_once",
    "cache_key",
    "cut_off_calls",
    "extract_json_object",
    "get_client",
    "judge_loop",
    "loads_shallow",
    "run_on_judge_loop",
    "weighted_score",
]
