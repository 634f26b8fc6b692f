"""Every claim and answer state, with its wording, from real answers through the whole path:
submit -> verify on a real RQ worker -> report, in both verification modes."""

from __future__ import annotations

import pytest
from django.test import override_settings

from claims.models import Answer, AnswerState, WordingTemplate
from claims.selectors import answer_verification
from claims.services import answer_submit, wording_templates_seed
from tests.claims.conftest import passage, register_active

pytestmark = pytest.mark.django_db(transaction=True)


def _claims(answer: Answer) -> dict[str, str]:
    answer.refresh_from_db()
    return dict(answer.claims.filter(needs_citation=True).values_list("text", "state"))


def test_knowledge_base_states_and_wording(two_demo_shops, editor, approver, run_jobs):
    (base, _), (other, other_shop) = two_demo_shops
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    delivery = register_active(base + "/delivery", editor, approver, run_jobs, title="Delivery terms")
    warranty = register_active(base + "/warranty", editor, approver, run_jobs, title="Warranty")
    prices = register_active(base + "/prices", editor, approver, run_jobs, title="Price list")
    app = register_active(base + "/requirements", editor, approver, run_jobs, title="App requirements", priority="supplementary")
    other_shop.change()
    prices_b = register_active(other + "/prices", editor, approver, run_jobs, title="Partner price list")
    window, how = passage(returns, "Returns policy > Return window"), passage(returns, "Returns policy > How to return")
    express = passage(delivery, "Delivery terms > Express delivery")
    cover = passage(warranty, "Warranty > What the warranty covers")
    tents, tents_b = passage(prices, "Price list > Tents"), passage(prices_b, "Price list > Tents")
    phones = passage(app, "Technical requirements of the Northwind app > Phones")

    def submit(text: str, ids: list[int], **kwargs: object) -> Answer:
        return answer_submit(actor=editor, raw_response=text, passage_version_ids=ids, **kwargs)  # type: ignore[arg-type]

    supported = submit("You may return any item within 30 days of delivery [1].", [window.pk])
    compound = submit("You may return any item within 30 days of delivery and a gift receipt is included with every parcel [1].", [window.pk])
    free = submit("You may return any item within 30 days of delivery and returns are free worldwide [1][2].", [window.pk, how.pk])
    with override_settings(CITECHECK_CLAIM_SPLITTER="none"):
        whole = submit("You may return any item within 30 days and returns are free worldwide [1].", [window.pk])
    contradicted = submit("Express delivery costs £4.95 [1].", [express.pk])
    conflicting = submit("The Ridge 2 tent costs £149 [1][2].", [tents.pk, tents_b.pk])
    nothing = submit("Shipping to Norway is free [1].", [cover.pk])
    explanation = submit("The Northwind app requires Android 12 or later [1].", [phones.pk])
    run_jobs()

    assert _claims(supported) == {"You may return any item within 30 days of delivery.": "supported"}
    assert supported.state == AnswerState.SUPPORTED
    assert supported.state_wording == "This is confirmed by the approved sources (Returns policy — Return window)."

    assert _claims(compound) == {"You may return any item within 30 days of delivery.": "supported",
                                 "A gift receipt is included with every parcel.": "no_evidence"}
    assert compound.claims.filter(sentence__startswith="You may return any item within 30 days of delivery and").count() == 2
    assert compound.state == AnswerState.PARTLY_SUPPORTED
    assert compound.state_wording == ("The approved sources confirm You may return any item within 30 days of delivery, "
                                      "but I can't confirm A gift receipt is included with every parcel.")
    # "... and free worldwide": each part is judged on its own, never one verdict for the sentence.
    parts = _claims(free)
    assert parts["You may return any item within 30 days of delivery."] == "supported"
    assert parts["Returns are free worldwide."] in ("no_evidence", "contradicted")  # the UK-only page refutes "worldwide"

    assert _claims(whole) == {"You may return any item within 30 days and returns are free worldwide.": "partly_supported"}
    assert whole.state == AnswerState.PARTLY_SUPPORTED
    assert "“You may return any item within 30 days of delivery for a full refund”" in whole.state_wording, "the confirmed part is named"

    assert _claims(contradicted) == {"Express delivery costs £4.95.": "contradicted"}
    assert contradicted.state == AnswerState.CONTRADICTED
    assert contradicted.state_wording == "The approved delivery terms says express delivery costs £9.95 (Delivery terms — Express delivery)."

    assert _claims(conflicting) == {"The Ridge 2 tent costs £149.": "conflicting"}
    assert conflicting.state == AnswerState.CONFLICTING
    assert "Price list — Tents says “The Ridge 2 tent costs £149 and weighs 2.1 kg”" in conflicting.state_wording
    assert "Partner price list — Tents says “The Ridge 2 tent costs £169 and weighs 2.1 kg”" in conflicting.state_wording
    view = answer_verification(answer_id=conflicting.pk)
    assert view is not None and view["claims"][0]["supporting"] and view["claims"][0]["contradicting"], "both sides shown"

    assert _claims(nothing) == {"Shipping to Norway is free.": "no_evidence"}
    assert nothing.state == AnswerState.NO_EVIDENCE
    assert nothing.state_wording == "I can't find the current information about Shipping to Norway in the approved sources."

    assert _claims(explanation) == {"The Northwind app requires Android 12 or later.": "supported"}
    detail = answer_verification(answer_id=explanation.pk)
    assert detail is not None and detail["claims"][0]["explanation_only"] is True and detail["claims"][0]["verified"] is False
    assert detail["card"]["verified"] == 0 and detail["card"]["explanation_only"] == 1
    assert "Only explanatory material covers the Northwind app (App requirements — Phones)" in explanation.state_wording


def test_research_mode_states_and_report(two_demo_shops, client, editor, approver, run_jobs):
    (base, _), (other, _) = two_demo_shops
    a = register_active(base + "/delivery", editor, approver, run_jobs, title="Delivery terms")
    b = register_active(other + "/delivery", editor, approver, run_jobs, title="Courier guide", priority="supplementary")
    ea, eb = passage(a, "Delivery terms > Express delivery"), passage(b, "Delivery terms > Express delivery")
    verified = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1][2].",
                             passage_version_ids=[ea.pk, eb.pk], mode="research")
    single = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1].",
                           passage_version_ids=[ea.pk], mode="research")
    refuted = answer_submit(actor=editor, raw_response="Express delivery costs £4.95 [1].", passage_version_ids=[ea.pk], mode="research")
    unknown = answer_submit(actor=editor, raw_response="Express delivery reaches Norway overnight [1].",
                            passage_version_ids=[ea.pk], mode="research")
    run_jobs()
    assert _claims(verified) == {"Express delivery takes 1 to 2 working days.": "supported"}
    assert verified.state == AnswerState.SUPPORTED and verified.verification_mode == "research"
    assert verified.state_wording.startswith("Independent sources confirm this (")
    card = verified.report["card"]
    assert card["mode"] == "research" and card["verification_rate_display"] == "100%" and len(card["top_sources"]) == 2
    assert "two independent registrable domains" in card["rule"]

    assert _claims(single) == {"Express delivery takes 1 to 2 working days.": "single_source"}
    assert single.state == AnswerState.PARTLY_SUPPORTED
    gaps = single.report["card"]["gaps"]
    assert gaps and "independent source" in gaps[0]["follow_up"] and gaps[0]["queries"]

    # The desk switches the answer to the knowledge-base rule: one approved primary source is enough.
    client.force_login(editor)
    response = client.post("/admin/claims/answer/", {"action": "verify_as_knowledge_base", "_selected_action": [single.pk]})
    assert response.status_code == 302
    run_jobs()
    assert _claims(single) == {"Express delivery takes 1 to 2 working days.": "supported"}
    assert single.verification_mode == "knowledge_base" and single.state == AnswerState.SUPPORTED
    assert single.changes.first().reason == "verification mode research → knowledge_base"

    assert _claims(refuted) == {"Express delivery costs £4.95.": "contradicted"}
    assert refuted.state_wording == "Delivery terms says express delivery costs £9.95 (Delivery terms — Express delivery)."
    assert _claims(unknown) == {"Express delivery reaches Norway overnight.": "no_evidence"}
    assert unknown.state == AnswerState.NO_EVIDENCE
    assert unknown.state_wording == "No source I checked confirms Express delivery; it needs more research."


def test_wording_in_polish_and_lithuanian_and_edited_by_an_editor(demo_shop, client, editor, approver, run_jobs):
    base, _ = demo_shop
    delivery = register_active(base + "/delivery", editor, approver, run_jobs, title="Delivery terms")
    express = passage(delivery, "Delivery terms > Express delivery")
    polish = answer_submit(actor=editor, raw_response="Express delivery costs £4.95 [1].", passage_version_ids=[express.pk], language="pl")
    lithuanian = answer_submit(actor=editor, raw_response="Pristatymas į Norvegiją yra nemokamas [1].", passage_version_ids=[express.pk], language="lt")
    run_jobs()
    polish.refresh_from_db()
    lithuanian.refresh_from_db()
    assert polish.state_wording == "Zatwierdzony dokument „Delivery terms” podaje: Express delivery costs £9.95 (Delivery terms — Express delivery)."
    assert lithuanian.state == AnswerState.NO_EVIDENCE
    assert lithuanian.state_wording == "Patvirtintuose šaltiniuose nerandu dabartinės informacijos apie: Pristatymas į Norvegiją."

    wording_templates_seed()  # transactional tests flush the data migration's rows
    template = WordingTemplate.objects.get(key="no_evidence", language="en", mode="")
    client.force_login(editor)
    url = f"/admin/claims/wordingtemplate/{template.pk}/change/"
    bad = client.post(url, {"text": "Nothing about {topic.__class__}"})
    assert bad.status_code == 200 and "unknown placeholder" in bad.content.decode()
    good = client.post(url, {"text": "Sorry, our approved pages say nothing about {topic}. <b>Ask us</b>."})
    assert good.status_code == 302
    answer = answer_submit(actor=editor, raw_response="The museum café opens at 9 am [1].", passage_version_ids=[express.pk])
    run_jobs()
    answer.refresh_from_db()
    assert answer.state_wording == "Sorry, our approved pages say nothing about the museum café. <b>Ask us</b>."
    page = client.get(f"/admin/claims/answer/{answer.pk}/change/").content.decode()
    assert "&lt;b&gt;Ask us&lt;/b&gt;" in page and "<b>Ask us</b>" not in page, "editor text is shown escaped"
