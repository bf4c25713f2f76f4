"""Canonical text (RFC 8785) and digest."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from fivehundred.record import canonical_text, digest, verify
from fivehundred.record.canonical import jcs, number
from tests.record.conftest import EXAMPLES, load_json


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (0.1, "0.1"),
        (-1.5, "-1.5"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1e-7, "1e-7"),
        (0.000001, "0.000001"),
        (123456789012345680000.0, "123456789012345680000"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (333333333.3333333, "333333333.3333333"),
        (9007199254740992.0, "9007199254740992"),
        (295147905179352830000.0, "295147905179352830000"),
    ],
)
def test_numbers_as_ecmascript(value: float, text: str) -> None:
    # Expected texts are those of ECMAScript's Number.prototype.toString (RFC 8785, 3.2.2.3).
    assert number(value) == text


def test_rfc8785_sample() -> None:
    # The example of RFC 8785 section 3.2.2 with its published canonical form.
    value = {
        "numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/",
        "literals": [None, True, False],
    }
    expected = (
        '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
        '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    )
    assert jcs(value) == expected
    assert canonical_text(value) == expected


def test_keys_sort_by_utf16_code_units() -> None:
    value = {"\ue000": 1, "\U0001f600": 2, "a": 3, "\u00e9": 4}
    assert jcs(value) == '{"a":3,"\u00e9":4,"\U0001f600":2,"\ue000":1}'
    assert canonical_text(value) == jcs(value)


def test_large_integers_use_double_formatting() -> None:
    assert jcs(2**60) == "1152921504606847000"  # as ECMAScript prints 2 ** 60
    assert jcs(10**22) == "1e+22"
    assert canonical_text({"a": 10**22}) == '{"a":1e+22}'


def test_digest_ignores_layout_key_order_and_annotations() -> None:
    record = load_json(EXAMPLES / "options-and-annotations.json")
    expected = digest(record)
    shuffled = dict(reversed(list(record.items())))
    assert digest(shuffled) == expected
    bare = copy.deepcopy(record)
    del bare["annotations"]
    assert digest(bare) == expected
    assert verify(json.dumps(record, indent=3)).digest == expected
    text = canonical_text(record)
    assert hashlib.sha256(text.encode()).hexdigest() == expected
    assert "annotations" not in text


def test_digest_changes_with_the_game() -> None:
    record: dict[str, Any] = load_json(EXAMPLES / "four-players-complete.json")
    other = copy.deepcopy(record)
    other["seats"][0]["name"] = "Alicia"
    assert digest(other) != digest(record)


def test_integral_floats_are_the_same_value() -> None:
    record = load_json(EXAMPLES / "four-players-complete.json")
    text = json.dumps(record).replace('"version": 1', '"version": 1.0')
    assert verify(text).digest == digest(record)
