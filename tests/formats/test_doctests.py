"""The examples in the formats' docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "tournaments.formats.seeding",
    "tournaments.formats.standings",
    "tournaments.formats.round_robin",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0
