"""What the SDK tests share: images, cases, waiting while the queue runs in this thread, and an
image host that holds its answer until told."""

import base64
import io
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

from PIL import Image

from tests.fixtures.api import Api

T = TypeVar("T")


def png_bytes(color: str, size: tuple[int, int] = (16, 12)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def png(color: str, size: tuple[int, int] = (16, 12)) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(color, size)).decode()


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


class HeldImage:
    """An image host on 127.0.0.1 whose PNG (`url`) is answered only once `release()` is called
    (or GET /release), so the Loupe request fetching it stays in progress meanwhile.

    `started` is set when the image is first asked for; GET /started answers once it is (for a
    client in another process). Loupe's fetch gives up after LOUPE_FETCH_READ_TIMEOUT_SECONDS,
    so the hold ends by itself after `hold_limit` seconds.
    """

    def __init__(self, hold_limit: float = 4.0) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.fetches = 0
        body = png_bytes("green")
        held = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                if self.path == "/release":
                    held.release()
                    self._answer(b"released", "text/plain")
                elif self.path == "/started":
                    self._answer(b"started", "text/plain", held.started.wait(10))
                else:
                    held.fetches += 1
                    held.started.set()
                    held.released.wait(hold_limit)
                    self._answer(body, "image/png")

            def _answer(self, content: bytes, media_type: str, ok: bool = True) -> None:
                self.send_response(200 if ok else 504)
                self.send_header("Content-Type", media_type)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return f"{self.base_url}/held.png"

    def release(self) -> None:
        self.released.set()

    def __enter__(self) -> "HeldImage":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        self._server.shutdown()
        self._server.server_close()
