"""Canonical text and digest of a record (docs/record-format.md, section 8).

The canonical text is the RFC 8785 (JSON Canonicalization Scheme) serialization of the record
without its ``annotations``; the digest is the lowercase hex SHA-256 of that text.

For the records we meet in practice (integers below 2**53, keys in the Basic Multilingual Plane)
``json.dumps`` with sorted keys and no whitespace already produces exactly the JCS text, and it is
implemented in C; cheap scans spot anything else, which goes through the full JCS serializer
below.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Final

_SAFE_INTEGER: Final = 2**53
# json.dumps prints exactly the JCS text unless the value holds a number with a fraction or an
# exponent, an integer of 16 digits or more (2**53 and up print as doubles), or a character
# beyond U+FFFF (keys sort by UTF-16 code units). Digit runs are found by mapping digits to '0'
# and everything else to ' ' (C speed); a false alarm, such as a long number inside a string,
# only costs the slower exact serializer.
_DIGIT_SHAPE: Final = bytes(ord("0") if chr(b).isdigit() else ord(" ") for b in range(256))
_LONG: Final = b"0" * 16
_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff\ud800-\udfff]")
# A number with a fraction or an exponent, outside strings or (a false alarm) inside one.
_FLOAT: Final = re.compile(r"[:,\[]-?[0-9]+[.eE]")


def _without_annotations(record: Any) -> Any:
    if isinstance(record, dict) and "annotations" in record:
        return {k: v for k, v in record.items() if k != "annotations"}
    return record


def canonical_text(record: Any, *, has_floats: bool | None = None) -> str:
    """The RFC 8785 canonical text of a record, without its ``annotations``.

    ``has_floats`` may say whether the value holds any non-integral number (a parser knows);
    when it is not given the text is scanned for them.
    """
    value = _without_annotations(record)
    fast = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if has_floats or (has_floats is None and _FLOAT.search(fast)):
        return jcs(value)
    if not fast.isascii() and _ASTRAL.search(fast):
        return jcs(value)
    if _LONG in fast.encode("utf-8", "surrogatepass").translate(_DIGIT_SHAPE):
        return jcs(value)
    return fast


def digest(record: Any, *, has_floats: bool | None = None) -> str:
    """Lowercase hex SHA-256 of the canonical text: two records with one digest are one game."""
    text = canonical_text(record, has_floats=has_floats)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
