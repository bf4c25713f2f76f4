"""Players, teams (partnerships) and tournaments: the people side of the platform."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower

RECORD_ID_PREFIX = "player:"


class Player(models.Model):
    """A person or club member who plays; optionally tied to a site account.

    Records name seats with free text; a record links a seat to a player with the seat id
    ``player:<id>`` (see ``Player.record_id``).
    """

    name = models.CharField(max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The site account of this player, if they have one.",
    )
    club = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def record_id(self) -> str:
        """The seat id that links a record's seat to this player."""
        return f"{RECORD_ID_PREFIX}{self.pk}"

    @staticmethod
    def pk_from_record_id(seat_id: str) -> int | None:
        """The primary key named by a seat id ``player:<pk>``, or ``None`` for any other id."""
        number = seat_id.removeprefix(RECORD_ID_PREFIX)
        # The length bound keeps the number inside a 64-bit key column.
        if number == seat_id or not number.isdigit() or len(number) > 18:
            return None
        return int(number)


class Team(models.Model):
    """A standing partnership (two players in the four-player game, two or three with six)."""

    name = models.CharField(max_length=100)
    members = models.ManyToManyField(Player, related_name="teams")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="team_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentFormat(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination", "single elimination"
    DOUBLE_ELIMINATION = "double_elimination", "double elimination"
    ROUND_ROBIN = "round_robin", "round robin"
    SWISS = "swiss", "Swiss"


class MatchLength(models.TextChoices):
    GAME = "game", "one game to the target"
    BEST_OF = "best_of", "best of N games"
    BOARDS = "boards", "a fixed number of boards"


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", "registration"
    RUNNING = "running", "running"
    FINISHED = "finished", "finished"


def default_rules() -> dict[str, object]:
    return {"ruleset": "australian", "players": 4, "options": {}}


class Tournament(models.Model):
    """An event: who directs it, the rules it is played under, its format and its status.

    ``rules`` is a record's ``rules`` object (validated with ``Rules.from_json``) and is fixed once
    the first round is generated. ``format_options`` holds the format's knobs: ``tiebreaks``
    (ordered names), ``rounds`` (Swiss), ``third_place`` (single elimination), ``reset`` (double
    elimination), ``cycles`` (round robin). ``format_state`` is what the format was started with
    (the field of a bracket or round robin), so later rounds come from the same draw.
    """

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", blank=True
    )
    description = models.TextField(blank=True)
    rules = models.JSONField(default=default_rules)
    format = models.CharField(
        max_length=32, choices=TournamentFormat.choices, default=TournamentFormat.SWISS
    )
    format_options = models.JSONField(default=dict, blank=True)
    format_state = models.JSONField(default=dict, blank=True)
    match_length = models.CharField(
        max_length=16, choices=MatchLength.choices, default=MatchLength.GAME
    )
    match_games = models.PositiveSmallIntegerField(
        default=1, help_text="N for best of N games, or the number of boards."
    )
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.REGISTRATION
    )
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> int:
        return int(self.rules.get("players", 4))

    @property
    def is_elimination(self) -> bool:
        return self.format in (
            TournamentFormat.SINGLE_ELIMINATION,
            TournamentFormat.DOUBLE_ELIMINATION,
        )


class EntrantKind(models.TextChoices):
    HUMAN = "human", "human"
    BOT = "bot", "bot"


class Entrant(models.Model):
    """One side of the event: a partnership (``team``) or an individual (``player``), or a bot.

    Built-in bots are named by ``bot_name`` (``random``, ``heuristic``); an uploaded bot of the
    arena enters as one of its versions (``bot_version``). ``seed`` orders the field
    (1 is the strongest); gaps are allowed. A withdrawn entrant keeps its past results.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=8, choices=EntrantKind.choices, default=EntrantKind.HUMAN)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    bot_name = models.CharField(max_length=100, blank=True)
    bot_version = models.ForeignKey(
        "arena.BotVersion",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_entries",
        help_text="An uploaded bot's version (played in the sandbox); else bot_name is built in.",
    )
    seed = models.PositiveIntegerField()
    withdrawn = models.BooleanField(default=False)
    late = models.BooleanField(default=False, help_text="Entered after the event started.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "seed"], name="entrant_seed_unique"),
            models.UniqueConstraint("tournament", Lower("name"), name="entrant_name_unique_ci"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_bot(self) -> bool:
        return self.kind == EntrantKind.BOT

    def member_players(self) -> list[Player]:
        if self.team_id is not None:
            assert self.team is not None
            return list(self.team.members.all())
        return [self.player] if self.player is not None else []


class RoundStatus(models.TextChoices):
    PLAYING = "playing", "playing"
    COMPLETE = "complete", "complete"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class MatchStatus(models.TextChoices):
    PENDING = "pending", "to play"
    PLAYING = "playing", "being played"
    SUBMITTED = "submitted", "result awaiting confirmation"
    DONE = "done", "done"


class MatchOutcome(models.TextChoices):
    WIN = "win", "win"
    DRAW = "draw", "draw"
    FORFEIT = "forfeit", "forfeit"
    BYE = "bye", "bye"


class Match(models.Model):
    """One table of a round (table 0 is a bye): who sits where, and the confirmed result."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()
    bracket_match = models.CharField(max_length=16, blank=True)
    reason = models.TextField(blank=True, help_text="Why the format paired these entrants.")
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    outcome = models.CharField(max_length=8, choices=MatchOutcome.choices, blank=True)
    records = models.ManyToManyField(
        "replays.StoredRecord", blank=True, related_name="tournament_matches"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="confirmed_matches",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When a table of bots was last sent to the workers."
    )
    claimed_at = models.DateTimeField(
        null=True, blank=True, help_text="When a worker claimed this table of bots to play it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round__number", "table", "id"]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.round} table {self.table}"

    @property
    def is_bye(self) -> bool:
        return self.outcome == MatchOutcome.BYE


class MatchSide(models.Model):
    """An entrant's place at a table: ``position`` is the side index of the rules (seat order)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    position = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="sides")
    points = models.IntegerField(null=True, blank=True, help_text="Game points scored.")
    is_winner = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="side_position_unique"),
            models.UniqueConstraint(fields=["match", "entrant"], name="side_entrant_unique"),
        ]


class SubmissionKind(models.TextChoices):
    RECORD = "record", "record upload"
    SCORE_SHEET = "score_sheet", "score sheet"
    FORFEIT = "forfeit", "forfeit"
    BOT = "bot", "played by the workers"


class SubmissionStatus(models.TextChoices):
    PENDING = "pending", "awaiting confirmation"
    CONFIRMED = "confirmed", "confirmed"
    SUPERSEDED = "superseded", "superseded"


class ResultSubmission(models.Model):
    """A result sent for a match: the games as records (built from a score sheet or uploaded)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    kind = models.CharField(max_length=16, choices=SubmissionKind.choices)
    status = models.CharField(
        max_length=16, choices=SubmissionStatus.choices, default=SubmissionStatus.PENDING
    )
    data = models.JSONField(default=dict, blank=True, help_text="The score sheet as entered.")
    records = models.ManyToManyField("replays.StoredRecord", blank=True)
    points = models.JSONField(default=list, help_text="Game points per side, in seat order.")
    winners = models.JSONField(default=list, help_text="Winning side positions.")
    outcome = models.CharField(max_length=8, choices=MatchOutcome.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "-created_at", "-id"]


class HistoryKind(models.TextChoices):
    CREATED = "created", "event created"
    EDITED = "edited", "event edited"
    ENTRY = "entry", "entry"
    LATE_ENTRY = "late_entry", "late entry"
    WITHDRAWAL = "withdrawal", "withdrawal"
    ROUND = "round", "round generated"
    RESULT = "result", "result"
    FORFEIT = "forfeit", "no-show forfeit"
    PAIRING_OVERRIDE = "pairing_override", "pairing override"
    CORRECTION = "correction", "result correction"
    FINISHED = "finished", "event finished"


class HistoryEvent(models.Model):
    """Who did what to an event, when and why; the event's history page lists these."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="history")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    kind = models.CharField(max_length=20, choices=HistoryKind.choices)
    message = models.TextField()
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return self.message


class PlayerRating(models.Model):
    """A player's OpenSkill rating across events (``rating_recompute`` rebuilds every row)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-mu", "player"]

    @property
    def ordinal(self) -> float:
        """The conservative estimate lists sort on: mu - 3 sigma."""
        return self.mu - 3 * self.sigma
