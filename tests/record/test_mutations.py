"""Corrupted records: each is rejected with the right code at the right pointer (first error)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from fivehundred.engine import Play
from fivehundred.record import replay, verify
from tests.record.conftest import EXAMPLES, RECORDS, load_json

Record = dict[str, Any]


def _base(name: str = "four-players-complete") -> Record:
    return copy.deepcopy(load_json(EXAMPLES / f"{name}.json"))


def _golden(name: str) -> Record:
    return copy.deepcopy(load_json(RECORDS / f"{name}.json"))


def _state_before(record: Record, hand: int, action: int) -> Any:
    """The engine state of hand ``hand`` just before its action ``action``."""
    probe = copy.deepcopy(record)
    probe["hands"] = probe["hands"][: hand + 1]
    probe["hands"][hand]["actions"] = probe["hands"][hand]["actions"][:action]
    probe["hands"][hand].pop("result", None)
    probe.pop("result", None)
    probe.pop("annotations", None)
    state = replay(probe).hand
    assert state is not None
    return state


def _first_follow(record: Record, hand: int, *, with_choice: bool) -> int:
    """Index of the first play that follows a lead where the seat holds a card it may not play."""
    actions = record["hands"][hand]["actions"]
    for j, action in enumerate(actions):
        if "play" not in action:
            continue
        state = _state_before(record, hand, j)
        if not state.current_trick:
            continue
        legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
        held = set(state.hand_of(state.to_act))
        if not with_choice or held - legal:
            return j
    raise AssertionError("no such play")


# -- mutations: each returns the code and pointer of the first error it must cause -------------


def not_following(r: Record) -> tuple[str, str]:
    j = _first_follow(r, 0, with_choice=True)
    state = _state_before(r, 0, j)
    legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
    bad = sorted(set(state.hand_of(state.to_act)) - legal)[0]
    r["hands"][0]["actions"][j]["play"] = str(bad)
    return "illegal_action", f"/hands/0/actions/{j}"


def card_not_held(r: Record) -> tuple[str, str]:
    j = next(j for j, a in enumerate(r["hands"][1]["actions"]) if "play" in a)
    state = _state_before(r, 1, j)
    held = set(state.hand_of(state.to_act))
    other = next(c for c in state.rules.pack if c not in held)
    r["hands"][1]["actions"][j]["play"] = str(other)
    return "illegal_action", f"/hands/1/actions/{j}"


def wrong_seat(r: Record) -> tuple[str, str]:
    action = r["hands"][2]["actions"][5]
    action["seat"] = (action["seat"] + 1) % 4
    return "wrong_seat", "/hands/2/actions/5"


def seat_out_of_range(r: Record) -> tuple[str, str]:
    r["hands"][0]["actions"][0]["seat"] = 9
    return "wrong_seat", "/hands/0/actions/0"


def bid_too_low(r: Record) -> tuple[str, str]:
    # Hand 0: seat 1 bids 6H after passes; a second bid below it is illegal.
    actions = r["hands"][0]["actions"]
    j = next(j for j, a in enumerate(actions) if "call" in a and a["call"] != "PASS")
    nxt = j + 1
    actions[nxt] = {"seat": actions[nxt]["seat"], "call": "6S"}
    return "illegal_action", f"/hands/0/actions/{nxt}"


def sans_kitty_not_allowed(r: Record) -> tuple[str, str]:
    first = r["hands"][0]["actions"][0]
    first["call"] = "7H/SK"
    first.pop("play", None)
    return "illegal_action", "/hands/0/actions/0"


def blind_misere_not_allowed(r: Record) -> tuple[str, str]:
    r["hands"][0]["actions"][0]["call"] = "BM"
    return "illegal_action", "/hands/0/actions/0"


def suit_on_ordinary_play(r: Record) -> tuple[str, str]:
    j = next(j for j, a in enumerate(r["hands"][0]["actions"]) if "play" in a)
    r["hands"][0]["actions"][j]["suit"] = "H"
    return "illegal_action", f"/hands/0/actions/{j}"


def discard_instead_of_play(r: Record) -> tuple[str, str]:
    j = next(j for j, a in enumerate(r["hands"][0]["actions"]) if "play" in a)
    seat = r["hands"][0]["actions"][j]["seat"]
    r["hands"][0]["actions"][j] = {"seat": seat, "discard": ["AH", "KH", "QH"]}
    return "illegal_action", f"/hands/0/actions/{j}"


def extra_action(r: Record) -> tuple[str, str]:
    actions = r["hands"][0]["actions"]
    actions.append({"seat": 0, "play": "AH"})
    return "extra_action", f"/hands/0/actions/{len(actions) - 1}"


def wrong_score(r: Record) -> tuple[str, str]:
    r["hands"][3]["result"]["score"][0] += 10
    return "result_mismatch", "/hands/3/result/score"


def wrong_tricks(r: Record) -> tuple[str, str]:
    tricks = r["hands"][4]["result"]["tricks"]
    tricks[0], tricks[1] = tricks[0] + 1, tricks[1] - 1
    return "result_mismatch", "/hands/4/result/tricks"


def wrong_contract(r: Record) -> tuple[str, str]:
    r["hands"][2]["result"]["contract"]["bid"] = "7D"
    return "result_mismatch", "/hands/2/result/contract"


def contract_on_thrown_in_hand(r: Record) -> tuple[str, str]:
    r["hands"][5]["result"]["contract"] = {"seat": 1, "bid": "6S"}
    return "result_mismatch", "/hands/5/result/contract"


def wrong_totals(r: Record) -> tuple[str, str]:
    r["hands"][6]["result"]["totals"][1] -= 10
    return "totals_mismatch", "/hands/6/result/totals"


def missing_hand_result(r: Record) -> tuple[str, str]:
    del r["hands"][1]["result"]
    return "result_mismatch", "/hands/1"


def result_on_unfinished_hand(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:3]
    r["hands"][2]["actions"] = r["hands"][2]["actions"][:10]
    del r["result"]
    return "result_mismatch", "/hands/2/result"


def hand_not_over(r: Record) -> tuple[str, str]:
    r["hands"][1]["actions"] = r["hands"][1]["actions"][:20]
    del r["hands"][1]["result"]
    return "hand_not_over", "/hands/1"


def hand_after_the_end(r: Record) -> tuple[str, str]:
    extra = copy.deepcopy(r["hands"][0])
    extra["dealer"] = 1
    r["hands"].append(extra)
    return "game_over", f"/hands/{len(r['hands']) - 1}"


def wrong_dealer(r: Record) -> tuple[str, str]:
    r["hands"][4]["dealer"] = 2
    return "dealer_mismatch", "/hands/4/dealer"


def first_dealer_out_of_range(r: Record) -> tuple[str, str]:
    r["hands"][0]["dealer"] = 4
    return "dealer_mismatch", "/hands/0/dealer"


def card_not_in_pack(r: Record) -> tuple[str, str]:
    r["hands"][0]["deal"]["hands"][1][3] = "4S"
    return "bad_deal", "/hands/0/deal/hands/1/3"


def eleven_in_four_players(r: Record) -> tuple[str, str]:
    r["hands"][2]["deal"]["kitty"][2] = "11H"
    return "bad_deal", "/hands/2/deal/kitty/2"


def duplicate_card(r: Record) -> tuple[str, str]:
    deal = r["hands"][0]["deal"]
    deal["hands"][2][5] = deal["hands"][0][0]
    return "bad_deal", "/hands/0/deal/hands/2/5"


def duplicate_in_kitty(r: Record) -> tuple[str, str]:
    deal = r["hands"][1]["deal"]
    deal["kitty"][1] = deal["hands"][3][9]
    return "bad_deal", "/hands/1/deal/kitty/1"


def missing_card(r: Record) -> tuple[str, str]:
    r["hands"][0]["deal"]["hands"][2].pop()
    return "bad_deal", "/hands/0/deal"


def missing_hand(r: Record) -> tuple[str, str]:
    r["hands"][0]["deal"]["hands"].pop()
    return "bad_deal", "/hands/0/deal"


def dead_hand_with_four(r: Record) -> tuple[str, str]:
    r["hands"][0]["deal"]["dead"] = []
    return "bad_deal", "/hands/0/deal"


def game_scores(r: Record) -> tuple[str, str]:
    r["result"]["scores"][0] += 10
    return "result_mismatch", "/result/scores"


def game_winner(r: Record) -> tuple[str, str]:
    r["result"]["winner"] = 0
    return "result_mismatch", "/result/winner"


def game_reason(r: Record) -> tuple[str, str]:
    r["result"]["reason"] = "contract"
    return "result_mismatch", "/result/reason"


def game_result_missing(r: Record) -> tuple[str, str]:
    del r["result"]
    return "result_mismatch", ""


def game_result_too_early(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:4]
    return "result_mismatch", "/result"


def termination_seat_missing(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:3]
    r["hands"][2]["actions"] = r["hands"][2]["actions"][:12]
    del r["hands"][2]["result"]
    r["termination"] = {"reason": "timeout", "seat": 4}
    r["result"] = {"scores": [80, 120], "winner": 1, "reason": "forfeit"}
    return "bad_termination", "/termination/seat"


def termination_not_to_act(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:3]
    r["hands"][2]["actions"] = r["hands"][2]["actions"][:12]
    del r["hands"][2]["result"]
    to_act = _state_before(r, 2, 12).to_act
    seat = (to_act + 1) % 4
    r["termination"] = {"reason": "crash", "seat": seat}
    # The result is right for that seat's forfeit: the game result is checked first.
    r["result"] = {"scores": [80, 120], "winner": 1 - seat % 2, "reason": "forfeit"}
    return "bad_termination", "/termination/seat"


def termination_without_result(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:2]
    del r["result"]
    r["termination"] = {"reason": "abandoned", "seat": 0}
    return "result_mismatch", ""


def forfeit_wrong_winner(r: Record) -> tuple[str, str]:
    r["hands"] = r["hands"][:2]
    r["termination"] = {"reason": "resigned", "seat": 1}
    r["result"] = {"scores": [80, 120], "winner": 1, "reason": "forfeit"}
    return "result_mismatch", "/result/winner"


def annotation_hand_missing(r: Record) -> tuple[str, str]:
    r["annotations"] = [{"text": "fine"}, {"hand": 9, "text": "no such hand"}]
    return "bad_annotation", "/annotations/1/hand"


def annotation_action_missing(r: Record) -> tuple[str, str]:
    r["annotations"] = [{"hand": 0, "action": 45, "text": "one past the end"}]
    return "bad_annotation", "/annotations/0/action"


def annotation_bad_variation(r: Record) -> tuple[str, str]:
    first = r["hands"][0]["actions"][0]
    r["annotations"] = [
        {
            "hand": 0,
            "action": 0,
            "variation": [
                {"seat": first["seat"], "call": "7H"},
                {"seat": first["seat"], "call": "8H"},
            ],
        }
    ]
    return "bad_annotation", "/annotations/0/variation/1"


def annotation_variation_on_summary(r: Record) -> tuple[str, str]:
    r["hands"][1] = {"dealer": 1, "result": r["hands"][1]["result"]}
    r["annotations"] = [{"hand": 1, "variation": [{"seat": 2, "call": "PASS"}]}]
    return "bad_annotation", "/annotations/0/variation"


def annotation_bad_glyph(r: Record) -> tuple[str, str]:
    r["annotations"] = [{"hand": 0, "glyph": "?!?"}]
    return "schema", "/annotations/0/glyph"


def seed_mismatch(r: Record) -> tuple[str, str]:
    r["hands"][1]["deal"]["seed"] = "777/g0000/hand-9"
    return "seed_mismatch", "/hands/1/deal/seed"


def summary_partner_with_four(r: Record) -> tuple[str, str]:
    r["hands"][2] = {"dealer": 2, "result": r["hands"][2]["result"]}
    r["hands"][2]["result"]["contract"]["partner"] = 1
    return "result_mismatch", "/hands/2/result/contract/partner"


def summary_tricks_not_ten(r: Record) -> tuple[str, str]:
    r["hands"][2] = {"dealer": 2, "result": r["hands"][2]["result"]}
    r["hands"][2]["result"]["tricks"][0] += 1
    return "result_mismatch", "/hands/2/result/tricks"


def summary_bid_not_allowed(r: Record) -> tuple[str, str]:
    r["hands"][2] = {"dealer": 2, "result": r["hands"][2]["result"]}
    r["hands"][2]["result"]["contract"]["bid"] = "BM"
    return "result_mismatch", "/hands/2/result/contract"


def summary_wrong_score(r: Record) -> tuple[str, str]:
    r["hands"][2] = {"dealer": 2, "result": r["hands"][2]["result"]}
    r["hands"][2]["result"]["score"][1] = 200
    return "result_mismatch", "/hands/2/result/score"


CORPUS: list[Callable[[Record], tuple[str, str]]] = [
    not_following,
    card_not_held,
    wrong_seat,
    seat_out_of_range,
    bid_too_low,
    sans_kitty_not_allowed,
    blind_misere_not_allowed,
    suit_on_ordinary_play,
    discard_instead_of_play,
    extra_action,
    wrong_score,
    wrong_tricks,
    wrong_contract,
    contract_on_thrown_in_hand,
    wrong_totals,
    missing_hand_result,
    result_on_unfinished_hand,
    hand_not_over,
    hand_after_the_end,
    wrong_dealer,
    first_dealer_out_of_range,
    card_not_in_pack,
    eleven_in_four_players,
    duplicate_card,
    duplicate_in_kitty,
    missing_card,
    missing_hand,
    dead_hand_with_four,
    game_scores,
    game_winner,
    game_reason,
    game_result_missing,
    game_result_too_early,
    termination_seat_missing,
    termination_not_to_act,
    termination_without_result,
    forfeit_wrong_winner,
    annotation_hand_missing,
    annotation_action_missing,
    annotation_bad_variation,
    annotation_variation_on_summary,
    annotation_bad_glyph,
    summary_partner_with_four,
    summary_tricks_not_ten,
    summary_bid_not_allowed,
    summary_wrong_score,
]


@pytest.mark.parametrize("mutate", CORPUS, ids=lambda f: f.__name__)
def test_mutation_is_rejected_at_the_right_place(
    mutate: Callable[[Record], tuple[str, str]],
) -> None:
    record = _base()
    assert verify(record).valid
    code, pointer = mutate(record)
    verdict = verify(json.dumps(record))
    assert not verdict.valid
    assert verdict.status == "invalid"
    first = verdict.errors[0]
    assert (first.code, first.pointer) == (code, pointer), verdict.errors[:3]
    assert first.message


def test_seed_mismatch_on_seeded_record() -> None:
    record = _base("four-players-in-progress-seeded")
    code, pointer = seed_mismatch(record)
    verdict = verify(record)
    assert [(e.code, e.pointer) for e in verdict.errors] == [(code, pointer)]


def test_dead_hand_missing_with_two_players() -> None:
    record = _base("two-players-with-summary-hands")
    del record["hands"][0]["deal"]["dead"]
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("bad_deal", "/hands/0/deal")


def test_five_player_summary_partner_must_be_another_seat() -> None:
    record = _base("five-players-called-partner")
    record["hands"][4]["result"]["contract"]["partner"] = 4
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/hands/4/result/contract/partner")


def test_five_player_partner_claimed_for_lone_contract() -> None:
    record = _base("five-players-called-partner")
    record["hands"][0]["result"]["contract"]["partner"] = 2
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/hands/0/result/contract")


def test_lost_misere_summary_may_end_early() -> None:
    record = _base("four-players-in-progress-seeded")
    # Hand 2 is a misère lost after three tricks ([1, 2]); as a summary hand it still scores.
    record["hands"][2] = {"dealer": 2, "result": record["hands"][2]["result"]}
    assert verify(record).valid
    record["hands"][2]["result"]["tricks"] = [0, 2]
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/hands/2/result/tricks")


def test_forfeit_with_three_sides_gives_the_win_to_the_highest_other() -> None:
    record = _base("three-players-forfeit")
    assert verify(record).winner == 2
    record["result"]["winner"] = 0
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/result/winner")


def test_termination_reason_must_be_forfeit_or_agreed() -> None:
    record = _base("three-players-forfeit")
    record["result"]["reason"] = "backdoor"
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/result/reason")


def test_agreed_result_takes_any_winner() -> None:
    record = _golden("five-agreed")
    assert verify(record).valid
    record["result"]["winner"] = [1, 3]
    verdict = verify(record)
    assert verdict.valid and verdict.winner == [1, 3]
    record["result"]["winner"] = 7
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/result/winner")


def test_redeal_same_dealer_after_thrown_in_hand() -> None:
    record = _golden("four-redeal-same-dealer")
    hands = record["hands"]
    thrown = next(i for i, h in enumerate(hands[:-1]) if h["result"]["contract"] is None)
    assert hands[thrown + 1]["dealer"] == hands[thrown]["dealer"]
    hands[thrown + 1]["dealer"] = (hands[thrown]["dealer"] + 1) % 4
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("dealer_mismatch", f"/hands/{thrown + 1}/dealer")


def test_winner_list_is_compared_as_a_set() -> None:
    record = _base()
    record["result"]["winner"] = [1]
    assert verify(record).valid


def test_errors_after_a_result_mismatch_use_the_engine_totals() -> None:
    record = _base()
    record["hands"][3]["result"]["score"][0] += 10
    verdict = verify(record)
    # Only the score is wrong: the claimed totals agree with the engine, and so does all else.
    assert [(e.code, e.pointer) for e in verdict.errors] == [
        ("result_mismatch", "/hands/3/result/score")
    ]
