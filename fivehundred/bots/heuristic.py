"""The ``heuristic`` built-in bot: a simple, readable card player that clearly beats ``random``.

It works on protocol objects (the view as ``view.to_json()`` and the legal actions in record
notation), so the same code runs in-process and in the sandbox, and it needs only the standard
library. What it does:

* bidding: estimates the tricks its hand takes with each trump (and in no trumps), adds what the
  partner(s) and the kitty are expected to bring, and bids the cheapest legal contract within
  that estimate; bids misère with a hand of low cards;
* kitty: keeps the 10 cards with the best estimate for its contract (for misère: the safest);
* joker: discarded in misère when possible, otherwise nominated to its longest suit; kept free
  (un-nominated) in no trumps, where it wins any trick;
* play: leads sure winners and draws trumps as contractor, wins cheaply, ducks when its side is
  already winning, ruffs when void, discards its least useful card; in misère plays to lose
  (contractor) or to make the contractor win (defenders).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

ActionObject = Mapping[str, Any]

SUITS = "SCDH"
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}
# Plain rank strength; the six-player pack's 11-13 rank between 10 and J.
RANK = {str(n): float(n) for n in range(2, 11)}
RANK.update({"11": 10.1, "12": 10.2, "13": 10.3, "J": 11, "Q": 12, "K": 13, "A": 14})

# Tricks expected from the partner(s) and from the three cards of the kitty.
_PARTNER_TRICKS = {2: 0.0, 3: 0.0, 4: 2.0, 5: 1.5, 6: 2.8}
_KITTY_TRICKS = 0.7


def parse_card(card: str) -> tuple[str, str | None]:
    """``"10H"`` -> ``("10", "H")``; the joker -> ``("JK", None)``."""
    if card == "JK":
        return "JK", None
    return card[:-1], card[-1]


class Contract:
    """What a bid means for card play: trump suit (``None`` in no trumps and misère)."""

    def __init__(self, bid: str | None, nominated: str | None = None) -> None:
        bid = (bid or "").split("/")[0]
        self.misere = bid in ("MIS", "OM", "BM")
        self.nt = bid.endswith("NT")
        self.trump: str | None = bid[-1] if bid and not self.misere and not self.nt else None
        self.nominated = nominated

    def suit_of(self, card: str) -> str | None:
        """Effective suit: bowers and joker are trumps; a free joker in NT/misère has none."""
        rank, suit = parse_card(card)
        if self.trump is not None:
            if rank == "JK" or (rank == "J" and suit == SAME_COLOUR[self.trump]):
                return self.trump
            return suit
        if rank == "JK":
            return self.nominated
        return suit

    def power(self, card: str) -> float:
        """Strength within its effective suit; trumps above every plain card."""
        rank, suit = parse_card(card)
        if rank == "JK":
            return 40.0 if self.trump is not None or self.nominated is None else 15.0
        if self.trump is not None:
            if rank == "J" and suit == self.trump:
                return 39.0
            if rank == "J" and suit == SAME_COLOUR[self.trump]:
                return 38.0
            if suit == self.trump:
                return 20.0 + RANK[rank]
        return RANK[rank]

    def beats(self, card: str, best: str, led: str | None) -> bool:
        """Whether ``card`` beats the trick's current best card ``best`` (led suit ``led``)."""
        suit, best_suit = self.suit_of(card), self.suit_of(best)
        if self.trump is None:
            if parse_card(best)[0] == "JK" and best_suit is None:
                return False
            if parse_card(card)[0] == "JK" and suit is None:
                return True
            return suit == led and (best_suit != led or self.power(card) > self.power(best))
        if suit == self.trump:
            return best_suit != self.trump or self.power(card) > self.power(best)
        if best_suit == self.trump:
            return False
        return suit == led and (best_suit != led or self.power(card) > self.power(best))


def estimate_tricks(hand: Sequence[str], trump: str | None) -> float:
    """Tricks this hand alone should take with ``trump`` (``None``: no trumps)."""
    contract = Contract(f"6{trump}" if trump else "6NT")
    by_suit: dict[str | None, list[float]] = {}
    for card in hand:
        by_suit.setdefault(contract.suit_of(card), []).append(contract.power(card))
    tricks = 0.0
    if trump is not None:
        trumps = sorted(by_suit.get(trump, []), reverse=True)
        n = len(trumps)
        for i, power in enumerate(trumps):
            if power >= 38 or (power >= 34 and i <= 2) or (power >= 33 and i <= 1):
                tricks += 1.0 if power >= 39 else 0.85
            elif n >= 3 and power >= 32:
                tricks += 0.5
        tricks += max(0, n - 3) * 0.65
        for suit in SUITS:
            if suit == trump:
                continue
            cards = by_suit.get(suit, [])
            if not cards and n >= 3:
                tricks += 0.6
            elif len(cards) == 1 and n >= 3:
                tricks += 0.3
            tricks += _side_winners(sorted(cards, reverse=True))
    else:
        if None in by_suit:  # the free joker wins a trick
            tricks += 1.0
        for suit in SUITS:
            cards = sorted(by_suit.get(suit, []), reverse=True)
            tricks += _side_winners(cards)
            if cards and cards[0] >= 14:
                tricks += max(0, len(cards) - 4) * 0.7
    return tricks


def _side_winners(powers: Sequence[float]) -> float:
    tricks = 0.0
    if powers and powers[0] >= 14:
        tricks += 0.9
        if len(powers) >= 2 and powers[1] >= 13:
            tricks += 0.7
    elif powers and powers[0] >= 13 and len(powers) >= 2:
        tricks += 0.45
    return tricks


def misere_danger(hand: Sequence[str]) -> float:
    """How likely the hand is to be forced to win a trick in misère (0 = perfectly safe)."""
    danger = 0.0
    by_suit: dict[str, list[float]] = {}
    for card in hand:
        rank, suit = parse_card(card)
        if suit is None:
            danger += 3.0  # the joker must win when void
            continue
        by_suit.setdefault(suit, []).append(RANK[rank])
    for cards in by_suit.values():
        cards.sort()
        # A card is safe when enough lower cards of its suit protect it.
        for i, strength in enumerate(cards):
            if strength - 2 * i > 7:
                danger += (strength - 2 * i - 7) / 4
    return danger


class HeuristicBot:
    """Decides from protocol objects; ``act`` also accepts engine views and actions."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)
        self.six_player_teams = "two_of_three"

    # -- the two interfaces -------------------------------------------------------------------

    def start(self, message: Mapping[str, Any]) -> None:
        options = message.get("rules", {}).get("options", {}) or {}
        self.six_player_teams = options.get("six_player_teams", "two_of_three")

    def act(self, view: Any, legal: Sequence[Any]) -> Any:
        """Bot interface: engine view and actions in, one of ``legal`` out."""
        if hasattr(view, "to_json"):
            from fivehundred.engine import action_to_json

            view_json = view.to_json()
            legal_json = [action_to_json(view_json["seat"], a) for a in legal]
            return legal[self.choose(view_json, legal_json)]
        return legal[self.choose(view, legal)]

    def choose(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        """The index of the chosen action in ``legal``."""
        if len(legal) == 1:
            return 0
        first = legal[0]
        if "call" in first:
            return self._bid(view, legal)
        if "partner" in first:
            return self._call_partner(view, legal)
        if "discard" in first:
            return self._discard(view, legal)
        if "nominate" in first:
            return self._nominate(view, legal)
        return self._play(view, legal)

    # -- auction ------------------------------------------------------------------------------

    def _bid(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        hand = view["hand"]
        players = view["players"]
        seat = view["seat"]
        bonus = _PARTNER_TRICKS.get(players, 0.0) + _KITTY_TRICKS
        estimates = {t: estimate_tricks(hand, t) + bonus for t in (*SUITS, None)}
        high = self._high_bid(view)
        partner_high = high is not None and self._same_side(view, high[0], seat)
        best: tuple[float, int] | None = None
        for i, action in enumerate(legal):
            call = action["call"]
            if call == "PASS" or "/" in call:
                continue
            if call in ("MIS", "OM", "BM"):
                danger = misere_danger(hand)
                limit = 0.6 if call == "MIS" else 0.0
                if call != "BM" and danger <= limit and not partner_high:
                    return i
                continue
            tricks = int(call[:2]) if call[:2] == "10" else int(call[0])
            trump = None if call.endswith("NT") else call[-1]
            estimate = estimates[trump]
            needed = tricks + (2 if partner_high else 0)
            if estimate >= needed:
                # Prefer the cheapest level, then the best fit.
                key = (-tricks + estimate / 100, i)
                if best is None or key > best:
                    best = key
        if best is not None:
            return best[1]
        return self._index(legal, {"call": "PASS"})

    @staticmethod
    def _high_bid(view: Mapping[str, Any]) -> tuple[int, str] | None:
        high = None
        for entry in view.get("auction", []):
            if entry["call"] != "PASS":
                high = (entry["seat"], entry["call"])
        return high

    def _call_partner(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        contract = Contract((view.get("contract") or {}).get("bid"))
        hand = set(view["hand"])
        best, best_power = None, -1.0
        for i, action in enumerate(legal):
            card = action["partner"]
            if card == "alone" or card in hand:
                continue
            power = contract.power(card) + (5 if contract.suit_of(card) == contract.trump else 0)
            if power > best_power:
                best, best_power = i, power
        return best if best is not None else 0

    # -- kitty --------------------------------------------------------------------------------

    def _discard(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        hand = view["hand"]
        contract = Contract((view.get("contract") or {}).get("bid"))
        best_index, best_score = 0, float("-inf")
        for i, action in enumerate(legal):
            gone = set(action["discard"])
            kept = [c for c in hand if c not in gone]
            if contract.misere:
                score = -misere_danger(kept)
            else:
                score = estimate_tricks(kept, contract.trump)
                # Break ties towards keeping high cards.
                score += sum(contract.power(c) for c in kept) / 1000
            if score > best_score:
                best_index, best_score = i, score
        return best_index

    def _nominate(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        contract = Contract((view.get("contract") or {}).get("bid"))
        if not contract.misere:
            # A free joker in no trumps wins any trick it is played to: keep it free.
            for i, action in enumerate(legal):
                if action["nominate"] == "none":
                    return i
        # In misère a free joker must win when its holder is void: tie it to the suit
        # with the most cards, where lower cards can be played under it.
        counts = {s: 0 for s in SUITS}
        for card in view["hand"]:
            suit = parse_card(card)[1]
            if suit:
                counts[suit] += 1
        best, best_count = 0, -1
        for i, action in enumerate(legal):
            suit = action["nominate"]
            if suit != "none" and counts.get(suit, 0) > best_count:
                best, best_count = i, counts[suit]
        return best

    # -- play ---------------------------------------------------------------------------------

    def _play(self, view: Mapping[str, Any], legal: Sequence[ActionObject]) -> int:
        bid = (view.get("contract") or {}).get("bid")
        contract = Contract(bid, view.get("nominated"))
        seat = view["seat"]
        declarer = (view.get("contract") or {}).get("seat")
        trick = view.get("current_trick") or {"cards": []}
        played = trick["cards"]
        if contract.misere:
            return self._play_misere(view, legal, contract, seat == declarer, declarer)
        if not played:
            return self._lead(view, legal, contract, declarer)
        led = self._led(played[0][1], trick, contract, legal)
        best_seat, best = played[0]
        for s, card in played[1:]:
            if contract.beats(card, best, led):
                best_seat, best = s, card
        active = view.get("active") or list(range(view["players"]))
        last_to_play = len(played) == len(active) - 1
        partner_winning = self._same_side(view, best_seat, seat)
        winners = [i for i, a in enumerate(legal) if contract.beats(a["play"], best, led)]
        if partner_winning and (last_to_play or self._is_top(best, view, contract)):
            return self._cheapest(legal, contract, keep_trumps=True)
        if winners and not partner_winning:
            return min(winners, key=lambda i: self._cost(legal[i]["play"], contract))
        return self._cheapest(legal, contract, keep_trumps=True)

    @staticmethod
    def _led(
        first: str, trick: Mapping[str, Any], contract: Contract, legal: Sequence[ActionObject]
    ) -> str | None:
        if parse_card(first)[0] != "JK" or contract.suit_of(first) is not None:
            return contract.suit_of(first)
        # A free joker lead names a suit the others must follow; the legal plays show it when
        # this seat holds that suit (and otherwise the joker wins whatever is played).
        suits = {contract.suit_of(a["play"]) for a in legal}
        return next(iter(suits)) if len(suits) == 1 else None

    def _lead(
        self,
        view: Mapping[str, Any],
        legal: Sequence[ActionObject],
        contract: Contract,
        declarer: int | None,
    ) -> int:
        seat = view["seat"]
        hand_size = len(view["hand"])
        our_contract = declarer is not None and self._same_side(view, declarer, seat)
        plain = [i for i, a in enumerate(legal) if parse_card(a["play"])[0] != "JK"]
        candidates = plain if plain and hand_size > 2 else list(range(len(legal)))
        # Draw trumps with a top trump when we are the contracting side.
        if our_contract and contract.trump is not None:
            for i in candidates:
                card = legal[i]["play"]
                if (
                    contract.suit_of(card) == contract.trump
                    and self._is_top(card, view, contract)
                    and self._opponents_may_hold_trumps(view, contract)
                ):
                    return i
        # Cash a sure winner in a side suit.
        for i in candidates:
            card = legal[i]["play"]
            if contract.suit_of(card) != contract.trump and self._is_top(card, view, contract):
                return i
        # Otherwise a low card from the longest side suit.
        lengths: dict[str | None, int] = {}
        for card in view["hand"]:
            suit = contract.suit_of(card)
            lengths[suit] = lengths.get(suit, 0) + 1
        side = [i for i in candidates if contract.suit_of(legal[i]["play"]) != contract.trump]
        pool = side or candidates
        return min(
            pool,
            key=lambda i: (
                -lengths.get(contract.suit_of(legal[i]["play"]), 0),
                contract.power(legal[i]["play"]),
            ),
        )

    def _play_misere(
        self,
        view: Mapping[str, Any],
        legal: Sequence[ActionObject],
        contract: Contract,
        is_declarer: bool,
        declarer: int | None,
    ) -> int:
        trick = view.get("current_trick") or {"cards": []}
        played = trick["cards"]
        if not played:
            # Lead the lowest card (the contractor to stay safe, defenders to force it higher).
            return min(range(len(legal)), key=lambda i: contract.power(legal[i]["play"]))
        led = self._led(played[0][1], trick, contract, legal)
        best_seat, best = played[0]
        for s, card in played[1:]:
            if contract.beats(card, best, led):
                best_seat, best = s, card
        losers = [i for i, a in enumerate(legal) if not contract.beats(a["play"], best, led)]
        if is_declarer:
            if losers:
                # The highest card that still loses: get rid of danger safely.
                return max(losers, key=lambda i: contract.power(legal[i]["play"]))
            return max(range(len(legal)), key=lambda i: contract.power(legal[i]["play"]))
        if best_seat == declarer and losers:
            # The contractor is winning: stay under it.
            return max(losers, key=lambda i: contract.power(legal[i]["play"]))
        return min(range(len(legal)), key=lambda i: contract.power(legal[i]["play"]))

    # -- helpers ------------------------------------------------------------------------------

    def _same_side(self, view: Mapping[str, Any], a: int, b: int) -> bool:
        if a == b:
            return True
        players = view["players"]
        if players == 4:
            return (a - b) % 2 == 0
        if players == 6:
            if self.six_player_teams == "three_of_two":
                return (a - b) % 3 == 0
            return (a - b) % 2 == 0
        if players == 5:
            contract = view.get("contract") or {}
            partner = view.get("partner")
            team = {contract.get("seat"), partner} - {None}
            return a in team and b in team
        return False

    def _seen(self, view: Mapping[str, Any]) -> set[str]:
        seen = set(view["hand"])
        for trick in view.get("tricks", []):
            seen.update(card for _, card in trick["cards"])
        current = view.get("current_trick") or {"cards": []}
        seen.update(card for _, card in current["cards"])
        seen.update(view.get("discarded") or ())
        return seen

    def _is_top(self, card: str, view: Mapping[str, Any], contract: Contract) -> bool:
        """Whether no unseen card of the same effective suit ranks above ``card``."""
        suit = contract.suit_of(card)
        power = contract.power(card)
        seen = self._seen(view)
        for other in _pack(view["players"]):
            if other in seen:
                continue
            if contract.suit_of(other) == suit and contract.power(other) > power:
                return False
        return True

    def _opponents_may_hold_trumps(self, view: Mapping[str, Any], contract: Contract) -> bool:
        seen = self._seen(view)
        return any(
            contract.suit_of(c) == contract.trump for c in _pack(view["players"]) if c not in seen
        )

    @staticmethod
    def _cost(card: str, contract: Contract) -> float:
        return contract.power(card)

    @staticmethod
    def _cheapest(legal: Sequence[ActionObject], contract: Contract, *, keep_trumps: bool) -> int:
        def cost(i: int) -> float:
            card = legal[i]["play"]
            value = contract.power(card)
            if keep_trumps and contract.suit_of(card) == contract.trump and contract.trump:
                value += 100
            if parse_card(card)[0] == "JK":
                value += 200
            return value

        return min(range(len(legal)), key=cost)

    @staticmethod
    def _index(legal: Sequence[ActionObject], wanted: Mapping[str, Any]) -> int:
        for i, action in enumerate(legal):
            if all(action.get(k) == v for k, v in wanted.items()):
                return i
        return 0


_PACKS: dict[int, tuple[str, ...]] = {}


def _pack(players: int) -> tuple[str, ...]:
    """The rules' pack for the player count (default options)."""
    if players not in _PACKS:
        if players in (2, 3):
            ranks = {s: ["7", "8", "9", "10", "J", "Q", "K", "A"] for s in SUITS}
        elif players == 4:
            ranks = {s: [str(n) for n in range(5, 11)] + ["J", "Q", "K", "A"] for s in SUITS}
            ranks["D"] = ["4", *ranks["D"]]
            ranks["H"] = ["4", *ranks["H"]]
        elif players == 5:
            ranks = {s: [str(n) for n in range(2, 11)] + ["J", "Q", "K", "A"] for s in SUITS}
        else:
            base = [str(n) for n in range(2, 11)] + ["11", "12", "J", "Q", "K", "A"]
            ranks = {s: list(base) for s in SUITS}
            ranks["D"].append("13")
            ranks["H"].append("13")
        _PACKS[players] = (*(r + s for s in SUITS for r in ranks[s]), "JK")
    return _PACKS[players]
