"""The ``fivehundred`` command line: verify, legal, deal, play, show (and bot-test).

Its output is part of the public interface: scripts parse it, so keep it stable. Exit status:
0 success, 1 an invalid record (or nothing to do for ``legal``), 2 a usage error or a file that
cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on exit status 2 and a message naming the command."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    return Path(path).read_bytes()


def _option_pairs(pairs: Sequence[str] | None) -> dict[str, Any]:
    """``name=value`` pairs; values are JSON when they parse (``true``, ``490``), else text."""
    options: dict[str, Any] = {}
    for pair in pairs or ():
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--option expects name=value, got {pair!r}")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def _winner_text(winner: Any) -> str:
    if isinstance(winner, list):
        return "[" + ", ".join(str(w) for w in winner) + "]"
    return "none" if winner is None else str(winner)


# -- verify -------------------------------------------------------------------------------------


def _print_verdict(
    name: str, verdict: Any, *, as_json: bool, line: int | None, out: TextIO
) -> None:
    if as_json:
        obj = verdict.to_json(name, line=line)
        out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        return
    label = name if line is None else f"{name}:{line}"
    if verdict.valid:
        scores = ", ".join(str(s) for s in verdict.scores)
        if verdict.status == "complete":
            tail = f"scores [{scores}], winner {_winner_text(verdict.winner)}"
        else:
            tail = f"scores [{scores}]"
        out.write(f"{label}: valid, {verdict.status} ({tail})\n")
        return
    out.write(f"{label}: invalid\n")
    for error in verdict.errors:
        pointer = error.pointer if error.pointer else '""'
        out.write(f"  {pointer} {error.code} {error.message}\n")


def cmd_verify(args: argparse.Namespace) -> int:
    from fivehundred.record import verify

    status = EXIT_OK
    unreadable = False
    out = sys.stdout
    for name in args.files:
        try:
            data = _read(name)
        except OSError as exc:
            sys.stderr.write(f"fivehundred verify: cannot read {name}: {exc.strerror or exc}\n")
            unreadable = True
            continue
        if name.endswith(".jsonl"):
            for number, raw in enumerate(data.split(b"\n"), start=1):
                if not raw.strip():
                    continue
                verdict = verify(raw)
                _print_verdict(name, verdict, as_json=args.json, line=number, out=out)
                if not verdict.valid:
                    status = EXIT_INVALID
        else:
            verdict = verify(data)
            _print_verdict(name, verdict, as_json=args.json, line=None, out=out)
            if not verdict.valid:
                status = EXIT_INVALID
    return EXIT_USAGE if unreadable else status


# -- legal --------------------------------------------------------------------------------------


def cmd_legal(args: argparse.Namespace) -> int:
    from fivehundred.record import verify
    from fivehundred.record.notation import action_json
    from fivehundred.record.verify import parse_json, replay

    try:
        data = _read(args.file)
    except OSError as exc:
        sys.stderr.write(f"fivehundred legal: cannot read {args.file}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    verdict = verify(data)
    if not verdict.valid:
        sys.stderr.write(f"{args.file}: invalid record\n")
        for error in verdict.errors:
            sys.stderr.write(f"  {error.pointer or chr(34) * 2} {error.code} {error.message}\n")
        return EXIT_INVALID
    record, _ = parse_json(data)
    game = replay(record)
    if game.is_over:
        sys.stderr.write(f"{args.file}: the game is over: no seat has a decision to make\n")
        return EXIT_INVALID
    if game.needs_deal:
        dealer = game.next_dealer
        if args.json:
            print(json.dumps({"seat": None, "actions": [], "next_dealer": dealer}))
        else:
            who = "any seat" if dealer is None else f"seat {dealer}"
            print(f"the next hand must be dealt (by {who})")
        return EXIT_OK
    hand = game.hand
    assert hand is not None and hand.to_act is not None
    seat = hand.to_act
    legal = hand.legal_actions()
    if args.json:
        actions = [action_json(seat, action) for action in legal]
        print(json.dumps({"seat": seat, "actions": actions}))
    else:
        print(f"seat {seat} to act")
        for action in legal:
            print(str(action))
    return EXIT_OK


# -- deal ---------------------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    from fivehundred.engine import Rules, RulesError, deal_from_seed

    try:
        options = _option_pairs(args.option)
        rules = Rules.create(args.players, options)
    except (ValueError, RulesError) as exc:
        sys.stderr.write(f"fivehundred deal: {exc}\n")
        return EXIT_USAGE
    if not 0 <= args.dealer < rules.players:
        sys.stderr.write(f"fivehundred deal: --dealer must be a seat 0..{rules.players - 1}\n")
        return EXIT_USAGE
    deal = deal_from_seed(rules, args.seed, args.dealer)
    print(json.dumps(deal.to_json(), ensure_ascii=False))
    return EXIT_OK


# -- play ---------------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    from fivehundred.engine import RulesError
    from fivehundred.record import dumps, verify
    from fivehundred.record.play import play_game

    bots = args.bots.split(",") if args.bots else ["random"] * args.players
    try:
        options = _option_pairs(args.option)
        record = play_game(
            players=args.players,
            options=options,
            seed=args.seed,
            bots=bots,
            max_hands=args.max_hands,
        )
    except (ValueError, KeyError, RulesError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        sys.stderr.write(f"fivehundred play: {message}\n")
        return EXIT_USAGE
    text = dumps(record)
    verdict = verify(text)
    if not verdict.valid:  # a bug, not a user error: say so loudly and write nothing
        sys.stderr.write("fivehundred play: the game's record does not verify:\n")
        for error in verdict.errors:
            sys.stderr.write(f"  {error}\n")
        return EXIT_INVALID
    try:
        if args.out == "-":
            sys.stdout.write(text)
        else:
            Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        sys.stderr.write(f"fivehundred play: cannot write {args.out}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    if args.out != "-":
        scores = ", ".join(str(s) for s in verdict.scores or [])
        print(
            f"{args.out}: {verdict.status}, {len(record['hands'])} hands "
            f"(scores [{scores}], winner {_winner_text(verdict.winner)})"
        )
    return EXIT_OK


# -- show ---------------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    from fivehundred.record import RecordFormatError
    from fivehundred.record.show import render_text
    from fivehundred.record.verify import parse_json

    try:
        data = _read(args.file)
    except OSError as exc:
        sys.stderr.write(f"fivehundred show: cannot read {args.file}: {exc.strerror or exc}\n")
        return EXIT_USAGE
    record, problem = parse_json(data)
    if problem is not None:
        sys.stderr.write(f"{args.file}: invalid record\n  {problem}\n")
        return EXIT_INVALID
    try:
        sys.stdout.write(render_text(record, seat=args.seat))
    except RecordFormatError as exc:
        sys.stderr.write(f"{args.file}: invalid record\n")
        for error in exc.errors:
            sys.stderr.write(f"  {error}\n")
        return EXIT_INVALID
    except ValueError as exc:
        sys.stderr.write(f"fivehundred show: {exc}\n")
        return EXIT_USAGE
    return EXIT_OK


# -- bot-test (provided by fivehundred.bots.cli) ------------------------------------------------


def cmd_bot_test(args: argparse.Namespace) -> int:
    return _bot_test([args.path, *args.options])


def _bot_test(argv: list[str]) -> int:
    try:
        from fivehundred.bots.cli import (  # type: ignore[import-not-found,unused-ignore]
            bot_test_main,
        )
    except ImportError as exc:
        sys.stderr.write(f"fivehundred bot-test: not available in this installation ({exc})\n")
        return EXIT_USAGE
    return int(bot_test_main(argv) or 0)


# -- the parser ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fivehundred",
        description="Five Hundred game records: verify, replay, deal, play and show them.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    p = commands.add_parser(
        "verify",
        help="verify records (exit 0: all valid, 1: some invalid, 2: unreadable)",
        description="Replay each record and check every claim. A .jsonl file is a collection: "
        "one result per record (line).",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (.json or .jsonl)")
    p.add_argument("--json", action="store_true", help="one JSON object per record per line")
    p.set_defaults(func=cmd_verify)

    p = commands.add_parser(
        "legal",
        help="the seat to act and its legal actions after a record's last action",
        description="Replay a valid, unfinished record and list the legal actions of the seat "
        "to act (exit 1 if the record is invalid or the game is over).",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--json", action="store_true", help='print {"seat": s, "actions": [action objects]}'
    )
    p.set_defaults(func=cmd_legal)

    p = commands.add_parser(
        "deal",
        help="the deal a seed gives, as a record's deal object",
        description="Print the deal that SEED gives (record format, section 4) as JSON.",
    )
    p.add_argument("--seed", required=True, help="the seed text")
    p.add_argument("--players", type=int, default=4, help="number of players, 2-6 (default 4)")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)"
    )
    p.set_defaults(func=cmd_deal)

    p = commands.add_parser(
        "play",
        help="built-in bots play a whole game; write its record",
        description="Play a game with built-in bots and write its (verified) record.",
    )
    p.add_argument("--players", type=int, default=4, help="number of players, 2-6 (default 4)")
    p.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="a rules option (repeatable)"
    )
    p.add_argument("--seed", help="the game's seed (default: random); hand k uses SEED:k")
    p.add_argument(
        "--bots", help="comma-separated built-in bot names, one per seat (default: random)"
    )
    p.add_argument("--max-hands", type=int, default=1000, help="stop after this many hands")
    p.add_argument(
        "--out", required=True, metavar="FILE", help="where to write the record (- for stdout)"
    )
    p.set_defaults(func=cmd_play)

    p = commands.add_parser(
        "show",
        help="a record as readable text",
        description="Render a record for people: event, seats, the deal, the auction, the "
        "kitty exchange, every trick with its winner and the score sheet.",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--seat", type=int, help="show only what this seat may see")
    p.set_defaults(func=cmd_show)

    p = commands.add_parser(
        "bot-test",
        help="check a bot program against the bot protocol",
        description="Run a bot program through test games (provided by the bots package).",
    )
    p.add_argument("path", metavar="PATH", help="the bot program (.py, or .zip with --entry)")
    p.add_argument(
        "options",
        nargs=argparse.REMAINDER,
        help="options of bot-test (--games, --entry, --players, ...), passed on as given",
    )
    p.set_defaults(func=cmd_bot_test)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["bot-test"] and arguments[1:2] not in (["-h"], ["--help"]):
        # bot-test owns its options (and may take them before PATH): hand them on untouched.
        return _bot_test(arguments[1:])
    parser = build_parser()
    args = parser.parse_args(arguments)
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    return code
