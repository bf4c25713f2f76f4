"""Swiss pairing speed: a late round of a 64-entrant event.

Builds a 7-round Swiss event of 64 entrants, plays rounds 1-5 with random results (wins, some
draws), then times pairing round 6: the hardest case for the matching, since many pairs are
already used up and the score groups are small. Prints the median of several runs, for two
sides per table (the weighted matching) and for tables of three (greedy plus local search).

    python bench/pairing.py [--entrants 64] [--runs 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.formats import (
    Entrant,
    MatchResult,
    Outcome,
    Round,
    SwissOptions,
    swiss_round,
)


def _play(rnd: Round, rng: random.Random) -> list[MatchResult]:
    out = []
    for p in rnd.pairings:
        if p.bye:
            out.append(MatchResult(rnd.number, 0, (p.present[0],), (0,), Outcome.BYE))
            continue
        seats = p.present
        pts = tuple(rng.randrange(0, 600, 10) for _ in seats)
        if rng.random() < 0.1:
            out.append(MatchResult(rnd.number, p.table, seats, pts, Outcome.DRAW))
        else:
            winner = (rng.choice(seats),)
            out.append(MatchResult(rnd.number, p.table, seats, pts, Outcome.WIN, winner))
    return out


def bench(entrants: int, table_size: int, runs: int, seed: int) -> tuple[float, float, Round]:
    rng = random.Random(seed)
    field = [Entrant(f"e{i}", i) for i in range(1, entrants + 1)]
    options = SwissOptions(rounds=7, table_size=table_size)
    results: list[MatchResult] = []
    for number in range(1, 6):
        results += _play(swiss_round(field, results, round_number=number, options=options), rng)
    times = []
    rnd = None
    for _ in range(runs):
        start = time.perf_counter()
        rnd = swiss_round(field, results, round_number=6, options=options)
        times.append(time.perf_counter() - start)
    assert rnd is not None
    return statistics.median(times), max(times), rnd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=64)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for size in (2, 3):
        median, worst, rnd = bench(args.entrants, size, args.runs, args.seed)
        rematches = sum("rematch unavoidable" in p.reason for p in rnd.pairings)
        print(
            f"swiss round 6 of 7, {args.entrants} entrants, tables of {size}: "
            f"median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms over {args.runs} runs "
            f"({len(rnd.tables)} tables, {len(rnd.byes)} byes, {rematches} rematches)"
        )


if __name__ == "__main__":
    main()
