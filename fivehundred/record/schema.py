"""Structural validation of records against the JSON Schema (``schema.json``).

``schema.json`` is the definition of a well-formed v1 record and is what the errors are computed
from: when something is wrong, ``jsonschema``'s Draft 2020-12 validator produces the errors, and
they are mapped to JSON Pointers at the offending value and sorted into document order.

Validating every record with ``jsonschema`` would cost more than replaying it, so the common case
takes a fast path: hand-written checks that accept exactly a subset of what the schema accepts
(``tests/record/test_schema.py`` checks the two against each other). Only a subtree that fails the
fast check is handed to ``jsonschema``. Arrays that can be huge (seats, hands, actions,
annotations, variations) are walked item by item, so a document with a million bad actions
reports its first errors without validating the rest.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any, Final

from jsonschema import Draft202012Validator, ValidationError

from fivehundred.record.errors import RecordError
from fivehundred.record.pointer import Path, document_position, to_pointer

#: At most this many schema errors are reported for one record.
MAX_SCHEMA_ERRORS: Final = 100
#: Deepest nesting accepted inside extension (``x-``) members.
MAX_DEPTH: Final = 64

RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")
SUITS: Final = frozenset("SCDH")
CARDS: Final = frozenset([r + s for r in RANKS for s in "SCDH"] + ["JK"])
_BIDS: Final = [f"{n}{x}" for n in range(6, 11) for x in ("S", "C", "D", "H", "NT")] + ["MIS"]
CALLS: Final = frozenset(["PASS", "OM", "BM", *_BIDS, *(b + "/SK" for b in _BIDS)])
NOMINATIONS: Final = SUITS | {"none"}
PARTNERS: Final = CARDS | {"alone"}

_TOP_KEYS: Final = frozenset(
    [
        "format",
        "version",
        "rules",
        "generator",
        "event",
        "seats",
        "hands",
        "result",
        "termination",
        "annotations",
    ]
)
_STRING_OPTIONS: Final = frozenset(
    [
        "deck_variant",
        "two_player_mode",
        "three_player_pack",
        "five_player_pack",
        "six_player_teams",
        "misere_rank",
        "all_pass",
        "first_lead",
        "joker_after_all_suits_led",
        "open_misere_expose",
        "defender_trick_points",
    ]
)
_BOOL_OPTIONS: Final = frozenset(
    [
        "allow_misere",
        "allow_open_misere",
        "allow_blind_misere",
        "allow_sans_kitty",
        "misere_requires_seven",
        "open_misere_after_eight",
        "passed_may_reenter",
        "self_raise_after_all_pass",
        "self_raise_reopens",
        "single_round_bidding",
        "joker_prenomination",
        "joker_lead_last_trick_only",
        "misere_joker_compulsion",
        "misere_early_end",
        "slam_bonus",
        "win_requires_contract",
        "back_door_needs_nonnegative_opponent",
    ]
)
_EVENT_KEYS: Final = frozenset(
    ["name", "site", "date", "round", "table", "board", "tournament", "match"]
)
_SEAT_KEYS: Final = frozenset(["name", "id", "kind", "rating"])
_HAND_KEYS: Final = frozenset(["dealer", "deal", "actions", "result"])
_DEAL_KEYS: Final = frozenset(["hands", "kitty", "dead", "seed"])
_RESULT_KEYS: Final = frozenset(["contract", "tricks", "score", "totals"])
_GAME_RESULT_KEYS: Final = frozenset(["scores", "winner", "reason"])
_REASONS: Final = frozenset(["contract", "target", "backdoor", "forfeit", "agreed"])
_TERMINATIONS: Final = frozenset(
    ["timeout", "crash", "illegal_action", "resigned", "abandoned", "adjudicated"]
)
_TERMINATION_KEYS: Final = frozenset(["reason", "seat", "detail"])
_ANNOTATION_KEYS: Final = frozenset(
    ["hand", "action", "glyph", "text", "author", "cards", "variation"]
)
_GLYPHS: Final = frozenset(["!!", "!", "!?", "?!", "?", "??"])


# -- fast checks: each returns True only for values the schema accepts --------------------------


def _cards_ok(value: Any) -> bool:
    if type(value) is not list:
        return False
    for card in value:  # noqa: SIM110 - a plain loop is faster on this hot path
        if type(card) is not str or card not in CARDS:
            return False
    return True


def _ints_ok(value: Any) -> bool:
    if type(value) is not list:
        return False
    for item in value:  # noqa: SIM110 - a plain loop is faster on this hot path
        if type(item) is not int:
            return False
    return True


def action_ok(action: Any) -> bool:
    """Fast check of one action object."""
    if type(action) is not dict or type(action.get("seat")) is not int:
        return False
    size = len(action)
    value = action.get("play")
    if value is not None:
        if type(value) is not str or value not in CARDS:
            return False
        if size == 2:
            return True
        suit = action.get("suit")
        return size == 3 and type(suit) is str and suit in SUITS
    if size != 2:
        return False
    value = action.get("call")
    if value is not None:
        return type(value) is str and value in CALLS
    value = action.get("discard")
    if value is not None:
        return _cards_ok(value)
    value = action.get("nominate")
    if value is not None:
        return type(value) is str and value in NOMINATIONS
    value = action.get("partner")
    if value is not None:
        return type(value) is str and value in PARTNERS
    return False


def _deal_ok(deal: Any) -> bool:
    if type(deal) is not dict or not deal.keys() <= _DEAL_KEYS:
        return False
    hands = deal.get("hands")
    if type(hands) is not list or not _cards_ok(deal.get("kitty")):
        return False
    for hand in hands:
        if not _cards_ok(hand):
            return False
    if "dead" in deal and not _cards_ok(deal["dead"]):
        return False
    return "seed" not in deal or type(deal["seed"]) is str


def _contract_ok(contract: Any) -> bool:
    if contract is None:
        return True
    if type(contract) is not dict or type(contract.get("seat")) is not int:
        return False
    bid = contract.get("bid")
    if type(bid) is not str or bid not in CALLS:
        return False
    if len(contract) == 2:
        return True
    return len(contract) == 3 and type(contract.get("partner")) is int


def _hand_result_ok(result: Any) -> bool:
    return (
        type(result) is dict
        and len(result) == 4
        and result.keys() == _RESULT_KEYS
        and _contract_ok(result["contract"])
        and _ints_ok(result["tricks"])
        and _ints_ok(result["score"])
        and _ints_ok(result["totals"])
    )


def hand_ok(hand: Any, *, with_actions: bool = True) -> bool:
    """Fast check of one hand object (its actions too unless ``with_actions`` is false)."""
    if type(hand) is not dict or type(hand.get("dealer")) is not int:
        return False
    if not hand.keys() <= _HAND_KEYS:
        return False
    if "result" in hand and not _hand_result_ok(hand["result"]):
        return False
    if "deal" in hand:
        actions = hand.get("actions")
        if type(actions) is not list or not _deal_ok(hand["deal"]):
            return False
        if with_actions:
            for action in actions:
                if not action_ok(action):
                    return False
        return True
    return "actions" not in hand and "result" in hand


def _options_ok(options: Any) -> bool:
    if type(options) is not dict:
        return False
    for name, value in options.items():
        if name in _BOOL_OPTIONS:
            if type(value) is not bool:
                return False
        elif name in _STRING_OPTIONS:
            if type(value) is not str:
                return False
        elif name == "defender_points_cap":
            if value is not None and type(value) is not int:
                return False
        elif name in ("target", "lose_at") and type(value) is not int:
            return False
    return True


def _rules_ok(rules: Any) -> bool:
    return (
        type(rules) is dict
        and len(rules) == 3
        and type(rules.get("ruleset")) is str
        and type(rules.get("players")) is int
        and _options_ok(rules.get("options"))
    )


def _strings_ok(value: Any, keys: frozenset[str]) -> bool:
    if type(value) is not dict:
        return False
    return all(key in keys and type(item) is str for key, item in value.items())


def seat_ok(seat: Any) -> bool:
    if type(seat) is not dict or not seat.keys() <= _SEAT_KEYS:
        return False
    if type(seat.get("name")) is not str:
        return False
    if "id" in seat and type(seat["id"]) is not str:
        return False
    if "kind" in seat and seat["kind"] not in ("human", "bot"):
        return False
    return "rating" not in seat or type(seat["rating"]) in (int, float)


def _game_result_ok(result: Any) -> bool:
    if type(result) is not dict or len(result) != 3 or result.keys() != _GAME_RESULT_KEYS:
        return False
    winner = result["winner"]
    if winner is not None and type(winner) is not int and not _ints_ok(winner):
        return False
    reason = result["reason"]
    return _ints_ok(result["scores"]) and type(reason) is str and reason in _REASONS


def _termination_ok(termination: Any) -> bool:
    if type(termination) is not dict or not termination.keys() <= _TERMINATION_KEYS:
        return False
    reason = termination.get("reason")
    if type(reason) is not str or reason not in _TERMINATIONS:
        return False
    if type(termination.get("seat")) is not int:
        return False
    return "detail" not in termination or type(termination["detail"]) is str


def annotation_ok(annotation: Any, *, with_variation: bool = True) -> bool:
    if type(annotation) is not dict or not annotation.keys() <= _ANNOTATION_KEYS:
        return False
    for key in ("hand", "action"):
        if key in annotation and type(annotation[key]) is not int:
            return False
    for key in ("text", "author"):
        if key in annotation and type(annotation[key]) is not str:
            return False
    if "glyph" in annotation:
        glyph = annotation["glyph"]
        if type(glyph) is not str or glyph not in _GLYPHS:
            return False
    if "cards" in annotation and not _cards_ok(annotation["cards"]):
        return False
    if "variation" in annotation:
        variation = annotation["variation"]
        if type(variation) is not list:
            return False
        if with_variation:
            for action in variation:
                if not action_ok(action):
                    return False
    return True


def record_top_ok(record: Any) -> bool:
    """Fast check of everything but the items of seats, hands and annotations."""
    if type(record) is not dict:
        return False
    for key in record:
        if key not in _TOP_KEYS and not key.startswith("x-"):
            return False
    if record.get("format") != "fivehundred-record" or type(record.get("version")) is not int:
        return False
    if not _rules_ok(record.get("rules")):
        return False
    if type(record.get("seats")) is not list or type(record.get("hands")) is not list:
        return False
    if "generator" in record and not _strings_ok(
        record["generator"], frozenset(["name", "version"])
    ):
        return False
    if "event" in record and not _strings_ok(record["event"], _EVENT_KEYS):
        return False
    if "result" in record and not _game_result_ok(record["result"]):
        return False
    if "termination" in record and not _termination_ok(record["termination"]):
        return False
    return "annotations" not in record or type(record["annotations"]) is list


# -- the schema and its validators --------------------------------------------------------------


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of a v1 record, as shipped in ``schema.json``."""
    text = resources.files("fivehundred.record").joinpath("schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def full_validator() -> Draft202012Validator:
    """A validator for the whole schema (used by tests; the verifier validates piecewise)."""
    return Draft202012Validator(schema())


def _validator_for(definition: str | None, *, shallow: tuple[tuple[str, ...], ...] = ()) -> Any:
    """A validator for the record (``definition=None``) or one of its ``$defs``.

    ``shallow`` lists paths inside that schema whose ``items`` are replaced by ``true``: those
    arrays' items are validated one by one by the walker instead.
    """
    document = copy.deepcopy(schema())
    target = document if definition is None else document["$defs"][definition]
    for path in shallow:
        node = target
        for key in path:
            node = node[key]
        node["items"] = True
    if definition is not None:
        document = {
            "$schema": document["$schema"],
            "$defs": document["$defs"],
            "$ref": f"#/$defs/{definition}",
        }
    return Draft202012Validator(document)


@cache
def _validators() -> dict[str, Any]:
    return {
        "record": _validator_for(
            None,
            shallow=(
                ("properties", "seats"),
                ("properties", "hands"),
                ("properties", "annotations"),
            ),
        ),
        "seat": _validator_for("seat"),
        "hand": _validator_for("hand", shallow=(("properties", "actions"),)),
        "action": _validator_for("action"),
        "annotation": _validator_for("annotation", shallow=(("properties", "variation"),)),
    }


# -- turning jsonschema errors into record errors -----------------------------------------------

_TYPE_NAMES: Final = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _short(value: Any) -> str:
    """A short JSON rendering of a value for messages."""
    if isinstance(value, dict | list):
        return _json_type(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_VERBS: Final = ("call", "partner", "discard", "nominate", "play")


def _describe(error: ValidationError) -> str:
    """A sentence for one jsonschema error (the pointer says where)."""
    schema_node = error.schema if isinstance(error.schema, dict) else {}
    instance = error.instance
    keyword = error.validator
    if keyword == "type":
        wanted = error.validator_value
        wanted_list = wanted if isinstance(wanted, list) else [wanted]
        names = [_TYPE_NAMES.get(str(t), str(t)) for t in wanted_list]
        return f"expected {' or '.join(names)}, found {_json_type(instance)}"
    if keyword == "anyOf" and isinstance(instance, dict) and "dealer" in instance:
        return "a hand needs a 'deal' and 'actions' (full hand) or a 'result' (summary hand)"
    if keyword in ("pattern", "anyOf") and "description" in schema_node:
        if isinstance(instance, str):
            return f"{_short(instance)} is not {schema_node['description']}"
        return f"expected {schema_node['description']}, found {_json_type(instance)}"
    if keyword == "const":
        return f"expected {_short(error.validator_value)}, found {_short(instance)}"
    if keyword == "enum":
        allowed = ", ".join(_short(v) for v in error.validator_value)  # type: ignore[union-attr]
        return f"{_short(instance)} is not one of {allowed}"
    if keyword == "required":
        required: list[Any] = list(error.validator_value)  # type: ignore[arg-type]
        missing = [k for k in required if isinstance(instance, dict) and k not in instance]
        return "missing required member " + ", ".join(repr(k) for k in missing)
    if keyword == "dependentRequired":
        if isinstance(instance, dict) and "suit" in instance and "play" not in instance:
            return "'suit' may only accompany a 'play'"
        return "a full hand has both 'deal' and 'actions'; a summary hand has neither"
    if keyword == "oneOf" and isinstance(instance, dict):
        verbs = [v for v in _VERBS if v in instance]
        if not verbs:
            return "an action needs one verb: call, partner, discard, nominate or play"
        return "an action has exactly one verb, found " + ", ".join(verbs)
    if keyword == "anyOf":
        return f"unexpected value {_short(instance)}"
    return error.message if len(error.message) <= 200 else error.message[:197] + "..."


def _flatten(
    error: ValidationError, base: list[str | int]
) -> Iterator[tuple[list[str | int], str]]:
    """(path, message) pairs for one jsonschema error, pointing at the offending value."""
    path = base + list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        node = error.schema if isinstance(error.schema, dict) else {}
        known = node.get("properties", {})
        for key in error.instance:
            if key in known or (node.get("patternProperties") and key.startswith("x-")):
                continue
            if key.startswith("x-"):
                message = (
                    f"unknown member {key!r} (extension keys are allowed at the top level only)"
                )
            else:
                message = f"unknown member {key!r}"
            yield [*path, key], message
        return
    if error.validator == "anyOf" and error.context:
        # Prefer the branch that matched the value's type: its errors point deeper.
        deeper = [e for e in error.context if len(e.relative_path) > 0]
        if deeper:
            for sub in deeper:
                yield from _flatten(sub, base)
            return
        same_level = [
            e for e in error.context if e.validator not in ("type", "const", "enum", "pattern")
        ]
        # Branches that only require members (a full or a summary hand) are explained by the
        # anyOf itself; a branch that failed inside (a contract object) explains itself.
        if same_level and not all(e.validator == "required" for e in error.context):
            for sub in same_level:
                yield from _flatten(sub, base)
            return
    yield path, _describe(error)


def _errors_of(validator: Any, instance: Any, base: list[str | int]) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    try:
        for error in validator.iter_errors(instance):
            found.extend(_flatten(error, base))
            if len(found) >= 10 * MAX_SCHEMA_ERRORS:
                break
    except RecursionError:
        found.append((base, "value nested too deeply to check"))
    return found


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether a JSON value nests deeper than ``limit`` (iterative: safe on any depth)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in node)
    return False


def fast_ok(record: Any, *, actions: bool = True) -> bool:
    """Whether the fast checks alone accept the record (then the schema does too).

    With ``actions=False`` the actions of full hands are not looked at: a caller that replays
    them checks each one as it applies it.
    """
    if not record_top_ok(record):
        return False
    for key, value in record.items():
        if key.startswith("x-") and _depth_exceeds(value, MAX_DEPTH):
            return False
    for seat in record["seats"]:
        if not seat_ok(seat):
            return False
    for hand in record["hands"]:
        if not hand_ok(hand, with_actions=actions):
            return False
    return all(annotation_ok(note) for note in record.get("annotations", ()))


def validate(record: Any, *, actions: bool = True) -> list[RecordError]:
    """Every schema error of a parsed record, in document order (at most MAX_SCHEMA_ERRORS).

    With ``actions=False`` the actions of full hands are not looked at; if anything else is
    wrong, everything is checked.
    """
    if fast_ok(record, actions=actions):
        return []
    found = _collect(record)
    if not found:
        return []
    unique: dict[tuple[str, str], tuple[tuple[int, ...], str, str]] = {}
    for path, message in found:
        pointer = to_pointer(path)
        if (pointer, message) not in unique:
            unique[(pointer, message)] = (document_position(record, path), pointer, message)
    ordered = sorted(unique.values(), key=lambda item: item[0])
    return [RecordError(p, "schema", m) for _, p, m in ordered[:MAX_SCHEMA_ERRORS]]


def _collect(record: Any) -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    if isinstance(record, dict):
        for key, value in record.items():
            if isinstance(key, str) and key.startswith("x-") and _depth_exceeds(value, MAX_DEPTH):
                found.append(([key], f"nested more than {MAX_DEPTH} levels deep"))
    validators = _validators()
    if not record_top_ok(record):
        found.extend(_errors_of(validators["record"], record, []))
    if not isinstance(record, dict):
        return found
    budget = MAX_SCHEMA_ERRORS
    seats = record.get("seats")
    if isinstance(seats, list):
        for index, seat in enumerate(seats):
            if not seat_ok(seat):
                found.extend(_errors_of(validators["seat"], seat, ["seats", index]))
                if len(found) > budget:
                    break
    hands = record.get("hands")
    if isinstance(hands, list):
        count = 0
        for index, hand in enumerate(hands):
            if count > budget:
                break
            if hand_ok(hand):
                continue
            errors = _errors_of(validators["hand"], hand, ["hands", index])
            count += len(errors)
            found.extend(errors)
            actions = hand.get("actions") if isinstance(hand, dict) else None
            if isinstance(actions, list):
                for number, action in enumerate(actions):
                    if not action_ok(action):
                        errors = _errors_of(
                            validators["action"], action, ["hands", index, "actions", number]
                        )
                        count += len(errors)
                        found.extend(errors)
                        if count > budget:
                            break
    annotations = record.get("annotations")
    if isinstance(annotations, list):
        count = 0
        for index, note in enumerate(annotations):
            if count > budget:
                break
            if annotation_ok(note):
                continue
            errors = _errors_of(validators["annotation"], note, ["annotations", index])
            count += len(errors)
            found.extend(errors)
            variation = note.get("variation") if isinstance(note, dict) else None
            if isinstance(variation, list):
                for number, action in enumerate(variation):
                    if not action_ok(action):
                        errors = _errors_of(
                            validators["action"],
                            action,
                            ["annotations", index, "variation", number],
                        )
                        count += len(errors)
                        found.extend(errors)
                        if count > budget:
                            break
    return found
