"""Reading an upload's bytes: size limit, content type, and the multipart form's one file.

The record's bytes go to the verifier untouched, so a malformed document is reported by the
verifier (code ``not_json``, with where it failed) like any other record error.
"""

from __future__ import annotations

from django.conf import settings
from django.http.multipartparser import MultiPartParserError
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.request import Request

from api.errors import InvalidUpload, PayloadTooLarge

JSON_TYPES = ("application/json",)
MULTIPART = "multipart/form-data"
FILE_FIELD = "file"


def _limit() -> int:
    return int(settings.API_UPLOAD_MAX_BYTES)


def _too_large(size: int | None = None) -> PayloadTooLarge:
    limit = _limit()
    shown = f" ({size} bytes)" if size is not None else ""
    return PayloadTooLarge(f"The record{shown} is larger than the limit of {limit} bytes.")


def upload_bytes(request: Request) -> bytes:
    """The uploaded record's bytes, or an API error saying what is wrong with the request."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise InvalidUpload("The Content-Length header is not a number.") from None
    # Refuse before reading: a client that says it sends too much is not worth reading.
    if length > _limit() + (64 * 1024 if request.content_type.startswith(MULTIPART) else 0):
        raise _too_large(length)

    media_type = request.content_type.split(";", 1)[0].strip().lower()
    if media_type in JSON_TYPES or media_type.endswith("+json"):
        body = request._request.body
        if len(body) > _limit():
            raise _too_large(len(body))
        return body
    if media_type == MULTIPART:
        return _multipart_file(request)
    raise UnsupportedMediaType(
        media_type or "(none)",
        detail=(
            f"Unsupported content type {media_type or '(none)'!r}; send the record as "
            f"application/json, or as a file named {FILE_FIELD!r} in multipart/form-data."
        ),
    )


def _multipart_file(request: Request) -> bytes:
    django_request = request._request
    try:
        files, fields = django_request.FILES, django_request.POST
    except MultiPartParserError as exc:
        raise InvalidUpload(f"The multipart body could not be read: {exc}") from None
    unknown = sorted({*files.keys(), *fields.keys()} - {FILE_FIELD})
    if unknown:
        raise InvalidUpload(
            f"Unknown form fields: {', '.join(unknown)}; the only field is {FILE_FIELD!r}."
        )
    uploaded = files.getlist(FILE_FIELD)
    if len(uploaded) != 1:
        raise InvalidUpload(
            f"Send exactly one file in the form field {FILE_FIELD!r} (got {len(uploaded)})."
        )
    upload = uploaded[0]
    if upload.size is not None and upload.size > _limit():
        raise _too_large(upload.size)
    data = upload.read(_limit() + 1)
    if len(data) > _limit():
        raise _too_large()
    return bytes(data)
