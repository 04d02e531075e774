"""A scripted HTTP server on 127.0.0.1 for fetcher tests, and sample images.

Tests in tests/media never send a packet anywhere but 127.0.0.0/8 or ::1: every URL they fetch
names this server by an IP literal or `localhost` (resolved from /etc/hosts, not DNS).
"""

import base64
import errno
import io
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    content_type: str | None = "image/png"
    headers: dict[str, str] = field(default_factory=dict)
    # Announce the length (False: the body ends when the connection closes).
    content_length: bool = True
    delay_before: float = 0.0
    # Send the body in this many pieces, `chunk_delay` seconds apart.
    chunks: int = 1
    chunk_delay: float = 0.0


class LoopbackServer:
    """Answers GET (and POST) requests from a route table; records every request's path and Host.

    Args:
        hosts: loopback addresses to listen on, all on one port (e.g. 127.0.0.1 and ::1).
        port: the port, or 0 for a free one.
        tls: a server-side context: HTTPS instead of HTTP.
    """

    def __init__(
        self,
        hosts: tuple[str, ...] = ("127.0.0.1",),
        port: int = 0,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.routes: dict[str, Route] = {}
        self.hits: list[tuple[str, str | None]] = []
        # The local address each request came in on, in the order of `hits`.
        self.served_on: list[str] = []
        self.scheme = "https" if tls else "http"
        server = self

        class Handler(BaseHTTPRequestHandler):
            def setup(self) -> None:
                if tls is not None:
                    # The handshake runs in this request's thread, not the accepting one.
                    self.request = tls.wrap_socket(self.request, server_side=True)
                super().setup()

            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                server.hits.append((self.path, self.headers.get("Host")))
                server.served_on.append(self.connection.getsockname()[0])
                route = server.routes.get(self.path, Route(status=404, content_type="text/plain"))
                try:
                    time.sleep(route.delay_before)
                    self.send_response(route.status)
                    if route.content_type:
                        self.send_header("Content-Type", route.content_type)
                    if route.content_length:
                        self.send_header("Content-Length", str(len(route.body)))
                    for name, value in route.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    size = max(1, -(-len(route.body) // route.chunks))
                    for start in range(0, len(route.body), size):
                        self.wfile.write(route.body[start : start + size])
                        self.wfile.flush()
                        time.sleep(route.chunk_delay)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the fetcher gave up, as it should

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.do_GET()

            def log_message(self, *args: object) -> None:
                pass

        self.servers = _bind(hosts, port, Handler)
        self.port = self.servers[0].server_address[1]
        self.threads = [
            threading.Thread(
                target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
            )
            for httpd in self.servers
        ]

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def __enter__(self) -> "LoopbackServer":
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for httpd in self.servers:
            httpd.shutdown()
            httpd.server_close()


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # refused TLS handshakes and dropped connections are what tests provoke


class _QuietServer6(_QuietServer):
    address_family = socket.AF_INET6


def _bind(
    hosts: tuple[str, ...], port: int, handler: type[BaseHTTPRequestHandler]
) -> list[ThreadingHTTPServer]:
    # Another process may hold the free port on a second address; pick another then.
    for _ in range(20):
        servers: list[ThreadingHTTPServer] = []
        try:
            for host in hosts:
                kind = _QuietServer6 if ":" in host else _QuietServer
                servers.append(kind((host, port or _port_of(servers)), handler))
            return servers
        except OSError as exc:
            for httpd in servers:
                httpd.server_close()
            if exc.errno != errno.EADDRINUSE or port:
                raise
    raise RuntimeError(f"no port free on all of {hosts}")


def _port_of(servers: list[ThreadingHTTPServer]) -> int:
    return servers[0].server_address[1] if servers else 0


def serve() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        yield server


def encode(image: Image.Image, fmt: str = "PNG", **params: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


def png(size: tuple[int, int] = (32, 24), color: str = "red", mode: str = "RGB") -> bytes:
    return encode(Image.new(mode, size, color))


def noise_png(size: tuple[int, int], seed: int = 0) -> bytes:
    """An incompressible PNG: its byte size is about width x height x 3."""
    import random

    generator = random.Random(seed)
    return encode(Image.frombytes("RGB", size, generator.randbytes(size[0] * size[1] * 3)))


def data_url(data: bytes, media_type: str = "image/png") -> str:
    return f"data:{media_type};base64,{base64.b64encode(data).decode()}"


def decode_data_url(url: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
