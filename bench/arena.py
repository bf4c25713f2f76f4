"""Bot arena benchmark: the cost of the sandbox, and games per minute per worker process.

    .venv/bin/python bench/arena.py [--decisions 5000] [--starts 20] [--games 30] [--boards 100]

Prints:
* the round trip of one sandboxed decision (a typical mid-game view and legal list; median and
  99th percentile; goal: median under 1 ms);
* sandbox start-up per seat (bwrap + interpreter + SDK import, until the first answer);
* complete four-player games to 500 per minute in one process, built-in bots in the sandbox
  (four bot processes per game) versus in-process;
* the heuristic bot on duplicate boards against random (4, 3 and 6 players) and against the
  example bot: mean score difference per board and games won.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fivehundred.bots.match import PlayerFactory, play_game, play_match
from fivehundred.bots.players import InProcessPlayer, ObjectBotPlayer, SandboxPlayer
from fivehundred.engine import GameState, Rules, action_to_json, deal_from_seed


def sample_decision() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A mid-hand view and its legal plays, from a real game."""
    rules = Rules.create(4)
    game = GameState.new(rules).start_hand(0, deal_from_seed(rules, "bench", 0))
    bots = [InProcessPlayer.builtin("heuristic") for _ in range(4)]
    for _ in range(16):
        seat = _seat(game)
        legal = game.legal_actions()
        game = game.apply(legal[bots[seat].act(seat=seat, view=game.view(seat), legal=legal)])
    seat = _seat(game)
    view = game.view(seat).to_json()
    return view, [action_to_json(seat, a) for a in game.legal_actions()]


def _seat(game: GameState) -> int:
    seat = game.to_act
    assert seat is not None
    return seat


def bench_round_trip(decisions: int) -> None:
    view, legal = sample_decision()
    # random measures the protocol and sandbox alone; heuristic adds a real bot's thinking.
    for name in ("random", "heuristic"):
        player = SandboxPlayer.builtin(name, 1)
        player.start(rules=Rules.create(4).to_json(), seat=view["seat"], seats=["a", "b", "c", "d"])
        player.act_json(view=view, legal=legal)
        times = []
        for _ in range(decisions):
            began = time.perf_counter()
            player.act_json(view=view, legal=legal)
            times.append(time.perf_counter() - began)
        player.close()
        times.sort()
        median = statistics.median(times) * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        print(
            f"sandboxed decision round trip ({name} bot): median {median:.3f} ms, "
            f"p99 {p99:.3f} ms ({decisions} decisions, view {len(str(view))} chars, "
            f"{len(legal)} legal)"
        )


def bench_startup(starts: int) -> None:
    times = []
    for i in range(starts):
        began = time.perf_counter()
        player = SandboxPlayer.builtin("random", i)
        player.start(rules=Rules.create(4).to_json(), seat=0, seats=["a", "b", "c", "d"])
        player.act_json(view={}, legal=[{"call": "PASS"}])
        times.append(time.perf_counter() - began)
        player.close()
    print(
        f"sandbox start-up per seat (to first answer): median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms ({starts} starts)"
    )


def bench_games(games: int) -> None:
    rules = Rules.create(4)
    names = ("heuristic", "heuristic", "heuristic", "heuristic")
    for label, make in (
        ("in-process", InProcessPlayer.builtin),
        ("sandboxed", SandboxPlayer.builtin),
    ):
        began = time.perf_counter()
        hands = decisions = 0
        for g in range(games):
            outcome = play_game(
                [make(n, f"{g}/{s}") for s, n in enumerate(names)], rules=rules, seed=f"g{g}"
            )
            assert outcome.fault is None, outcome.fault
            hands += len(outcome.record["hands"])
            decisions += sum(len(h["actions"]) for h in outcome.record["hands"])
        elapsed = time.perf_counter() - began
        print(
            f"4-player games to 500, heuristic x4, {label}: {games / elapsed * 60:,.0f} games/min "
            f"per process ({hands / games:.1f} hands, {decisions / games:.0f} decisions per game)"
        )


Entrant = tuple[str, PlayerFactory]


def _example_bot() -> Any:
    path = Path(__file__).resolve().parents[1] / "examples" / "simple_bot.py"
    spec = importlib.util.spec_from_file_location("simple_bot", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SimpleBot


def bench_strength(boards: int) -> None:
    heuristic: Entrant = (
        "heuristic",
        lambda seat, seed: InProcessPlayer.builtin("heuristic", seed),
    )
    simple = _example_bot()
    opponents: list[Entrant] = [
        ("random", lambda seat, seed: InProcessPlayer.builtin("random", seed)),
        ("examples/simple_bot.py", lambda seat, seed: ObjectBotPlayer(simple(), name="simple")),
    ]
    for players in (4, 3, 6):
        for opponent in opponents:
            if players != 4 and opponent[0] != "random":
                continue
            match = play_match(
                [heuristic, opponent],
                rules=Rules.create(players),
                boards=[f"strength-{i}" for i in range(boards)],
            )
            games = len(match.games)
            # With two entrants and three sides, wins are counted per game for each entrant.
            wins = match.wins[0]
            print(
                f"heuristic vs {opponent[0]}, {players} players, {boards} duplicate boards "
                f"({games} games): mean score difference {match.difference / boards:+.0f} "
                f"per board, heuristic won {wins}/{games} games ({wins / games:.0%})"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--boards", type=int, default=200)
    options = parser.parse_args()
    bench_round_trip(options.decisions)
    bench_startup(options.starts)
    bench_games(options.games)
    bench_strength(options.boards)


if __name__ == "__main__":
    main()
