"""Hostile bots, each run through the real sandbox and protocol.

Every test checks the fault the runner reports (or that the attack simply failed inside the
sandbox while the bot kept playing), that this process is still alive, and that nothing the bot
started is left running (``run_bot`` checks bwrap is gone, and ``leftover`` lists any process
still alive in the bot's PID namespace).
"""

from __future__ import annotations

import dataclasses
import os
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.bots.helpers import TEST_LIMITS, BotRun

# A bot that answers the first legal action when ``CHECK`` holds and an illegal action otherwise,
# printing what it found to stderr: the test then sees either no fault, or the evidence.
GUARDED = """
import os, sys
from fivehundred.bots.sdk import run

def check():
{check}

def act(view, legal):
    problem = check()
    if problem:
        print("SANDBOX LEAK:", problem, file=sys.stderr, flush=True)
        return {{"play": "LEAK"}}
    return legal[0]

run(act)
"""


def guarded(check: str) -> str:
    indented = "\n".join("    " + line for line in check.strip().splitlines())
    return GUARDED.format(check=indented)


def assert_clean(run: BotRun) -> None:
    assert run.leftover == [], f"processes left behind: {run.leftover}"
    assert not run.player.process.running


def assert_no_leak(run: BotRun) -> None:
    assert run.fault is None, f"{run.fault}\n{run.fault and run.fault.stderr_tail}"
    assert run.answers == [0, 0, 0]
    assert_clean(run)


# -- resource abuse --------------------------------------------------------------------------


def test_infinite_loop_times_out(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        from fivehundred.bots.sdk import run
        def act(view, legal):
            while True:
                pass
        run(act)
        """
    )
    assert run.fault is not None and run.fault.kind == "timeout"
    assert "no answer within" in run.fault.detail
    assert_clean(run)


def test_sleeping_past_the_limit_times_out_after_the_bank(run_bot: Callable[..., BotRun]) -> None:
    # Each decision takes 250 ms: within the 300 ms limit the bank is untouched; then a sleep
    # longer than limit + bank is a timeout.
    run = run_bot(
        """
        import time
        from fivehundred.bots.sdk import run
        n = 0
        def act(view, legal):
            global n
            n += 1
            time.sleep(0.25 if n < 3 else 5)
            return legal[0]
        run(act)
        """
    )
    assert run.answers == [0, 0]
    assert run.fault is not None and run.fault.kind == "timeout"
    assert_clean(run)


def test_the_time_bank_absorbs_a_slow_decision_then_runs_out(
    run_bot: Callable[..., BotRun],
) -> None:
    # 400 ms per decision: 100 ms over the limit each time, the 200 ms bank covers two.
    run = run_bot(
        """
        import time
        from fivehundred.bots.sdk import run
        def act(view, legal):
            time.sleep(0.4)
            return legal[0]
        run(act)
        """,
        decisions=4,
    )
    assert run.fault is not None and run.fault.kind == "timeout"
    assert 1 <= len(run.answers) <= 3
    assert_clean(run)


def test_fork_bomb_is_contained(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import os
        from fivehundred.bots.sdk import run
        def act(view, legal):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
        run(act)
        """
    )
    assert run.fault is not None and run.fault.kind == "timeout"
    assert_clean(run)


def test_fork_bomb_cannot_exceed_its_process_limit(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import os, sys, time
        from fivehundred.bots.sdk import run
        def act(view, legal):
            children = 0
            for _ in range(100):
                try:
                    if os.fork() == 0:
                        time.sleep(30)
                        os._exit(0)
                    children += 1
                except OSError:
                    break
            if children >= 16:
                print("forked", children, file=sys.stderr)
                return {"play": "LEAK"}
            return legal[0]
        run(act)
        """,
        decisions=1,
    )
    assert run.fault is None, run.fault and run.fault.stderr_tail
    assert_clean(run)


def test_allocating_memory_without_end_is_a_memory_fault(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        from fivehundred.bots.sdk import run
        def act(view, legal):
            hoard = []
            while True:
                hoard.append(bytearray(8 * 1024 * 1024))
        run(act)
        """
    )
    assert run.fault is not None and run.fault.kind == "memory"
    assert "out of memory" in run.fault.detail and "256 MB" in run.fault.detail
    assert "MemoryError" in run.fault.stderr_tail
    assert run.fault.termination(1)["reason"] == "crash"
    assert_clean(run)


def test_writing_a_huge_file_hits_the_file_size_limit(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        guarded(
            """
import signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
try:
    with open("/tmp/big", "wb") as f:
        f.write(b"x" * (64 * 1024 * 1024))
except OSError:
    return None
return "wrote 64 MB"
"""
        )
    )
    assert_no_leak(run)


# -- isolation -------------------------------------------------------------------------------


@pytest.fixture
def listener() -> Iterator[tuple[int, list[object]]]:
    """A TCP server on this machine's loopback that records any connection."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.1)
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join()
    server.close()


def test_no_network(run_bot: Callable[..., BotRun], listener: tuple[int, list[object]]) -> None:
    port, accepted = listener
    run = run_bot(
        guarded(
            f"""
import socket
for host in ("127.0.0.1", "10.0.2.2", "1.1.1.1", "pypi.org"):
    try:
        socket.create_connection((host, {port} if host == "127.0.0.1" else 80), timeout=0.2)
        return "connected to " + host
    except OSError:
        pass
return None
"""
        )
    )
    assert_no_leak(run)
    assert accepted == []


def test_project_settings_and_files_are_not_visible(run_bot: Callable[..., BotRun]) -> None:
    root = Path(__file__).resolve().parents[2]
    targets = [
        str(root / "fivehundred" / "settings.py"),
        str(root / "pyproject.toml"),
        str(root / "fivehundred" / "bots" / "sandbox.py"),
        "/runtime/fivehundred/settings.py",
    ]
    run = run_bot(
        guarded(
            f"""
import os
for path in {targets!r}:
    if os.path.exists(path):
        return "can see " + path
try:
    import fivehundred.settings
    return "imported the settings"
except Exception:
    return None
"""
        )
    )
    assert_no_leak(run)


def test_environment_holds_no_secrets(
    run_bot: Callable[..., BotRun], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "do-not-leak-this-secret")
    monkeypatch.setenv("DATABASE_URL", "postgres://user:password@db/fivehundred")
    run = run_bot(
        guarded(
            """
allowed = {"PATH", "HOME", "LANG", "PYTHONPATH", "PWD"}
extra = set(os.environ) - allowed
if extra:
    return "environment has " + ", ".join(sorted(extra))
if "do-not-leak" in open("/proc/self/environ").read():
    return "secret in /proc/self/environ"
if os.path.exists("/proc/1/environ") and "do-not-leak" in open("/proc/1/environ", errors="replace").read():
    return "secret in the environment of pid 1"
return None
"""
        )
    )
    assert_no_leak(run)


def test_etc_passwd_is_absent(run_bot: Callable[..., BotRun]) -> None:
    host = Path("/etc/passwd").read_text()
    run = run_bot(
        guarded(
            f"""
try:
    text = open("/etc/passwd").read()
except OSError:
    return None
return "read /etc/passwd" if text == {host!r} else None
"""
        )
    )
    assert_no_leak(run)


def test_another_bots_files_are_not_visible(run_bot: Callable[..., BotRun], tmp_path: Path) -> None:
    other = tmp_path / "other_bot"
    other.mkdir()
    (other / "secret_strategy.py").write_text("SECRET = 42\n")
    run = run_bot(
        guarded(
            f"""
import os
if os.path.exists({str(other)!r}) or os.path.exists({str(tmp_path)!r}):
    return "can see the host's directories"
mine = sorted(os.listdir("/bot"))
if mine != ["hostile_bot.py"]:
    return "sees other files in /bot: " + repr(mine)
# Everything but the system libraries (the same on every machine) and the kernel's files.
for root, dirs, files in os.walk("/"):
    if "secret_strategy.py" in files:
        return "found another bot at " + root
    if root == "/":
        dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr", "lib", "lib64")]
return None
"""
        )
    )
    assert_no_leak(run)


def test_cannot_write_outside_its_temp_dir(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        guarded(
            """
for path in ("/bot/x.py", "/runtime/fivehundred/x.py", "/x", "/usr/lib/x", "/proc/x", "/dev/x",
             "/runtime/fivehundred/bots/sdk.py"):
    try:
        with open(path, "a") as f:
            f.write("x")
        return "wrote " + path
    except OSError:
        pass
with open("/tmp/mine", "w") as f:
    f.write("ok")
with open("/dev/null", "w") as f:
    f.write("ok")
return None if open("/tmp/mine").read() == "ok" else "cannot use /tmp"
"""
        )
    )
    assert_no_leak(run)


def test_the_temp_dir_is_private_and_starts_empty(run_bot: Callable[..., BotRun]) -> None:
    marker = Path("/tmp") / f"host-marker-{os.getpid()}"
    marker.write_text("host")
    try:
        run = run_bot(
            guarded(
                """
import os
found = os.listdir("/tmp")
if os.path.exists("/tmp/seen"):
    return None
with open("/tmp/seen", "w"):
    pass
return "temp dir not empty: " + repr(found) if found else None
"""
            )
        )
    finally:
        marker.unlink()
    assert_no_leak(run)


# -- protocol abuse --------------------------------------------------------------------------


def test_flooding_stdout_is_a_protocol_error(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import sys
        sys.stdin.readline(); sys.stdin.readline()
        while True:
            sys.__stdout__.write("x" * 65536)
        """
    )
    assert run.fault is not None and run.fault.kind == "protocol_error"
    assert "4096 bytes" in run.fault.detail or "stdout" in run.fault.detail
    assert_clean(run)


def test_flooding_stdout_with_lines_is_a_protocol_error(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import sys
        while True:
            sys.stdout.write('{"call": "PASS"}\\n' * 1000)
        """
    )
    assert run.fault is not None and run.fault.kind == "protocol_error"
    assert_clean(run)


def test_flooding_stderr_is_a_protocol_error(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import sys
        from fivehundred.bots.sdk import run
        def act(view, legal):
            while True:
                sys.stderr.write("noise " * 10000)
        run(act)
        """
    )
    assert run.fault is not None and run.fault.kind == "protocol_error"
    assert "stderr" in run.fault.detail
    assert "noise" in run.fault.stderr_tail
    assert len(run.fault.stderr_tail) <= TEST_LIMITS.stderr_tail_bytes
    assert_clean(run)


def test_printing_garbage_is_a_protocol_error(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import sys
        for line in sys.stdin:
            if '"act"' in line:
                sys.__stdout__.write("I think I will play the ace\\n")
                sys.__stdout__.flush()
        """
    )
    assert run.fault is not None and run.fault.kind == "protocol_error"
    assert "not JSON" in run.fault.detail and "the ace" in run.fault.detail
    assert_clean(run)


def test_answering_an_illegal_action(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        from fivehundred.bots.sdk import run
        run(lambda view, legal: {"call": "7NT"})
        """
    )
    assert run.fault is not None and run.fault.kind == "illegal_action"
    assert "7NT" in run.fault.detail
    assert run.fault.termination(1) == {
        "reason": "illegal_action",
        "seat": 1,
        "detail": run.fault.termination(1)["detail"],
    }
    assert_clean(run)


def test_exiting_at_once_is_a_crash(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import sys
        print("bye", file=sys.stderr)
        sys.exit(3)
        """
    )
    assert run.fault is not None and run.fault.kind == "crash"
    assert "status 3" in run.fault.detail
    assert "bye" in run.fault.stderr_tail
    assert_clean(run)


def test_an_exception_is_a_crash_with_its_traceback(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        from fivehundred.bots.sdk import run
        def act(view, legal):
            return legal[99]
        run(act)
        """
    )
    assert run.fault is not None and run.fault.kind == "crash"
    assert "IndexError" in run.fault.stderr_tail
    assert_clean(run)


def test_killing_its_parent_does_not_hurt_the_runner(run_bot: Callable[..., BotRun]) -> None:
    runner = os.getpid()
    run = run_bot(
        """
        import os, signal
        from fivehundred.bots.sdk import run
        def act(view, legal):
            for target in (os.getppid(), 1, -1, 0):
                try:
                    os.kill(target, signal.SIGKILL) if target else None
                except OSError:
                    pass
            return legal[0]
        run(act)
        """
    )
    assert os.getpid() == runner  # still here
    assert run.fault is None or run.fault.kind in ("crash", "timeout")
    assert_clean(run)


def test_a_child_that_outlives_the_bot_is_killed(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import os, sys, time
        from fivehundred.bots.sdk import run
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                sys.stdin.close()
                time.sleep(60)
            os._exit(0)
        run(lambda view, legal: legal[0])
        """
    )
    assert run.fault is None
    assert run.answers == [0, 0, 0]
    assert_clean(run)


def test_a_child_left_behind_by_a_crash_is_killed(run_bot: Callable[..., BotRun]) -> None:
    run = run_bot(
        """
        import os, time
        if os.fork() == 0:
            time.sleep(60)
        os._exit(1)
        """
    )
    assert run.fault is not None and run.fault.kind == "crash"
    assert_clean(run)


def test_cpu_limit_kills_a_bot_that_burns_cpu_in_a_thread(run_bot: Callable[..., BotRun]) -> None:
    # A background thread burns CPU while the bot keeps answering; the CPU-seconds limit ends it.
    # Decisions are slow (2.5 s) so that even on a busy machine the thread burns its second of
    # CPU before the bot has answered them all.
    limits = dataclasses.replace(TEST_LIMITS, cpu_seconds=1, per_decision_ms=4000)
    run = run_bot(
        """
        import threading, time
        from fivehundred.bots.sdk import run
        def burn():
            while True:
                pass
        threading.Thread(target=burn, daemon=True).start()
        def act(view, legal):
            time.sleep(2.5)
            return legal[0]
        run(act)
        """,
        limits=limits,
    )
    assert run.fault is not None and run.fault.kind == "crash"
    assert "SIGXCPU" in run.fault.detail or "SIGKILL" in run.fault.detail
    assert_clean(run)


def test_answering_twice_is_a_protocol_error(run_bot: Callable[..., BotRun]) -> None:
    # Two answer lines in one write: the second is output nobody asked for. (Output that arrives
    # later than the next message cannot be told from an answer to it; it is then checked as
    # that answer, so it must still be legal.)
    run = run_bot(
        """
        import sys
        for line in sys.stdin:
            if '"act"' in line:
                sys.stdout.write('{"call": "PASS"}\\n{"call": "PASS"}\\n')
                sys.stdout.flush()
        """
    )
    assert run.answers == [0]
    assert run.fault is not None and run.fault.kind == "protocol_error"
    assert "nobody asked for" in run.fault.detail
    assert_clean(run)


def test_each_sandbox_has_its_own_process_limit(sandbox: str, tmp_path: Path) -> None:
    # Two bots of the same (sandbox) user each hold 12 processes at once: the limit of 16 is
    # counted per sandbox, not per user, so one bot's processes cannot starve another.
    from fivehundred.bots.players import SandboxPlayer
    from fivehundred.bots.sandbox import stage_code
    from tests.bots.helpers import LEGAL, RULES, VIEW

    path = tmp_path / "holder.py"
    path.write_text(
        "import os, sys, time\n"
        "from fivehundred.bots.sdk import run\n"
        "def act(view, legal):\n"
        "    for n in range(12):\n"
        "        try:\n"
        "            if os.fork() == 0:\n"
        "                time.sleep(30)\n"
        "                os._exit(0)\n"
        "        except OSError as exc:\n"
        "            print('fork', n, 'failed:', exc, file=sys.stderr)\n"
        "            return {'play': 'LEAK'}\n"
        "    return legal[0]\n"
        "run(act)\n"
    )
    code = stage_code(path)
    players = [SandboxPlayer.uploaded(code, name=f"h{i}", limits=TEST_LIMITS) for i in range(2)]
    try:
        for player in players:
            player.start(rules=RULES, seat=1, seats=["a", "b", "c", "d"])
        # Both bots hold their children at the same time.
        for player in players:
            assert player.act_json(view=VIEW, legal=LEGAL) == 0, player.stderr_tail()
    finally:
        for player in players:
            player.close()
        code.remove()
    for player in players:
        assert player.process.leftover_pids() == []


def test_closing_its_output_and_hanging_is_a_timeout(run_bot: Callable[..., BotRun]) -> None:
    # bwrap keeps its own copy of the pipe, so the runner sees no end of output until the whole
    # sandbox exits: a bot that closes stdout and lives on simply never answers.
    run = run_bot(
        """
        import os, time
        os.close(1)
        time.sleep(30)
        """
    )
    assert run.fault is not None and run.fault.kind == "timeout"
    assert_clean(run)


def test_not_reading_its_input_cannot_block_the_runner(run_bot: Callable[..., BotRun]) -> None:
    # The bot never reads stdin; huge views fill the pipe. The runner's writes are bounded by
    # the decision deadline instead of blocking forever.
    big_view = {"notes": "x" * 200_000}
    from fivehundred.bots.players import SandboxPlayer
    from fivehundred.bots.protocol import BotFault
    from tests.bots.helpers import LEGAL, RULES

    run = run_bot("import time\ntime.sleep(30)\n", decisions=0)
    assert run.fault is None
    code_dir = run.player.process.code
    assert code_dir is not None
    player = SandboxPlayer.uploaded(code_dir, name="deaf", limits=TEST_LIMITS)
    player.start(rules=RULES, seat=1, seats=["a", "b", "c", "d"])
    with pytest.raises(BotFault) as caught:
        for _ in range(3):
            player.act_json(view=big_view, legal=LEGAL)
    player.close()
    assert caught.value.fault.kind == "timeout"
    assert player.process.leftover_pids() == []
