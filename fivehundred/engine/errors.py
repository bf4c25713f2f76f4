"""Typed errors of the engine. Each names what is wrong and, where it applies, the rule broken."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error the engine raises on bad input."""


class NotationError(EngineError, ValueError):
    """Text or JSON that is not canonical notation (a card, a call, a suit, an action).

    ``path`` locates the bad value inside the object that was parsed (keys and indexes), so that
    the record verifier can build a JSON Pointer from it.
    """

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class RulesError(EngineError, ValueError):
    """Rules that cannot be played: unknown option, unsupported value, bad player count.

    ``member`` is ``"players"``, ``"ruleset"`` or the option's name; ``type_error`` is true when the
    value has the wrong JSON type (the record calls that a schema error) rather than a bad value.
    """

    def __init__(self, member: str, message: str, *, type_error: bool = False) -> None:
        super().__init__(message)
        self.member = member
        self.message = message
        self.type_error = type_error


class DealError(EngineError, ValueError):
    """A deal that is not the rules' pack dealt correctly.

    ``path`` is relative to the record's ``deal`` object: ``()`` for the deal as a whole,
    ``("hands", 2, 5)`` for one card.
    """

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class IllegalActionError(EngineError, ValueError):
    """An action the rules do not allow in this state; ``rule`` is the rule id (``"R-6.2"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message


class WrongSeatError(IllegalActionError):
    """An action by a seat whose turn it is not."""

    def __init__(self, seat: int, to_act: int | None) -> None:
        who = "nobody" if to_act is None else f"seat {to_act}"
        super().__init__("R-4.1", f"seat {seat} acted, but it is {who}'s turn")
        self.seat = seat
        self.to_act = to_act


class HandOverError(IllegalActionError):
    """An action after the hand (or the game) has ended."""

    def __init__(self, message: str = "the hand is over: no further action is possible") -> None:
        super().__init__("R-10", message)


class SummaryError(EngineError, ValueError):
    """A summary hand (contract and tricks only) that the rules cannot score.

    ``member`` is the offending member of the hand's result: ``"contract"``,
    ``"contract/partner"`` or ``"tricks"``.
    """

    def __init__(self, member: str, message: str) -> None:
        super().__init__(message)
        self.member = member
        self.message = message
