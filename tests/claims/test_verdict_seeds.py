"""The seeds' own examples as fixtures (texts written here from the seeds' descriptions), and
evidence moving under an answer: blocking a passage and lifting the block."""

from __future__ import annotations

import json

import pytest

from citecheck.judges.builtin import BuiltinJudge
from claims.citations import citations_check
from claims.models import AnswerState, ClaimState, Judgement
from claims.selectors import answer_verification
from claims.services import answer_submit, answer_verify, claims_reverify_for_passages
from reviews.services.degraded import block_apply, block_lift
from sources.models import ExtractionStatus, SourceVersion
from sources.services import source_refetch, source_register
from tests.claims.conftest import passage, register_active
from tests.sources.pageserver import page_server

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = "<!doctype html><html lang='en'><head><title>{title}</title></head><body><main><article><h1>{title}</h1>{body}</article></main></body></html>"


def html(title: str, body: str) -> tuple[str, bytes]:
    return "text/html; charset=utf-8", PAGE.format(title=title, body=body).encode()


def test_seed_003_fictional_evidence_table(editor, approver, run_jobs):
    """C1 supported by the verified manual, C2 unsupported (no water-saving figure), R2 unavailable
    (the page could not be fetched), R3 no usable body."""
    with page_server() as site:
        site.pages["/manual"] = html("Aqualine 300 installation manual", "<h2>Installation</h2><p>Before first use, make sure the "
                                     "drip tray is level: check it with a spirit level and adjust the feet.</p><p>Connect the inlet "
                                     "hose to a cold-water tap with a 3/4 inch thread.</p>")
        site.pages["/r2"] = html("Aqualine 300 data sheet", "<h2>Performance</h2><p>The Aqualine 300 treats up to 40 litres of water "
                                 "per hour.</p>")
        site.pages["/r3"] = ("text/html", b"<html><body><nav><a href='/'>Home</a> | <a href='/shop'>Shop</a></nav>"
                             b"<footer>Cookies. Newsletter.</footer></body></html>")
        manual = register_active(site.url("/manual"), editor, approver, run_jobs, title="Installation manual")
        datasheet = register_active(site.url("/r2"), editor, approver, run_jobs, title="Data sheet")
        empty = source_register(actor=editor, url=site.url("/r3"), priority="supplementary")
        run_jobs()
        steps = passage(manual, "Aqualine 300 installation manual > Installation")
        throughput = passage(datasheet, "Aqualine 300 data sheet > Performance")
        del site.pages["/r2"]  # R2: the page can no longer be retrieved
        source_refetch(actor=editor, source_id=datasheet.pk)
        run_jobs()
        answer = answer_submit(
            actor=editor, passage_version_ids=[steps.pk, throughput.pk],
            raw_response="The drip tray must be level before first use [1]. The Aqualine 300 saves 30% of water [1]. "
                         "The Aqualine 300 treats up to 40 litres of water per hour [2].",
        )
        run_jobs()
    answer.refresh_from_db()
    states = dict(answer.claims.values_list("text", "state"))
    assert states["The drip tray must be level before first use."] == ClaimState.SUPPORTED  # C1
    assert states["The Aqualine 300 saves 30% of water."] == ClaimState.NO_EVIDENCE  # C2: not a proof that it is false
    assert states["The Aqualine 300 treats up to 40 litres of water per hour."] == ClaimState.UNAVAILABLE  # R2
    [r2] = [c for c in answer.report["claims"] if c["state"] == "unavailable"]
    assert r2["pending"] == ["the page is missing"]
    assert answer.state == AnswerState.PENDING, "an unchecked claim keeps the answer pending, never no_evidence"
    version = SourceVersion.objects.get(source=empty)
    assert version.extraction_status == ExtractionStatus.EMPTY  # R3: no usable page body, nothing to cite


def test_seed_002_quotes_found_and_not_found():
    sources = json.dumps([
        "pgvector stores each vector as 4 * dimensions + 8 bytes.",
        "HNSW indexes trade recall for speed. hnsw.ef_search is 40 by default; raise it for better recall.",
        "IVFFlat needs the table to be filled before the index is built.",
        "A vector with 384 dimensions takes 1,544 bytes on disk.",
    ])
    answer = json.dumps({"model": "qwen2.5:7b", "message": {"role": "assistant", "content": json.dumps({
        "answer": "Set hnsw.ef_search above 40 for better recall [2]; a vector takes 4 bytes per dimension plus 8 [4].",
        "citations": [{"source": 2, "quote": "hnsw.ef_search is 40 by default"},
                      {"source": 4, "quote": "4 bytes per dimension plus 8"}]})}, "done": True, "prompt_eval_count": 306})
    report = citations_check(sources=sources, answer=answer)
    assert [(c["source"], c["result"]) for c in report["citations"]] == [(2, "exact"), (4, "not_found")]
    assert "Citation #2: the quote is not in source [4]." in report["warnings"]
    # The same answer written as prose with quotes of every style.
    for text, found in [
        ('The default is "hnsw.ef_search is 40 by default" [2].', "exact"),
        ("The default is “HNSW.ef_search  is 40 by default” [2].", "normalized"),
        ("Domyślnie „hnsw.ef_search is 40 by default” [2].", "exact"),
        ("Par défaut « hnsw.ef_search is 40 by default » [2].", "exact"),
        ("既定値は「hnsw.ef_search is 40 by default」です[2]。", "exact"),
        ('A vector takes "4 bytes per dimension plus 8" [4].', "not_found"),
        ("A vector takes „4 bytes per dimension plus 8“ [4].", "not_found"),
        ("All tents are «fully waterproof» [2].", "not_found"),
    ]:
        quotes = citations_check(sources=sources, answer=text)["quotes"]
        assert len(quotes) == 1 and quotes[0]["result"] == found, (text, quotes)


def test_check_page_shows_quote_findings_next_to_the_text(client, superuser):
    client.force_login(superuser)
    page = client.post("/check/", {"sources": "All tents are water-resistant to 2000 mm.\n---\nOur tents are light.",
                                   "answer": 'All tents are "fully waterproof" [1]. They are "light" [2].'}).content.decode()
    assert "fully waterproof" in page and "The quote “fully waterproof” is not in source [1]." in page
    assert "Quotes in the text" in page


def test_quotes_in_a_text_answer_are_stored_with_its_claims(demo_shop, editor, approver, run_jobs):
    base, _ = demo_shop
    warranty = register_active(base + "/warranty", editor, approver, run_jobs, title="Warranty")
    cover = passage(warranty, "Warranty > What the warranty covers")
    answer = answer_submit(actor=editor, passage_version_ids=[cover.pk],
                           raw_response='Tents carry a “24-month warranty” [1]. The warranty covers "accidental damage" [1].')
    run_jobs()
    view = answer_verification(answer_id=answer.pk)
    assert view is not None
    quotes = {c["text"]: c["quotes"] for c in view["claims"]}
    assert quotes["Tents carry a “24-month warranty”."] == [{"source": 1, "quote": "24-month warranty", "result": "exact"}]
    assert quotes['The warranty covers "accidental damage".'] == [{"source": 1, "quote": "accidental damage", "result": "exact"}]


def test_blocking_a_passage_makes_its_claims_unavailable_and_lifting_restores_them(demo_shop, editor, approver, run_jobs):
    base, _ = demo_shop
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    window = passage(returns, "Returns policy > Return window")
    answer = answer_submit(actor=editor, raw_response="You may return any item within 30 days of delivery [1].", passage_version_ids=[window.pk])
    run_jobs()
    answer.refresh_from_db()
    assert answer.state == AnswerState.SUPPORTED
    judged = Judgement.objects.count()
    switch, affected = block_apply(actor=editor, target="passage", passage_version_id=window.pk, reason="wrong return window")
    assert affected == [answer.pk]
    run_jobs()
    answer.refresh_from_db()
    assert answer.claims.get().state == ClaimState.UNAVAILABLE
    assert answer.state == AnswerState.PENDING
    assert "verification is pending (the evidence is blocked)" in answer.state_wording
    block_lift(actor=approver, switch_id=switch.pk, reason="checked: the window is right")
    run_jobs()
    answer.refresh_from_db()
    assert answer.state == AnswerState.SUPPORTED and answer.claims.get().state == ClaimState.SUPPORTED
    assert Judgement.objects.count() == judged, "nothing was judged again: the passage text did not change"
    reasons = [c["reason"] for c in answer_verification(answer_id=answer.pk)["changes"]]
    assert reasons[0].startswith("passage unblocked") and reasons[1].startswith("passage blocked")


def test_seed_004_golden_set_checklist(two_demo_shops, editor, approver, run_jobs):
    (base, _), (other, other_shop) = two_demo_shops
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    prices = register_active(base + "/prices", editor, approver, run_jobs, title="Price list")
    other_shop.change()
    partner = register_active(other + "/prices", editor, approver, run_jobs, title="Partner price list")
    window = passage(returns, "Returns policy > Return window")
    tents, tents_b = passage(prices, "Price list > Tents"), passage(partner, "Price list > Tents")

    # 1. Every essential factual claim cites a source that was really sent.
    check = citations_check(sources=[window.pk], answer="You may return any item within 30 days of delivery [1]. Refunds take 3 days.")
    assert check["uncited_sentences"] == ["Refunds take 3 days."]
    # 2. The cited passage covers the claim and its limits: a wrong condition is caught.
    limits = answer_submit(actor=editor, passage_version_ids=[window.pk],
                           raw_response="Sale items may be returned within 30 days [1].")
    # 3. No answer makes up a URL: unknown links are flagged; links come from the registry only.
    urls = citations_check(sources=[window.pk], answer="Returns are easy, see https://evil.example/returns [1].")
    assert urls["unknown_urls"] == ["https://evil.example/returns"]
    # 5. Contradicting sources never give an invented synthesis: both sides are shown.
    conflict = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £159 [1][2].", passage_version_ids=[tents.pk, tents_b.pk])
    agree = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1][2].", passage_version_ids=[tents.pk, tents_b.pk])
    # 7. The same fact in Lithuanian keeps the same evidence target.
    english = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £169 [1].", passage_version_ids=[tents_b.pk])
    lithuanian = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £169 [1].", passage_version_ids=[tents_b.pk], language="lt")
    run_jobs()
    limits.refresh_from_db()
    assert limits.claims.get().state == ClaimState.CONTRADICTED
    assert "sale items may be returned within 14 days (Returns policy — Return window)" in limits.state_wording
    for answer in (conflict, agree):
        answer.refresh_from_db()
    assert conflict.claims.get().state == ClaimState.CONTRADICTED, "both sources refute £159: no synthesis of a middle price"
    assert agree.state == AnswerState.CONFLICTING
    assert "£149" in agree.state_wording and "£169" in agree.state_wording
    # 6. Links have descriptive text ("Page — section"), never "source 1", and are safe.
    view = answer_verification(answer_id=agree.pk)
    assert view is not None
    sides = view["claims"][0]["supporting"] + view["claims"][0]["contradicting"]
    assert {s["link_text"] for s in sides} == {"Price list — Tents", "Partner price list — Tents"}
    assert all(s["url"].startswith("http://127.0.0.") for s in sides)
    english.refresh_from_db()
    lithuanian.refresh_from_db()
    assert english.state == lithuanian.state == AnswerState.SUPPORTED
    evidence = [answer_verification(answer_id=a.pk)["claims"][0]["evidence"][0]["judged_passage_version"] for a in (english, lithuanian)]
    assert evidence == [tents_b.pk, tents_b.pk]
    assert lithuanian.state_wording.startswith("Tai patvirtina patvirtinti šaltiniai (Partner price list — Tents)")


def test_seed_004_point_4_a_missing_page_gives_the_expected_state(editor, approver, run_jobs):
    with page_server() as site:
        site.pages["/delivery"] = html("Delivery", "<h2>Times</h2><p>Delivery takes 3 working days.</p>")
        source = register_active(site.url("/delivery"), editor, approver, run_jobs, title="Delivery")
        times = passage(source, "Delivery > Times")
        answer = answer_submit(actor=editor, raw_response="Delivery takes 3 working days [1].", passage_version_ids=[times.pk])
        run_jobs()
        answer.refresh_from_db()
        assert answer.state == AnswerState.SUPPORTED
        del site.pages["/delivery"]  # 404
        source_refetch(actor=editor, source_id=source.pk)
        run_jobs()
    answer.refresh_from_db()
    assert answer.claims.get().state == ClaimState.UNAVAILABLE
    assert answer.state == AnswerState.PENDING and "the page is missing" in answer.state_wording


class _MovingEvidenceJudge:
    """A pluggable judge (the Judge protocol) that lets the evidence move while it judges: an
    editor blocks the passage between the judge's answer and the end of the verification."""

    def __init__(self, passage_id: int) -> None:
        self.inner = BuiltinJudge()
        self.name, self.model, self.prompt_version = "builtin", self.inner.model, self.inner.prompt_version
        self.passage_id = passage_id

    def judge(self, claim: str, passage: str):  # type: ignore[no-untyped-def]
        claims_reverify_for_passages(passage_ids=[self.passage_id], reason="the passage changed while judging")
        return self.inner.judge(claim, passage)


def test_evidence_moving_during_a_verification_runs_it_again(demo_shop, editor, approver, run_jobs):
    base, _ = demo_shop
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    window = passage(returns, "Returns policy > Return window")
    answer = answer_submit(actor=editor, raw_response="You may return any item within 30 days of delivery [1].", passage_version_ids=[window.pk])
    verified = answer_verify(answer_id=answer.pk, judge=_MovingEvidenceJudge(window.passage_id))  # type: ignore[arg-type]
    assert verified is not None and verified.needs_reverification
    assert verified.report["retry"]["error"] == "the evidence moved during the verification"
    run_jobs()
    answer.refresh_from_db()
    assert answer.state == AnswerState.SUPPORTED and not answer.needs_reverification
    assert not answer.changes.filter(verified_at__isnull=True).exists()
