"""Write the golden records of ``tests/golden/records/`` and their expected verdicts.

Run from the project root: ``.venv/bin/python tests/golden/make_golden.py``. The records are
played by the built-in bots from fixed seeds, then edited into the shapes the format allows
(summary hands, terminations, annotations with variations). ``expected.json`` stores each
record's verdict as it was when the records were written and reviewed; the tests check that the
verifier still agrees and that the set covers every contract type, player count and feature.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fivehundred.engine import PASS, Call  # noqa: E402
from fivehundred.record import dumps, replay, verify  # noqa: E402
from fivehundred.record.notation import action_json  # noqa: E402
from fivehundred.record.play import play_game  # noqa: E402

OUT = Path(__file__).resolve().parent / "records"


class CautiousRandomBot:
    """Random, but bids low and rarely, so that every kind of contract comes up."""

    name = "cautious"

    def __init__(self, seed: str, favourite: str | None = None) -> None:
        self._rng = random.Random(seed)
        self._favourite = favourite

    def act(self, view: Any, legal: list[Any]) -> Any:
        if isinstance(legal[0], Call):
            liked = [c for c in legal if self._favourite and _matches(str(c), self._favourite)]
            if liked and self._rng.random() < 0.3:
                return self._rng.choice(liked)
            bids = [c for c in legal if c.is_bid]
            if not bids or self._rng.random() < 0.55:
                return legal[0] if legal[0] is PASS else self._rng.choice(legal)
            return self._rng.choice(bids[:6])
        return legal[self._rng.randrange(len(legal))]


def _game(
    players: int,
    options: dict[str, Any],
    seed: str,
    bots: str = "heuristic",
    favourite: str | None = None,
) -> dict[str, Any]:
    if bots == "cautious":
        chosen: list[Any] = [CautiousRandomBot(f"{seed}:{s}", favourite) for s in range(players)]
        # Cautious bots decide without looking at their cards, so blind misère is open to them.
        return play_game(players=players, options=options, seed=seed, bots=chosen, look=False)
    return play_game(players=players, options=options, seed=seed, bots=[bots] * players)


def _find(
    players: int, options: dict[str, Any], want: str, bots: str, limit: int = 400
) -> dict[str, Any]:
    """The first seeded game in which some hand's contract bid satisfies ``want``."""
    for n in range(limit):
        record = _game(players, options, f"golden-{want}-{n}", bots, want)
        for index, hand in enumerate(record["hands"]):
            contract = hand["result"]["contract"]
            if want == "thrown-in":
                if contract is None and index < len(record["hands"]) - 1:
                    return record
            elif contract is not None and _matches(contract["bid"], want):
                return record
    raise SystemExit(f"no game with a {want} contract in {limit} tries")


def _matches(bid: str, want: str) -> bool:
    if want == "SK":
        return bid.endswith("/SK")
    if want == "NT":
        return bid.endswith("NT")
    if want == "suit":
        return bid[-1] in "SCDH" and not bid.endswith("/SK")
    return bid == want


def _truncate(record: dict[str, Any], hand: int, actions: int) -> dict[str, Any]:
    """The record as it stood after ``actions`` actions of hand ``hand`` (no game result)."""
    out = copy.deepcopy(record)
    out["hands"] = out["hands"][: hand + 1]
    last = out["hands"][hand]
    last["actions"] = last["actions"][:actions]
    last.pop("result", None)
    out.pop("result", None)
    return out


def _summarise(record: dict[str, Any], indexes: list[int]) -> dict[str, Any]:
    """Turn the given full hands into summary hands (dealer and result only)."""
    out = copy.deepcopy(record)
    for i in indexes:
        hand = out["hands"][i]
        out["hands"][i] = {"dealer": hand["dealer"], "result": hand["result"]}
    return out


def _forfeit(record: dict[str, Any], hand: int, actions: int, reason: str) -> dict[str, Any]:
    out = _truncate(record, hand, actions)
    state = replay(out)
    seat = state.to_act
    assert seat is not None
    out["termination"] = {"reason": reason, "seat": seat, "detail": f"seat {seat}: {reason}"}
    result = verify_result_for_forfeit(out, seat)
    out["result"] = result
    return out


def verify_result_for_forfeit(record: dict[str, Any], seat: int) -> dict[str, Any]:
    from fivehundred.engine import forfeit_result

    state = replay({k: v for k, v in record.items() if k not in ("termination", "result")})
    return forfeit_result(state.rules, seat, state.totals).to_json()


def _annotate(record: dict[str, Any], hand: int, at: int) -> dict[str, Any]:
    """Add a game note, a hand note and a note with a legal two-step variation."""
    out = copy.deepcopy(record)
    while len(out["hands"][hand].get("actions", ())) <= at + 1:
        hand += 1  # the first full hand long enough for the note
    probe = _truncate(out, hand, at)
    state = replay(probe).hand
    assert state is not None
    first = state.legal_actions()[-1]
    after = state.apply(first)
    variation = [action_json(state.to_act or 0, first)]
    if not after.is_over and after.to_act is not None:
        variation.append(action_json(after.to_act, after.legal_actions()[0]))
    out["annotations"] = [
        {"text": "Golden record.", "author": "tests"},
        {"hand": hand, "text": "A hand worth a look.", "glyph": "!?"},
        {
            "hand": hand,
            "action": at,
            "glyph": "?",
            "text": "An alternative line.",
            "cards": [],
            "variation": variation,
        },
    ]
    return out


def build() -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = {}
    for players in (2, 3, 4, 5, 6):
        records[f"heuristic-{players}p"] = _game(players, {}, f"golden-{players}")
    records["six-three-teams"] = _game(6, {"six_player_teams": "three_of_two"}, "golden-6x3")
    records["five-500pack"] = _game(5, {"five_player_pack": "500pack"}, "golden-5x500")
    records["four-suit"] = _find(4, {}, "suit", "heuristic")
    records["four-no-trumps"] = _find(4, {}, "NT", "heuristic")
    records["four-misere"] = _find(4, {}, "MIS", "cautious")
    records["four-open-misere"] = _find(4, {}, "OM", "cautious")
    records["four-blind-misere"] = _find(4, {"allow_blind_misere": True}, "BM", "cautious")
    records["four-sans-kitty"] = _find(4, {"allow_sans_kitty": True}, "SK", "cautious")
    records["four-options"] = _game(
        4,
        {
            "misere_rank": "by_points",
            "misere_requires_seven": False,
            "first_lead": "eldest",
            "joker_prenomination": False,
            "slam_bonus": False,
            "defender_trick_points": "on_fail_only",
            "target": 300,
            "lose_at": -300,
        },
        "golden-options",
    )
    records["four-redeal-same-dealer"] = _find(
        4,
        {"all_pass": "redeal_same_dealer", "single_round_bidding": True},
        "thrown-in",
        "heuristic",
    )
    records["three-target-cap"] = _game(
        3, {"win_requires_contract": False, "defender_points_cap": 480}, "golden-3-target"
    )
    records["four-open-misere-exposed-early"] = _find(
        4,
        {"open_misere_expose": "before_opening_lead", "misere_early_end": False},
        "OM",
        "cautious",
    )
    full4 = records["heuristic-4p"]
    records["four-summary-hands"] = _summarise(full4, list(range(0, len(full4["hands"]), 2)))
    records["two-summary-hands"] = _summarise(records["heuristic-2p"], [1, 2])
    records["four-in-progress"] = _truncate(full4, 2, 20)
    records["five-in-progress-auction"] = _truncate(records["heuristic-5p"], 1, 2)
    records["four-forfeit-timeout"] = _forfeit(full4, 1, 17, "timeout")
    records["three-forfeit-crash"] = _forfeit(records["heuristic-3p"], 2, 5, "crash")
    records["six-forfeit-illegal"] = _forfeit(records["heuristic-6p"], 1, 30, "illegal_action")
    agreed = _truncate(records["heuristic-5p"], 2, 0)
    agreed["hands"][2]["actions"] = []
    state = replay(agreed)
    agreed["termination"] = {"reason": "adjudicated", "seat": 0, "detail": "time ran out"}
    agreed["result"] = {"scores": list(state.totals), "winner": None, "reason": "agreed"}
    records["five-agreed"] = agreed
    records["four-annotated"] = _annotate(full4, 1, 6)
    records["three-annotated"] = _annotate(records["heuristic-3p"], 0, 3)
    event = copy.deepcopy(full4)
    event["event"] = {"name": "Club night", "site": "Avondale", "date": "2026-11-29", "table": "2"}
    event["x-club"] = {"scorer": "Dana", "notes": ["extension members are kept"]}
    records["four-event-extension"] = event
    return records


def main() -> None:
    OUT.mkdir(exist_ok=True)
    expected: dict[str, Any] = {}
    for name, record in build().items():
        text = dumps(record)
        verdict = verify(text)
        if not verdict.valid:
            raise SystemExit(f"{name} does not verify: {verdict.errors[:3]}")
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")
        entry = verdict.to_json()
        del entry["file"], entry["errors"], entry["valid"]
        expected[name] = entry
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(expected)} records to {OUT}")


if __name__ == "__main__":
    main()
