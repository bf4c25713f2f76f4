"""The bot arena's data: bots, their uploaded versions, bot matches, ratings and ladder settings.

Uploaded code is kept in the database (``BotVersion.code``), never under a publicly served folder;
only its owner and staff can download it (see ``arena.selectors.bot_version_code_visible``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

BUILTIN_BOTS = ("random", "heuristic")


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=40)
    description = models.TextField(blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="arena_bot_owner_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"


class VersionStatus(models.TextChoices):
    PENDING = "pending", "pending"
    VALIDATING = "validating", "validating"
    ACTIVE = "active", "active"
    REJECTED = "rejected", "rejected"
    RETIRED = "retired", "retired"


class BotVersion(models.Model):
    """One upload of a bot's code; it plays only once validation made it ``active``."""

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    filename = models.CharField(max_length=200, help_text="The uploaded file's name (.py or .zip).")
    entry = models.CharField(max_length=200, blank=True, help_text="The entry module of a zip.")
    code = models.BinaryField(editable=False)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    status = models.CharField(
        max_length=16, choices=VersionStatus.choices, default=VersionStatus.PENDING
    )
    # Why a version was rejected, in words for its owner; ``fault`` is the sandbox's typed fault
    # (kind, detail) and ``stderr_tail`` the end of the bot's stderr. Shown to the owner only.
    reason = models.TextField(blank=True)
    fault = models.JSONField(null=True, blank=True)
    stderr_tail = models.TextField(blank=True)
    validation_record = models.ForeignKey(
        "replays.StoredRecord", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    validated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="arena_version_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def label(self) -> str:
        return f"{self.bot.name} v{self.number}"

    @property
    def entrant_key(self) -> str:
        return f"version:{self.pk}"


class MatchStatus(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    FINISHED = "finished", "finished"
    FAILED = "failed", "failed"


class MatchKind(models.TextChoices):
    LADDER = "ladder", "ladder"
    CHALLENGE = "challenge", "challenge"


class BotMatch(models.Model):
    """A duplicate match between two entrants (``a`` and ``b``): an uploaded version or a built-in.

    Each board is a game seed (``<seed>/board-<i>``) played once per rotation of the entrants
    through the sides, so replaying the match from scratch deals exactly the same cards.
    """

    kind = models.CharField(max_length=16, choices=MatchKind.choices, default=MatchKind.LADDER)
    rules = models.JSONField(help_text="The record's rules object: players and options.")
    version_a = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.CASCADE, related_name="matches_as_a"
    )
    builtin_a = models.CharField(max_length=20, blank=True)
    version_b = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.CASCADE, related_name="matches_as_b"
    )
    builtin_b = models.CharField(max_length=20, blank=True)
    boards = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64)
    rated = models.BooleanField(
        default=True, help_text="Ladder matches are rated; challenges are friendly by default."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.QUEUED
    )
    # Claiming: a conditional UPDATE sets these; a claim older than the ladder's claim timeout
    # belongs to a dead worker and may be taken over. ``claim_token`` tells the finishing worker
    # whether its claim is still the current one.
    claimed_by = models.CharField(max_length=200, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim_token = models.CharField(max_length=32, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)

    # The result: totals per entrant summed over the games, ``difference`` = a - b, ``winner``
    # "a", "b" or "" for a draw. A fault makes its entrant forfeit the match.
    totals = models.JSONField(null=True, blank=True)
    difference = models.FloatField(null=True, blank=True)
    winner = models.CharField(max_length=1, blank=True)
    fault = models.JSONField(null=True, blank=True)
    fault_entrant = models.CharField(max_length=1, blank=True)
    error = models.TextField(blank=True, help_text="Why a failed match could not be played.")
    # The order in which finished matches were rated: ratings are updated strictly in this order
    # and a recomputation replays it.
    rated_seq = models.PositiveIntegerField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "claimed_at"], name="arena_match_status_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(
                    (models.Q(version_a__isnull=False) & models.Q(builtin_a=""))
                    | (models.Q(version_a__isnull=True) & ~models.Q(builtin_a=""))
                ),
                name="arena_match_entrant_a_one_of",
            ),
            models.CheckConstraint(
                condition=(
                    (models.Q(version_b__isnull=False) & models.Q(builtin_b=""))
                    | (models.Q(version_b__isnull=True) & ~models.Q(builtin_b=""))
                ),
                name="arena_match_entrant_b_one_of",
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk}: {self.label_a} v {self.label_b}"

    @property
    def key_a(self) -> str:
        return f"version:{self.version_a_id}" if self.version_a_id else f"builtin:{self.builtin_a}"

    @property
    def key_b(self) -> str:
        return f"version:{self.version_b_id}" if self.version_b_id else f"builtin:{self.builtin_b}"

    @property
    def label_a(self) -> str:
        return self.version_a.label if self.version_a else self.builtin_a

    @property
    def label_b(self) -> str:
        return self.version_b.label if self.version_b else self.builtin_b

    def board_seeds(self) -> list[str]:
        return [f"{self.seed}/board-{i + 1}" for i in range(self.boards)]


class BotMatchGame(models.Model):
    """One game of a finished match and its stored, verified record."""

    match = models.ForeignKey(BotMatch, on_delete=models.CASCADE, related_name="games")
    index = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    record = models.ForeignKey("replays.StoredRecord", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="arena_game_index_unique"),
        ]


class BotRating(models.Model):
    """An OpenSkill rating for one entrant: an uploaded bot version or a built-in bot."""

    key = models.CharField(max_length=40, unique=True, help_text="version:<id> or builtin:<name>")
    version = models.OneToOneField(
        BotVersion, null=True, blank=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Matches rated.")
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return f"{self.key}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        """The rating shown: mu - 3 sigma, a conservative estimate of the skill."""
        return self.mu - 3 * self.sigma

    @property
    def label(self) -> str:
        return self.version.label if self.version else self.key.removeprefix("builtin:")


def default_builtins() -> list[str]:
    return list(BUILTIN_BOTS)


class LadderSettings(models.Model):
    """The ladder's knobs (one row, pk 1). Its row lock also serialises rating updates."""

    enabled = models.BooleanField(default=True, help_text="Schedule ladder matches.")
    players = models.PositiveSmallIntegerField(default=4)
    rule_options = models.JSONField(default=dict, blank=True)
    boards = models.PositiveSmallIntegerField(default=4)
    builtins = models.JSONField(
        default=default_builtins,
        blank=True,
        help_text="Built-in bots that stand on the ladder as anchors.",
    )
    rating_window = models.FloatField(
        default=15.0, help_text="Largest gap in mu - 3 sigma between ladder opponents."
    )
    max_pair_matches = models.PositiveIntegerField(
        default=10, help_text="Ladder matches between the same two entrants, at most."
    )
    matches_per_run = models.PositiveIntegerField(default=10)
    claim_timeout_s = models.PositiveIntegerField(
        default=900, help_text="A running match claimed longer ago than this is played again."
    )
    last_seq = models.PositiveIntegerField(default=0, help_text="The last rated match's sequence.")

    class Meta:
        verbose_name = "ladder settings"
        verbose_name_plural = "ladder settings"

    def __str__(self) -> str:
        return "ladder settings"
