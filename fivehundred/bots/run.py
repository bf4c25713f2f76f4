"""Run a built-in bot as a protocol-speaking process: ``python -m fivehundred.bots.run heuristic``.

This is how built-in bots play through the sandbox (and a second example of the SDK).
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from fivehundred.bots import sdk
from fivehundred.bots.builtin import BUILTIN_BOTS, get_bot


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fivehundred.bots.run")
    parser.add_argument("bot", choices=sorted(BUILTIN_BOTS))
    parser.add_argument("--seed", default=None)
    options = parser.parse_args(argv)
    sdk.run(_ProtocolAdapter(get_bot(options.bot, options.seed)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
