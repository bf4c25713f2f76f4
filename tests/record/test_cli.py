"""The command line, run as a separate process: exit codes and output formats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fivehundred.engine import Rules, deal_from_seed
from fivehundred.record import verify
from tests.record.conftest import EXAMPLES, RECORDS

ROOT = Path(__file__).resolve().parents[2]
VERDICT_KEYS = ["file", "valid", "status", "digest", "errors", "scores", "winner"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fivehundred", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        input=stdin,
        timeout=120,
    )


def test_verify_valid_files_exit_0() -> None:
    files = [
        str(EXAMPLES / "four-players-complete.json"),
        str(EXAMPLES / "three-players-forfeit.json"),
    ]
    done = run("verify", *files)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        f"{files[0]}: valid, complete (scores [-680, 180], winner 1)",
        f"{files[1]}: valid, complete (scores [-240, -380, 70], winner 2)",
    ]


def test_verify_in_progress_line() -> None:
    path = str(EXAMPLES / "four-players-in-progress-seeded.json")
    done = run("verify", path)
    assert done.returncode == 0
    assert done.stdout == f"{path}: valid, in_progress (scores [80, -380])\n"


def test_verify_invalid_exit_1_with_errors() -> None:
    path = str(EXAMPLES / "invalid-wrong-totals.json")
    done = run("verify", str(EXAMPLES / "four-players-complete.json"), path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[1] == f"{path}: invalid"
    assert lines[2].startswith("  /hands/9/result/totals totals_mismatch ")


def test_verify_json_output() -> None:
    path = str(EXAMPLES / "invalid-card-notation.json")
    done = run("verify", "--json", path, str(EXAMPLES / "five-players-complete.json"))
    assert done.returncode == 1
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert list(first) == VERDICT_KEYS
    assert first["file"] == path and first["valid"] is False and first["status"] == "invalid"
    assert first["digest"] is None and first["scores"] is None and first["winner"] is None
    assert first["errors"][0]["code"] == "schema"
    assert first["errors"][0]["pointer"] == "/hands/0/deal/hands/0/8"
    assert list(first["errors"][0]) == ["pointer", "code", "message"]
    assert second["valid"] is True and second["winner"] == 4
    assert second["digest"] == verify((EXAMPLES / "five-players-complete.json").read_bytes()).digest


def test_verify_collection(tmp_path: Path) -> None:
    good = json.dumps(json.loads((EXAMPLES / "four-players-complete.json").read_text()))
    bad = json.dumps(json.loads((EXAMPLES / "invalid-wrong-dealer.json").read_text()))
    path = tmp_path / "event.jsonl"
    path.write_text(f"{good}\n{bad}\n\nnot json\n", encoding="utf-8")
    done = run("verify", "--json", str(path))
    assert done.returncode == 1
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["line"], r["valid"]) for r in results] == [(1, True), (2, False), (4, False)]
    assert results[1]["errors"][0]["code"] == "dealer_mismatch"
    assert results[2]["errors"][0]["code"] == "not_json"
    assert all(r["file"] == str(path) for r in results)
    human = run("verify", str(path))
    assert human.stdout.splitlines()[0].startswith(f"{path}:1: valid, complete")


def test_verify_unreadable_file_exit_2(tmp_path: Path) -> None:
    done = run(
        "verify", str(EXAMPLES / "four-players-complete.json"), str(tmp_path / "missing.json")
    )
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def test_usage_errors_exit_2() -> None:
    assert run().returncode == 2
    assert run("verify").returncode == 2
    assert run("frobnicate").returncode == 2
    assert run("deal").returncode == 2  # --seed is required


@pytest.mark.parametrize("command", ["verify", "legal", "deal", "play", "show", "bot-test"])
def test_help_on_every_command(command: str) -> None:
    done = run(command, "--help")
    assert done.returncode == 0
    assert "usage: fivehundred" in done.stdout


def test_legal_text_and_json() -> None:
    path = str(EXAMPLES / "four-players-in-progress-seeded.json")
    done = run("legal", path)
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == "seat 1 to act"
    as_json = json.loads(run("legal", "--json", path).stdout)
    assert as_json["seat"] == 1
    assert all(a["seat"] == 1 and set(a) == {"seat", "play"} for a in as_json["actions"])
    assert [f"play {a['play']}" for a in as_json["actions"]] == lines[1:]


def test_legal_actions_are_exactly_the_appliable_ones() -> None:
    record: dict[str, Any] = json.loads(
        (EXAMPLES / "four-players-in-progress-seeded.json").read_text()
    )
    listed = json.loads(
        run("legal", "--json", str(EXAMPLES / "four-players-in-progress-seeded.json")).stdout
    )
    state_cards = {a["play"] for a in listed["actions"]}
    valid = set()
    for card in Rules.create(4).pack:
        trial = json.loads(json.dumps(record))
        trial["hands"][-1]["actions"].append({"seat": listed["seat"], "play": str(card)})
        if verify(trial).valid:
            valid.add(str(card))
    assert state_cards == valid


def test_legal_auction_in_five_players() -> None:
    done = run("legal", "--json", str(RECORDS / "five-in-progress-auction.json"))
    assert done.returncode == 0
    listed = json.loads(done.stdout)
    calls = [a["call"] for a in listed["actions"]]
    assert calls[0] == "PASS" and "BM" not in calls and all("/SK" not in c for c in calls)


def test_legal_when_the_next_hand_needs_a_deal(tmp_path: Path) -> None:
    record = json.loads((EXAMPLES / "four-players-complete.json").read_text())
    record["hands"] = record["hands"][:3]
    del record["result"]
    path = tmp_path / "between.json"
    path.write_text(json.dumps(record))
    done = run("legal", "--json", str(path))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"seat": None, "actions": [], "next_dealer": 3}
    assert "seat 3" in run("legal", str(path)).stdout


def test_legal_refuses_finished_and_invalid_games() -> None:
    assert run("legal", str(EXAMPLES / "four-players-complete.json")).returncode == 1
    assert run("legal", str(EXAMPLES / "invalid-not-following.json")).returncode == 1


def test_deal_matches_the_seed_shuffle() -> None:
    done = run("deal", "--seed", "club:7", "--players", "5", "--dealer", "2")
    assert done.returncode == 0
    expected = deal_from_seed(Rules.create(5), "club:7", 2).to_json()
    assert json.loads(done.stdout) == expected
    assert expected["seed"] == "club:7"


def test_deal_with_options_parses_json_values() -> None:
    done = run("deal", "--seed", "x", "--players", "5", "--option", "five_player_pack=500pack")
    deal = json.loads(done.stdout)
    assert any("11" in card for hand in deal["hands"] for card in hand)
    bad = run("deal", "--seed", "x", "--option", "slam_bonus=maybe")
    assert bad.returncode == 2 and "slam_bonus" in bad.stderr


def test_deal_reproduces_a_seeded_example() -> None:
    record = json.loads((EXAMPLES / "four-players-in-progress-seeded.json").read_text())
    hand = record["hands"][1]
    done = run("deal", "--seed", hand["deal"]["seed"], "--dealer", str(hand["dealer"]))
    deal = json.loads(done.stdout)
    assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in hand["deal"]["hands"]]
    assert sorted(deal["kitty"]) == sorted(hand["deal"]["kitty"])


def test_play_writes_a_verified_record(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = run(
        "play",
        "--players",
        "3",
        "--seed",
        "cli",
        "--bots",
        "heuristic,random,heuristic",
        "--option",
        "defender_points_cap=490",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(out.read_text())
    assert record["rules"]["options"] == {"defender_points_cap": 490}
    assert [s["id"] for s in record["seats"]] == ["bot:heuristic", "bot:random", "bot:heuristic"]
    verdict = verify(out.read_bytes())
    assert verdict.valid and verdict.status == "complete"
    assert run("verify", str(out)).returncode == 0


def test_play_usage_errors() -> None:
    assert run("play", "--bots", "random,nobody,random,random", "--out", "-").returncode == 2
    assert run("play", "--players", "4", "--bots", "random", "--out", "-").returncode == 2
    assert run("play", "--players", "9", "--out", "-").returncode == 2


def test_show_renders_hands_tricks_and_score_sheet() -> None:
    done = run("show", str(EXAMPLES / "two-players-with-summary-hands.json"))
    assert done.returncode == 0
    text = done.stdout
    assert "Hand 0, dealer P0 Alice" in text
    assert "dead hand:" in text and "auction:" in text and "trick 1:" in text
    assert "(summary) 6C by P1" in text
    assert "Score sheet" in text and "Result: [530, -20], winner: side 0 (contract)" in text


def test_show_one_seat_hides_the_others() -> None:
    path = str(EXAMPLES / "four-players-complete.json")
    full = run("show", path).stdout
    seat = run("show", path, "--seat", "2").stdout
    assert "P0 Alice:" in full and "P0 Alice:" not in seat and "P2 Carol:" in seat
    assert "View of seat 2" in seat
    assert run("show", path, "--seat", "7").returncode == 2


def test_show_invalid_record_exit_1() -> None:
    done = run("show", str(EXAMPLES / "invalid-not-following.json"))
    assert done.returncode == 1
    assert "illegal_action" in done.stderr


def test_bot_test_hook() -> None:
    done = run("bot-test", "nowhere")
    try:
        import fivehundred.bots.cli  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        assert done.returncode == 2
        assert "not available" in done.stderr
    else:
        assert "Traceback" not in done.stderr


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("fivehundred")
    assert script.exists(), "pip install -e . installs the fivehundred console script"
    done = subprocess.run(
        [str(script), "verify", str(EXAMPLES / "four-players-complete.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
