"""Game records: read, write, canonical form, digest and verification (docs/record-format.md).

>>> from fivehundred.record import verify
>>> verify("not json").errors[0].code
'not_json'
"""

from fivehundred.record.canonical import canonical_text, digest
from fivehundred.record.errors import CODES, RecordError, RecordFormatError
from fivehundred.record.io import dump, dumps, load, loads
from fivehundred.record.verify import Replay, Verdict, replay, verify

__all__ = [
    "CODES",
    "RecordError",
    "RecordFormatError",
    "Replay",
    "Verdict",
    "canonical_text",
    "digest",
    "dump",
    "dumps",
    "load",
    "loads",
    "replay",
    "verify",
]
