"""What one seat may know: its own cards and everything public, nothing more (design 2).

Bots, browsers and the API receive views, never states. A view must not change when the cards
its seat cannot see are reshuffled; the tests check exactly that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .calls import Call
from .cards import CARDS, Card, Suit, cards_of

if TYPE_CHECKING:
    from .state import HandState


@dataclass(frozen=True)
class TrickView:
    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "cards": [[seat, str(c)] for seat, c in self.cards],
            "winner": self.winner,
        }


@dataclass(frozen=True)
class View:
    """One seat's knowledge of a hand at one moment."""

    seat: int
    players: int
    dealer: int
    phase: str
    to_act: int | None
    hand: tuple[Card, ...]  # empty while hidden (see ``hand_hidden``)
    hand_hidden: bool  # blind misère allowed and the seat has not looked yet
    hand_sizes: tuple[int, ...]
    auction: tuple[tuple[int, Call], ...]
    contract: dict[str, Any] | None
    partner: int | None  # the called partner, once this seat can know it
    kitty: tuple[Card, ...] | None  # only the contractor, once taken
    discarded: tuple[Card, ...] | None  # only the contractor
    nominated: Suit | None
    active: tuple[int, ...]
    tricks: tuple[TrickView, ...]
    current: TrickView | None
    tricks_won: tuple[int, ...]  # per side
    exposed: dict[int, tuple[Card, ...]]
    totals: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": [str(c) for c in self.hand],
            "hand_hidden": self.hand_hidden,
            "hand_sizes": list(self.hand_sizes),
            "auction": [{"seat": s, "call": str(c)} for s, c in self.auction],
            "contract": self.contract,
            "partner": self.partner,
            "kitty": None if self.kitty is None else [str(c) for c in self.kitty],
            "discarded": None if self.discarded is None else [str(c) for c in self.discarded],
            "nominated": None if self.nominated is None else str(self.nominated),
            "active": list(self.active),
            "tricks": [t.to_json() for t in self.tricks],
            "current_trick": None if self.current is None else self.current.to_json(),
            "tricks_won": list(self.tricks_won),
            "exposed": {str(k): [str(c) for c in v] for k, v in self.exposed.items()},
            "totals": None if self.totals is None else list(self.totals),
        }


def make_view(state: HandState, seat: int, totals: tuple[int, ...] | None = None) -> View:
    """Build ``seat``'s view of ``state``."""
    from .state import Phase

    if not 0 <= seat < state.rules.players:
        raise ValueError(f"no seat {seat} in a {state.rules.players}-player game")
    contract = state.contract
    is_contractor = contract is not None and contract.seat == seat
    kitty_taken = state.phase in (Phase.DISCARD, Phase.NOMINATE, Phase.PLAY, Phase.OVER)
    contract_json: dict[str, Any] | None = None
    partner: int | None = None
    kitty = discarded = None
    if contract is not None:
        contract_json = {"seat": contract.seat, "bid": str(contract.call)}
        called = contract.called
        if called is not None:
            contract_json["called"] = str(called)
            # The partner is secret until the called card is played; its holder knows.
            played = any(c == called.index for t in state.tricks for _, c in t[1]) or any(
                c == called.index for _, c in state._trick
            )
            if played or contract.partner == seat:
                partner = contract.partner
        if is_contractor and not contract.call.sans_kitty and kitty_taken:
            kitty = tuple(sorted(state.deal.kitty))
            if state.phase is not Phase.DISCARD:
                discarded = cards_of(state.discarded)
    tricks = tuple(
        TrickView(leader, tuple((s, CARDS[c]) for s, c in plays), winner)
        for leader, plays, winner in state.tricks
    )
    current = (
        TrickView(state.leader, state.current_trick, None)
        if state.phase is Phase.PLAY and state.current_trick
        else None
    )
    exposed: dict[int, tuple[Card, ...]] = {}
    if contract is not None and state.exposed() and contract.seat != seat:
        exposed[contract.seat] = state.hand_of(contract.seat)
    # where blind misère may be bid, a player is not given his cards until he asks for
    # them (``HandState.look``); once the auction is over there is nothing left to hide them for.
    hidden = (
        bool(state.rules.options["allow_blind_misere"])
        and not state.hand_viewed[seat]
        and state.phase is Phase.AUCTION
    )
    return View(
        seat=seat,
        players=state.rules.players,
        dealer=state.dealer,
        phase=str(state.phase),
        to_act=state.to_act,
        hand=() if hidden else state.hand_of(seat),
        hand_hidden=hidden,
        hand_sizes=tuple(bin(h).count("1") for h in state.hands),
        auction=state.calls,
        contract=contract_json,
        partner=partner,
        kitty=kitty,
        discarded=discarded,
        nominated=None if state.nominated < 0 else Suit(state.nominated),
        active=state.active_seats if contract is not None else tuple(range(state.rules.players)),
        tricks=tricks,
        current=current,
        tricks_won=state.tricks_by_side(),
        exposed=exposed,
        totals=totals,
    )
