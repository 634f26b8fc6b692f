"""Judging claims against passages: cached verdicts, failed calls recorded (never cached), and
a per-endpoint circuit breaker shared by every worker (its state is a JudgeEndpoint row)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from citecheck import circuit
from citecheck.judges import Judge, claim_hash
from citecheck.judges.factory import get_judge
from claims.models import CircuitState, JudgeAttempt, JudgeEndpoint, Judgement, JudgementStatus
from sources.models import PassageVersion

logger = logging.getLogger(__name__)


def judge_config(name: str) -> dict[str, Any]:
    if name in ("openai", "llm", "cascade"):
        return {
            "cascade": settings.CITECHECK_JUDGE_CASCADE,
            "base_url": settings.OPENAI_BASE_URL or None,
            "api_key": settings.OPENAI_API_KEY or "not-needed",
            "model": settings.CITECHECK_JUDGE_MODEL,
            "timeout": settings.CITECHECK_JUDGE_TIMEOUT,
            "max_concurrency": settings.CITECHECK_JUDGE_CONCURRENCY,
            "max_retries": settings.CITECHECK_JUDGE_MAX_RETRIES,
        }
    return {}


@lru_cache(maxsize=8)
def _judge(name: str, base_url: str, model: str, timeout: float, retries: int) -> Judge:
    return get_judge(name, **judge_config(name))


def configured_judge(name: str | None = None) -> Judge:
    """The judge named in settings (CITECHECK_JUDGE), built once per configuration."""
    name = (name or settings.CITECHECK_JUDGE or "builtin").lower()
    return _judge(name, settings.OPENAI_BASE_URL, settings.CITECHECK_JUDGE_MODEL,
                  float(settings.CITECHECK_JUDGE_TIMEOUT), int(settings.CITECHECK_JUDGE_MAX_RETRIES))


def judge_endpoint(judge: Judge) -> str:
    """The breaker's key: the judge's endpoint URL ("" for judges with no endpoint, e.g. builtin).
    A cascade judge is keyed by the endpoint of its LLM stage."""
    remote = getattr(judge, "second", judge)
    base_url = getattr(remote, "base_url", "") or ""
    return f"{remote.name} {base_url.rstrip('/').lower()}" if base_url else ""


@dataclass(frozen=True, slots=True)
class JudgeFailure:
    """A judge call that gave no verdict (it failed, or the breaker refused it). Never stored as
    a Judgement; ``retry_in`` is how long the breaker asks callers to wait."""

    judge: str
    error: str
    retry_in: float = 0.0
    status: str = JudgementStatus.UNAVAILABLE
    span: str | None = None
    rationale: str = ""
    confidence: str = "low"


def judgement_get(*, claim_text: str, passage_version: PassageVersion, judge: Judge | None = None) -> Judgement | JudgeFailure:
    """The verdict of `judge` on claim vs passage; asked at most once per (claim text, passage
    text, judge, model, prompt version) and stored. A failed call (the verdict carries an
    `error`) is recorded as a JudgeAttempt and returned as a JudgeFailure, never cached, so the
    next verification asks again; while the endpoint's breaker is open no call is made."""
    judge = judge or configured_judge()
    key = {
        "claim_text_hash": claim_hash(claim_text),
        "passage_fingerprint": passage_version.fingerprint,
        "judge": judge.name,
        "model": judge.model or "",
        "prompt_version": judge.prompt_version or "",
    }
    found = Judgement.objects.filter(**key).first()
    if found is not None:
        return found
    endpoint = judge_endpoint(judge)
    if endpoint:
        allowed, wait = judge_breaker_admit(endpoint=endpoint)
        if not allowed:
            # A cascade's built-in stage still answers what it is sure of; only the LLM stage waits.
            first = getattr(judge, "first", None)
            local = first.judge(claim_text, passage_version.text) if first is not None else None
            if local is None or local.confidence == "low" or local.error:
                return JudgeFailure(judge=judge.name, error=f"the judge endpoint is paused after repeated failures (circuit open, retry in {wait:.0f} s)",
                                    retry_in=wait, rationale="circuit open")
            return _store_verdict(key, claim_text, passage_version, local)
    verdict = judge.judge(claim_text, passage_version.text)
    error = getattr(verdict, "error", "")
    if error:
        JudgeAttempt.objects.create(claim_text_hash=key["claim_text_hash"], passage_version=passage_version, judge=judge.name,
                                    model=key["model"], endpoint=endpoint, error=str(error)[:2000])
        wait = judge_breaker_record(endpoint=endpoint, error=str(error)) if endpoint else 0.0
        logger.info("judge.failed", extra={"endpoint": endpoint, "error": error})
        return JudgeFailure(judge=judge.name, error=str(error), retry_in=wait, rationale=str(error))
    if endpoint:
        judge_breaker_record(endpoint=endpoint, error="")
    return _store_verdict(key, claim_text, passage_version, verdict)


def _store_verdict(key: dict[str, str], claim_text: str, passage_version: PassageVersion, verdict: Any) -> Judgement:
    try:
        with transaction.atomic():
            return Judgement.objects.create(
                **key,
                claim_text=claim_text,
                passage_version=passage_version,
                status=verdict.status,
                confidence=getattr(verdict, "confidence", "high") or "high",
                span=verdict.span,
                rationale=verdict.rationale,
                heuristic=verdict.heuristic,
                prompt_tokens=verdict.prompt_tokens or None,
                completion_tokens=verdict.completion_tokens or None,
            )
    except IntegrityError:
        return Judgement.objects.get(**key)  # another worker stored the same question first


# --- the circuit breaker ----------------------------------------------------------------------------


def _breaker(row: JudgeEndpoint) -> circuit.Breaker:
    return circuit.Breaker(state=row.state, consecutive_failures=row.consecutive_failures,
                           opened_count=row.opened_count, retry_at=row.retry_at)


def _store(row: JudgeEndpoint, breaker: circuit.Breaker) -> None:
    row.state = breaker.state
    row.consecutive_failures = breaker.consecutive_failures
    row.opened_count = breaker.opened_count
    row.retry_at = breaker.retry_at


def judge_breaker_admit(*, endpoint: str) -> tuple[bool, float]:
    """May a call go to `endpoint` now? (allowed, seconds to wait). One query when closed."""
    state = JudgeEndpoint.objects.filter(endpoint=endpoint).values_list("state", flat=True).first()
    if state is None or state == CircuitState.CLOSED:
        return True, 0.0
    with transaction.atomic():
        row = JudgeEndpoint.objects.select_for_update().get(endpoint=endpoint)
        allowed, after, wait = circuit.admit(_breaker(row), timezone.now(), trial_seconds=settings.CITECHECK_JUDGE_TIMEOUT + 30)
        if after != _breaker(row):
            _store(row, after)
            row.save(update_fields=["state", "consecutive_failures", "opened_count", "retry_at"])
    if not allowed and row.state == CircuitState.HALF_OPEN:
        wait = min(wait, settings.CITECHECK_JUDGE_BREAKER_OPEN_SECONDS)  # a trial call is in flight: look again soon
    return allowed, wait


def judge_breaker_record(*, endpoint: str, error: str) -> float:
    """Record the outcome of a call to `endpoint`; returns the pause (s) when it is now open."""
    now = timezone.now()
    if not error:
        JudgeEndpoint.objects.filter(endpoint=endpoint).exclude(state=CircuitState.CLOSED, consecutive_failures=0).update(
            state=CircuitState.CLOSED, consecutive_failures=0, opened_count=0, retry_at=None, last_success_at=now)
        return 0.0
    with transaction.atomic():
        row, _ = JudgeEndpoint.objects.select_for_update().get_or_create(endpoint=endpoint)
        after = circuit.after_failure(_breaker(row), now, threshold=settings.CITECHECK_JUDGE_BREAKER_FAILURES,
                                      base=settings.CITECHECK_JUDGE_BREAKER_OPEN_SECONDS,
                                      cap=settings.CITECHECK_JUDGE_BREAKER_MAX_SECONDS)
        opened = after.state == CircuitState.OPEN and row.state != CircuitState.OPEN
        _store(row, after)
        row.last_error = error[:2000]
        row.last_failure_at = now
        row.save()
    if opened:
        logger.warning("judge.circuit_open", extra={"endpoint": endpoint, "retry_at": str(after.retry_at)})
    return max(0.0, (after.retry_at - now).total_seconds()) if after.state == CircuitState.OPEN and after.retry_at else 0.0
