"""Request and response models of the API. Requests forbid unknown fields and never coerce
types (strict): `"1"` is not an id, `1.5` is not an id, `null` is not a list."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from citecheck.urlnorm import registrable_domain

MAX_ID = 2**63 - 1


def _encodable(value: str) -> str:
    if "\x00" in value:
        raise ValueError("text contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError("text contains a lone surrogate (not valid Unicode)") from exc
    return value


def _domain(value: str) -> str:
    if not value:
        return value
    try:
        registrable_domain(value.strip())
    except (UnicodeError, ValueError) as exc:
        raise ValueError("not a domain name") from exc
    return value


Id = Annotated[int, Field(strict=True, ge=1, le=MAX_ID)]


def Text(max_length: int) -> Any:  # noqa: N802 - reads as a type
    return Annotated[str, Field(strict=True, max_length=max_length), AfterValidator(_encodable)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorDetail(BaseModel):
    code: str
    message: str
    field: str | None


class ErrorOut(BaseModel):
    error: ErrorDetail


# --- passages -----------------------------------------------------------------------------------


class PassageOut(BaseModel):
    type: Literal["passage"]
    passage_version_id: int = Field(description="Immutable text: cite this id.")
    passage_id: int = Field(description="Stable across versions of the passage.")
    source_id: int
    source_version_id: int | None
    version_number: int | None = Field(description="Number of the source version that carries this text.")
    url: str | None = Field(description="Verified target URL with #anchor or #:~:text= fragment; null when no safe link.")
    page_title: str
    section_heading: str
    heading_path: str
    link_text: str = Field(description='Descriptive link text, "Page title — section".')
    link_html: str | None = Field(description='Escaped <a> with rel="noopener noreferrer nofollow"; null when links to the domain are not allowed.')
    text: str
    fingerprint: str
    fetched_at: str | None
    approval_state: str
    priority: str
    language: str
    evidence_status: Literal["ok", "temporarily_unverified"]


class TombstoneOut(BaseModel):
    type: Literal["tombstone"]
    passage_version_id: int
    passage_id: int | None
    reason: Literal["blocked", "removed_from_page", "superseded", "source_dead", "source_suspended", "primary_only", "deleted"]
    replacement_passage_version_id: int | None


class PassagePage(BaseModel):
    items: list[PassageOut | TombstoneOut]
    next_cursor: str | None = Field(description="Pass as `cursor` (full export) or `changed_since` (feed) for the next page; null at the end.")
    sync_cursor: str = Field(description="Where the change feed stood: keep it and pass it as `changed_since` next time.")
    as_of: str | None = Field(None, description="With `as_of`: the moment this export replays (ISO 8601); absent for the live export.")


# --- answers ------------------------------------------------------------------------------------


class AnswerIn(Strict):
    answer: Annotated[str, Field(strict=True, min_length=1), AfterValidator(_encodable)] | dict[str, Any] = Field(
        description="The model's raw response: text, or the Ollama /api/chat or OpenAI-compatible JSON (as a string or an object)."
    )
    passage_version_ids: list[Id] = Field(description="The passage versions sent to the model, in order: [n] is the n-th.")
    question: Text(20000) = ""  # type: ignore[valid-type]
    language: Text(16) = "en"  # type: ignore[valid-type]
    model: Text(200) = ""  # type: ignore[valid-type]
    mode: Literal["knowledge_base", "research"] | None = Field(
        None, description="Verification mode: knowledge_base (one approved primary source) or research (two independent domains); default: the deployment's."
    )


class CitedPassage(BaseModel):
    number: int
    passage_version_id: int
    state: str = Field(description="active, blocked, changed, outdated, unverified or missing")


class AnswerCreated(BaseModel):
    answer_id: int
    url: str
    state: str
    citation_check: dict[str, Any] = Field(description="The mechanical citation check (numbers and quotes vs the sent passages).")
    passages: list[CitedPassage]
    blocked_passage_version_ids: list[int]
    idempotent_replay: bool
    work: dict[str, Any] | None = Field(None, description="The state of its verification request (queued / delayed / running / done / failed) and a message; "
                                        "\"delayed\" says the job queue is not reachable and verification will run when it is back.")


class SafeCitation(BaseModel):
    passage_version_id: int
    passage_id: int
    source_id: int
    url: str | None
    link_text: str
    link_html: str | None
    state: str


class AnswerOut(BaseModel):
    answer_id: int
    state: str
    wording: str
    verified_at: str | None
    needs_reverification: bool
    claims: list[dict[str, Any]]
    report_card: dict[str, Any]
    gaps: list[dict[str, Any]]
    cited_text: list[str]
    bibliography: list[dict[str, Any]]
    citations: list[SafeCitation]
    trace_url: str
    work: dict[str, Any] | None = Field(None, description="The state of its latest verification request, as in POST /answers.")


# --- check-citations ----------------------------------------------------------------------------


class CheckCitationsIn(Strict):
    sources: Annotated[str, AfterValidator(_encodable)] | list[Any] = Field(
        description="Text, a JSON array of sources, or passage-version ids (registry mode: needs a token with read_evidence or a Viewer session)."
    )
    answer: Annotated[str, Field(min_length=1), AfterValidator(_encodable)]


# --- sources and blocks -------------------------------------------------------------------------


class SourceIn(Strict):
    url: Text(2048)  # type: ignore[valid-type]
    title: Text(500) = ""  # type: ignore[valid-type]
    document_type: Text(20) = ""  # type: ignore[valid-type]
    language: Text(16) = ""  # type: ignore[valid-type]
    owner: Text(200) = ""  # type: ignore[valid-type]
    priority: Text(20) = ""  # type: ignore[valid-type]
    risk_level: Text(10) = ""  # type: ignore[valid-type]


class SourcesBulkIn(Strict):
    sources: list[SourceIn] = Field(min_length=1)


class SourceOut(BaseModel):
    source_id: int
    url: str
    title: str
    domain: str
    stage: str
    link_state: str
    evidence_status: str
    live_page_changed: bool
    is_blocked: bool
    priority: str
    risk_level: str
    versions: list[dict[str, Any]]
    fetches: list[dict[str, Any]]
    stages: list[dict[str, Any]]
    work: dict[str, Any] | None = None


class BulkRow(BaseModel):
    row: int
    ok: bool
    source_id: int | None
    error: ErrorDetail | None


class BulkOut(BaseModel):
    created: int
    failed: int
    rows: list[BulkRow]


class Queued(BaseModel):
    queued: bool
    source_id: int
    work: dict[str, Any] | None = None


class ActivateIn(Strict):
    reason: Text(2000) = ""  # type: ignore[valid-type]
    emergency_override: bool = Field(False, description="A superuser's audited override of the four-eyes rule.")


class VersionOut(BaseModel):
    source_version_id: int
    is_active: bool


class BlockIn(Strict):
    target: Literal["source", "domain", "passage", "passage_version"]
    reason: Annotated[str, Field(strict=True, min_length=1, max_length=2000), AfterValidator(_encodable)]
    source_id: Id | None = None
    domain: Annotated[str, Field(strict=True, max_length=253), AfterValidator(_encodable), AfterValidator(_domain)] = ""
    passage_id: Id | None = None
    passage_version_id: Id | None = None


class LiftIn(Strict):
    reason: Annotated[str, Field(strict=True, min_length=1, max_length=2000), AfterValidator(_encodable)]


class BlockOut(BaseModel):
    block_id: int
    target: str
    source_id: int | None
    domain: str
    passage_id: int | None
    reason: str
    blocked_at: str
    lifted_at: str | None
    affected_answers: list[int] | None = None
