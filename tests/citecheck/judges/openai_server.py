"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for the LLM judge's tests.

It speaks the protocol over HTTP (``POST /v1/chat/completions``); each test scripts what it
answers. Every request body is recorded so tests can assert what the judge sent.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: an HTTP status, a JSON body, headers, and an optional delay."""

    status: int = 200
    body: dict[str, Any] | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def completion(content: str | None, *, finish_reason: str = "stop", refusal: str | None = None,
               prompt_tokens: int = 120, completion_tokens: int = 30) -> Reply:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if refusal is not None:
        message["refusal"] = refusal
    return Reply(body={
        "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()), "model": "test-model",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    })


def verdict_reply(status: str, span: str | None, rationale: str = "checked", **kwargs: Any) -> Reply:
    return completion(json.dumps({"status": status, "span": span, "rationale": rationale}), **kwargs)


class OpenAIServer:
    """Threaded HTTP server; ``script`` is a list of replies served in order (the last one
    repeats), or ``handler(body) -> Reply`` decides per request."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.script: list[Reply] = []
        self.handler: Callable[[dict[str, Any]], Reply] | None = None
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                body["_path"] = self.path
                reply = server._next(body)
                if reply.delay:
                    time.sleep(reply.delay)
                payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                data = payload.encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self.handler is not None:
                return self.handler(body)
            if not self.script:
                return verdict_reply("unsupported", None)
            return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> OpenAIServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
