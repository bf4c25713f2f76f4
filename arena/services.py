"""Writes of the bot arena: bots, uploads and their validation, matches, ratings, the ladder.

Uploaded code is hostile: it only ever runs through ``fivehundred.bots`` in the bubblewrap sandbox
(``SandboxPlayer``), on a worker of the ``bots`` queue. Work is claimed with conditional updates
so that a duplicated or retried task plays nothing twice, and a match is stored in one transaction
at its end, so a worker killed mid-match leaves nothing behind and the match is simply played
again from scratch (same seeds, same deals) by whoever claims it next.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
import uuid
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from openskill.models import PlackettLuce

from arena.models import (
    BUILTIN_BOTS,
    Bot,
    BotMatch,
    BotMatchGame,
    BotRating,
    BotVersion,
    LadderSettings,
    MatchKind,
    MatchStatus,
    VersionStatus,
)
from fivehundred.bots.match import MatchOutcome, play_match
from fivehundred.bots.players import InProcessPlayer, SandboxPlayer, SeatPlayer
from fivehundred.bots.sandbox import (
    BotCodeError,
    Limits,
    SandboxUnavailable,
    StagedCode,
    stage_code,
)
from fivehundred.engine import Rules
from fivehundred.record import verify
from replays.models import StoredRecord
from replays.services import RecordInvalid, record_ingest
from tournaments.roles import user_is_bot_owner, user_is_staff

logger = logging.getLogger(__name__)

UPLOAD_MAX_BYTES = 1024 * 1024
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
# Validation: a fixed set of deals against ``random``, the same for every upload.
VALIDATION_BOARDS = ("arena-validation/1", "arena-validation/2")
MAX_BOARDS = 20
MAX_ATTEMPTS = 5


class ArenaError(ValueError):
    """Bad input to an arena service: ``field`` names what was wrong (a JSON Pointer for the API)."""

    def __init__(self, message: str, *, field: str = "", code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class MatchUnplayable(RuntimeError):
    """A match cannot be played or stored here (no sandbox, unusable code, a record that fails)."""


class ArenaPermissionDenied(PermissionError):
    """The user may not do this (not the bot's owner, no bot-owner role)."""


def upload_max_bytes() -> int:
    return int(getattr(settings, "ARENA_UPLOAD_MAX_BYTES", UPLOAD_MAX_BYTES))


def sandbox_limits() -> Limits:
    """Limits of every uploaded bot seat; the time limits can be tightened in settings."""
    return Limits(
        per_decision_ms=int(getattr(settings, "ARENA_DECISION_MS", 1000)),
        bank_ms=int(getattr(settings, "ARENA_BANK_MS", 5000)),
        startup_ms=int(getattr(settings, "ARENA_STARTUP_MS", 5000)),
    )


def ladder_settings_get() -> LadderSettings:
    settings_row, _ = LadderSettings.objects.get_or_create(pk=1)
    return settings_row


# ---------------------------------------------------------------------------------------------
# Bots and uploads.


def bot_create(*, owner: Any, name: str, description: str = "") -> Bot:
    """A new bot for ``owner``, who needs the bot-owner role; names are unique per owner."""
    if not user_is_bot_owner(owner) and not user_is_staff(owner):
        raise ArenaPermissionDenied(
            "Only bot owners may create bots; ask the site staff for the role."
        )
    name = (name or "").strip()
    if not NAME_PATTERN.match(name):
        raise ArenaError(
            "name: 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit",
            field="/name",
        )
    if len(description) > 2000:
        raise ArenaError("description: at most 2000 characters", field="/description")
    if Bot.objects.filter(owner=owner, name__iexact=name).exists():
        raise ArenaError(
            f"name: you already have a bot named {name!r}", field="/name", code="exists"
        )
    return Bot.objects.create(owner=owner, name=name, description=description)


def _check_code(*, filename: str, content: bytes, entry: str) -> str:
    """Check an upload as the sandbox will stage it; return the entry module to record."""
    if filename.endswith(".py"):
        if entry:
            raise ArenaError("entry: only a zip archive declares an entry module", field="/entry")
        if not Path(filename).stem.isidentifier():
            raise ArenaError(
                f"file: {filename!r} is not a Python module name (letters, digits, '_')",
                field="/file",
            )
        try:
            compile(content, filename, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            raise ArenaError(f"file: {filename} does not compile: {exc}", field="/file") from None
        except (RecursionError, MemoryError):
            raise ArenaError(
                f"file: {filename} is too deeply nested to compile", field="/file"
            ) from None
    elif filename.endswith(".zip"):
        if not zipfile.is_zipfile(BytesIO(content)):
            raise ArenaError(f"file: {filename} is not a zip archive", field="/file")
    else:
        raise ArenaError("file: upload a single .py file or a .zip archive", field="/file")
    try:
        with _staged(filename=filename, content=content, entry=entry) as staged:
            return staged.entry if filename.endswith(".zip") else ""
    except BotCodeError as exc:
        raise ArenaError(
            f"file: {exc}", field="/entry" if "entry" in str(exc) else "/file"
        ) from None


@contextmanager
def _staged(*, filename: str, content: bytes, entry: str) -> Iterator[StagedCode]:
    """The code unpacked by the sandbox's own checks (zip paths, sizes, entry), removed after."""
    with tempfile.TemporaryDirectory(prefix="fivehundred-upload-") as tmp:
        path = Path(tmp) / Path(filename).name
        path.write_bytes(content)
        staged = stage_code(path, entry=entry or None)
    try:
        yield staged
    finally:
        staged.remove()


def bot_version_upload(
    *, bot: Bot, user: Any, filename: str, content: bytes, entry: str = ""
) -> BotVersion:
    """Store a new version of ``bot`` (pending) and queue its validation once this commits."""
    if bot.owner_id != getattr(user, "pk", None):
        raise ArenaPermissionDenied("Only the bot's owner may upload its code.")
    filename = Path(filename or "").name
    entry = (entry or "").strip()
    limit = upload_max_bytes()
    if len(content) > limit:
        raise ArenaError(
            f"file: {len(content)} bytes, more than the {limit} bytes allowed",
            field="/file",
            code="too_large",
        )
    if not content:
        raise ArenaError("file: the upload is empty", field="/file")
    entry = _check_code(filename=filename, content=content, entry=entry)
    with transaction.atomic():
        # The lock on the bot row makes concurrent uploads take consecutive numbers.
        Bot.objects.select_for_update().filter(pk=bot.pk).first()
        number = (bot.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        version = BotVersion.objects.create(
            bot=bot,
            number=number,
            filename=filename,
            entry=entry,
            code=content,
            size=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
        )
        _enqueue(version_ids=[version.pk])
    return version


def _enqueue(*, version_ids: Sequence[int] = (), match_ids: Sequence[int] = ()) -> None:
    """Send tasks once the transaction commits, so a fast worker never looks for a missing row."""
    from arena.tasks import bot_match_play_task, bot_version_validate_task

    for version_id in version_ids:
        transaction.on_commit(partial(bot_version_validate_task.delay, version_id))
    for match_id in match_ids:
        transaction.on_commit(partial(bot_match_play_task.delay, match_id))


def _claim_version(*, version_id: int, stale: datetime) -> bool:
    now = timezone.now()
    claimable = Q(status=VersionStatus.PENDING) | Q(
        status=VersionStatus.VALIDATING, claimed_at__lt=stale
    )
    return bool(
        BotVersion.objects.filter(claimable, pk=version_id).update(
            status=VersionStatus.VALIDATING, claimed_at=now
        )
    )


def bot_version_validate(*, version_id: int) -> BotVersion | None:
    """Play the validation deals against ``random`` through the sandbox; activate or reject.

    Idempotent: only a pending version (or one whose validation was abandoned by a dead worker)
    is claimed. Returns ``None`` when there was nothing to do.
    """
    timeout = ladder_settings_get().claim_timeout_s
    if not _claim_version(version_id=version_id, stale=timezone.now() - timedelta(seconds=timeout)):
        return None
    version = BotVersion.objects.select_related("bot__owner").get(pk=version_id)
    rules = Rules.create(4)
    try:
        with _staged(
            filename=version.filename, content=bytes(version.code), entry=version.entry
        ) as code:
            label = _version_label(version)
            outcome = play_match(
                [
                    (label, _uploaded_factory(code, label)),
                    ("random", _builtin_factory("random")),
                ],
                rules=rules,
                boards=list(VALIDATION_BOARDS),
                event={"name": f"Bot arena validation: {label}", "site": "fivehundred arena"},
                seat_objects=[_version_seat(version), _builtin_seat("random")],
            )
    except SandboxUnavailable as exc:
        # Not the bot's fault: leave it pending for a worker that has a sandbox.
        logger.error("cannot validate bot version %s: %s", version_id, exc)
        BotVersion.objects.filter(pk=version_id).update(
            status=VersionStatus.PENDING, reason=f"waiting for a sandbox: {exc}"
        )
        return BotVersion.objects.get(pk=version_id)
    except BotCodeError as exc:
        BotVersion.objects.filter(pk=version_id).update(
            status=VersionStatus.REJECTED, reason=str(exc), validated_at=timezone.now()
        )
        return BotVersion.objects.get(pk=version_id)

    with transaction.atomic():
        version = BotVersion.objects.select_for_update().get(pk=version_id)
        if version.status != VersionStatus.VALIDATING:
            return version
        shown = outcome.games[-1] if outcome.fault else outcome.games[0]
        stored = _store_private(record=shown.record, owner=version.bot.owner)
        version.validation_record = stored
        version.validated_at = timezone.now()
        if outcome.fault is not None and outcome.fault_entrant == 0:
            fault = outcome.fault
            version.status = VersionStatus.REJECTED
            version.reason = f"{fault.kind} in validation game {len(outcome.games)}: {fault.detail}"
            version.fault = {"kind": fault.kind, "detail": fault.detail}
            version.stderr_tail = fault.stderr_tail
        else:
            version.status = VersionStatus.ACTIVE
            version.reason = ""
            # One active version per bot: the new one replaces the old on the ladder.
            BotVersion.objects.filter(bot_id=version.bot_id, status=VersionStatus.ACTIVE).exclude(
                pk=version.pk
            ).update(status=VersionStatus.RETIRED)
            _rating_for(version.entrant_key, version=version)
        version.save()
    return version


def _store_private(*, record: dict[str, Any], owner: Any) -> StoredRecord | None:
    """Store a validation record visible to the bot's owner and staff only."""
    try:
        stored, created = record_ingest(data=record, uploaded_by=owner)
    except RecordInvalid:
        logger.exception("a validation record did not verify")
        return None
    if created:
        StoredRecord.objects.filter(pk=stored.pk).update(is_public=False)
    return stored


def bot_version_retire(*, version: BotVersion, user: Any) -> BotVersion:
    """The owner takes a version off the ladder; its matches and rating stay."""
    if version.bot.owner_id != getattr(user, "pk", None) and not user_is_staff(user):
        raise ArenaPermissionDenied("Only the bot's owner may retire its versions.")
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.RETIRED)
    version.refresh_from_db()
    return version


# ---------------------------------------------------------------------------------------------
# Matches.


def _version_label(version: BotVersion) -> str:
    return f"{version.bot.owner.get_username()}/{version.bot.name} v{version.number}"


def _version_seat(version: BotVersion) -> dict[str, Any]:
    # No rating in the seat object: a replay must produce the very same record.
    return {
        "name": _version_label(version),
        "id": f"bot:{version.bot_id}@{version.number}",
        "kind": "bot",
    }


def _builtin_seat(name: str) -> dict[str, Any]:
    return {"name": name, "id": f"bot:{name}", "kind": "bot"}


def _uploaded_factory(code: StagedCode, label: str) -> Callable[[int, str], SeatPlayer]:
    limits = sandbox_limits()
    return lambda seat, seed: SandboxPlayer.uploaded(code, name=label, limits=limits)


def _builtin_factory(name: str) -> Callable[[int, str], SeatPlayer]:
    return lambda seat, seed: InProcessPlayer.builtin(name, seed)


@dataclass(frozen=True)
class Entrant:
    """One side of a match: an active bot version or a built-in bot."""

    version: BotVersion | None = None
    builtin: str = ""

    @property
    def key(self) -> str:
        return self.version.entrant_key if self.version else f"builtin:{self.builtin}"


def entrant_parse(*, value: Any, field: str) -> Entrant:
    """``builtin:<name>``, ``<name>`` of a built-in, ``version:<id>`` or ``bot:<id>`` (its active version)."""
    text = str(value or "").strip()
    kind, _, rest = text.partition(":")
    if not rest:
        kind, rest = ("builtin", text) if text in BUILTIN_BOTS else ("bot", text)
    if kind == "builtin":
        if rest not in BUILTIN_BOTS:
            raise ArenaError(
                f"{field.lstrip('/')}: no built-in bot {rest!r}; choose {', '.join(BUILTIN_BOTS)}",
                field=field,
            )
        return Entrant(builtin=rest)
    if kind in ("bot", "version") and rest.isdigit():
        if kind == "bot":
            version = (
                BotVersion.objects.select_related("bot__owner")
                .filter(bot_id=int(rest), status=VersionStatus.ACTIVE)
                .order_by("-number")
                .first()
            )
            if version is None:
                raise ArenaError(
                    f"{field.lstrip('/')}: bot {rest} has no active version", field=field
                )
        else:
            version = BotVersion.objects.select_related("bot__owner").filter(pk=int(rest)).first()
            if version is None or version.status != VersionStatus.ACTIVE:
                raise ArenaError(
                    f"{field.lstrip('/')}: bot version {rest} is not an active version", field=field
                )
        return Entrant(version=version)
    raise ArenaError(
        f"{field.lstrip('/')}: {text!r} is not builtin:<name>, bot:<id> or version:<id>",
        field=field,
    )


def bot_match_create(
    *,
    a: Entrant,
    b: Entrant,
    boards: int,
    rules: dict[str, Any] | None = None,
    kind: str = MatchKind.LADDER,
    rated: bool = True,
    created_by: Any = None,
    seed: str | None = None,
) -> BotMatch:
    """A queued match; its play is sent to the bots queue once the transaction commits.

    ``seed`` fixes the boards' deals (a fresh random one by default), so that a match can be
    repeated on the same cards.
    """
    if a.key == b.key:
        raise ArenaError("opponent: a bot cannot play itself", field="/opponent")
    if a.version is None and b.version is None and kind == MatchKind.CHALLENGE:
        raise ArenaError("bot: a challenge needs an uploaded bot", field="/bot")
    if not 1 <= boards <= MAX_BOARDS:
        raise ArenaError(f"boards: between 1 and {MAX_BOARDS}", field="/boards")
    rules_json = rules or Rules.create(4).to_json()
    try:
        rules_json = Rules.from_json(rules_json).to_json()
    except Exception as exc:  # the engine's RulesError names the option
        raise ArenaError(f"rules: {exc}", field="/rules") from None
    user = created_by if getattr(created_by, "is_authenticated", False) else None
    with transaction.atomic():
        match = BotMatch.objects.create(
            kind=kind,
            rules=rules_json,
            version_a=a.version,
            builtin_a=a.builtin,
            version_b=b.version,
            builtin_b=b.builtin,
            boards=boards,
            seed=seed or f"arena/{uuid.uuid4().hex}",
            rated=rated,
            created_by=user,
        )
        _enqueue(match_ids=[match.pk])
    return match


def bot_challenge(*, user: Any, bot: Bot, opponent: str, boards: int = 2) -> BotMatch:
    """The owner of ``bot`` challenges another bot (``bot:<id>``) or a built-in; unrated."""
    if bot.owner_id != getattr(user, "pk", None):
        raise ArenaPermissionDenied("Only the bot's owner may challenge with it.")
    mine = entrant_parse(value=f"bot:{bot.pk}", field="/bot")
    theirs = entrant_parse(value=opponent, field="/opponent")
    if theirs.version is not None and theirs.version.bot_id == bot.pk:
        raise ArenaError("opponent: a bot cannot play itself", field="/opponent")
    return bot_match_create(
        a=mine, b=theirs, boards=boards, kind=MatchKind.CHALLENGE, rated=False, created_by=user
    )


def _claim_match(*, match_id: int, worker: str, stale: datetime) -> str | None:
    """Claim a queued match, or one whose claim is older than ``stale``; the claim's token."""
    token = uuid.uuid4().hex
    claimable = Q(status=MatchStatus.QUEUED) | Q(status=MatchStatus.RUNNING, claimed_at__lt=stale)
    claimed = BotMatch.objects.filter(claimable, pk=match_id).update(
        status=MatchStatus.RUNNING,
        claimed_by=worker[:200],
        claimed_at=timezone.now(),
        claim_token=token,
        attempts=F("attempts") + 1,
    )
    return token if claimed else None


def _entrants_of(
    match: BotMatch, stack: ExitStack
) -> list[tuple[str, Callable[[int, str], SeatPlayer]]]:
    out = []
    for version, builtin in (
        (match.version_a, match.builtin_a),
        (match.version_b, match.builtin_b),
    ):
        if version is not None:
            code = stack.enter_context(
                _staged(filename=version.filename, content=bytes(version.code), entry=version.entry)
            )
            label = _version_label(version)
            out.append((label, _uploaded_factory(code, label)))
        else:
            out.append((builtin, _builtin_factory(builtin)))
    return out


def bot_match_play(*, match_id: int, worker: str = "") -> BotMatch | None:
    """Play a whole match, verify and store its records, and rate it: all or nothing.

    Returns ``None`` when the match was not claimable (finished, or running on a live worker):
    a duplicated or retried task does nothing. If this worker's claim was taken over while it
    played (it was too slow and looked dead), its results are thrown away unstored.
    """
    timeout = ladder_settings_get().claim_timeout_s
    stale = timezone.now() - timedelta(seconds=timeout)
    token = _claim_match(match_id=match_id, worker=worker or "worker", stale=stale)
    if token is None:
        return None
    match = BotMatch.objects.select_related("version_a__bot__owner", "version_b__bot__owner").get(
        pk=match_id
    )
    seats = [
        _version_seat(match.version_a) if match.version_a else _builtin_seat(match.builtin_a),
        _version_seat(match.version_b) if match.version_b else _builtin_seat(match.builtin_b),
    ]
    try:
        rules = Rules.from_json(match.rules)
        with ExitStack() as stack:
            outcome = play_match(
                _entrants_of(match, stack),
                rules=rules,
                boards=match.board_seeds(),
                event={"name": f"Bot arena match {match.pk}", "site": "fivehundred arena"},
                seat_objects=seats,
            )
        for number, game in enumerate(outcome.games, start=1):
            verdict = verify(game.record)
            if not verdict.valid:
                first = verdict.errors[0]
                raise MatchUnplayable(
                    f"game {number} did not verify: {first.code} at {first.pointer}: {first.message}"
                )
    except (SandboxUnavailable, BotCodeError, MatchUnplayable) as exc:
        logger.error("bot match %s failed: %s", match_id, exc)
        BotMatch.objects.filter(pk=match_id, claim_token=token).update(
            status=MatchStatus.FAILED, error=str(exc)[:2000], finished_at=timezone.now()
        )
        return BotMatch.objects.get(pk=match_id)
    return _match_finish(match_id=match_id, token=token, outcome=outcome)


def _match_finish(*, match_id: int, token: str, outcome: MatchOutcome) -> BotMatch | None:
    with transaction.atomic():
        match = BotMatch.objects.select_for_update().get(pk=match_id)
        if match.status != MatchStatus.RUNNING or match.claim_token != token:
            logger.warning("bot match %s was taken over; dropping this worker's games", match_id)
            return None
        for index, (game, _assignment) in enumerate(
            zip(outcome.games, outcome.assignments, strict=True)
        ):
            stored, _ = record_ingest(data=game.record)
            event = game.record.get("event", {})
            BotMatchGame.objects.create(
                match=match,
                index=index,
                board=int(event.get("board", 0)),
                round=int(event.get("round", 0)),
                record=stored,
            )
        match.totals = list(outcome.totals)
        match.difference = outcome.difference
        if outcome.fault is not None and outcome.fault_entrant is not None:
            match.fault = outcome.fault.to_json()
            match.fault_entrant = "ab"[outcome.fault_entrant]
            match.winner = "ba"[outcome.fault_entrant]  # the faulting entrant forfeits
        else:
            match.winner = "a" if outcome.difference > 0 else "b" if outcome.difference < 0 else ""
        match.status = MatchStatus.FINISHED
        match.finished_at = timezone.now()
        if match.rated:
            ladder = LadderSettings.objects.select_for_update().get(pk=ladder_settings_get().pk)
            # Sequence numbers are given under the ladder row's lock, so concurrent workers rate
            # matches one after the other, in the order they finished.
            ladder.last_seq += 1
            ladder.save(update_fields=["last_seq"])
            match.rated_seq = ladder.last_seq
            ratings = {
                key: _rating_for(key, version=version)
                for key, version in ((match.key_a, match.version_a), (match.key_b, match.version_b))
            }
            _rating_apply(ratings, match)
            for rating in ratings.values():
                rating.save()
        match.save()
    return match


# ---------------------------------------------------------------------------------------------
# Ratings.

_MODEL = PlackettLuce()


def _rating_for(key: str, *, version: BotVersion | None = None) -> BotRating:
    rating, _ = BotRating.objects.get_or_create(
        key=key, defaults={"version": version, "mu": _MODEL.mu, "sigma": _MODEL.sigma}
    )
    return rating


def _rating_apply(ratings: dict[str, BotRating], match: BotMatch) -> None:
    """Update the two entrants' ratings with one finished match.

    Both seats of a side are the same entrant (duplicate boards swap the partnerships), so each
    entrant is a team of one and the match is a two-team result; the ranks come from the winner.
    """
    a, b = ratings[match.key_a], ratings[match.key_b]
    ranks: list[float] = [1, 1] if not match.winner else ([1, 2] if match.winner == "a" else [2, 1])
    [[new_a], [new_b]] = _MODEL.rate(
        [[_MODEL.rating(mu=a.mu, sigma=a.sigma)], [_MODEL.rating(mu=b.mu, sigma=b.sigma)]],
        ranks=ranks,
    )
    for rating, new, rank, other in (
        (a, new_a, ranks[0], ranks[1]),
        (b, new_b, ranks[1], ranks[0]),
    ):
        rating.mu, rating.sigma = float(new.mu), float(new.sigma)
        rating.games += 1
        if rank < other:
            rating.wins += 1
        elif rank > other:
            rating.losses += 1
        else:
            rating.draws += 1


def rating_recompute() -> int:
    """Rebuild every rating from the rated matches, in their rating order; the number replayed."""
    with transaction.atomic():
        LadderSettings.objects.select_for_update().get(pk=ladder_settings_get().pk)
        ratings = {rating.key: rating for rating in BotRating.objects.select_for_update()}
        for rating in ratings.values():
            rating.mu, rating.sigma = _MODEL.mu, _MODEL.sigma
            rating.games = rating.wins = rating.losses = rating.draws = 0
        matches = BotMatch.objects.filter(
            status=MatchStatus.FINISHED, rated_seq__isnull=False
        ).order_by("rated_seq")
        count = 0
        for match in matches.select_related("version_a", "version_b"):
            for key, version in ((match.key_a, match.version_a), (match.key_b, match.version_b)):
                if key not in ratings:
                    ratings[key] = BotRating(key=key, version=version)
                    ratings[key].mu, ratings[key].sigma = _MODEL.mu, _MODEL.sigma
            _rating_apply(ratings, match)
            count += 1
        for rating in ratings.values():
            rating.save()
    return count


# ---------------------------------------------------------------------------------------------
# The ladder.


@dataclass
class ScheduleReport:
    requeued_matches: list[int] = field(default_factory=list)
    requeued_versions: list[int] = field(default_factory=list)
    created: list[int] = field(default_factory=list)


def arena_sweep(*, now: datetime | None = None) -> ScheduleReport:
    """Re-send the tasks of work a dead worker left behind: matches and validations whose claim
    (or whose queueing, for work never claimed) is older than the claim timeout.

    Re-sending is safe: the task claims with a conditional update and plays nothing twice.
    """
    now = now or timezone.now()
    stale = now - timedelta(seconds=ladder_settings_get().claim_timeout_s)
    report = ScheduleReport()
    with transaction.atomic():
        # A match that killed its worker again and again is not tried for ever.
        BotMatch.objects.filter(
            status=MatchStatus.RUNNING, claimed_at__lt=stale, attempts__gte=MAX_ATTEMPTS
        ).update(
            status=MatchStatus.FAILED,
            error=f"gave up after {MAX_ATTEMPTS} attempts (a worker was lost each time)",
            finished_at=now,
        )
        report.requeued_matches = list(
            BotMatch.objects.filter(
                Q(status=MatchStatus.RUNNING, claimed_at__lt=stale)
                | Q(status=MatchStatus.QUEUED, created_at__lt=stale)
            ).values_list("pk", flat=True)
        )
        report.requeued_versions = list(
            BotVersion.objects.filter(
                Q(status=VersionStatus.VALIDATING, claimed_at__lt=stale)
                | Q(status=VersionStatus.PENDING, created_at__lt=stale)
            ).values_list("pk", flat=True)
        )
        _enqueue(version_ids=report.requeued_versions, match_ids=report.requeued_matches)
    return report


def ladder_schedule(*, now: datetime | None = None) -> ScheduleReport:
    """The beat job: sweep, then pair entrants for new ladder matches.

    Entrants that have played least go first; each gets the opponent it has met least, among
    those within the rating window, never beyond ``max_pair_matches`` meetings. An entrant with a
    match queued or running is not paired again until it is played.
    """
    report = arena_sweep(now=now)
    ladder = ladder_settings_get()
    if not ladder.enabled:
        return report
    versions = BotVersion.objects.filter(status=VersionStatus.ACTIVE).select_related("bot")
    entrants: dict[str, Entrant] = {v.entrant_key: Entrant(version=v) for v in versions}
    for name in ladder.builtins:
        if name in BUILTIN_BOTS:
            entrants[f"builtin:{name}"] = Entrant(builtin=name)
    ratings = {r.key: r for r in BotRating.objects.filter(key__in=list(entrants))}

    def ordinal(key: str) -> float:
        rating = ratings.get(key)
        return rating.ordinal if rating else _MODEL.mu - 3 * _MODEL.sigma

    def games(key: str) -> int:
        rating = ratings.get(key)
        return rating.games if rating else 0

    busy: set[str] = set()
    pairs: Counter[frozenset[str]] = Counter()
    for match in BotMatch.objects.filter(kind=MatchKind.LADDER).exclude(status=MatchStatus.FAILED):
        if match.status in (MatchStatus.QUEUED, MatchStatus.RUNNING):
            busy |= {match.key_a, match.key_b}
        pairs[frozenset((match.key_a, match.key_b))] += 1

    order = sorted((k for k in entrants if k not in busy), key=lambda k: (games(k), -ordinal(k), k))
    used: set[str] = set()
    try:
        rules = Rules.create(ladder.players, ladder.rule_options or None).to_json()
    except Exception:  # the engine's RulesError names the bad option; staff fix it in the admin
        logger.exception("the ladder settings' rules are invalid; no ladder matches scheduled")
        return report
    with transaction.atomic():
        for key in order:
            if len(report.created) >= ladder.matches_per_run:
                break
            if key in used:
                continue
            candidates = [
                other
                for other in order
                if other != key
                and other not in used
                and not (entrants[key].version is None and entrants[other].version is None)
                and abs(ordinal(key) - ordinal(other)) <= ladder.rating_window
                and pairs[frozenset((key, other))] < ladder.max_pair_matches
            ]
            if not candidates:
                continue
            other = min(
                candidates,
                key=lambda o: (
                    pairs[frozenset((key, o))],
                    games(o),
                    abs(ordinal(key) - ordinal(o)),
                    o,
                ),
            )
            match = bot_match_create(
                a=entrants[key], b=entrants[other], boards=ladder.boards, rules=rules
            )
            used |= {key, other}
            pairs[frozenset((key, other))] += 1
            report.created.append(match.pk)
    return report
