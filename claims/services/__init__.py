"""Services of the claims app: answers in, judging (cached, failures never cached, circuit
breaker), verification, re-verification when evidence moves, wording templates."""

from claims.services.answers import (
    answer_mode_set,
    answer_submit,
    answer_verify_again,
    answer_verify_request,
    claims_split,
    verification_mode_resolve,
)
from claims.services.judging import (
    JudgeFailure,
    configured_judge,
    judge_breaker_admit,
    judge_breaker_record,
    judge_config,
    judge_endpoint,
    judgement_get,
)
from claims.services.reverify import (
    answers_freshness_sweep,
    claims_reverify_for_activation,
    claims_reverify_for_block,
    claims_reverify_for_passages,
    reverification_flag,
)
from claims.services.verify import answer_verify, evidence_now
from claims.services.wording import wording_template_update, wording_templates_seed

__all__ = [
    "answers_freshness_sweep",
    "JudgeFailure",
    "answer_mode_set",
    "answer_submit",
    "answer_verify",
    "answer_verify_again",
    "answer_verify_request",
    "claims_reverify_for_activation",
    "claims_reverify_for_block",
    "claims_reverify_for_passages",
    "claims_split",
    "configured_judge",
    "evidence_now",
    "judge_breaker_admit",
    "judge_breaker_record",
    "judge_config",
    "judge_endpoint",
    "judgement_get",
    "reverification_flag",
    "verification_mode_resolve",
    "wording_template_update",
    "wording_templates_seed",
]
