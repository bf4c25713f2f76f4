"""Matches: played once however often the task runs, stored verified, rated in order."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from arena.models import Bot, BotMatch, BotMatchGame, BotRating, BotVersion, MatchStatus
from arena.services import (
    Entrant,
    _claim_match,
    _match_finish,
    bot_match_create,
    bot_match_play,
    ladder_settings_get,
    rating_recompute,
)
from fivehundred.bots.match import play_match
from fivehundred.bots.players import InProcessPlayer
from fivehundred.engine import Rules
from fivehundred.record import verify
from replays.models import StoredRecord
from tests.arena.conftest import CRASHING_BOT, GOOD_BOT

pytestmark = pytest.mark.django_db(transaction=True)


def active_version(owner, name: str, code: bytes = GOOD_BOT) -> BotVersion:
    """An active version without running validation (the upload tests cover that)."""
    bot = Bot.objects.create(owner=owner, name=name)
    return BotVersion.objects.create(
        bot=bot,
        number=1,
        filename="bot.py",
        code=code,
        size=len(code),
        sha256=hashlib.sha256(code).hexdigest(),
        status="active",
    )


def test_a_match_plays_every_board_twice_and_stores_verified_records(owner) -> None:
    version = active_version(owner, "good")
    match = bot_match_create(a=Entrant(version=version), b=Entrant(builtin="random"), boards=2)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.error
    games = list(match.games.select_related("record"))
    assert [(g.board, g.round) for g in games] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    for game in games:
        assert verify(game.record.data).valid
        assert game.record.is_public
    # Duplicate boards: the two plays of a board hold the same deals, seats swapped.
    first, second = games[0].record.data, games[1].record.data
    assert first["hands"][0]["deal"] == second["hands"][0]["deal"]
    assert first["seats"][0]["name"] == second["seats"][1]["name"]
    assert match.winner in ("a", "b", "")
    assert match.difference == match.totals[0] - match.totals[1]
    assert match.attempts == 1 and match.rated_seq == 1


def test_running_the_task_again_plays_nothing(owner) -> None:
    version = active_version(owner, "good")
    match = bot_match_create(a=Entrant(version=version), b=Entrant(builtin="random"), boards=1)
    records = StoredRecord.objects.count()
    assert bot_match_play(match_id=match.pk, worker="again") is None
    assert bot_match_play(match_id=match.pk, worker="and again") is None
    match.refresh_from_db()
    assert match.attempts == 1
    assert StoredRecord.objects.count() == records
    assert BotMatchGame.objects.filter(match=match).count() == 2


def test_a_match_running_on_a_live_worker_is_not_claimed_twice(owner, monkeypatch) -> None:
    monkeypatch.setattr("arena.services._enqueue", lambda **kwargs: None)
    match = bot_match_create(a=Entrant(builtin="heuristic"), b=Entrant(builtin="random"), boards=1)
    stale = timezone.now() - timedelta(seconds=ladder_settings_get().claim_timeout_s)
    assert _claim_match(match_id=match.pk, worker="w1", stale=stale) is not None
    assert bot_match_play(match_id=match.pk, worker="w2") is None
    match.refresh_from_db()
    assert (match.status, match.claimed_by, match.attempts) == ("running", "w1", 1)


def test_a_match_abandoned_by_a_dead_worker_is_replayed_once(owner, monkeypatch) -> None:
    monkeypatch.setattr("arena.services._enqueue", lambda **kwargs: None)
    match = bot_match_create(a=Entrant(builtin="heuristic"), b=Entrant(builtin="random"), boards=2)
    stale = timezone.now() - timedelta(seconds=ladder_settings_get().claim_timeout_s)
    dead_token = _claim_match(match_id=match.pk, worker="dead", stale=stale)
    assert dead_token is not None
    # The dead worker's claim grows old; the next worker takes the match over and plays it all.
    BotMatch.objects.filter(pk=match.pk).update(claimed_at=timezone.now() - timedelta(hours=1))
    played = bot_match_play(match_id=match.pk, worker="alive")
    assert played is not None and played.status == "finished" and played.attempts == 2
    digests = set(played.games.values_list("record__digest", flat=True))
    assert len(digests) == 4
    # The "dead" worker was only slow: when it finishes, its games are dropped, nothing doubles.
    rules = Rules.create(4)
    outcome = play_match(
        [
            (n, lambda s, seed, n=n: InProcessPlayer.builtin(n, seed))
            for n in ("heuristic", "random")
        ],
        rules=rules,
        boards=played.board_seeds(),
    )
    assert _match_finish(match_id=match.pk, token=dead_token, outcome=outcome) is None
    assert BotMatchGame.objects.filter(match=match).count() == 4
    assert BotRating.objects.get(key="builtin:heuristic").games == 1


def test_replaying_a_match_from_scratch_gives_the_same_records(owner, monkeypatch) -> None:
    monkeypatch.setattr("arena.services._enqueue", lambda **kwargs: None)
    version = active_version(owner, "good")
    match = bot_match_create(a=Entrant(version=version), b=Entrant(builtin="random"), boards=1)
    bot_match_play(match_id=match.pk, worker="first")
    before = list(match.games.order_by("index").values_list("record__digest", flat=True))
    # Play it again from scratch as a re-claim would (same seeds): identical digests.
    BotMatchGame.objects.filter(match=match).delete()
    BotMatch.objects.filter(pk=match.pk).update(
        status="running", claimed_at=timezone.now() - timedelta(hours=1), rated_seq=None
    )
    bot_match_play(match_id=match.pk, worker="second")
    after = list(match.games.order_by("index").values_list("record__digest", flat=True))
    assert before == after


def test_a_faulting_bot_forfeits_the_match(owner) -> None:
    version = active_version(owner, "crashy", CRASHING_BOT)
    match = bot_match_create(a=Entrant(builtin="random"), b=Entrant(version=version), boards=2)
    match.refresh_from_db()
    assert match.status == "finished"
    assert (match.fault_entrant, match.winner) == ("b", "a")
    assert match.fault["kind"] == "crash"
    assert "this bot always fails" in match.fault["stderr_tail"]
    last = match.games.order_by("-index").first().record.data
    assert last["termination"]["reason"] == "crash" and verify(last).valid
    rating = BotRating.objects.get(key=version.entrant_key)
    assert (rating.games, rating.losses) == (1, 1)


def test_ratings_follow_match_order_and_recompute_to_the_same_values(owner, rival) -> None:
    good = active_version(owner, "good")
    other = active_version(rival, "other")
    entrants = [Entrant(version=good), Entrant(version=other), Entrant(builtin="heuristic")]
    for a, b in [(0, 2), (1, 2), (0, 1), (2, 0), (1, 0)]:
        # Fixed deals: which bot wins each board is then the same in every run.
        match = bot_match_create(a=entrants[a], b=entrants[b], boards=1, seed=f"order/{a}-{b}")
        match.refresh_from_db()
        assert match.status == "finished", match.error
    seqs = list(BotMatch.objects.order_by("id").values_list("rated_seq", flat=True))
    assert seqs == [1, 2, 3, 4, 5]
    before = {
        r.key: (r.mu, r.sigma, r.games, r.wins, r.losses, r.draws) for r in BotRating.objects.all()
    }
    assert before["builtin:heuristic"][2] == 3
    # Scramble them, then rebuild from the stored matches: exactly the same numbers.
    BotRating.objects.update(mu=1.0, sigma=1.0, games=99)
    assert rating_recompute() == 5
    after = {
        r.key: (r.mu, r.sigma, r.games, r.wins, r.losses, r.draws) for r in BotRating.objects.all()
    }
    assert after == before
    # Heuristic beats bots that pass every bid and play their first card.
    heuristic = BotRating.objects.get(key="builtin:heuristic")
    assert (
        heuristic.wins == 3
        and heuristic.ordinal > BotRating.objects.get(key=good.entrant_key).ordinal
    )


def test_order_matters_for_ratings(owner) -> None:
    """The same results in another order give other ratings: the order is part of the record."""
    from arena.services import _MODEL, _rating_apply

    matches = [
        BotMatch(builtin_a="random", builtin_b="heuristic", winner=w) for w in ("a", "b", "b")
    ]

    def run(order):
        ratings = {
            key: BotRating(key=key, mu=_MODEL.mu, sigma=_MODEL.sigma)
            for key in ("builtin:random", "builtin:heuristic")
        }
        for match in order:
            _rating_apply(ratings, match)
        return ratings["builtin:random"].mu

    assert run(matches) != run(list(reversed(matches)))


def test_unrated_challenges_leave_ratings_alone(owner) -> None:
    version = active_version(owner, "good")
    match = bot_match_create(
        a=Entrant(version=version),
        b=Entrant(builtin="random"),
        boards=1,
        rated=False,
        kind="challenge",
    )
    match.refresh_from_db()
    assert match.status == "finished" and match.rated_seq is None
    assert not BotRating.objects.filter(key=version.entrant_key, games__gt=0).exists()


def test_the_tasks_go_to_the_bots_queue_and_a_repeated_task_plays_once(owner, monkeypatch) -> None:
    from arena.tasks import bot_match_play_task
    from fivehundred.celery import app

    for name in ("bots.bot_match_play", "bots.bot_version_validate", "bots.ladder_schedule"):
        assert name in app.tasks
        assert app.amqp.router.route({}, name)["queue"].name == "bots"
    assert app.conf.beat_schedule["arena-ladder-every-minute"]["task"] == "bots.ladder_schedule"

    monkeypatch.setattr("arena.services._enqueue", lambda **kwargs: None)
    match = bot_match_create(a=Entrant(builtin="heuristic"), b=Entrant(builtin="random"), boards=1)
    first = bot_match_play_task.apply(args=[match.pk]).get()
    second = bot_match_play_task.apply(args=[match.pk]).get()
    assert first["played"] is True and first["status"] == "finished"
    assert second == {"match": match.pk, "played": False}
    assert BotMatchGame.objects.filter(match=match).count() == 2


def test_a_three_player_match_rotates_the_seats_through_every_position(owner) -> None:
    version = active_version(owner, "good")
    match = bot_match_create(
        a=Entrant(version=version), b=Entrant(builtin="heuristic"), boards=1,
        rules={"players": 3},
    )  # fmt: skip
    match.refresh_from_db()
    assert match.status == "finished", match.error
    games = [g.record.data for g in match.games.select_related("record").order_by("index")]
    assert len(games) == 3
    # The uploaded bot holds one seat against heuristic in the other two, in each position once.
    positions = [
        [i for i, seat in enumerate(game["seats"]) if "good" in seat["name"]] for game in games
    ]
    assert sorted(p[0] for p in positions) == [0, 1, 2] and all(len(p) == 1 for p in positions)
    # The same board each time: the same cards dealt.
    assert all(game["hands"][0]["deal"] == games[0]["hands"][0]["deal"] for game in games)


def test_the_ladder_runs_end_to_end_with_eager_tasks(owner, rival) -> None:
    from arena.models import LadderSettings
    from arena.services import ladder_schedule

    LadderSettings.objects.update_or_create(
        pk=1, defaults={"rating_window": 100.0, "boards": 1, "max_pair_matches": 1}
    )
    active_version(owner, "one"), active_version(rival, "two")
    for _ in range(4):
        ladder_schedule()
    matches = list(BotMatch.objects.all())
    assert matches and all(m.status == "finished" for m in matches)
    pairs = [frozenset((m.key_a, m.key_b)) for m in matches]
    assert len(pairs) == len(set(pairs))  # max_pair_matches = 1
    assert sorted(BotMatch.objects.values_list("rated_seq", flat=True)) == list(
        range(1, len(matches) + 1)
    )
    assert BotRating.objects.filter(games__gt=0).count() == 4
