"""Write the adversarial review records of ``tests/golden/review/`` and their expected verdicts.

Run from the project root: ``.venv/bin/python tests/golden/review/make_review.py``. Each record
probes one point of section 7 of ``docs/record-format.md`` ("Which error, and where"); the expected
verdict next to it is read from the specification's text, not from the verifier: the first error's
code and pointer for an invalid record, status, scores and winner for a valid one.
``tests/record/test_review_verify.py`` runs ``fivehundred verify --json`` over them.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"

Record = dict[str, Any]
PROBES: list[tuple[str, Record, dict[str, Any]]] = []


def example(name: str) -> Record:
    record: Record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return record


def invalid(name: str, record: Record, code: str, pointer: str) -> None:
    PROBES.append((name, record, {"valid": False, "code": code, "pointer": pointer}))


def valid(name: str, record: Record, status: str, scores: list[int], winner: Any) -> None:
    expected = {"valid": True, "status": status, "scores": scores, "winner": winner}
    PROBES.append((name, record, expected))


def mutate(base: Record, change: Callable[[Record], Any]) -> Record:
    record = copy.deepcopy(base)
    change(record)
    return record


def new(
    players: int, hands: list[Any], options: dict[str, Any] | None = None, **more: Any
) -> Record:
    record: Record = {
        "format": "fivehundred-record",
        "version": 1,
        "rules": {"ruleset": "australian", "players": players, "options": options or {}},
        "seats": [{"name": f"seat {i}"} for i in range(players)],
        "hands": hands,
    }
    record.update(more)
    return record


def summary(
    dealer: int,
    seat: int | None,
    bid: str | None,
    tricks: list[int],
    score: list[int],
    totals: list[int],
    partner: int | None = None,
) -> dict[str, Any]:
    contract: dict[str, Any] | None = None if seat is None else {"seat": seat, "bid": bid}
    if contract is not None and partner is not None:
        contract["partner"] = partner
    return {
        "dealer": dealer,
        "result": {"contract": contract, "tricks": tricks, "score": score, "totals": totals},
    }


# A four-player deal (dealer 3, so seat 0 calls first) used for the action probes. Seat 0 holds
# the joker and is void in diamonds; seat 3 holds both red jacks.
DEAL_A = {
    "hands": [
        ["JK", "AH", "KH", "QH", "10H", "AS", "KS", "AC", "KC", "QC"],
        ["9H", "8H", "7H", "QS", "JS", "10S", "AD", "JC", "10C", "KD"],
        ["6H", "5H", "4H", "9S", "8S", "7S", "9C", "8C", "7C", "QD"],
        ["JH", "JD", "10D", "9D", "8D", "7D", "6D", "6S", "5S", "6C"],
    ],
    "kitty": ["5D", "4D", "5C"],
}
NT_AUCTION = [
    {"seat": 0, "call": "7NT"},
    {"seat": 1, "call": "PASS"},
    {"seat": 2, "call": "PASS"},
    {"seat": 3, "call": "PASS"},
]
NT_OPENING = [
    *NT_AUCTION,
    {"seat": 0, "discard": ["5D", "4D", "5C"]},
    {"seat": 0, "nominate": "none"},
]


def hand_a(actions: list[dict[str, Any]], options: dict[str, Any] | None = None) -> Record:
    hand = {"dealer": 3, "deal": copy.deepcopy(DEAL_A), "actions": copy.deepcopy(actions)}
    return new(4, [hand], options)


def build() -> None:
    four = example("four-players-complete")
    three_forfeit = example("three-players-forfeit")

    # -- structure and rules
    invalid(
        "version-2", mutate(four, lambda r: r.update(version=2)), "unsupported_version", "/version"
    )
    invalid("version-text", mutate(four, lambda r: r.update(version="1")), "schema", "/version")
    invalid(
        "unknown-top-key-escaped",
        mutate(four, lambda r: r.update({"a/b~c": 1})),
        "schema",
        "/a~1b~0c",
    )
    invalid("unknown-top-key-empty", mutate(four, lambda r: r.update({"": 1})), "schema", "/")
    valid(
        "x-key-kept",
        mutate(four, lambda r: r.update({"x-club": {"a": [1]}})),
        "complete",
        [-680, 180],
        1,
    )
    invalid(
        "players-1",
        mutate(four, lambda r: r["rules"].update(players=1)),
        "bad_rules",
        "/rules/players",
    )
    invalid(
        "players-7",
        mutate(four, lambda r: r["rules"].update(players=7)),
        "bad_rules",
        "/rules/players",
    )
    invalid(
        "players-text",
        mutate(four, lambda r: r["rules"].update(players="4")),
        "schema",
        "/rules/players",
    )
    for name, value in [
        ("deck_variant", "45"),
        ("deck_variant", "46"),
        ("passed_may_reenter", True),
        ("all_pass", "play_no_trumps"),
        ("self_raise_reopens", True),
        ("two_player_mode", "dummies_43"),
        ("three_player_pack", "43_with_dummy"),
        ("defender_points_cap", 500),
    ]:
        invalid(
            f"option-{name}-{value}".lower(),
            mutate(four, lambda r, n=name, v=value: r["rules"]["options"].update({n: v})),
            "bad_rules",
            f"/rules/options/{name}",
        )
    invalid(
        "option-unknown-escaped",
        mutate(four, lambda r: r["rules"]["options"].update({"a/b": True})),
        "bad_rules",
        "/rules/options/a~1b",
    )
    invalid(
        "option-wrong-type",
        mutate(four, lambda r: r["rules"]["options"].update(slam_bonus="yes")),
        "schema",
        "/rules/options/slam_bonus",
    )
    # An option that does not apply to the player count is ignored if its value is supported.
    valid(
        "option-other-player-count",
        mutate(four, lambda r: r["rules"]["options"].update(six_player_teams="three_of_two")),
        "complete",
        [-680, 180],
        1,
    )
    # Structure before rules: a seats list of the wrong length beats an unsupported option.
    invalid(
        "seats-count-before-bad-rules",
        mutate(
            four,
            lambda r: (
                r["rules"].update(players=3),
                r["rules"]["options"].update(deck_variant="45"),
            ),
        ),
        "schema",
        "/seats",
    )

    # -- notation and deals
    def card(text: str, where: tuple[int, int] = (0, 0)) -> Callable[[Record], Any]:
        def change(r: Record) -> None:
            r["hands"][0]["deal"]["hands"][where[0]][where[1]] = text

        return change

    for text in ["TH", "1H", "Jk", "14H"]:
        invalid(f"card-{text}", mutate(four, card(text)), "schema", "/hands/0/deal/hands/0/0")
    for text in ["4S", "11H", "13D"]:
        invalid(
            f"card-not-in-pack-{text}",
            mutate(four, card(text)),
            "bad_deal",
            "/hands/0/deal/hands/0/0",
        )
    first = four["hands"][0]["deal"]["hands"]
    # The same card in hand 1 and hand 3: reported at the second occurrence.
    invalid(
        "card-twice",
        mutate(four, card(first[1][4], (3, 2))),
        "bad_deal",
        "/hands/0/deal/hands/3/2",
    )
    invalid(
        "card-twice-kitty",
        mutate(four, lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(1, first[2][0])),
        "bad_deal",
        "/hands/0/deal/kitty/1",
    )
    invalid(
        "card-missing",
        mutate(four, lambda r: r["hands"][0]["deal"]["hands"][2].pop()),
        "bad_deal",
        "/hands/0/deal",
    )
    invalid(
        "hands-missing",
        mutate(four, lambda r: r["hands"][0]["deal"]["hands"].pop()),
        "bad_deal",
        "/hands/0/deal",
    )

    two = example("two-players-with-summary-hands")
    two_deal = two["hands"][0]["deal"]
    # Order of occurrence: hands 0..n-1, then the dead hand, then the kitty.
    invalid(
        "two-players-dead-and-kitty",
        mutate(two, lambda r: r["hands"][0]["deal"]["kitty"].__setitem__(0, two_deal["dead"][0])),
        "bad_deal",
        "/hands/0/deal/kitty/0",
    )
    invalid(
        "two-players-hand-and-dead",
        mutate(
            two, lambda r: r["hands"][0]["deal"]["dead"].__setitem__(0, two_deal["hands"][1][0])
        ),
        "bad_deal",
        "/hands/0/deal/dead/0",
    )
    invalid(
        "two-players-six-of-hearts",
        mutate(two, lambda r: r["hands"][0]["deal"]["dead"].__setitem__(3, "6H")),
        "bad_deal",
        "/hands/0/deal/dead/3",
    )
    invalid(
        "two-players-no-dead-hand",
        mutate(two, lambda r: r["hands"][0]["deal"].pop("dead")),
        "bad_deal",
        "/hands/0/deal",
    )
    invalid(
        "dead-hand-with-four-players",
        mutate(four, lambda r: r["hands"][0]["deal"].update(dead=[])),
        "bad_deal",
        "/hands/0/deal",
    )

    def call(text: str) -> Callable[[Record], Any]:
        return lambda r: r["hands"][0]["actions"][0].update(call=text)

    for text in ["5S", "11H", "0NT", "OM/SK", "BM/SK", "6X"]:
        invalid(
            f"call-{text.replace('/', '-')}",
            mutate(four, call(text)),
            "schema",
            "/hands/0/actions/0/call",
        )
    for text in ["7H/SK", "BM", "MIS/SK"]:
        invalid(
            f"call-not-allowed-{text.replace('/', '-')}",
            mutate(four, call(text)),
            "illegal_action",
            "/hands/0/actions/0",
        )

    # -- seeds
    seeded = example("four-players-in-progress-seeded")
    invalid(
        "seed-mismatch",
        mutate(seeded, lambda r: r["hands"][1]["deal"].update(seed="another")),
        "seed_mismatch",
        "/hands/1/deal/seed",
    )
    # The deal is checked before the seed.
    invalid(
        "seed-and-bad-deal",
        mutate(
            seeded,
            lambda r: (
                r["hands"][1]["deal"].update(seed="another"),
                r["hands"][1]["deal"]["kitty"].__setitem__(0, "4S"),
            ),
        ),
        "bad_deal",
        "/hands/1/deal/kitty/0",
    )

    # -- actions: extra_action, then wrong_seat, then illegal_action
    invalid(
        "extra-action-wrong-seat",
        mutate(four, lambda r: r["hands"][0]["actions"].append({"seat": 9, "play": "4S"})),
        "extra_action",
        f"/hands/0/actions/{len(four['hands'][0]['actions'])}",
    )
    invalid(
        "schema-before-wrong-seat",
        hand_a([{"seat": 2, "call": "5S"}]),
        "schema",
        "/hands/0/actions/0/call",
    )
    invalid(
        "wrong-seat-before-illegal",
        hand_a([{"seat": 2, "play": "AS"}]),
        "wrong_seat",
        "/hands/0/actions/0",
    )
    invalid(
        "nomination-not-due",
        hand_a([*NT_OPENING, {"seat": 0, "play": "AH"}, {"seat": 1, "nominate": "S"}]),
        "illegal_action",
        "/hands/0/actions/7",
    )
    invalid(
        "nomination-by-defender-when-due",
        hand_a(
            [*NT_AUCTION, {"seat": 0, "discard": ["5D", "4D", "5C"]}, {"seat": 1, "nominate": "S"}]
        ),
        "wrong_seat",
        "/hands/0/actions/5",
    )
    invalid(
        "nomination-skipped",
        hand_a(
            [*NT_AUCTION, {"seat": 0, "discard": ["5D", "4D", "5C"]}, {"seat": 0, "play": "AH"}]
        ),
        "illegal_action",
        "/hands/0/actions/5",
    )
    invalid(
        "nomination-in-suit-contract",
        hand_a(
            [
                {"seat": 0, "call": "7H"},
                {"seat": 1, "call": "PASS"},
                {"seat": 2, "call": "PASS"},
                {"seat": 3, "call": "PASS"},
                {"seat": 0, "discard": ["5D", "4D", "5C"]},
                {"seat": 0, "nominate": "H"},
            ]
        ),
        "illegal_action",
        "/hands/0/actions/5",
    )
    invalid(
        "joker-lead-without-suit",
        hand_a([*NT_OPENING, {"seat": 0, "play": "JK"}]),
        "illegal_action",
        "/hands/0/actions/6",
    )
    invalid(
        "joker-lead-in-led-suit",
        hand_a(
            [
                *NT_OPENING,
                {"seat": 0, "play": "AH"},
                {"seat": 1, "play": "9H"},
                {"seat": 2, "play": "6H"},
                {"seat": 3, "play": "JH"},
                {"seat": 0, "play": "JK", "suit": "H"},
            ]
        ),
        "illegal_action",
        "/hands/0/actions/10",
    )
    valid(
        "joker-lead-in-new-suit",
        hand_a(
            [
                *NT_OPENING,
                {"seat": 0, "play": "AH"},
                {"seat": 1, "play": "9H"},
                {"seat": 2, "play": "6H"},
                {"seat": 3, "play": "JH"},
                {"seat": 0, "play": "JK", "suit": "D"},
                {"seat": 1, "play": "AD"},
            ]
        ),
        "in_progress",
        [0, 0],
        None,
    )
    invalid(
        "suit-on-ordinary-card",
        hand_a([*NT_OPENING, {"seat": 0, "play": "AH", "suit": "H"}]),
        "illegal_action",
        "/hands/0/actions/6",
    )
    invalid(
        "suit-not-a-suit",
        hand_a([*NT_OPENING, {"seat": 0, "play": "JK", "suit": "NT"}]),
        "schema",
        "/hands/0/actions/6/suit",
    )
    # Misère compulsion: seat 0 is void in diamonds and must play the joker.
    misere = [
        {"seat": 0, "call": "7S"},
        {"seat": 1, "call": "PASS"},
        {"seat": 2, "call": "PASS"},
        {"seat": 3, "call": "MIS"},
        {"seat": 0, "call": "PASS"},
        {"seat": 3, "discard": ["5D", "4D", "5C"]},
        {"seat": 3, "play": "6D"},
    ]
    invalid(
        "misere-joker-compulsion",
        hand_a([*misere, {"seat": 0, "play": "AS"}]),
        "illegal_action",
        "/hands/0/actions/7",
    )
    invalid(
        "misere-partner-sits-out",
        hand_a([*misere, {"seat": 0, "play": "JK"}, {"seat": 1, "play": "AD"}]),
        "wrong_seat",
        "/hands/0/actions/8",
    )
    valid(
        "misere-joker-wins-for-a-defender",
        hand_a([*misere, {"seat": 0, "play": "JK"}, {"seat": 2, "play": "QD"}]),
        "in_progress",
        [0, 0],
        None,
    )
    # In misère JD is an ordinary diamond (no bowers): seat 0 is void and must play the joker.
    invalid(
        "misere-compulsion-on-jack-lead",
        hand_a([*misere[:-1], {"seat": 3, "play": "JD"}, {"seat": 0, "play": "AS"}]),
        "illegal_action",
        "/hands/0/actions/7",
    )
    # Seat 3 wins trick 2 with JH over 10H: its misère is lost and the hand ends at once.
    lost = [
        *misere[:-1],
        {"seat": 3, "play": "6C"},
        {"seat": 0, "play": "QC"},
        {"seat": 2, "play": "9C"},
        {"seat": 0, "play": "10H"},
        {"seat": 2, "play": "4H"},
        {"seat": 3, "play": "JH"},
    ]
    invalid("misere-lost-needs-result", hand_a(lost), "result_mismatch", "/hands/0")
    lost_result = {
        "contract": {"seat": 3, "bid": "MIS"},
        "tricks": [1, 1],
        "score": [0, -250],
        "totals": [0, -250],
    }
    scored = mutate(hand_a(lost), lambda r: r["hands"][0].update(result=lost_result))
    valid("misere-lost-early", scored, "in_progress", [0, -250], None)
    invalid(
        "misere-lost-tricks-of-ten",
        mutate(scored, lambda r: r["hands"][0]["result"].update(tricks=[9, 1])),
        "result_mismatch",
        "/hands/0/result/tricks",
    )
    invalid(
        "misere-action-after-early-end",
        mutate(scored, lambda r: r["hands"][0]["actions"].append({"seat": 0, "play": "AH"})),
        "extra_action",
        "/hands/0/actions/12",
    )
    valid(
        "misere-no-early-end-goes-on",
        mutate(hand_a(lost), lambda r: r["rules"]["options"].update(misere_early_end=False)),
        "in_progress",
        [0, 0],
        None,
    )

    # -- results of full hands
    invalid(
        "result-score-before-totals",
        mutate(
            four,
            lambda r: (
                r["hands"][0]["result"]["score"].__setitem__(0, 0),
                r["hands"][0]["result"]["totals"].__setitem__(0, 0),
            ),
        ),
        "result_mismatch",
        "/hands/0/result/score",
    )
    invalid(
        "result-contract-before-tricks",
        mutate(
            four,
            lambda r: (
                r["hands"][0]["result"]["tricks"].reverse(),
                r["hands"][0]["result"]["contract"].update(bid="7H"),
            ),
        ),
        "result_mismatch",
        "/hands/0/result/contract",
    )
    invalid(
        "result-totals-only",
        mutate(four, lambda r: r["hands"][1]["result"]["totals"].__setitem__(1, 0)),
        "totals_mismatch",
        "/hands/1/result/totals",
    )
    invalid(
        "result-on-unfinished-hand",
        mutate(
            seeded,
            lambda r: r["hands"][3].update(
                result={"contract": None, "tricks": [0, 0], "score": [0, 0], "totals": [80, -380]}
            ),
        ),
        "result_mismatch",
        "/hands/3/result",
    )
    invalid(
        "hand-over-without-result",
        mutate(four, lambda r: r["hands"][2].pop("result")),
        "result_mismatch",
        "/hands/2",
    )
    invalid(
        "hand-not-over-at-previous",
        mutate(
            seeded, lambda r: r["hands"].append(summary(0, 0, "6S", [6, 4], [40, 40], [120, -340]))
        ),
        "hand_not_over",
        "/hands/3",
    )
    invalid(
        "game-over-then-hand",
        mutate(
            four,
            lambda r: r["hands"].append(
                summary(r["hands"][-1]["dealer"] + 1, 0, "6S", [6, 4], [40, 40], [0, 0])
            ),
        ),
        "game_over",
        f"/hands/{len(four['hands'])}",
    )
    invalid("game-result-missing", mutate(four, lambda r: r.pop("result")), "result_mismatch", "")
    invalid(
        "game-result-too-early",
        mutate(
            seeded,
            lambda r: r.update(result={"scores": [80, -380], "winner": 0, "reason": "contract"}),
        ),
        "result_mismatch",
        "/result",
    )
    invalid(
        "game-result-scores-first",
        mutate(four, lambda r: r["result"].update(scores=[0, 0], winner=0)),
        "result_mismatch",
        "/result/scores",
    )
    invalid(
        "game-result-reason",
        mutate(four, lambda r: r["result"].update(reason="contract")),
        "result_mismatch",
        "/result/reason",
    )
    valid(
        "game-winner-as-list",
        mutate(four, lambda r: r["result"].update(winner=[1])),
        "complete",
        [-680, 180],
        1,
    )

    # -- dealers and thrown-in hands
    thrown = summary(0, None, None, [0, 0], [0, 0], [0, 0])
    valid(
        "thrown-in-next-dealer",
        new(4, [thrown, summary(1, 1, "6S", [4, 6], [40, 40], [40, 40])]),
        "in_progress",
        [40, 40],
        None,
    )
    invalid(
        "thrown-in-same-dealer-by-default",
        new(4, [thrown, summary(0, 1, "6S", [4, 6], [40, 40], [40, 40])]),
        "dealer_mismatch",
        "/hands/1/dealer",
    )
    valid(
        "thrown-in-redeal-same-dealer",
        new(
            4,
            [thrown, summary(0, 1, "6S", [4, 6], [40, 40], [40, 40])],
            {"all_pass": "redeal_same_dealer"},
        ),
        "in_progress",
        [40, 40],
        None,
    )
    all_pass = [{"seat": s, "call": "PASS"} for s in (0, 1, 2, 3)]
    full_thrown = hand_a(all_pass)
    full_thrown["hands"][0]["result"] = {
        "contract": None,
        "tricks": [0, 0],
        "score": [0, 0],
        "totals": [0, 0],
    }
    full_thrown["hands"].append(summary(3, 1, "6S", [4, 6], [40, 40], [40, 40]))
    valid(
        "full-thrown-in-redeal",
        mutate(full_thrown, lambda r: r["rules"]["options"].update(all_pass="redeal_same_dealer")),
        "in_progress",
        [40, 40],
        None,
    )
    invalid("full-thrown-in-default", full_thrown, "dealer_mismatch", "/hands/1/dealer")

    # -- summary hands
    invalid(
        "summary-partner-four-players",
        new(4, [summary(0, 1, "7S", [2, 8], [20, 140], [20, 140], partner=3)]),
        "result_mismatch",
        "/hands/0/result/contract/partner",
    )
    invalid(
        "summary-misere-partner-five-players",
        new(
            5,
            [
                summary(
                    0, 1, "MIS", [2, 0, 3, 3, 2], [0, 250, 0, 0, 0], [0, 250, 0, 0, 0], partner=2
                )
            ],
        ),
        "result_mismatch",
        "/hands/0/result/contract/partner",
    )
    valid(
        "summary-five-players-partner",
        new(
            5,
            [
                summary(
                    0,
                    1,
                    "7S",
                    [2, 5, 2, 0, 1],
                    [20, 140, 140, 0, 10],
                    [20, 140, 140, 0, 10],
                    partner=2,
                )
            ],
        ),
        "in_progress",
        [20, 140, 140, 0, 10],
        None,
    )
    invalid(
        "summary-tricks-not-ten",
        new(4, [summary(0, 1, "7S", [2, 7], [20, 140], [20, 140])]),
        "result_mismatch",
        "/hands/0/result/tricks",
    )
    valid(
        "summary-lost-misere-early",
        new(4, [summary(0, 1, "MIS", [1, 1], [0, -250], [0, -250])]),
        "in_progress",
        [0, -250],
        None,
    )
    invalid(
        "summary-won-misere-short",
        new(4, [summary(0, 1, "MIS", [3, 0], [0, 250], [0, 250])]),
        "result_mismatch",
        "/hands/0/result/tricks",
    )
    invalid(
        "summary-lost-misere-no-early-end",
        new(4, [summary(0, 1, "MIS", [1, 1], [0, -250], [0, -250])], {"misere_early_end": False}),
        "result_mismatch",
        "/hands/0/result/tricks",
    )
    invalid(
        "summary-bid-not-allowed",
        new(4, [summary(0, 1, "OM", [10, 0], [0, 500], [0, 500])], {"allow_open_misere": False}),
        "result_mismatch",
        "/hands/0/result/contract",
    )
    invalid(
        "summary-sans-kitty-not-allowed",
        new(4, [summary(0, 1, "7H/SK", [3, 7], [30, 200], [30, 200])]),
        "result_mismatch",
        "/hands/0/result/contract",
    )
    valid(
        "summary-sans-kitty",
        new(4, [summary(0, 1, "7H/SK", [3, 7], [30, 200], [30, 200])], {"allow_sans_kitty": True}),
        "in_progress",
        [30, 200],
        None,
    )

    # -- the end of the game
    valid(
        "slam-three-players",
        new(
            3,
            [summary(0, 0, "10H", [10, 0, 0], [500, 0, 0], [500, 0, 0])],
            result={"scores": [500, 0, 0], "winner": 0, "reason": "contract"},
        ),
        "complete",
        [500, 0, 0],
        0,
    )
    valid(
        "slam-bonus-small-bid",
        new(4, [summary(0, 1, "6S", [0, 10], [0, 250], [0, 250])]),
        "in_progress",
        [0, 250],
        None,
    )
    valid(
        "backdoor-three-players-tie",
        new(
            3,
            [summary(0, 0, "10H", [0, 5, 5], [-500, 50, 50], [-500, 50, 50])],
            result={"scores": [-500, 50, 50], "winner": [2, 1], "reason": "backdoor"},
        ),
        "complete",
        [-500, 50, 50],
        [1, 2],
    )
    valid(
        "five-players-shared-win",
        new(
            5,
            [
                summary(
                    0,
                    0,
                    "10H",
                    [5, 5, 0, 0, 0],
                    [500, 500, 0, 0, 0],
                    [500, 500, 0, 0, 0],
                    partner=1,
                )
            ],
            result={"scores": [500, 500, 0, 0, 0], "winner": [0, 1], "reason": "contract"},
        ),
        "complete",
        [500, 500, 0, 0, 0],
        [0, 1],
    )
    defended = [
        summary(0, 1, "9NT", [1, 9], [10, 420], [10, 420]),
        summary(1, 0, "6S", [6, 4], [40, 40], [50, 460]),
        summary(2, 0, "6S", [6, 4], [40, 40], [90, 500]),
    ]
    valid("defenders-reach-target", new(4, defended), "in_progress", [90, 500], None)
    valid(
        "target-without-contract",
        new(
            4,
            defended,
            {"win_requires_contract": False},
            result={"scores": [90, 500], "winner": 1, "reason": "target"},
        ),
        "complete",
        [90, 500],
        1,
    )
    valid(
        "target-three-players-tie",
        new(
            3,
            [summary(0, 0, "10H", [0, 5, 5], [-500, 50, 50], [-500, 50, 50])],
            {"win_requires_contract": False, "target": 50},
            result={"scores": [-500, 50, 50], "winner": [1, 2], "reason": "target"},
        ),
        "complete",
        [-500, 50, 50],
        [1, 2],
    )
    backdoor = [
        summary(0, 1, "10S", [10, 0], [100, -440], [100, -440]),
        summary(1, 0, "10NT", [0, 10], [-520, 100], [-420, -340]),
        summary(2, 0, "7S", [0, 10], [-140, 100], [-560, -240]),
    ]
    valid(
        "backdoor-negative-opponent",
        new(4, backdoor, result={"scores": [-560, -240], "winner": 1, "reason": "backdoor"}),
        "complete",
        [-560, -240],
        1,
    )
    valid(
        "backdoor-needs-nonnegative",
        new(4, backdoor, {"back_door_needs_nonnegative_opponent": True}),
        "in_progress",
        [-560, -240],
        None,
    )

    # -- terminations and forfeits
    # Seat 1 was to act. The result is right for a forfeit by seat 2 (side 0 wins with -240).
    invalid(
        "timeout-not-to-act",
        mutate(
            three_forfeit, lambda r: (r["termination"].update(seat=2), r["result"].update(winner=0))
        ),
        "bad_termination",
        "/termination/seat",
    )
    # The game result is checked before the termination (section 7).
    invalid(
        "result-before-termination",
        mutate(
            three_forfeit,
            lambda r: (r["termination"].update(seat=2), r["result"].update(scores=[0, 0, 0])),
        ),
        "result_mismatch",
        "/result/scores",
    )
    invalid(
        "result-missing-before-termination",
        mutate(three_forfeit, lambda r: (r["termination"].update(seat=2), r.pop("result"))),
        "result_mismatch",
        "",
    )
    invalid(
        "result-before-termination-no-such-seat",
        mutate(
            three_forfeit,
            lambda r: (r["termination"].update(seat=3), r["result"].update(scores=[0, 0, 0])),
        ),
        "result_mismatch",
        "/result/scores",
    )
    invalid(
        "termination-after-the-end",
        mutate(four, lambda r: r.update(termination={"reason": "timeout", "seat": 0})),
        "bad_termination",
        "/termination",
    )
    invalid(
        "termination-no-such-seat",
        mutate(three_forfeit, lambda r: r["termination"].update(seat=3)),
        "bad_termination",
        "/termination/seat",
    )
    valid(
        "resigned-any-seat",
        mutate(
            three_forfeit,
            lambda r: (
                r["termination"].update(reason="resigned", seat=2),
                r["result"].update(winner=0),
            ),
        ),
        "complete",
        [-240, -380, 70],
        0,
    )
    invalid(
        "termination-without-result",
        mutate(three_forfeit, lambda r: r.pop("result")),
        "result_mismatch",
        "",
    )
    tie = [summary(0, 2, "6S", [2, 2, 6], [20, 20, 40], [20, 20, 40])]
    valid(
        "forfeit-tie-shares",
        new(
            3,
            tie,
            termination={"reason": "resigned", "seat": 2},
            result={"scores": [20, 20, 40], "winner": [1, 0], "reason": "forfeit"},
        ),
        "complete",
        [20, 20, 40],
        [0, 1],
    )
    invalid(
        "forfeit-tie-single-winner",
        new(
            3,
            tie,
            termination={"reason": "resigned", "seat": 2},
            result={"scores": [20, 20, 40], "winner": 0, "reason": "forfeit"},
        ),
        "result_mismatch",
        "/result/winner",
    )
    valid(
        "timeout-before-any-hand",
        new(
            6,
            [],
            {"six_player_teams": "three_of_two"},
            termination={"reason": "timeout", "seat": 4},
            result={"scores": [0, 0, 0], "winner": [0, 2], "reason": "forfeit"},
        ),
        "complete",
        [0, 0, 0],
        [0, 2],
    )
    valid(
        "agreed-no-winner",
        mutate(three_forfeit, lambda r: r["result"].update(reason="agreed", winner=None)),
        "complete",
        [-240, -380, 70],
        None,
    )
    invalid(
        "agreed-without-termination",
        new(4, [], result={"scores": [0, 0], "winner": None, "reason": "agreed"}),
        "result_mismatch",
        "/result",
    )

    # -- annotations
    annotated = hand_a(NT_OPENING)
    for name, note, code, pointer in [
        ("annotation-no-hand", {"hand": 1}, "bad_annotation", "/annotations/0/hand"),
        (
            "annotation-no-action",
            {"hand": 0, "action": 6},
            "bad_annotation",
            "/annotations/0/action",
        ),
        (
            "annotation-action-without-hand",
            {"action": 1},
            "bad_annotation",
            "/annotations/0/action",
        ),
        ("annotation-glyph", {"glyph": "!!!"}, "schema", "/annotations/0/glyph"),
        (
            "annotation-variation-illegal",
            {
                "hand": 0,
                "action": 0,
                "variation": [{"seat": 0, "call": "7NT"}, {"seat": 1, "call": "7NT"}],
            },
            "bad_annotation",
            "/annotations/0/variation/1",
        ),
        (
            "annotation-variation-skips-nomination",
            {"hand": 0, "action": 5, "variation": [{"seat": 0, "play": "KH"}]},
            "bad_annotation",
            "/annotations/0/variation/0",
        ),
        (
            "annotation-variation-notation",
            {"hand": 0, "variation": [{"seat": 0, "call": "TH"}]},
            "schema",
            "/annotations/0/variation/0/call",
        ),
    ]:
        invalid(name, mutate(annotated, lambda r, n=note: r.update(annotations=[n])), code, pointer)
    valid(
        "annotation-variation-legal",
        mutate(
            annotated,
            lambda r: r.update(
                annotations=[
                    {
                        "hand": 0,
                        "action": 4,
                        "glyph": "?!",
                        "variation": [
                            {"seat": 0, "discard": ["5D", "4D", "JK"]},
                            {"seat": 0, "play": "AH"},
                        ],
                    }
                ]
            ),
        ),
        "in_progress",
        [0, 0],
        None,
    )


def main() -> None:
    build()
    expected: dict[str, Any] = {}
    for name, record, verdict in PROBES:
        assert name not in expected, name
        (HERE / f"{name}.json").write_text(
            json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        expected[name] = verdict
    (HERE / "expected.json").write_text(
        json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {len(PROBES)} records")


if __name__ == "__main__":
    main()
