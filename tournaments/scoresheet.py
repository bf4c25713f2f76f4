"""Club score sheets turned into game records of summary hands (record format, section 3).

A score sheet lists, per hand, the contract (``"7H"``, ``"MIS"``, ... or nothing for a thrown-in
hand), the contractor's seat, in five players the called partner's seat, and the tricks won per
side. The engine scores each hand (``GameState.apply_summary``), so totals are never typed in and
cannot be wrong; the record built here is then checked by the verifier like any upload.

Pure: no Django, so the arithmetic is tested on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fivehundred import __version__
from fivehundred.engine import Call, Contract, EngineError, GameState, Rules


class ScoreSheetError(ValueError):
    """A score sheet that cannot be turned into a record; ``where`` names the field."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


def _int(value: Any, where: str, *, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ScoreSheetError(where, f"must be a whole number from {low} to {high}, got {value!r}")
    return int(value)


def _contract(rules: Rules, hand: Mapping[str, Any], where: str) -> Contract | None:
    bid = hand.get("contract")
    if bid in (None, "", "PASS", "-"):
        return None
    if not isinstance(bid, str):
        raise ScoreSheetError(f"{where}.contract", f"must be a bid such as 7H, got {bid!r}")
    try:
        call = Call.parse(bid.strip().upper())
    except EngineError as exc:
        raise ScoreSheetError(f"{where}.contract", f"{bid!r} is not a bid: {exc}") from None
    if call.kind == "pass":
        return None
    seat = _int(hand.get("contractor"), f"{where}.contractor", low=0, high=rules.players - 1)
    partner = None
    if hand.get("partner") not in (None, ""):
        if rules.players != 5:
            raise ScoreSheetError(f"{where}.partner", "only the five-player game has a partner")
        partner = _int(hand.get("partner"), f"{where}.partner", low=0, high=rules.players - 1)
        if partner == seat:
            partner = None  # "alone", as the record writes it
    return Contract(seat=seat, call=call, partner=partner)


def scoresheet_record(
    *,
    rules: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    hands: Sequence[Mapping[str, Any]],
    first_dealer: int = 0,
    event: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The record of a game entered hand by hand; raises ``ScoreSheetError`` naming the field.

    The game must have ended on the sheet (a side reached the target or fell to the losing
    score): a half-played game is not a result.
    """
    try:
        game_rules = Rules.from_json(dict(rules))
    except EngineError as exc:
        raise ScoreSheetError("rules", str(exc)) from None
    if len(seats) != game_rules.players:
        raise ScoreSheetError("seats", f"{len(seats)} seats for a {game_rules.players}-player game")
    if not isinstance(hands, Sequence) or isinstance(hands, str | bytes):
        raise ScoreSheetError("hands", "must be a list of hands")
    if not hands:
        raise ScoreSheetError("hands", "the sheet has no hands")
    dealer = _int(first_dealer, "first_dealer", low=0, high=game_rules.players - 1)
    nsides = len(game_rules.sides)
    game = GameState.new(game_rules)
    out_hands: list[dict[str, Any]] = []
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        if not isinstance(hand, Mapping):
            raise ScoreSheetError(where, "each hand is an object with contract and tricks")
        if game.is_over:
            raise ScoreSheetError(where, "the game was already over after the previous hand")
        contract = _contract(game_rules, hand, where)
        raw_tricks = hand.get("tricks")
        if contract is None and raw_tricks in (None, "", []):
            raw_tricks = [0] * nsides
        if not isinstance(raw_tricks, Sequence) or isinstance(raw_tricks, str):
            raise ScoreSheetError(f"{where}.tricks", f"must list {nsides} counts, one per side")
        if len(raw_tricks) != nsides:
            raise ScoreSheetError(
                f"{where}.tricks", f"has {len(raw_tricks)} counts for {nsides} sides"
            )
        tricks = [_int(t, f"{where}.tricks[{s}]", low=0, high=10) for s, t in enumerate(raw_tricks)]
        try:
            game = game.apply_summary(dealer, contract, tricks)
        except EngineError as exc:
            member = getattr(exc, "member", "")
            raise ScoreSheetError(f"{where}.{member}" if member else where, str(exc)) from None
        out_hands.append({"dealer": dealer, "result": game.hand_results[-1].to_json()})
        if not game.is_over:
            nxt = game.next_dealer
            assert nxt is not None
            dealer = nxt
    if not game.is_over or game.result is None:
        totals = ", ".join(str(t) for t in game.totals)
        raise ScoreSheetError("hands", f"the game has not ended yet (totals {totals})")
    record: dict[str, Any] = {
        "format": "fivehundred-record",
        "version": 1,
        "rules": game_rules.to_json(),
        "generator": {"name": "fivehundred", "version": __version__},
        "seats": [dict(s) for s in seats],
        "hands": out_hands,
        "result": game.result.to_json(),
    }
    if event:
        record["event"] = {k: str(v) for k, v in event.items() if v not in (None, "")}
    return record
