"""A game: a sequence of hands with running totals and the end of the game (R-9, R-11)."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Play
from .calls import Call
from .contract import Contract, GameResult, HandResult
from .deal import Deal
from .errors import HandOverError, IllegalActionError, SummaryError
from .rules import Rules
from .scoring import contracting_sides, forfeit_result, game_end, hand_score
from .state import HandState, Phase
from .views import View

_OVER = Phase.OVER
_PLAY = Phase.PLAY


class GameState:
    """An immutable game: the rules, the running totals, the hand in progress and the end.

    >>> from fivehundred.engine.deal import deal_from_seed
    >>> rules = Rules.create(4)
    >>> g = GameState.new(rules).start_hand(0, deal_from_seed(rules, "x", 0))
    >>> g.to_act, g.totals
    (1, (0, 0))
    """

    __slots__ = ("hand", "hand_results", "in_hand", "last_dealer", "result", "rules", "totals")

    rules: Rules
    totals: tuple[int, ...]
    hand: HandState | None
    hand_results: tuple[HandResult, ...]
    last_dealer: int | None
    result: GameResult | None
    in_hand: bool
    """Whether a hand has been dealt and is not finished.

    A field set with ``hand`` rather than a property: drivers ask it before every decision."""

    def __init__(
        self,
        rules: Rules,
        totals: tuple[int, ...],
        hand: HandState | None,
        hand_results: tuple[HandResult, ...],
        last_dealer: int | None,
        result: GameResult | None,
    ) -> None:
        self.rules = rules
        self.totals = totals
        self.hand = hand
        self.hand_results = hand_results
        self.last_dealer = last_dealer
        self.result = result
        self.in_hand = hand is not None and not hand.is_over

    @classmethod
    def new(cls, rules: Rules) -> GameState:
        return cls(rules, (0,) * len(rules.sides), None, (), None, None)

    # ----------------------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def to_act(self) -> int | None:
        """The seat whose decision it is, or ``None`` (game over, or the next hand is not dealt)."""
        return self.hand.to_act if self.hand is not None and not self.is_over else None

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand: ``None`` before the first (free, R-2.1).

        The deal passes clockwise after every hand, thrown-in ones too, unless the rules redeal
        a thrown-in hand by the same dealer (R-4.11).
        """
        if self.last_dealer is None:
            return None
        last = self.hand_results[-1] if self.hand_results else None
        if (
            last is not None
            and last.contract is None
            and self.rules.options["all_pass"] == "redeal_same_dealer"
        ):
            return self.last_dealer
        return (self.last_dealer + 1) % self.rules.players

    def legal_actions(self) -> list[Action]:
        hand = self.hand
        if hand is None or self.result is not None:
            return []
        return hand.legal_actions()

    def view(self, seat: int) -> View:
        if self.hand is None:
            raise ValueError("no hand has been dealt yet")
        return self.hand.view(seat, self.totals)

    # ----------------------------------------------------------------------------- moves

    def look(self, seat: int) -> GameState:
        """The game after ``seat`` has looked at its cards in the hand in progress (R-4.9)."""
        if self.hand is None or self.hand.is_over:
            return self
        game = object.__new__(GameState)
        game.rules = self.rules
        game.totals = self.totals
        game.hand = self.hand.look(seat)
        game.hand_results = self.hand_results
        game.last_dealer = self.last_dealer
        game.result = self.result
        game.in_hand = True
        return game

    def start_hand(self, dealer: int, deal: Deal, *, check: bool = True) -> GameState:
        """Deal the next hand. Raises ``HandOverError`` when the game is over."""
        if self.is_over:
            raise HandOverError("the game is over: no further hand may be dealt")
        if self.in_hand:
            raise IllegalActionError("R-10", "the current hand is not over")
        expected = self.next_dealer
        if expected is not None and dealer != expected:
            raise IllegalActionError(
                "R-2.1", f"the next hand must be dealt by seat {expected}, not seat {dealer}"
            )
        hand = HandState.start(self.rules, dealer, deal, check=check)
        return GameState(self.rules, self.totals, hand, self.hand_results, dealer, None)

    def apply(self, action: Action, seat: int | None = None) -> GameState:
        """Apply an action to the hand in progress; scores the hand when it ends."""
        if self.result is not None:
            raise HandOverError("the game is over: no further action is possible")
        hand = self.hand
        if hand is None:
            raise IllegalActionError("R-10", "no hand has been dealt")
        if hand.phase is _PLAY and type(action) is Play and seat is None:
            # Straight to the card play, the most common decision by far: ``HandState.apply``
            # would make these same checks and call it.
            hand = hand._play(action)
        else:
            hand = hand.apply(action, seat)
        if hand.phase is _OVER:
            return self._scored(hand.contract, hand.tricks_by_side(), hand)
        # Built field by field: this runs once per decision of every bot match.
        game = object.__new__(GameState)
        game.rules = self.rules
        game.totals = self.totals
        game.hand = hand
        game.hand_results = self.hand_results
        game.last_dealer = self.last_dealer
        game.result = None
        game.in_hand = True
        return game

    def apply_summary(
        self, dealer: int, contract: Contract | None, tricks: Sequence[int]
    ) -> GameState:
        """Score a summary hand (contract and tricks only, as on a club score sheet).

        Raises ``SummaryError`` naming the member that cannot be scored.
        """
        if self.is_over:
            raise HandOverError("the game is over: no further hand may be played")
        if self.in_hand:
            raise IllegalActionError("R-10", "the current hand is not over")
        rules = self.rules
        nsides = len(rules.sides)
        # Checked in the record format's order: the contract, then the tricks.
        if contract is not None:
            _check_summary_contract(rules, contract)
        if len(tricks) != nsides or any(
            isinstance(t, bool) or not isinstance(t, int) or t < 0 for t in tricks
        ):
            raise SummaryError("tricks", f"tricks must be {nsides} counts, one per side")
        if contract is None:
            if any(tricks):
                raise SummaryError("tricks", "a thrown-in hand has no tricks")
        else:
            total = sum(tricks)
            ours = sum(tricks[s] for s in contracting_sides(rules, contract))
            early = (
                contract.call.is_misere
                and rules.options["misere_early_end"]
                and ours >= 1
                and total <= 10
            )
            if total != 10 and not early:
                raise SummaryError("tricks", f"the tricks add up to {total}, not 10")
        game = GameState(rules, self.totals, None, self.hand_results, dealer, None)
        return game._scored(contract, tuple(tricks), None)

    def forfeit(self, seat: int) -> GameResult:
        """The result if ``seat`` broke the game now (record section 5)."""
        return forfeit_result(self.rules, seat, self.totals)

    def _scored(
        self, contract: Contract | None, tricks: tuple[int, ...], hand: HandState | None
    ) -> GameState:
        """The game after a hand (``hand``, or ``None`` for a summary) scored ``tricks``."""
        rules = self.rules
        if contract is None:
            zeros = (0,) * len(rules.sides)
            res = HandResult(None, zeros, zeros, self.totals, None)
            return GameState(
                rules, self.totals, hand, (*self.hand_results, res), self.last_dealer, None
            )
        score, made = hand_score(rules, contract, tricks, self.totals)
        totals = tuple(t + s for t, s in zip(self.totals, score, strict=True))
        res = HandResult(contract, tricks, score, totals, made)
        end = game_end(rules, contract, made, totals)
        return GameState(rules, totals, hand, (*self.hand_results, res), self.last_dealer, end)


def _check_summary_contract(rules: Rules, contract: Contract) -> None:
    call = contract.call
    if not isinstance(call, Call) or call.is_pass:
        raise SummaryError("contract", "a contract must be a bid")
    if not 0 <= contract.seat < rules.players:
        raise SummaryError("contract", f"no seat {contract.seat} in this game")
    if not rules.allows_call(call):
        raise SummaryError("contract", f"{call} is not allowed under these rules' options")
    if contract.partner is not None:
        if rules.players != 5:
            raise SummaryError("contract/partner", "only the five-player game has a called partner")
        if call.is_misere:
            raise SummaryError("contract/partner", "a misère is always played alone (R-1.4)")
        if not 0 <= contract.partner < rules.players or contract.partner == contract.seat:
            raise SummaryError("contract/partner", f"seat {contract.partner} cannot be the partner")
