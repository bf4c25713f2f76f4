"""Shared helpers for the record tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
EXAMPLES = GOLDEN / "examples"
RECORDS = GOLDEN / "records"


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture
def four_complete() -> dict[str, Any]:
    """A complete four-player game from the specification's examples (a fresh copy)."""
    return copy.deepcopy(load_json(EXAMPLES / "four-players-complete.json"))


@pytest.fixture
def example() -> Any:
    """Load an example record by file stem (a fresh copy each call)."""

    def get(name: str) -> dict[str, Any]:
        return copy.deepcopy(load_json(EXAMPLES / f"{name}.json"))

    return get


@pytest.fixture
def golden() -> Any:
    """Load a golden record by file stem (a fresh copy each call)."""

    def get(name: str) -> dict[str, Any]:
        return copy.deepcopy(load_json(RECORDS / f"{name}.json"))

    return get
