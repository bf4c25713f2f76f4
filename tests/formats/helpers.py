"""Small builders shared by the format tests."""

from __future__ import annotations

import random

from tournaments.formats import Entrant, MatchResult, Outcome, Pairing, Round


def field(n: int) -> list[Entrant]:
    """`n` entrants e1..en seeded 1..n (given in a shuffled order to prove seeds decide)."""
    es = [Entrant(f"e{i}", i, f"Entrant {i}") for i in range(1, n + 1)]
    random.Random(n).shuffle(es)
    return es


def win(rnd: int, table: int, winner: str, loser: str) -> MatchResult:
    return MatchResult(rnd, table, (winner, loser), (500, 200), Outcome.WIN, (winner,))


def random_results(rnd: Round, rng: random.Random, *, draws: bool = True) -> list[MatchResult]:
    """Random results for every table of a round (wins, sometimes draws) and its byes."""
    out = []
    for p in rnd.pairings:
        out.append(random_result(rnd.number, p, rng, draws=draws))
    return out


def random_result(number: int, p: Pairing, rng: random.Random, *, draws: bool) -> MatchResult:
    if p.bye:
        assert p.entrants[0] is not None
        return MatchResult(number, 0, (p.entrants[0],), (0,), Outcome.BYE)
    seats = p.present
    pts = tuple(rng.randrange(-200, 700, 10) for _ in seats)
    if draws and rng.random() < 0.1:
        return MatchResult(number, p.table, seats, pts, Outcome.DRAW)
    return MatchResult(number, p.table, seats, pts, Outcome.WIN, (rng.choice(seats),))
