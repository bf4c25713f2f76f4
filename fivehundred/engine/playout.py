"""Fast random playouts for search bots: finish a hand from a play-phase state many times.

The public ``HandState`` builds an immutable state and action objects at every step, which is
right for verification and for bots that answer one decision, but too slow for Monte Carlo
search. Here a position is flattened once into lists of card indexes and per-contract tables,
and each playout runs on plain lists. The joker's special rules in no trumps and misère (R-7)
are applied exactly as in ``HandState``; the tests compare both on many random positions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import JOKER_INDEX
from .state import HandState, Phase
from .tricks import NO_SUIT


@dataclass(frozen=True)
class PlayoutPosition:
    """A hand in its play phase, flattened for fast playouts."""

    hands: tuple[tuple[int, ...], ...]  # per seat, card indexes
    order: tuple[int, ...]  # next active seat after each seat
    nactive: int
    to_act: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    led: int
    trick_no: int
    suits_led: int
    won: tuple[int, ...]
    suit_of: tuple[int, ...]
    trump_power: tuple[int, ...]
    rank_power: tuple[int, ...]
    free_joker: bool
    misere: bool
    contractor: int
    early_end: bool
    compulsion: bool
    no_play_after_all_led: bool
    joker_lead_last_only: bool

    @classmethod
    def from_state(cls, state: HandState) -> PlayoutPosition:
        if state.phase is not Phase.PLAY:
            raise ValueError("playouts start from a state in the play phase")
        table = state._s.table
        contract = state.contract
        assert table is not None and contract is not None and state.to_act is not None
        opts = state.rules.options
        hands = tuple(tuple(i for i in range(65) if h >> i & 1) for h in state.hands)
        return cls(
            hands=hands,
            order=state._s.next,
            nactive=state._s.nactive,
            to_act=state.to_act,
            leader=state.leader,
            trick=state._trick,
            led=state._led,
            trick_no=state.trick_no,
            suits_led=state.suits_led,
            won=state.won,
            suit_of=table.suit_of,
            trump_power=table.trump_power,
            rank_power=table.rank_power,
            free_joker=table.trump < 0 and table.nominated < 0,
            misere=contract.call.is_misere,
            contractor=contract.seat,
            early_end=bool(opts["misere_early_end"]),
            compulsion=bool(opts["misere_joker_compulsion"]),
            no_play_after_all_led=opts["joker_after_all_suits_led"] == "no_play_until_last_trick",
            joker_lead_last_only=bool(opts["joker_lead_last_trick_only"]),
        )


def playout(
    pos: PlayoutPosition, rng: random.Random, trace: list[tuple[int, int, int]] | None = None
) -> list[int]:
    """Finish the hand with uniformly random legal plays; return tricks won per seat.

    ``trace``, when given, receives ``(seat, card index, named suit or -1)`` for every play,
    so that tests can replay a playout through ``HandState``.
    """
    rand = rng.random
    suit_of = pos.suit_of
    trump_power = pos.trump_power
    rank_power = pos.rank_power
    order = pos.order
    nactive = pos.nactive
    free_joker = pos.free_joker
    hands = [list(h) for h in pos.hands]
    won = list(pos.won)
    trick = [c for _, c in pos.trick]
    seats = [s for s, _ in pos.trick]
    led = pos.led
    seat = pos.to_act
    trick_no = pos.trick_no
    suits_led = pos.suits_led
    while True:
        hand = hands[seat]
        if not trick:
            if free_joker and JOKER_INDEX in hand:
                choices = _joker_lead_choices(pos, hand, trick_no, suits_led)
                card, led = choices[int(rand() * len(choices))]
            else:
                card = hand[int(rand() * len(hand))]
                led = suit_of[card]
            if led != NO_SUIT:
                suits_led |= 1 << led
        else:
            follow = [c for c in hand if suit_of[c] == led]
            if not follow:
                follow = hand
                if free_joker and JOKER_INDEX in hand:
                    if pos.misere and pos.compulsion:
                        follow = [JOKER_INDEX]
                    elif pos.no_play_after_all_led and suits_led == 15 and trick_no < 9:
                        follow = [c for c in hand if c != JOKER_INDEX]
            card = follow[int(rand() * len(follow))]
        hand.remove(card)
        if trace is not None:
            named = (
                led if not trick and card == JOKER_INDEX and free_joker and led != NO_SUIT else -1
            )
            trace.append((seat, card, named))
        trick.append(card)
        seats.append(seat)
        if len(trick) < nactive:
            seat = order[seat]
            continue
        best_key = -2
        best = 0
        for i, c in enumerate(trick):
            tp = trump_power[c]
            key = 1000 + tp if tp else (rank_power[c] if suit_of[c] == led else -1)
            if key > best_key:
                best_key = key
                best = i
        winner = seats[best]
        won[winner] += 1
        trick_no += 1
        if trick_no == 10 or (pos.misere and pos.early_end and winner == pos.contractor):
            return won
        trick = []
        seats = []
        seat = winner


def _joker_lead_choices(
    pos: PlayoutPosition, hand: list[int], trick_no: int, suits_led: int
) -> list[tuple[int, int]]:
    suit_of = pos.suit_of
    out = [(c, suit_of[c]) for c in hand if c != JOKER_INDEX]
    if trick_no == 9:
        out.append((JOKER_INDEX, NO_SUIT))
    elif not pos.joker_lead_last_only:
        out += [(JOKER_INDEX, s) for s in range(4) if not suits_led >> s & 1]
    return out


def random_playouts(pos: PlayoutPosition, n: int, rng: random.Random) -> list[int]:
    """Tricks won per seat, summed over ``n`` random playouts from ``pos``."""
    total = [0] * len(pos.hands)
    for _ in range(n):
        for seat, t in enumerate(playout(pos, rng)):
            total[seat] += t
    return total
