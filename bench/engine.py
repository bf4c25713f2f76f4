"""Engine speed: random legal games through the public interface (4 players, default options).

Prints hands/s, decisions/s and full games to 500 per second (median of several runs), the
fast random-playout rate from the first lead, and, when the optional ``open-spiel`` package is
installed (``pip install -e '.[bench]'``), the ratio of our decisions/s to OpenSpiel's euchre
driven through its Python API in the same run (runs of each alternate).

    python bench/engine.py [--seconds 2] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fivehundred.engine import GameState, HandState, Phase, Rules, deal_from_order, deal_from_seed
from fivehundred.engine.playout import PlayoutPosition, random_playouts


def _random_game(rules: Rules, rng: random.Random) -> tuple[int, int]:
    """Play one random game to its end; return (hands, decisions).

    Deals come from ``rng`` (as OpenSpiel's chance outcomes do), not from the record format's
    SHA-256 seed stream, whose cost belongs to dealing, not to the engine's decisions.
    """
    game = GameState.new(rules)
    pack = list(rules.pack)
    dealer = 0
    hands = decisions = 0
    while not game.is_over and hands < 2000:
        rng.shuffle(pack)
        game = game.start_hand(dealer, deal_from_order(rules, pack, dealer), check=False)
        while game.in_hand:
            legal = game.legal_actions()
            game = game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        hands += 1
        dealer = game.next_dealer  # type: ignore[assignment]
    return hands, decisions


def bench_games(seconds: float) -> tuple[float, float, float]:
    rules = Rules.create(4)
    rng = random.Random(1)
    games = hands = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        h, d = _random_game(rules, rng)
        games += 1
        hands += h
        decisions += d
    elapsed = time.perf_counter() - start
    return hands / elapsed, decisions / elapsed, games / elapsed


def _first_lead_state(rules: Rules, rng: random.Random, k: int) -> HandState:
    while True:
        s = HandState.start(rules, 0, deal_from_seed(rules, f"playout{k}", 0), check=False)
        while not s.is_over and s.phase is not Phase.PLAY:
            legal = s.legal_actions()
            s = s.apply(legal[rng.randrange(len(legal))])
        if s.phase is Phase.PLAY:
            return s
        k += 1000


def bench_playouts(seconds: float) -> float:
    rules = Rules.create(4)
    rng = random.Random(2)
    positions = [PlayoutPosition.from_state(_first_lead_state(rules, rng, k)) for k in range(20)]
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for pos in positions:
            random_playouts(pos, 50, rng)
            done += 50
    return done / (time.perf_counter() - start)


def bench_openspiel(seconds: float) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("euchre")
    rng = random.Random(3)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is printed")
    args = parser.parse_args()
    # Our runs and OpenSpiel's alternate, and the ratio is the median of each pair's ratio, so
    # that a machine busy with other work slows both sides of a ratio alike.
    runs, spiel = [], []
    for _ in range(args.runs):
        runs.append(bench_games(args.seconds))
        spiel.append(bench_openspiel(args.seconds))
    hands_s = statistics.median(r[0] for r in runs)
    dec_s = statistics.median(r[1] for r in runs)
    games_s = statistics.median(r[2] for r in runs)
    print(
        f"engine: {hands_s:,.0f} hands/s, {dec_s:,.0f} decisions/s, {games_s:,.1f} games to 500/s"
    )
    playouts = statistics.median(bench_playouts(args.seconds) for _ in range(args.runs))
    print(f"playouts from the first lead: {playouts:,.0f}/s (goal 40,000/s)")
    if spiel[0] is None:
        print("openspiel euchre: not installed (pip install -e '.[bench]'); no ratio")
    else:
        theirs = [s for s in spiel if s is not None]
        ratio = statistics.median(r[1] / t for r, t in zip(runs, theirs, strict=True))
        print(
            f"openspiel euchre: {statistics.median(theirs):,.0f} decisions/s; "
            f"ratio ours/theirs {ratio:.2f} (median of {args.runs} interleaved pairs)"
        )


if __name__ == "__main__":
    main()
