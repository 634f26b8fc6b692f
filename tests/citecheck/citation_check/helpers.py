"""Builders for answers in every vendor format (what real servers send, byte for byte in shape)."""

from __future__ import annotations

import json
from typing import Any


def ollama_chat(content: str, *, done_reason: str = "stop", prompt_eval_count: int | None = 306) -> str:
    body: dict[str, Any] = {
        "model": "qwen2.5:7b",
        "created_at": "2026-11-05T10:00:00Z",
        "message": {"role": "assistant", "content": content},
        "done": True,
        "done_reason": done_reason,
        "total_duration": 123456,
        "eval_count": 42,
    }
    if prompt_eval_count is not None:
        body["prompt_eval_count"] = prompt_eval_count
    return json.dumps(body)


def ollama_stream(content: str, *, done_reason: str = "stop", prompt_eval_count: int = 306, pieces: int = 7) -> str:
    step = max(1, len(content) // pieces)
    parts = [content[i : i + step] for i in range(0, len(content), step)]
    lines = [
        json.dumps({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": part}, "done": False}) for part in parts
    ]
    lines.append(
        json.dumps(
            {
                "model": "qwen2.5:7b",
                "message": {"role": "assistant", "content": ""},
                "done": True,
                "done_reason": done_reason,
                "prompt_eval_count": prompt_eval_count,
            }
        )
    )
    return "\n".join(lines) + "\n"


def openai_chat(content: str | None, *, finish_reason: str = "stop", prompt_tokens: int | None = 512) -> str:
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-x",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
    }
    if prompt_tokens is not None:
        body["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": 20, "total_tokens": prompt_tokens + 20}
    return json.dumps(body)


def openai_stream(
    content: str, *, finish_reason: str = "stop", prompt_tokens: int | None = None, pieces: int = 7, done: bool = True
) -> str:
    step = max(1, len(content) // pieces)
    chunks: list[dict[str, Any]] = [
        {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
    ]
    chunks += [
        {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": content[i : i + step]}, "finish_reason": None}]}
        for i in range(0, len(content), step)
    ]
    chunks.append({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": finish_reason}]})
    if prompt_tokens is not None:
        chunks.append({"id": "c", "object": "chat.completion.chunk", "choices": [], "usage": {"prompt_tokens": prompt_tokens}})
    lines = [f"data: {json.dumps(chunk)}\n" for chunk in chunks]
    if done:
        lines.append("data: [DONE]\n")
    return "\n".join(lines)


def json_answer(answer: str, citations: list[tuple[Any, str]]) -> str:
    return json.dumps({"answer": answer, "citations": [{"source": s, "quote": q} for s, q in citations]}, ensure_ascii=False)


# The seed's own example: four sources; the quote of citation #2 is not in source [4].
SEED_SOURCES = [
    "pgvector stores each vector in 4 * dimensions + 8 bytes.",
    "HNSW search quality is controlled at query time: hnsw.ef_search is 40 by default.",
    "IVFFlat needs a training step on existing rows before it is useful.",
    "The storage of a vector is four bytes for every dimension, with an 8-byte header.",
]
SEED_ANSWER = ollama_chat(
    json_answer(
        "ef_search defaults to 40 [2]. A 384-dimension vector takes 1552 bytes [4].",
        [(2, "hnsw.ef_search is 40 by default"), (4, "4 bytes per dimension plus 8")],
    )
)
