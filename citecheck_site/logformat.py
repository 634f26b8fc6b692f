"""Console logging: one line per record, with its structured fields.

`logger.warning("web.database_unavailable", extra={"error": ...})` used to print only the event
name; the fields (the error above all) now follow it as `key=value`. Expected 403s (a person
without the role) are ordinary: one INFO line, no traceback.
"""

from __future__ import annotations

import logging

# Attributes every LogRecord has; anything else came from `extra=`.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime", "taskName"}
# Fields that are objects, not facts for a log line.
_SKIPPED = {"request", "server_time"}


class FieldsFormatter(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802 - logging's name
        line = super().formatMessage(record)
        fields = [f"{key}={value!r}" for key, value in vars(record).items()
                  if key not in _STANDARD and key not in _SKIPPED and not key.startswith("_")]
        return " ".join([line, *fields]) if fields else line


class ExpectedForbiddenFilter(logging.Filter):
    """django.request logs every PermissionDenied as a WARNING with its traceback; a 403 is the
    permission system working, so it becomes one INFO line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
            record.levelno = logging.INFO
            record.levelname = logging.getLevelName(logging.INFO)
        return True
