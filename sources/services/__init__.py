"""Everything that changes sources: one module per stage, re-exported here."""

from sources.services.activation import testresult_waive, version_activate, version_retest, version_rollback, version_test
from sources.services.fetch import canonical_proposal_decide, source_refetch, source_schedule_due_checks
from sources.services.governance import source_update
from sources.services.record import fetch_record, fetch_records_bulk, source_fetch
from sources.services.record import links_check_bulk as links_check
from sources.services.register import fetch_request, source_register, sources_import, sources_register_many
from sources.services.stages import source_transition
from sources.services.versioning import version_extract

__all__ = [
    "canonical_proposal_decide",
    "fetch_record",
    "fetch_records_bulk",
    "fetch_request",
    "links_check",
    "source_fetch",
    "source_refetch",
    "source_register",
    "source_schedule_due_checks",
    "source_transition",
    "source_update",
    "sources_import",
    "sources_register_many",
    "testresult_waive",
    "version_activate",
    "version_extract",
    "version_retest",
    "version_rollback",
    "version_test",
]
