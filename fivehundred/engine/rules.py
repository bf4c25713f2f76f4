"""The rules a game is played under: player count and the named options of R-12."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .calls import ALL_CALLS, Call, bid_order, call_rank
from .cards import JOKER, Card, Suit, card_of
from .errors import RulesError

_BOOL: Final = "bool"
_INT: Final = "int"

# name -> (type, default, supported values (None: any of the type), unsupported values)
_OPTIONS: Final[dict[str, tuple[str, Any, tuple[Any, ...] | None, tuple[Any, ...]]]] = {
    "deck_variant": ("str", "43", ("43",), ("45", "46")),
    "two_player_mode": ("str", "dead_hand_33", ("dead_hand_33",), ("dummies_43",)),
    "three_player_pack": ("str", "33", ("33",), ("43_with_dummy",)),
    "five_player_pack": ("str", "52+JK", ("52+JK", "500pack"), ()),
    "six_player_teams": ("str", "two_of_three", ("two_of_three", "three_of_two"), ()),
    "allow_misere": (_BOOL, True, None, ()),
    "allow_open_misere": (_BOOL, True, None, ()),
    "allow_blind_misere": (_BOOL, False, None, ()),
    "allow_sans_kitty": (_BOOL, False, None, ()),
    "misere_requires_seven": (_BOOL, True, None, ()),
    "misere_rank": ("str", "between_7_and_8", ("between_7_and_8", "by_points"), ()),
    "open_misere_after_eight": (_BOOL, False, None, ()),
    "passed_may_reenter": (_BOOL, False, (False,), (True,)),
    "self_raise_after_all_pass": (_BOOL, False, None, ()),
    "self_raise_reopens": (_BOOL, False, (False,), (True,)),
    "single_round_bidding": (_BOOL, False, None, ()),
    "all_pass": ("str", "throw_in", ("throw_in", "redeal_same_dealer"), ("play_no_trumps",)),
    "first_lead": ("str", "contractor", ("contractor", "eldest"), ()),
    "joker_prenomination": (_BOOL, True, None, ()),
    "joker_after_all_suits_led": (
        "str",
        "lead_only_last_trick",
        ("lead_only_last_trick", "no_play_until_last_trick"),
        (),
    ),
    "joker_lead_last_trick_only": (_BOOL, False, None, ()),
    "misere_joker_compulsion": (_BOOL, True, None, ()),
    "open_misere_expose": (
        "str",
        "after_first_trick",
        ("after_first_trick", "before_opening_lead", "after_opening_lead"),
        (),
    ),
    "misere_early_end": (_BOOL, True, None, ()),
    "slam_bonus": (_BOOL, True, None, ()),
    "defender_trick_points": ("str", "always", ("always", "on_fail_only", "never"), ()),
    "defender_points_cap": ("cap", None, (None, 490, 480), ()),
    "win_requires_contract": (_BOOL, True, None, ()),
    "back_door_needs_nonnegative_opponent": (_BOOL, False, None, ()),
    "target": (_INT, 500, None, ()),
    "lose_at": (_INT, -500, None, ()),
}

OPTION_NAMES: Final = tuple(_OPTIONS)
DEFAULT_OPTIONS: Final[Mapping[str, Any]] = {k: v[1] for k, v in _OPTIONS.items()}


def _check_option(name: str, value: Any) -> Any:
    if name not in _OPTIONS:
        raise RulesError(name, f"unknown option {name!r}")
    kind, _default, supported, unsupported = _OPTIONS[name]
    if kind == _BOOL:
        ok_type = isinstance(value, bool)
        expected = "true or false"
    elif kind == _INT:
        ok_type = isinstance(value, int) and not isinstance(value, bool)
        expected = "an integer"
    elif kind == "cap":
        ok_type = value is None or (isinstance(value, int) and not isinstance(value, bool))
        expected = "null or an integer"
    else:
        ok_type = isinstance(value, str)
        expected = "a string"
    if not ok_type:
        raise RulesError(
            name, f"option {name!r} must be {expected}, not {value!r}", type_error=True
        )
    if any(value == u and type(value) is type(u) for u in unsupported):
        raise RulesError(name, f"option {name!r} value {value!r} is not supported in this version")
    if supported is not None and not any(value == s and type(value) is type(s) for s in supported):
        allowed = ", ".join(repr(s) for s in supported)
        raise RulesError(name, f"option {name!r} has no value {value!r} (allowed: {allowed})")
    return value


def _pack(players: int, options: Mapping[str, Any]) -> tuple[Card, ...]:
    """The rules' pack in canonical order (R-1)."""
    suits = list(Suit)
    std: tuple[str, ...] = ("5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    cards: list[Card] = []
    if players in (2, 3):
        ranks: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")
        cards = [card_of(s, r) for s in suits for r in ranks]
    elif players == 4:
        cards = [card_of(s, r) for s in suits for r in std]
        cards += [card_of(Suit.D, "4"), card_of(Suit.H, "4")]
    elif players == 5 and options["five_player_pack"] == "52+JK":
        ranks = ("2", "3", "4", *std)
        cards = [card_of(s, r) for s in suits for r in ranks]
    else:
        # Six players and the five-player 500 pack: with 11s and 12s in
        # every suit and 13s in the red suits; the 500 pack has no 2s, 3s or black 4s.
        low: tuple[str, ...] = ("2", "3", "4") if players == 6 else ()
        for s in suits:
            ranks = low + (("4",) if players == 5 and s.is_red else ())
            ranks += std[:5] + ("11", "12") + (("13",) if s.is_red else ()) + std[5:]
            cards += [card_of(s, r) for r in ranks]
    cards.append(JOKER)
    return tuple(sorted(cards))


def _sides(players: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    if players == 4:
        return ((0, 2), (1, 3))
    if players == 6:
        if options["six_player_teams"] == "three_of_two":
            return ((0, 3), (1, 4), (2, 5))
        return ((0, 2, 4), (1, 3, 5))
    return tuple((s,) for s in range(players))


@dataclass(frozen=True, eq=False)
class Rules:
    """A frozen rules object: the player count and every option with its value (R-12).

    >>> r = Rules.create(4)
    >>> len(r.pack), r.sides, r.kitty_size
    (43, ((0, 2), (1, 3)), 3)
    """

    players: int
    options: Mapping[str, Any]
    given: Mapping[str, Any] = field(repr=False)
    pack: tuple[Card, ...] = field(repr=False)
    pack_mask: int = field(repr=False)
    sides: tuple[tuple[int, ...], ...] = field(repr=False)
    side_of_seat: tuple[int, ...] = field(repr=False)
    bid_ranks: Mapping[str, int] = field(repr=False)
    top_rank: int = field(repr=False)
    # Legal calls by auction situation; filled lazily by the hand state (never compared).
    call_cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def create(cls, players: int, options: Mapping[str, Any] | None = None) -> Rules:
        """Validate and build rules; raises ``RulesError`` naming the bad member."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(
                "players", f"players must be an integer, not {players!r}", type_error=True
            )
        if not 2 <= players <= 6:
            raise RulesError("players", f"players must be 2 to 6, not {players}")
        given = dict(options or {})
        for name, value in given.items():
            _check_option(name, value)
        full = dict(DEFAULT_OPTIONS)
        full.update(given)
        if full["target"] <= full["lose_at"]:
            raise RulesError("target", "option 'target' must be above 'lose_at'")
        pack = _pack(players, full)
        mask = 0
        for c in pack:
            mask |= 1 << c.index
        sides = _sides(players, full)
        side_of = [0] * players
        for i, side in enumerate(sides):
            for s in side:
                side_of[s] = i
        order = bid_order(full["misere_rank"] == "by_points")
        top = max(call_rank(c, order) for c in ALL_CALLS if c.is_bid and cls._allowed(full, c))
        return cls(
            players=players,
            options=full,
            given={
                k: v
                for k, v in given.items()
                if DEFAULT_OPTIONS[k] != v or type(v) is not type(DEFAULT_OPTIONS[k])
            },
            pack=pack,
            pack_mask=mask,
            sides=sides,
            side_of_seat=tuple(side_of),
            bid_ranks=order,
            top_rank=top,
        )

    @classmethod
    def from_json(cls, obj: Any) -> Rules:
        """Build rules from a record's ``rules`` object: ``{"ruleset", "players", "options"}``."""
        if not isinstance(obj, dict):
            raise RulesError("", "rules must be an object", type_error=True)
        ruleset = obj.get("ruleset", "australian")
        if not isinstance(ruleset, str):
            raise RulesError("ruleset", "ruleset must be a string", type_error=True)
        if ruleset != "australian":
            raise RulesError("ruleset", f"unknown ruleset {ruleset!r} (version 1 has 'australian')")
        options = obj.get("options", {})
        if not isinstance(options, dict):
            raise RulesError("options", "options must be an object", type_error=True)
        return cls.create(obj.get("players"), options)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        """The record's ``rules`` object (only options that differ from the defaults)."""
        return {"ruleset": "australian", "players": self.players, "options": dict(self.given)}

    @staticmethod
    def _allowed(options: Mapping[str, Any], call: Call) -> bool:
        if call.kind == "mis" and not options["allow_misere"]:
            return False
        if call.kind == "om" and not options["allow_open_misere"]:
            return False
        if call.kind == "bm" and not options["allow_blind_misere"]:
            return False
        return not (call.sans_kitty and not options["allow_sans_kitty"])

    def allows_call(self, call: Call) -> bool:
        """Whether these rules' options allow this kind of call at all (R-4.2, R-12)."""
        return self._allowed(self.options, call)

    def rank_of(self, call: Call) -> int:
        """Comparable rank of a bid under these rules (R-4.3)."""
        return call_rank(call, self.bid_ranks)

    def side_of(self, seat: int) -> int:
        return self.side_of_seat[seat]

    @property
    def kitty_size(self) -> int:
        return 3

    @property
    def has_dead_hand(self) -> bool:
        return self.players == 2

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Rules)
            and self.players == other.players
            and dict(self.options) == dict(other.options)
        )

    def __hash__(self) -> int:
        return hash((self.players, tuple(sorted((k, repr(v)) for k, v in self.options.items()))))
