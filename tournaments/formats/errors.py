"""The one error type of the formats package.

Bad input (a duplicate entrant, a result for a match that does not exist, a forbidden pair that
makes a round impossible) must reach the director as a clear message naming what is wrong and
where, never as a crash deep inside the matching code. Every check in this package raises
`FormatError` with `where` set to the offending item so the Django layer can show it as is.
"""

from __future__ import annotations


class FormatError(ValueError):
    """Invalid input to a tournament format, or a request the format cannot satisfy.

    `where` names the offending item (``"entrants[3]"``, ``"results[W2-1]"``, ``"options.rounds"``)
    and `message` says what is wrong with it; `str(error)` joins the two.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message
