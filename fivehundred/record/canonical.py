"""Canonical text and digest of a record (docs/record-format.md, section 8).

The canonical text is the RFC 8785 (JSON Canonicalization Scheme) serialization of the record
without its ``annotations``; the digest is the lowercase hex SHA-256 of that text.

For the records we meet in practice (integers below 2**53, no fractions, keys in the Basic
Multilingual Plane) orjson's compact output with sorted keys is exactly the JCS text, and it is
fast; cheap scans spot anything else, which goes through the full JCS serializer below.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Final

import orjson

_SAFE_INTEGER: Final = 2**53
_DIGITS: Final = b"0123456789"
# Shapes of the compact serialization, computed at C speed with bytes.translate:
# - digits to '0', all else to ' ': a run of 16 digits may be an integer of 2**53 or more,
#   which RFC 8785 prints as a double;
# - digits deleted, ':' ',' '[' to '[', '-' kept, '.' 'e' 'E' to '.', all else to 'a': "[." or
#   "[-." is a number with a fraction or an exponent (or, a harmless false alarm, such text
#   inside a string).
_DIGIT_SHAPE: Final = bytes(ord("0") if b in _DIGITS else ord(" ") for b in range(256))
_NUMBER_SHAPE: Final = bytes(
    ord("[")
    if b in b":,["
    else ord("-")
    if b == ord("-")
    else ord(".")
    if b in b".eE"
    else ord("a")
    for b in range(256)
)
_LONG: Final = b"0" * 16
_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff\ud800-\udfff]")


def _without_annotations(record: Any) -> Any:
    if isinstance(record, dict) and "annotations" in record:
        return {k: v for k, v in record.items() if k != "annotations"}
    return record


def canonical_text(record: Any) -> str:
    """The RFC 8785 canonical text of a record, without its ``annotations``."""
    return canonical_bytes(record).decode("utf-8")


def canonical_bytes(record: Any) -> bytes:
    """The canonical text as UTF-8 bytes (what the digest hashes)."""
    value = _without_annotations(record)
    try:
        # orjson writes sorted keys (code point order), no whitespace and the same string
        # escapes as RFC 8785; only numbers and UTF-16 key order can differ (checked below).
        fast = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):  # huge integers, lone surrogates
        return jcs(value).encode("utf-8")
    if not fast.isascii() and _ASTRAL.search(fast.decode("utf-8")):
        return jcs(value).encode("utf-8")
    shape = fast.translate(_NUMBER_SHAPE, _DIGITS)
    if b"[." in shape or b"[-." in shape or _LONG in fast.translate(_DIGIT_SHAPE):
        return jcs(value).encode("utf-8")
    return fast


def digest(record: Any) -> str:
    """Lowercase hex SHA-256 of the canonical text: two records with one digest are one game."""
    return hashlib.sha256(canonical_bytes(record)).hexdigest()


def jcs(value: Any) -> str:
    """RFC 8785 serialization of a JSON value (dict, list, str, int, float, bool, None)."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def _write(value: Any, out: list[str]) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, int):
        out.append(str(value) if -_SAFE_INTEGER < value < _SAFE_INTEGER else number(float(value)))
    elif isinstance(value, float):
        out.append(number(value))
    elif isinstance(value, list | tuple):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for index, key in enumerate(sorted(value, key=lambda k: k.encode("utf-16-be"))):
            if index:
                out.append(",")
            out.append(_string(key))
            out.append(":")
            _write(value[key], out)
        out.append("}")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def _string(text: str) -> str:
    # json.dumps escapes exactly what RFC 8785 escapes: '"', '\\', the short forms \b \t \n \f \r
    # and other controls as lowercase \u00xx; everything else is written as is.
    return json.dumps(text, ensure_ascii=False)


def number(value: float) -> str:
    """ECMAScript Number-to-String of a double, as RFC 8785 requires."""
    if not math.isfinite(value):
        raise ValueError("NaN and infinities are not JSON numbers")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest(abs(value))
    k = len(digits)
    n = exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
        body = mantissa + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + body


def _shortest(value: float) -> tuple[str, int]:
    """Shortest round-trip digits of a positive double and their exponent: value = d * 10**e."""
    text = repr(value)
    if "e" in text:
        mantissa, exp_text = text.split("e")
        exponent = int(exp_text)
    else:
        mantissa, exponent = text, 0
    if "." in mantissa:
        whole, fraction = mantissa.split(".")
    else:
        whole, fraction = mantissa, ""
    if fraction == "0":
        fraction = ""
    digits = (whole + fraction).lstrip("0")
    exponent -= len(fraction)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    return stripped or "0", exponent
