#!/usr/bin/env python3
"""An example Citecheck client for a bot (standard library only).

    CITECHECK_URL=http://127.0.0.1:8000 CITECHECK_TOKEN=cc_… python examples/citecheck_client.py sync
    … python examples/citecheck_client.py answer "Express delivery takes 1 to 2 days [1]." PASSAGE_VERSION_ID…

`sync` keeps a local index (a JSON file) of the passages the bot may cite: a full export the first
time, then only the changes, purging everything that was retracted (tombstones).
`answer` sends an answer back and prints the safe citations to show. `verify_webhook` is what a
webhook receiver runs on every request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

REPLAY_WINDOW_SECONDS = 300


class CitecheckError(Exception):
    def __init__(self, status: int, error: dict[str, Any]) -> None:
        super().__init__(f"{status} {error.get('code')}: {error.get('message')} (field: {error.get('field')})")
        self.status, self.error = status, error


class Client:
    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + "/api/v1" + path, data=data, method=method, headers={  # noqa: S310
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json", **(headers or {})})
        for _attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the configured Citecheck URL
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as exc:
                if exc.code == 429:  # rate limited: wait as told, then try again
                    time.sleep(min(60, int(exc.headers.get("Retry-After", "1"))))
                    continue
                raise CitecheckError(exc.code, json.loads(exc.read() or b"{}").get("error", {})) from exc
        raise CitecheckError(429, {"code": "throttled", "message": "still rate limited"})

    def passages(self, **params: str) -> Any:
        return self.request("GET", "/passages?" + urllib.parse.urlencode(params))

    def submit_answer(self, *, answer: str, passage_version_ids: list[int], question: str = "", idempotency_key: str = "") -> Any:
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
        return self.request("POST", "/answers", {"answer": answer, "passage_version_ids": passage_version_ids, "question": question}, headers)

    def answer(self, answer_id: int) -> Any:
        return self.request("GET", f"/answers/{answer_id}")


def sync(client: Client, index_path: Path) -> dict[str, Any]:
    """Bring the local index up to date; returns it ({"cursor", "passages": {pv id: object}})."""
    index = json.loads(index_path.read_text()) if index_path.exists() else {"cursor": None, "passages": {}}
    passages: dict[str, Any] = index["passages"]
    if index["cursor"] is None:  # first run: full export, page by page
        page = client.passages(limit="500")
        cursor = page["sync_cursor"]
        while True:
            for item in page["items"]:
                passages[str(item["passage_version_id"])] = item
            if page["next_cursor"] is None:
                break
            page = client.passages(limit="500", cursor=page["next_cursor"])
    else:  # later runs: only what changed, tombstones purge what may no longer be cited
        cursor = index["cursor"]
        while True:
            page = client.passages(limit="500", changed_since=cursor)
            for item in page["items"]:
                if item["type"] == "tombstone":
                    passages.pop(str(item["passage_version_id"]), None)
                else:
                    passages[str(item["passage_version_id"])] = item
            cursor = page["sync_cursor"]
            if page["next_cursor"] is None:
                break
    index = {"cursor": cursor, "passages": passages}
    index_path.write_text(json.dumps(index))
    return index


def verify_webhook(*, secret: str, headers: dict[str, str], body: bytes, now: float | None = None) -> dict[str, Any]:
    """Check a webhook's signature and replay window; returns the event or raises ValueError."""
    lowered = {k.lower(): v for k, v in headers.items()}
    try:
        timestamp = int(lowered["citecheck-timestamp"])
        signature = lowered["citecheck-signature"]
    except (KeyError, ValueError) as exc:
        raise ValueError("missing or malformed Citecheck-Timestamp / Citecheck-Signature") from exc
    if abs((now or time.time()) - timestamp) > REPLAY_WINDOW_SECONDS:
        raise ValueError("timestamp outside the replay window")
    expected = "v1=" + hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature):
        raise ValueError("bad signature")
    return json.loads(body)


def main(argv: list[str]) -> int:
    client = Client(os.environ.get("CITECHECK_URL", "http://127.0.0.1:8000"), os.environ["CITECHECK_TOKEN"])
    if argv[:1] == ["sync"]:
        index = sync(client, Path(os.environ.get("CITECHECK_INDEX", "citecheck_index.json")))
        print(json.dumps({"passages": len(index["passages"]), "cursor": index["cursor"]}))
        return 0
    if argv[:1] == ["answer"] and len(argv) >= 2:
        ids = [int(i) for i in argv[2:]]
        created = client.submit_answer(answer=argv[1], passage_version_ids=ids, idempotency_key=hashlib.sha256(argv[1].encode()).hexdigest())
        detail = client.answer(created["answer_id"])
        # Render only what Citecheck made: its link HTML is escaped and safe to insert as is.
        print(json.dumps({"answer_id": created["answer_id"], "state": detail["state"], "blocked": created["blocked_passage_version_ids"],
                          "links": [c["link_html"] for c in detail["citations"] if c["link_html"]]}))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
