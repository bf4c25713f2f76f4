"""The ladder's scheduler: least-played first, within the rating window, no pair over-played;
and its sweep, which re-sends work that a dead worker left behind."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from arena.models import BotMatch, BotRating, BotVersion, LadderSettings
from arena.services import ladder_schedule
from tests.arena.test_arena_matches import active_version

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sent(monkeypatch) -> dict[str, list[int]]:
    """Record the tasks the scheduler sends instead of playing them."""
    calls: dict[str, list[int]] = {"versions": [], "matches": []}

    def enqueue(*, version_ids: Any = (), match_ids: Any = ()) -> None:
        calls["versions"] += list(version_ids)
        calls["matches"] += list(match_ids)

    monkeypatch.setattr("arena.services._enqueue", enqueue)
    return calls


def ladder(**fields: Any) -> LadderSettings:
    row, _ = LadderSettings.objects.get_or_create(pk=1)
    for name, value in {"builtins": [], **fields}.items():
        setattr(row, name, value)
    row.save()
    return row


def rate(version: BotVersion, *, ordinal: float, games: int) -> None:
    sigma = 2.0
    BotRating.objects.update_or_create(
        key=version.entrant_key,
        defaults={"version": version, "mu": ordinal + 3 * sigma, "sigma": sigma, "games": games},
    )


def pair(match: BotMatch) -> frozenset[str]:
    return frozenset((match.key_a, match.key_b))


def test_least_played_first_within_the_window(owner, sent) -> None:
    ladder(rating_window=10.0)
    a, b, c, far = (active_version(owner, name) for name in ("a", "b", "c", "far"))
    rate(a, ordinal=0, games=0)
    rate(b, ordinal=2, games=3)
    rate(c, ordinal=4, games=1)
    rate(far, ordinal=40, games=0)
    report = ladder_schedule()
    matches = list(BotMatch.objects.all())
    # a (fewest games) meets c (fewer games than b); far has nobody within 10 points; b is left.
    assert [pair(m) for m in matches] == [frozenset((a.entrant_key, c.entrant_key))]
    assert sent["matches"] == report.created == [matches[0].pk]
    assert matches[0].key_a == a.entrant_key


def test_no_pair_is_over_played(owner, sent) -> None:
    ladder(rating_window=100.0, max_pair_matches=2)
    active_version(owner, "a"), active_version(owner, "b")
    for _ in range(5):
        ladder_schedule()
        BotMatch.objects.update(status="finished")
    assert BotMatch.objects.count() == 2


def test_entrants_with_a_match_in_play_wait(owner, sent) -> None:
    ladder(rating_window=100.0)
    active_version(owner, "a"), active_version(owner, "b")
    assert len(ladder_schedule().created) == 1
    assert ladder_schedule().created == []  # the first match is still queued


def test_many_runs_spread_matches_evenly(owner, rival, sent) -> None:
    ladder(rating_window=100.0, max_pair_matches=3, builtins=["random", "heuristic"])
    versions = [active_version(owner if i % 2 else rival, f"bot{i}") for i in range(4)]
    for _ in range(8):
        for match in BotMatch.objects.filter(status="queued"):
            for key in (match.key_a, match.key_b):
                rating, _ = BotRating.objects.get_or_create(
                    key=key, defaults={"mu": 25, "sigma": 8}
                )
                rating.games += 1
                rating.save()
        BotMatch.objects.update(status="finished")
        ladder_schedule()
    matches = list(BotMatch.objects.all())
    pairs = Counter(pair(m) for m in matches)
    assert max(pairs.values()) <= 3
    # Two built-ins never meet each other; every uploaded bot played, about equally often.
    assert frozenset(("builtin:random", "builtin:heuristic")) not in pairs
    played = Counter(key for m in matches for key in (m.key_a, m.key_b))
    counts = [played[v.entrant_key] for v in versions]
    assert min(counts) >= 1 and max(counts) - min(counts) <= 2, played


def test_a_disabled_ladder_still_sweeps(owner, sent) -> None:
    ladder(enabled=False, claim_timeout_s=60)
    version = active_version(owner, "a")
    old = timezone.now() - timedelta(minutes=5)
    running = BotMatch.objects.create(
        rules={"players": 4}, version_a=version, builtin_b="random", boards=1, seed="s",
        status="running", claimed_at=old, claim_token="dead",
    )  # fmt: skip
    fresh = BotMatch.objects.create(
        rules={"players": 4}, version_a=version, builtin_b="heuristic", boards=1, seed="t",
        status="running", claimed_at=timezone.now(), claim_token="alive",
    )  # fmt: skip
    stuck = BotVersion.objects.create(
        bot=version.bot, number=2, filename="bot.py", code=b"", size=0, sha256="0" * 64,
        status="validating", claimed_at=old,
    )  # fmt: skip
    report = ladder_schedule()
    assert report.created == []
    assert report.requeued_matches == [running.pk] and sent["matches"] == [running.pk]
    assert fresh.pk not in report.requeued_matches
    assert report.requeued_versions == [stuck.pk]


def test_a_match_that_keeps_losing_its_worker_fails_in_the_end(owner, sent) -> None:
    ladder(enabled=False, claim_timeout_s=60)
    match = BotMatch.objects.create(
        rules={"players": 4}, builtin_a="heuristic", builtin_b="random", boards=1, seed="s",
        status="running", claimed_at=timezone.now() - timedelta(hours=1), attempts=5,
    )  # fmt: skip
    ladder_schedule()
    match.refresh_from_db()
    assert match.status == "failed" and "5 attempts" in match.error


def test_bad_ladder_rules_schedule_nothing_and_do_not_crash(owner, sent) -> None:
    ladder(rating_window=100.0, rule_options={"target": -900})
    active_version(owner, "a"), active_version(owner, "b")
    assert ladder_schedule().created == []
    assert not BotMatch.objects.exists()
