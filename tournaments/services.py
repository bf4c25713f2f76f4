"""Writes for players and teams, and for tournaments: entries, rounds, results, ratings."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from fivehundred.engine import EngineError, Rules
from fivehundred.record import verify
from replays.models import StoredRecord
from tournaments.errors import NotAllowed, TournamentError
from tournaments.formats import (
    DEFAULT_TIEBREAKS,
    FormatError,
    parse_tiebreaks,
)
from tournaments.models import (
    Entrant,
    EntrantKind,
    HistoryEvent,
    HistoryKind,
    Match,
    MatchLength,
    MatchOutcome,
    MatchSide,
    MatchStatus,
    Player,
    PlayerRating,
    ResultSubmission,
    Round,
    RoundStatus,
    SubmissionKind,
    SubmissionStatus,
    Team,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)
from tournaments.roles import user_directs
from tournaments.scoresheet import ScoreSheetError, scoresheet_record
from tournaments.selectors import format_id, round_pairings, tournament_is_complete


def player_get_or_create(*, name: str, club: str = "", user: Any = None) -> tuple[Player, bool]:
    """The player with this name (case-insensitive), created if missing."""
    name = name.strip()
    if not name:
        raise ValueError("a player needs a non-empty name")
    existing = Player.objects.filter(name__iexact=name).first()
    if existing is not None:
        return existing, False
    return Player.objects.create(name=name, club=club, user=user), True


@transaction.atomic
def team_get_or_create(*, name: str, members: Sequence[Player]) -> tuple[Team, bool]:
    """The team with this name, created with these members if missing."""
    name = name.strip()
    if not name:
        raise ValueError("a team needs a non-empty name")
    if not 2 <= len(members) <= 3:
        raise ValueError(f"a team has two or three players, not {len(members)}")
    existing = Team.objects.filter(name__iexact=name).first()
    if existing is not None:
        return existing, False
    team = Team.objects.create(name=name)
    team.members.set(members)
    return team, True


# --- Tournaments ---------------------------------------------------------------------------------
#
# Every write to an event goes through the functions below. ``actor`` is the user doing it
# (``None`` for the workers playing bot matches); permission checks live here, not in the views,
# so the API and the pages cannot disagree.

RESERVED_SLUGS = {"new", "ratings"}
BUILTIN_BOTS = ("random", "heuristic")
KNOWN_FORMAT_OPTIONS = {
    TournamentFormat.SINGLE_ELIMINATION: {"third_place", "tiebreaks"},
    TournamentFormat.DOUBLE_ELIMINATION: {"reset", "tiebreaks"},
    TournamentFormat.ROUND_ROBIN: {"cycles", "tiebreaks"},
    TournamentFormat.SWISS: {"rounds", "tiebreaks", "forbidden"},
}


def _history(
    tournament: Tournament,
    actor: Any,
    kind: str,
    message: str,
    *,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> HistoryEvent:
    user = actor if getattr(actor, "is_authenticated", False) else None
    return HistoryEvent.objects.create(
        tournament=tournament, actor=user, kind=kind, message=message, reason=reason,
        data=data or {},
    )  # fmt: skip


def _require_director(tournament: Tournament, actor: Any, what: str) -> None:
    if actor is None:  # the workers
        return
    if not user_directs(actor, tournament):
        raise NotAllowed(f"Only the directors of {tournament.name!r} may {what}.")


def _check_rules(rules: Any) -> dict[str, Any]:
    if not isinstance(rules, dict):
        raise TournamentError("rules", "must be an object like a record's rules")
    try:
        parsed = Rules.from_json({"ruleset": "australian", "options": {}, **rules})
    except EngineError as exc:
        raise TournamentError("rules", str(exc)) from None
    return parsed.to_json()


def _check_format(
    fmt: str, options: Any, rules: dict[str, Any]
) -> tuple[TournamentFormat, dict[str, Any]]:
    try:
        kind = TournamentFormat(fmt)
    except ValueError:
        known = ", ".join(TournamentFormat.values)
        raise TournamentError("format", f"unknown format {fmt!r}; known: {known}") from None
    if not isinstance(options, dict):
        raise TournamentError("format_options", "must be an object")
    unknown = sorted(set(options) - KNOWN_FORMAT_OPTIONS[kind])
    if unknown:
        raise TournamentError(
            f"format_options.{unknown[0]}",
            f"not an option of {kind.label}; known: {', '.join(sorted(KNOWN_FORMAT_OPTIONS[kind]))}",
        )
    out = dict(options)
    if not isinstance(options.get("tiebreaks", []), list):
        raise TournamentError("format_options.tiebreaks", "must be a list of tie-break names")
    try:
        out["tiebreaks"] = [
            t.value for t in parse_tiebreaks(options.get("tiebreaks", DEFAULT_TIEBREAKS))
        ]
    except FormatError as exc:
        raise TournamentError(
            "format_options.tiebreaks", exc.args[0] if exc.args else str(exc)
        ) from None
    sides = len(Rules.from_json(rules).sides)
    if kind in (TournamentFormat.SINGLE_ELIMINATION, TournamentFormat.DOUBLE_ELIMINATION):
        if sides != 2:
            raise TournamentError(
                "format", f"elimination needs two sides per game; these rules have {sides}"
            )
        key = "third_place" if kind is TournamentFormat.SINGLE_ELIMINATION else "reset"
        value = options.get(key, kind is TournamentFormat.DOUBLE_ELIMINATION)
        if not isinstance(value, bool):
            raise TournamentError(f"format_options.{key}", f"must be true or false, got {value!r}")
        out[key] = value
    if kind is TournamentFormat.ROUND_ROBIN:
        cycles = options.get("cycles", 1)
        if cycles not in (1, 2):
            raise TournamentError("format_options.cycles", f"must be 1 or 2, got {cycles!r}")
        out["cycles"] = cycles
    if kind is TournamentFormat.SWISS:
        rounds = options.get("rounds", 3)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 30:
            raise TournamentError("format_options.rounds", f"must be 1 to 30, got {rounds!r}")
        out["rounds"] = rounds
        forbidden = options.get("forbidden", [])
        if not isinstance(forbidden, list) or any(
            not isinstance(p, list) or len(p) != 2 for p in forbidden
        ):
            raise TournamentError(
                "format_options.forbidden", "must be a list of entrant-name pairs"
            )
        out["forbidden"] = forbidden
    return kind, out


def _check_length(length: str, games: Any) -> tuple[MatchLength, int]:
    try:
        kind = MatchLength(length)
    except ValueError:
        known = ", ".join(MatchLength.values)
        raise TournamentError(
            "match_length", f"unknown match length {length!r}; known: {known}"
        ) from None
    if kind is MatchLength.GAME:
        return kind, 1
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= 15:
        raise TournamentError("match_games", f"must be 1 to 15 games, got {games!r}")
    if kind is MatchLength.BEST_OF and games % 2 == 0:
        raise TournamentError("match_games", f"best of N needs an odd N, got {games}")
    return kind, games


def _users(values: Sequence[Any]) -> list[Any]:
    """Users given as accounts or usernames; an unknown username is an error naming it."""
    from django.contrib.auth import get_user_model

    model = get_user_model()
    out = []
    for i, value in enumerate(values):
        if isinstance(value, model):
            out.append(value)
            continue
        user = model.objects.filter(username=str(value).strip()).first()
        if user is None:
            raise TournamentError(f"co_directors[{i}]", f"no account named {value!r}")
        out.append(user)
    return out


def _unique_slug(name: str) -> str:
    base = slugify(name)[:180] or "event"
    slug, n = base, 1
    # Reserved: these words are pages and API paths next to the events' own.
    while slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_create(
    *,
    name: str,
    director: Any,
    format: str = TournamentFormat.SWISS,
    format_options: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    match_length: str = MatchLength.GAME,
    match_games: int = 1,
    is_public: bool = True,
    description: str = "",
    co_directors: Sequence[Any] = (),
) -> Tournament:
    """A new event in registration, directed by ``director`` (and any co-directors)."""
    name = (name or "").strip()
    if not name:
        raise TournamentError("name", "an event needs a name")
    if len(name) > 200:
        raise TournamentError("name", "at most 200 characters")
    if not getattr(director, "is_authenticated", False):
        raise NotAllowed("Sign in to create an event.")
    checked_rules = _check_rules(rules if rules is not None else {"players": 4})
    kind, options = _check_format(format, format_options or {}, checked_rules)
    length, games = _check_length(match_length, match_games)
    tournament = Tournament.objects.create(
        name=name, slug=_unique_slug(name), rules=checked_rules, format=kind,
        format_options=options, match_length=length, match_games=games,
        is_public=bool(is_public), description=description or "",
    )  # fmt: skip
    tournament.directors.add(director, *_users(co_directors))
    _history(tournament, director, HistoryKind.CREATED, f"{director} created the event")
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor: Any, **changes: Any) -> Tournament:
    """Edit an event. Rules, format and match length are fixed once the first round is out."""
    _require_director(tournament, actor, "edit the event")
    fixed = {"rules", "format", "format_options", "match_length", "match_games"}
    allowed = fixed | {"name", "description", "is_public", "co_directors"}
    unknown = sorted(set(changes) - allowed)
    if unknown:
        raise TournamentError(unknown[0], "cannot be edited")
    if tournament.status != TournamentStatus.REGISTRATION:
        touched = sorted(k for k in fixed & set(changes) if changes[k] != getattr(tournament, k))
        if touched:
            raise TournamentError(
                touched[0], "is fixed for the event once the first round has been generated"
            )
    if "name" in changes:
        name = (changes["name"] or "").strip()
        if not name:
            raise TournamentError("name", "an event needs a name")
        tournament.name = name
    if "description" in changes:
        tournament.description = changes["description"] or ""
    if "is_public" in changes:
        tournament.is_public = bool(changes["is_public"])
    if tournament.status == TournamentStatus.REGISTRATION:
        rules = _check_rules(changes.get("rules", tournament.rules))
        kind, options = _check_format(
            changes.get("format", tournament.format),
            changes.get("format_options", tournament.format_options),
            rules,
        )
        length, games = _check_length(
            changes.get("match_length", tournament.match_length),
            changes.get("match_games", tournament.match_games),
        )
        if rules["players"] != tournament.players and tournament.entrants.exists():
            raise TournamentError("rules.players", "entrants are registered for the old game")
        tournament.rules, tournament.format, tournament.format_options = rules, kind, options
        tournament.match_length, tournament.match_games = length, games
    tournament.save()
    if "co_directors" in changes:
        # The co-directors named replace the others; whoever edits stays a director.
        keep = [actor] if getattr(actor, "is_authenticated", False) else []
        tournament.directors.set([*keep, *_users(changes["co_directors"])])
    _history(tournament, actor, HistoryKind.EDITED, f"{actor} edited the event",
             data={"fields": sorted(changes)})  # fmt: skip
    return tournament


def _team_size(tournament: Tournament) -> int:
    """Players per entrant: partnerships in the four- and six-player games, else one."""
    rules = Rules.from_json(tournament.rules)
    return len(rules.sides[0])


def _partnership(members: list[Player], name: str) -> Team:
    """The standing team of exactly these players, created (named ``name``) if they have none.

    Team names are unique across the site while entrant names are per event, so a new team whose
    name is taken by other players gets the players' names added (the entrant keeps ``name``).
    """
    wanted = {p.pk for p in members}
    candidates = Team.objects.filter(members=members[0]).prefetch_related("members")
    for team in candidates:
        if {p.pk for p in team.members.all()} == wanted:
            return team
    label, n = name, 1
    while Team.objects.filter(name__iexact=label).exists():
        n += 1
        label = f"{name} ({' & '.join(p.name for p in members)})" + (f" {n}" if n > 2 else "")
    team = Team.objects.create(name=label[:100])
    team.members.set(members)
    return team


def _bot_parse(value: str) -> tuple[Any, str]:
    """``heuristic`` / ``builtin:<name>``, or an arena bot: ``bot:<id>`` (its active version) or
    ``version:<id>``. Returns ``(version or None, built-in name or "")``."""
    text = value.strip()
    if text.removeprefix("builtin:") in BUILTIN_BOTS:
        return None, text.removeprefix("builtin:")
    from arena.services import ArenaError, entrant_parse

    try:
        parsed = entrant_parse(value=text, field="bot")
    except ArenaError as exc:
        known = ", ".join(BUILTIN_BOTS)
        raise TournamentError(
            "bot", f"unknown bot {value!r} ({exc}); built-in bots: {known}, or bot:<id>"
        ) from None
    return parsed.version, parsed.builtin


@transaction.atomic
def entrant_register(
    *,
    tournament: Tournament,
    actor: Any,
    name: str = "",
    players: Sequence[str] = (),
    bot: str | None = None,
    seed: int | None = None,
    reason: str = "",
) -> Entrant:
    """Enter a side: a partnership (player names), an individual, or a built-in bot.

    Directors enter anyone at any time before the event ends (after the start it is a late entry,
    with a reason, for Swiss events only); during registration a signed-in player may enter
    themselves (their own account must be one of the players).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    directs = actor is None or user_directs(actor, tournament)
    if tournament.status == TournamentStatus.FINISHED:
        raise TournamentError("", "the event is finished", code="event_finished")
    late = tournament.status == TournamentStatus.RUNNING
    if late:
        if not directs:
            raise NotAllowed("Registration is closed; ask a director for a late entry.")
        if tournament.format != TournamentFormat.SWISS:
            raise TournamentError(
                "", f"a {tournament.get_format_display()} event takes no late entries "
                "(its draw is fixed when it starts)", code="late_entry_refused",
            )  # fmt: skip
        if not reason.strip():
            raise TournamentError("reason", "a late entry needs a reason")
    size = _team_size(tournament)
    names = [p.strip() for p in players if p and p.strip()]
    team: Team | None = None
    player: Player | None = None
    version = None
    if bot:
        version, builtin = _bot_parse(bot)
        if names:
            raise TournamentError("players", "a bot entrant has no players")
        owns = version is not None and version.bot.owner_id == getattr(actor, "pk", None)
        if not directs and not owns:
            raise NotAllowed("Only directors enter bots (and owners their own uploaded bots).")
        if version is not None and tournament.entrants.filter(bot_version=version).exists():
            raise TournamentError("bot", f"{version.label} is already entered")
        name = (name or "").strip() or (version.label if version is not None else builtin)
        bot = builtin
        kind = EntrantKind.BOT
    else:
        if len(names) != size:
            raise TournamentError(
                "players", f"this game needs {size} player name(s) per entrant, got {len(names)}"
            )
        if len({n.lower() for n in names}) != len(names):
            raise TournamentError("players", "a player is named twice")
        members = [player_get_or_create(name=n)[0] for n in names]
        if not directs:
            mine = (
                getattr(actor, "player", None)
                if getattr(actor, "is_authenticated", False)
                else None
            )
            if mine is None and getattr(actor, "is_authenticated", False):
                mine = Player.objects.filter(user=actor).first()
            if mine is None or mine not in members:
                raise NotAllowed("You may register only yourself; ask a director to enter others.")
        if size == 1:
            player = members[0]
            name = (name or "").strip() or player.name
        else:
            name = (name or "").strip() or " & ".join(names)
            team = _partnership(members, name)
        kind = EntrantKind.HUMAN
        taken = {
            p.pk for e in tournament.entrants.filter(withdrawn=False) for p in e.member_players()
        }
        clash = [p.name for p in members if p.pk in taken]
        if clash:
            raise TournamentError("players", f"already entered in this event: {', '.join(clash)}")
    if len(name) > 100:
        raise TournamentError("name", "at most 100 characters")
    if tournament.entrants.filter(name__iexact=name).exists():
        raise TournamentError("name", f"an entrant called {name!r} is already registered")
    used = set(tournament.entrants.values_list("seed", flat=True))
    if seed is None:
        seed = max(used, default=0) + 1
    elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 1:
        raise TournamentError("seed", f"must be a whole number from 1, got {seed!r}")
    elif seed in used:
        raise TournamentError("seed", f"seed {seed} is already taken")
    entrant = Entrant.objects.create(
        tournament=tournament, name=name, kind=kind, player=player, team=team,
        bot_name=bot or "", bot_version=version, seed=seed, late=late,
    )  # fmt: skip
    _history(
        tournament, actor, HistoryKind.LATE_ENTRY if late else HistoryKind.ENTRY,
        f"{entrant.name} entered (seed {seed})" + (" late" if late else ""), reason=reason,
        data={"entrant": entrant.pk},
    )  # fmt: skip
    return entrant


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, actor: Any, reason: str) -> Entrant:
    """Withdraw an entrant; their results stand, and their unplayed tables are forfeited."""
    tournament = entrant.tournament
    _require_director(tournament, actor, "withdraw entrants")
    if not reason.strip():
        raise TournamentError("reason", "a withdrawal needs a reason")
    if entrant.withdrawn:
        raise TournamentError("entrant", f"{entrant.name} has already withdrawn")
    if tournament.status == TournamentStatus.REGISTRATION:
        # Before the start nothing has been played: the entry simply goes.
        _history(tournament, actor, HistoryKind.WITHDRAWAL, f"{entrant.name} withdrew before the start",
                 reason=reason)  # fmt: skip
        entrant.delete()
        return entrant
    entrant.withdrawn = True
    entrant.save(update_fields=["withdrawn"])
    _history(tournament, actor, HistoryKind.WITHDRAWAL, f"{entrant.name} withdrew", reason=reason,
             data={"entrant": entrant.pk})  # fmt: skip
    open_matches = Match.objects.filter(
        sides__entrant=entrant, status__in=[MatchStatus.PENDING, MatchStatus.SUBMITTED]
    )
    for match in open_matches:
        _forfeit(match, actor, [entrant], f"withdrawal: {reason}")
    return entrant


# --- Rounds --------------------------------------------------------------------------------------


def named(text: str, names: dict[str, str]) -> str:
    """A format's reason with entrant ids (``e12``) replaced by the entrants' names."""
    return re.sub(r"\be\d+\b", lambda m: names.get(m.group(0), m.group(0)), text)


def _bots_only(tournament: Tournament) -> bool:
    kinds = set(tournament.entrants.filter(withdrawn=False).values_list("kind", flat=True))
    return kinds == {EntrantKind.BOT}


@transaction.atomic
def round_generate(*, tournament: Tournament, actor: Any) -> Round:
    """Pair the next round with the event's format and seat it at numbered tables.

    The first round closes registration and fixes the draw. Tables whose entrants are all bots
    are played by the workers, sent once this transaction commits.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(tournament, actor, "generate rounds")
    if tournament.status == TournamentStatus.FINISHED:
        raise TournamentError("", "the event is finished", code="event_finished")
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != RoundStatus.COMPLETE:
        waiting = last.matches.exclude(status=MatchStatus.DONE).count()
        raise TournamentError(
            "round", f"round {last.number} is not complete: {waiting} table(s) still to finish",
            code="round_incomplete",
        )  # fmt: skip
    number = 1 if last is None else last.number + 1
    if tournament.status == TournamentStatus.REGISTRATION:
        active = list(tournament.entrants.filter(withdrawn=False).order_by("seed"))
        sides = len(Rules.from_json(tournament.rules).sides)
        if len(active) < max(2, sides):
            raise TournamentError(
                "entrants", f"{len(active)} entrant(s) registered; at least {max(2, sides)} needed",
                code="too_few_entrants",
            )  # fmt: skip
        tournament.format_state = {"field": [[e.pk, e.seed, e.name] for e in active]}
        tournament.status = TournamentStatus.RUNNING
        tournament.started_at = timezone.now()
        tournament.save(update_fields=["format_state", "status", "started_at"])
    pairings = round_pairings(tournament=tournament, number=number)
    if not pairings:
        raise TournamentError("round", "every round has been played; finish the event",
                              code="event_complete")  # fmt: skip
    rnd = Round.objects.create(tournament=tournament, number=number)
    entrants = {format_id(e.pk): e for e in tournament.entrants.all()}
    names = {key: e.name for key, e in entrants.items()}
    bot_matches: list[int] = []
    for p in pairings:
        match = Match.objects.create(
            tournament=tournament, round=rnd, table=p.table, bracket_match=p.match or "",
            reason=named(p.reason, names),
        )  # fmt: skip
        seated = [entrants[e] for e in p.present]
        MatchSide.objects.bulk_create(
            MatchSide(match=match, position=i, entrant=e) for i, e in enumerate(seated)
        )
        if p.bye:
            _finish(match, None, outcome=MatchOutcome.BYE, points=[0], winners=[0],
                    check_round=False)  # fmt: skip
            continue
        gone = [e for e in seated if e.withdrawn]
        if gone:
            _forfeit(match, None, gone, "withdrawn before the round was paired", check_round=False)
        elif all(e.is_bot for e in seated):
            match.status = MatchStatus.PLAYING
            match.sent_at = timezone.now()
            match.save(update_fields=["status", "sent_at"])
            bot_matches.append(match.pk)
    _history(tournament, actor, HistoryKind.ROUND, f"round {number} paired",
             data={"pairings": [{"table": p.table, "entrants": [entrants[e].name for e in p.present],
                                 "reason": named(p.reason, names)} for p in pairings]})  # fmt: skip
    _round_check(rnd)
    if bot_matches:
        from tournaments.tasks import tournament_match_play

        for pk in bot_matches:
            transaction.on_commit(partial(tournament_match_play.delay, pk))
    return rnd


@transaction.atomic
def pairing_override(
    *, round: Round, actor: Any, first: Entrant, second: Entrant, reason: str
) -> Round:
    """Swap two entrants' places in an unplayed round (a director's manual pairing)."""
    tournament = round.tournament
    _require_director(tournament, actor, "change pairings")
    if not reason.strip():
        raise TournamentError("reason", "a pairing override needs a reason")
    if tournament.is_elimination:
        raise TournamentError("round", "an elimination bracket's pairings follow the draw",
                              code="override_refused")  # fmt: skip
    if first.pk == second.pk:
        raise TournamentError("second", "choose two different entrants")
    sides = {
        s.entrant_id: s
        for s in MatchSide.objects.filter(match__round=round).select_related("match")
    }
    for who, label in ((first, "first"), (second, "second")):
        side = sides.get(who.pk)
        if side is None:
            raise TournamentError(label, f"{who.name} is not in round {round.number}")
        if side.match.status != MatchStatus.PENDING or side.match.is_bye:
            raise TournamentError(label, f"{who.name}'s table is already played or is a bye")
    a, b = sides[first.pk], sides[second.pk]
    if a.match_id == b.match_id:
        raise TournamentError("second", "both entrants are at the same table")
    a_entrant, b_entrant = a.entrant_id, b.entrant_id
    # Through a placeholder-free swap: delete and re-create keeps the unique constraints happy.
    a_pos, b_pos, a_match, b_match = a.position, b.position, a.match, b.match
    a.delete()
    b.delete()
    MatchSide.objects.create(match=a_match, position=a_pos, entrant_id=b_entrant)
    MatchSide.objects.create(match=b_match, position=b_pos, entrant_id=a_entrant)
    for m in (a_match, b_match):
        m.reason = f"manual pairing by the director: {reason}"
        m.save(update_fields=["reason"])
    _history(tournament, actor, HistoryKind.PAIRING_OVERRIDE,
             f"round {round.number}: {first.name} (table {a_match.table}) and {second.name} "
             f"(table {b_match.table}) swapped", reason=reason)  # fmt: skip
    return round


def _round_check(rnd: Round) -> None:
    """Mark a round complete when all its tables are done; bot events then carry on by themselves.

    The event's row is locked first: two workers finishing the last two tables of a round at the
    same moment are serialised here, so the second sees the first's result and exactly one of
    them pairs the next round.
    """
    Tournament.objects.select_for_update().filter(pk=rnd.tournament_id).first()
    if rnd.matches.exclude(status=MatchStatus.DONE).exists():
        return
    if rnd.status != RoundStatus.COMPLETE:
        rnd.status = RoundStatus.COMPLETE
        rnd.save(update_fields=["status"])
    tournament = rnd.tournament
    if not _bots_only(tournament) or tournament.status != TournamentStatus.RUNNING:
        return
    if tournament.rounds.filter(number__gt=rnd.number).exists():
        return
    if tournament_is_complete(tournament=tournament):
        tournament_finish(tournament=tournament, actor=None)
    else:
        round_generate(tournament=tournament, actor=None)


@transaction.atomic
def tournament_finish(*, tournament: Tournament, actor: Any) -> Tournament:
    """Close a complete event; its standings are final."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_director(tournament, actor, "finish the event")
    if tournament.status == TournamentStatus.FINISHED:
        return tournament
    if not tournament_is_complete(tournament=tournament):
        raise TournamentError("", "rounds remain to be played", code="event_not_complete")
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    _history(tournament, actor, HistoryKind.FINISHED, "the event finished")
    return tournament


# --- Results -------------------------------------------------------------------------------------


def _seat_objects(tournament: Tournament, match: Match) -> list[dict[str, Any]]:
    """Who sits in each seat of a game at this table: side ``position`` holds the rules' side."""
    rules = Rules.from_json(tournament.rules)
    sides = {
        s.position: s.entrant
        for s in match.sides.select_related("entrant__player", "entrant__team")
    }
    seats: list[dict[str, Any]] = []
    for seat in range(rules.players):
        side = rules.side_of(seat)
        entrant = sides[side]
        if entrant.is_bot:
            seats.append({"name": entrant.name, "id": f"bot:{entrant.bot_name}", "kind": "bot"})
            continue
        members = entrant.member_players()
        k = rules.sides[side].index(seat)
        if k < len(members):
            seats.append({"name": members[k].name, "id": members[k].record_id, "kind": "human"})
        else:
            seats.append({"name": entrant.name, "kind": "human"})
    return seats


def _event(tournament: Tournament, match: Match, game: int) -> dict[str, str]:
    return {
        "name": tournament.name, "tournament": tournament.slug,
        "round": str(match.round.number), "table": str(match.table), "match": str(game + 1),
    }  # fmt: skip


def _side_positions(match: Match, rules: Rules, record: dict[str, Any], i: int) -> list[int]:
    """Which table position holds each side of a game's record.

    Taken from the record's seat ids (``player:<pk>``, a bot's id) when they name the people at
    this table, so an uploaded game in which the partnerships sat the other way round is counted
    for the right entrants; a record without such ids is read in the round sheet's seat order.
    """
    n = len(rules.sides)
    known: dict[str, int] = {}
    for side in match.sides.select_related("entrant__bot_version"):
        if side.entrant.is_bot:
            known[_bot_seat(side.entrant)["id"]] = side.position
        for p in side.entrant.member_players():
            known[p.record_id] = side.position
    seats = record.get("seats") or []
    found: list[set[int]] = [set() for _ in range(n)]
    for seat, obj in enumerate(seats):
        seat_id = str(obj.get("id", "")) if isinstance(obj, dict) else ""
        if not seat_id:
            continue
        if seat_id in known:
            found[rules.side_of(seat)].add(known[seat_id])
        elif Player.pk_from_record_id(seat_id) is not None:
            raise TournamentError(
                f"games[{i}].record.seats[{seat}]",
                f"{obj.get('name', seat_id)} ({seat_id}) is not at this table",
                code="wrong_table",
            )
    if not any(found):
        return list(range(n))
    holder = [next(iter(f)) if len(f) == 1 else -1 for f in found]
    if sorted(holder) != list(range(n)):
        raise TournamentError(
            f"games[{i}].record.seats",
            "the seats do not match this table: each side must hold one entrant's players",
            code="wrong_table",
        )
    return holder


def _tally(
    tournament: Tournament, match: Match, records: list[dict[str, Any]]
) -> tuple[str, list[int], list[int]]:
    """Outcome, points per side and winning sides of a match from its games' records."""
    n = match.sides.count()
    length, games = tournament.match_length, tournament.match_games
    if length == MatchLength.GAME and len(records) != 1:
        raise TournamentError("games", f"a match is one game; {len(records)} were given")
    if length == MatchLength.BOARDS and len(records) != games:
        raise TournamentError("games", f"a match is {games} boards; {len(records)} were given")
    if length == MatchLength.BEST_OF and not 1 <= len(records) <= games:
        raise TournamentError(
            "games", f"a match is best of {games}; {len(records)} games were given"
        )
    points, wins = [0] * n, [0] * n
    rules = Rules.from_json(tournament.rules)
    for i, rec in enumerate(records):
        result = rec.get("result") or {}
        if "scores" not in result:
            raise TournamentError(f"games[{i}]", "the game has not ended (no result)")
        holder = _side_positions(match, rules, rec, i)
        for side, v in enumerate(result["scores"][:n]):
            points[holder[side]] += int(v)
        winner = result.get("winner")
        for w in winner if isinstance(winner, list) else [winner]:
            if isinstance(w, int) and 0 <= w < n:
                wins[holder[w]] += 1
    if length == MatchLength.BOARDS:
        key = points
    else:
        key = wins
        if length == MatchLength.BEST_OF and max(wins) <= games // 2 and len(records) < games:
            raise TournamentError(
                "games", f"best of {games}: nobody has won {games // 2 + 1} games yet"
            )
    top = max(key)
    winners = [s for s in range(n) if key[s] == top]
    if len(winners) == n:
        if tournament.is_elimination:
            raise TournamentError(
                "games", "an elimination match needs a winner; the games are level"
            )
        return MatchOutcome.DRAW, points, []
    return MatchOutcome.WIN, points, winners


def _user_sides(match: Match, user: Any) -> set[int]:
    """The side positions at this table where ``user`` plays."""
    if not getattr(user, "is_authenticated", False):
        return set()
    out = set()
    for side in match.sides.select_related("entrant"):
        if any(p.user_id == user.pk for p in side.entrant.member_players()):
            out.add(side.position)
    return out


def _verify(records: list[dict[str, Any]]) -> None:
    """Every game must verify and be finished before anything is counted or stored."""
    for i, rec in enumerate(records):
        verdict = verify(rec)
        if not verdict.valid:
            details = [
                {"pointer": f"/games/{i}/record{e.pointer}", "code": str(e.code), "message": str(e.message)}
                for e in verdict.errors
            ]  # fmt: skip
            first = verdict.errors[0]
            raise TournamentError(
                f"games[{i}]", f"the record does not verify: {first.message} (at {first.pointer or '/'})",
                code="record_invalid", details=details,
            )  # fmt: skip
        if verdict.status != "complete":
            raise TournamentError(f"games[{i}]", "the game has not ended: a result needs whole games",
                                  code="game_unfinished")  # fmt: skip


def _ingest(records: list[dict[str, Any]], actor: Any) -> list[StoredRecord]:
    from replays.services import RecordInvalid, record_ingest

    stored = []
    for i, rec in enumerate(records):
        try:
            stored.append(record_ingest(data=rec, uploaded_by=actor)[0])
        except RecordInvalid as invalid:
            details = [
                {**e.to_json(), "pointer": f"/games/{i}/record{e.pointer}"} for e in invalid.errors
            ]
            first = invalid.errors[0] if invalid.errors else None
            raise TournamentError(
                f"games[{i}]", f"the record does not verify: {first.message if first else 'invalid'}",
                code="record_invalid", details=details,
            ) from None  # fmt: skip
    return stored


def _records_from_games(
    tournament: Tournament, match: Match, games: Sequence[Any]
) -> tuple[str, list[dict[str, Any]]]:
    if not isinstance(games, (list, tuple)) or not games:
        raise TournamentError("games", "give the match's games: each a score sheet or a record")
    rules = Rules.from_json(tournament.rules)
    seats = _seat_objects(tournament, match)
    kinds, records = set(), []
    for i, game in enumerate(games):
        if not isinstance(game, dict):
            raise TournamentError(f"games[{i}]", "must be an object with hands or record")
        if "record" in game:
            rec = game["record"]
            if not isinstance(rec, dict) or not isinstance(rec.get("rules"), dict):
                raise TournamentError(f"games[{i}].record", "must be a record object with rules")
            try:
                rec_rules = Rules.from_json(rec["rules"])
            except (EngineError, TypeError, ValueError) as exc:
                raise TournamentError(f"games[{i}].record.rules", str(exc)) from None
            if rec_rules != rules and rec_rules.to_json() != rules.to_json():
                raise TournamentError(
                    f"games[{i}].record.rules", "the game was not played under the event's rules"
                )
            kinds.add(SubmissionKind.RECORD)
            records.append(rec)
        elif "hands" in game:
            try:
                rec = scoresheet_record(
                    rules=tournament.rules, seats=seats, hands=game["hands"],
                    first_dealer=game.get("first_dealer", 0), event=_event(tournament, match, i),
                )  # fmt: skip
            except ScoreSheetError as exc:
                raise TournamentError(
                    f"games[{i}].{exc.where}", exc.message, code="bad_score_sheet"
                ) from None
            kinds.add(SubmissionKind.SCORE_SHEET)
            records.append(rec)
        else:
            raise TournamentError(
                f"games[{i}]", "needs hands (a score sheet) or record (an upload)"
            )
    kind = SubmissionKind.RECORD if kinds == {SubmissionKind.RECORD} else SubmissionKind.SCORE_SHEET
    return kind, records


@transaction.atomic
def match_result_submit(*, match: Match, actor: Any, games: Sequence[Any]) -> ResultSubmission:
    """Enter a table's result: its games as score sheets (hands) or full records.

    Each game becomes a verified stored record. A director's result is confirmed at once; a
    player's waits for a director or a player of another side at the table to confirm it.
    """
    match = Match.objects.select_for_update().select_related("tournament", "round").get(pk=match.pk)
    tournament = match.tournament
    directs = user_directs(actor, tournament)
    if not directs and not _user_sides(match, actor):
        raise NotAllowed("Only a director or a player at this table may enter its result.")
    if tournament.status != TournamentStatus.RUNNING:
        raise TournamentError(
            "", f"the event is {tournament.status}, not running", code="event_not_running"
        )
    if match.status == MatchStatus.DONE:
        raise TournamentError("match", "this table's result is confirmed; a director may correct it",
                              code="already_confirmed")  # fmt: skip
    if match.is_bye or match.status == MatchStatus.PLAYING:
        raise TournamentError("match", "this table is not played by people", code="not_human_table")
    kind, records = _records_from_games(tournament, match, games)
    _verify(records)
    outcome, points, winners = _tally(tournament, match, records)
    stored = _ingest(records, actor)
    match.submissions.filter(status=SubmissionStatus.PENDING).update(
        status=SubmissionStatus.SUPERSEDED
    )
    submission = ResultSubmission.objects.create(
        match=match, kind=kind, data={"games": list(games)}, points=points, winners=winners,
        outcome=outcome, submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
    )  # fmt: skip
    submission.records.set(stored)
    match.status = MatchStatus.SUBMITTED
    match.save(update_fields=["status"])
    if directs:
        match_result_confirm(submission=submission, actor=actor)
        submission.refresh_from_db()
    return submission


@transaction.atomic
def match_result_confirm(*, submission: ResultSubmission, actor: Any) -> Match:
    """Confirm a submitted result: a director, or a player of another side at the table."""
    match = (
        Match.objects.select_for_update()
        .select_related("tournament", "round")
        .get(pk=submission.match_id)
    )
    tournament = match.tournament
    if actor is not None and not user_directs(actor, tournament):
        submitter_sides = _user_sides(match, submission.submitted_by)
        mine = _user_sides(match, actor)
        if not mine:
            raise NotAllowed("Only a director or a player at this table may confirm its result.")
        if mine <= submitter_sides:
            raise NotAllowed("A player of another side (or a director) must confirm this result.")
    if submission.status != SubmissionStatus.PENDING:
        raise TournamentError(
            "submission", f"this submission is {submission.status}", code="not_pending"
        )
    if match.status == MatchStatus.DONE:
        raise TournamentError(
            "match", "this table's result is already confirmed", code="already_confirmed"
        )
    submission.status = SubmissionStatus.CONFIRMED
    submission.save(update_fields=["status"])
    match.records.set(submission.records.all())
    _finish(
        match,
        actor,
        outcome=submission.outcome,
        points=submission.points,
        winners=submission.winners,
    )
    return match


def _finish(
    match: Match,
    actor: Any,
    *,
    outcome: str,
    points: Sequence[int],
    winners: Sequence[int],
    check_round: bool = True,
) -> None:
    """Store a match's confirmed result, rate it, and see whether its round is complete.

    ``check_round`` is off while a round is being created: its later tables do not exist yet, so
    the round must not be judged complete (``round_generate`` checks it once at the end).
    """
    for side in match.sides.all():
        side.points = points[side.position] if side.position < len(points) else 0
        side.is_winner = side.position in winners
        side.save(update_fields=["points", "is_winner"])
    match.outcome = outcome
    match.status = MatchStatus.DONE
    match.confirmed_by = actor if getattr(actor, "is_authenticated", False) else None
    match.confirmed_at = timezone.now()
    match.save(update_fields=["outcome", "status", "confirmed_by", "confirmed_at"])
    if outcome != MatchOutcome.BYE:
        names = {s.position: s.entrant.name for s in match.sides.select_related("entrant")}
        text = (
            "draw" if outcome == MatchOutcome.DRAW
            else f"{' & '.join(names[w] for w in winners)} won" + (" by forfeit" if outcome == MatchOutcome.FORFEIT else "")
        )  # fmt: skip
        _history(match.tournament, actor, HistoryKind.RESULT,
                 f"round {match.round.number} table {match.table}: {text} ({', '.join(map(str, points))})",
                 data={"match": match.pk})  # fmt: skip
        rating_apply(match=match)
    if check_round:
        _round_check(match.round)


def _forfeit(
    match: Match, actor: Any, absent: Sequence[Entrant], reason: str, *, check_round: bool = True
) -> None:
    sides = list(match.sides.all())
    gone = {e.pk for e in absent}
    winners = [s.position for s in sides if s.entrant_id not in gone]
    if not winners:
        # Nobody came: in a bracket someone must go through, and the draw favours the top seed.
        best = min(sides, key=lambda s: s.entrant.seed)
        winners = [best.position]
    match.submissions.filter(status=SubmissionStatus.PENDING).update(
        status=SubmissionStatus.SUPERSEDED
    )
    ResultSubmission.objects.create(
        match=match, kind=SubmissionKind.FORFEIT, status=SubmissionStatus.CONFIRMED,
        data={"absent": sorted(gone), "reason": reason}, points=[0] * len(sides), winners=winners,
        outcome=MatchOutcome.FORFEIT, submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
    )  # fmt: skip
    _history(match.tournament, actor, HistoryKind.FORFEIT,
             f"round {match.round.number} table {match.table}: {', '.join(e.name for e in absent)} forfeited",
             reason=reason, data={"match": match.pk})  # fmt: skip
    _finish(
        match, actor, outcome=MatchOutcome.FORFEIT, points=[0] * len(sides), winners=winners,
        check_round=check_round,
    )  # fmt: skip


@transaction.atomic
def match_forfeit(*, match: Match, actor: Any, absent: Sequence[Entrant], reason: str) -> Match:
    """A no-show: the absent entrants lose the table by forfeit."""
    match = Match.objects.select_for_update().select_related("tournament", "round").get(pk=match.pk)
    _require_director(match.tournament, actor, "record forfeits")
    if not reason.strip():
        raise TournamentError("reason", "a forfeit needs a reason")
    if match.status == MatchStatus.DONE:
        raise TournamentError("match", "this table's result is confirmed; correct it instead",
                              code="already_confirmed")  # fmt: skip
    seated = {s.entrant_id for s in match.sides.all()}
    if not absent or any(e.pk not in seated for e in absent):
        raise TournamentError("absent", "name the entrant(s) at this table who did not come")
    if len(set(e.pk for e in absent)) == len(seated):
        raise TournamentError("absent", "at least one entrant at the table must have come")
    _forfeit(match, actor, absent, reason)
    return match


@transaction.atomic
def result_correct(*, match: Match, actor: Any, games: Sequence[Any], reason: str) -> Match:
    """Replace a confirmed result with corrected games (a director's correction, with a reason)."""
    match = Match.objects.select_for_update().select_related("tournament", "round").get(pk=match.pk)
    tournament = match.tournament
    _require_director(tournament, actor, "correct results")
    if not reason.strip():
        raise TournamentError("reason", "a correction needs a reason")
    if match.status != MatchStatus.DONE or match.is_bye:
        raise TournamentError(
            "match", "only a confirmed result can be corrected", code="not_confirmed"
        )
    if (
        tournament.is_elimination
        and tournament.rounds.filter(number__gt=match.round.number).exists()
    ):
        raise TournamentError("match", "the bracket has moved on from this match; it can no longer change",
                              code="correction_refused")  # fmt: skip
    before = [
        (s.entrant.name, s.points, s.is_winner) for s in match.sides.select_related("entrant")
    ]
    kind, records = _records_from_games(tournament, match, games)
    _verify(records)
    outcome, points, winners = _tally(tournament, match, records)
    stored = _ingest(records, actor)
    match.submissions.filter(status=SubmissionStatus.CONFIRMED).update(
        status=SubmissionStatus.SUPERSEDED
    )
    submission = ResultSubmission.objects.create(
        match=match, kind=kind, status=SubmissionStatus.CONFIRMED, data={"games": list(games)},
        points=points, winners=winners, outcome=outcome, submitted_by=actor,
    )  # fmt: skip
    submission.records.set(stored)
    match.records.set(stored)
    for side in match.sides.all():
        side.points, side.is_winner = points[side.position], side.position in winners
        side.save(update_fields=["points", "is_winner"])
    match.outcome = outcome
    match.confirmed_by, match.confirmed_at = actor, timezone.now()
    match.save(update_fields=["outcome", "confirmed_by", "confirmed_at"])
    _history(tournament, actor, HistoryKind.CORRECTION,
             f"round {match.round.number} table {match.table}: result corrected to "
             f"{', '.join(map(str, points))}", reason=reason,
             data={"match": match.pk, "before": before})  # fmt: skip
    rating_recompute()
    return match


# --- Bot matches ---------------------------------------------------------------------------------


def _bot_seat(entrant: Entrant) -> dict[str, Any]:
    version = entrant.bot_version
    if version is not None:
        return {"name": entrant.name, "id": f"bot:{version.bot_id}@{version.number}", "kind": "bot"}
    return {"name": entrant.name, "id": f"bot:{entrant.bot_name}", "kind": "bot"}


def _bot_factory(entrant: Entrant, stack: ExitStack) -> Any:
    """A seat-player factory: built-ins in process, uploaded versions in the arena's sandbox."""
    from fivehundred.bots.players import InProcessPlayer, SandboxPlayer

    version = entrant.bot_version
    if version is None:
        name = entrant.bot_name
        return lambda seat, seed: InProcessPlayer.builtin(name, seed)
    from arena.services import sandbox_limits
    from fivehundred.bots.sandbox import stage_code

    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fivehundred-entrant-")))
    path = folder / Path(version.filename).name
    path.write_bytes(bytes(version.code))
    code = stage_code(path, entry=version.entry or None)
    stack.callback(code.remove)
    limits, label = sandbox_limits(), entrant.name
    return lambda seat, seed: SandboxPlayer.uploaded(code, name=label, limits=limits)


def match_bot_play(*, match_id: int) -> dict[str, Any]:
    """Play a table of bots (built-in, or uploaded in the sandbox) and confirm its result.

    Safe to run twice: a table already done is left alone.

    Each board is played in every seat rotation (a duplicate match), with seeds named after the
    event, round and table, so a repeated run plays the same games. Best of N stops once an
    entrant has won a majority of the boards. The match goes to more boards won (best of N), then
    the higher total score, then more games won, then the higher seed.
    """
    from fivehundred.bots.match import play_match
    from fivehundred.bots.sandbox import BotCodeError

    # Claim the table with a conditional update, so a duplicated task does not play it again;
    # a claim older than the task time limit belongs to a worker that died and may be taken over.
    now = timezone.now()
    claimable = Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - _claim_timeout())
    claimed = Match.objects.filter(claimable, pk=match_id, status=MatchStatus.PLAYING).update(
        claimed_at=now
    )
    if not claimed:
        return {"match": match_id, "played": False}
    match = Match.objects.select_related("tournament", "round").get(pk=match_id)
    tournament = match.tournament
    sides = list(match.sides.select_related("entrant__bot_version__bot"))
    rules = Rules.from_json(tournament.rules)
    seat_objects = [_bot_seat(s.entrant) for s in sides]
    boards = [
        f"{tournament.slug}/round-{match.round.number}/table-{match.table}/board-{b + 1}"
        for b in range(tournament.match_games)
    ]
    n = len(sides)
    # Best of N boards stops once an entrant has won a majority of them (a board goes to the
    # higher total over its seat rotations); the other lengths play every board.
    need = tournament.match_games // 2 + 1 if tournament.match_length == MatchLength.BEST_OF else 0
    games: list[Any] = []
    totals_f, wins, board_wins = [0.0] * n, [0] * n, [0] * n
    fault_entrant: int | None = None
    played: list[str] = []
    try:
        with ExitStack() as stack:
            players = [(s.entrant.name, _bot_factory(s.entrant, stack)) for s in sides]
            for number, board in enumerate(boards, start=1):
                outcome = play_match(
                    players, rules=rules, boards=[board], seat_objects=seat_objects,
                    event={"name": tournament.name, "tournament": tournament.slug,
                           "table": str(match.table),
                           "match": f"round {match.round.number}, board {number}"},
                )  # fmt: skip
                games.extend(outcome.games)
                played.append(board)
                for i in range(n):
                    totals_f[i] += outcome.totals[i]
                    wins[i] += outcome.wins[i]
                if outcome.fault is not None and outcome.fault_entrant is not None:
                    fault_entrant = outcome.fault_entrant
                    break
                best = max(outcome.totals)
                tops = [i for i in range(n) if outcome.totals[i] == best]
                if len(tops) == 1:
                    board_wins[tops[0]] += 1
                if need and max(board_wins) >= need:
                    break
    except BotCodeError as exc:
        # An uploaded version whose code no longer unpacks: its entrant forfeits the table.
        bad = next(s.entrant for s in sides if s.entrant.bot_version_id is not None)
        with transaction.atomic():
            locked = Match.objects.select_for_update().select_related("tournament", "round")
            again = locked.get(pk=match_id)
            if again.status == MatchStatus.DONE:
                return {"match": match_id, "played": False}
            _forfeit(again, None, [bad], f"the bot's code could not be run: {exc}")
        return {"match": match_id, "played": False, "forfeit": bad.pk}
    totals = [round(t) for t in totals_f]
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("tournament", "round").get(pk=match_id)
        )
        if match.status == MatchStatus.DONE:
            return {"match": match_id, "played": False}
        stored = _ingest([g.record for g in games], None)
        if fault_entrant is not None:
            winners = [i for i in range(n) if i != fault_entrant]
            result = MatchOutcome.FORFEIT
        else:
            merit = [(board_wins[i] if need else 0, totals[i], wins[i]) for i in range(n)]
            if len(set(merit)) == 1 and not match.tournament.is_elimination:
                # Level on every count (two copies of one bot on duplicate boards often are):
                # a draw, as at a club table. Only elimination needs someone to go through.
                winners, result = [], MatchOutcome.DRAW
            else:
                ranked = sorted(
                    range(n), key=lambda i: (*(-m for m in merit[i]), sides[i].entrant.seed)
                )
                winners, result = [ranked[0]], MatchOutcome.WIN
        submission = ResultSubmission.objects.create(
            match=match, kind=SubmissionKind.BOT, status=SubmissionStatus.CONFIRMED,
            data={"boards": played, "totals": totals_f, "wins": wins, "board_wins": board_wins},
            points=totals,
            winners=winners, outcome=result,
        )  # fmt: skip
        submission.records.set(stored)
        match.records.set(stored)
        _finish(match, None, outcome=result, points=totals, winners=winners)
    return {
        "match": match_id,
        "played": True,
        "records": [r.pk for r in stored],
        "winners": winners,
    }


def _claim_timeout() -> timedelta:
    from django.conf import settings

    return timedelta(seconds=int(settings.CELERY_TASK_TIME_LIMIT) + 60)


def bot_tables_sweep(*, older_than: timedelta | None = None) -> list[int]:
    """Send again the tables of bots still playing long after they were sent.

    A task is killed at the time limit, and a worker may die or lose its sandbox; the table then
    stays ``playing``. Any table sent, and not claimed, within the time limit (plus a minute) is
    sent again; the new task takes over the stale claim.
    """
    from tournaments.tasks import tournament_match_play

    limit = older_than or _claim_timeout()
    now = timezone.now()
    stale = Match.objects.filter(status=MatchStatus.PLAYING, sent_at__lt=now - limit).filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - limit)
    )
    ids = list(stale.values_list("pk", flat=True))
    if ids:
        Match.objects.filter(pk__in=ids).update(sent_at=now)
        for pk in ids:
            transaction.on_commit(partial(tournament_match_play.delay, pk))
    return ids


# --- Ratings -------------------------------------------------------------------------------------


def _rating_model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def rating_apply(*, match: Match) -> None:
    """Update the OpenSkill ratings of the people at a played table (bots are not rated)."""
    if match.outcome not in (MatchOutcome.WIN, MatchOutcome.DRAW):
        return
    sides = list(match.sides.select_related("entrant").order_by("position"))
    teams = [s.entrant.member_players() for s in sides]
    if any(s.entrant.is_bot for s in sides) or any(not t for t in teams):
        return
    model = _rating_model()
    rows = {
        p.pk: PlayerRating.objects.filter(player=p).first() or PlayerRating(player=p, mu=model.mu, sigma=model.sigma)
        for t in teams for p in t
    }  # fmt: skip
    rated = [[model.rating(mu=rows[p.pk].mu, sigma=rows[p.pk].sigma) for p in t] for t in teams]
    ranks = [1 if (s.is_winner or match.outcome == MatchOutcome.DRAW) else 2 for s in sides]
    new = model.rate(rated, ranks=ranks)
    for team, ratings in zip(teams, new, strict=True):
        for p, r in zip(team, ratings, strict=True):
            row = rows[p.pk]
            row.mu, row.sigma, row.matches = r.mu, r.sigma, row.matches + 1
            row.save()


@transaction.atomic
def rating_recompute() -> int:
    """Rebuild every rating from the confirmed results in the order they were confirmed."""
    PlayerRating.objects.all().delete()
    matches = Match.objects.filter(
        status=MatchStatus.DONE, outcome__in=[MatchOutcome.WIN, MatchOutcome.DRAW]
    ).order_by("confirmed_at", "id")
    count = 0
    for match in matches:
        rating_apply(match=match)
        count += 1
    return count
