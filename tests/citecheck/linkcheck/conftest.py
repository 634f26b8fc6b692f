"""A real local HTTP server (aiohttp.web on 127.0.0.1, ephemeral ports) for the link checker.

It runs in its own thread and event loop, so tests drive the checker exactly as production code
does. Besides the web app there are two raw TCP servers (one resets the connection, one closes
it before answering) and a port that nobody listens on.
"""

from __future__ import annotations

import asyncio
import gzip
import socket
import struct
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from aiohttp import web

from citecheck.linkcheck import LinkCheckConfig
from citecheck.netguard import NetPolicy


@dataclass
class Stats:
    """What the server saw, per test-chosen group name."""

    in_flight: Counter[str] = field(default_factory=Counter)
    max_in_flight: Counter[str] = field(default_factory=Counter)
    starts: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    methods: list[tuple[str, str]] = field(default_factory=list)
    huge_mb_sent: int = 0
    released: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def release(self, group: str) -> None:
        """Let every `/held/<group>` request answer (they wait for this, not for a clock)."""
        with self.lock:
            self.released.add(group)

    def enter(self, *keys: str) -> None:
        with self.lock:
            for key in keys:
                self.in_flight[key] += 1
                self.max_in_flight[key] = max(self.max_in_flight[key], self.in_flight[key])
                self.starts[key].append(time.monotonic())

    def leave(self, *keys: str) -> None:
        with self.lock:
            for key in keys:
                self.in_flight[key] -= 1


def _redirect(location: str, status: int = 302, **headers: str) -> web.Response:
    return web.Response(status=status, headers={"Location": location, **headers}, text="moved")


def build_app(stats: Stats) -> web.Application:
    routes = web.RouteTableDef()

    @routes.get("/")
    async def root(request: web.Request) -> web.Response:
        return web.Response(text="<h1>home</h1>", content_type="text/html")

    @routes.get("/ok")
    async def ok(request: web.Request) -> web.Response:
        return web.Response(
            text="<p>hello page</p>",
            content_type="text/html",
            charset="utf-8",
            headers={"ETag": '"v1"', "Last-Modified": "Wed, 21 Oct 2015 07:28:00 GMT"},
        )

    @routes.get("/echo")
    async def echo(request: web.Request) -> web.Response:
        return web.json_response({"method": request.method, "headers": dict(request.headers)})

    @routes.route("*", "/get-only")
    async def get_only(request: web.Request) -> web.Response:
        # Answers HEAD happily but the page is gone: only a GET sees the truth.
        stats.methods.append((request.method, request.path))
        if request.method == "HEAD":
            return web.Response(status=200)
        return web.Response(status=404, text="gone for GET")

    @routes.get("/status/{code}")
    async def status(request: web.Request) -> web.Response:
        return web.Response(status=int(request.match_info["code"]), text="status page")

    @routes.get("/limited")
    async def limited(request: web.Request) -> web.Response:
        return web.Response(status=429, headers={"Retry-After": request.query.get("after", "120")}, text="slow down")

    @routes.get("/limited-date")
    async def limited_date(request: web.Request) -> web.Response:
        when = format_datetime(datetime.now(UTC) + timedelta(seconds=90), usegmt=True)
        return web.Response(status=429, headers={"Retry-After": when}, text="slow down")

    @routes.get("/unavailable")
    async def unavailable(request: web.Request) -> web.Response:
        return web.Response(status=503, headers={"Retry-After": "30"}, text="maintenance")

    @routes.get("/perm1")
    async def perm1(request: web.Request) -> web.Response:
        return _redirect("/perm2", 301)

    @routes.get("/perm2")
    async def perm2(request: web.Request) -> web.Response:
        return _redirect("/ok", 308)

    @routes.get("/mixed")
    async def mixed(request: web.Request) -> web.Response:
        return _redirect("/temp", 301)

    @routes.get("/temp")
    async def temp(request: web.Request) -> web.Response:
        return _redirect("/ok", 302)

    @routes.get("/see-other")
    async def see_other(request: web.Request) -> web.Response:
        return _redirect("/ok", 303)

    @routes.get("/to-missing")
    async def to_missing(request: web.Request) -> web.Response:
        return _redirect("/status/404", 301)

    @routes.get("/hops/{n}")
    async def hops(request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        return _redirect(f"/hops/{n - 1}", 302) if n > 0 else web.Response(text="end of chain")

    @routes.get("/loop-a")
    async def loop_a(request: web.Request) -> web.Response:
        return _redirect("/loop-b", 301)

    @routes.get("/loop-b")
    async def loop_b(request: web.Request) -> web.Response:
        return _redirect("/loop-a", 301)

    @routes.get("/redirect-to")
    async def redirect_to(request: web.Request) -> web.Response:
        return _redirect(request.query["target"], 302)

    @routes.get("/articles/2019/old-study")
    async def deep_to_root(request: web.Request) -> web.Response:
        return _redirect("/", 301)

    @routes.get("/docs/guide/install")
    async def deep_to_error_page(request: web.Request) -> web.Response:
        return _redirect("/errors/page-not-found.html", 302)

    @routes.get("/errors/page-not-found.html")
    async def error_page(request: web.Request) -> web.Response:
        return web.Response(text="Sorry, we could not find that page", content_type="text/html")

    @routes.get("/docs/old-name")
    async def moved_article(request: web.Request) -> web.Response:
        return _redirect("/docs/new-name", 301)

    @routes.get("/docs/new-name")
    async def new_article(request: web.Request) -> web.Response:
        return web.Response(text="the article, renamed", content_type="text/html")

    @routes.get("/cookie-gate")
    async def cookie_gate(request: web.Request) -> web.Response:
        if request.cookies.get("visited") == "yes":
            return web.Response(text="welcome back")
        response = _redirect("/cookie-gate", 302)
        response.set_cookie("visited", "yes")
        return response

    @routes.get("/trickle")
    async def trickle(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/plain"})
        await response.prepare(request)
        try:
            for _ in range(100):
                await response.write(b"x")
                await asyncio.sleep(0.1)
        except (ConnectionError, RuntimeError):
            pass
        return response

    @routes.get("/slow")
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(float(request.query.get("s", "3")))
        return web.Response(text="finally")

    @routes.get("/huge")
    async def huge(request: web.Request) -> web.StreamResponse:
        # 128 MB, chunked: no Content-Length, so only counting while streaming can stop it.
        response = web.StreamResponse(headers={"Content-Type": "application/octet-stream"})
        await response.prepare(request)
        chunk = b"a" * (1 << 20)
        try:
            for _ in range(128):
                await response.write(chunk)
                stats.huge_mb_sent += 1
        except (ConnectionError, RuntimeError):
            pass
        return response

    @routes.get("/declared-huge")
    async def declared_huge(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/pdf"})
        response.content_length = 50 * 1024 * 1024
        await response.prepare(request)
        try:
            await response.write(b"%PDF-1.7 and then nothing")
            hold = request.query.get("hold")
            for _ in range(6000 if hold else 200):  # held until released (at most a minute), else 2 s
                if hold in stats.released:
                    break
                await asyncio.sleep(0.01)
        except (ConnectionError, RuntimeError):
            pass
        return response

    bomb = gzip.compress(b"\0" * (20 * 1024 * 1024))

    @routes.get("/gzip-bomb")
    async def gzip_bomb(request: web.Request) -> web.Response:
        # 20 KB on the wire, 20 MB once decompressed; the Content-Length is the small number.
        return web.Response(body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "text/html"})

    @routes.get("/held/{group}")
    async def held(request: web.Request) -> web.Response:
        # Answers only once the test releases its group (at most a minute: a cap against a hang),
        # so "the fast ones came first" is an ordering, not a race against a sleep.
        group = request.match_info["group"]
        stats.enter(group)
        try:
            for _ in range(6000):
                if group in stats.released:
                    break
                await asyncio.sleep(0.01)
        finally:
            stats.leave(group)
        return web.Response(text="finally")

    @routes.get("/count/{group}")
    async def count(request: web.Request) -> web.Response:
        group = request.match_info["group"]
        keys = (group, f"{group}@{request.host.split(':')[0]}")
        stats.enter(*keys)
        try:
            await asyncio.sleep(float(request.query.get("s", "0.1")))
        finally:
            stats.leave(*keys)
        return web.Response(text="counted")

    app = web.Application()
    app.add_routes(routes)
    return app


async def _reset_after_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.readuntil(b"\r\n\r\n")
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = RST
    writer.transport.abort()


async def _close_after_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.readuntil(b"\r\n\r\n")
    writer.close()


class LocalServer:
    def __init__(self) -> None:
        self.stats = Stats()
        self.loop = asyncio.new_event_loop()
        self.port = 0
        self.reset_port = 0
        self.close_port = 0
        self.closed_port = 0
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="linkcheck-test-server", daemon=True)

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("test server did not start")

    def stop(self) -> None:
        if self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())
        # Handlers still sleeping for clients that hung up long ago: end them before closing.
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        self.loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(build_app(self.stats), shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]
        reset = await asyncio.start_server(_reset_after_request, "127.0.0.1", 0)
        close = await asyncio.start_server(_close_after_request, "127.0.0.1", 0)
        self.reset_port = reset.sockets[0].getsockname()[1]
        self.close_port = close.sockets[0].getsockname()[1]
        with socket.socket() as probe:  # a port that was free a moment ago and is not listened on
            probe.bind(("127.0.0.1", 0))
            self.closed_port = probe.getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        reset.close()
        close.close()
        await runner.cleanup()


class StartRecorder:
    """A `HostLimiter` that only records when the checker let each request to a host go (after its
    gap), on the checker's own event-loop clock: a busy machine can only make gaps longer there,
    while a server's arrival times can bunch up."""

    def __init__(self) -> None:
        self.starts: dict[str, list[float]] = defaultdict(list)

    async def acquire(self, host: str, *, max_wait: float) -> object | None:
        self.starts[host].append(asyncio.get_running_loop().time())
        return host

    async def release(self, host: str, token: object) -> None:
        return None


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    srv = LocalServer()
    srv.start()
    yield srv
    srv.stop()


LOOPBACK = NetPolicy.build("127.0.0.0/8")


@pytest.fixture
def config() -> LinkCheckConfig:
    """Limits for tests: loopback opened (as CITECHECK_FETCH_ALLOW_NETWORKS would), short deadline."""
    return LinkCheckConfig(policy=LOOPBACK, timeout=5.0)
