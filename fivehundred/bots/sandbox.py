"""Run an untrusted bot as a sandboxed process that speaks the bot protocol.

Each bot seat is one process for the whole game, started under bubblewrap (``bwrap``):

* fresh namespaces (``--unshare-all --unshare-user --disable-userns``): no network but a dead
  loopback, its own PID namespace (it sees only itself, and when its namespace's init dies the
  kernel kills everything left in it), no way to nest user namespaces;
* a file system of read-only binds of only what Python needs (``/usr/lib``, ``/usr/lib64`` and the
  interpreter), the bot's own code read-only at ``/bot``, our runtime (the SDK, the engine and the
  built-in bots, copied to a private directory so no project file is reachable) at ``/runtime``,
  a private empty tmpfs at ``/tmp``, a fresh ``/proc`` and a minimal ``/dev``; no ``/etc``;
* no environment (``--clearenv``; only ``PATH``, ``HOME``, ``LANG`` and ``PYTHONPATH`` are set);
* when the runner is root, it drops to an unprivileged uid (``nobody``) before starting bwrap,
  because the kernel exempts root from ``RLIMIT_NPROC``;
* resource limits set by a small trusted bootstrap inside the sandbox before any bot code runs:
  CPU seconds, address space, processes, open files, file size, no core files. Setting
  ``RLIMIT_NPROC`` inside the new user namespace makes it count only that sandbox's processes
  (the kernel keeps these counts per user namespace), so seats do not share one budget.

The runner reads stdout and stderr with ``poll`` and caps both; it enforces a wall-clock limit per
decision plus a time bank; on any fault, and at the end of the game, it kills the namespace's init
and bwrap's process group, so nothing the bot started survives.
"""

from __future__ import annotations

import atexit
import compileall
import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from fivehundred.bots.protocol import MAX_ANSWER_BYTES, BotFault, Fault, encode

SANDBOX_PYTHON: Final = "/usr/bin/python3"
UNPRIVILEGED_UID: Final = 65534

BOT_DIR: Final = "/bot"
RUNTIME_DIR: Final = "/runtime"

MAX_CODE_BYTES: Final = 5 * 1024 * 1024
MAX_CODE_FILES: Final = 200


class SandboxUnavailable(RuntimeError):
    """Bubblewrap is missing or cannot create namespaces here: uploaded code must not run."""


class BotCodeError(ValueError):
    """The uploaded bot code cannot be used (bad zip, missing entry module, too large...)."""


@dataclass(frozen=True)
class Limits:
    """Limits of one sandboxed bot process; times in milliseconds."""

    per_decision_ms: int = 1000
    bank_ms: int = 5000
    # The first answer also pays for starting the interpreter and importing the bot.
    startup_ms: int = 5000
    cpu_seconds: int = 300
    address_space_mb: int = 512
    processes: int = 16
    open_files: int = 64
    file_size_mb: int = 8
    stdout_bytes: int = 16 * 1024 * 1024
    stderr_bytes: int = 256 * 1024
    stderr_tail_bytes: int = 4096


@dataclass(frozen=True)
class SandboxConfig:
    """Where the sandbox's tools are. ``bwrap=None`` looks it up on ``PATH``."""

    bwrap: str | None = None
    python: str = SANDBOX_PYTHON
    # None: drop to UNPRIVILEGED_UID when running as root, keep the current uid otherwise.
    uid: int | None = None
    extra_args: tuple[str, ...] = field(default_factory=tuple)


_checked: dict[tuple[str, str, int | None], str] = {}


def sandbox_check(config: SandboxConfig | None = None) -> str:
    """Return the bwrap path after checking that a sandbox really starts; else SandboxUnavailable.

    The check runs once per configuration and process (about 10 ms).
    """
    config = config or SandboxConfig()
    key = (config.bwrap or "", config.python, config.uid)
    if key in _checked:
        return _checked[key]
    bwrap = config.bwrap or shutil.which("bwrap")
    if not bwrap or not os.access(bwrap, os.X_OK):
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed, so uploaded bots cannot be run safely; "
            "install it (Debian/Ubuntu: apt-get install bubblewrap). Built-in bots still play."
        )
    if not os.access(config.python, os.X_OK):
        raise SandboxUnavailable(f"the sandbox interpreter {config.python} is missing")
    argv = [bwrap, *_bwrap_args(config, code_dir=None), config.python, "-I", "-S", "-c", "pass"]
    try:
        done = subprocess.run(
            argv, capture_output=True, timeout=10, env={}, **_user_kwargs(config), check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bubblewrap does not start a sandbox here: {exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise SandboxUnavailable(
            f"bubblewrap cannot create a sandbox here (exit {done.returncode}): {message}; "
            "it needs user namespaces (sysctl kernel.unprivileged_userns_clone=1 or "
            "user.max_user_namespaces > 0)"
        )
    _checked[key] = bwrap
    return bwrap


def _sandbox_uid(config: SandboxConfig) -> int | None:
    if config.uid is not None:
        return config.uid
    return UNPRIVILEGED_UID if os.geteuid() == 0 else None


def _user_kwargs(config: SandboxConfig) -> dict[str, Any]:
    uid = _sandbox_uid(config)
    if uid is None or uid == os.geteuid():
        return {}
    return {"user": uid, "group": uid, "extra_groups": []}


def _bwrap_args(config: SandboxConfig, *, code_dir: Path | None) -> list[str]:
    args = [
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "bot",
        "--ro-bind",
        "/usr/lib",
        "/usr/lib",
        "--symlink",
        "usr/lib",
        "/lib",
    ]
    if os.path.isdir("/usr/lib64"):
        args += ["--ro-bind", "/usr/lib64", "/usr/lib64", "--symlink", "usr/lib64", "/lib64"]
    python = os.path.realpath(config.python)
    args += ["--ro-bind", python, python]
    if python != config.python:
        args += ["--symlink", python, config.python]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    runtime = runtime_dir()
    args += ["--ro-bind", str(runtime), RUNTIME_DIR]
    if code_dir is not None:
        args += ["--ro-bind", str(code_dir), BOT_DIR]
    # The root bwrap builds is a writable tmpfs, and so is /dev: freeze both, leaving /tmp.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += [
        "--chdir",
        "/tmp",
        "--clearenv",
        "--setenv",
        "PATH",
        "/usr/bin",
        "--setenv",
        "HOME",
        "/tmp",
        "--setenv",
        "LANG",
        "C.UTF-8",
        "--setenv",
        "PYTHONPATH",
        f"{BOT_DIR}:{RUNTIME_DIR}",
        *config.extra_args,
    ]
    return args


# ---------------------------------------------------------------------------------------------
# The runtime directory: the SDK, the engine and the built-in bots, plus the bootstrap.

# Runs first inside the sandbox (trusted): set the limits, then the path, then the bot.
_BOOT = """\
import resource, runpy, sys
cpu, mem, nproc, nofile, fsize = (int(x) for x in sys.argv[1:6])
entry = sys.argv[6]
for limit, value in (
    (resource.RLIMIT_CPU, (cpu, cpu + 1)),
    (resource.RLIMIT_AS, (mem, mem)),
    (resource.RLIMIT_NPROC, (nproc, nproc)),
    (resource.RLIMIT_NOFILE, (nofile, nofile)),
    (resource.RLIMIT_FSIZE, (fsize, fsize)),
    (resource.RLIMIT_CORE, (0, 0)),
):
    resource.setrlimit(limit, value)
sys.path[:0] = ["/bot", "/runtime"]
sys.argv = [entry, *sys.argv[7:]]
runpy.run_module(entry, run_name="__main__", alter_sys=True)
"""

_RUNTIME_FILES: Final = (
    "__init__.py",
    "bots/__init__.py",
    "bots/sdk.py",
    "bots/builtin.py",
    "bots/heuristic.py",
    "bots/run.py",
)

_runtime: Path | None = None
_runtime_pid = 0


def runtime_dir() -> Path:
    """A private copy of the code every bot may import, made once per process.

    Keyed by pid: a worker forked from a parent that already made one (Celery's prefork pool)
    makes its own, so that no process removes a directory another one's bots are using.
    """
    global _runtime, _runtime_pid
    if _runtime is not None and _runtime_pid == os.getpid() and _runtime.is_dir():
        return _runtime
    package = Path(__file__).resolve().parent.parent
    root = Path(tempfile.mkdtemp(prefix="fivehundred-bot-runtime-"))
    target = root / "fivehundred"
    for name in _RUNTIME_FILES:
        source = package / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target / name)
    engine = package / "engine"
    if engine.is_dir():
        for source in engine.rglob("*.py"):
            destination = target / "engine" / source.relative_to(engine)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)
    (root / "_boot.py").write_text(_BOOT)
    # Compiled once here, so that no sandbox pays for compiling the engine at every start (the
    # sandbox's interpreter is the same minor version; the runtime is read-only there).
    compileall.compile_dir(root, quiet=1)
    _make_readable(root)
    owner = os.getpid()
    atexit.register(_remove_runtime, root, owner)
    _runtime, _runtime_pid = root, owner
    return root


def _remove_runtime(root: Path, owner: int) -> None:
    if os.getpid() == owner:
        shutil.rmtree(root, ignore_errors=True)


def _make_readable(root: Path) -> None:
    # The sandbox may run as another uid; it must read (never write) these files.
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


# ---------------------------------------------------------------------------------------------
# Bot code: a single .py file, or a zip with an entry module.


@dataclass(frozen=True)
class StagedCode:
    """Bot code copied to a private directory the sandbox binds read-only at ``/bot``."""

    directory: Path
    entry: str

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


def stage_code(path: str | Path, *, entry: str | None = None) -> StagedCode:
    """Copy a bot (``.py`` file or ``.zip``) to a fresh directory; raise BotCodeError if unusable.

    For a zip, ``entry`` is the module to run (``pkg.main`` or ``main``); without it ``bot.py``,
    ``main.py`` or ``__main__.py`` at the top of the archive is used.
    """
    source = Path(path)
    if not source.is_file():
        raise BotCodeError(f"{source}: no such file")
    if source.stat().st_size > MAX_CODE_BYTES:
        raise BotCodeError(f"{source}: larger than {MAX_CODE_BYTES} bytes")
    directory = Path(tempfile.mkdtemp(prefix="fivehundred-bot-code-"))
    try:
        if zipfile.is_zipfile(source):
            entry = _extract_zip(source, directory, entry)
        elif source.suffix == ".py":
            name = source.stem
            if not name.isidentifier():
                raise BotCodeError(f"{source.name}: the file name must be a Python module name")
            shutil.copyfile(source, directory / source.name)
            entry = entry or name
        else:
            raise BotCodeError(f"{source.name}: expected a .py file or a .zip archive")
        _make_readable(directory)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return StagedCode(directory=directory, entry=entry)


def _extract_zip(source: Path, directory: Path, entry: str | None) -> str:
    try:
        archive = zipfile.ZipFile(source)
    except zipfile.BadZipFile as exc:
        raise BotCodeError(f"{source.name}: not a valid zip archive ({exc})") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_CODE_FILES:
            raise BotCodeError(f"{source.name}: more than {MAX_CODE_FILES} files")
        total = 0
        for member in members:
            name = member.filename
            parts = Path(name).parts
            if name.startswith("/") or ".." in parts or "\\" in name:
                raise BotCodeError(f"{source.name}: unsafe path {name!r} in the archive")
            total += member.file_size
            if total > MAX_CODE_BYTES:
                raise BotCodeError(f"{source.name}: unpacks to more than {MAX_CODE_BYTES} bytes")
        written = 0
        for member in members:
            target = directory / member.filename
            if member.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as data, open(target, "wb") as out:
                # Count what is really unpacked, not what the archive claims.
                while chunk := data.read(65536):
                    written += len(chunk)
                    if written > MAX_CODE_BYTES:
                        raise BotCodeError(
                            f"{source.name}: unpacks to more than {MAX_CODE_BYTES} bytes"
                        )
                    out.write(chunk)
    if entry is None:
        for candidate in ("bot", "main", "__main__"):
            if (directory / f"{candidate}.py").is_file():
                return candidate
        raise BotCodeError(
            f"{source.name}: no entry module declared and no bot.py, main.py or __main__.py "
            "at the top of the archive"
        )
    if not all(part.isidentifier() for part in entry.split(".")):
        raise BotCodeError(f"entry module {entry!r} is not a dotted Python module name")
    relative = Path(*entry.split("."))
    if not ((directory / f"{relative}.py").is_file() or (directory / relative).is_dir()):
        raise BotCodeError(f"{source.name}: entry module {entry!r} is not in the archive")
    return entry


# ---------------------------------------------------------------------------------------------
# The process.


class SandboxedProcess:
    """One bot process in its sandbox, with capped, deadline-bound pipes.

    ``entry`` is the module to run (from the bot code at ``/bot``, or from the runtime, such as
    ``fivehundred.bots.run``) and ``args`` its arguments.
    """

    def __init__(
        self,
        *,
        entry: str,
        args: Sequence[str] = (),
        code: StagedCode | None = None,
        limits: Limits | None = None,
        config: SandboxConfig | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.config = config or SandboxConfig()
        self.entry = entry
        self.args = list(args)
        self.code = code
        self.pid: int | None = None
        self.namespace_pid: int | None = None
        self.pid_namespace: int | None = None
        self.started_at = 0.0
        self.exit_status: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._stdout = bytearray()
        self._stdout_total = 0
        self._stderr_tail = bytearray()
        self._stderr_total = 0
        self._poll = select.poll()
        self._closed = False

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        bwrap = sandbox_check(self.config)
        limits = self.limits
        info_read, info_write = os.pipe()
        argv = [
            bwrap,
            "--info-fd",
            str(info_write),
            *_bwrap_args(self.config, code_dir=self.code.directory if self.code else None),
            self.config.python,
            "-I",
            "-S",
            "-B",
            f"{RUNTIME_DIR}/_boot.py",
            str(limits.cpu_seconds),
            str(limits.address_space_mb * 1024 * 1024),
            str(limits.processes),
            str(limits.open_files),
            str(limits.file_size_mb * 1024 * 1024),
            self.entry,
            *self.args,
        ]
        self.started_at = time.monotonic()
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(info_write,),
                start_new_session=True,
                env={},
                close_fds=True,
                **_user_kwargs(self.config),
            )
        finally:
            os.close(info_write)
        try:
            with os.fdopen(info_read, "rb") as info_file:
                info = info_file.read()
        except OSError:
            info = b""
        self.pid = self._proc.pid
        try:
            child = json.loads(info)["child-pid"]
        except (ValueError, KeyError, TypeError):
            child = None
        if child is None:
            self.kill()
            raise SandboxUnavailable(
                f"bubblewrap did not start the bot: {self.stderr_tail() or 'no error message'}"
            )
        self.namespace_pid = int(child)
        with contextlib.suppress(OSError):
            self.pid_namespace = os.stat(f"/proc/{child}/ns/pid").st_ino
        assert self._proc.stdin and self._proc.stdout and self._proc.stderr
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            os.set_blocking(stream.fileno(), False)
        self._stdin_fd = self._proc.stdin.fileno()
        self._stdout_fd = self._proc.stdout.fileno()
        self._stderr_fd = self._proc.stderr.fileno()
        self._poll.register(self._stdout_fd, select.POLLIN)
        self._poll.register(self._stderr_fd, select.POLLIN)
        self._out_poll = select.poll()
        self._out_poll.register(self._stdin_fd, select.POLLOUT)

    def __enter__(self) -> SandboxedProcess:
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- messages ---------------------------------------------------------------------------

    def send(self, message: Mapping[str, Any], *, timeout_s: float = 1.0) -> None:
        """Write one message that needs no answer."""
        self._write(encode(message), time.monotonic() + timeout_s)

    def request(self, message: Mapping[str, Any], *, timeout_s: float) -> bytes:
        """Write one message and return the answer line (without the newline).

        Raises BotFault: ``timeout`` after ``timeout_s``, ``crash``/``memory`` if the process
        ends, ``protocol_error`` on output that was not asked for or exceeds the caps.
        """
        deadline = time.monotonic() + timeout_s
        self._drain(0)
        if self._stdout:
            self._fault(
                "protocol_error",
                f"wrote output nobody asked for: {_excerpt(bytes(self._stdout))}",
            )
        self._write(encode(message), deadline)
        while True:
            newline = self._stdout.find(b"\n")
            if newline >= 0:
                line = bytes(self._stdout[:newline])
                del self._stdout[: newline + 1]
                return line
            if len(self._stdout) > MAX_ANSWER_BYTES:
                self._fault(
                    "protocol_error",
                    f"answer line longer than {MAX_ANSWER_BYTES} bytes: "
                    f"{_excerpt(bytes(self._stdout))}",
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fault("timeout", f"no answer within {timeout_s * 1000:.0f} ms")
            if not self._drain(remaining):
                self._ended("before answering")

    def close_input(self) -> None:
        """Close the bot's stdin: a well-behaved bot exits on its own (``close`` waits for it)."""
        if self._proc is not None and self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()

    def close(self, *, grace_s: float = 0.2) -> None:
        """End the process: close its stdin, give it ``grace_s`` to exit, then kill what is left."""
        if self._proc is None or self._closed:
            return
        self.close_input()
        self._wait(grace_s)
        self.kill()

    def kill(self) -> None:
        """Kill the bot, everything it started and bwrap; wait for them. Idempotent."""
        if self._proc is None or self._closed:
            return
        self._closed = True
        # The namespace's init dying makes the kernel kill every process left in the namespace.
        if self.namespace_pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.namespace_pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        self._wait(5)
        self.exit_status = self._proc.returncode
        self._collect_stderr()
        for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        # Belt and braces: nothing may outlive the sandbox. The kernel tears the namespace down
        # asynchronously, so wait (briefly) until it is empty.
        deadline = time.monotonic() + 2.0
        while (leftover := self.leftover_pids()) and time.monotonic() < deadline:
            for pid in leftover:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.002)

    def leftover_pids(self) -> list[int]:
        """Processes still alive in this sandbox's PID namespace (empty once killed).

        Zombies (dead, waiting to be reaped by their parent) are not alive and are not listed.
        """
        if self.pid_namespace is None:
            return []
        return pids_in_namespace(self.pid_namespace)

    def stderr_tail(self) -> str:
        return bytes(self._stderr_tail).decode("utf-8", "replace")

    # -- internals --------------------------------------------------------------------------

    def _wait(self, timeout_s: float) -> int | None:
        """Wait up to ``timeout_s`` for bwrap to exit; its status, or None if still running.

        ``Popen.wait`` with a timeout polls with sleeps of up to 50 ms; a pidfd wakes us at once.
        """
        assert self._proc is not None
        if self._proc.returncode is None:
            try:
                pidfd = os.pidfd_open(self._proc.pid)
            except (AttributeError, OSError):
                pidfd = None
            if pidfd is not None:
                try:
                    select.select([pidfd], [], [], timeout_s)
                finally:
                    os.close(pidfd)
                timeout_s = 0.001
        try:
            return self._proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return None

    def _write(self, data: bytes, deadline: float) -> None:
        if self._proc is None or self._proc.stdin is None or self._proc.stdin.closed:
            raise RuntimeError("the bot's input is closed: no message can be sent")
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._stdin_fd, view)
                view = view[written:]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                self._drain(0.05)
                self._ended("while being sent a message")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fault("timeout", "does not read its input")
            self._out_poll.poll(remaining * 1000)

    def _drain(self, timeout_s: float) -> bool:
        """Read whatever stdout/stderr have within ``timeout_s``; False once stdout is closed."""
        events = self._poll.poll(max(0.0, timeout_s) * 1000)
        open_ = True
        for fd, _event in events:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if fd == self._stdout_fd:
                if not chunk:
                    open_ = False
                    continue
                self._stdout += chunk
                self._stdout_total += len(chunk)
                if self._stdout_total > self.limits.stdout_bytes:
                    self._fault(
                        "protocol_error",
                        f"wrote more than {self.limits.stdout_bytes} bytes to stdout",
                    )
            elif chunk:
                self._keep_stderr(chunk)
            else:
                self._poll.unregister(fd)
        return open_

    def _keep_stderr(self, chunk: bytes) -> None:
        self._stderr_total += len(chunk)
        self._stderr_tail += chunk
        keep = self.limits.stderr_tail_bytes
        if len(self._stderr_tail) > keep:
            del self._stderr_tail[:-keep]
        if self._stderr_total > self.limits.stderr_bytes:
            self._fault(
                "protocol_error", f"wrote more than {self.limits.stderr_bytes} bytes to stderr"
            )

    def _collect_stderr(self) -> None:
        if self._proc is None or self._proc.stderr is None or self._proc.stderr.closed:
            return
        fd = self._proc.stderr.fileno()
        budget = self.limits.stderr_tail_bytes * 4
        while budget > 0:
            try:
                chunk = os.read(fd, 65536)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            budget -= len(chunk)
            self._stderr_tail += chunk
            del self._stderr_tail[: -self.limits.stderr_tail_bytes]

    def _ended(self, when: str) -> None:
        assert self._proc is not None
        status = self._wait(1.0)
        self._collect_stderr()
        tail = self.stderr_tail()
        if "MemoryError" in tail or "Cannot allocate memory" in tail:
            self._fault(
                "memory",
                f"ran out of memory (limit {self.limits.address_space_mb} MB) {when}",
            )
        self._fault("crash", f"{_describe_status(status)} {when}")

    def _fault(self, kind: Any, detail: str) -> None:
        self.kill()
        raise BotFault(Fault(kind, detail, self.stderr_tail()))


def pids_in_namespace(pid_namespace: int) -> list[int]:
    """Live (non-zombie) processes whose PID namespace has inode ``pid_namespace``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry.name}/ns/pid").st_ino != pid_namespace:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                state = stat.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


def _describe_status(status: int | None) -> str:
    if status is None:
        return "closed its output"
    # bwrap reports a child killed by signal N as exit status 128 + N.
    if status > 128 and status - 128 < signal.NSIG:
        number = status - 128
        name = signal.Signals(number).name
        if number == signal.SIGXCPU or number == signal.SIGKILL:
            return f"was killed by {name} (CPU time limit or out of memory)"
        return f"was killed by {name}"
    if status < 0:
        return f"was killed by {signal.Signals(-status).name}"
    return f"exited with status {status}"


def _excerpt(data: bytes, limit: int = 120) -> str:
    text = data.decode("utf-8", "replace").strip()
    return text if len(text) <= limit else text[:limit] + "..."


__all__ = [
    "BotCodeError",
    "Limits",
    "SandboxConfig",
    "SandboxUnavailable",
    "SandboxedProcess",
    "StagedCode",
    "runtime_dir",
    "sandbox_check",
    "stage_code",
]
