"""Review probes of section 7 of the record format ("Which error, and where").

The records in ``tests/golden/review/`` (written by ``make_review.py`` there) each probe one point:
every error code, the order of checks, pointers, notation, deals, seeds, actions, results,
summary hands, the end of the game, terminations and annotations. Their expected verdicts were
read from the specification. The command line is what other verifiers are compared with, so the
probes go through ``fivehundred verify --json``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REVIEW = Path(__file__).resolve().parents[1] / "golden" / "review"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (REVIEW / "expected.json").read_text(encoding="utf-8")
)
CODES = {
    "not_json",
    "schema",
    "unsupported_version",
    "bad_rules",
    "bad_deal",
    "seed_mismatch",
    "dealer_mismatch",
    "wrong_seat",
    "illegal_action",
    "hand_not_over",
    "extra_action",
    "result_mismatch",
    "totals_mismatch",
    "game_over",
    "bad_termination",
    "bad_annotation",
}


@pytest.fixture(scope="module")
def verdicts() -> dict[str, dict[str, Any]]:
    """Every review record through one ``fivehundred verify --json`` run."""
    files = [str(REVIEW / f"{name}.json") for name in sorted(EXPECTED)]
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "verify", "--json", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # some records are invalid
    out = {}
    for line in done.stdout.splitlines():
        obj = json.loads(line)
        out[Path(obj["file"]).stem] = obj
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_review_record(name: str, verdicts: dict[str, dict[str, Any]]) -> None:
    expected = EXPECTED[name]
    got = verdicts[name]
    assert got["valid"] is expected["valid"], got["errors"]
    if expected["valid"]:
        assert got["errors"] == []
        assert got["status"] == expected["status"]
        assert got["scores"] == expected["scores"]
        assert got["winner"] == expected["winner"]
    else:
        assert got["status"] == "invalid"
        first = got["errors"][0]
        assert (first["code"], first["pointer"]) == (expected["code"], expected["pointer"])
        assert first["message"].strip(), "every error carries a sentence a person can act on"


def test_review_records_cover_the_codes() -> None:
    """Every code of the fixed list is the first error of some probe here or in the
    structure tests (``not_json`` needs text that is not JSON, below)."""
    seen = {e["code"] for e in EXPECTED.values() if not e["valid"]}
    assert CODES - seen == {"not_json"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (b"", "not_json"),
        (b"{", "not_json"),
        (b'{"version": NaN}', "not_json"),
        (b"\xff", "not_json"),
        (b"[]", "schema"),
        (b'"record"', "schema"),
    ],
)
def test_review_not_json_at_the_root(text: bytes, code: str, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(text)
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "verify", "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    first = json.loads(done.stdout)["errors"][0]
    assert (first["code"], first["pointer"]) == (code, "")


def test_review_records_are_written_by_the_script() -> None:
    """The files match what ``make_review.py`` writes (no hand edits drift from it)."""
    sys.path.insert(0, str(REVIEW))
    try:
        import make_review  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(REVIEW))
    make_review.PROBES.clear()
    make_review.build()
    assert sorted(name for name, _, _ in make_review.PROBES) == sorted(EXPECTED)
    for name, record, verdict in make_review.PROBES:
        on_disk = json.loads((REVIEW / f"{name}.json").read_text(encoding="utf-8"))
        assert on_disk == record, name
        assert EXPECTED[name] == verdict, name
