"""The verifier's fast seed check agrees with the engine's ``deal_from_seed``."""

from __future__ import annotations

import pytest

from fivehundred.engine import Deal, Rules, deal_from_seed, shuffled_pack
from fivehundred.engine.deal import shuffled_indexes
from fivehundred.record.seeds import matches_seed

RULES = [
    Rules.create(2),
    Rules.create(3),
    Rules.create(4),
    Rules.create(5),
    Rules.create(5, {"five_player_pack": "500pack"}),
    Rules.create(6),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{len(r.pack)}")
def test_same_shuffle_as_the_engine(rules: Rules) -> None:
    pack = tuple(c.index for c in rules.pack)
    for n in range(60):
        seed = f"s{n}:é"
        assert shuffled_indexes(pack, seed) == [c.index for c in shuffled_pack(rules, seed)]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p-{len(r.pack)}")
def test_matches_exactly_the_seeded_deal(rules: Rules) -> None:
    for n in range(20):
        dealer = n % rules.players
        deal = deal_from_seed(rules, f"game:{n}", dealer)
        assert matches_seed(rules, deal, f"game:{n}", dealer)
        assert not matches_seed(rules, deal, f"game:{n + 1}", dealer)
        assert not matches_seed(rules, deal, f"game:{n}", (dealer + 1) % rules.players)
        swapped = list(deal.hands)
        swapped[0], swapped[1] = swapped[1], swapped[0]
        assert not matches_seed(
            rules, Deal(tuple(swapped), deal.kitty, deal.dead), f"game:{n}", dealer
        )
        # Cards within a hand may come in any order.
        shuffled = tuple(tuple(reversed(h)) for h in deal.hands)
        assert matches_seed(rules, Deal(shuffled, deal.kitty, deal.dead), f"game:{n}", dealer)


def test_a_repeated_card_never_matches() -> None:
    rules = Rules.create(4)
    deal = deal_from_seed(rules, "dup", 1)
    hands = list(deal.hands)
    hands[0] = (*hands[0], hands[0][0])
    assert not matches_seed(rules, Deal(tuple(hands), deal.kitty), "dup", 1)
    kitty = (*deal.kitty, deal.kitty[0])
    assert not matches_seed(rules, Deal(deal.hands, kitty), "dup", 1)


def test_seeded_deal_with_a_repeated_card_is_a_bad_deal() -> None:
    from fivehundred.record import verify
    from tests.record.conftest import EXAMPLES, load_json

    record = load_json(EXAMPLES / "four-players-in-progress-seeded.json")
    hand = record["hands"][0]["deal"]["hands"][2]
    hand.append(hand[0])
    first = verify(record).errors[0]
    assert (first.code, first.pointer) == ("bad_deal", "/hands/0/deal/hands/2/10")


def test_rejected_draws_read_on_in_the_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rejections are astronomically rare with real limits; lower them so that about half the
    # draws are rejected, and compare with a direct transcription of section 4.
    import hashlib

    from fivehundred.engine import deal as seeds

    def limits(size: int) -> tuple[int, ...]:
        return tuple(0 if m == 0 else (1 << 63) // m * m for m in range(size + 1))

    monkeypatch.setattr(seeds, "_limits", limits)
    monkeypatch.setattr(
        seeds,
        "_steps",
        lambda size: tuple((i, i + 1, limits(size)[i + 1]) for i in range(size - 1, 0, -1)),
    )
    pack = tuple(c.index for c in Rules.create(4).pack)
    for seed in ("a", "b", "c"):
        stream = []
        k = 0
        while len(stream) < 400:
            block = hashlib.sha256(f"{seed}:{k}".encode()).digest()
            stream += [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
            k += 1
        order, used = list(pack), 0
        for i in range(len(order) - 1, 0, -1):
            r = stream[used]
            used += 1
            while r >= limits(len(pack))[i + 1]:
                r = stream[used]
                used += 1
            j = r % (i + 1)
            order[i], order[j] = order[j], order[i]
        assert seeds.shuffled_indexes(pack, seed) == order
