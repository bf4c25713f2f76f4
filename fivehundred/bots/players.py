"""Seat players: what the match runner talks to at each seat.

A seat is played either by a built-in bot in this process (:class:`InProcessPlayer`) or by a bot
process in the sandbox speaking the protocol (:class:`SandboxPlayer`). Both answer the index of
the chosen action among the engine's legal actions, or raise :class:`BotFault`.
"""

from __future__ import annotations

import contextlib
import time
import traceback
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from fivehundred.bots.builtin import Bot, get_bot
from fivehundred.bots.protocol import (
    BotFault,
    Fault,
    act_message,
    encode,
    end_message,
    parse_answer,
    start_message,
)
from fivehundred.bots.sandbox import Limits, SandboxConfig, SandboxedProcess, StagedCode
from fivehundred.engine import Action, action_to_json


def _crash(exc: Exception) -> Fault:
    tail = "".join(traceback.format_exception(exc))[-4096:]
    return Fault("crash", f"raised {type(exc).__name__}: {exc}", tail)


class SeatPlayer(Protocol):
    name: str

    def start(self, *, rules: Mapping[str, Any], seat: int, seats: Sequence[str]) -> None: ...

    def act(self, *, seat: int, view: Any, legal: Sequence[Action]) -> int: ...

    def end(
        self, *, result: Mapping[str, Any] | None, termination: Mapping[str, Any] | None
    ) -> None: ...

    def close(self) -> None: ...


class InProcessPlayer:
    """A built-in bot called directly: no process, no protocol."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    @classmethod
    def builtin(cls, name: str, seed: int | str | None = None) -> InProcessPlayer:
        return cls(get_bot(name, seed))

    def start(self, *, rules: Mapping[str, Any], seat: int, seats: Sequence[str]) -> None:
        pass

    def act(self, *, seat: int, view: Any, legal: Sequence[Action]) -> int:
        try:
            choice = self.bot.act(view, legal)
        except Exception as exc:
            # A bug in a built-in bot ends the game like any crash, with a valid record and the
            # traceback where a bot owner would find its stderr, instead of losing the match.
            raise BotFault(_crash(exc)) from exc
        try:
            return legal.index(choice)
        except ValueError:
            raise BotFault(
                Fault("illegal_action", f"{choice} is not one of the legal actions")
            ) from None

    def end(
        self, *, result: Mapping[str, Any] | None, termination: Mapping[str, Any] | None
    ) -> None:
        pass

    def close(self) -> None:
        pass


class ObjectBotPlayer:
    """An SDK-style bot (``act(view, legal)`` on protocol objects) called in this process.

    For trusted code only (tests, benchmarks, local experiments): it gets the same objects as
    through the protocol, and its answer is checked the same way, but it is not sandboxed.
    """

    def __init__(self, bot: Any, *, name: str) -> None:
        self.bot = bot
        self.name = name
        self.seat = 0

    def start(self, *, rules: Mapping[str, Any], seat: int, seats: Sequence[str]) -> None:
        self.seat = seat
        start = getattr(self.bot, "start", None)
        if callable(start):
            start(start_message(rules=rules, seat=seat, seats=seats, per_decision_ms=0, bank_ms=0))

    def act(self, *, seat: int, view: Any, legal: Sequence[Action]) -> int:
        legal_json = [action_to_json(seat, action) for action in legal]
        act = self.bot.act if hasattr(self.bot, "act") else self.bot
        try:
            answer = act(view.to_json(), legal_json)
            line = encode(answer)
        except Exception as exc:
            raise BotFault(_crash(exc)) from exc
        return parse_answer(line, seat=seat, legal=legal_json)

    def end(
        self, *, result: Mapping[str, Any] | None, termination: Mapping[str, Any] | None
    ) -> None:
        end = getattr(self.bot, "end", None)
        if callable(end):
            end(end_message(result=result, termination=termination))

    def close(self) -> None:
        pass


class SandboxPlayer:
    """A bot process in the sandbox for one game, with the decision clock and time bank."""

    def __init__(
        self,
        *,
        name: str,
        entry: str,
        args: Sequence[str] = (),
        code: StagedCode | None = None,
        limits: Limits | None = None,
        config: SandboxConfig | None = None,
    ) -> None:
        self.name = name
        self.limits = limits or Limits()
        self.process = SandboxedProcess(
            entry=entry, args=args, code=code, limits=self.limits, config=config
        )
        self.bank_ms = float(self.limits.bank_ms)
        self.decisions = 0
        self.seat = 0

    @classmethod
    def builtin(
        cls,
        name: str,
        seed: int | str | None = None,
        *,
        limits: Limits | None = None,
        config: SandboxConfig | None = None,
    ) -> SandboxPlayer:
        """A built-in bot run through the protocol in the sandbox (as ``fivehundred.bots.run``)."""
        args = [name] if seed is None else [name, "--seed", str(seed)]
        return cls(name=name, entry="fivehundred.bots.run", args=args, limits=limits, config=config)

    @classmethod
    def uploaded(
        cls,
        code: StagedCode,
        *,
        name: str,
        limits: Limits | None = None,
        config: SandboxConfig | None = None,
    ) -> SandboxPlayer:
        return cls(name=name, entry=code.entry, code=code, limits=limits, config=config)

    def start(self, *, rules: Mapping[str, Any], seat: int, seats: Sequence[str]) -> None:
        """Start the process (raises SandboxUnavailable) and send the ``start`` message."""
        self.seat = seat
        self.bank_ms = float(self.limits.bank_ms)
        self.process.start()
        message = start_message(
            rules=rules,
            seat=seat,
            seats=seats,
            per_decision_ms=self.limits.per_decision_ms,
            bank_ms=self.limits.bank_ms,
        )
        self.process.send(message, timeout_s=self.limits.startup_ms / 1000)

    def act(self, *, seat: int, view: Any, legal: Sequence[Action]) -> int:
        legal_json = [action_to_json(seat, action) for action in legal]
        view_json = view.to_json() if hasattr(view, "to_json") else view
        return self.act_json(view=view_json, legal=legal_json)

    def act_json(self, *, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]]) -> int:
        """One decision on protocol objects: the index of the answer in ``legal``."""
        per_decision = self.limits.per_decision_ms
        time_left_ms = per_decision + self.bank_ms
        timeout_ms = time_left_ms
        if self.decisions == 0:
            timeout_ms += self.limits.startup_ms
        message = act_message(view=view, legal=legal, time_left_ms=int(time_left_ms))
        began = time.monotonic()
        line = self.process.request(message, timeout_s=timeout_ms / 1000)
        elapsed_ms = (time.monotonic() - began) * 1000
        if self.decisions == 0:
            elapsed_ms = max(0.0, elapsed_ms - self.limits.startup_ms)
        self.decisions += 1
        if elapsed_ms > per_decision:
            self.bank_ms = max(0.0, self.bank_ms - (elapsed_ms - per_decision))
        try:
            return parse_answer(line, seat=self.seat, legal=legal)
        except BotFault as exc:
            self.process.kill()
            fault = exc.fault
            raise BotFault(Fault(fault.kind, fault.detail, self.process.stderr_tail())) from None

    def end(
        self, *, result: Mapping[str, Any] | None, termination: Mapping[str, Any] | None
    ) -> None:
        if self.process.running:
            # The game is over; a bot that cannot take the last message changes nothing.
            with contextlib.suppress(BotFault):
                self.process.send(end_message(result=result, termination=termination))
            # Let every seat's bot exit at once while the runner closes them one by one.
            self.process.close_input()

    def close(self) -> None:
        self.process.close()

    def stderr_tail(self) -> str:
        return self.process.stderr_tail()
