"""What each seat may know (design section 2; rules R-5.1 kitty, R-8.4 open misère exposure,
R-1.4 secret partner, R-1.3 dead hand, R-4.10 sans-kitty)."""

from __future__ import annotations

import pytest

from .helpers import act, play, start, texts, to_play

HANDS = {
    0: "AS KS QS JS 10S 9S 8S 7S 6S 5S",
    1: "AC KC QC JC 10C 9C 8C 7C 6C 5C",
    2: "AD KD QD JD 10D 9D 8D 7D 6D 5D",
    3: "AH KH QH JH 10H 9H 8H 7H 6H 5H",
}
KITTY = "4D 4H JK"


def all_views(state: object) -> list[object]:
    return [state.view(seat) for seat in range(4)]


def test_each_seat_sees_only_its_own_hand() -> None:
    state = start(hands=HANDS, kitty=KITTY)
    for seat, view in enumerate(all_views(state)):
        assert texts(view.hand) == set(HANDS[seat].split())
        others = set().union(*(set(HANDS[s].split()) for s in range(4) if s != seat))
        blob = str(view.to_json())
        for card in others | set(KITTY.split()):
            assert f"'{card}'" not in blob, (seat, card)


def test_kitty_only_to_the_contractor_after_taking_it() -> None:
    """R-5.1: the contractor picks up the kitty without showing it."""
    state = start(hands=HANDS, kitty=KITTY)
    state = act(state, "6S", "PASS", "PASS")
    assert all(v.kitty is None for v in all_views(state))
    state = act(state, "PASS")
    assert state.phase == "discard"
    views = all_views(state)
    assert views[0].kitty is not None and texts(views[0].kitty) == set(KITTY.split())
    for v in views[1:]:
        assert v.kitty is None
        assert "JK" not in str(v.to_json())
    state = act(state, "discard 4D 4H 5S")
    views = all_views(state)
    for v in views[1:]:
        assert v.kitty is None and not v.discarded
        blob = str(v.to_json())
        for card in ("4D", "4H", "5S", "JK"):
            assert f"'{card}'" not in blob


@pytest.mark.parametrize(
    ("option", "before_lead", "after_lead", "after_trick"),
    [
        (None, False, False, True),  # the default: after the first trick
        ("after_first_trick", False, False, True),
        ("before_opening_lead", True, True, True),
        ("after_opening_lead", False, True, True),
    ],
)
def test_open_misere_exposure(
    option: str | None, before_lead: bool, after_lead: bool, after_trick: bool
) -> None:
    """R-8.4: the open misère hand is shown only once exposed (per ``open_misere_expose``), to
    every other seat, and stays public."""
    hands = {0: "4D 5D 6D 7D 8D 4H 5H 6H 7H 8H", 1: "9D 10D JD QD KD AD 9H 10H JH QH"}
    state = to_play(
        options={} if option is None else {"open_misere_expose": option},
        hands=hands,
        kitty="9S 10S JS",
        calls="OM PASS PASS PASS",
    )

    def shown(st: object) -> list[bool]:
        out = []
        for seat in (1, 2, 3):
            exposed = st.view(seat).exposed
            if exposed:
                assert set(exposed) == {0}
                assert texts(exposed[0]) == texts(st.hand_of(0))
            out.append(bool(exposed))
        assert len(set(out)) == 1  # all other seats alike, the sitting-out partner included
        return out

    assert shown(state)[0] is before_lead
    state = play(state, "4D")
    assert shown(state)[0] is after_lead
    state = play(state, "9D")
    assert shown(state)[0] is after_lead
    state = state.apply(state.legal_actions()[0])
    assert last_trick_complete(state)
    assert shown(state)[0] is after_trick
    while not state.is_over:
        state = state.apply(state.legal_actions()[0])
        assert shown(state)[0] is True


def last_trick_complete(state: object) -> bool:
    return len(state.view(0).tricks) == 1 and state.view(0).current is None


@pytest.mark.parametrize("calls", ["7S PASS PASS MIS PASS", "6NT PASS PASS PASS"])
def test_plain_misere_and_nt_never_exposed(calls: str) -> None:
    """R-8.4 applies to open misère only; misère is closed."""
    state = to_play(calls=calls, dealer=0 if "MIS" in calls else 3)
    while not state.is_over:
        for v in all_views(state):
            assert v.exposed == {}
        state = state.apply(state.legal_actions()[0])


FIVE = {0: "AS KS QS 10S 9S 8S 7S 6S 5S 4S", 2: "JS AH KH QH JH 10H 9H 8H 7H 6H"}


def test_five_player_partner_revealed_only_when_card_played() -> None:
    """R-1.4: the called card's holder is a secret partner, revealed when the card is played."""
    state = to_play(
        5,
        dealer=4,
        hands=FIVE,
        kitty="2C 3C 4C",
        calls="6S PASS PASS PASS PASS",
        partner="JS",
    )
    assert state.contract is not None and state.contract.partner == 2
    for seat in (0, 1, 3, 4):
        assert state.view(seat).partner is None
        assert "'partner': 2" not in str(state.view(seat).to_json())
    # P0 leads AS; P1 follows; P2 must follow spades with JS (its only spade): revealed.
    state = play(state, "AS")
    state = state.apply(state.legal_actions()[0])
    for seat in (0, 1, 3, 4):
        assert state.view(seat).partner is None
    state = play(state, "JS")
    for seat in range(5):
        assert state.view(seat).partner == 2


def test_sans_kitty_contractor_never_sees_kitty() -> None:
    """R-4.10: the kitty stays face down and unseen, also by the contractor."""
    state = to_play(
        options={"allow_sans_kitty": True}, hands=HANDS, kitty=KITTY, calls="6S/SK PASS PASS PASS"
    )
    for v in all_views(state):
        assert v.kitty is None
        assert "'JK'" not in str(v.to_json())
