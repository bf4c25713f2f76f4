"""DRF exception handler: every API error is JSON in the shape of ``api.errors``, never HTML."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.errors import PayloadTooLarge, error, error_body

logger = logging.getLogger(__name__)


def _flatten(detail: Any, path: str = "") -> list[tuple[str, str, str]]:
    """Turn DRF's nested error details into (pointer, code, message) triples."""
    if isinstance(detail, dict):
        out: list[tuple[str, str, str]] = []
        for key, value in detail.items():
            sub = path if key in ("non_field_errors", "detail") else f"{path}/{key}"
            out.extend(_flatten(value, sub))
        return out
    if isinstance(detail, list):
        out = []
        for index, value in enumerate(detail):
            # A list of messages belongs to its field; a list of objects is indexed.
            sub = f"{path}/{index}" if isinstance(value, dict | list) else path
            out.extend(_flatten(value, sub))
        return out
    code = getattr(detail, "code", None) or "invalid"
    return [(path, str(code), str(detail))]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Django's own exceptions become API errors first, so that every error below has a detail.
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(str(exc) or "The request could not be read.")
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None:
        # An unexpected exception is a bug; log it with its traceback and still answer in JSON.
        logger.exception("unhandled API error", exc_info=exc)
        return Response(
            error_body(error("server_error", "An unexpected error occurred; it has been logged.")),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )

    assert isinstance(exc, exceptions.APIException)
    triples = _flatten(exc.detail)
    if isinstance(exc, exceptions.ValidationError):
        body = error_body(
            *(
                error(
                    code,
                    f"{pointer.lstrip('/')}: {message}" if pointer else message,
                    pointer=pointer,
                )
                for pointer, code, message in triples
            )
        )
    else:
        default_code = exc.default_code if isinstance(exc.default_code, str) else "error"
        body = error_body(
            *(
                error(code if code != "invalid" else default_code, message)
                for _, code, message in triples
            )
        )
    response.data = body
    return response
