"""Fixtures for the bot tests: the real sandbox, hostile bots written to files, leak checks.

In CI (``CI=true``) bubblewrap is required: a missing or broken sandbox fails the tests instead of
skipping them, so the hostile-bot suite can never silently stop running.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fivehundred.bots.players import SandboxPlayer
from fivehundred.bots.protocol import BotFault
from fivehundred.bots.sandbox import Limits, SandboxUnavailable, sandbox_check, stage_code
from tests.bots.helpers import LEGAL, RULES, TEST_LIMITS, VIEW, BotRun, all_descendants_gone


@pytest.fixture(scope="session")
def sandbox() -> str:
    try:
        return sandbox_check()
    except SandboxUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the sandbox is required in CI: {exc}")
        pytest.skip(f"no sandbox on this machine: {exc}")


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
