"""``fivehundred bot-test PATH``: play a few local games of a bot through the real sandbox.

The bot at PATH (a ``.py`` file, or a ``.zip`` with ``--entry``) holds one side; the built-in
bots (``random``, then ``heuristic``, alternately) hold the others. Every game is checked with the
record verifier. Any fault is printed with its type, detail and the tail of the bot's stderr, and
the command exits with status 1; it exits with 2 when the bot cannot be run at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from fivehundred.bots.match import play_game
from fivehundred.bots.players import InProcessPlayer, SandboxPlayer, SeatPlayer
from fivehundred.bots.sandbox import (
    BotCodeError,
    Limits,
    SandboxUnavailable,
    sandbox_check,
    stage_code,
)
from fivehundred.engine import Rules, RulesError


def bot_test_main(
    argv: Sequence[str] | argparse.Namespace | None = None, *, out: TextIO | None = None
) -> int:
    """Run ``bot-test``; ``argv`` are its arguments (or a namespace parsed by the main command)."""
    out = out or sys.stdout
    if isinstance(argv, argparse.Namespace):
        argv = _namespace_argv(argv)
    parser = argparse.ArgumentParser(
        prog="fivehundred bot-test",
        description="Play local games of a bot against the built-in bots, in the sandbox.",
    )
    parser.add_argument("path", help="the bot: a .py file or a .zip archive")
    parser.add_argument("--games", type=int, default=4, help="games to play (default 4)")
    parser.add_argument("--entry", help="entry module inside a zip (default bot, main, __main__)")
    parser.add_argument("--players", type=int, default=4, help="player count (default 4)")
    parser.add_argument("--per-decision-ms", type=int, default=Limits.per_decision_ms)
    parser.add_argument("--bank-ms", type=int, default=Limits.bank_ms)
    parser.add_argument("--records", type=Path, help="directory to write the game records to")
    options = parser.parse_args(argv)

    try:
        rules = Rules.create(options.players)
        sandbox_check()
        code = stage_code(options.path, entry=options.entry)
    except (SandboxUnavailable, BotCodeError, RulesError) as exc:
        print(f"bot-test: {exc}", file=out)
        return 2
    limits = Limits(per_decision_ms=options.per_decision_ms, bank_ms=options.bank_ms)
    name = Path(options.path).stem
    # Imported here: the record package is only needed to check the games.
    from fivehundred.record import verify

    faults = 0
    try:
        for game in range(options.games):
            opponent = ("random", "heuristic")[game % 2]
            # Alternate the bot's side so it plays every seat over the games.
            bot_side = game % len(rules.sides)
            players: list[SeatPlayer] = []
            for seat in range(rules.players):
                if rules.side_of(seat) == bot_side:
                    players.append(SandboxPlayer.uploaded(code, name=name, limits=limits))
                else:
                    players.append(InProcessPlayer.builtin(opponent, f"bot-test/{game}/{seat}"))
            outcome = play_game(players, rules=rules, seed=f"bot-test/{game}")
            record = outcome.record
            verdict = verify(record)
            result = record["result"]
            won = result["winner"] == bot_side or (
                isinstance(result["winner"], list) and bot_side in result["winner"]
            )
            print(
                f"game {game + 1} vs {opponent}: {'won' if won else 'lost'}, "
                f"scores {result['scores']} ({result['reason']}), {len(record['hands'])} hands, "
                f"record {'valid' if verdict.valid else 'INVALID'}",
                file=out,
            )
            if options.records:
                options.records.mkdir(parents=True, exist_ok=True)
                path = options.records / f"game-{game + 1}.json"
                path.write_text(json.dumps(record, indent=1))
            if outcome.fault is not None:
                faults += 1
                fault = outcome.fault
                print(
                    f"  FAULT at seat {outcome.fault_seat}: {fault.kind}: {fault.detail}", file=out
                )
                if fault.stderr_tail.strip():
                    print("  stderr (last lines):", file=out)
                    for line in fault.stderr_tail.strip().splitlines()[-20:]:
                        print(f"    {line}", file=out)
            if not verdict.valid:
                faults += 1
                for error in verdict.errors[:5]:
                    print(
                        f"  record error {error.code} at {error.pointer}: {error.message}", file=out
                    )
    finally:
        code.remove()
    if faults:
        print(f"bot-test: {faults} problem(s) in {options.games} games", file=out)
        return 1
    print(f"bot-test: {options.games} games, no faults", file=out)
    return 0


def _namespace_argv(namespace: argparse.Namespace) -> list[str]:
    # The main command line may parse only some of the options; pass on the ones it has.
    argv = [str(namespace.path)]
    for option in ("games", "entry", "players", "per_decision_ms", "bank_ms", "records"):
        value = getattr(namespace, option, None)
        if value is not None:
            argv += [f"--{option.replace('_', '-')}", str(value)]
    return argv


if __name__ == "__main__":
    raise SystemExit(bot_test_main())
