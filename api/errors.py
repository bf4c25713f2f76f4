"""The API's one error shape: ``{"errors": [{"pointer", "code", "message"}, ...]}``.

The verifier's errors already have this shape (JSON Pointer into the uploaded record, a code, a
sentence); every other failure (authentication, throttling, bad query parameters, an oversize body)
is expressed the same way so clients need one error reader. For a query parameter the pointer is
``/<name>``; for the request as a whole (authentication, size, content type) it is empty.
"""

from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response


def error(code: str, message: str, *, pointer: str = "") -> dict[str, str]:
    return {"pointer": pointer, "code": code, "message": message}


def error_body(*errors: dict[str, str]) -> dict[str, Any]:
    return {"errors": list(errors)}


def unknown_parameters(request: Request, known: set[str]) -> Response | None:
    """A 400 naming each query parameter that is not in ``known`` (``None`` when all are):
    a misspelt filter must not silently list everything."""
    unknown = sorted(set(request.query_params) - known)
    if not unknown:
        return None
    listed = ", ".join(sorted(known))
    return Response(
        error_body(
            *(
                error(
                    "unknown_parameter",
                    f"Unknown query parameter {name!r}; known: {listed}.",
                    pointer=f"/{name}",
                )
                for name in unknown
            )
        ),
        status=status.HTTP_400_BAD_REQUEST,
    )


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "The request body is too large."


class InvalidUpload(APIException):
    """A malformed upload request (not the record's content, which the verifier judges)."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_upload"
    default_detail = "The upload could not be read."
