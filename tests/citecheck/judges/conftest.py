from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.citecheck.judges.openai_server import OpenAIServer


@pytest.fixture
def llm_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
