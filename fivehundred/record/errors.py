"""Error values of the record module: one reported fault, and the exception readers raise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: The fixed list of error codes of the record format (docs/record-format.md, section 7).
CODES: Final = (
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
)


@dataclass(frozen=True, slots=True)
class RecordError:
    """One fault in a record: where (a JSON Pointer), what (a code of CODES) and a sentence."""

    pointer: str
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "code": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"{self.pointer or '(root)'} {self.code} {self.message}"


class RecordFormatError(ValueError):
    """Raised by the readers (``load``/``loads``) for a document that is not a v1 record."""

    def __init__(self, errors: list[RecordError]) -> None:
        self.errors = errors
        first = errors[0] if errors else RecordError("", "schema", "not a record")
        super().__init__(str(first))
