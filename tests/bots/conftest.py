"""Fixtures for the bot tests: the real sandbox, hostile bots written to files, leak checks.

In CI (``CI=true``) bubblewrap is required: a missing or broken sandbox fails the tests instead of
skipping them, so the hostile-bot suite can never silently stop running.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from fivehundred.bots.players import SandboxPlayer
from fivehundred.bots.protocol import BotFault, Fault
from fivehundred.bots.sandbox import Limits, SandboxUnavailable, sandbox_check, stage_code

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


@pytest.fixture(scope="session")
def sandbox() -> str:
    try:
        return sandbox_check()
    except SandboxUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the sandbox is required in CI: {exc}")
        pytest.skip(f"no sandbox on this machine: {exc}")


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


@pytest.fixture
def run_bot(sandbox: str, tmp_path: Path) -> Iterator[Callable[..., BotRun]]:
    """Write ``source`` as a bot, play ``decisions`` decisions through the real sandbox."""
    staged = []

    def run(source: str, *, decisions: int = 3, limits: Limits = TEST_LIMITS) -> BotRun:
        path = tmp_path / "hostile_bot.py"
        path.write_text(textwrap.dedent(source))
        code = stage_code(path)
        staged.append(code)
        player = SandboxPlayer.uploaded(code, name="hostile", limits=limits)
        answers: list[int] = []
        fault = None
        try:
            player.start(rules=RULES, seat=1, seats=["a", "b", "c", "d"])
            for _ in range(decisions):
                answers.append(player.act_json(view=VIEW, legal=LEGAL))
        except BotFault as exc:
            fault = exc.fault
        finally:
            player.close()
        process = player.process
        leftover = process.leftover_pids()
        assert process.pid is not None
        assert all_descendants_gone(process.pid), "bwrap itself is still running"
        return BotRun(answers, fault, player, leftover)

    yield run
    for code in staged:
        code.remove()
