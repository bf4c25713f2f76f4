"""Reading and writing records: ``load``/``loads`` and ``dump``/``dumps``.

Records are plain JSON objects (``dict``). The readers check the structure (JSON, schema,
version) and raise ``RecordFormatError``; they do not replay: ``verify`` does. The writer only
writes structurally valid records, so a record it writes is always in canonical notation, and it
lays the text out for people: one top-level member per line and one action per line.
"""

from __future__ import annotations

import json
from typing import IO, Any

from fivehundred.record.errors import RecordFormatError
from fivehundred.record.verify import parse_json, structure_errors


def loads(text: str | bytes) -> dict[str, Any]:
    """Parse a record from JSON text; raises ``RecordFormatError`` if it is not a v1 record."""
    document, problem = parse_json(text)
    if problem is not None:
        raise RecordFormatError([problem])
    errors = structure_errors(document)
    if errors:
        raise RecordFormatError(errors)
    record: dict[str, Any] = document
    return record


def load(fp: IO[str] | IO[bytes]) -> dict[str, Any]:
    """Read a record from a file object (text or binary)."""
    return loads(fp.read())


def dumps(record: dict[str, Any]) -> str:
    """The JSON text of a record; raises ``RecordFormatError`` for a record not in v1 form."""
    errors = structure_errors(record)
    if errors:
        raise RecordFormatError(errors)
    lines = ["{"]
    items = list(record.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "hands" and value:
            lines.append(f"  {_j(key)}: [")
            for number, hand in enumerate(value):
                lines.extend(_hand_lines(hand, last=number == len(value) - 1))
            lines.append("  ]" + comma)
        elif key == "annotations" and value:
            lines.append(f"  {_j(key)}: [")
            for number, note in enumerate(value):
                tail = "," if number < len(value) - 1 else ""
                lines.append(f"    {_j(note)}{tail}")
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {_j(key)}: {_j(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dump(record: dict[str, Any], fp: IO[str]) -> None:
    """Write a record to a text file object."""
    fp.write(dumps(record))


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _hand_lines(hand: dict[str, Any], *, last: bool) -> list[str]:
    tail = "" if last else ","
    actions = hand.get("actions")
    if not actions:
        return [f"    {_j(hand)}{tail}"]
    keys = list(hand)
    after = keys[keys.index("actions") + 1 :]
    before = keys[: keys.index("actions")]
    head = ", ".join(f"{_j(k)}: {_j(hand[k])}" for k in before)
    lines = ["    {" + head + (", " if head else "") + '"actions": [']
    for number, action in enumerate(actions):
        comma = "," if number < len(actions) - 1 else ""
        lines.append(f"      {_j(action)}{comma}")
    closing = "    ]"
    for k in after:
        closing += f", {_j(k)}: {_j(hand[k])}"
    lines.append(closing + "}" + tail)
    return lines
