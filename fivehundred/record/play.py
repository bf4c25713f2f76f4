"""Bots play a whole game in-process and the game is written as a record.

Every hand is dealt from a seed derived from the game's seed (``f"{seed}:{hand_index}"``) and
the seed is stored in the deal, so anyone can check that the cards were not chosen.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from fivehundred import __version__
from fivehundred.bots.builtin import Bot, get_bot
from fivehundred.engine import GameState, Rules, deal_from_seed
from fivehundred.record.notation import action_json


def first_dealer(seed: str, players: int) -> int:
    """The first hand's dealer, drawn from the game's seed (R-2.1: chosen at random)."""
    digest = hashlib.sha256(f"{seed}:dealer".encode()).digest()
    return int.from_bytes(digest[:8], "big") % players


def play_game(
    *,
    players: int = 4,
    options: Mapping[str, Any] | None = None,
    seed: str | int | None = None,
    bots: Sequence[str | Bot] | None = None,
    names: Sequence[str] | None = None,
    max_hands: int = 1000,
    look: bool = True,
) -> dict[str, Any]:
    """Play a game with bots (built-in names or bot objects) and return its record.

    The game stops at its end by the rules or after ``max_hands`` hands (then the record is in
    progress, without a result). Each seat looks at its cards before deciding, as in bot
    matches; with ``look=False`` nobody does (bots then decide blind, and blind misère stays
    open to them, R-4.9). Raises ``ValueError`` if a bot answers an illegal action and
    ``KeyError`` for an unknown built-in bot.
    """
    rules = Rules.create(players, dict(options or {}))
    game_seed = secrets.token_hex(8) if seed is None else str(seed)
    chosen: list[str | Bot] = list(bots) if bots is not None else ["random"] * players
    if len(chosen) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(chosen)}")
    seated: list[Bot] = [
        get_bot(b, f"{game_seed}:seat{s}") if isinstance(b, str) else b
        for s, b in enumerate(chosen)
    ]
    labels = list(names) if names is not None else [b.name for b in seated]
    if len(labels) != players:
        raise ValueError(f"{players} players need {players} names, got {len(labels)}")
    seats = [
        {"name": label, "id": f"bot:{bot.name}", "kind": "bot"}
        for label, bot in zip(labels, seated, strict=True)
    ]
    game = GameState.new(rules)
    dealer = first_dealer(game_seed, players)
    hands: list[dict[str, Any]] = []
    for index in range(max_hands):
        if game.is_over:
            break
        deal = deal_from_seed(rules, f"{game_seed}:{index}", dealer)
        game = game.start_hand(dealer, deal, check=False)
        actions: list[dict[str, Any]] = []
        while game.in_hand:
            hand = game.hand
            assert hand is not None and hand.to_act is not None
            seat = hand.to_act
            if look:
                game = game.look(seat)
                hand = game.hand
                assert hand is not None
            legal = hand.legal_actions()
            action = seated[seat].act(hand.view(seat, game.totals), legal)
            if action not in legal:
                raise ValueError(
                    f"bot {seated[seat].name!r} at seat {seat} chose {action}: illegal"
                )
            actions.append(action_json(seat, action))
            game = game.apply(action)
        hands.append(
            {
                "dealer": dealer,
                "deal": deal.to_json(),
                "actions": actions,
                "result": game.hand_results[-1].to_json(),
            }
        )
        next_dealer = game.next_dealer
        assert next_dealer is not None
        dealer = next_dealer
    record: dict[str, Any] = {
        "format": "fivehundred-record",
        "version": 1,
        "rules": rules.to_json(),
        "generator": {"name": "fivehundred", "version": __version__},
        "seats": seats,
        "hands": hands,
    }
    if game.result is not None:
        record["result"] = game.result.to_json()
    return record
