"""Benchmark: complete four-player games to 500 verified per second.

    .venv/bin/python bench/verify.py [--games N] [--runs R]

Plays N games with the heuristic bots (fixed seeds), writes them as JSON text, then measures
``verify(text)`` (parse, schema, digest, deals and seeds, every action, every result) against a
bare replay of the same games through the engine (actions already parsed, no checks: the
``GameState`` calls only). Prints the median of R interleaved runs of each and of their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fivehundred.engine import Deal, GameState, Rules
from fivehundred.record import dumps, verify
from fivehundred.record.notation import action_of, card_of
from fivehundred.record.play import play_game


def _prepared(record: dict[str, Any]) -> tuple[Rules, list[tuple[int, Deal, list[Any]]]]:
    rules = Rules.from_json(record["rules"])
    hands = []
    for hand in record["hands"]:
        deal = hand["deal"]
        cards = Deal(
            tuple(tuple(card_of(c) for c in h) for h in deal["hands"]),
            tuple(card_of(c) for c in deal["kitty"]),
        )
        hands.append((hand["dealer"], cards, [action_of(a) for a in hand["actions"]]))
    return rules, hands


def bare_replay(games: list[tuple[Rules, list[tuple[int, Deal, list[Any]]]]]) -> None:
    for rules, hands in games:
        game = GameState.new(rules)
        for dealer, deal, actions in hands:
            game = game.start_hand(dealer, deal, check=False)
            for action in actions:
                game = game.apply(action)
        assert game.is_over


def verify_all(texts: list[str]) -> None:
    for text in texts:
        verdict = verify(text)
        assert verdict.valid and verdict.status == "complete", verdict.errors[:1]


def _seconds(fn: Any, arg: Any) -> float:
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    records = [
        play_game(players=4, seed=f"bench-{i}", bots=["heuristic"] * 4) for i in range(args.games)
    ]
    texts = [dumps(r) for r in records]
    games = [_prepared(r) for r in records]
    hands = sum(len(r["hands"]) for r in records)
    actions = sum(len(h["actions"]) for r in records for h in r["hands"])
    size = sum(len(t.encode()) for t in texts)

    verify_all(texts)  # warm caches (schema validators, interned values)
    bare_replay(games)
    # Interleaved runs, so that a busy machine slows both sides of each ratio alike.
    verify_times, bare_times, ratios = [], [], []
    for _ in range(args.runs):
        verify_times.append(_seconds(verify_all, texts))
        bare_times.append(_seconds(bare_replay, games))
        ratios.append(verify_times[-1] / bare_times[-1])
    verify_s = statistics.median(verify_times)
    bare_s = statistics.median(bare_times)

    print(
        f"{args.games} complete 4-player games: {hands / args.games:.1f} hands, "
        f"{actions / args.games:.0f} actions, {size / args.games / 1024:.1f} KiB each"
    )
    print(f"verify (JSON text in, verdict out): {args.games / verify_s:8.1f} games/s")
    print(f"bare engine replay (no parsing):    {args.games / bare_s:8.1f} games/s")
    print(
        f"verification / bare replay time:    {statistics.median(ratios):8.2f}x "
        f"(median of {args.runs} interleaved runs)"
    )


if __name__ == "__main__":
    main()
