"""The demo scenario of issue 12, end to end on a real RQ worker: the bot's £149 is contradicted
by the approved £169 (with the correction), the page reverts, v3 is activated and the answer is
supported again without anyone pressing "verify again"; a rollback re-opens the verdict (outdated:
the approved text no longer matches the live page)."""

from __future__ import annotations

import pytest

from claims.models import AnswerState, ClaimState, Judgement, VerificationChange
from claims.selectors import answer_verification
from claims.services import answer_submit
from sources.services import version_rollback
from tests.claims.conftest import activate_new, passage, register_active

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER = ("You may return any item within 30 days of delivery [1]. All tents carry a 24-month warranty [2]. "
          "The Ridge 2 tent costs £149 [3].")


@pytest.mark.slow  # long (a worker or the whole demo): make test-slow, to keep make test short (issue 25)
def test_demo_contradicted_then_supported_after_v3_then_reopened_by_rollback(demo_shop, editor, approver, run_jobs):
    base, shop = demo_shop
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    warranty = register_active(base + "/warranty", editor, approver, run_jobs, title="Warranty")
    prices = register_active(base + "/prices", editor, approver, run_jobs, title="Price list (changes on request)")
    shop.change()  # the tent now costs £169
    v2 = activate_new(prices, approver, run_jobs, editor=editor)
    sent = [passage(returns, "Returns policy > Return window").pk, passage(warranty, "Warranty > What the warranty covers").pk,
            passage(prices, "Price list > Tents").pk]
    answer = answer_submit(actor=editor, raw_response=ANSWER, passage_version_ids=sent, question="Tell me about the Ridge 2 tent")
    one_sentence = answer_submit(actor=editor, passage_version_ids=sent, raw_response=(
        "The Ridge 2 tent costs £149 [3], you may return any item within 30 days of delivery [1] and tents carry a "
        "24-month warranty [2]. Returns are free worldwide [1]."))
    run_jobs()
    parts = {c.text: (c.state, [x.source_number for x in c.citations.all()]) for c in one_sentence.claims.all()}
    worldwide = parts.pop("Returns are free worldwide.")
    assert parts == {"The Ridge 2 tent costs £149.": ("contradicted", [3]),
                     "You may return any item within 30 days of delivery.": ("supported", [1]),
                     "Tents carry a 24-month warranty.": ("supported", [2])}, "each part of the compound sentence keeps its own source"
    assert worldwide[1] == [1] and worldwide[0] in ("no_evidence", "contradicted"), "never backed by the 30-day passage"
    one_sentence.refresh_from_db()
    assert one_sentence.state == AnswerState.CONTRADICTED
    assert one_sentence.state_wording.startswith("The approved price list says the Ridge 2 tent costs £169 (Price list — Tents).")
    answer.refresh_from_db()
    assert answer.verification_mode == "knowledge_base"
    assert answer.state == AnswerState.CONTRADICTED
    assert answer.state_wording == "The approved price list says the Ridge 2 tent costs £169 (Price list — Tents)."
    view = answer_verification(answer_id=answer.pk)
    assert view is not None
    states = {c["text"]: c["state"] for c in view["claims"]}
    assert states == {"You may return any item within 30 days of delivery.": "supported",
                      "All tents carry a 24-month warranty.": "supported", "The Ridge 2 tent costs £149.": "contradicted"}
    [tent] = [c for c in view["claims"] if c["state"] == "contradicted"]
    assert tent["correction"]["span"] == "The Ridge 2 tent costs £169 and weighs 2.1 kg."
    assert tent["correction"]["link_text"] == "Price list — Tents" and tent["correction"]["url"].endswith("/prices#tents")
    card = view["card"]
    assert card["mode"] == "knowledge_base" and card["verified"] == 2 and card["verification_rate_display"] == "67%"
    judged = Judgement.objects.count()

    shop.change()  # the page reverts to £149; the new version waits for review
    activate_new(prices, approver, run_jobs, editor=editor)  # v3 activated: nobody presses "verify again"
    run_jobs()
    answer.refresh_from_db()
    assert answer.state == AnswerState.SUPPORTED, answer.report["claims"]
    assert answer.claims.get(text="The Ridge 2 tent costs £149.").state == ClaimState.SUPPORTED
    assert Judgement.objects.count() == judged + 1, "only the touched claim was judged again (once for both answers)"
    change = VerificationChange.objects.filter(answer=answer, reason__contains="activated").first()
    assert change is not None and change.to_state == AnswerState.SUPPORTED and change.verified_at is not None
    assert answer_verification(answer_id=answer.pk)["changes"][0]["to_state"] == "supported"

    version_rollback(actor=approver, version_id=v2.pk, reason="the price rise was right after all")
    run_jobs()
    answer.refresh_from_db()
    # The approved text is £169 again, but the live page says £149: the verdict is re-opened as
    # outdated (its evidence no longer matches the live page), with the date of the information.
    assert answer.state == AnswerState.OUTDATED, answer.report["claims"]
    tent = answer.claims.get(text="The Ridge 2 tent costs £149.")
    assert tent.state == ClaimState.OUTDATED
    assert "Ridge 2 tent" in answer.state_wording and "dates from 20" in answer.state_wording
    assert VerificationChange.objects.filter(answer=answer, reason__contains="rolled back to", to_state="outdated").exists()
