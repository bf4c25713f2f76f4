"""Tournament formats as pure functions: pairings, brackets, standings.

Nothing here touches the database or imports Django: the tournaments app stores entrants and
results, calls these functions, and stores what they return. Every function takes the field and
the results so far and returns new frozen values, so a corrected result is handled by simply
calling again. Bad input raises `FormatError` naming what is wrong and where.
"""

from tournaments.formats.elimination import (
    Bracket,
    BracketMatch,
    BracketState,
    MatchState,
    MatchStatus,
    Section,
    Slot,
    SlotKind,
    bracket_state,
    double_elimination,
    next_matches,
    single_elimination,
)
from tournaments.formats.errors import FormatError
from tournaments.formats.round_robin import round_robin
from tournaments.formats.seeding import bracket_size, seeding_order
from tournaments.formats.standings import (
    DEFAULT_TIEBREAKS,
    Standing,
    TieBreak,
    match_points,
    parse_tiebreaks,
    standings,
)
from tournaments.formats.swiss import SwissOptions, swiss_round
from tournaments.formats.values import Entrant, MatchResult, Outcome, Pairing, Round, Scoring

__all__ = [
    "DEFAULT_TIEBREAKS",
    "Bracket",
    "BracketMatch",
    "BracketState",
    "Entrant",
    "FormatError",
    "MatchResult",
    "MatchState",
    "MatchStatus",
    "Outcome",
    "Pairing",
    "Round",
    "Scoring",
    "Section",
    "Slot",
    "SlotKind",
    "Standing",
    "SwissOptions",
    "TieBreak",
    "bracket_size",
    "bracket_state",
    "double_elimination",
    "match_points",
    "next_matches",
    "parse_tiebreaks",
    "round_robin",
    "seeding_order",
    "single_elimination",
    "standings",
    "swiss_round",
]
