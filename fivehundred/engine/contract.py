"""The contract a hand is played in, and the hand's and game's results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .calls import Call
from .cards import Card


@dataclass(frozen=True, slots=True)
class Contract:
    """The winning bid, who made it and, in five players, the called partner (R-1.4).

    ``partner`` is the partner's seat, or ``None`` when the contractor plays alone (called
    "alone", called a card in the kitty or in his own hand, or no call was made).
    ``called`` is the card called, if any.
    """

    seat: int
    call: Call
    partner: int | None = None
    called: Card | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "bid": str(self.call)}
        if self.partner is not None:
            out["partner"] = self.partner
        return out


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: contract (``None`` when thrown in), tricks, score and totals per side."""

    contract: Contract | None
    tricks: tuple[int, ...]
    score: tuple[int, ...]
    totals: tuple[int, ...]
    made: bool | None

    def to_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract.to_json() if self.contract is not None else None,
            "tricks": list(self.tricks),
            "score": list(self.score),
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: final totals, the winning side (or sides) and why (record section 5)."""

    scores: tuple[int, ...]
    winner: int | tuple[int, ...] | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        winner: Any = list(self.winner) if isinstance(self.winner, tuple) else self.winner
        return {"scores": list(self.scores), "winner": winner, "reason": self.reason}
