"""Records the viewer tests replay: bot-played games and the shipped examples."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parents[1] / "golden" / "examples"


@functools.cache
def _played(players: int, seed: str, bot: str) -> dict[str, Any]:
    from fivehundred.record.play import play_game

    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][:players]
    return play_game(players=players, seed=seed, bots=[bot] * players, names=names)


def played(players: int = 4, seed: str = "viewer-1", bot: str = "heuristic") -> dict[str, Any]:
    """A complete bot-played record (a fresh copy each call)."""
    return copy.deepcopy(_played(players, seed, bot))


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    return data
