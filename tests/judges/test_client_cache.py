"""The process's judge clients are bounded: past MAX_CLIENTS endpoints the least recently used
client is dropped from the cache, and closed once no running call holds it any more."""

import asyncio
import gc
import weakref

from app import judges
from app.judges import get_client
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.metrics import endpoint

HELLO = [{"role": "user", "content": "hello"}]


def on_this_loop() -> int:
    loop = id(asyncio.get_running_loop())
    return sum(1 for _, owner in judges._clients if owner == loop)


async def closed(http) -> None:  # type: ignore[no-untyped-def]
    """Return once `http` (an AsyncOpenAI) has been closed; its close runs on this loop."""
    while not http.is_closed():
        gc.collect()
        await asyncio.sleep(0.01)


class TestClientCache:
    def test_least_recently_used_clients_are_dropped_and_closed_when_idle(
        self, judge: ScriptedJudge
    ) -> None:
        async def scenario() -> None:
            # A client that has answered (a pooled connection) and is now idle.
            idle = get_client(endpoint(judge, api_key="sk-idle-0123456789"))
            await idle.generate(HELLO)
            idle_http, idle_ref = idle._openai, weakref.ref(idle)
            del idle
            # A client whose call is in flight when the cache drops it.
            judge.hold()
            busy = get_client(endpoint(judge, api_key="sk-busy-0123456789"))
            call = asyncio.ensure_future(busy.generate(HELLO))
            while judge.in_flight < 1:
                await asyncio.sleep(0.01)
            busy_http, busy_ref = busy._openai, weakref.ref(busy)
            del busy
            # Recently used: stays while the others come in.
            kept = get_client(endpoint(judge, api_key="sk-kept-0123456789"))
            for number in range(judges.MAX_CLIENTS - 1):
                get_client(endpoint(judge, api_key=f"sk-other-{number:010d}"))
                if number == 0:
                    assert get_client(kept.endpoint) is kept
            assert on_this_loop() == judges.MAX_CLIENTS
            await closed(idle_http)
            assert idle_ref() is None
            # The dropped busy client is still open for its call, which completes.
            assert busy_ref() is not None and not busy_http.is_closed()
            assert get_client(kept.endpoint) is kept
            judge.release()
            generation = await call
            assert generation.content is not None
            del call, generation
            await closed(busy_http)
            assert busy_ref() is None
            # A new client for the dropped endpoint works as before.
            again = get_client(endpoint(judge, api_key="sk-busy-0123456789"))
            assert (await again.generate(HELLO)).content is not None
            loop = id(asyncio.get_running_loop())
            for key in [key for key in judges._clients if key[1] == loop]:
                await judges._clients.pop(key).close()

        asyncio.run(scenario())
