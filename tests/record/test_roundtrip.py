"""Round trip: bot games of every player count and many options, written, read back and
verified, with identical digests."""

from __future__ import annotations

import io
from typing import Any

import pytest

from fivehundred.record import digest, dump, dumps, load, loads, replay, verify
from fivehundred.record.play import play_game

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"allow_sans_kitty": True, "allow_blind_misere": True},
    {"all_pass": "redeal_same_dealer", "misere_rank": "by_points", "first_lead": "eldest"},
    {"win_requires_contract": False, "defender_points_cap": 490, "misere_early_end": False},
    {"joker_prenomination": False, "joker_after_all_suits_led": "no_play_until_last_trick"},
    {"single_round_bidding": True, "self_raise_after_all_pass": True, "slam_bonus": False},
    {"open_misere_after_eight": True, "misere_requires_seven": False, "target": 300},
    {"defender_trick_points": "never", "joker_lead_last_trick_only": True, "lose_at": -300},
]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_round_trip(players: int, options: dict[str, Any], bots: str) -> None:
    extra = {"six_player_teams": "three_of_two"} if players == 6 and bots == "random" else {}
    record = play_game(
        players=players, options={**options, **extra}, seed=f"rt-{players}", bots=[bots] * players
    )
    text = dumps(record)
    verdict = verify(text)
    assert verdict.errors == []
    assert verdict.status == "complete"
    back = loads(text)
    assert back == record
    assert digest(back) == digest(record) == verdict.digest
    assert verdict.scores == record["result"]["scores"]
    buffer = io.StringIO()
    dump(record, buffer)
    buffer.seek(0)
    assert load(buffer) == record
    state = replay(back)
    assert state.is_over and list(state.totals) == record["result"]["scores"]


def test_every_hand_is_seeded_and_the_seed_checks() -> None:
    record = play_game(players=4, seed="seeded", bots=["heuristic"] * 4)
    assert all(h["deal"]["seed"] == f"seeded:{i}" for i, h in enumerate(record["hands"]))
    assert verify(record).valid


def test_same_seed_same_game() -> None:
    first = play_game(players=3, seed=11, bots=["random"] * 3)
    second = play_game(players=3, seed=11, bots=["random"] * 3)
    assert digest(first) == digest(second)


def test_a_game_cut_short_is_in_progress() -> None:
    record = play_game(players=4, seed="short", bots=["heuristic"] * 4, max_hands=1)
    verdict = verify(record)
    if "result" not in record:
        assert verdict.status == "in_progress"
        assert replay(record).needs_deal


def test_bots_that_look_never_call_blind_misere() -> None:
    options = {"allow_blind_misere": True}
    calls = set()
    for n in range(40):
        record = play_game(players=4, options=options, seed=f"bm-{n}", bots=["random"] * 4)
        assert verify(record).valid
        calls |= {a["call"] for h in record["hands"] for a in h["actions"] if "call" in a}
    assert "BM" not in calls
    blind = set()
    for n in range(40):
        record = play_game(
            players=4, options=options, seed=f"bm-{n}", bots=["random"] * 4, look=False
        )
        assert verify(record).valid
        blind |= {a["call"] for h in record["hands"] for a in h["actions"] if "call" in a}
    assert "BM" in blind
