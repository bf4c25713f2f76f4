"""The bot protocol, version 1: line-delimited JSON between the runner and a bot process.

The runner writes one JSON object per line to the bot's stdin; the bot answers each ``act`` with
one line on its stdout. See ``docs/bots.md`` for the full description. This module only builds and
checks messages; it knows nothing about processes (``sandbox.py``) or the engine (``match.py``).

Faults are typed so that a match runner can turn them into the record's ``termination``:

========================  ==========================================================
fault kind                when
========================  ==========================================================
``timeout``               no answer within the decision's time limit plus the bank
``crash``                 the process exited or was killed before answering
``memory``                the process ran out of its address-space limit
``protocol_error``        the answer is not a JSON object on one line, too long, or
                          output arrived when none was asked for, or an output cap
                          was exceeded
``illegal_action``        a well-formed action object that is not one of the legal
                          ones (or names another seat)
========================  ==========================================================
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

PROTOCOL_VERSION: Final = 1

FaultKind = Literal["timeout", "crash", "memory", "protocol_error", "illegal_action"]
FAULT_KINDS: Final[tuple[FaultKind, ...]] = (
    "timeout",
    "crash",
    "memory",
    "protocol_error",
    "illegal_action",
)

# The record format's termination reasons are a fixed list (record format, section 5); faults
# that have no reason of their own are written as the nearest one, with the fault kind kept in
# the detail so nothing is lost.
_TERMINATION_REASON: Final[dict[FaultKind, str]] = {
    "timeout": "timeout",
    "crash": "crash",
    "memory": "crash",
    "protocol_error": "crash",
    "illegal_action": "illegal_action",
}

# The verbs an action object may carry (record format, section 3) and the extra key a joker lead
# adds. Anything else in an answer is a protocol error.
ACTION_VERBS: Final = ("call", "partner", "discard", "nominate", "play")
_ALLOWED_KEYS: Final = frozenset((*ACTION_VERBS, "seat", "suit"))

# An answer line longer than this is refused without being parsed: the longest legal action (a
# discard of three cards) is well under 100 bytes.
MAX_ANSWER_BYTES: Final = 4096


@dataclass(frozen=True)
class Fault:
    """What went wrong with a bot, in terms its owner can act on."""

    kind: FaultKind
    detail: str
    stderr_tail: str = ""

    def termination(self, seat: int) -> dict[str, Any]:
        """The record's ``termination`` object for this fault at ``seat``."""
        reason = _TERMINATION_REASON[self.kind]
        detail = self.detail if reason == self.kind else f"{self.kind}: {self.detail}"
        return {"reason": reason, "seat": seat, "detail": f"seat {seat}: {detail}"}

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "detail": self.detail, "stderr_tail": self.stderr_tail}


class BotFault(Exception):
    """Raised by a seat player when its bot faults; carries the typed :class:`Fault`."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"{fault.kind}: {fault.detail}")
        self.fault = fault


def encode(message: Mapping[str, Any]) -> bytes:
    """One protocol line: compact JSON and a newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def start_message(
    *,
    rules: Mapping[str, Any],
    seat: int,
    seats: Sequence[str],
    per_decision_ms: int,
    bank_ms: int,
) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "rules": dict(rules),
        "seat": seat,
        "seats": list(seats),
        "time": {"per_decision_ms": per_decision_ms, "bank_ms": bank_ms},
    }


def act_message(
    *, view: Mapping[str, Any], legal: Sequence[Mapping[str, Any]], time_left_ms: int
) -> dict[str, Any]:
    return {"type": "act", "view": view, "legal": list(legal), "time_left_ms": time_left_ms}


def end_message(
    *,
    result: Mapping[str, Any] | None,
    termination: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "end", "result": dict(result) if result else None}
    if termination is not None:
        message["termination"] = dict(termination)
    return message


def action_key(action: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable key of an action object without its ``seat``; discards compare as sets."""
    items = []
    for key, value in action.items():
        if key == "seat":
            continue
        if key == "discard" and isinstance(value, list):
            value = tuple(sorted(str(card) for card in value))
        items.append((key, value))
    return tuple(sorted(items))


class LegalIndex:
    """Finds an answer among the legal action objects of one decision."""

    def __init__(self, legal: Sequence[Mapping[str, Any]]) -> None:
        self._legal = legal
        self._index: dict[tuple[tuple[str, Any], ...], int] | None = None

    def find(self, action: Mapping[str, Any]) -> int | None:
        # Most decisions have a handful of actions: a linear scan beats building a dict, which is
        # only worth it for the large discard lists.
        if len(self._legal) <= 16:
            key = action_key(action)
            for i, candidate in enumerate(self._legal):
                if action_key(candidate) == key:
                    return i
            return None
        if self._index is None:
            self._index = {action_key(a): i for i, a in enumerate(self._legal)}
        return self._index.get(action_key(action))


def parse_answer(line: bytes, *, seat: int, legal: Sequence[Mapping[str, Any]]) -> int:
    """Check one answer line against the legal actions; return the index of the chosen one.

    Raises :class:`BotFault` with ``protocol_error`` for anything that is not a single JSON action
    object, and ``illegal_action`` for a well-formed action that is not legal for ``seat``.
    """
    if len(line) > MAX_ANSWER_BYTES:
        raise BotFault(
            Fault("protocol_error", f"answer of {len(line)} bytes exceeds {MAX_ANSWER_BYTES}")
        )
    try:
        answer = json.loads(line)
    except (UnicodeDecodeError, ValueError) as exc:
        raise BotFault(
            Fault("protocol_error", f"answer is not JSON ({exc}): {_excerpt(line)}")
        ) from None
    if not isinstance(answer, dict):
        raise BotFault(
            Fault(
                "protocol_error",
                f"answer must be a JSON object, got {type(answer).__name__}: {_excerpt(line)}",
            )
        )
    unknown = sorted(set(answer) - _ALLOWED_KEYS)
    if unknown:
        raise BotFault(
            Fault("protocol_error", f"answer has unknown keys {unknown}: {_excerpt(line)}")
        )
    verbs = [verb for verb in ACTION_VERBS if verb in answer]
    if len(verbs) != 1:
        raise BotFault(
            Fault(
                "protocol_error",
                f"answer must have exactly one of {list(ACTION_VERBS)}: {_excerpt(line)}",
            )
        )
    if "seat" in answer and answer["seat"] != seat:
        raise BotFault(
            Fault(
                "illegal_action", f"answer names seat {answer['seat']!r}, but this is seat {seat}"
            )
        )
    index = LegalIndex(legal).find(answer)
    if index is None:
        raise BotFault(
            Fault(
                "illegal_action", f"{_excerpt(line)} is not one of the {len(legal)} legal actions"
            )
        )
    return index


def _excerpt(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").strip()
    return text if len(text) <= limit else text[:limit] + "..."
