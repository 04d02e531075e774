"""OpenAI-compatible judge client: retries, limits, cache, JSON repair, logprobs.

The same client generates candidate answers (`JudgeClient.generate`, endpoint role "candidate").

No FastAPI, SQLAlchemy or RQ here: metrics and tests use it directly.
"""

import asyncio
import atexit
import contextlib

from app.judges import _loop as _loop_module
from app.judges._cache import JudgeCache, cache_key
from app.judges._client import JudgeClient
from app.judges._json import JSONExtractionError, extract_json_object
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
)
from app.judges._wire import text_content

_clients: dict[tuple[JudgeEndpoint, int], JudgeClient] = {}


def get_client(endpoint: JudgeEndpoint) -> JudgeClient:
    """The shared client for an endpoint on the running loop (created on first use)."""
    key = (endpoint, id(asyncio.get_running_loop()))
    client = _clients.get(key)
    if client is None:
        client = _clients[key] = JudgeClient(endpoint)
    return client


@atexit.register
def close_clients() -> None:
    """Close the judge loop's clients (their connection pools) as the process exits.

    Not on a runtime's close: other runtimes of the process may still be using them.
    """
    loop = _loop_module._loop
    if loop is None or loop.is_closed():
        return
    for key in [key for key in _clients if key[1] == id(loop)]:
        client = _clients.pop(key)
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(client.close(), loop).result(timeout=5)


__all__ = [
    "close_clients",
    "text_content",
    "Embeddings",
    "Generation",
    "JSONExtractionError",
    "JudgeCache",
    "JudgeClient",
    "JudgeEndpoint",
    "JudgeError",
    "JudgeReply",
    "JudgeUsage",
    "SharedAnswers",
    "answer_once",
    "cache_key",
    "extract_json_object",
    "get_client",
    "judge_loop",
    "run_on_judge_loop",
    "weighted_score",
]
