"""OpenAI-compatible judge client: retries, limits, cache, JSON repair, logprobs.

No FastAPI, SQLAlchemy or RQ here: metrics and tests use it directly.
"""

import asyncio

from app.judges._cache import JudgeCache, cache_key
from app.judges._client import JudgeClient
from app.judges._json import JSONExtractionError, extract_json_object
from app.judges._logprobs import weighted_score
from app.judges._loop import judge_loop, run_on_judge_loop
from app.judges._types import JudgeEndpoint, JudgeError, JudgeReply, JudgeUsage

_clients: dict[tuple[JudgeEndpoint, int], JudgeClient] = {}


def get_client(endpoint: JudgeEndpoint) -> JudgeClient:
    """The shared client for an endpoint on the running loop (created on first use)."""
    key = (endpoint, id(asyncio.get_running_loop()))
    client = _clients.get(key)
    if client is None:
        client = _clients[key] = JudgeClient(endpoint)
    return client


__all__ = [
    "JSONExtractionError",
    "JudgeCache",
    "JudgeClient",
    "JudgeEndpoint",
    "JudgeError",
    "JudgeReply",
    "JudgeUsage",
    "cache_key",
    "extract_json_object",
    "get_client",
    "judge_loop",
    "run_on_judge_loop",
    "weighted_score",
]
