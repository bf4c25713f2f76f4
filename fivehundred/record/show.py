"""A record as text for people: the event, the seats, then hand by hand the deal, the auction,
the kitty exchange, each trick with its winner, and the score sheet with running totals.

With ``seat`` given, the rendering is that seat's view: its own cards only, the kitty and the
discards only if it took the kitty, never the dead hand. Tricks are public once played.
"""

from __future__ import annotations

from typing import Any

from fivehundred.engine import CARDS, HandState
from fivehundred.record.notation import card_of
from fivehundred.record.verify import replay


def _cards(texts: list[str]) -> str:
    return " ".join(str(c) for c in sorted(card_of(t) for t in texts)) or "-"


def _seat_name(seats: list[dict[str, Any]], seat: int) -> str:
    return f"P{seat} {seats[seat].get('name', '')}".rstrip()


def render_text(record: dict[str, Any], seat: int | None = None) -> str:
    """Render a valid record (complete or in progress); ``seat`` limits it to that seat's view.

    Raises ``RecordFormatError`` for an invalid record and ``ValueError`` for a seat that does
    not exist.
    """
    game = replay(record)
    rules = game.rules
    if seat is not None and not 0 <= seat < rules.players:
        raise ValueError(f"no seat {seat} in a {rules.players}-player game")
    seats: list[dict[str, Any]] = record["seats"]
    out: list[str] = []
    event = record.get("event") or {}
    title = event.get("name") or "Five Hundred"
    details = [event[k] for k in ("site", "date", "round", "table") if k in event]
    out.append(title + (f" ({', '.join(details)})" if details else ""))
    options = rules.to_json()["options"]
    opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    out.append(f"{rules.players} players, {opts}")
    sides = " vs ".join("+".join(f"P{s}" for s in side) for side in rules.sides)
    out.append(f"Sides: {sides}")
    for s, info in enumerate(seats):
        extra = ", ".join(info[k] for k in ("kind", "id") if k in info)
        out.append(f"  {_seat_name(seats, s)}" + (f" ({extra})" if extra else ""))
    if seat is not None:
        out.append(f"View of seat {seat}")
    for i, hand in enumerate(record["hands"]):
        out.append("")
        out.extend(_render_hand(i, hand, game.states.get(i), seats, seat))
    out.append("")
    out.append("Score sheet")
    header = "  hand  " + "  ".join(f"{'side ' + str(s):>8}" for s in range(len(rules.sides)))
    out.append(header)
    for i, hand in enumerate(record["hands"]):
        result = hand.get("result")
        if result is None:
            out.append(f"  {i:>4}  (in progress)")
            continue
        row = "  ".join(f"{t:>8}" for t in result["totals"])
        contract = result["contract"]
        what = "thrown in" if contract is None else f"{contract['bid']} P{contract['seat']}"
        out.append(f"  {i:>4}  {row}   {what}")
    final = record.get("result")
    termination = record.get("termination")
    if termination is not None:
        detail = f": {termination['detail']}" if "detail" in termination else ""
        out.append(f"Stopped: {termination['reason']} by seat {termination['seat']}{detail}")
    if final is not None:
        winner = final["winner"]
        who = (
            "no winner"
            if winner is None
            else "winners: sides " + ", ".join(map(str, winner))
            if isinstance(winner, list)
            else f"winner: side {winner}"
        )
        out.append(f"Result: {final['scores']}, {who} ({final['reason']})")
    elif not game.is_over:
        out.append("Game in progress")
    return "\n".join(out) + "\n"


def _render_hand(
    i: int,
    hand: dict[str, Any],
    state: HandState | None,
    seats: list[dict[str, Any]],
    view: int | None,
) -> list[str]:
    out = [f"Hand {i}, dealer {_seat_name(seats, hand['dealer'])}"]
    if "deal" not in hand:
        result = hand["result"]
        contract = result["contract"]
        if contract is None:
            out.append("  (summary) thrown in")
        else:
            partner = f" with P{contract['partner']}" if "partner" in contract else ""
            out.append(f"  (summary) {contract['bid']} by P{contract['seat']}{partner}")
        out.append(f"  tricks {result['tricks']}, score {result['score']}")
        return out
    deal = hand["deal"]
    contractor = state.contract.seat if state is not None and state.contract else None
    for s, cards in enumerate(deal["hands"]):
        if view is None or view == s:
            out.append(f"  {_seat_name(seats, s)}: {_cards(cards)}")
    if view is None and "dead" in deal:
        out.append(f"  dead hand: {_cards(deal['dead'])}")
    if view is None or view == contractor:
        out.append(f"  kitty: {_cards(deal['kitty'])}")
    if "seed" in deal:
        out.append(f"  seed: {deal['seed']}")
    calls = [f"P{a['seat']} {a['call']}" for a in hand["actions"] if "call" in a]
    if calls:
        out.append("  auction: " + ", ".join(calls))
    for action in hand["actions"]:
        if "partner" in action:
            out.append(f"  P{action['seat']} calls partner: {action['partner']}")
        elif "discard" in action:
            shown = (
                _cards(action["discard"])
                if view is None or view == action["seat"]
                else f"{len(action['discard'])} cards"
            )
            out.append(f"  P{action['seat']} takes the kitty and discards {shown}")
        elif "nominate" in action:
            out.append(f"  P{action['seat']} nominates the joker: {action['nominate']}")
    if state is None:
        return out
    for number, (_leader, plays, winner) in enumerate(state.tricks):
        cards = ", ".join(f"P{s} {CARDS[c]}" for s, c in plays)
        out.append(f"  trick {number + 1}: {cards} -> P{winner}")
    current = state.current_trick
    if current:
        out.append("  trick in progress: " + ", ".join(f"P{s} {c}" for s, c in current))
    if state.is_over:
        result = hand.get("result")
        if state.contract is None:
            out.append("  all passed: thrown in")
        elif result is not None:
            out.append(f"  tricks {result['tricks']}, score {result['score']}")
    else:
        out.append(f"  in progress: seat {state.to_act} to act ({state.phase})")
    return out


__all__ = ["render_text"]
