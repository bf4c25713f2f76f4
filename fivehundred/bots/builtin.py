"""Built-in bots, usable in-process and through the bot protocol."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fivehundred.engine import Action


class Bot(Protocol):
    """A bot answers one legal action for a view of the game."""

    name: str

    def act(self, view: Any, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action; seeded for reproducible games."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: Any, legal: Sequence[Action]) -> Action:
        return legal[self._rng.randrange(len(legal))]


# Imported here (not at the top) because the heuristic bot lives in its own module.
from fivehundred.bots.heuristic import HeuristicBot  # noqa: E402

BUILTIN_BOTS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}


def get_bot(name: str, seed: int | str | None = None) -> Bot:
    """Return a new built-in bot by name; ``KeyError`` names the known bots."""
    try:
        factory = BUILTIN_BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BUILTIN_BOTS))
        raise KeyError(f"unknown built-in bot {name!r} (known: {known})") from None
    return factory(seed)
