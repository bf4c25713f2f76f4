"""Property tests over random legal play, for every player count and a spread of option sets."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fivehundred.engine import (
    CARDS,
    Deal,
    GameState,
    HandState,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    Suit,
    WrongSeatError,
    deal_from_seed,
)
from fivehundred.engine.cards import cards_of
from fivehundred.engine.playout import PlayoutPosition, playout

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"misere_requires_seven": False, "open_misere_expose": "before_opening_lead"},
    {"allow_blind_misere": True, "allow_sans_kitty": True, "misere_rank": "by_points"},
    {"self_raise_after_all_pass": True, "first_lead": "eldest", "joker_prenomination": False},
    {"single_round_bidding": True, "all_pass": "redeal_same_dealer", "slam_bonus": False},
    {
        "joker_after_all_suits_led": "no_play_until_last_trick",
        "misere_joker_compulsion": False,
        "misere_early_end": False,
        "defender_points_cap": 490,
    },
    {"joker_lead_last_trick_only": True, "defender_trick_points": "on_fail_only"},
    {
        "win_requires_contract": False,
        "back_door_needs_nonnegative_opponent": True,
        "open_misere_after_eight": True,
        "target": 300,
        "lose_at": -300,
    },
    {
        "five_player_pack": "500pack",
        "six_player_teams": "three_of_two",
        "defender_trick_points": "never",
    },
]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _play_hand(
    rules: Rules, seed: str, dealer: int, rng: random.Random, stop: int | None = None
) -> tuple[list[HandState], list[Any]]:
    """Random legal play of one hand; returns the states and the actions taken."""
    state = HandState.start(rules, dealer, deal_from_seed(rules, seed, dealer))
    states = [state]
    actions: list[Any] = []
    while not state.is_over and (stop is None or len(actions) < stop):
        legal = state.legal_actions()
        assert legal, "a state that is not over always has a legal action"
        action = legal[rng.randrange(len(legal))]
        state = state.apply(action)
        states.append(state)
        actions.append(action)
    return states, actions


def _location_masks(state: HandState) -> list[int]:
    """Where every card is: each hand, the kitty (until taken), discards, played, dead."""
    played = 0
    for _, plays, _ in state.tricks:
        for _, c in plays:
            played |= 1 << c
    for _, c in state._trick:
        played |= 1 << c
    kitty = 0
    contract = state.contract
    taken = (
        contract is not None
        and not contract.call.sans_kitty
        and state.phase
        not in (
            Phase.AUCTION,
            Phase.PARTNER,
        )
    )
    if not taken:
        for c in state.deal.kitty:
            kitty |= 1 << c.index
    dead = 0
    for c in state.deal.dead or ():
        dead |= 1 << c.index
    return [*state.hands, kitty, state.discarded, played, dead]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@SETTINGS
@given(seed=st.integers(0, 10**9), opts=st.sampled_from(OPTION_SETS))
def test_random_hands_keep_the_invariants(players: int, seed: int, opts: dict[str, Any]) -> None:
    rules = Rules.create(players, opts)
    rng = random.Random(seed)
    dealer = seed % players
    states, actions = _play_hand(rules, f"p{seed}", dealer, rng)
    for state, action in zip(states, [*actions, None], strict=True):
        # The pack is conserved: every card in exactly one place.
        masks = _location_masks(state)
        union = 0
        for m in masks:
            assert union & m == 0
            union |= m
        assert union == rules.pack_mask
        if action is None:
            continue
        # Only the seat to act may act.
        other = (state.to_act + 1) % players  # type: ignore[operator]
        with pytest.raises(WrongSeatError):
            state.apply(action, other)
        # Every legal action applies (a sample of the discards, all of the rest).
        legal = state.legal_actions()
        sample = legal if len(legal) < 60 else rng.sample(legal, 20)
        for a in sample:
            before = state.debug_json()
            state.apply(a)
            assert state.debug_json() == before, "apply must not change the state it is called on"
    final = states[-1]
    assert final.is_over and final.legal_actions() == []
    # Replaying the action list from the deal reproduces the hand exactly.
    again = HandState.start(rules, dealer, final.deal)
    for a in actions:
        again = again.apply(a)
    assert again.debug_json() == final.debug_json()
    assert again.tricks == final.tricks and again.contract == final.contract


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@SETTINGS
@given(seed=st.integers(0, 10**9), opts=st.sampled_from(OPTION_SETS))
def test_scores_change_only_by_allowed_values(
    players: int, seed: int, opts: dict[str, Any]
) -> None:
    rules = Rules.create(players, opts)
    rng = random.Random(seed)
    game = GameState.new(rules)
    dealer = seed % players
    for k in range(6):
        if game.is_over:
            break
        game = game.start_hand(dealer, deal_from_seed(rules, f"g{seed}:{k}", dealer))
        while game.in_hand:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
        res = game.hand_results[-1]
        before = (
            game.hand_results[-2].totals if len(game.hand_results) > 1 else (0,) * len(rules.sides)
        )
        assert tuple(b + s for b, s in zip(before, res.score, strict=True)) == res.totals
        assert all(s % 10 == 0 for s in res.score)
        if res.contract is None:
            assert res.score == (0,) * len(rules.sides)
        else:
            call = res.contract.call
            ours = {rules.side_of(res.contract.seat)}
            if res.contract.partner is not None:
                ours.add(rules.side_of(res.contract.partner))
            allowed = {call.value, -call.value, 250}
            for side, points in enumerate(res.score):
                if side in ours:
                    assert points in allowed
                elif call.is_misere:
                    assert points == 0
                else:
                    assert 0 <= points <= 10 * res.tricks[side]
        nd = game.next_dealer
        assert nd is not None
        dealer = nd
    if game.is_over:
        assert game.result is not None and game.legal_actions() == []


def _reshuffled(state: HandState, seat: int, rng: random.Random) -> Deal | None:
    """The same deal with the cards ``seat`` cannot know shuffled among the hands holding them."""
    deal = state.deal
    contract = state.contract
    played = {c for _, plays, _ in state.tricks for _, c in plays} | {c for _, c in state._trick}
    fixed = {seat} | ({contract.seat} if contract is not None else set())
    movable: list[tuple[str, int]] = []
    pool: list[int] = []
    for p, hand in enumerate(deal.hands):
        if p in fixed:
            continue
        for c in hand:
            if c.index not in played:
                movable.append(("h", p))
                pool.append(c.index)
    if contract is None:
        for c in deal.kitty:
            movable.append(("k", 0))
            pool.append(c.index)
    for c in deal.dead or ():
        movable.append(("d", 0))
        pool.append(c.index)
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    hands = [
        list(h) if p in fixed else [c for c in h if c.index in played]
        for p, h in enumerate(deal.hands)
    ]
    kitty = list(deal.kitty) if contract is not None else []
    dead: list[Any] = []
    for (kind, p), c in zip(movable, pool, strict=True):
        card = CARDS[c]
        if kind == "h":
            hands[p].append(card)
        elif kind == "k":
            kitty.append(card)
        else:
            dead.append(card)
    return Deal(
        tuple(map(tuple, hands)), tuple(kitty), tuple(dead) if deal.dead is not None else None
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), opts=st.sampled_from(OPTION_SETS), data=st.data())
def test_views_do_not_leak_unseen_cards(
    players: int, seed: int, opts: dict[str, Any], data: Any
) -> None:
    rules = Rules.create(players, opts)
    rng = random.Random(seed)
    dealer = seed % players
    states, actions = _play_hand(rules, f"v{seed}", dealer, rng)
    k = data.draw(st.integers(0, len(actions)))
    state = states[k]
    seat = data.draw(st.integers(0, players - 1))
    other = _reshuffled(state, seat, rng)
    assume(other is not None)
    assert other is not None
    alt = HandState.start(rules, dealer, other)
    try:
        for a in actions[:k]:
            alt = alt.apply(a)
    except IllegalActionError:
        assume(False)  # the reshuffle made an earlier play illegal; not a position to compare
    assert alt.view(seat).to_json() == state.view(seat).to_json()
    # The view never shows another seat's cards, except the exposed open misère hand.
    view = state.view(seat)
    if view.hand_hidden:
        assert view.hand == () and state.phase is Phase.AUCTION
    else:
        assert set(view.hand) == set(cards_of(state.hands[seat]))
    for p, cards in view.exposed.items():
        assert state.contract is not None and p == state.contract.seat and state.exposed()
        assert set(cards) == set(cards_of(state.hands[p]))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), opts=st.sampled_from(OPTION_SETS))
def test_fast_playouts_play_only_legal_cards(players: int, seed: int, opts: dict[str, Any]) -> None:
    """A playout's outcome is always one the public engine can reach by legal play."""
    rules = Rules.create(players, opts)
    rng = random.Random(seed)
    states, _ = _play_hand(rules, f"f{seed}", seed % players, rng)
    start = next((s for s in states if s.phase is Phase.PLAY), None)
    assume(start is not None)
    assert start is not None
    pos = PlayoutPosition.from_state(start)
    trace: list[tuple[int, int, int]] = []
    won = playout(pos, random.Random(seed), trace)
    # Every play of the playout is legal in the public engine, and the outcome is the same.
    state = start
    for seat, card, named in trace:
        state = state.apply(Play(CARDS[card], None if named < 0 else Suit(named)), seat)
    assert state.is_over
    assert list(state.won) == won
