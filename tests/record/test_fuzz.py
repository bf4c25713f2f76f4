"""Hypothesis fuzzing: random byte and structure mutations never crash the verifier, every
error names a code of the fixed list and a pointer into the document, and the fast structural
check agrees with the JSON Schema."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivehundred.record import CODES
from fivehundred.record.schema import full_validator, validate
from fivehundred.record.verify import _verify, parse_json
from tests.record.conftest import EXAMPLES, RECORDS, load_json

SOURCES = [
    load_json(EXAMPLES / "four-players-in-progress-seeded.json"),
    load_json(EXAMPLES / "two-players-with-summary-hands.json"),
    load_json(EXAMPLES / "three-players-forfeit.json"),
    load_json(RECORDS / "four-annotated.json"),
    load_json(RECORDS / "five-in-progress-auction.json"),
]
TEXTS = [json.dumps(s).encode() for s in SOURCES]

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["AH", "10H", "JK", "TH", "7H", "PASS", "MIS", "H", "none", "alone", ""])
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)


def _resolve(document: Any, pointer: str) -> bool:
    if pointer == "":
        return True
    node = document
    for token in pointer[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def _check(data: Any) -> None:
    verdict = _verify(data)
    assert verdict.status in ("complete", "in_progress", "invalid")
    assert verdict.valid == (not verdict.errors) == (verdict.status != "invalid")
    document = parse_json(data)[0] if isinstance(data, bytes) else data
    for error in verdict.errors:
        assert error.code in CODES
        assert error.message
        if error.code != "not_json":
            assert _resolve(document, error.pointer), error
    json.dumps(verdict.to_json("f"))


@FUZZ
@given(
    source=st.sampled_from(TEXTS),
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.integers(0, 3), st.binary(min_size=0, max_size=3)),
        min_size=1,
        max_size=4,
    ),
)
def test_byte_mutations_never_crash(source: bytes, edits: list[tuple[float, int, bytes]]) -> None:
    data = bytearray(source)
    for where, cut, insert in edits:
        at = int(where * len(data))
        data[at : at + cut] = insert
    _check(bytes(data))


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_paths(value, (*prefix, key)))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out.extend(_paths(value, (*prefix, index)))
    return out


@FUZZ
@given(
    index=st.integers(0, len(SOURCES) - 1),
    pick=st.floats(0, 1),
    kind=st.sampled_from(["replace", "delete", "duplicate", "add"]),
    value=json_values,
)
def test_structure_mutations_never_crash(index: int, pick: float, kind: str, value: Any) -> None:
    document = copy.deepcopy(SOURCES[index])
    paths = _paths(document)[1:]
    path = paths[min(int(pick * len(paths)), len(paths) - 1)]
    parent = document
    for token in path[:-1]:
        parent = parent[token]
    last = path[-1]
    if kind == "replace":
        parent[last] = value
    elif kind == "delete":
        del parent[last]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif isinstance(parent, dict):
        parent[f"{last}x"] = value
    else:
        parent.append(value)
    _check(document)
    _check(json.dumps(document).encode())
    # The fast path and the JSON Schema agree on what is well-formed.
    assert (validate(document) == []) == full_validator().is_valid(document)
