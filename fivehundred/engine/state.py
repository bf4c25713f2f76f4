"""The state of one hand: auction, partner call, kitty, joker nomination and play (R-4 to R-8).

``HandState`` is an immutable value: ``apply`` returns a new state and never changes the old one.
Hands are bitmasks over card indexes and every per-contract table is precomputed
(``tricks.trick_table``), because this is the inner loop of bot matches and verification.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from itertools import chain, combinations
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

from .actions import Action, Discard, Nominate, PartnerCall, Play
from .calls import ALL_CALLS, PASS, Call
from .cards import CARDS, JOKER_INDEX, SUIT_NAMES, SUIT_SINGULAR, Card, Suit, cards_of, indexes_of
from .contract import Contract
from .deal import Deal, check_deal
from .errors import HandOverError, IllegalActionError, WrongSeatError
from .rules import Rules
from .tricks import NO_SUIT, TrickTable, trick_table

if TYPE_CHECKING:
    from .views import View

_JOKER_BIT = 1 << JOKER_INDEX
_ALL_SUITS_LED = 0b1111


class Phase(StrEnum):
    """Where a hand stands: whose decision comes next and of what kind (R-10)."""

    AUCTION = "auction"
    PARTNER = "partner"
    DISCARD = "discard"
    NOMINATE = "nominate"
    PLAY = "play"
    OVER = "over"

    def __str__(self) -> str:
        return self.value


# Module constants: a global load is cheaper than an enum class attribute in the hot paths.
_AUCTION = Phase.AUCTION
_PLAY = Phase.PLAY
_OVER = Phase.OVER


def _mask(cards: tuple[Card, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


class _Setting:
    """The part of a hand that trick play leaves unchanged: the deal, the auction, the contract,
    who takes part and the contract's tables.

    Every state of one hand's play shares one ``_Setting``, so that a card played copies only the
    eleven fields that play changes. Phases before the play, and ``look``, copy both; a
    ``_Setting`` is changed only while it is new and not yet seen by any other state.
    """

    __slots__ = (
        "active",
        "called",
        "calls",
        "contract",
        "deal",
        "dealer",
        "discarded",
        "eight_bid",
        "extra",
        "hand_viewed",
        "high",
        "high_rank",
        "nactive",
        "next",
        "nominated",
        "npassed",
        "passed",
        "rules",
        "seven_bid",
        "stop_seat",
        "table",
    )

    rules: Rules
    dealer: int
    deal: Deal
    calls: tuple[tuple[int, Call], ...]
    contract: Contract | None
    discarded: int
    nominated: int
    seven_bid: bool
    eight_bid: bool
    hand_viewed: tuple[bool, ...]
    passed: int  # seats that passed (a bit each)
    npassed: int
    called: int  # seats that made any call
    high: tuple[int, Call] | None
    high_rank: int
    extra: bool  # the high bidder's extra call after all others passed is due
    active: int  # seats taking part in the play
    nactive: int
    next: tuple[int, ...]  # the next active seat after each seat
    table: TrickTable | None
    stop_seat: int  # a trick won by this seat ends the play (a lost misère, R-6.6), or -1

    def copy(self) -> _Setting:
        c = object.__new__(_Setting)
        c.rules = self.rules
        c.dealer = self.dealer
        c.deal = self.deal
        c.calls = self.calls
        c.contract = self.contract
        c.discarded = self.discarded
        c.nominated = self.nominated
        c.seven_bid = self.seven_bid
        c.eight_bid = self.eight_bid
        c.hand_viewed = self.hand_viewed
        c.passed = self.passed
        c.npassed = self.npassed
        c.called = self.called
        c.high = self.high
        c.high_rank = self.high_rank
        c.extra = self.extra
        c.active = self.active
        c.nactive = self.nactive
        c.next = self.next
        c.table = self.table
        c.stop_seat = self.stop_seat
        return c


class HandState:
    """One hand of Five Hundred, from the first call to the last trick.

    >>> from fivehundred.engine.deal import deal_from_seed
    >>> rules = Rules.create(4)
    >>> s = HandState.start(rules, 3, deal_from_seed(rules, "doc", 3))
    >>> s.phase, s.to_act
    (<Phase.AUCTION: 'auction'>, 0)
    >>> s = s.apply(Call.parse("7H"))
    >>> s.to_act
    1
    """

    __slots__ = (
        "_led",
        "_s",
        "_trick",
        "hands",
        "leader",
        "phase",
        "suits_led",
        "to_act",
        "trick_no",
        "tricks",
        "won",
    )

    phase: Phase
    to_act: int | None
    hands: tuple[int, ...]
    trick_no: int
    leader: int
    suits_led: int
    won: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]
    _s: _Setting
    _trick: tuple[tuple[int, int], ...]
    _led: int

    # ----------------------------------------------------------------------------- creation

    @classmethod
    def start(cls, rules: Rules, dealer: int, deal: Deal, *, check: bool = True) -> HandState:
        """A new hand dealt by ``dealer``; the player to the dealer's left calls first (R-4.1)."""
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat 0..{rules.players - 1}, not {dealer}")
        if check:
            check_deal(rules, deal)
        n = rules.players
        c = object.__new__(_Setting)
        c.rules = rules
        c.dealer = dealer
        c.deal = deal
        c.calls = ()
        c.contract = None
        c.discarded = 0
        c.nominated = -1
        c.seven_bid = False
        c.eight_bid = False
        c.hand_viewed = (False,) * n
        c.passed = 0
        c.npassed = 0
        c.called = 0
        c.high = None
        c.high_rank = -1
        c.extra = False
        c.active = (1 << n) - 1
        c.nactive = n
        c.next = tuple((i + 1) % n for i in range(n))
        c.table = None
        c.stop_seat = -1
        s = object.__new__(cls)
        s._s = c
        s.phase = Phase.AUCTION
        s.to_act = (dealer + 1) % n
        s.hands = tuple(_mask(h) for h in deal.hands)
        s.trick_no = 0
        s.leader = -1
        s.suits_led = 0
        s.won = (0,) * n
        s.tricks = ()
        s._trick = ()
        s._led = NO_SUIT
        return s

    def _copy(self) -> HandState:
        """A copy sharing the setting: what a card played changes."""
        s = object.__new__(HandState)
        s._s = self._s
        s.phase = self.phase
        s.to_act = self.to_act
        s.hands = self.hands
        s.trick_no = self.trick_no
        s.leader = self.leader
        s.suits_led = self.suits_led
        s.won = self.won
        s.tricks = self.tricks
        s._trick = self._trick
        s._led = self._led
        return s

    def _fork(self) -> HandState:
        """A copy with a setting of its own, free to change (every phase but the play)."""
        s = self._copy()
        s._s = self._s.copy()
        return s

    # ----------------------------------------------------------------------------- setting

    @property
    def rules(self) -> Rules:
        return self._s.rules

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def deal(self) -> Deal:
        return self._s.deal

    @property
    def calls(self) -> tuple[tuple[int, Call], ...]:
        """The auction so far: (seat, call) in order."""
        return self._s.calls

    @property
    def contract(self) -> Contract | None:
        return self._s.contract

    @property
    def discarded(self) -> int:
        """The contractor's discards (a card mask; 0 before the exchange)."""
        return self._s.discarded

    @property
    def nominated(self) -> int:
        """The joker's pre-nominated suit (R-5.4), or -1."""
        return self._s.nominated

    @property
    def seven_bid(self) -> bool:
        """Whether a bid of seven or more tricks has been made (R-4.5)."""
        return self._s.seven_bid

    @property
    def eight_bid(self) -> bool:
        """Whether a bid of eight or more tricks has been made (R-4.6)."""
        return self._s.eight_bid

    @property
    def hand_viewed(self) -> tuple[bool, ...]:
        """Per seat: whether it has looked at its cards (R-4.9)."""
        return self._s.hand_viewed

    # ----------------------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def thrown_in(self) -> bool:
        """True when every player passed and no contract was made (R-4.8a, R-4.11)."""
        return self.phase is Phase.OVER and self.contract is None

    @property
    def high_bid(self) -> tuple[int, Call] | None:
        """The current highest bid of the auction and its bidder."""
        return self._s.high

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats taking part in the play (misère partners sit out, R-5.2)."""
        return tuple(s for s in range(self.rules.players) if self._s.active >> s & 1)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple((seat, CARDS[c]) for seat, c in self._trick)

    @property
    def led_suit(self) -> Suit | None:
        """Effective suit led to the current trick (``None`` before the lead or if none)."""
        return Suit(self._led) if self._trick and self._led != NO_SUIT else None

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds now (canonical order)."""
        return cards_of(self.hands[seat])

    def tricks_by_side(self) -> tuple[int, ...]:
        """Tricks won per side so far."""
        out = [0] * len(self.rules.sides)
        side_of = self.rules.side_of_seat
        for seat, n in enumerate(self.won):
            out[side_of[seat]] += n
        return tuple(out)

    def exposed(self) -> bool:
        """Whether the open misère contractor's hand is face up now (R-8.4)."""
        c = self.contract
        if c is None or c.call.kind != "om" or self.phase not in (Phase.PLAY, Phase.OVER):
            return False
        when = self.rules.options["open_misere_expose"]
        if when == "before_opening_lead":
            return True
        if when == "after_opening_lead":
            return self.trick_no > 0 or bool(self._trick)
        return self.trick_no > 0

    def look(self, seat: int) -> HandState:
        """The state after ``seat`` has looked at its cards.

        Only blind misère cares (R-4.9): it may be called only by a player who has not looked.
        Records do not write looks down, so a replayed record assumes nobody looked before
        calling; a table that deals real cards calls ``look`` when a player picks them up.
        """
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"no seat {seat} in a {self.rules.players}-player game")
        if self.hand_viewed[seat]:
            return self
        s = self._fork()
        viewed = list(self.hand_viewed)
        viewed[seat] = True
        s._s.hand_viewed = tuple(viewed)
        return s

    # ----------------------------------------------------------------------------- legality

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act, in a fixed order (empty when over)."""
        phase = self.phase
        if phase is _PLAY:
            # The plays are listed here rather than in a helper: four decisions in five.
            seat = self.to_act
            table = self._s.table
            assert seat is not None and table is not None
            hand = self.hands[seat]
            if self._trick:
                # Following: usually the cards of the led suit, else as _follow_mask says.
                follow = hand & table.suit_mask[self._led]
                return list(_plays_of(follow if follow else self._follow_mask(hand)))
            # Leading: any card, listed suit by suit (a whole hand is seldom seen twice, so
            # only each suit's part of it is worth caching).
            out: list[Action] = []
            # The free joker (R-7: no trumps or misère, not nominated) leads naming a suit.
            free_joker = hand & _JOKER_BIT and table.trump < 0 and table.nominated < 0
            for span in _SUIT_ONLY_SPANS if free_joker else _SUIT_SPANS:
                part = hand & span
                if part:
                    out += _plays_of(part)
            if free_joker:
                out += self._joker_leads()
            return out
        if phase is _AUCTION:
            return list(self._legal_calls())
        if phase is Phase.DISCARD:
            assert self.contract is not None
            held = indexes_of(self.hands[self.contract.seat])
            if self.rules.kitty_size == 3:
                return _three_card_discards(held)
            return list(map(_DISCARDS.__getitem__, combinations(held, self.rules.kitty_size)))
        if phase is Phase.NOMINATE:
            return [*(Nominate(s) for s in Suit), Nominate(None)]
        if phase is Phase.PARTNER:
            return [PartnerCall(None), *(PartnerCall(c) for c in self.rules.pack if not c.is_joker)]
        return []

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalActionError:
            return False
        return True

    def _legal_calls(self) -> tuple[Call, ...]:
        """Legal calls, cached per rules and auction situation (the auction's hot path)."""
        seat = self.to_act
        assert seat is not None
        bm_ok = not self._s.called >> seat & 1 and not self.hand_viewed[seat]
        key = (self._s.high_rank, self.seven_bid, self.eight_bid, bm_ok)
        cache = self.rules.call_cache
        calls = cache.get(key)
        if calls is None:
            calls = tuple(
                c
                for c in _CALL_ORDER[self.rules.options["misere_rank"]]
                if self._call_error(c) is None
            )
            cache[key] = calls
        return calls

    def _call_error(self, call: Call) -> tuple[str, str] | None:
        if call is PASS:
            return None
        rules = self.rules
        if not rules.allows_call(call):
            return "R-12", f"{call} is not allowed under these rules' options"
        if call.kind == "bm":
            seat = self.to_act
            assert seat is not None
            if self._s.called >> seat & 1:
                return "R-4.9", "blind misère may only be the player's first call of the hand"
            if self.hand_viewed[seat]:
                return (
                    "R-4.9",
                    "blind misère may only be called by a player who has not looked at his hand",
                )
        if rules.rank_of(call) <= self._s.high_rank:
            assert self._s.high is not None
            return "R-4.4", f"{call} does not outrank the current bid {self._s.high[1]}"
        if call.kind == "mis" and rules.options["misere_requires_seven"] and not self.seven_bid:
            return "R-4.5", "misère may only be bid after a bid of seven or more tricks"
        if call.kind == "om" and rules.options["open_misere_after_eight"] and not self.eight_bid:
            return "R-4.6", "open misère may only be bid after a bid of eight or more tricks"
        return None

    def _free_joker(self) -> bool:
        """Whether the joker is the un-nominated joker of no trumps or misère (R-7)."""
        table = self._s.table
        return table is not None and table.trump < 0 and table.nominated < 0

    def _joker_leads(self) -> list[Action]:
        """Leads of the free joker (R-7.4, R-7.5, R-7.7)."""
        if self.trick_no == 9:
            return [_PLAYS[JOKER_INDEX]]
        if self.rules.options["joker_lead_last_trick_only"]:
            return []
        return [_JOKER_LEADS[s] for s in range(4) if not self.suits_led >> s & 1]

    def _follow_mask(self, hand: int) -> int:
        """Legal cards when following (R-6.2, R-7.3, R-7.5, R-7.6)."""
        table = self._s.table
        assert table is not None
        follow = hand & table.suit_mask[self._led]
        if follow:
            return follow
        if hand & _JOKER_BIT and self._free_joker():
            contract = self.contract
            assert contract is not None
            opts = self.rules.options
            if contract.call.is_misere and opts["misere_joker_compulsion"]:
                return _JOKER_BIT
            if (
                opts["joker_after_all_suits_led"] == "no_play_until_last_trick"
                and self.suits_led == _ALL_SUITS_LED
                and self.trick_no < 9
            ):
                return hand & ~_JOKER_BIT
        return hand

    # ----------------------------------------------------------------------------- apply

    def apply(self, action: Action, seat: int | None = None) -> HandState:
        """The state after the seat to act takes ``action``.

        ``seat``, when given, must be the seat to act (``WrongSeatError`` otherwise). Raises
        ``IllegalActionError`` naming the rule for anything the rules do not allow.
        """
        phase = self.phase
        if phase is _PLAY:  # four decisions in five: tested first
            if seat is not None and seat != self.to_act:
                raise WrongSeatError(seat, self.to_act)
            if type(action) is not Play:
                raise self._wrong_kind(action, "a card to play")
            return self._play(action)
        if phase is _OVER:
            raise HandOverError()
        if seat is not None and seat != self.to_act:
            raise WrongSeatError(seat, self.to_act)
        if phase is _AUCTION:
            if type(action) is not Call:
                raise self._wrong_kind(action, "a call")
            return self._call(action)
        if phase is Phase.DISCARD:
            if type(action) is not Discard:
                raise self._wrong_kind(action, f"the discard of {self.rules.kitty_size} cards")
            return self._discard(action)
        if phase is Phase.NOMINATE:
            if type(action) is not Nominate:
                raise self._wrong_kind(action, "the joker's nomination (a suit or none)")
            return self._start_play(-1 if action.suit is None else int(action.suit))
        if type(action) is not PartnerCall:
            raise self._wrong_kind(action, "the partner call (a card or alone)")
        return self._partner(action)

    def _wrong_kind(self, action: object, expected: str) -> IllegalActionError:
        return IllegalActionError(
            "R-10", f"seat {self.to_act} must now make {expected}, not {action}"
        )

    def _call(self, call: Call) -> HandState:
        seat = self.to_act
        assert seat is not None
        err = self._call_error(call)
        if err is not None:
            raise IllegalActionError(*err)
        rules = self.rules
        n = rules.players
        s = self._fork()
        s._s.calls = (*self.calls, (seat, call))
        s._s.called |= 1 << seat
        if call is PASS:
            s._s.passed |= 1 << seat
            s._s.npassed += 1
        else:
            s._s.high = (seat, call)
            s._s.high_rank = rules.rank_of(call)
            if call.tricks is not None:
                s._s.seven_bid = s._s.seven_bid or call.tricks >= 7
                s._s.eight_bid = s._s.eight_bid or call.tricks >= 8
        everyone = (1 << n) - 1
        high = s._s.high
        if self._s.extra:
            # The high bidder's one extra call (R-4.8, self_raise_after_all_pass) ends it.
            assert high is not None
            return s._contract_made(high[0], high[1])
        if high is not None and s._s.high_rank >= rules.top_rank:
            return s._contract_made(*high)  # R-4.8(c): nothing can outrank it
        if rules.options["single_round_bidding"]:
            if len(s.calls) < n:
                s.to_act = (seat + 1) % n
                return s
            if high is None:
                return s._thrown_in()
            # each player calls exactly once, so there is no extra call for the high
            # bidder even where the rules give one after all others pass.
            return s._contract_made(*high)
        if high is None:
            if s._s.passed == everyone:
                return s._thrown_in()  # R-4.8(a)
        elif (s._s.passed | 1 << high[0]) == everyone:
            return s._all_others_passed()  # R-4.8(b)
        nxt = (seat + 1) % n
        while s._s.passed >> nxt & 1:  # passing is final
            nxt = (nxt + 1) % n
        s.to_act = nxt
        return s

    def _all_others_passed(self) -> HandState:
        high = self._s.high
        assert high is not None
        if self.rules.options["self_raise_after_all_pass"]:
            self._s.extra = True
            self.to_act = high[0]
            return self
        return self._contract_made(*high)

    def _thrown_in(self) -> HandState:
        self.phase = Phase.OVER
        self.to_act = None
        return self

    def _contract_made(self, seat: int, call: Call) -> HandState:
        rules = self.rules
        n = rules.players
        self._s.extra = False
        self._s.contract = Contract(seat, call)
        if call.is_misere:
            # the contractor's partners take no part in a misère.
            side = rules.sides[rules.side_of(seat)]
            self._s.active = (1 << n) - 1
            for p in side:
                if p != seat:
                    self._s.active &= ~(1 << p)
            self._s.nactive = self._s.active.bit_count()
            nxt = []
            for i in range(n):
                j = (i + 1) % n
                while not self._s.active >> j & 1:
                    j = (j + 1) % n
                nxt.append(j)
            self._s.next = tuple(nxt)
        if n == 5 and not call.is_misere:
            self.phase = Phase.PARTNER  # the call comes before the kitty
            self.to_act = seat
            return self
        return self._take_kitty()

    def _take_kitty(self) -> HandState:
        contract = self.contract
        assert contract is not None
        seat = contract.seat
        if contract.call.sans_kitty:
            return self._after_exchange()  # the kitty stays face down, unseen
        hands = list(self.hands)
        hands[seat] |= _mask(self.deal.kitty)
        self.hands = tuple(hands)
        self.phase = Phase.DISCARD
        self.to_act = seat
        return self

    def _partner(self, action: PartnerCall) -> HandState:
        contract = self.contract
        assert contract is not None
        card = action.card
        partner = None
        if card is not None:
            if card.is_joker:
                raise IllegalActionError("R-1.4", "the joker cannot be called as partner card")
            if not self.rules.pack_mask >> card.index & 1:
                raise IllegalActionError("R-1.4", f"{card} is not in the pack for these rules")
            for p, hand in enumerate(self.hands):
                if p != contract.seat and hand >> card.index & 1:
                    partner = p  # a card in the kitty or the own hand: the contractor is alone
        s = self._fork()
        s._s.contract = Contract(contract.seat, contract.call, partner, card)
        return s._take_kitty()

    def _discard(self, action: Discard) -> HandState:
        contract = self.contract
        assert contract is not None
        seat = contract.seat
        k = self.rules.kitty_size
        cards = action.cards
        m = _mask(cards)
        if len(cards) != k or bin(m).count("1") != k:
            raise IllegalActionError(
                "R-5.1", f"the contractor must discard exactly {k} different cards"
            )
        held = self.hands[seat]
        if m & ~held:
            missing = " ".join(str(c) for c in cards_of(m & ~held))
            raise IllegalActionError("R-5.1", f"seat {seat} cannot discard {missing}: not held")
        s = self._fork()
        hands = list(self.hands)
        hands[seat] = held & ~m
        s.hands = tuple(hands)
        s._s.discarded = m
        return s._after_exchange()

    def _after_exchange(self) -> HandState:
        contract = self.contract
        assert contract is not None
        if (
            self.rules.options["joker_prenomination"]
            and contract.call.is_no_trump
            and self.hands[contract.seat] & _JOKER_BIT
        ):
            self.phase = Phase.NOMINATE
            self.to_act = contract.seat
            return self
        return self._start_play(-1, fresh=False)

    def _start_play(self, nominated: int, *, fresh: bool = True) -> HandState:
        s = self._fork() if fresh else self
        contract = s.contract
        assert contract is not None
        trump = contract.call.trump
        s._s.nominated = nominated
        s._s.table = trick_table(-1 if trump is None else int(trump), nominated)
        if contract.call.is_misere and s.rules.options["misere_early_end"]:
            s._s.stop_seat = contract.seat
        if s.rules.options["first_lead"] == "eldest":
            # option: the dealer's left leads, or the next active player in a misère.
            leader = (s.dealer + 1) % s.rules.players
            if not s._s.active >> leader & 1:
                leader = s._s.next[leader]
        else:
            leader = contract.seat
        s.leader = leader
        s.to_act = leader
        s.phase = Phase.PLAY
        return s

    def _play(self, action: Play) -> HandState:
        c = self._s
        seat = self.to_act
        assert seat is not None
        table = c.table
        assert table is not None
        card = action.card.index
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            raise IllegalActionError("R-6.2", f"seat {seat} does not hold {action.card}")
        trick = self._trick
        if trick:
            if action.suit is not None:
                raise IllegalActionError(
                    "R-7.4", "a suit is named only when leading the un-nominated joker"
                )
            led = self._led
            follow = hand & table.suit_mask[led]
            if not (follow if follow else self._follow_mask(hand)) & bit:
                raise IllegalActionError(*self._follow_error(seat, action.card, hand))
            leader = self.leader
            suits_led = self.suits_led
        else:
            if card == JOKER_INDEX or action.suit is not None:
                led = self._check_lead(action, table)
            else:
                led = table.suit_of[card]
            leader = seat
            suits_led = self.suits_led if led == NO_SUIT else self.suits_led | 1 << led
        # Built field by field rather than by ``_copy``: this is the engine's hottest path.
        s = object.__new__(HandState)
        s._s = c
        s.phase = _PLAY
        hands = list(self.hands)
        hands[seat] = hand ^ bit
        s.hands = tuple(hands)
        s._led = led
        s.suits_led = suits_led
        trick = (*trick, (seat, card))
        if len(trick) < c.nactive:
            s._trick = trick
            s.leader = leader
            s.to_act = c.next[seat]
            s.trick_no = self.trick_no
            s.won = self.won
            s.tricks = self.tricks
            return s
        # The trick is complete.
        beats = table.beats[led]
        winner = best = -2
        for player, played in trick:  # as table.winner_index, without a list of the cards
            if beats[played] > best:
                best = beats[played]
                winner = player
        won = list(self.won)
        won[winner] += 1
        s.won = tuple(won)
        s.tricks = (*self.tricks, (leader, trick, winner))
        s.trick_no = trick_no = self.trick_no + 1
        s._trick = ()
        s.leader = winner
        if trick_no == 10 or winner == c.stop_seat:
            s.phase = _OVER  # a lost misère stops at once
            s.to_act = None
        else:
            s.to_act = winner
        return s

    def _check_lead(self, action: Play, table: TrickTable) -> int:
        """Check a lead; return the effective suit it leads (R-6.2, R-7.4, R-7.5, R-7.7)."""
        card = action.card.index
        if card == JOKER_INDEX and self._free_joker():
            opts = self.rules.options
            if self.trick_no == 9:
                if action.suit is not None:
                    raise IllegalActionError(
                        "R-7.4", "no suit is named for the joker at the last trick"
                    )
                return NO_SUIT
            if opts["joker_lead_last_trick_only"]:
                raise IllegalActionError("R-7.7", "the joker may only be led at the last trick")
            if self.suits_led == _ALL_SUITS_LED:
                raise IllegalActionError(
                    "R-7.5",
                    "all four suits have been led: the joker may not be led before the last trick",
                )
            if action.suit is None:
                raise IllegalActionError(
                    "R-7.4", "leading the joker before the last trick must name a suit not yet led"
                )
            if self.suits_led >> int(action.suit) & 1:
                raise IllegalActionError(
                    "R-7.4",
                    f"the joker cannot be led as {SUIT_NAMES[action.suit]}: that suit has already been led",
                )
            return int(action.suit)
        if action.suit is not None:
            raise IllegalActionError(
                "R-7.4", "a suit is named only when leading the un-nominated joker"
            )
        return table.suit_of[card]

    def _follow_error(self, seat: int, card: Card, hand: int) -> tuple[str, str]:
        table = self._s.table
        assert table is not None and self.contract is not None
        led = self._led
        follow = hand & table.suit_mask[led]
        if follow:
            suit = Suit(led)
            holds = " ".join(str(c) for c in cards_of(follow))
            msg = f"seat {seat} must follow {SUIT_NAMES[suit]} (holds {holds})"
            if card.is_joker and table.trump < 0:
                why = (
                    "has no suit"
                    if table.nominated < 0
                    else f"is a {SUIT_SINGULAR[Suit(table.nominated)]}"
                )
                msg += f"; the joker {why} in this contract"
            elif card.suit is not None and table.suit_of[card.index] != card.suit:
                trump = Suit(table.trump)
                msg += f"; {card} is not a {SUIT_SINGULAR[card.suit]} when {SUIT_NAMES[trump]} are trumps"
            return ("R-7.3" if card.is_joker and table.trump < 0 else "R-6.2"), msg
        if card.is_joker:
            return (
                "R-7.5",
                "the joker may not be played before the last trick once all four suits have been led",
            )
        return (
            "R-7.6",
            f"seat {seat} cannot follow suit in a misère and holds the joker: it must play the joker",
        )

    # ----------------------------------------------------------------------------- views

    def view(self, seat: int, totals: tuple[int, ...] | None = None) -> View:
        """What ``seat`` may know now (its own cards and everything public)."""
        from .views import make_view

        return make_view(self, seat, totals)

    def debug_json(self) -> dict[str, Any]:
        """Everything about the state (all hands): for tests and debugging, never for players."""
        return {
            "phase": str(self.phase),
            "to_act": self.to_act,
            "hands": [[str(c) for c in cards_of(h)] for h in self.hands],
            "contract": self.contract.to_json() if self.contract else None,
            "trick": [[seat, str(CARDS[c])] for seat, c in self._trick],
            "won": list(self.won),
        }


def _call_order(misere_rank: str) -> tuple[Call, ...]:
    order = Rules.create(4, {"misere_rank": misere_rank}).bid_ranks
    from .calls import call_rank

    bids = sorted((c for c in ALL_CALLS if c.is_bid), key=lambda c: (call_rank(c, order), str(c)))
    return (PASS, *bids)


_CALL_ORDER: dict[str, tuple[Call, ...]] = {
    m: _call_order(m) for m in ("between_7_and_8", "by_points")
}
_PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
_JOKER_LEADS: tuple[Play, ...] = tuple(Play(CARDS[JOKER_INDEX], s) for s in Suit)
# The cards of one suit (16 index slots each) and the joker: a set of cards is listed suit by
# suit from a cache of each suit's part, so a legal-play list costs a few lookups instead of a
# step per card.
_SUIT_ONLY_SPANS: tuple[int, ...] = tuple(0xFFFF << 16 * s for s in range(4))
_SUIT_SPANS: tuple[int, ...] = (*_SUIT_ONLY_SPANS, _JOKER_BIT)
_SPAN_CACHE_LIMIT = 1 << 16


class _PlayCache(dict[int, tuple[Play, ...]]):
    """Play actions of a set of cards (a mask), in card order; bounded by clearing when full."""

    def __missing__(self, mask: int) -> tuple[Play, ...]:
        if len(self) >= _SPAN_CACHE_LIMIT:
            self.clear()  # masks that span several suits are unbounded in number
        plays: list[Play] = []
        for span in _SUIT_SPANS:
            part = mask & span
            if part == mask:
                while part:
                    low = part & -part
                    plays.append(_PLAYS[low.bit_length() - 1])
                    part ^= low
            elif part:
                plays.extend(self[part])
        out = tuple(plays)
        self[mask] = out
        return out


_PLAY_CACHE = _PlayCache()
_plays_of = _PLAY_CACHE.__getitem__


class _DiscardCache(dict[tuple[int, ...], Discard]):
    """Discard actions by ascending card indexes, built once: legal discards of a 13-card hand
    are 286 actions, and building them anew for every hand dominated the kitty phase."""

    def __missing__(self, key: tuple[int, ...]) -> Discard:
        action = Discard(tuple(CARDS[i] for i in key))
        self[key] = action
        return action


_DISCARDS = _DiscardCache()


class _DiscardRows(dict[tuple[int, int], Callable[[int], Discard | None]]):
    """For two cards ``a < b``: a getter of the discard of ``a``, ``b`` and a card ``c > b``
    by ``c`` (a list's ``__getitem__``; ``None`` for ``c <= b``, never asked for).

    A hand's 286 discards are then picked by list indexing, a pair of cards at a time, instead
    of hashing 286 triples into one large dict, whose scattered lookups were most of the time
    of a random game's kitty phase."""

    def __missing__(self, pair: tuple[int, int]) -> Callable[[int], Discard | None]:
        a, b = pair
        row: list[Discard | None] = [None] * 65
        for c in range(b + 1, 65):
            row[c] = _DISCARDS[a, b, c]
        getter = self[pair] = row.__getitem__
        return getter


_DISCARD_ROWS = _DiscardRows()
_second = itemgetter(1)


def _three_card_discards(held: list[int]) -> list[Action]:
    """Every discard of three of ``held`` (ascending indexes), as ``combinations`` orders them.

    The triples in that order are, for each pair ``(a, b)`` in ``combinations`` order (``b``
    not the highest card), ``a``, ``b`` and each card above ``b``: the list is built by
    iterators alone, with no Python step per pair or per discard.
    """
    above = [held[k + 1 :] for k in range(len(held) - 1)]  # the cards above held[k]
    getters = map(_DISCARD_ROWS.__getitem__, combinations(held[:-1], 2))
    tails = map(above.__getitem__, map(_second, combinations(range(len(held) - 1), 2)))
    return cast(list[Action], list(chain.from_iterable(map(map, getters, tails))))
