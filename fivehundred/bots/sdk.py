"""The bot SDK: write ``act(view, legal) -> action`` and call :func:`run`.

This module runs inside the sandbox next to the bot's own code, so it uses the standard library
only. A bot is either a function::

    from fivehundred.bots.sdk import run

    def act(view, legal):
        return legal[0]

    run(act)

or an object with an ``act(view, legal)`` method and optional ``start(info)`` and ``end(info)``
methods, called with the ``start`` and ``end`` messages of each game. ``view`` is the engine's view
of the game for this seat (``state.view(seat).to_json()``), ``legal`` the list of legal action
objects in record notation; the answer must be one of them (returning the very object is simplest).

The protocol line is written to the real standard output, which :func:`run` keeps for itself:
while the bot runs, ``print()`` goes to standard error, so debugging output cannot break the
protocol. Standard error is capped by the runner; keep it short.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

View = dict[str, Any]
ActionObject = dict[str, Any]
ActFunction = Callable[[View, list[ActionObject]], ActionObject]

__all__ = ["ActFunction", "ActionObject", "View", "run"]


class _FunctionBot:
    def __init__(self, act: ActFunction) -> None:
        self.act = act


def run(bot: Any, *, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve the bot protocol until the runner closes stdin; return the number of decisions made.

    ``bot`` is a function ``act(view, legal)`` or an object with ``act`` and optionally
    ``start(message)`` and ``end(message)``. ``stdin``/``stdout`` default to the process's own
    (binary) streams; passing others is useful in tests.
    """
    if not hasattr(bot, "act") and callable(bot):
        bot = _FunctionBot(bot)
    if not callable(getattr(bot, "act", None)):
        raise TypeError("run() needs a function act(view, legal) or an object with an act method")
    start = getattr(bot, "start", None)
    end = getattr(bot, "end", None)

    if stdin is None:
        stdin = sys.stdin.buffer
    if stdout is None:
        # Keep the protocol channel for ourselves and send the bot's prints to stderr.
        stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
        sys.stdout = sys.stderr

    decisions = 0
    for raw in stdin:
        if not raw.strip():
            continue
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "act":
            answer = bot.act(message["view"], message["legal"])
            stdout.write(json.dumps(answer, separators=(",", ":")).encode() + b"\n")
            stdout.flush()
            decisions += 1
        elif kind == "start":
            if callable(start):
                start(message)
        elif kind == "end" and callable(end):
            end(message)
        # Unknown message types are ignored so that later protocol versions can add messages.
    return decisions
