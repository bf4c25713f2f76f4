"""Builders for the table-driven rule tests: explicit deals, auctions by call text, and play.

Positions are written as card texts per seat; every card of the rules' pack not named is filled
in deterministically (pack order, seats in order, then the dead hand, then the kitty), so a test
names exactly the cards that matter to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from fivehundred.engine import (
    Card,
    Deal,
    GameState,
    HandState,
    IllegalActionError,
    Play,
    Rules,
    parse_action,
)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated canonical texts (``"JD 9S AC"``)."""
    return tuple(Card.parse(t) for t in text.split())


def texts(items: Iterable[Any]) -> set[str]:
    """Canonical texts of cards or actions, as a set."""
    return {str(x) for x in items}


def make_rules(players: int = 4, **options: Any) -> Rules:
    return Rules.create(players, options)


def build_deal(
    rules: Rules,
    hands: Mapping[int, str],
    kitty: str | None = None,
    dead: str | None = None,
) -> Deal:
    """A deal giving each named seat (and the kitty / dead hand) exactly the cards named.

    A seat named with fewer than 10 cards, and every seat not named, is topped up from the
    cards nobody was given, in pack order.
    """
    given: dict[int, list[Card]] = {s: list(cards(t)) for s, t in hands.items()}
    kitty_cards = list(cards(kitty)) if kitty is not None else None
    dead_cards = list(cards(dead)) if dead is not None else None
    named = [c for h in given.values() for c in h] + (kitty_cards or []) + (dead_cards or [])
    assert len(named) == len(set(named)), f"a card is named twice: {sorted(map(str, named))}"
    spare = [c for c in rules.pack if c not in set(named)]
    out: list[tuple[Card, ...]] = []
    for seat in range(rules.players):
        hand = given.get(seat, [])
        while len(hand) < 10:
            hand.append(spare.pop(0))
        out.append(tuple(hand))
    dead_hand: tuple[Card, ...] | None = None
    if rules.players == 2:
        dead_list = dead_cards or []
        while len(dead_list) < 10:
            dead_list.append(spare.pop(0))
        dead_hand = tuple(dead_list)
    if kitty_cards is None:
        kitty_cards = spare[:3]
        spare = spare[3:]
    assert not spare, f"cards left over: {[str(c) for c in spare]}"
    return Deal(hands=tuple(out), kitty=tuple(kitty_cards), dead=dead_hand)


def act(state: Any, *actions: str) -> Any:
    """Apply actions given as canonical text, each by the seat to act."""
    for text in actions:
        state = state.apply(parse_action(text))
    return state


def start(
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int = 3,
    hands: Mapping[int, str] | None = None,
    kitty: str | None = None,
    dead: str | None = None,
) -> HandState:
    """A hand at its first call."""
    rules = Rules.create(players, dict(options or {}))
    deal = build_deal(rules, hands or {}, kitty, dead)
    return HandState.start(rules, dealer, deal)


def to_play(
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    *,
    dealer: int = 3,
    hands: Mapping[int, str] | None = None,
    kitty: str | None = None,
    dead: str | None = None,
    calls: str,
    partner: str = "alone",
    discard: str | None = None,
    nominate: str = "none",
) -> HandState:
    """A hand driven through the auction (``calls`` as text), the partner call (five players),
    the discard (by default exactly the kitty's cards) and the joker nomination, to its first
    lead."""
    state = start(players, options, dealer=dealer, hands=hands, kitty=kitty, dead=dead)
    state = act(state, *calls.split())
    assert state.contract is not None, "the auction did not make a contract"
    if state.phase == "partner":
        state = act(state, f"partner {partner}")
    if state.phase == "discard":
        text = discard if discard is not None else " ".join(str(c) for c in state.deal.kitty)
        state = act(state, f"discard {text}")
    if state.phase == "nominate":
        state = act(state, f"nominate {nominate}")
    assert state.phase == "play", state.phase
    return state


def play(state: Any, *card_texts: str) -> Any:
    """Play cards in turn (``"JK H"`` leads the joker naming hearts)."""
    for text in card_texts:
        state = state.apply(parse_action(f"play {text}"))
    return state


def legal_plays(state: HandState) -> set[str]:
    """The legal plays of the seat to act, as card texts (``"JK S"`` for a named joker lead)."""
    out = set()
    for a in state.legal_actions():
        assert isinstance(a, Play)
        out.add(str(a).removeprefix("play "))
    return out


def legal_calls(state: HandState) -> set[str]:
    return texts(state.legal_actions())


def last_winner(state: HandState) -> int:
    """The winner of the last completed trick, as every seat sees it."""
    winner = state.view(0).tricks[-1].winner
    assert winner is not None
    return winner


def assert_illegal(state: Any, text: str, rule: str | None = None) -> IllegalActionError:
    """``text`` must be refused with ``IllegalActionError`` (naming ``rule`` when given), and
    must not be among the legal actions."""
    action = parse_action(text)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    if rule is not None:
        assert info.value.rule == rule, f"{text}: rule {info.value.rule}, expected {rule}"
    assert action not in state.legal_actions()
    return info.value


def assert_legal(state: Any, text: str) -> Any:
    """``text`` must be accepted and listed among the legal actions; returns the next state."""
    action = parse_action(text)
    assert action in state.legal_actions(), f"{text} not in legal actions"
    return state.apply(action)


def play_out(state: Any) -> Any:
    """Finish the hand (or game hand) by always taking the first legal action."""
    while not state.is_over and (not isinstance(state, GameState) or state.in_hand):
        state = state.apply(state.legal_actions()[0])
    return state


_SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}


def effective_suit(card: str, trump: str | None) -> str | None:
    """The suit a card belongs to for following (R-3.1, R-6.2), written out independently:
    in a suit contract the joker and the left bower are trumps; otherwise the printed suit
    (``None`` for the joker without trumps)."""
    if card == "JK":
        return trump
    suit = card[-1]
    if trump is not None and card == "J" + _SAME_COLOUR[trump]:
        return trump
    return suit


def single_trick(
    calls: str,
    plays: list[str],
    *,
    seats: list[int] | None = None,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    dealer: int = 3,
    nominate: str = "none",
) -> HandState:
    """Play one trick at trick 1: ``plays[i]`` by ``seats[i]`` (default 0, 1, 2, ...), the first
    being the contractor's lead. Every other card of the led suit goes to the leader, to the
    seats that follow suit, or to the kitty, so that whoever plays off-suit is void."""
    from fivehundred.engine import Call

    seats = seats if seats is not None else list(range(len(plays)))
    bids = [Call.parse(c) for c in calls.split() if c != "PASS"]
    trump = None if bids[-1].trump is None else str(bids[-1].trump)
    rules = Rules.create(players, dict(options or {}))
    lead = plays[0].split()
    led = lead[1] if len(lead) == 2 else effective_suit(lead[0], trump)
    card_of = {seat: p.split()[0] for seat, p in zip(seats, plays, strict=True)}
    used = set(card_of.values())
    spare = [str(c) for c in rules.pack if str(c) not in used]
    led_spare = [c for c in spare if led is not None and effective_suit(c, trump) == led]
    other = [c for c in spare if c not in led_spare]
    hands: dict[int, list[str]] = {s: [c] for s, c in card_of.items()}
    leader = seats[0]
    # The leader and every seat that follows suit may hold more of the led suit.
    following = [leader] + [s for s in seats[1:] if effective_suit(card_of[s], trump) == led]
    for seat in following:
        while led_spare and len(hands[seat]) < 10:
            hands[seat].append(led_spare.pop(0))
    kitty = led_spare[:3]
    assert len(led_spare) <= 3, "too many cards of the led suit to keep the others void"
    while len(kitty) < 3:
        kitty.append(other.pop(0))
    for seat in range(players):
        hand = hands.setdefault(seat, [])
        while len(hand) < 10:
            hand.append(other.pop(0))
    deal = build_deal(rules, {s: " ".join(h) for s, h in hands.items()}, " ".join(kitty))
    state = HandState.start(rules, dealer, deal)
    state = act(state, *calls.split())
    if state.phase == "partner":
        state = act(state, "partner alone")
    if state.phase == "discard":
        state = act(state, "discard " + " ".join(kitty))
    if state.phase == "nominate":
        state = act(state, f"nominate {nominate}")
    assert state.to_act == leader, (state.to_act, leader)
    return play(state, *plays)


_PLAIN_ORDER = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def _strength(card: str, trump: str | None) -> int:
    """Higher is stronger within the card's effective suit (R-3.1, R-3.2, R-3.4)."""
    if trump is not None:
        if card == "JK":
            return 100
        if card == "J" + trump:
            return 99
        if card == "J" + _SAME_COLOUR[trump]:
            return 98
    return 50 - _PLAIN_ORDER.index(card[:-1])


def position(
    calls: str,
    final: Mapping[int, str],
    *,
    leader: int,
    dealer: int = 3,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    tricks: int = 7,
    nominate: str = "none",
) -> HandState:
    """A hand after ``tricks`` tricks in which each seat named in ``final`` holds those cards
    (topped up to ``10 - tricks`` with cards nobody cares about) and ``leader`` is to lead.

    The tricks before are fillers: each is four (or, in misère, three) cards of one effective
    suit that nobody cares about; the first is led by the contractor and every one is won by
    ``leader``, who holds the top card of each. Every other card goes to the seats' remaining
    holdings, a sitting-out partner, or the kitty (which the contractor discards).
    """
    from fivehundred.engine import Call, deal_from_seed

    rules = Rules.create(players, dict(options or {}))
    probe = act(
        HandState.start(rules, dealer, deal_from_seed(rules, "probe", dealer)), *calls.split()
    )
    assert probe.contract is not None
    contractor = probe.contract.seat
    active = list(probe.active_seats)
    k = len(active)
    bids = [Call.parse(c) for c in calls.split() if c != "PASS"]
    trump = None if bids[-1].trump is None else str(bids[-1].trump)
    named = {s: t.split() for s, t in final.items()}
    used = {c for cs in named.values() for c in cs}
    pool = [str(c) for c in rules.pack if str(c) not in used]
    by_suit: dict[str | None, list[str]] = {}
    for c in pool:
        if c == "JK" and trump is None:
            continue  # the joker of no trumps is never a filler
        by_suit.setdefault(effective_suit(c, trump), []).append(c)
    groups: list[list[str]] = []
    piles = sorted(by_suit.values(), key=len, reverse=True)
    for pile in piles:
        pile.sort(key=lambda c: _strength(c, trump), reverse=True)
    # One trick of each suit in turn, so that the fillers lead as many suits as they can.
    while len(groups) < tricks and any(len(p) >= k for p in piles):
        for pile in piles:
            if len(pile) >= k and len(groups) < tricks:
                groups.append(pile[:k])
                del pile[:k]
    assert len(groups) == tricks, "not enough cards to build the filler tricks"
    grouped = {c for g in groups for c in g}
    spare = [c for c in pool if c not in grouped]
    hands: dict[int, list[str]] = {s: list(named.get(s, [])) for s in range(players)}
    plan: list[dict[int, str]] = []
    for g in groups:
        others = [s for s in active if s != leader]
        trick = {leader: g[0], **dict(zip(others, g[1:], strict=True))}
        plan.append(trick)
        for s, c in trick.items():
            hands[s].append(c)
    for s in range(players):
        while len(hands[s]) < 10:
            hands[s].append(spare.pop(0))
    assert len(spare) == 3, spare
    deal = build_deal(rules, {s: " ".join(h) for s, h in hands.items()}, " ".join(spare))
    state = HandState.start(rules, dealer, deal)
    state = act(state, *calls.split())
    if state.phase == "partner":
        state = act(state, "partner alone")
    if state.phase == "discard":
        state = act(state, "discard " + " ".join(spare))
    if state.phase == "nominate":
        state = act(state, f"nominate {nominate}")
    assert state.to_act == contractor or options
    for trick in plan:
        while True:
            seat = state.to_act
            state = play(state, trick[seat])
            if not state.current_trick:
                break
        assert last_winner(state) == leader
    assert state.to_act == leader
    for s, cs in named.items():
        assert set(cs) <= texts(state.hand_of(s)), (s, [str(c) for c in state.hand_of(s)])
    return state
