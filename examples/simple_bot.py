"""A complete Five Hundred bot using the SDK: ``fivehundred bot-test examples/simple_bot.py``.

It bids a suit when it holds five or more cards of it (counting the joker and both bowers),
discards its lowest side cards, and plays its highest card when it can win the trick and its
lowest otherwise. It reads only what the protocol sends: ``view`` (its own cards and everything
public) and ``legal`` (the actions it may take, in record notation).
"""

from __future__ import annotations

from fivehundred.bots.sdk import run

ORDER = {str(n): n for n in range(2, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14}
SAME_COLOUR = {"H": "D", "D": "H", "S": "C", "C": "S"}


def rank(card: str) -> int:
    return 20 if card == "JK" else ORDER.get(card[:-1], 10)


def trumps_held(hand: list[str], suit: str) -> int:
    bowers = {"J" + suit, "J" + SAME_COLOUR[suit], "JK"}
    return sum(1 for card in hand if card in bowers or card.endswith(suit))


class SimpleBot:
    def start(self, message: dict) -> None:
        self.seat = message["seat"]

    def act(self, view: dict, legal: list[dict]) -> dict:
        first = legal[0]
        if "call" in first:
            return self.bid(view, legal)
        if "discard" in first:
            # The discard whose cards are lowest in total.
            return min(legal, key=lambda a: sum(rank(c) for c in a["discard"]))
        if "play" in first:
            return self.play(view, legal)
        return first  # partner call or joker nomination: the first legal choice

    def bid(self, view: dict, legal: list[dict]) -> dict:
        hand = view["hand"]
        best = max("SCDH", key=lambda suit: trumps_held(hand, suit))
        if trumps_held(hand, best) >= 5:
            for action in legal:  # legal calls are listed from the lowest
                if action["call"].endswith(best) and action["call"][0] in "67":
                    return action
        return next(a for a in legal if a["call"] == "PASS")

    def play(self, view: dict, legal: list[dict]) -> dict:
        trick = view.get("current_trick") or {"cards": []}
        by_rank = sorted(legal, key=lambda a: rank(a["play"]))
        if trick["cards"]:
            best_played = max(rank(card) for _, card in trick["cards"])
            if rank(by_rank[-1]["play"]) > best_played:
                return by_rank[-1]
        return by_rank[0]


if __name__ == "__main__":
    run(SimpleBot())
