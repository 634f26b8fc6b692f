"""Errors that services raise for people to read: each says what was refused and why."""

from __future__ import annotations


class ServiceError(Exception):
    """A refused action. `code` is stable for the API; the message is for people."""

    code = "refused"
    http_status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class PermissionRefused(ServiceError):
    code = "permission_denied"
    http_status = 403


class IllegalTransition(ServiceError):
    code = "illegal_transition"
    http_status = 409


class Conflict(ServiceError):
    code = "conflict"
    http_status = 409


class InvalidInput(ServiceError):
    code = "invalid_input"
    http_status = 400


class NotFound(ServiceError):
    code = "not_found"
    http_status = 404


class TooLarge(ServiceError):
    code = "too_large"
    http_status = 413


class IdempotencyKeyReused(ServiceError):
    """The same idempotency key with a different request: the first request stands (Stripe's rule)."""

    code = "idempotency_key_reused"
    http_status = 422
