"""Shared values for the bot tests: short limits, a sample decision, the result of a bot run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fivehundred.bots.players import SandboxPlayer
from fivehundred.bots.protocol import Fault
from fivehundred.bots.sandbox import Limits

# Short limits keep every hostile test to about a second.
TEST_LIMITS = Limits(
    per_decision_ms=300,
    bank_ms=200,
    startup_ms=1500,
    cpu_seconds=5,
    address_space_mb=256,
    processes=16,
    stderr_bytes=64 * 1024,
    stdout_bytes=256 * 1024,
)

RULES = {"ruleset": "australian", "players": 4, "options": {}}
VIEW = {"seat": 1, "players": 4, "phase": "auction", "hand": ["AS", "KS"], "auction": []}
LEGAL = [{"seat": 1, "call": "PASS"}, {"seat": 1, "call": "6S"}, {"seat": 1, "call": "OM"}]


@dataclass
class BotRun:
    answers: list[int]
    fault: Fault | None
    player: SandboxPlayer
    leftover: list[int]


def all_descendants_gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists() or _state(pid) in ("Z", "X")


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"
