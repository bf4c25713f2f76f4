"""Review of ``fivehundred legal --json`` against the rules specification.

The first half of this module is an independent reading of the rules, small enough to check by
eye: written from the rules text alone (it imports nothing from the engine), it gives the legal
actions of a hand in any state, the end of the auction, trick winners and the early end of a lost
misère. The tests then compare the command line with it over many random hands of every player
count and option, and check hand-written tricky states whose answers are spelled out below.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from fivehundred.cli import main
from fivehundred.record import verify

SUITS = ("S", "C", "D", "H")
RED = {"D", "H"}
PARTNER_SUIT = {"S": "C", "C": "S", "D": "H", "H": "D"}
PLAIN = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")


def pack(players: int, options: dict[str, Any]) -> list[str]:
    """R-1: the pack for the player count."""

    def ranks(lo: int, extra: tuple[str, ...] = ()) -> list[str]:
        return [str(r) for r in range(lo, 11)] + list(extra) + ["J", "Q", "K", "A"]

    cards: list[str] = []
    if players in (2, 3):
        for s in SUITS:
            cards += [r + s for r in ranks(7)]
    elif players == 4:
        for s in SUITS:
            cards += [r + s for r in ranks(4 if s in RED else 5)]
    elif players == 5 and options.get("five_player_pack", "52+JK") == "52+JK":
        for s in SUITS:
            cards += [r + s for r in ranks(2)]
    else:  # six players, or the five-player 500 pack (the 63-card pack less 2s, 3s, black 4s)
        for s in SUITS:
            extra = ("11", "12", "13") if s in RED else ("11", "12")
            lo = 2 if players == 6 else (4 if s in RED else 5)
            cards += [r + s for r in ranks(lo, extra)]
    return [*cards, "JK"]


def suit_of(card: str) -> str:
    return card[-1]


def rank_of(card: str) -> str:
    return card[:-1]


# -- calls --------------------------------------------------------------------------------------


def bid_ladder(options: dict[str, Any]) -> list[str]:
    """R-4.3 (with R-4.10 sans-kitty and the misère rank option), lowest first."""
    sk = options.get("allow_sans_kitty", False)
    ladder: list[str] = []
    by_points = options.get("misere_rank", "between_7_and_8") == "by_points"
    for n in range(6, 11):
        for x in ("S", "C", "D", "H", "NT"):
            if n == 10 and x == "H":
                ladder.append("OM")  # BM ranks equal: handled in outranks()
            ladder.append(f"{n}{x}")
            if sk:
                ladder.append(f"{n}{x}/SK")
            if (n == 7 and x == "NT" and not by_points) or (n == 8 and x == "S" and by_points):
                ladder.append("MIS")
                if sk:
                    ladder.append("MIS/SK")
    return ladder


def level(call: str) -> int:
    """The number of tricks a suit/NT bid undertakes (0 for the misère family)."""
    head = call.split("/")[0]
    if head in ("MIS", "OM", "BM"):
        return 0
    return int(head[:-2] if head.endswith("NT") else head[:-1])


def is_misere(call: str) -> bool:
    return call.split("/")[0] in ("MIS", "OM", "BM")


@dataclass
class Hand:
    players: int
    options: dict[str, Any]
    dealer: int
    cards: list[list[str]]
    kitty: list[str]
    # auction
    calls: list[tuple[int, str]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    high: tuple[int, str] | None = None
    extra_call: bool = False  # the self-raise call is being made
    extra_done: bool = False
    # after the auction
    contract: tuple[int, str] | None = None
    partner_called: bool = False
    partner: int | None = None
    discarded: bool = False
    nominated: bool = False
    joker_suit: str | None = None
    tricks: list[list[tuple[int, str, str | None]]] = field(default_factory=list)
    led_suits: set[str] = field(default_factory=set)
    won: list[int] = field(default_factory=list)
    thrown_in: bool = False
    over: bool = False
    made: bool = False
    maker_sides: set[int] = field(default_factory=set)

    def opt(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)

    # -- the auction

    def _first_caller(self) -> int:
        return (self.dealer + 1) % self.players

    def outranks(self, call: str) -> bool:
        if self.high is None:
            return True
        ladder = bid_ladder(self.options)
        a = ladder.index("OM" if call == "BM" else call)
        b = ladder.index("OM" if self.high[1] == "BM" else self.high[1])
        return a > b

    def allowed_bid(self, seat: int, call: str) -> bool:
        head = call.split("/")[0]
        if head == "MIS":
            if not self.opt("allow_misere", True):
                return False
            if self.opt("misere_requires_seven", True) and not any(
                level(c) >= 7 for _, c in self.calls if c != "PASS"
            ):
                return False
        if head == "OM":
            if not self.opt("allow_open_misere", True):
                return False
            if self.opt("open_misere_after_eight", False) and not any(
                level(c) >= 8 for _, c in self.calls if c != "PASS"
            ):
                return False
        if head == "BM":
            if not self.opt("allow_blind_misere", False):
                return False
            if any(s == seat for s, _ in self.calls):
                return False
        return self.outranks(call)

    def legal_calls(self, seat: int) -> list[str]:
        candidates = [*bid_ladder(self.options), "BM"]
        return ["PASS"] + [c for c in candidates if self.allowed_bid(seat, c)]

    def auction_to_act(self) -> int:
        if self.extra_call:
            assert self.high is not None
            return self.high[0]
        if not self.calls:
            return self._first_caller()
        seat = self.calls[-1][0]
        for _ in range(self.players):
            seat = (seat + 1) % self.players
            if seat not in self.passed:
                return seat
        raise AssertionError("nobody left to call")

    def call(self, seat: int, call: str) -> None:
        self.calls.append((seat, call))
        if self.extra_call:
            self.extra_call = False
            self.extra_done = True
            if call != "PASS":
                self.high = (seat, call)
            self._end_auction()
            return
        if call == "PASS":
            self.passed.add(seat)
        else:
            self.high = (seat, call)
        top = bid_ladder(self.options)[-1]
        if self.high is not None and self.high[1] == top:
            # R-4.8(c), checked after every call: also in a single-round auction.
            self._end_auction()
            return
        if self.opt("single_round_bidding", False):
            if len(self.calls) == self.players:
                self._end_auction()
            return
        if self.high is None and len(self.passed) == self.players:
            self._end_auction()
        elif self.high is not None and all(
            s in self.passed for s in range(self.players) if s != self.high[0]
        ):
            if self.opt("self_raise_after_all_pass", False) and not self.extra_done:
                self.extra_call = True
            else:
                self._end_auction()

    def _end_auction(self) -> None:
        if self.high is None:
            self.thrown_in = True
            self.over = True
            return
        self.contract = self.high

    # -- sides

    def sides(self) -> list[list[int]]:
        if self.players == 4:
            return [[0, 2], [1, 3]]
        if self.players == 6:
            if self.opt("six_player_teams", "two_of_three") == "three_of_two":
                return [[0, 3], [1, 4], [2, 5]]
            return [[0, 2, 4], [1, 3, 5]]
        return [[s] for s in range(self.players)]

    def side_of(self, seat: int) -> int:
        return next(i for i, side in enumerate(self.sides()) if seat in side)

    def active(self) -> list[int]:
        assert self.contract is not None
        seat, bid = self.contract
        if is_misere(bid):
            mine = self.sides()[self.side_of(seat)]
            return [s for s in range(self.players) if s == seat or s not in mine]
        return list(range(self.players))

    # -- after the auction

    def needs_partner(self) -> bool:
        assert self.contract is not None
        return self.players == 5 and not is_misere(self.contract[1]) and not self.partner_called

    def needs_discard(self) -> bool:
        assert self.contract is not None
        return not self.contract[1].endswith("/SK") and not self.discarded

    def trump(self) -> str | None:
        assert self.contract is not None
        bid = self.contract[1].split("/")[0]
        if is_misere(bid) or bid.endswith("NT"):
            return None
        return bid[-1]

    def needs_nomination(self) -> bool:
        assert self.contract is not None
        return (
            self.opt("joker_prenomination", True)
            and self.trump() is None
            and "JK" in self.cards[self.contract[0]]
            and not self.nominated
        )

    def to_act(self) -> int | None:
        if self.over:
            return None
        if self.contract is None:
            return self.auction_to_act()
        if self.needs_partner() or self.needs_discard() or self.needs_nomination():
            return self.contract[0]
        active = self.active()
        if not self.tricks or len(self.tricks[-1]) == len(active):
            if not self.tricks:
                if self.opt("first_lead", "contractor") == "contractor":
                    return self.contract[0]
                seat = (self.dealer + 1) % self.players
                while seat not in active:
                    seat = (seat + 1) % self.players
                return seat
            return self.won[-1]
        seat = self.tricks[-1][-1][0]
        seat = (seat + 1) % self.players
        while seat not in active:
            seat = (seat + 1) % self.players
        return seat

    # -- cards

    def eff_suit(self, card: str) -> str | None:
        trump = self.trump()
        if card == "JK":
            return trump if trump is not None else self.joker_suit
        if trump is not None and rank_of(card) == "J" and suit_of(card) == PARTNER_SUIT[trump]:
            return trump
        return suit_of(card)

    def strength(self, card: str, led: str | None) -> tuple[int, int]:
        trump = self.trump()
        if card == "JK":
            if trump is not None or self.joker_suit is None:
                return (2, 100)
            return (1, 100) if self.joker_suit == led else (0, 0)
        suit = self.eff_suit(card)
        if trump is not None and suit == trump:
            if rank_of(card) == "J":
                return (2, 99 if suit_of(card) == trump else 98)
            return (2, PLAIN.index(rank_of(card)))
        if suit == led:
            return (1, PLAIN.index(rank_of(card)))
        return (0, 0)

    def legal_plays(self, seat: int) -> list[tuple[str, str | None]]:
        hand = self.cards[seat]
        leading = not self.tricks or len(self.tricks[-1]) == len(self.active())
        last = (len(self.tricks) + (1 if leading else 0)) == 10
        free_joker = self.trump() is None and self.joker_suit is None
        out: list[tuple[str, str | None]] = []
        if leading:
            for c in hand:
                if c == "JK" and free_joker:
                    if last:
                        out.append(("JK", None))
                    elif not self.opt("joker_lead_last_trick_only", False):
                        out += [("JK", s) for s in SUITS if s not in self.led_suits]
                else:
                    out.append((c, None))
            return out
        lead = self.tricks[-1][0]
        led = lead[2] if lead[1] == "JK" and free_joker else self.eff_suit(lead[1])
        follow = [c for c in hand if c != "JK" or not free_joker]
        follow = [c for c in follow if self.eff_suit(c) == led] if led is not None else []
        if follow:
            return [(c, None) for c in follow]
        if free_joker and "JK" in hand and led is not None:
            if is_misere(self.contract[1]) and self.opt("misere_joker_compulsion", True):  # type: ignore[index]
                return [("JK", None)]
            if (
                self.opt("joker_after_all_suits_led", "lead_only_last_trick")
                == "no_play_until_last_trick"
                and len(self.led_suits) == 4
                and not last
            ):
                return [(c, None) for c in hand if c != "JK"]
        return [(c, None) for c in hand]

    def legal(self) -> list[dict[str, Any]]:
        seat = self.to_act()
        assert seat is not None
        if self.contract is None:
            return [{"seat": seat, "call": c} for c in self.legal_calls(seat)]
        if self.needs_partner():
            cards = [c for c in pack(self.players, self.options) if c != "JK"]
            return [{"seat": seat, "partner": "alone"}] + [
                {"seat": seat, "partner": c} for c in cards
            ]
        if self.needs_discard():
            pool = self.cards[seat] + self.kitty
            return [
                {"seat": seat, "discard": list(combo)}
                for combo in itertools.combinations(pool, len(self.kitty))
            ]
        if self.needs_nomination():
            return [{"seat": seat, "nominate": s} for s in (*SUITS, "none")]
        out = []
        for card, suit in self.legal_plays(seat):
            obj: dict[str, Any] = {"seat": seat, "play": card}
            if suit is not None:
                obj["suit"] = suit
            out.append(obj)
        return out

    def apply(self, obj: dict[str, Any]) -> None:
        seat = obj["seat"]
        if "call" in obj:
            self.call(seat, obj["call"])
        elif "partner" in obj:
            self.partner_called = True
            card = obj["partner"]
            holder = next((s for s in range(self.players) if card in self.cards[s]), None)
            if card != "alone" and holder is not None and holder != seat:
                self.partner = holder
        elif "discard" in obj:
            pool = self.cards[seat] + self.kitty
            self.cards[seat] = [c for c in pool if c not in obj["discard"]]
            self.discarded = True
        elif "nominate" in obj:
            self.nominated = True
            self.joker_suit = None if obj["nominate"] == "none" else obj["nominate"]
        else:
            self._play(seat, obj["play"], obj.get("suit"))

    def _play(self, seat: int, card: str, named: str | None) -> None:
        active = self.active()
        if not self.tricks or len(self.tricks[-1]) == len(active):
            self.tricks.append([])
            led = named if named is not None else self.eff_suit(card)
            if led is not None:
                self.led_suits.add(led)
        self.cards[seat].remove(card)
        self.tricks[-1].append((seat, card, named))
        trick = self.tricks[-1]
        if len(trick) < len(active):
            return
        first = trick[0]
        free = self.trump() is None and self.joker_suit is None
        led = first[2] if first[1] == "JK" and free else self.eff_suit(first[1])
        winner = max(trick, key=lambda p: self.strength(p[1], led))[0]
        self.won.append(winner)
        assert self.contract is not None
        lost = is_misere(self.contract[1]) and winner == self.contract[0]
        if lost and self.opt("misere_early_end", True):
            self.over = True
        if len(self.tricks) == 10:
            self.over = True

    # -- scoring and the end of a one-hand game, from zero totals

    def value(self) -> int:
        assert self.contract is not None
        bid = self.contract[1].split("/")[0]
        if bid == "MIS":
            return 250
        if bid in ("OM", "BM"):
            return 500
        strain = bid[-2:] if bid.endswith("NT") else bid[-1]
        index = ("S", "C", "D", "H", "NT").index(strain)
        return 40 + 20 * index + 100 * (level(bid) - 6)

    def result(self) -> dict[str, Any]:
        nsides = len(self.sides())
        if self.contract is None:
            zeros = [0] * nsides
            return {"contract": None, "tricks": zeros, "score": zeros, "totals": zeros}
        seat, bid = self.contract
        tricks = [0] * nsides
        for winner in self.won:
            tricks[self.side_of(winner)] += 1
        makers = [seat] if self.partner is None else [seat, self.partner]
        maker_sides = {self.side_of(m) for m in makers}
        taken = sum(tricks[side] for side in maker_sides)
        score = [0] * nsides
        value = self.value()
        if is_misere(bid):
            made = taken == 0
            for side in maker_sides:
                score[side] = value if made else -value
        else:
            made = taken >= level(bid)
            gain = value
            if taken == 10 and value < 250 and self.opt("slam_bonus", True):
                gain = 250
            for side in maker_sides:
                score[side] = gain if made else -value
            points = self.opt("defender_trick_points", "always")
            if points == "always" or (points == "on_fail_only" and not made):
                for side in range(nsides):
                    if side not in maker_sides:
                        score[side] = 10 * tricks[side]
        contract: dict[str, Any] = {"seat": seat, "bid": bid}
        if self.partner is not None:
            contract["partner"] = self.partner
        self.made = made
        self.maker_sides = maker_sides
        return {"contract": contract, "tricks": tricks, "score": score, "totals": list(score)}

    def game_result(self, totals: list[int]) -> dict[str, Any] | None:
        """The game's end after this one hand, if it ended (R-11.1, default target and lose_at)."""
        if self.contract is None:
            return None
        makers = sorted(self.maker_sides)
        if self.made:
            winners = [side for side in makers if totals[side] >= 500]
            if winners:
                winner: Any = winners[0] if len(winners) == 1 else winners
                return {"scores": totals, "winner": winner, "reason": "contract"}
            return None
        losers = [side for side in makers if totals[side] <= -500]
        if not losers:
            return None
        others = [side for side in range(len(totals)) if side not in losers]
        best = max(totals[side] for side in others)
        winners = [side for side in others if totals[side] == best]
        winner = winners[0] if len(winners) == 1 else winners
        return {"scores": totals, "winner": winner, "reason": "backdoor"}


# -- the command line ---------------------------------------------------------------------------


def legal(record: dict[str, Any], tmp: Path) -> dict[str, Any]:
    path = tmp / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["legal", "--json", str(path)])
    assert code == 0, out.getvalue()
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


def normal(actions: list[dict[str, Any]]) -> list[str]:
    """Actions as comparable text: a discard is a set of cards, the list is a set of actions."""
    out = []
    for action in actions:
        action = dict(action)
        if "discard" in action:
            action["discard"] = sorted(action["discard"])
        out.append(json.dumps(action, sort_keys=True))
    assert len(set(out)) == len(out), "an action is listed twice"
    return sorted(out)


def record_of(
    players: int,
    options: dict[str, Any],
    dealer: int,
    deal: dict[str, Any],
    actions: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "format": "fivehundred-record",
        "version": 1,
        "rules": {"ruleset": "australian", "players": players, "options": options},
        "seats": [{"name": f"seat {i}"} for i in range(players)],
        "hands": [{"dealer": dealer, "deal": deal, "actions": actions}],
    }


# -- random hands against the reference ---------------------------------------------------------

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"misere_requires_seven": False},
    {"allow_blind_misere": True, "allow_sans_kitty": True},
    {"misere_rank": "by_points", "open_misere_after_eight": True},
    {"self_raise_after_all_pass": True},
    {"single_round_bidding": True},
    {"first_lead": "eldest"},
    {"joker_prenomination": False},
    {"joker_after_all_suits_led": "no_play_until_last_trick", "joker_prenomination": False},
    {"joker_lead_last_trick_only": True, "joker_prenomination": False},
    {"misere_joker_compulsion": False, "misere_early_end": False},
    {"allow_misere": False, "allow_open_misere": False},
    {"six_player_teams": "three_of_two"},
    {"five_player_pack": "500pack", "allow_sans_kitty": True},
    {"defender_trick_points": "on_fail_only"},
    {"defender_trick_points": "never", "slam_bonus": False},
    {"allow_open_misere": False, "allow_blind_misere": True},
    {"first_lead": "eldest", "misere_early_end": False},
    {"joker_after_all_suits_led": "no_play_until_last_trick"},
    {"single_round_bidding": True, "allow_sans_kitty": True, "allow_blind_misere": True},
]


def random_hand(
    rng: random.Random,
    players: int,
    options: dict[str, Any],
    tmp: Path,
    *,
    mutants: int = 0,
) -> int:
    """Play one hand choosing among the reference's actions; at every step the command line
    must list exactly the same actions (and, with ``mutants``, the verifier must judge that many
    other actions as the reference does). Returns the number of steps checked."""
    cards = pack(players, options)
    rng.shuffle(cards)
    dealer = rng.randrange(players)
    deal: dict[str, Any] = {
        "hands": [cards[10 * i : 10 * i + 10] for i in range(players)],
        "kitty": cards[10 * players : 10 * players + 3],
    }
    if players == 2:
        deal["dead"] = cards[23:33]
    record = record_of(players, options, dealer, deal, [])
    ref = Hand(players, options, dealer, [list(h) for h in deal["hands"]], list(deal["kitty"]))
    pass_rate = rng.choice([0.3, 0.6, 0.8])
    steps = 0
    while not ref.over:
        expected = ref.legal()
        for _ in range(mutants):
            judge_mutant(rng, record, ref, cards, expected)
        if mutants:
            judge_termination(rng, record, ref)
            judge_variation(rng, record, players, options, dealer, deal)
        got = legal(record, tmp)
        assert got["seat"] == ref.to_act()
        assert normal(got["actions"]) == normal(expected), (players, options, record)
        if "call" in expected[0]:
            bids = [a for a in expected if a["call"] != "PASS"]
            liked = [b for b in bids if any(t in b["call"] for t in ("NT", "MIS", "OM", "BM"))]
            if not bids or rng.random() < pass_rate:
                action = expected[0]
            elif liked and rng.random() < 0.6:
                action = rng.choice(liked[:4])
            else:
                action = rng.choice(bids[:8])
        else:
            action = rng.choice(expected)
        record["hands"][0]["actions"].append(action)
        ref.apply(action)
        steps += 1
    # The reference says the hand is over: the verifier must agree (it wants the result now).
    verdict = verify(json.dumps(record))
    first = verdict.errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/hands/0"), first
    # And the reference's own scoring of the hand (and of the game, if it ended) is what the
    # verifier derives.
    result = ref.result()
    record["hands"][0]["result"] = result
    ended = ref.game_result(result["totals"])
    if ended is not None:
        record["result"] = ended
    verdict = verify(json.dumps(record))
    assert verdict.valid, (verdict.errors, record)
    assert verdict.scores == result["totals"]
    assert verdict.status == ("complete" if ended else "in_progress")
    for _ in range(mutants):
        # Anything after the end of the hand is an extra action, whoever makes it.
        record.pop("result", None)
        del record["hands"][0]["result"]
        judge_mutant(rng, record, ref, cards, [])
        record["hands"][0]["result"] = result
    return steps


def random_action(rng: random.Random, seat: int, ref: Hand, cards: list[str]) -> dict[str, Any]:
    """A well-formed action of any verb, legal or not."""
    verb = rng.choice(["call", "partner", "discard", "nominate", "play", "play"])
    if verb == "call":
        return {
            "seat": seat,
            "call": rng.choice(["PASS", "BM", *bid_ladder({"allow_sans_kitty": True})]),
        }
    if verb == "partner":
        return {"seat": seat, "partner": rng.choice(["alone", *cards])}
    if verb == "discard":
        pool = ref.cards[seat] + ref.kitty if rng.random() < 0.7 else cards
        size = min(len(pool), rng.choice([3, 3, 2, 4]))
        return {"seat": seat, "discard": rng.sample(pool, size)}
    if verb == "nominate":
        return {"seat": seat, "nominate": rng.choice([*SUITS, "none"])}
    held = ref.cards[seat] if ref.cards[seat] and rng.random() < 0.8 else cards
    action: dict[str, Any] = {"seat": seat, "play": rng.choice(held)}
    if rng.random() < 0.3 or (action["play"] == "JK" and rng.random() < 0.7):
        action["suit"] = rng.choice(SUITS)
    return action


def judge_mutant(
    rng: random.Random,
    record: dict[str, Any],
    ref: Hand,
    cards: list[str],
    expected: list[dict[str, Any]],
) -> None:
    """Append one action and check the verifier's first error against section 7's order: the
    hand is over (``extra_action``), then the seat (``wrong_seat``), then the action itself."""
    to_act = ref.to_act()
    if expected and rng.random() < 0.3:
        action = dict(rng.choice(expected))
        action["seat"] = rng.randrange(ref.players + 1)
    else:
        seat = to_act if to_act is not None and rng.random() < 0.7 else rng.randrange(ref.players)
        action = random_action(rng, seat, ref, cards)
    actions = record["hands"][0]["actions"]
    actions.append(action)
    try:
        verdict = verify(json.dumps(record))
    finally:
        actions.pop()
    at = f"/hands/0/actions/{len(actions)}"
    first = verdict.errors[0] if verdict.errors else None
    if ref.over:
        want: tuple[str, str] | None = ("extra_action", at)
    elif action["seat"] != to_act:
        want = ("wrong_seat", at)
    elif normal([action])[0] in normal(expected):
        want = None  # legal: no error at this action (the hand may now want its result)
    else:
        want = ("illegal_action", at)
    if want is None:
        assert first is None or first.pointer in ("/hands/0", "/result", ""), (action, first)
    else:
        assert first is not None and (first.code, first.pointer) == want, (action, first, record)


def judge_variation(
    rng: random.Random,
    record: dict[str, Any],
    players: int,
    options: dict[str, Any],
    dealer: int,
    deal: dict[str, Any],
) -> None:
    """An annotation on a random action with a variation: legal steps from the state before
    that action (the reference plays them), then perhaps one random step that the reference
    judges. The verifier must accept the legal ones and point at the first bad step."""
    actions = record["hands"][0]["actions"]
    if not actions:
        return
    j = rng.randrange(len(actions))
    ref = Hand(players, options, dealer, [list(h) for h in deal["hands"]], list(deal["kitty"]))
    for action in actions[:j]:
        ref.apply(action)
    variation: list[dict[str, Any]] = []
    for _ in range(rng.randrange(6)):
        if ref.over:
            break
        step = rng.choice(ref.legal())
        variation.append(step)
        ref.apply(step)
    bad = None
    if rng.random() < 0.6:
        expected = [] if ref.over else ref.legal()
        to_act = ref.to_act()
        seat = to_act if to_act is not None and rng.random() < 0.7 else rng.randrange(players)
        step = random_action(rng, seat, ref, pack(players, options))
        variation.append(step)
        if ref.over or seat != to_act or normal([step])[0] not in normal(expected):
            bad = len(variation) - 1
    note = {"hand": 0, "action": j, "glyph": "?!", "variation": variation}
    record["annotations"] = [note]
    try:
        verdict = verify(json.dumps(record))
    finally:
        del record["annotations"]
    if bad is None:
        assert verdict.valid, (verdict.errors, note)
    else:
        first = verdict.errors[0]
        assert (first.code, first.pointer) == ("bad_annotation", f"/annotations/0/variation/{bad}")


def judge_termination(rng: random.Random, record: dict[str, Any], ref: Hand) -> None:
    """A termination now, by a random seat, with the forfeit result that seat's fault gives:
    valid for a seat that resigned, or for the seat to act when it timed out, crashed or acted
    illegally; ``bad_termination`` at its seat otherwise (section 5)."""
    reason = rng.choice(["timeout", "crash", "illegal_action", "resigned"])
    seat = rng.randrange(ref.players)
    nsides = len(ref.sides())
    loser = ref.side_of(seat)
    others = [s for s in range(nsides) if s != loser]
    winner: Any = others[0] if len(others) == 1 else others  # every total is 0: all share
    record["termination"] = {"reason": reason, "seat": seat}
    record["result"] = {"scores": [0] * nsides, "winner": winner, "reason": "forfeit"}
    try:
        verdict = verify(json.dumps(record))
    finally:
        del record["termination"], record["result"]
    if reason == "resigned" or seat == ref.to_act():
        assert verdict.valid, verdict.errors
        assert verdict.winner == winner and verdict.status == "complete"
    else:
        first = verdict.errors[0]
        assert (first.code, first.pointer) == ("bad_termination", "/termination/seat")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_review_actions_are_judged_in_the_order_of_section_7(players: int, tmp_path: Path) -> None:
    rng = random.Random(f"review-mutants-{players}")
    for k in range(4):
        random_hand(
            rng, players, OPTION_SETS[(3 * k + players) % len(OPTION_SETS)], tmp_path, mutants=3
        )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_review_legal_matches_the_reference_in_random_hands(players: int, tmp_path: Path) -> None:
    rng = random.Random(f"review-legal-{players}")
    steps = 0
    for k in range(len(OPTION_SETS)):
        steps += random_hand(rng, players, OPTION_SETS[k % len(OPTION_SETS)], tmp_path)
    assert steps > 100


# -- tricky states, spelled out -----------------------------------------------------------------

# Dealer 3, so seat 0 calls first. Seat 0 holds the joker and is void in diamonds.
DEAL = {
    "hands": [
        ["JK", "AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"],
        ["9H", "8H", "7H", "QS", "JS", "10S", "AD", "JC", "10C", "KD"],
        ["6H", "5H", "4H", "9S", "8S", "7S", "9C", "8C", "7C", "QD"],
        ["JH", "JD", "10D", "9D", "8D", "7D", "6D", "6S", "5S", "6C"],
    ],
    "kitty": ["5D", "4D", "5C"],
}
NT_BY_0 = [
    {"seat": 0, "call": "7NT"},
    {"seat": 1, "call": "PASS"},
    {"seat": 2, "call": "PASS"},
    {"seat": 3, "call": "PASS"},
    {"seat": 0, "discard": ["5D", "4D", "5C"]},
]
# Seat 0 wins nine tricks in a row and keeps the joker for the last (hearts, spades, clubs led).
NINE_TRICKS = [
    ("AH", "9H", "6H", "JH"),
    ("KH", "8H", "5H", "5S"),
    ("QH", "7H", "4H", "6S"),
    ("10H", "10S", "7S", "6C"),
    ("AS", "QS", "9S", "6D"),
    ("KS", "JS", "8S", "7D"),
    ("AC", "JC", "9C", "8D"),
    ("KC", "10C", "8C", "9D"),
    ("QC", "AD", "7C", "10D"),
]


def plays(tricks: list[tuple[str, ...]]) -> list[dict[str, Any]]:
    return [{"seat": s, "play": c} for trick in tricks for s, c in enumerate(trick)]


def four(actions: list[dict[str, Any]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return record_of(4, options or {}, 3, copy.deepcopy(DEAL), copy.deepcopy(actions))


def acts(seat: int, verb: str, values: list[Any]) -> list[dict[str, Any]]:
    return [{"seat": seat, verb: v} for v in values]


def test_review_nomination_choices(tmp_path: Path) -> None:
    got = legal(four(NT_BY_0), tmp_path)
    assert normal(got["actions"]) == normal(acts(0, "nominate", ["S", "C", "D", "H", "none"]))


def test_review_no_nomination_when_the_joker_is_discarded(tmp_path: Path) -> None:
    actions = [*NT_BY_0[:4], {"seat": 0, "discard": ["JK", "4D", "5C"]}]
    got = legal(four(actions), tmp_path)
    held = ["AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC", "5D"]
    assert normal(got["actions"]) == normal(acts(0, "play", held))


def test_review_joker_lead_names_any_suit_at_the_first_trick(tmp_path: Path) -> None:
    got = legal(four([*NT_BY_0, {"seat": 0, "nominate": "none"}]), tmp_path)
    others = ["AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"]
    jokers = [{"seat": 0, "play": "JK", "suit": s} for s in ("S", "C", "D", "H")]
    assert normal(got["actions"]) == normal(acts(0, "play", others) + jokers)


def test_review_joker_lead_names_only_suits_not_yet_led(tmp_path: Path) -> None:
    actions = [*NT_BY_0, {"seat": 0, "nominate": "none"}, *plays(NINE_TRICKS[:1])]
    got = legal(four(actions), tmp_path)
    others = ["KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"]
    jokers = [{"seat": 0, "play": "JK", "suit": s} for s in ("S", "C", "D")]
    assert normal(got["actions"]) == normal(acts(0, "play", others) + jokers)
    # Trick 9: hearts, spades and clubs have been led, diamonds not.
    actions = [*NT_BY_0, {"seat": 0, "nominate": "none"}, *plays(NINE_TRICKS[:8])]
    got = legal(four(actions), tmp_path)
    assert normal(got["actions"]) == normal(
        [{"seat": 0, "play": "QC"}, {"seat": 0, "play": "JK", "suit": "D"}]
    )
    # With joker_lead_last_trick_only the joker waits for trick 10.
    options = {"joker_lead_last_trick_only": True}
    got = legal(four(actions, options), tmp_path)
    assert normal(got["actions"]) == normal([{"seat": 0, "play": "QC"}])


def test_review_joker_lead_at_the_last_trick_names_no_suit(tmp_path: Path) -> None:
    actions = [*NT_BY_0, {"seat": 0, "nominate": "none"}, *plays(NINE_TRICKS)]
    got = legal(four(actions), tmp_path)
    assert got == {"seat": 0, "actions": [{"seat": 0, "play": "JK"}]}
    actions.append({"seat": 0, "play": "JK"})
    assert legal(four(actions), tmp_path) == {"seat": 1, "actions": [{"seat": 1, "play": "KD"}]}


def test_review_nominated_joker_is_led_as_its_suit(tmp_path: Path) -> None:
    got = legal(four([*NT_BY_0, {"seat": 0, "nominate": "H"}]), tmp_path)
    held = ["JK", "AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"]
    assert normal(got["actions"]) == normal(acts(0, "play", held))


NT_BY_3 = [
    {"seat": 0, "call": "PASS"},
    {"seat": 1, "call": "PASS"},
    {"seat": 2, "call": "PASS"},
    {"seat": 3, "call": "7NT"},
    {"seat": 3, "discard": ["5D", "4D", "5C"]},
]
MIS_BY_3 = [
    {"seat": 0, "call": "7S"},
    {"seat": 1, "call": "PASS"},
    {"seat": 2, "call": "PASS"},
    {"seat": 3, "call": "MIS"},
    {"seat": 0, "call": "PASS"},
    {"seat": 3, "discard": ["5D", "4D", "5C"]},
]
SEAT_0 = ["JK", "AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"]


def test_review_void_defender_in_no_trumps_plays_anything(tmp_path: Path) -> None:
    got = legal(four([*NT_BY_3, {"seat": 3, "play": "6D"}]), tmp_path)
    assert normal(got["actions"]) == normal(acts(0, "play", SEAT_0))


def test_review_joker_cannot_follow_a_suit_held(tmp_path: Path) -> None:
    got = legal(four([*NT_BY_3, {"seat": 3, "play": "6C"}]), tmp_path)
    assert normal(got["actions"]) == normal(acts(0, "play", ["AC", "KC", "QC"]))


def test_review_misere_compulsion(tmp_path: Path) -> None:
    got = legal(four([*MIS_BY_3, {"seat": 3, "play": "6D"}]), tmp_path)
    assert got == {"seat": 0, "actions": [{"seat": 0, "play": "JK"}]}
    # JD is an ordinary diamond in misère.
    got = legal(four([*MIS_BY_3, {"seat": 3, "play": "JD"}]), tmp_path)
    assert got == {"seat": 0, "actions": [{"seat": 0, "play": "JK"}]}
    got = legal(
        four([*MIS_BY_3, {"seat": 3, "play": "6D"}], {"misere_joker_compulsion": False}), tmp_path
    )
    assert normal(got["actions"]) == normal(acts(0, "play", SEAT_0))


def test_review_misere_partner_sits_out(tmp_path: Path) -> None:
    got = legal(four([*MIS_BY_3, {"seat": 3, "play": "6D"}, {"seat": 0, "play": "JK"}]), tmp_path)
    assert normal(got["actions"]) == normal(acts(2, "play", ["QD"]))


def test_review_discards_are_every_combination(tmp_path: Path) -> None:
    got = legal(four(NT_BY_0[:4]), tmp_path)
    pool = SEAT_0 + DEAL["kitty"]
    combos = [list(c) for c in itertools.combinations(pool, 3)]
    assert len(combos) == 286
    assert normal(got["actions"]) == normal(acts(0, "discard", combos))


def test_review_partner_call_list_in_five_players(tmp_path: Path) -> None:
    for options in ({}, {"five_player_pack": "500pack"}):
        cards = pack(5, options)
        assert len(cards) == 53
        deal = {"hands": [cards[10 * i : 10 * i + 10] for i in range(5)], "kitty": cards[50:]}
        auction = [{"seat": 1, "call": "6S"}] + [{"seat": s, "call": "PASS"} for s in (2, 3, 4, 0)]
        got = legal(record_of(5, options, 0, deal, auction), tmp_path)
        want = [
            {"seat": 1, "partner": "alone"},
            *acts(1, "partner", [c for c in cards if c != "JK"]),
        ]
        assert normal(got["actions"]) == normal(want)
        # A misère is played alone: no partner call, the discard comes next.
        auction = [
            {"seat": 1, "call": "7S"},
            {"seat": 2, "call": "MIS"},
            *({"seat": s, "call": "PASS"} for s in (3, 4, 0, 1)),
        ]
        got = legal(record_of(5, options, 0, deal, auction), tmp_path)
        assert got["seat"] == 2 and all("discard" in a for a in got["actions"])


LADDER = [f"{n}{x}" for n in range(6, 11) for x in ("S", "C", "D", "H", "NT")]
LADDER.insert(LADDER.index("8S"), "MIS")
LADDER.insert(LADDER.index("10H"), "OM")


def calls_after(actions: list[dict[str, Any]], options: dict[str, Any], tmp: Path) -> list[str]:
    got = legal(four(actions, options), tmp)
    return [a["call"] for a in got["actions"]]


def test_review_auction_misere_after_seven(tmp_path: Path) -> None:
    above_6s = [c for c in LADDER[LADDER.index("6S") + 1 :] if c != "MIS"]
    assert sorted(calls_after([{"seat": 0, "call": "6S"}], {}, tmp_path)) == sorted(
        ["PASS", *above_6s]
    )
    above_7s = LADDER[LADDER.index("7S") + 1 :]
    assert sorted(calls_after([{"seat": 0, "call": "7S"}], {}, tmp_path)) == sorted(
        ["PASS", *above_7s]
    )
    # Over 8S misère is too low by default; with the ranking by points it sits above 8S.
    above_8s = LADDER[LADDER.index("8S") + 1 :]
    assert sorted(calls_after([{"seat": 0, "call": "8S"}], {}, tmp_path)) == sorted(
        ["PASS", *above_8s]
    )
    by_points = {"misere_rank": "by_points"}
    assert "MIS" in calls_after([{"seat": 0, "call": "8S"}], by_points, tmp_path)
    assert "MIS" in calls_after([{"seat": 0, "call": "7NT"}], by_points, tmp_path)
    assert "MIS" not in calls_after([{"seat": 0, "call": "6NT"}], by_points, tmp_path)
    assert "MIS" in calls_after([], {"misere_requires_seven": False}, tmp_path)


def test_review_auction_open_and_blind_misere(tmp_path: Path) -> None:
    opening = calls_after([], {}, tmp_path)
    assert sorted(opening) == sorted(["PASS", *[c for c in LADDER if c != "MIS"]])
    assert "OM" not in calls_after([], {"open_misere_after_eight": True}, tmp_path)
    assert "OM" in calls_after(
        [{"seat": 0, "call": "8S"}], {"open_misere_after_eight": True}, tmp_path
    )
    blind = {"allow_blind_misere": True}
    assert "BM" in calls_after([], blind, tmp_path)
    assert "BM" in calls_after([{"seat": 0, "call": "10D"}], blind, tmp_path)
    # Equal in rank: neither outbids the other.
    assert calls_after([{"seat": 0, "call": "OM"}], blind, tmp_path) == ["PASS", "10H", "10NT"]
    assert calls_after([{"seat": 0, "call": "BM"}], blind, tmp_path) == ["PASS", "10H", "10NT"]
    # Only as the player's first call: seat 0 bid before.
    again = [{"seat": s, "call": c} for s, c in ((0, "6S"), (1, "6C"), (2, "PASS"), (3, "PASS"))]
    assert "BM" not in calls_after(again, blind, tmp_path)


def test_review_auction_sans_kitty(tmp_path: Path) -> None:
    sk = {"allow_sans_kitty": True}
    got = calls_after([{"seat": 0, "call": "7H"}], sk, tmp_path)
    assert got[:6] == ["PASS", "7H/SK", "7NT", "7NT/SK", "MIS", "MIS/SK"]
    assert "OM/SK" not in got and "BM/SK" not in got
    got = calls_after([{"seat": 0, "call": "10NT"}], sk, tmp_path)
    assert got == ["PASS", "10NT/SK"]
    record = four([{"seat": 0, "call": "7H/SK"}, *acts(1, "call", ["PASS"])], sk)
    record["hands"][0]["actions"] += [{"seat": 2, "call": "PASS"}, {"seat": 3, "call": "PASS"}]
    # A sans-kitty contract has no discard: the contractor leads at once.
    got = legal(record, tmp_path)
    assert normal(got["actions"]) == normal(acts(0, "play", SEAT_0))


def test_review_auction_self_raise(tmp_path: Path) -> None:
    raise_ = {"self_raise_after_all_pass": True}
    actions = [{"seat": 0, "call": "6S"}] + [{"seat": s, "call": "PASS"} for s in (1, 2, 3)]
    got = legal(four(actions, raise_), tmp_path)
    above = [c for c in LADDER[1:] if c != "MIS"]
    assert got["seat"] == 0
    assert sorted(a["call"] for a in got["actions"]) == sorted(["PASS", *above])
    # After the extra call the auction is over, whatever it was.
    got = legal(four([*actions, {"seat": 0, "call": "7S"}], raise_), tmp_path)
    assert got["seat"] == 0 and all("discard" in a for a in got["actions"])
    # Without the option there is no extra call (T-B13).
    got = legal(four(actions), tmp_path)
    assert all("discard" in a for a in got["actions"])


def test_review_auction_ten_no_trumps_ends_at_once(tmp_path: Path) -> None:
    """R-4.8(c) is checked after every call, also in a single-round auction: the players
    after a 10NT bid are not asked."""
    for options in ({}, {"single_round_bidding": True}):
        got = legal(four([{"seat": 0, "call": "10NT"}], options), tmp_path)
        assert got["seat"] == 0 and all("discard" in a for a in got["actions"])


def test_review_legal_between_hands_names_the_next_dealer(tmp_path: Path) -> None:
    record = four([*acts(0, "call", ["PASS"]), *({"seat": s, "call": "PASS"} for s in (1, 2, 3))])
    record["hands"][0]["result"] = {
        "contract": None,
        "tricks": [0, 0],
        "score": [0, 0],
        "totals": [0, 0],
    }
    assert legal(record, tmp_path) == {"seat": None, "actions": [], "next_dealer": 0}
    record["rules"]["options"]["all_pass"] = "redeal_same_dealer"
    assert legal(record, tmp_path) == {"seat": None, "actions": [], "next_dealer": 3}


# -- seeds (record format, section 4), read independently ---------------------------------------


def seeded_deal(players: int, options: dict[str, Any], seed: str, dealer: int) -> dict[str, Any]:
    cards = pack(players, options)

    def stream() -> Any:
        k = 0
        while True:
            yield from hashlib.sha256(f"{seed}:{k}".encode()).digest()
            k += 1

    source = stream()
    for i in range(len(cards) - 1, 0, -1):
        m = i + 1
        limit = (2**64 // m) * m
        while True:
            r = int.from_bytes(bytes(next(source) for _ in range(8)), "big")
            if r < limit:
                break
        j = r % m
        cards[i], cards[j] = cards[j], cards[i]
    order: list[Any] = (
        ["dead", (dealer + 1) % 2, dealer]
        if players == 2
        else [(dealer + 1 + i) % players for i in range(players)]
    )
    got: dict[Any, list[str]] = {who: [] for who in order}
    kitty: list[str] = []
    offset = 0
    for packet in (3, 4, 3):
        for who in order:
            got[who] += cards[offset : offset + packet]
            offset += packet
        kitty.append(cards[offset])
        offset += 1
    deal: dict[str, Any] = {"hands": [got[s] for s in range(players)], "kitty": kitty}
    if players == 2:
        deal["dead"] = got["dead"]
    deal["seed"] = seed
    return deal


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (4, {}), (5, {}), (5, {"five_player_pack": "500pack"}), (6, {})],
)
def test_review_seeded_deals_verify(players: int, options: dict[str, Any]) -> None:
    for dealer in range(players):
        for seed in ("club/7", "ünïcode", ""):
            deal = seeded_deal(players, options, seed, dealer)
            record = record_of(players, options, dealer, deal, [])
            verdict = verify(json.dumps(record))
            assert verdict.valid, verdict.errors
            # Two cards swapped between seats: the same pack, another deal.
            deal["hands"][0][0], deal["hands"][1][0] = deal["hands"][1][0], deal["hands"][0][0]
            first = verify(json.dumps(record)).errors[0]
            assert (first.code, first.pointer) == ("seed_mismatch", "/hands/0/deal/seed")


# -- whole games of summary hands: totals, caps and the end of the game (R-9, R-11) -------------

GAME_OPTIONS: list[dict[str, Any]] = [
    {},
    {"defender_points_cap": 490},
    {"defender_points_cap": 480, "defender_trick_points": "on_fail_only"},
    {"win_requires_contract": False},
    {"win_requires_contract": False, "target": 300, "lose_at": -300},
    {"back_door_needs_nonnegative_opponent": True},
    {"back_door_needs_nonnegative_opponent": True, "lose_at": -200},
    {"all_pass": "redeal_same_dealer", "slam_bonus": False},
    {"six_player_teams": "three_of_two", "defender_trick_points": "never"},
]


def game_end(
    options: dict[str, Any],
    totals: list[int],
    makers: list[int],
    made: bool,
) -> dict[str, Any] | None:
    """R-11.1 and R-11.3 after a hand with a contract, ``makers`` the contracting sides."""
    target = options.get("target", 500)
    lose_at = options.get("lose_at", -500)

    def share(sides: list[int]) -> Any:
        sides = sorted(sides)
        return sides[0] if len(sides) == 1 else sides

    def best_of(sides: list[int]) -> Any:
        if not sides:
            return None
        top = max(totals[s] for s in sides)
        return share([s for s in sides if totals[s] == top])

    if made:
        winners = [s for s in makers if totals[s] >= target]
        if winners:
            return {"scores": totals, "winner": share(winners), "reason": "contract"}
    if not options.get("win_requires_contract", True):
        reached = [s for s in range(len(totals)) if totals[s] >= target]
        if reached:
            return {"scores": totals, "winner": best_of(reached), "reason": "target"}
    if made:
        return None
    if not any(totals[s] <= lose_at for s in makers):
        return None
    # every side at or below lose_at loses; with two sides the other side wins
    # whatever its score (R-11.1b).
    losers = [s for s in range(len(totals)) if totals[s] <= lose_at]
    if len(totals) == 2:
        losers = [s for s in makers if totals[s] <= lose_at]
    others = [s for s in range(len(totals)) if s not in losers]
    if options.get("back_door_needs_nonnegative_opponent", False):
        alive = [s for s in others if totals[s] > lose_at]
        if any(totals[s] < 0 for s in alive):
            return None
    if len(totals) == 2:
        return {"scores": totals, "winner": others[0], "reason": "backdoor"}
    return {"scores": totals, "winner": best_of(others), "reason": "backdoor"}


def random_summary_game(rng: random.Random, players: int, options: dict[str, Any]) -> None:
    ref = Hand(players, options, 0, [[] for _ in range(players)], [])
    sides = ref.sides()
    nsides = len(sides)
    cap = options.get("defender_points_cap")
    totals = [0] * nsides
    dealer = rng.randrange(players)
    hands: list[dict[str, Any]] = []
    ended = None
    bids = [b for b in bid_ladder(options) if not b.endswith("/SK")]
    for _ in range(60):
        if rng.random() < 0.1:
            zeros = [0] * nsides
            result = {"contract": None, "tricks": zeros, "score": zeros, "totals": list(totals)}
            hands.append({"dealer": dealer, "result": result})
            if options.get("all_pass") != "redeal_same_dealer":
                dealer = (dealer + 1) % players
            continue
        seat = rng.randrange(players)
        bid = rng.choice(bids)
        partner = None
        if players == 5 and not is_misere(bid) and rng.random() < 0.7:
            partner = rng.choice([s for s in range(players) if s != seat])
        makers = sorted(
            {ref.side_of(seat)} | ({ref.side_of(partner)} if partner is not None else set())
        )
        tricks = [0] * nsides
        if is_misere(bid) and rng.random() < 0.5:
            # A lost misère that ended early: the contractor's trick and some before it.
            tricks[makers[0]] = 1
            for _ in range(rng.randrange(10)):
                tricks[rng.choice([s for s in range(nsides) if s != makers[0]])] += 1
        else:
            for _ in range(10):
                tricks[rng.randrange(nsides)] += 1
        taken = sum(tricks[s] for s in makers)
        ref.contract = (seat, bid)
        value = ref.value()
        score = [0] * nsides
        if is_misere(bid):
            made = taken == 0
            for s in makers:
                score[s] = value if made else -value
        else:
            made = taken >= level(bid)
            gain = 250 if taken == 10 and value < 250 and options.get("slam_bonus", True) else value
            for s in makers:
                score[s] = gain if made else -value
            points = options.get("defender_trick_points", "always")
            if points == "always" or (points == "on_fail_only" and not made):
                for s in range(nsides):
                    if s not in makers:
                        new = totals[s] + 10 * tricks[s]
                        if cap is not None:
                            new = totals[s] if totals[s] >= cap else min(new, cap)
                        score[s] = new - totals[s]
        totals = [t + g for t, g in zip(totals, score, strict=True)]
        contract: dict[str, Any] = {"seat": seat, "bid": bid}
        if partner is not None:
            contract["partner"] = partner
        result = {"contract": contract, "tricks": tricks, "score": score, "totals": list(totals)}
        hands.append({"dealer": dealer, "result": result})
        dealer = (dealer + 1) % players
        ended = game_end(options, list(totals), makers, made)
        if ended is not None:
            break
    record = record_of(players, options, 0, {}, [])
    record["hands"] = hands
    if ended is not None:
        record["result"] = ended
    verdict = verify(json.dumps(record))
    assert verdict.valid, (verdict.errors[:2], record)
    assert verdict.scores == totals
    assert verdict.winner == (None if ended is None else ended["winner"])
    assert verdict.status == ("in_progress" if ended is None else "complete")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_review_summary_games_total_and_end_as_the_reference(players: int) -> None:
    rng = random.Random(f"review-games-{players}")
    for k in range(60):
        random_summary_game(rng, players, GAME_OPTIONS[k % len(GAME_OPTIONS)])


def test_review_legal_before_the_first_hand_and_after_the_end(tmp_path: Path) -> None:
    empty = record_of(4, {}, 0, {}, [])
    empty["hands"] = []
    assert legal(empty, tmp_path) == {"seat": None, "actions": [], "next_dealer": None}
    over = json.loads(
        (
            Path(__file__).parents[1] / "golden" / "examples" / "four-players-complete.json"
        ).read_text()
    )
    path = tmp_path / "over.json"
    path.write_text(json.dumps(over), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["legal", "--json", str(path)])
    assert code == 1 and out.getvalue() == "" and "over" in err.getvalue()


@pytest.mark.parametrize("called", ["kitty", "own", "other"])
def test_review_five_player_partner_in_kitty_or_own_hand_plays_alone(called: str) -> None:
    """R-1.4: a called card in the kitty or the contractor's own hand means playing alone;
    the result's contract then has no ``partner``."""
    rng = random.Random(f"review-partner-{called}")
    cards = pack(5, {})
    rng.shuffle(cards)
    deal = {"hands": [cards[10 * i : 10 * i + 10] for i in range(5)], "kitty": cards[50:]}
    auction = [{"seat": 1, "call": "6S"}] + [{"seat": s, "call": "PASS"} for s in (2, 3, 4, 0)]
    card = {
        "kitty": next(c for c in deal["kitty"] if c != "JK"),
        "own": next(c for c in deal["hands"][1] if c != "JK"),  # seat 1 is the contractor
        "other": next(c for c in deal["hands"][3] if c != "JK"),
    }[called]
    actions = [*auction, {"seat": 1, "partner": card}]
    ref = Hand(5, {}, 0, [list(h) for h in deal["hands"]], list(deal["kitty"]))
    for action in actions:
        ref.apply(action)
    while not ref.over:
        action = rng.choice(ref.legal())
        actions.append(action)
        ref.apply(action)
    record = record_of(5, {}, 0, deal, actions)
    result = ref.result()
    record["hands"][0]["result"] = result
    assert ("partner" in result["contract"]) is (called == "other")
    assert verify(json.dumps(record)).valid
    # Claiming the other reading is a contract mismatch.
    if called == "other":
        del result["contract"]["partner"]
    else:
        result["contract"]["partner"] = 3
    first = verify(json.dumps(record)).errors[0]
    assert (first.code, first.pointer) == ("result_mismatch", "/hands/0/result/contract")
