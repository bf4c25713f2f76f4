"""The verifier: replays a record through the engine and checks every claim (section 7).

``verify`` never raises: whatever it is given (text, bytes or a parsed object) it returns a
``Verdict`` listing every error with its JSON Pointer, code and a sentence. Errors come in the
order the specification fixes: the document's structure, the rules, each hand in turn (dealer,
deal, seed, actions, result), the game result, the termination and the annotations. Replay stops
at the first action that cannot be applied: nothing after it can be checked meaningfully.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import orjson

from fivehundred.engine import (
    Action,
    Contract,
    Deal,
    DealError,
    GameResult,
    HandOverError,
    HandState,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    WrongSeatError,
    check_deal,
    forfeit_result,
    game_end,
    hand_score,
)
from fivehundred.record import schema as record_schema
from fivehundred.record.canonical import digest as record_digest
from fivehundred.record.errors import RecordError, RecordFormatError
from fivehundred.record.notation import PLAYS, action_of, call_of, cards_of
from fivehundred.record.pointer import escape
from fivehundred.record.seeds import matches_seed

Status = Literal["complete", "in_progress", "invalid"]
Winner = int | list[int] | None

_OVER: Final = Phase.OVER
_FORFEITING: Final = frozenset(["timeout", "crash", "illegal_action"])


@dataclass
class Verdict:
    """What the verifier says about one record."""

    valid: bool
    status: Status
    digest: str | None
    errors: list[RecordError] = field(default_factory=list)
    scores: list[int] | None = None
    winner: Winner = None

    def to_json(self, file: str | None = None, *, line: int | None = None) -> dict[str, Any]:
        """The command line's JSON object for this verdict (keys in a fixed order)."""
        out: dict[str, Any] = {"file": file}
        if line is not None:
            out["line"] = line
        out.update(
            {
                "valid": self.valid,
                "status": self.status,
                "digest": self.digest,
                "errors": [e.to_json() for e in self.errors],
                "scores": self.scores,
                "winner": self.winner,
            }
        )
        return out


@dataclass
class Replay:
    """Where a valid record leaves the game: for ``legal``, ``show`` and the platform."""

    rules: Rules
    record: dict[str, Any]
    totals: tuple[int, ...]
    #: The last full hand's state (``None`` before any full hand, or after a summary hand).
    hand: HandState | None
    #: Index in ``record["hands"]`` of ``hand``.
    hand_index: int | None
    #: Who deals the next hand (``None`` before the first hand: any seat may deal).
    next_dealer: int | None
    #: The game's end (by the rules or by the termination), ``None`` while it goes on.
    result: GameResult | None
    #: Each full hand's final state, by hand index (states are immutable values).
    states: dict[int, HandState] = field(default_factory=dict)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (its next decision is in ``hand.to_act``)."""
        return self.result is None and self.hand is not None and not self.hand.is_over

    @property
    def to_act(self) -> int | None:
        return self.hand.to_act if self.in_hand and self.hand is not None else None

    @property
    def needs_deal(self) -> bool:
        """Whether the game goes on with a new hand that still has to be dealt."""
        return self.result is None and not self.in_hand


# -- parsing ------------------------------------------------------------------------------------


class _NotJson(Exception):
    pass


class _Malformed(Exception):
    """An action that does not match the schema, met while replaying."""


def _parse_float(text: str) -> float | int:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _NotJson(f"the number {text[:40]} is outside the range of JSON numbers")
    # An integral number is the same JSON value however it is written (1.0 is 1): keep it an
    # int so that the rest of the code sees seats and scores as integers.
    if value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _reject_constant(text: str) -> Any:
    raise _NotJson(f"{text} is not a JSON value")


def parse_json(data: str | bytes | bytearray) -> tuple[Any, RecordError | None]:
    """Parse JSON text strictly: UTF-8, no NaN or infinities, integral numbers as ints."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f"not UTF-8 text (invalid byte at offset {exc.start})"
            return None, RecordError("", "not_json", message)
    if data.startswith("\ufeff"):
        return None, RecordError("", "not_json", "the text starts with a byte order mark")
    try:
        document = json.loads(data, parse_float=_parse_float, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        message = f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        return None, RecordError("", "not_json", message)
    except _NotJson as exc:
        return None, RecordError("", "not_json", f"not JSON: {exc}")
    except RecursionError:
        return None, RecordError("", "schema", "the document is nested too deeply")
    except ValueError as exc:  # e.g. an integer with too many digits for this reader
        return None, RecordError("", "not_json", f"not JSON: {str(exc)[:120]}")
    return document, None


def _as_json_value(data: Any) -> tuple[Any, RecordError | None]:
    """A Python object as the JSON value it stands for (or why it is not one)."""
    try:
        text = json.dumps(data, allow_nan=False, ensure_ascii=False)
    except RecursionError:
        return None, RecordError("", "schema", "the document is nested too deeply")
    except (TypeError, ValueError) as exc:
        return None, RecordError("", "not_json", f"not a JSON value: {exc}")
    return parse_json(text)


# -- verification -------------------------------------------------------------------------------


def verify(data: str | bytes | dict[str, Any] | Any) -> Verdict:
    """Verify one record given as JSON text, UTF-8 bytes or a parsed object. Never raises."""
    try:
        return _verify(data)
    except Exception as exc:  # pragma: no cover - a last resort: the verifier must not raise
        error = RecordError("", "schema", f"the record could not be checked ({type(exc).__name__})")
        return Verdict(False, "invalid", None, [error])


def _verify(data: Any) -> Verdict:
    if isinstance(data, str | bytes | bytearray):
        # Fast path: orjson parses, the hand-written checks accept the structure (the actions
        # of full hands are checked one by one as the replay applies them), and the version
        # is 1. Anything else, and any doubt the replay raises, goes the strict way below.
        document: Any = None
        with contextlib.suppress(orjson.JSONDecodeError):
            document = orjson.loads(data)
        if (
            isinstance(document, dict)
            and document.get("version") == 1
            and record_schema.fast_ok(document, actions=False)
        ):
            verdict = _replayed(document, fast=True)
            if verdict is not None:
                return verdict
        # The standard library gives exact messages for text that is not JSON, and reads
        # integral numbers such as 1.0 as integers before the schema looks at them.
        document, problem = parse_json(data)
    else:
        document, problem = _as_json_value(data)
    if problem is not None:
        return Verdict(False, "invalid", None, [problem])
    errors = structure_errors(document)
    if errors:
        return Verdict(False, "invalid", None, errors)
    verdict = _replayed(document, fast=False)
    assert verdict is not None
    return verdict


def _replayed(document: dict[str, Any], *, fast: bool) -> Verdict | None:
    """The verdict of a document whose structure is known good (all but the actions of full
    hands, when ``fast``). ``None``: the fast path cannot decide (an action is malformed, or
    the replay stopped before the end and the structure must be checked first)."""
    try:
        digest = record_digest(document)
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError):
        error = RecordError("", "schema", "the record contains text that is not valid Unicode")
        return Verdict(False, "invalid", None, [error])
    checker = _Checker(document, check_actions=fast)
    replay = checker.run()
    stopped = checker.malformed or checker.errors or replay is None or not checker.replayed_all
    # Schema errors come before everything else: check the actions that were not replayed.
    if fast and stopped and (checker.malformed or structure_errors(document)):
        return None
    if checker.errors or replay is None:
        # A structural fault found with the rules in hand (seats for the player count, an
        # option of the wrong type) is a schema error: no digest, as for the others.
        schema_fault = any(e.code == "schema" for e in checker.errors)
        return Verdict(False, "invalid", None if schema_fault else digest, checker.errors)
    result = replay.result
    return Verdict(
        valid=True,
        status="complete" if result is not None else "in_progress",
        digest=digest,
        errors=[],
        scores=list(replay.totals),
        winner=checker.winner,
    )


def structure_errors(document: Any, *, actions: bool = True) -> list[RecordError]:
    """Schema errors in document order, then an unsupported version.

    ``actions=False`` leaves the actions of full hands to the replay (see ``_verify``).
    """
    errors = record_schema.validate(document, actions=actions)
    if isinstance(document, dict):
        version = document.get("version")
        if type(version) is int and version != 1:
            errors.append(
                RecordError(
                    "/version",
                    "unsupported_version",
                    f"version {version} is not supported: this reader reads version 1 records",
                )
            )
    return errors


def replay(record: dict[str, Any]) -> Replay:
    """Replay a valid record; raises ``RecordFormatError`` listing the errors otherwise."""
    document, problem = _as_json_value(record)
    if problem is not None:
        raise RecordFormatError([problem])
    errors = structure_errors(document)
    if errors:
        raise RecordFormatError(errors)
    checker = _Checker(document)
    state = checker.run()
    if checker.errors or state is None:
        raise RecordFormatError(checker.errors)
    state.record = record
    return state


@functools.lru_cache(maxsize=256)
def _rules_of(text: str) -> Rules:
    """Rules from a record's ``rules`` object (as canonical text): building them costs more
    than replaying a hand, and most records share a few rule sets. Errors are not cached."""
    return Rules.from_json(json.loads(text))


def _fmt_contract(contract: Any) -> str:
    if contract is None:
        return "no contract (thrown in)"
    text = f"{contract.get('bid')} by seat {contract.get('seat')}"
    if "partner" in contract:
        text += f" with partner seat {contract['partner']}"
    return text


def _fmt_winner(winner: Any) -> str:
    if winner is None:
        return "no winner"
    if isinstance(winner, list):
        return "sides " + ", ".join(str(w) for w in winner)
    return f"side {winner}"


def _winner_set(winner: Any) -> frozenset[int] | None:
    if winner is None:
        return None
    if isinstance(winner, list | tuple):
        return frozenset(winner)
    return frozenset([winner])


def _winner_json(winner: int | tuple[int, ...] | None) -> Winner:
    if isinstance(winner, tuple):
        return sorted(winner)
    return winner


class _Checker:
    """One verification run over a schema-valid document."""

    def __init__(self, document: dict[str, Any], *, check_actions: bool = False) -> None:
        self.doc = document
        self.errors: list[RecordError] = []
        self.winner: Winner = None
        #: Check each action's structure while replaying (the schema pass skipped them).
        self.check_actions = check_actions
        #: An action that does not match the schema was met (the replay stopped there).
        self.malformed = False
        #: Every action of every full hand was replayed (so each one's structure was checked).
        self.replayed_all = False

    def error(self, pointer: str, code: str, message: str) -> None:
        self.errors.append(RecordError(pointer, code, message))

    # -- rules

    def _rules(self) -> Rules | None:
        doc = self.doc
        rules_obj = doc["rules"]
        players = rules_obj.get("players")
        if type(players) is int and 2 <= players <= 6 and len(doc["seats"]) != players:
            # The seats are the document's structure: reported before an option the rules
            # reject (section 7 lists schema errors before bad_rules).
            self.error(
                "/seats",
                "schema",
                f"{players} players need {players} seats, found {len(doc['seats'])}",
            )
            return None
        try:
            rules = _rules_of(json.dumps(rules_obj, sort_keys=True))
        except RulesError as exc:
            member = exc.member
            options = rules_obj.get("options", {})
            if member in ("players", "ruleset"):
                pointer = f"/rules/{member}"
            elif member == "":
                pointer = "/rules"
            elif member == "target" and "target" not in options and "lose_at" in options:
                pointer = "/rules/options/lose_at"
            else:
                pointer = f"/rules/options/{escape(member)}"
            self.error(pointer, "schema" if exc.type_error else "bad_rules", exc.message)
            return None
        return rules

    # -- the whole run

    def run(self) -> Replay | None:
        rules = self._rules()
        if rules is None:
            return None
        doc = self.doc
        hands: list[dict[str, Any]] = doc["hands"]
        n = rules.players
        nsides = len(rules.sides)
        redeal_same = rules.options["all_pass"] == "redeal_same_dealer"
        totals: tuple[int, ...] = (0,) * nsides
        expected: int | None = None  # the next dealer; None: free
        ended: GameResult | None = None
        state: HandState | None = None  # the last full hand's state
        state_index: int | None = None
        unfinished: int | None = None  # index of a full hand that is not over
        stopped = False  # replay could not go on
        stopped_at = len(hands)
        states: dict[int, HandState] = {}
        wanted = self._annotation_points()
        snapshots: dict[tuple[int, int], HandState] = {}

        for i, hand in enumerate(hands):
            at = f"/hands/{i}"
            if ended is not None:
                self.error(
                    at, "game_over", f"the game ended after hand {i - 1}: no hand may follow"
                )
                stopped_at = i
                break
            if unfinished is not None:
                self.error(
                    f"/hands/{unfinished}",
                    "hand_not_over",
                    f"hand {unfinished} is not over, but hand {i} follows it",
                )
                unfinished = None
            dealer = hand["dealer"]
            if not 0 <= dealer < n:
                self.error(f"{at}/dealer", "dealer_mismatch", f"there is no seat {dealer}")
                stopped, stopped_at = True, i
                break
            if expected is not None and dealer != expected:
                why = (
                    "the same dealer deals again after a thrown-in hand"
                    if i > 0 and expected == hands[i - 1]["dealer"]
                    else "the deal passes one seat clockwise"
                )
                self.error(
                    f"{at}/dealer",
                    "dealer_mismatch",
                    f"hand {i} must be dealt by seat {expected} ({why}), not seat {dealer}",
                )
                # Go on as the rules say the hand was dealt, so that one wrong number is one
                # error (the seed and the seat to act follow the right dealer).
                dealer = expected
            contract: Contract | None
            if "deal" in hand:
                outcome = self._full_hand(i, hand, dealer, rules, wanted, snapshots)
                if outcome is None:
                    stopped, stopped_at = True, i
                    break
                state = outcome
                state_index = i
                states[i] = state
                if not state.is_over:
                    if "result" in hand:
                        self.error(
                            f"{at}/result",
                            "result_mismatch",
                            f"hand {i} is not over: it cannot have a result yet",
                        )
                    unfinished = i
                    expected = (dealer + 1) % n
                    continue
                contract = state.contract
                if contract is None:
                    tricks: tuple[int, ...] = (0,) * nsides
                    score: tuple[int, ...] = (0,) * nsides
                    made = None
                else:
                    tricks = state.tricks_by_side()
                    score, made = hand_score(rules, contract, tricks, totals)
                new_totals = tuple(t + s for t, s in zip(totals, score, strict=True))
                if "result" not in hand:
                    self.error(at, "result_mismatch", f"hand {i} is over but has no result")
                else:
                    derived = {
                        "contract": None if contract is None else contract.to_json(),
                        "tricks": list(tricks),
                        "score": list(score),
                    }
                    self._compare_result(i, hand["result"], derived, new_totals)
            else:
                state = None
                state_index = None
                summary = self._summary(i, hand["result"], rules, totals)
                if summary is None:
                    stopped, stopped_at = True, i
                    break
                contract, score, made = summary
                new_totals = tuple(t + s for t, s in zip(totals, score, strict=True))
                self._compare_result(i, hand["result"], None, new_totals)
            totals = new_totals
            if contract is not None and made is not None:
                ended = game_end(rules, contract, made, totals)
            expected = dealer if contract is None and redeal_same else (dealer + 1) % n

        if stopped:
            return None
        self.replayed_all = stopped_at == len(hands)
        last_full_in_progress = unfinished is not None
        result = self._game_result(rules, totals, ended, state if last_full_in_progress else None)
        if result is not None:
            self.winner = _winner_json(result.winner)
        self._annotations(hands, snapshots, stopped_at)
        return Replay(
            rules=rules,
            record=doc,
            totals=totals,
            hand=state,
            hand_index=state_index,
            next_dealer=expected,
            result=result,
            states=states,
        )

    # -- full hands

    def _full_hand(
        self,
        i: int,
        hand: dict[str, Any],
        dealer: int,
        rules: Rules,
        wanted: set[tuple[int, int]],
        snapshots: dict[tuple[int, int], HandState],
    ) -> HandState | None:
        at = f"/hands/{i}"
        deal_obj = hand["deal"]
        dead_obj = deal_obj.get("dead")
        seed = deal_obj.get("seed")
        deal = Deal(
            tuple(cards_of(cards) for cards in deal_obj["hands"]),
            cards_of(deal_obj["kitty"]),
            None if dead_obj is None else cards_of(dead_obj),
            seed,
        )
        # A deal equal to its seed's is the rules' pack dealt correctly: check_deal can only
        # find something in a deal that differs from it (and its errors come first).
        state = HandState.start(rules, dealer, deal, check=False)
        if seed is None or not matches_seed(rules, deal, seed, dealer, state.hands):
            try:
                check_deal(rules, deal)
            except DealError as exc:
                path = "".join("/" + escape(p) for p in exc.path)
                self.error(f"{at}/deal{path}", "bad_deal", exc.message)
                return None
            if seed is not None:
                self.error(
                    f"{at}/deal/seed",
                    "seed_mismatch",
                    f"the deal is not the one seed {json.dumps(seed)[:60]} gives "
                    f"with seat {dealer} dealing",
                )
        actions: list[dict[str, Any]] = hand["actions"]
        plays: Mapping[Any, Action] = PLAYS
        j = -1
        try:
            if wanted and any(point[0] == i for point in wanted):
                # Annotated hands keep the states their variations start from.
                if (i, 0) in wanted:
                    snapshots[(i, 0)] = state
                for j, obj in enumerate(actions):
                    if (i, j) in wanted:
                        snapshots[(i, j)] = state
                    if self.check_actions and not record_schema.action_ok(obj):
                        raise _Malformed
                    state = state.apply(action_of(obj), obj["seat"])
            elif self.check_actions:
                for j, obj in enumerate(actions):  # noqa: B007 - j names the action that failed
                    # Plays are most of a record: look them up without the general function,
                    # checking the structure on the way (a bool is not a seat, a play has only
                    # "seat" and "play"; a value that is not a dict or not hashable raises and
                    # counts as malformed). The engine checks in the order of section 7: the
                    # hand is over, then the seat, then the action itself.
                    seat = obj.get("seat")
                    action: Action | None = plays.get(obj.get("play"))
                    if action is None or len(obj) != 2 or type(seat) is not int:
                        if not record_schema.action_ok(obj):
                            raise _Malformed
                        action = action_of(obj)
                    state = state.apply(action, seat)
            else:
                for j, obj in enumerate(actions):  # noqa: B007 - j names the action that failed
                    state = state.apply(action_of(obj), obj["seat"])
        except (_Malformed, AttributeError, TypeError):
            if not self.check_actions:
                raise
            self.malformed = True
            return None
        except HandOverError:
            self.error(
                f"{at}/actions/{j}",
                "extra_action",
                f"hand {i} is already over: no action may follow",
            )
            return None
        except WrongSeatError as exc:
            self.error(
                f"{at}/actions/{j}",
                "wrong_seat",
                f"seat {exc.seat} acted, but it is seat {exc.to_act}'s turn",
            )
            return None
        except IllegalActionError as exc:
            self.error(f"{at}/actions/{j}", "illegal_action", f"{exc.message} ({exc.rule})")
            return None
        return state

    def _compare_result(
        self,
        i: int,
        claimed: dict[str, Any],
        derived: dict[str, Any] | None,
        totals: Sequence[int],
    ) -> None:
        at = f"/hands/{i}/result"
        if derived is not None:
            for key in ("contract", "tricks", "score"):
                if claimed[key] != derived[key]:
                    if key == "contract":
                        message = (
                            f"the replay gives {_fmt_contract(derived[key])}, "
                            f"not {_fmt_contract(claimed[key])}"
                        )
                    else:
                        message = f"the replay gives {key} {derived[key]}, not {claimed[key]}"
                    self.error(f"{at}/{key}", "result_mismatch", message)
                    break
        if claimed["totals"] != list(totals):
            self.error(
                f"{at}/totals",
                "totals_mismatch",
                f"the running totals after hand {i} are {list(totals)}, not {claimed['totals']}",
            )

    # -- summary hands

    def _summary(
        self, i: int, result: dict[str, Any], rules: Rules, totals: tuple[int, ...]
    ) -> tuple[Contract | None, tuple[int, ...], bool | None] | None:
        at = f"/hands/{i}/result"
        n = rules.players
        nsides = len(rules.sides)
        claimed = result["contract"]
        tricks = result["tricks"]
        if claimed is None:
            if tricks != [0] * nsides:
                self.error(
                    f"{at}/tricks",
                    "result_mismatch",
                    f"a thrown-in hand has no tricks: {[0] * nsides}",
                )
                return None
            score = (0,) * nsides
            if result["score"] != list(score):
                self.error(f"{at}/score", "result_mismatch", "a thrown-in hand scores nothing")
            return None, score, None
        seat = claimed["seat"]
        call = call_of(claimed["bid"])
        if not 0 <= seat < n:
            self.error(f"{at}/contract", "result_mismatch", f"there is no seat {seat}")
            return None
        if not call.is_bid:
            self.error(f"{at}/contract", "result_mismatch", "PASS is not a contract")
            return None
        if not rules.allows_call(call):
            self.error(
                f"{at}/contract",
                "result_mismatch",
                f"{call} is not a bid these rules allow (see the rules' options)",
            )
            return None
        partner = claimed.get("partner")
        if partner is not None:
            problem = None
            if n != 5:
                problem = "only the five-player game has a called partner"
            elif call.is_misere:
                problem = "a misère is played alone"
            elif not 0 <= partner < n or partner == seat:
                problem = f"seat {partner} cannot be the partner of seat {seat}"
            if problem is not None:
                self.error(f"{at}/contract/partner", "result_mismatch", problem)
                return None
        contract = Contract(seat, call, partner)
        if len(tricks) != nsides or any(t < 0 for t in tricks):
            self.error(
                f"{at}/tricks",
                "result_mismatch",
                f"tricks need one count of 0 or more for each of the {nsides} sides",
            )
            return None
        total = sum(tricks)
        ours = rules.side_of(seat)
        early_end = call.is_misere and rules.options["misere_early_end"] and tricks[ours] >= 1
        if early_end and total > 10:
            self.error(f"{at}/tricks", "result_mismatch", f"tricks add up to {total}, more than 10")
            return None
        if not early_end and total != 10:
            self.error(f"{at}/tricks", "result_mismatch", f"tricks add up to {total}, not 10")
            return None
        score, made = hand_score(rules, contract, tricks, totals)
        if result["score"] != list(score):
            self.error(
                f"{at}/score",
                "result_mismatch",
                f"{call} by seat {seat} with tricks {tricks} scores {list(score)}, "
                f"not {result['score']}",
            )
        return contract, score, made

    # -- the end of the game

    def _game_result(
        self,
        rules: Rules,
        totals: tuple[int, ...],
        ended: GameResult | None,
        in_progress: HandState | None,
    ) -> GameResult | None:
        """Check the game result and the termination, and list their errors in that order
        (section 7: "then the game result, termination and annotations")."""
        termination_errors: list[RecordError] = []
        result = self._end_of_game(rules, totals, ended, in_progress, termination_errors)
        self.errors.extend(termination_errors)
        return result

    def _end_of_game(
        self,
        rules: Rules,
        totals: tuple[int, ...],
        ended: GameResult | None,
        in_progress: HandState | None,
        termination_errors: list[RecordError],
    ) -> GameResult | None:
        doc = self.doc
        termination = doc.get("termination")
        claimed = doc.get("result")
        derived = ended
        if termination is not None:
            seat = termination["seat"]
            reason = termination["reason"]
            seat_ok = 0 <= seat < rules.players
            if ended is not None:
                termination_errors.append(
                    RecordError(
                        "/termination",
                        "bad_termination",
                        "the game had already ended by the rules: nothing was left to terminate",
                    )
                )
            elif not seat_ok:
                termination_errors.append(
                    RecordError("/termination/seat", "bad_termination", f"there is no seat {seat}")
                )
            elif (
                reason in _FORFEITING
                and in_progress is not None
                and in_progress.to_act is not None
                and seat != in_progress.to_act
            ):
                termination_errors.append(
                    RecordError(
                        "/termination/seat",
                        "bad_termination",
                        f"seat {in_progress.to_act} was to act, not seat {seat}",
                    )
                )
            if ended is None:
                if claimed is not None and claimed["reason"] == "agreed":
                    derived = GameResult(tuple(totals), None, "agreed")
                elif seat_ok:
                    derived = forfeit_result(rules, seat, totals)
                else:
                    derived = None
                if claimed is None:
                    self.error("", "result_mismatch", "the game was terminated but has no result")
                    return None
                if derived is None:
                    # No such seat: no winner to derive, but the final scores are the totals.
                    if claimed["scores"] != list(totals):
                        self.error(
                            "/result/scores",
                            "result_mismatch",
                            f"the final scores are {list(totals)}, not {claimed['scores']}",
                        )
                    return None
                if derived.reason == "agreed":
                    return self._agreed(rules, claimed, totals)
        if derived is None:
            if claimed is not None:
                self.error("/result", "result_mismatch", "the game has not ended: it has no result")
            return None
        if claimed is None:
            self.error(
                "",
                "result_mismatch",
                f"the game ended ({derived.reason}) but the record has no result",
            )
            return derived
        if claimed["scores"] != list(derived.scores):
            self.error(
                "/result/scores",
                "result_mismatch",
                f"the final scores are {list(derived.scores)}, not {claimed['scores']}",
            )
        elif _winner_set(claimed["winner"]) != _winner_set(derived.winner):
            self.error(
                "/result/winner",
                "result_mismatch",
                f"the winner is {_fmt_winner(_winner_json(derived.winner))}, "
                f"not {_fmt_winner(claimed['winner'])}",
            )
        elif claimed["reason"] != derived.reason:
            self.error(
                "/result/reason",
                "result_mismatch",
                f"the game ended by {derived.reason}, not {claimed['reason']}",
            )
        return derived

    def _agreed(
        self, rules: Rules, claimed: dict[str, Any], totals: tuple[int, ...]
    ) -> GameResult | None:
        if claimed["scores"] != list(totals):
            self.error(
                "/result/scores",
                "result_mismatch",
                f"the final scores are {list(totals)}, not {claimed['scores']}",
            )
            return GameResult(tuple(totals), None, "agreed")
        winner = claimed["winner"]
        nsides = len(rules.sides)
        sides = [] if winner is None else winner if isinstance(winner, list) else [winner]
        if any(not 0 <= s < nsides for s in sides) or (isinstance(winner, list) and not winner):
            self.error(
                "/result/winner",
                "result_mismatch",
                f"the winner must be among sides 0..{nsides - 1}",
            )
            return GameResult(tuple(totals), None, "agreed")
        normal: int | tuple[int, ...] | None
        if winner is None:
            normal = None
        elif isinstance(winner, list):
            unique = tuple(sorted(set(winner)))
            normal = unique[0] if len(unique) == 1 else unique
        else:
            normal = winner
        return GameResult(tuple(totals), normal, "agreed")

    # -- annotations

    def _annotation_points(self) -> set[tuple[int, int]]:
        """(hand, action) states the annotations' variations start from."""
        points: set[tuple[int, int]] = set()
        for note in self.doc.get("annotations", ()):
            hand = note.get("hand")
            if "variation" in note and hand is not None:
                points.add((hand, note.get("action", 0)))
        return points

    def _annotations(
        self,
        hands: list[dict[str, Any]],
        snapshots: dict[tuple[int, int], HandState],
        replayed: int,
    ) -> None:
        for k, note in enumerate(self.doc.get("annotations", ())):
            at = f"/annotations/{k}"
            hand = note.get("hand")
            action = note.get("action")
            if hand is not None and not 0 <= hand < len(hands):
                self.error(f"{at}/hand", "bad_annotation", f"the record has no hand {hand}")
                continue
            if action is not None:
                if hand is None:
                    self.error(
                        f"{at}/action", "bad_annotation", "an action index needs a hand index"
                    )
                    continue
                actions = hands[hand].get("actions")
                if actions is None or not 0 <= action < len(actions):
                    self.error(
                        f"{at}/action", "bad_annotation", f"hand {hand} has no action {action}"
                    )
                    continue
            if "variation" not in note:
                continue
            if hand is None or "actions" not in hands[hand]:
                self.error(
                    f"{at}/variation",
                    "bad_annotation",
                    "a variation needs the full hand (and action) it starts from",
                )
                continue
            if hand >= replayed:
                continue  # the replay stopped before this hand
            state = snapshots.get((hand, action or 0))
            if state is None:
                continue
            for m, obj in enumerate(note["variation"]):
                pointer = f"{at}/variation/{m}"
                if state.phase is _OVER:
                    self.error(pointer, "bad_annotation", "the hand is already over")
                    break
                if obj["seat"] != state.to_act:
                    self.error(
                        pointer,
                        "bad_annotation",
                        f"seat {obj['seat']} acted, but it is seat {state.to_act}'s turn",
                    )
                    break
                try:
                    state = state.apply(action_of(obj))
                except IllegalActionError as exc:
                    self.error(pointer, "bad_annotation", f"{exc.message} ({exc.rule})")
                    break
