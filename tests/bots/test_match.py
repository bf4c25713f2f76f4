"""Games and duplicate matches: records that verify, forfeits on faults, built-in bots both ways."""

from __future__ import annotations

import importlib.util
import io
import shutil
import textwrap
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fivehundred.bots.cli import bot_test_main
from fivehundred.bots.match import play_game, play_match, rotations
from fivehundred.bots.players import (
    InProcessPlayer,
    ObjectBotPlayer,
    SandboxPlayer,
    SeatPlayer,
)
from fivehundred.bots.sandbox import (
    BotCodeError,
    SandboxConfig,
    SandboxUnavailable,
    stage_code,
)
from fivehundred.engine import Rules
from fivehundred.record import verify
from tests.bots.helpers import TEST_LIMITS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "simple_bot.py"


def builtin(name: str) -> Callable[[int, str], SeatPlayer]:
    return lambda seat, seed: InProcessPlayer.builtin(name, seed)


def assert_verifies(record: dict[str, Any]) -> None:
    verdict = verify(record)
    assert verdict.valid, verdict.errors[:3]
    assert verdict.status == "complete"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_in_process_games_write_valid_complete_records(players: int) -> None:
    rules = Rules.create(players)
    seats = [InProcessPlayer.builtin(("heuristic", "random")[s % 2], s) for s in range(players)]
    outcome = play_game(seats, rules=rules, seed=f"game-{players}", event={"name": "test"})
    record = outcome.record
    assert outcome.fault is None and "termination" not in record
    assert record["result"]["reason"] in ("contract", "backdoor", "target")
    assert record["hands"][0]["deal"]["seed"] == f"game-{players}/0"
    assert_verifies(record)


def test_rotations_swap_partnerships_and_rotate_other_games() -> None:
    assert rotations(Rules.create(4), 2) == [[0, 1], [1, 0]]
    assert rotations(Rules.create(6), 2) == [[0, 1], [1, 0]]
    assert rotations(Rules.create(3), 3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert rotations(Rules.create(3), 2) == [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    assert len(rotations(Rules.create(5), 2)) == 5
    three_teams = Rules.create(6, {"six_player_teams": "three_of_two"})
    assert rotations(three_teams, 3) == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    with pytest.raises(ValueError, match="entrants"):
        rotations(Rules.create(4), 3)


def test_duplicate_boards_give_both_sides_the_same_cards() -> None:
    match = play_match(
        [("heuristic", builtin("heuristic")), ("random", builtin("random"))],
        rules=Rules.create(4),
        boards=["board-a", "board-b"],
    )
    assert len(match.games) == 4
    for first, second in zip(match.games[::2], match.games[1::2], strict=True):
        assert first.record["hands"][0]["deal"] == second.record["hands"][0]["deal"]
        names = [s["name"] for s in first.record["seats"]]
        assert names == ["heuristic", "random", "heuristic", "random"]
        assert [s["name"] for s in second.record["seats"]] == names[1:] + names[:1]
    for game in match.games:
        assert_verifies(game.record)
    scores = [g.scores for g in match.games]
    expected = sum(s[0] for s in scores[::2]) + sum(s[1] for s in scores[1::2])
    assert match.totals[0] == expected
    assert match.difference == match.totals[0] - match.totals[1]


def test_match_records_carry_the_entrants_seat_objects() -> None:
    match = play_match(
        [("a", builtin("random")), ("b", builtin("random"))],
        rules=Rules.create(4),
        boards=["ids"],
        seat_objects=[
            {"name": "a", "id": "bot:1@3", "kind": "bot"},
            {"name": "b", "id": "bot:2@1", "kind": "bot"},
        ],
        event={"name": "ladder", "match": "17"},
    )
    first = match.games[0].record
    assert [s["id"] for s in first["seats"]] == ["bot:1@3", "bot:2@1", "bot:1@3", "bot:2@1"]
    assert first["event"] == {"name": "ladder", "match": "17", "board": "1", "round": "1"}
    assert_verifies(first)


def test_a_game_without_an_end_is_adjudicated_after_the_hand_limit() -> None:
    outcome = play_game(
        [InProcessPlayer.builtin("heuristic") for _ in range(4)],
        rules=Rules.create(4),
        seed="a",
        max_hands=2,
    )
    record = outcome.record
    assert len(record["hands"]) == 2
    assert record["termination"]["reason"] == "adjudicated"
    assert record["result"]["reason"] == "agreed"
    assert record["result"]["scores"] == record["hands"][-1]["result"]["totals"]
    assert_verifies(record)


def test_heuristic_clearly_beats_random_on_duplicate_deals() -> None:
    boards = [f"strength-{i}" for i in range(25)]
    match = play_match(
        [("heuristic", builtin("heuristic")), ("random", builtin("random"))],
        rules=Rules.create(4),
        boards=boards,
    )
    wins = match.wins
    assert wins[0] >= 0.9 * len(match.games), wins
    assert match.difference / len(boards) > 500


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("simple_bot", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_heuristic_beats_the_example_bot() -> None:
    # A less trivial opponent than random: the example bot, called in-process on the same
    # protocol objects it gets in the sandbox.
    example = load_example()
    match = play_match(
        [
            ("heuristic", builtin("heuristic")),
            ("simple", lambda seat, seed: ObjectBotPlayer(example.SimpleBot(), name="simple")),
        ],
        rules=Rules.create(4),
        boards=[f"simple-{i}" for i in range(15)],
    )
    assert match.totals[0] > match.totals[1]
    for game in match.games:
        assert game.fault is None


def test_a_crashing_in_process_bot_forfeits_with_its_traceback() -> None:
    class Broken:
        name = "broken"

        def act(self, view: Any, legal: Any) -> Any:
            if len(view.hand) < 10:
                raise ZeroDivisionError("bug in the bot")
            return legal[0]

    outcome = play_game(
        [InProcessPlayer(Broken()), *(InProcessPlayer.builtin("random", s) for s in range(3))],
        rules=Rules.create(4),
        seed="broken",
    )
    assert outcome.fault is not None and outcome.fault.kind == "crash"
    assert "ZeroDivisionError: bug in the bot" in outcome.fault.detail
    assert "Traceback" in outcome.fault.stderr_tail
    assert outcome.record["termination"]["seat"] == 0
    assert_verifies(outcome.record)


# -- through the sandbox ---------------------------------------------------------------------


def test_builtin_bots_play_the_same_game_in_the_sandbox(sandbox: str) -> None:
    rules = Rules.create(4)
    names = ("heuristic", "random", "heuristic", "random")
    local = play_game(
        [InProcessPlayer.builtin(n, f"s{seat}") for seat, n in enumerate(names)],
        rules=rules,
        seed="same-game",
    )
    boxed = play_game(
        [SandboxPlayer.builtin(n, f"s{seat}") for seat, n in enumerate(names)],
        rules=rules,
        seed="same-game",
    )
    assert boxed.fault is None, boxed.fault
    assert boxed.record["hands"] == local.record["hands"]
    assert boxed.record["result"] == local.record["result"]
    assert_verifies(boxed.record)


@pytest.fixture
def uploaded(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Callable[[str], Callable[[int, str], SeatPlayer]]:
    """Stage bot source as an uploaded bot; returns its seat player factory."""

    def make(source: str) -> Callable[[int, str], SeatPlayer]:
        path = tmp_path / "faulty_bot.py"
        path.write_text(textwrap.dedent(source))
        code = stage_code(path)
        request.addfinalizer(code.remove)
        return lambda seat, seed: SandboxPlayer.uploaded(code, name="faulty", limits=TEST_LIMITS)

    return make


@pytest.mark.parametrize(
    ("misbehaviour", "reason", "kind"),
    [
        (
            'sys.__stdout__.write("garbage\\n"); sys.__stdout__.flush(); time.sleep(9)',
            "crash",
            "protocol_error",
        ),
        (
            'return {"call": "10NT"} if "call" in legal[0] else {"play": "JK", "suit": "X"}',
            "illegal_action",
            "illegal_action",
        ),
        ("time.sleep(5)", "timeout", "timeout"),
        ("os._exit(0)", "crash", "crash"),
    ],
)
def test_a_fault_mid_game_ends_it_with_a_valid_forfeit_record(
    sandbox: str,
    uploaded: Callable[[str], Callable[[int, str], SeatPlayer]],
    misbehaviour: str,
    reason: str,
    kind: str,
) -> None:
    source = f"""
        import os, sys, time
        from fivehundred.bots.sdk import run
        calls = 0
        def act(view, legal):
            global calls
            calls += 1
            if calls == 6:
                {misbehaviour}
            return legal[0]
        run(act)
        """
    factory = uploaded(source)
    rules = Rules.create(4)
    players = [
        factory(0, "x"),
        InProcessPlayer.builtin("heuristic", 1),
        InProcessPlayer.builtin("heuristic", 2),
        InProcessPlayer.builtin("heuristic", 3),
    ]
    outcome = play_game(players, rules=rules, seed="fault-game")
    record = outcome.record
    assert outcome.fault is not None and outcome.fault.kind == kind
    assert record["termination"]["reason"] == reason
    assert record["termination"]["seat"] == 0
    assert record["result"]["reason"] == "forfeit"
    assert record["result"]["winner"] == 1
    assert "result" not in record["hands"][-1]
    assert_verifies(record)


def test_a_fault_in_a_match_stops_it_and_names_the_entrant(
    sandbox: str, uploaded: Callable[[str], Callable[[int, str], SeatPlayer]]
) -> None:
    factory = uploaded(
        """
        from fivehundred.bots.sdk import run
        run(lambda view, legal: {"play": "nonsense"})
        """,
    )
    match = play_match(
        [("random", builtin("random")), ("faulty", factory)],
        rules=Rules.create(4),
        boards=["one", "two"],
    )
    assert len(match.games) == 1
    assert match.fault is not None and match.fault.kind == "illegal_action"
    assert match.fault_entrant == 1
    assert_verifies(match.games[0].record)


def test_without_bubblewrap_uploaded_bots_are_refused_and_builtins_still_play(
    tmp_path: Path,
) -> None:
    missing = SandboxConfig(bwrap=str(tmp_path / "no-bwrap-here"))
    player = SandboxPlayer.builtin("random", config=missing)
    others = [InProcessPlayer.builtin("random", s) for s in range(3)]
    with pytest.raises(SandboxUnavailable, match="bubblewrap"):
        play_game([player, *others], rules=Rules.create(4), seed="x")
    outcome = play_game(
        [InProcessPlayer.builtin("random", s) for s in range(4)], rules=Rules.create(4), seed="x"
    )
    assert_verifies(outcome.record)


# -- bot code and the bot-test command ---------------------------------------------------------


def test_zip_bots_with_an_entry_module(sandbox: str, tmp_path: Path) -> None:
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("mybot/__init__.py", "")
        z.writestr("mybot/strategy.py", "def choose(legal):\n    return legal[-1]\n")
        z.writestr(
            "mybot/main.py",
            "from fivehundred.bots.sdk import run\nfrom mybot.strategy import choose\n"
            "run(lambda view, legal: choose(legal))\n",
        )
    code = stage_code(archive, entry="mybot.main")
    player = SandboxPlayer.uploaded(code, name="zipped", limits=TEST_LIMITS)
    player.start(rules={"players": 4}, seat=0, seats=["a"] * 4)
    assert player.act_json(view={}, legal=[{"call": "PASS"}, {"call": "6S"}]) == 1
    player.close()
    code.remove()


@pytest.mark.parametrize(
    ("members", "entry", "message"),
    [
        ({"../evil.py": "x"}, None, "unsafe path"),
        ({"/abs.py": "x"}, None, "unsafe path"),
        ({"lib.py": "x"}, None, "no entry module"),
        ({"bot.py": "x"}, "missing.module", "not in the archive"),
        ({"bot.py": "x"}, "not a module", "not a dotted"),
    ],
)
def test_bad_zip_bots_are_rejected_with_a_reason(
    tmp_path: Path, members: dict[str, str], entry: str | None, message: str
) -> None:
    archive = tmp_path / "bad.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)
    with pytest.raises(BotCodeError, match=message):
        stage_code(archive, entry=entry)


def test_bot_test_passes_the_example_bot(sandbox: str, tmp_path: Path) -> None:
    out = io.StringIO()
    code = bot_test_main([str(EXAMPLE), "--games", "2", "--records", str(tmp_path)], out=out)
    assert code == 0, out.getvalue()
    assert "2 games, no faults" in out.getvalue()
    assert "record valid" in out.getvalue()
    assert len(list(tmp_path.glob("game-*.json"))) == 2


def test_bot_test_reports_a_fault_with_the_stderr_tail(sandbox: str, tmp_path: Path) -> None:
    bot = tmp_path / "broken_bot.py"
    bot.write_text(
        "from fivehundred.bots.sdk import run\n"
        "def act(view, legal):\n"
        "    raise RuntimeError('my strategy is broken')\n"
        "run(act)\n"
    )
    out = io.StringIO()
    assert bot_test_main([str(bot), "--games", "1"], out=out) == 1
    text = out.getvalue()
    assert "FAULT at seat" in text and "crash" in text
    assert "my strategy is broken" in text


def test_bot_test_explains_an_unusable_bot(tmp_path: Path) -> None:
    out = io.StringIO()
    assert bot_test_main([str(tmp_path / "nothing.py")], out=out) == 2
    assert "no such file" in out.getvalue()


def test_a_zip_bomb_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("bot.py", "x = 1\n")
        z.writestr("padding.txt", b"\0" * (6 * 1024 * 1024))
    assert archive.stat().st_size < 100_000
    with pytest.raises(BotCodeError, match="unpacks to more than"):
        stage_code(archive)


def test_a_forked_worker_makes_its_own_runtime(sandbox: str) -> None:
    import os

    from fivehundred.bots.sandbox import runtime_dir

    parent = runtime_dir()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        os.write(write, str(runtime_dir()).encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 4096).decode()
    os.close(read)
    os.waitpid(pid, 0)
    assert child != str(parent)
    shutil.rmtree(child)  # the child left without running its exit handlers
    assert parent.is_dir()
    assert (parent / "fivehundred" / "bots" / "sdk.py").is_file()
    assert not (parent / "fivehundred" / "settings.py").exists()
