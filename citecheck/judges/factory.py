"""The judge a name stands for: the one place that knows every judge class."""

from __future__ import annotations

from typing import Any

from citecheck.judges import Judge
from citecheck.judges.builtin import BuiltinJudge
from citecheck.judges.cascade import CascadeJudge
from citecheck.judges.llm import LLMJudge


def get_judge(name: str = "builtin", **config: Any) -> Judge:
    """Build a judge by name.

    ``builtin`` takes no configuration. ``openai`` (alias ``llm``) takes the keyword arguments
    of :class:`citecheck.judges.llm.LLMJudge` (base_url, api_key, model, timeout, cache, ...);
    ``cascade`` (or ``openai`` with ``cascade=True``) is the built-in judge first and the LLM judge
    only for its low-confidence verdicts (:class:`citecheck.judges.cascade.CascadeJudge`).
    """
    key = name.strip().lower()
    if key == "builtin":
        return BuiltinJudge(**config)
    cascade = bool(config.pop("cascade", False))
    if key in {"openai", "llm", "cascade"}:
        llm = LLMJudge(**config)
        if key == "cascade" or cascade:
            return CascadeJudge(BuiltinJudge(), llm)
        return llm
    raise ValueError(f"unknown judge {name!r}: use 'builtin', 'openai' or 'cascade'")
