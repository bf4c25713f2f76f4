"""Run a built-in bot as a protocol-speaking process: ``python -m fivehundred.bots.run heuristic``.

This is how built-in bots play through the sandbox (and a second example of the SDK). Usage:
``python -m fivehundred.bots.run NAME [--seed SEED]``. It imports only what the named bot needs
(the heuristic bot does not need the engine), because every sandboxed seat pays for its imports
at every game's start.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from fivehundred.bots import sdk

USAGE = "usage: python -m fivehundred.bots.run {heuristic,random} [--seed SEED]"


class _ProtocolAdapter:
    """Gives a built-in bot protocol objects; bots with ``choose`` decide on them directly."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def start(self, message: Mapping[str, Any]) -> None:
        start = getattr(self.bot, "start", None)
        if callable(start):
            start(message)

    def act(self, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> Any:
        choose = getattr(self.bot, "choose", None)
        if callable(choose):
            return legal[choose(view, legal)]
        # Bots that only pick among what they are given (such as random) work on the objects.
        return self.bot.act(view, legal)


def _make(name: str, seed: str | None) -> Any:
    if name == "heuristic":
        from fivehundred.bots.heuristic import HeuristicBot

        return HeuristicBot(seed)
    from fivehundred.bots.builtin import get_bot

    return get_bot(name, seed)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    seed = None
    if len(args) == 3 and args[1] == "--seed":
        seed = args[2]
    elif len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        bot = _make(args[0], seed)
    except KeyError as exc:
        print(f"{exc.args[0]}\n{USAGE}", file=sys.stderr)
        return 2
    sdk.run(_ProtocolAdapter(bot))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
