"""The rules engine of Five Hundred: pure Python, no Django, deterministic and fast.

>>> from fivehundred.engine import Rules, GameState, deal_from_seed
>>> rules = Rules.create(4)
>>> game = GameState.new(rules).start_hand(3, deal_from_seed(rules, "seed", 3))
>>> game.to_act
0
"""

from .actions import (
    Action,
    Discard,
    Nominate,
    PartnerCall,
    Play,
    action_from_json,
    action_to_json,
    format_action,
    parse_action,
)
from .calls import ALL_CALLS, PASS, Call
from .cards import CARDS, JOKER, Card, Suit
from .contract import Contract, GameResult, HandResult
from .deal import Deal, check_deal, deal_from_order, deal_from_seed, same_deal, shuffled_pack
from .errors import (
    DealError,
    EngineError,
    HandOverError,
    IllegalActionError,
    NotationError,
    RulesError,
    SummaryError,
    WrongSeatError,
)
from .game import GameState
from .rules import DEFAULT_OPTIONS, OPTION_NAMES, Rules
from .scoring import contracting_sides, forfeit_result, game_end, hand_score
from .state import HandState, Phase
from .views import View

Seat = int
Side = int

__all__ = [
    "ALL_CALLS",
    "CARDS",
    "DEFAULT_OPTIONS",
    "JOKER",
    "OPTION_NAMES",
    "PASS",
    "Action",
    "Call",
    "Card",
    "Contract",
    "Deal",
    "DealError",
    "Discard",
    "EngineError",
    "GameResult",
    "GameState",
    "HandOverError",
    "HandResult",
    "HandState",
    "IllegalActionError",
    "Nominate",
    "NotationError",
    "PartnerCall",
    "Phase",
    "Play",
    "Rules",
    "RulesError",
    "Seat",
    "Side",
    "Suit",
    "SummaryError",
    "View",
    "WrongSeatError",
    "action_from_json",
    "action_to_json",
    "check_deal",
    "contracting_sides",
    "deal_from_order",
    "deal_from_seed",
    "forfeit_result",
    "format_action",
    "game_end",
    "hand_score",
    "parse_action",
    "same_deal",
    "shuffled_pack",
]
