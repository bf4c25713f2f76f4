"""The protocol layer: messages, answers and typed faults, and the SDK loop, without a sandbox."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from fivehundred.bots import sdk
from fivehundred.bots.protocol import (
    PROTOCOL_VERSION,
    BotFault,
    Fault,
    act_message,
    encode,
    end_message,
    parse_answer,
    start_message,
)

LEGAL = [
    {"seat": 2, "play": "JK", "suit": "H"},
    {"seat": 2, "play": "JK", "suit": "S"},
    {"seat": 2, "play": "10H"},
]


def test_messages_are_one_json_line_each() -> None:
    start = start_message(
        rules={"ruleset": "australian", "players": 4},
        seat=2,
        seats=["a", "b", "c", "d"],
        per_decision_ms=1000,
        bank_ms=5000,
    )
    line = encode(start)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line) == {
        "type": "start",
        "protocol": PROTOCOL_VERSION,
        "rules": {"ruleset": "australian", "players": 4},
        "seat": 2,
        "seats": ["a", "b", "c", "d"],
        "time": {"per_decision_ms": 1000, "bank_ms": 5000},
    }
    act = json.loads(encode(act_message(view={"hand": ["JK"]}, legal=LEGAL, time_left_ms=900)))
    assert act == {"type": "act", "view": {"hand": ["JK"]}, "legal": LEGAL, "time_left_ms": 900}
    end = json.loads(encode(end_message(result={"winner": 0}, termination=None)))
    assert end == {"type": "end", "result": {"winner": 0}}


@pytest.mark.parametrize(
    ("answer", "index"),
    [
        (b'{"play":"JK","suit":"S"}', 1),
        (b'{"seat":2,"play":"10H"}', 2),
        (b'  {"suit":"H","play":"JK"}  ', 0),
    ],
)
def test_a_legal_answer_is_found_with_or_without_its_seat(answer: bytes, index: int) -> None:
    assert parse_answer(answer, seat=2, legal=LEGAL) == index


def test_discards_compare_as_sets() -> None:
    legal = [{"seat": 0, "discard": ["5S", "6C", "4D"]}, {"seat": 0, "discard": ["5S", "6C", "AH"]}]
    assert parse_answer(b'{"discard":["AH","5S","6C"]}', seat=0, legal=legal) == 1


def test_many_legal_actions_use_the_index() -> None:
    legal = [{"seat": 0, "discard": [f"{r}S", "6C", "4D"]} for r in range(5, 11)] * 4
    legal.append({"seat": 0, "discard": ["AS", "KS", "QS"]})
    assert parse_answer(b'{"discard":["QS","KS","AS"]}', seat=0, legal=legal) == len(legal) - 1


@pytest.mark.parametrize(
    ("answer", "kind", "words"),
    [
        (b"hello", "protocol_error", "not JSON"),
        (b"\xff\xfe", "protocol_error", "not JSON"),
        (b"[1, 2]", "protocol_error", "JSON object"),
        (b'"play 10H"', "protocol_error", "JSON object"),
        (b'{"play":"10H","bogus":1}', "protocol_error", "unknown keys"),
        (b'{"seat":2}', "protocol_error", "exactly one"),
        (b'{"play":"10H","call":"PASS"}', "protocol_error", "exactly one"),
        (b'{"play":"AS"}', "illegal_action", "not one of the 3 legal"),
        (b'{"play":"JK"}', "illegal_action", "not one of"),
        (b'{"seat":1,"play":"10H"}', "illegal_action", "names seat 1"),
        (b'{"play":"10H"}' + b" " * 5000, "protocol_error", "exceeds"),
    ],
)
def test_bad_answers_are_typed_faults(answer: bytes, kind: str, words: str) -> None:
    with pytest.raises(BotFault) as caught:
        parse_answer(answer, seat=2, legal=LEGAL)
    assert caught.value.fault.kind == kind
    assert words in caught.value.fault.detail


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("timeout", "timeout"),
        ("crash", "crash"),
        ("memory", "crash"),
        ("protocol_error", "crash"),
        ("illegal_action", "illegal_action"),
    ],
)
def test_faults_become_record_terminations(kind: str, reason: str) -> None:
    termination = Fault(kind, "what happened").termination(3)  # type: ignore[arg-type]
    assert termination["reason"] == reason
    assert termination["seat"] == 3
    assert "what happened" in termination["detail"]
    if kind != reason:
        assert kind in termination["detail"]


def _lines(*messages: dict[str, Any]) -> io.BytesIO:
    return io.BytesIO(b"".join(encode(m) for m in messages))


def test_sdk_runs_a_function_bot() -> None:
    seen = []

    def act(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        seen.append(view["hand"])
        return legal[-1]

    out = io.BytesIO()
    stdin = _lines(
        start_message(rules={}, seat=2, seats=["a"] * 4, per_decision_ms=1, bank_ms=1),
        act_message(view={"hand": ["10H"]}, legal=LEGAL, time_left_ms=5),
        act_message(view={"hand": ["JK"]}, legal=LEGAL[:2], time_left_ms=5),
        end_message(result=None),
    )
    assert sdk.run(act, stdin=stdin, stdout=out) == 2
    answers = out.getvalue().splitlines()
    assert [parse_answer(a, seat=2, legal=LEGAL) for a in answers] == [2, 1]
    assert seen == [["10H"], ["JK"]]


def test_sdk_runs_a_class_bot_with_start_and_end() -> None:
    class Bot:
        def __init__(self) -> None:
            self.events: list[str] = []

        def start(self, message: dict[str, Any]) -> None:
            self.events.append(f"start {message['seat']}")

        def act(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
            self.events.append("act")
            return legal[0]

        def end(self, message: dict[str, Any]) -> None:
            self.events.append(f"end {message['result']}")

    bot = Bot()
    stdin = _lines(
        start_message(rules={}, seat=1, seats=["a"] * 4, per_decision_ms=1, bank_ms=1),
        {"type": "future-message"},
        act_message(view={}, legal=LEGAL, time_left_ms=5),
        end_message(result={"winner": 1}),
    )
    out = io.BytesIO()
    sdk.run(bot, stdin=stdin, stdout=out)
    assert bot.events == ["start 1", "act", "end {'winner': 1}"]
    assert out.getvalue() == b'{"seat":2,"play":"JK","suit":"H"}\n'


def test_sdk_refuses_something_that_is_not_a_bot() -> None:
    with pytest.raises(TypeError):
        sdk.run(42, stdin=io.BytesIO(), stdout=io.BytesIO())


def test_builtin_bots_speak_the_protocol_as_a_process() -> None:
    import subprocess
    import sys

    from fivehundred.engine import GameState, Rules, action_to_json, deal_from_seed

    rules = Rules.create(4)
    game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "protocol", 3))
    seat = game.to_act
    assert seat is not None
    legal = [action_to_json(seat, a) for a in game.legal_actions()]
    messages = _lines(
        start_message(
            rules=rules.to_json(), seat=seat, seats=["a"] * 4, per_decision_ms=1000, bank_ms=0
        ),
        act_message(view=game.view(seat).to_json(), legal=legal, time_left_ms=1000),
        end_message(result=None),
    ).getvalue()
    for name in ("heuristic", "random"):
        done = subprocess.run(
            [sys.executable, "-m", "fivehundred.bots.run", name, "--seed", "1"],
            input=messages,
            capture_output=True,
            timeout=30,
            check=True,
        )
        answers = done.stdout.splitlines()
        assert len(answers) == 1, done.stderr
        assert 0 <= parse_answer(answers[0], seat=seat, legal=legal) < len(legal)


def test_run_explains_its_usage() -> None:
    import subprocess
    import sys

    for argv in ([], ["nobody"], ["random", "--seed"]):
        done = subprocess.run(
            [sys.executable, "-m", "fivehundred.bots.run", *argv],
            input=b"",
            capture_output=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 2
        assert b"usage: python -m fivehundred.bots.run" in done.stderr
    assert (
        b"unknown built-in bot 'nobody'"
        in subprocess.run(
            [sys.executable, "-m", "fivehundred.bots.run", "nobody"],
            capture_output=True,
            check=False,
        ).stderr
    )
