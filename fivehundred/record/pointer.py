"""JSON Pointers (RFC 6901) and document order for error locations."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

Path = Sequence[str | int]


def escape(token: str | int) -> str:
    """Escape one reference token: ``~`` becomes ``~0`` and ``/`` becomes ``~1``."""
    return str(token).replace("~", "~0").replace("/", "~1")


def to_pointer(path: Iterable[str | int]) -> str:
    """The pointer for a path of keys and indexes; the empty path is the root, ``""``."""
    return "".join("/" + escape(token) for token in path)


def document_position(document: Any, path: Path) -> tuple[int, ...]:
    """Sort key placing a path in document order.

    Object members are ordered as they appear in the document (Python dicts keep the parsed
    order), array items by index; a path sorts before every path inside it.
    """
    key: list[int] = []
    node = document
    for token in path:
        if isinstance(node, dict):
            position = -1
            for index, name in enumerate(node):
                if name == token:
                    position = index
                    break
            if position < 0:
                # A member that is not there (e.g. a missing key) sorts after the present ones.
                position = len(node)
            key.append(position)
            node = node.get(token) if isinstance(token, str) else None
        elif isinstance(node, list) and isinstance(token, int):
            key.append(token)
            node = node[token] if 0 <= token < len(node) else None
        else:
            key.append(0)
            node = None
    return tuple(key)
