"""What the SDK tests share: images, cases, and waiting while the queue runs in this thread."""

import base64
import io
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PIL import Image

from tests.fixtures.api import Api

T = TypeVar("T")


def png(color: str, size: tuple[int, int] = (16, 12)) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


RED, BLUE = png("red"), png("blue", (12, 16))


def while_queue_runs(api: Api, call: Callable[[], T]) -> T:
    """`call()` in a thread while this (main) thread drains RQ, as a worker would; RQ's
    signal handling needs the main thread. In embedded mode the app runs its own jobs."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test below
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    while thread.is_alive():
        api.run_queue()
        time.sleep(0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
