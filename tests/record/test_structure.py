"""Structure: not JSON, the schema, the version, the rules; pointers and document order."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from fivehundred.record import RecordFormatError, dumps, loads, verify
from fivehundred.record.pointer import to_pointer
from fivehundred.record.schema import full_validator, schema
from tests.record.conftest import EXAMPLES, load_json

BASE: dict[str, Any] = load_json(EXAMPLES / "four-players-complete.json")


def _with(**changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(BASE)
    record.update(changes)
    return record


def _first(data: Any) -> tuple[str, str]:
    verdict = verify(data)
    assert not verdict.valid
    return verdict.errors[0].code, verdict.errors[0].pointer


@pytest.mark.parametrize(
    "text",
    ["", "{", "nope", '{"a": 1,}', '{"a": NaN}', '{"a": Infinity}', "\ufeff{}", "[1] [2]"],
)
def test_not_json(text: str) -> None:
    assert _first(text) == ("not_json", "")
    assert verify(text).digest is None


def test_not_utf8() -> None:
    assert _first(b'{"format": "\xff"}') == ("not_json", "")


@pytest.mark.parametrize("value", [[], 1, "x", None, True])
def test_not_an_object(value: Any) -> None:
    assert _first(json.dumps(value)) == ("schema", "")


def _action(record: dict[str, Any], obj: dict[str, Any]) -> dict[str, Any]:
    record["hands"][0]["actions"][0] = obj
    return record


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda r: r.pop("seats"), ""),
        (lambda r: r.update(format="fivehundred"), "/format"),
        (lambda r: r.update(version="1"), "/version"),
        (lambda r: r.update(foo=1), "/foo"),
        (lambda r: r["seats"][0].update({"x-rank": 1}), "/seats/0/x-rank"),
        (lambda r: r.update({"a/b~c": 1}), "/a~1b~0c"),
        (lambda r: r["rules"].update(players="4"), "/rules/players"),
        (lambda r: r["rules"]["options"].update(slam_bonus="yes"), "/rules/options/slam_bonus"),
        (lambda r: r["rules"]["options"].update(target="500"), "/rules/options/target"),
        (
            lambda r: r["hands"][0]["deal"]["hands"][0].__setitem__(0, "TH"),
            "/hands/0/deal/hands/0/0",
        ),
        (lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(1, "10h"), "/hands/0/deal/kitty/1"),
        (lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(1, "Jk"), "/hands/0/deal/kitty/1"),
        (lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(1, "1H"), "/hands/0/deal/kitty/1"),
        (lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(1, "AH\n"), "/hands/0/deal/kitty/1"),
        (lambda r: r["hands"][0]["deal"].update(seed=7), "/hands/0/deal/seed"),
        (lambda r: _action(r, {"seat": 1, "call": "5S"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "call": "11H"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "call": "0NT"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "call": "OM/SK"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "call": "BM/SK"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "call": "pass"}), "/hands/0/actions/0/call"),
        (lambda r: _action(r, {"seat": 1, "play": "TH"}), "/hands/0/actions/0/play"),
        (lambda r: _action(r, {"seat": 1, "play": "JK", "suit": "X"}), "/hands/0/actions/0/suit"),
        (lambda r: _action(r, {"seat": 1, "nominate": "hearts"}), "/hands/0/actions/0/nominate"),
        (lambda r: _action(r, {"seat": 1, "partner": "JJ"}), "/hands/0/actions/0/partner"),
        (lambda r: _action(r, {"seat": 1, "discard": ["AH", 3]}), "/hands/0/actions/0/discard/1"),
        (lambda r: _action(r, {"seat": "1", "call": "PASS"}), "/hands/0/actions/0/seat"),
        (lambda r: _action(r, {"seat": True, "call": "PASS"}), "/hands/0/actions/0/seat"),
        (lambda r: _action(r, {"seat": 1, "call": "PASS", "suit": "H"}), "/hands/0/actions/0"),
        (lambda r: _action(r, {"seat": 1, "call": "PASS", "play": "AH"}), "/hands/0/actions/0"),
        (lambda r: _action(r, {"seat": 1}), "/hands/0/actions/0"),
        (lambda r: _action(r, {"seat": 1, "call": "PASS", "note": "x"}), "/hands/0/actions/0/note"),
        (lambda r: r["hands"][0].pop("actions"), "/hands/0"),
        (lambda r: r["hands"].__setitem__(1, {"dealer": 1}), "/hands/1"),
        (lambda r: r["hands"][1]["result"].update(score=[1, "2"]), "/hands/1/result/score/1"),
        (
            lambda r: r["hands"][1]["result"]["contract"].update(bid="7T"),
            "/hands/1/result/contract/bid",
        ),
        (lambda r: r["hands"][1]["result"].update(contract=5), "/hands/1/result/contract"),
        (lambda r: r["result"].update(winner="A"), "/result/winner"),
        (lambda r: r["result"].update(winner=[0, "1"]), "/result/winner/1"),
        (lambda r: r["result"].update(reason="won"), "/result/reason"),
        (lambda r: r.update(termination={"reason": "bored", "seat": 0}), "/termination/reason"),
        (lambda r: r.update(annotations=[{"glyph": "!!!"}]), "/annotations/0/glyph"),
        (lambda r: r.update(annotations=[{"cards": ["ZZ"]}]), "/annotations/0/cards/0"),
        (
            lambda r: r.update(annotations=[{"variation": [{"seat": 0}]}]),
            "/annotations/0/variation/0",
        ),
        (lambda r: r.update(event={"name": 3}), "/event/name"),
        (lambda r: r["seats"][1].update(kind="robot"), "/seats/1/kind"),
        (lambda r: r["seats"].pop(), "/seats"),
    ],
)
def test_schema_errors_point_at_the_offending_value(mutate: Any, pointer: str) -> None:
    record = copy.deepcopy(BASE)
    mutate(record)
    assert _first(json.dumps(record)) == ("schema", pointer)


def test_extension_keys_are_allowed_at_the_top_level() -> None:
    record = _with(**{"x-club": {"deep": [1, {"a": None}]}, "x-": 1})
    assert verify(record).valid


def test_unknown_version_is_rejected_clearly() -> None:
    verdict = verify(_with(version=2))
    assert [(e.code, e.pointer) for e in verdict.errors] == [("unsupported_version", "/version")]
    assert "version 2" in verdict.errors[0].message
    with pytest.raises(RecordFormatError) as caught:
        loads(json.dumps(_with(version=2)))
    assert caught.value.errors[0].code == "unsupported_version"


@pytest.mark.parametrize(
    ("rules", "pointer"),
    [
        ({"ruleset": "australian", "players": 7, "options": {}}, "/rules/players"),
        ({"ruleset": "australian", "players": 1, "options": {}}, "/rules/players"),
        ({"ruleset": "american", "players": 4, "options": {}}, "/rules/ruleset"),
        (
            {"ruleset": "australian", "players": 4, "options": {"jokers": 2}},
            "/rules/options/jokers",
        ),
        (
            {"ruleset": "australian", "players": 4, "options": {"deck_variant": "45"}},
            "/rules/options/deck_variant",
        ),
        (
            {"ruleset": "australian", "players": 4, "options": {"all_pass": "play_no_trumps"}},
            "/rules/options/all_pass",
        ),
        (
            {"ruleset": "australian", "players": 4, "options": {"defender_points_cap": 470}},
            "/rules/options/defender_points_cap",
        ),
    ],
)
def test_bad_rules(rules: dict[str, Any], pointer: str) -> None:
    assert _first(_with(rules=rules)) == ("bad_rules", pointer)


def test_option_named_at_its_default_is_allowed() -> None:
    rules = {"ruleset": "australian", "players": 4, "options": {"slam_bonus": True}}
    assert verify(_with(rules=rules)).valid


def test_schema_errors_come_in_document_order() -> None:
    record = copy.deepcopy(BASE)
    record["result"]["reason"] = "won"
    record["hands"][3]["actions"][2]["call"] = "TH"
    record["rules"]["players"] = "4"
    # 'hands' is written before 'rules' here: its error must come first.
    reordered = {"hands": record["hands"], **{k: v for k, v in record.items() if k != "hands"}}
    verdict = verify(json.dumps(reordered))
    pointers = [e.pointer for e in verdict.errors]
    assert pointers == ["/hands/3/actions/2/call", "/rules/players", "/result/reason"]


def test_schema_document_is_draft_2020_12_and_validates_examples() -> None:
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for path in sorted(EXAMPLES.glob("*.json")):
        document = load_json(path)
        fast = not verify(document).errors or verify(document).errors[0].code != "schema"
        assert full_validator().is_valid(document) == fast, path.name


def test_pointer_escaping() -> None:
    assert to_pointer([]) == ""
    assert to_pointer(["a/b", "m~n", 0, ""]) == "/a~1b/m~0n/0/"


def test_writer_refuses_non_canonical_notation() -> None:
    record = copy.deepcopy(BASE)
    record["hands"][0]["deal"]["kitty"][0] = "TH"
    with pytest.raises(RecordFormatError) as caught:
        dumps(record)
    assert caught.value.errors[0].pointer == "/hands/0/deal/kitty/0"


def test_writer_output_reads_back_identically() -> None:
    text = dumps(BASE)
    assert loads(text) == BASE
    assert json.loads(text) == BASE
    assert text.count("\n") > len(BASE["hands"])  # laid out for people, one action per line


def test_deeply_nested_and_huge_inputs_do_not_crash() -> None:
    assert _first("[" * 100_000 + "]" * 100_000)[0] == "schema"
    deep = json.dumps(_with(**{"x-deep": 0})).replace("0}", "[" * 200 + "]" * 200 + "}")
    assert _first(deep) == ("schema", "/x-deep")
    assert _first('{"version": ' + "9" * 6000 + "}") == ("not_json", "")


def test_python_objects_that_are_not_json() -> None:
    assert _first({"a": {1, 2}}) == ("not_json", "")
    assert _first({"a": float("nan")}) == ("not_json", "")


def test_many_bad_actions_are_reported_boundedly() -> None:
    record = copy.deepcopy(BASE)
    record["hands"][0]["actions"] = [{"seat": 1, "play": "TH"}] * 50_000
    verdict = verify(record)
    assert len(verdict.errors) == 100
    assert verdict.errors[0].pointer == "/hands/0/actions/0/play"
    assert verdict.errors[99].pointer == "/hands/0/actions/99/play"


def test_a_million_actions_stay_linear() -> None:
    record = copy.deepcopy(BASE)
    record["hands"][0]["actions"] += [{"seat": 0, "play": "AH"}] * 1_000_000
    verdict = verify(record)
    assert [(e.code, e.pointer) for e in verdict.errors] == [
        ("extra_action", "/hands/0/actions/45")
    ]


def test_integral_numbers_written_with_a_fraction_are_integers() -> None:
    text = json.dumps(BASE)
    text = text.replace('"dealer": 1,', '"dealer": 1.0,', 1).replace(
        '{"seat": 2, ', '{"seat": 2.0, ', 3
    )
    assert '"seat": 2.0' in text and '"dealer": 1.0' in text
    verdict = verify(text)
    assert verdict.valid, verdict.errors[:2]
    assert verdict.digest == verify(BASE).digest


def test_a_fractional_seat_is_a_schema_error() -> None:
    text = json.dumps(BASE).replace('{"seat": 2, ', '{"seat": 2.5, ', 1)
    assert _first(text)[0] == "schema"


def test_a_malformed_action_after_an_illegal_one_is_reported_first() -> None:
    record = copy.deepcopy(BASE)
    record["hands"][0]["actions"][3]["seat"] = 0  # wrong seat: replay stops here
    record["hands"][4]["actions"][7] = {"seat": 1, "play": "ZZ"}  # never replayed
    assert _first(json.dumps(record)) == ("schema", "/hands/4/actions/7/play")


def test_malformed_action_in_an_annotated_hand() -> None:
    record = copy.deepcopy(BASE)
    record["annotations"] = [{"hand": 0, "action": 1, "variation": [{"seat": 2, "call": "PASS"}]}]
    record["hands"][0]["actions"][10] = {"seat": 1, "partner": "1 0H"}
    assert _first(json.dumps(record)) == ("schema", "/hands/0/actions/10/partner")


def test_seats_for_another_player_count_is_a_schema_error_without_digest() -> None:
    record = copy.deepcopy(BASE)
    record["seats"].append({"name": "Extra"})
    verdict = verify(record)
    assert [(e.code, e.pointer) for e in verdict.errors] == [("schema", "/seats")]
    assert verdict.digest is None


def test_every_hand_is_checked_after_a_malformed_one() -> None:
    record = copy.deepcopy(BASE)
    record["hands"][0]["actions"] = []
    record["hands"][0]["note"] = "unknown member"
    last = len(record["hands"][1]["actions"]) - 1
    record["hands"][1]["actions"][last]["play"] = "TH"
    pointers = [e.pointer for e in verify(record).errors]
    assert pointers == ["/hands/0/note", f"/hands/1/actions/{last}/play"]
