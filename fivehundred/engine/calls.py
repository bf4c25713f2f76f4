"""Calls of the auction (R-4): ``PASS``, suit and no-trump bids, misère, open and blind misère."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from .cards import Suit
from .errors import NotationError

_STRAINS: Final = ("S", "C", "D", "H", "NT")
_CALL_RE: Final = re.compile(r"(?:(PASS)|(6|7|8|9|10)(S|C|D|H|NT)(/SK)?|(MIS)(/SK)?|(OM)|(BM))")


class Call:
    """One call of the auction. Instances are interned and compared by identity of meaning.

    ``kind`` is ``"pass"``, ``"suit"``, ``"nt"``, ``"mis"``, ``"om"`` or ``"bm"``.

    >>> Call.parse("7H").value, Call.parse("MIS").value, Call.parse("OM").value
    (200, 250, 500)
    >>> str(Call.parse("8S/SK"))
    '8S/SK'
    """

    __slots__ = ("_text", "kind", "sans_kitty", "strain", "tricks", "trump", "value")

    _text: str
    kind: str
    tricks: int | None
    trump: Suit | None
    strain: int
    sans_kitty: bool
    value: int

    def __new__(cls, text: str) -> Call:
        return cls.parse(text)

    @classmethod
    def _make(cls, text: str) -> Call:
        m = _CALL_RE.fullmatch(text)
        assert m is not None
        call = object.__new__(cls)
        call._text = text
        call.tricks = None
        call.trump = None
        call.strain = -1
        call.sans_kitty = False
        call.value = 0
        if m.group(1):
            call.kind = "pass"
        elif m.group(2):
            call.tricks = int(m.group(2))
            strain = m.group(3)
            call.strain = _STRAINS.index(strain)
            call.kind = "nt" if strain == "NT" else "suit"
            call.trump = None if strain == "NT" else Suit.parse(strain)
            call.sans_kitty = bool(m.group(4))
            # value(nX) = 40 + 20 i(X) + 100 (n - 6)
            call.value = 40 + 20 * call.strain + 100 * (call.tricks - 6)
        elif m.group(5):
            call.kind = "mis"
            call.sans_kitty = bool(m.group(6))
            call.value = 250
        elif m.group(7):
            call.kind = "om"
            call.value = 500
        else:
            call.kind = "bm"
            call.value = 500
        return call

    @classmethod
    def parse(cls, text: str) -> Call:
        """Parse a call in canonical notation; raises ``NotationError`` otherwise."""
        call = _CALLS.get(text) if isinstance(text, str) else None
        if call is None:
            raise NotationError(f"{text!r} is not a call in canonical notation")
        return call

    @property
    def is_pass(self) -> bool:
        return self.kind == "pass"

    @property
    def is_bid(self) -> bool:
        return self.kind != "pass"

    @property
    def is_misere(self) -> bool:
        """Misère, open misère or blind misère: lose every trick, no trumps (R-4.2)."""
        return self.kind in ("mis", "om", "bm")

    @property
    def is_no_trump(self) -> bool:
        """True for NT and the misère family: contracts without a trump suit (R-3.4)."""
        return self.kind in ("nt", "mis", "om", "bm")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Call({self._text!r})"

    def __reduce__(self) -> tuple[type[Call], tuple[str]]:
        return (Call, (self._text,))


def _all_call_texts() -> list[str]:
    texts = ["PASS"]
    for n in range(6, 11):
        for s in _STRAINS:
            texts += [f"{n}{s}", f"{n}{s}/SK"]
    texts += ["MIS", "MIS/SK", "OM", "BM"]
    return texts


_CALLS: Final = {t: Call._make(t) for t in _all_call_texts()}
ALL_CALLS: Final[tuple[Call, ...]] = tuple(_CALLS.values())
PASS: Final = _CALLS["PASS"]


def bid_order(misere_by_points: bool) -> dict[str, int]:
    """Rank of each bid (without ``/SK``): larger is higher (R-4.3).

    Blind misère ranks equal to open misère, so neither outbids the other (R-4.9).
    """
    order: list[list[str]] = []
    for n in range(6, 11):
        for s in _STRAINS:
            order.append([f"{n}{s}"])
    # Default: MIS above every seven and below every eight; by points: between 8S and 8C.
    order.insert(order.index(["8C"]) if misere_by_points else order.index(["8S"]), ["MIS"])
    order.insert(order.index(["10H"]), ["OM", "BM"])
    return {text: rank for rank, group in enumerate(order) for text in group}


def call_rank(call: Call, order: Mapping[str, int]) -> int:
    """Comparable rank of a bid: a ``/SK`` bid ranks just above its plain bid (R-4.10)."""
    base = call._text[:-3] if call.sans_kitty else call._text
    return order[base] * 2 + (1 if call.sans_kitty else 0)
