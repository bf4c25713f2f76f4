"""Services of the tournaments app: events, entries, rounds, results, director tools, ratings."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from tournament_support import FAST_RULES, club_event, make_user, sheet_win

from fivehundred.record import verify
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import (
    HistoryEvent,
    Match,
    MatchStatus,
    PlayerRating,
    RoundStatus,
    SubmissionStatus,
    TournamentStatus,
)
from tournaments.selectors import bracket_get, standings_compute
from tournaments.services import (
    entrant_register,
    entrant_withdraw,
    match_forfeit,
    match_result_confirm,
    match_result_submit,
    pairing_override,
    rating_recompute,
    result_correct,
    round_generate,
    tournament_create,
    tournament_finish,
)

pytestmark = pytest.mark.django_db


def _play_round(t: Any, director: User, rnd: Any) -> None:
    """Enter every table of a round: seat 0's side wins."""
    for match in rnd.matches.exclude(status=MatchStatus.DONE):
        match_result_submit(match=match, actor=director, games=sheet_win(0))


def test_create_validates_rules_format_and_length(director: User) -> None:
    with pytest.raises(TournamentError) as bad_rules:
        tournament_create(name="X", director=director, rules={"players": 9})
    assert bad_rules.value.where == "rules"
    with pytest.raises(TournamentError) as bad_format:
        tournament_create(name="X", director=director, format="ladder")
    assert "unknown format 'ladder'" in str(bad_format.value)
    with pytest.raises(TournamentError) as bad_tb:
        tournament_create(name="X", director=director, format_options={"tiebreaks": ["luck"]})
    assert bad_tb.value.where == "format_options.tiebreaks"
    with pytest.raises(TournamentError) as three_elim:
        tournament_create(
            name="X", director=director, format="single_elimination", rules={"players": 3}
        )
    assert "two sides" in three_elim.value.message
    with pytest.raises(TournamentError) as even:
        tournament_create(name="X", director=director, match_length="best_of", match_games=2)
    assert even.value.where == "match_games"
    t = tournament_create(name="Tuesday night", director=director, rules=FAST_RULES)
    assert t.slug == "tuesday-night" and t.status == TournamentStatus.REGISTRATION
    assert list(t.directors.all()) == [director]
    assert t.format_options["tiebreaks"] == ["buchholz", "sonneborn_berger", "points_difference"]


def test_registration_rules(director: User) -> None:
    t = club_event(director, teams=0)
    with pytest.raises(TournamentError, match="needs 2 player name"):
        entrant_register(tournament=t, actor=director, players=["Solo"])
    a = entrant_register(tournament=t, actor=director, players=["Ann", "Bea"])
    assert (
        a.name == "Ann & Bea"
        and a.seed == 1
        and {p.name for p in a.member_players()}
        == {
            "Ann",
            "Bea",
        }
    )
    with pytest.raises(TournamentError, match="already entered"):
        entrant_register(tournament=t, actor=director, name="Other", players=["Ann", "Cy"])
    # A player registers themselves, but nobody else.
    pat = make_user("pat")
    mine = entrant_register(tournament=t, actor=pat, players=["Pat", "Quinn"])
    assert mine.seed == 2
    with pytest.raises(NotAllowed):
        entrant_register(tournament=t, actor=pat, players=["Rae", "Sol"])
    with pytest.raises(NotAllowed):
        entrant_register(tournament=t, actor=pat, bot="random")
    with pytest.raises(TournamentError, match="unknown bot"):
        entrant_register(tournament=t, actor=director, bot="genius")


def test_swiss_event_from_first_round_to_finish(director: User) -> None:
    t = club_event(director, teams=5, rounds=3)
    r1 = round_generate(tournament=t, actor=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    tables = list(r1.matches.order_by("table"))
    assert [m.table for m in tables] == [0, 1, 2]  # five teams: a bye and two tables
    assert tables[0].status == MatchStatus.DONE and tables[0].outcome == "bye"
    assert all(m.reason for m in tables)
    with pytest.raises(TournamentError) as early:
        round_generate(tournament=t, actor=director)
    assert early.value.code == "round_incomplete"
    _play_round(t, director, r1)
    r1.refresh_from_db()
    assert r1.status == RoundStatus.COMPLETE
    for _ in range(2):
        _play_round(t, director, round_generate(tournament=t, actor=director))
    with pytest.raises(TournamentError) as over:
        round_generate(tournament=t, actor=director)
    assert over.value.code == "event_complete"
    tournament_finish(tournament=t, actor=director)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    rows = standings_compute(tournament=t)
    assert len(rows) == 5 and rows[0].standing.rank == 1
    assert [tb for tb, _ in rows[0].standing.tiebreaks] == [
        "buchholz",
        "sonneborn_berger",
        "points_difference",
    ]
    # Every played table has a verified record of summary hands.
    for match in Match.objects.filter(tournament=t).exclude(outcome="bye"):
        (record,) = match.records.all()
        assert verify(record.data).valid
        assert "actions" not in record.data["hands"][0]


def test_score_sheet_becomes_a_verified_record(director: User) -> None:
    t = club_event(director, teams=2, rules={"players": 4})
    rnd = round_generate(tournament=t, actor=director)
    match = rnd.matches.get()
    hands = [
        # side 1 makes 8H (300); the defenders score 10 a trick
        {"contract": "8H", "contractor": 1, "tricks": [2, 8]},
        {"contract": "7S", "contractor": 2, "tricks": [5, 5]},  # side 0 fails 7S: -140, +50
        {"contract": "", "tricks": []},  # thrown in
        {"contract": "MIS", "contractor": 3, "tricks": [10, 0]},  # side 1 makes misère: 250
    ]
    sub = match_result_submit(
        match=match, actor=director, games=[{"first_dealer": 3, "hands": hands}]
    )
    assert sub.status == SubmissionStatus.CONFIRMED
    (record,) = sub.records.all()
    data = record.data
    assert [h["dealer"] for h in data["hands"]] == [3, 0, 1, 2]
    assert [h["result"]["totals"] for h in data["hands"]] == [
        [20, 300],
        [-120, 350],
        [-120, 350],
        [-120, 600],
    ]
    assert data["result"] == {"scores": [-120, 600], "winner": 1, "reason": "contract"}
    verdict = verify(data)
    assert verdict.valid and verdict.scores == [-120, 600]
    assert data["seats"][0]["id"].startswith("player:")
    match.refresh_from_db()
    sides = list(match.sides.order_by("position"))
    assert [s.points for s in sides] == [-120, 600] and sides[1].is_winner


def test_bad_score_sheets_are_refused_with_where(director: User) -> None:
    t = club_event(director, teams=2)
    match = round_generate(tournament=t, actor=director).matches.get()
    cases = [
        (
            [{"hands": [{"contract": "7Q", "contractor": 0, "tricks": [7, 3]}]}],
            "games[0].hands[0].contract",
        ),
        (
            [{"hands": [{"contract": "7H", "contractor": 0, "tricks": [7, 4]}]}],
            "games[0].hands[0].tricks",
        ),
        (
            [{"hands": [{"contract": "7H", "contractor": 9, "tricks": [7, 3]}]}],
            "games[0].hands[0].contractor",
        ),
        ([{"hands": [{"contract": "7H", "contractor": 0, "tricks": [7, 3]}]}], "games[0].hands"),
        ([{"nothing": 1}], "games[0]"),
        ([], "games"),
    ]
    for games, where in cases:
        with pytest.raises(TournamentError) as err:
            match_result_submit(match=match, actor=director, games=games)
        assert err.value.where == where, (games, err.value)
    assert match.submissions.count() == 0


def test_uploaded_record_must_verify(director: User, make_record: Any = None) -> None:
    from fivehundred.record.play import play_game

    t = tournament_create(name="Uploads", director=director, rules={"players": 4})
    for i in range(2):
        entrant_register(tournament=t, actor=director, players=[f"U{i}a", f"U{i}b"])
    match = round_generate(tournament=t, actor=director).matches.get()
    record = play_game(players=4, seed="upload-1", bots=["random"] * 4)
    broken = {**record, "result": {**record["result"], "scores": [1, 2]}}
    with pytest.raises(TournamentError) as err:
        match_result_submit(match=match, actor=director, games=[{"record": broken}])
    assert err.value.code == "record_invalid"
    assert err.value.details[0]["pointer"].startswith("/games/0/record/result")
    sub = match_result_submit(match=match, actor=director, games=[{"record": record}])
    winner = record["result"]["winner"]
    assert sub.winners == [winner] and sub.points == record["result"]["scores"]


def test_players_submit_and_the_other_side_confirms(director: User) -> None:
    t = tournament_create(name="Pairs", director=director, rules=FAST_RULES)
    ann, bob, oz = make_user("ann"), make_user("bob"), make_user("oz")
    entrant_register(tournament=t, actor=ann, players=["Ann", "Al"])
    entrant_register(tournament=t, actor=bob, players=["Bob", "Bo"])
    match = round_generate(tournament=t, actor=director).matches.get()
    with pytest.raises(NotAllowed):
        match_result_submit(match=match, actor=oz, games=sheet_win(0))
    sub = match_result_submit(match=match, actor=ann, games=sheet_win(0))
    assert sub.status == SubmissionStatus.PENDING
    match.refresh_from_db()
    assert match.status == MatchStatus.SUBMITTED
    with pytest.raises(NotAllowed, match="another side"):
        match_result_confirm(submission=sub, actor=ann)
    match_result_confirm(submission=sub, actor=bob)
    match.refresh_from_db()
    assert match.status == MatchStatus.DONE and match.confirmed_by == bob
    assert PlayerRating.objects.count() == 4
    ann_rating = PlayerRating.objects.get(player__name="Ann")
    bob_rating = PlayerRating.objects.get(player__name="Bob")
    assert ann_rating.mu > 25 > bob_rating.mu and ann_rating.matches == 1


def test_only_directors_use_director_tools(director: User) -> None:
    t = club_event(director, teams=4)
    outsider = make_user("zed")
    with pytest.raises(NotAllowed):
        round_generate(tournament=t, actor=outsider)
    rnd = round_generate(tournament=t, actor=director)
    match = rnd.matches.first()
    assert match is not None
    for call in (
        lambda: match_forfeit(
            match=match, actor=outsider, absent=[match.sides.first().entrant], reason="x"
        ),
        lambda: entrant_withdraw(entrant=t.entrants.first(), actor=outsider, reason="x"),
        lambda: tournament_finish(tournament=t, actor=outsider),
    ):
        with pytest.raises(NotAllowed):
            call()


def test_forfeit_withdrawal_override_correction_and_history(director: User) -> None:
    t = club_event(director, teams=6, rounds=3)
    rnd = round_generate(tournament=t, actor=director)
    m1, m2, m3 = rnd.matches.order_by("table")
    a = m1.sides.get(position=0).entrant
    b = m2.sides.get(position=1).entrant
    with pytest.raises(TournamentError, match="reason"):
        pairing_override(round=rnd, actor=director, first=a, second=b, reason="")
    pairing_override(
        round=rnd, actor=director, first=a, second=b, reason="family asked to sit apart"
    )
    assert m1.sides.get(position=0).entrant == b and m2.sides.get(position=1).entrant == a
    absent = m3.sides.get(position=1).entrant
    match_forfeit(match=m3, actor=director, absent=[absent], reason="did not arrive by 7:30")
    m3.refresh_from_db()
    assert m3.outcome == "forfeit" and m3.sides.get(position=0).is_winner
    match_result_submit(match=m1, actor=director, games=sheet_win(0))
    match_result_submit(match=m2, actor=director, games=sheet_win(0))
    result_correct(match=m1, actor=director, games=sheet_win(1), reason="sheet was swapped")
    m1.refresh_from_db()
    assert m1.sides.get(position=1).is_winner and not m1.sides.get(position=0).is_winner
    quitter = m2.sides.get(position=0).entrant
    entrant_withdraw(entrant=quitter, actor=director, reason="unwell")
    late = entrant_register(
        tournament=t, actor=director, players=["Late", "Comer"], reason="arrived after round 1"
    )
    assert late.late
    r2 = round_generate(tournament=t, actor=director)
    playing = {side.entrant_id for m in r2.matches.all() for side in m.sides.all()}
    assert quitter.pk not in playing and late.pk in playing
    kinds = list(HistoryEvent.objects.filter(tournament=t).values_list("kind", flat=True))
    for kind in ("pairing_override", "forfeit", "correction", "withdrawal", "late_entry"):
        assert kind in kinds
    override = HistoryEvent.objects.get(tournament=t, kind="pairing_override")
    assert override.actor == director and override.reason == "family asked to sit apart"


def test_single_elimination_advances_and_finishes(director: User) -> None:
    t = club_event(director, fmt="single_elimination", teams=6, third_place=True)
    r1 = round_generate(tournament=t, actor=director)
    assert sorted(m.bracket_match for m in r1.matches.all()) == ["R1-2", "R1-4"]
    # Reasons name the entrants (seeds 4 v 5 and 3 v 6), not internal ids.
    reasons = sorted(m.reason for m in r1.matches.all())
    assert reasons == ["R1-2 (round 1): Team D v Team E", "R1-4 (round 1): Team C v Team F"]
    rounds = 1
    while True:
        rnd = t.rounds.order_by("-number").first()
        _play_round(t, director, rnd)
        try:
            round_generate(tournament=t, actor=director)
            rounds += 1
        except TournamentError as exc:
            assert exc.code == "event_complete"
            break
    assert rounds == 3  # quarter-finals, semi-finals, final and third place
    tournament_finish(tournament=t, actor=director)
    t.refresh_from_db()
    found = bracket_get(tournament=t)
    assert found is not None and found[1].champion is not None and found[1].third is not None


def test_rating_recompute_matches_incremental(director: User) -> None:
    t = club_event(director, teams=4, rounds=2)
    for _ in range(2):
        _play_round(t, director, round_generate(tournament=t, actor=director))
    before = {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.matches)
        for r in PlayerRating.objects.all()
    }
    assert len(before) == 8
    assert rating_recompute() == 4
    after = {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.matches)
        for r in PlayerRating.objects.all()
    }
    assert after == before


def test_ratings_recompute_command(director: User) -> None:
    import io

    from django.core.management import call_command

    t = club_event(director, teams=2)
    match = round_generate(tournament=t, actor=director).matches.get()
    match_result_submit(match=match, actor=director, games=sheet_win(1))
    PlayerRating.objects.all().delete()
    out = io.StringIO()
    call_command("ratings_recompute", stdout=out)
    assert out.getvalue().strip() == "rated 1 results"
    assert PlayerRating.objects.count() == 4


def test_three_player_individual_swiss(director: User) -> None:
    t = tournament_create(
        name="Threes", director=director, format="swiss", format_options={"rounds": 2},
        rules={"players": 3, "options": {"target": 250}},
    )  # fmt: skip
    with pytest.raises(TournamentError, match="needs 1 player name"):
        entrant_register(tournament=t, actor=director, players=["A", "B"])
    for i in range(7):
        entrant_register(tournament=t, actor=director, players=[f"Solo {i}"])
    for _ in range(2):
        rnd = round_generate(tournament=t, actor=director)
        tables = list(rnd.matches.order_by("table"))
        assert [m.sides.count() for m in tables] == [1, 3, 3]  # a bye and two tables of three
        for match in tables[1:]:
            # Seat 2 makes 10 no trumps alone against the other two.
            sheet = [{"hands": [{"contract": "10NT", "contractor": 2, "tricks": [0, 0, 10]}]}]
            sub = match_result_submit(match=match, actor=director, games=sheet)
            assert sub.winners == [2] and sub.points[2] == 520
    rows = standings_compute(tournament=t)
    assert len(rows) == 7 and sum(r.standing.byes for r in rows) == 2
    assert max(r.standing.byes for r in rows) == 1


def test_best_of_three_needs_two_wins(director: User) -> None:
    t = tournament_create(name="Bo3", director=director, rules=FAST_RULES,
                          match_length="best_of", match_games=3)  # fmt: skip
    for i in range(2):
        entrant_register(tournament=t, actor=director, players=[f"B{i}a", f"B{i}b"])
    match = round_generate(tournament=t, actor=director).matches.get()
    with pytest.raises(TournamentError, match="nobody has won 2 games yet"):
        match_result_submit(match=match, actor=director, games=sheet_win(0))
    games = sheet_win(0) + sheet_win(1) + sheet_win(0)
    sub = match_result_submit(match=match, actor=director, games=games)
    assert sub.outcome == "win" and sub.winners == [0] and sub.records.count() == 3
    assert sub.points == [520 * 2, 520]


def test_boards_are_totalled_and_may_draw(director: User) -> None:
    t = tournament_create(name="Boards", director=director, rules=FAST_RULES,
                          match_length="boards", match_games=2)  # fmt: skip
    for i in range(2):
        entrant_register(tournament=t, actor=director, players=[f"D{i}a", f"D{i}b"])
    match = round_generate(tournament=t, actor=director).matches.get()
    with pytest.raises(TournamentError, match="a match is 2 boards; 1 were given"):
        match_result_submit(match=match, actor=director, games=sheet_win(0))
    sub = match_result_submit(match=match, actor=director, games=sheet_win(0) + sheet_win(1))
    assert sub.outcome == "draw" and sub.points == [520, 520]
    rows = standings_compute(tournament=t)
    assert [r.standing.draws for r in rows] == [1, 1] and [r.standing.points for r in rows] == [
        1,
        1,
    ]


def test_swiss_keeps_forbidden_pairs_apart(director: User) -> None:
    free = club_event(director, teams=4, rounds=2)
    first = round_generate(tournament=free, actor=director)
    met = {frozenset(s.entrant.name for s in m.sides.all()) for m in first.matches.all()}
    assert frozenset({"Team A", "Team C"}) in met  # top half meets bottom half: 1 v 3
    with pytest.raises(TournamentError) as bad:
        tournament_create(name="F", director=director, format_options={"forbidden": [["x"]]})
    assert bad.value.where == "format_options.forbidden"
    kept = tournament_create(
        name="Apart", director=director, rules=FAST_RULES,
        format_options={"rounds": 2, "forbidden": [["Team A", "Team C"]]},
    )  # fmt: skip
    for i in range(4):
        entrant_register(tournament=kept, actor=director, name=f"Team {chr(65 + i)}",
                         players=[f"F{i}a", f"F{i}b"])  # fmt: skip
    rnd = round_generate(tournament=kept, actor=director)
    met = {frozenset(s.entrant.name for s in m.sides.all()) for m in rnd.matches.all()}
    assert frozenset({"Team A", "Team C"}) not in met


def test_a_forfeit_while_pairing_does_not_close_the_round_early(director: User) -> None:
    from tournaments.selectors import format_id, round_pairings

    t = club_event(director, fmt="round_robin", teams=5)
    _play_round(t, director, round_generate(tournament=t, actor=director))
    t.refresh_from_db()
    upcoming = round_pairings(tournament=t, number=2)
    first_table = next(p for p in upcoming if p.table == 1)
    quitter = next(e for e in t.entrants.all() if format_id(e.pk) == first_table.entrants[0])
    entrant_withdraw(entrant=quitter, actor=director, reason="went home")
    r2 = round_generate(tournament=t, actor=director)
    r2.refresh_from_db()
    tables = {m.table: m for m in r2.matches.all()}
    assert tables[1].outcome == "forfeit" and tables[2].status == MatchStatus.PENDING
    assert r2.status == RoundStatus.PLAYING
    assert t.rounds.count() == 2


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"rules": {"players": 4, "options": []}}, "rules"),
        ({"rules": {"players": "4"}}, "rules"),
        ({"rules": ["players", 4]}, "rules"),
        ({"format_options": {"tiebreaks": 5}}, "format_options.tiebreaks"),
        ({"format_options": {"tiebreaks": "buchholz"}}, "format_options.tiebreaks"),
        ({"format_options": {"rounds": True}}, "format_options.rounds"),
        ({"format_options": {"pairing": "random"}}, "format_options.pairing"),
        ({"format": "round_robin", "format_options": {"cycles": [1]}}, "format_options.cycles"),
        ({"format": "single_elimination", "format_options": {"third_place": "yes"}},
         "format_options.third_place"),
        ({"match_length": "forever"}, "match_length"),
        ({"match_length": "boards", "match_games": 0}, "match_games"),
        ({"name": "  "}, "name"),
    ],
)  # fmt: skip
def test_create_refuses_bad_settings_naming_them(
    director: User, fields: dict[str, Any], where: str
) -> None:
    with pytest.raises(TournamentError) as err:
        tournament_create(**{"name": "X", "director": director, **fields})
    assert err.value.where == where


def test_uploaded_record_counts_for_the_people_in_its_seats(director: User) -> None:
    from fivehundred.record.play import play_game

    t = tournament_create(name="Swapped", director=director, rules={"players": 4})
    for i in range(2):
        entrant_register(tournament=t, actor=director, players=[f"S{i}a", f"S{i}b"])
    match = round_generate(tournament=t, actor=director).matches.get()
    pos0, pos1 = (s.entrant.member_players() for s in match.sides.order_by("position"))
    record = play_game(players=4, seed="swapped-seats", bots=["random"] * 4)
    # The table's second partnership sat in seats 0 and 2: record side 0 is position 1.
    seating = [pos1[0], pos0[0], pos1[1], pos0[1]]
    record["seats"] = [{"name": p.name, "id": p.record_id, "kind": "human"} for p in seating]
    scores = record["result"]["scores"]
    sub = match_result_submit(match=match, actor=director, games=[{"record": record}])
    assert sub.points == [scores[1], scores[0]]
    assert sub.winners == [1 - record["result"]["winner"]]
    stranger = entrant_register(tournament=t, actor=director, players=["Zed", "Zoe"], reason="x")
    other = tournament_create(name="Other", director=director, rules={"players": 4})
    for i in range(2):
        entrant_register(tournament=other, actor=director, players=[f"O{i}a", f"O{i}b"])
    other_match = round_generate(tournament=other, actor=director).matches.get()
    intruder = record | {"seats": [*record["seats"][:3], {
        "name": "Zed", "id": stranger.member_players()[0].record_id}]}  # fmt: skip
    with pytest.raises(TournamentError) as err:
        match_result_submit(match=other_match, actor=director, games=[{"record": intruder}])
    assert err.value.code == "wrong_table" and err.value.where == "games[0].record.seats[0]"


def test_brackets_refuse_manual_pairings(director: User) -> None:
    t = club_event(director, fmt="single_elimination", teams=4)
    rnd = round_generate(tournament=t, actor=director)
    a, b = (m.sides.first().entrant for m in rnd.matches.all())
    with pytest.raises(TournamentError) as err:
        pairing_override(round=rnd, actor=director, first=a, second=b, reason="friends")
    assert err.value.code == "override_refused"
