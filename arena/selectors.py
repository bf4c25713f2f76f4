"""Reads of the bot arena, shared by the pages and the API.

Who may see what: everyone sees bots, versions' status, matches, results and records of ladder
games; a bot's code, the reasons a version was rejected, faults and stderr are for its owner and
staff only (``bot_private_visible``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from arena.models import (
    BUILTIN_BOTS,
    Bot,
    BotMatch,
    BotRating,
    BotVersion,
    LadderSettings,
    MatchStatus,
    VersionStatus,
)
from tournaments.roles import user_is_staff

FORM_LENGTH = 5


def bot_private_visible(*, user: Any, bot: Bot | None) -> bool:
    """The owner and staff see a bot's code, faults and stderr; nobody else does."""
    if bot is None:
        return user_is_staff(user)
    return user_is_staff(user) or (
        getattr(user, "is_authenticated", False) and bot.owner_id == user.pk
    )


def bot_list(*, owner: Any = None) -> QuerySet[Bot]:
    bots = Bot.objects.select_related("owner")
    if owner is not None:
        bots = bots.filter(owner=owner)
    return bots.order_by("name", "id")


def bot_get(*, bot_id: int) -> Bot | None:
    return Bot.objects.select_related("owner").filter(pk=bot_id).first()


def bot_active_version(*, bot: Bot) -> BotVersion | None:
    return bot.versions.filter(status=VersionStatus.ACTIVE).order_by("-number").first()


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    return (
        BotVersion.objects.filter(bot=bot)
        .select_related("bot__owner", "validation_record", "rating")
        .defer("code")
        .order_by("-number")
    )


def bot_version_get(*, bot: Bot, number: int) -> BotVersion | None:
    return bot_version_list(bot=bot).filter(number=number).first()


def bot_version_code(*, version: BotVersion, user: Any) -> bytes | None:
    """The uploaded code, for the owner and staff only; ``None`` for anyone else."""
    if not bot_private_visible(user=user, bot=version.bot):
        return None
    return bytes(BotVersion.objects.values_list("code", flat=True).get(pk=version.pk))


def bot_match_list(
    *, bot: Bot | None = None, status: str | None = None, kind: str | None = None
) -> QuerySet[BotMatch]:
    matches = BotMatch.objects.select_related(
        "version_a__bot__owner", "version_b__bot__owner"
    ).defer("version_a__code", "version_b__code")
    if bot is not None:
        matches = matches.filter(Q(version_a__bot=bot) | Q(version_b__bot=bot))
    if status:
        matches = matches.filter(status=status)
    if kind:
        matches = matches.filter(kind=kind)
    return matches.order_by("-id")


def bot_match_get(*, match_id: int) -> BotMatch | None:
    return bot_match_list().filter(pk=match_id).first()


def bot_match_games(*, match: BotMatch) -> list[Any]:
    return list(match.games.select_related("record").order_by("index"))


def bot_match_fault_visible(*, match: BotMatch, user: Any) -> bool:
    """A match's fault (with the bot's stderr) is shown to the faulting bot's owner and staff."""
    if not match.fault_entrant:
        return False
    version = match.version_a if match.fault_entrant == "a" else match.version_b
    return bot_private_visible(user=user, bot=version.bot if version else None)


@dataclass(frozen=True)
class LadderRow:
    rank: int
    key: str
    label: str
    bot: Bot | None
    version: BotVersion | None
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    form: str  # the last results, newest first: W, L or D


def ladder_rows() -> list[LadderRow]:
    """The ladder: active versions and the built-in anchors, best rating (mu - 3 sigma) first."""
    settings_row = LadderSettings.objects.filter(pk=1).first()
    builtins = settings_row.builtins if settings_row else list(BUILTIN_BOTS)
    ratings = BotRating.objects.select_related("version__bot__owner").filter(
        Q(version__status=VersionStatus.ACTIVE)
        | Q(key__in=[f"builtin:{name}" for name in builtins])
    )
    ratings_list = list(ratings)
    form = recent_form(keys=[r.key for r in ratings_list])
    ratings_list.sort(key=lambda r: (-r.ordinal, -r.games, r.key))
    return [
        LadderRow(
            rank=index,
            key=rating.key,
            label=rating.label,
            bot=rating.version.bot if rating.version else None,
            version=rating.version,
            rating=rating.ordinal,
            mu=rating.mu,
            sigma=rating.sigma,
            games=rating.games,
            wins=rating.wins,
            losses=rating.losses,
            draws=rating.draws,
            form=form.get(rating.key, ""),
        )
        for index, rating in enumerate(ratings_list, start=1)
    ]


def recent_form(*, keys: list[str], length: int = FORM_LENGTH) -> dict[str, str]:
    """The last rated results of each entrant, newest first (``WLD``)."""
    version_ids = [int(k.split(":")[1]) for k in keys if k.startswith("version:")]
    builtins = [k.split(":")[1] for k in keys if k.startswith("builtin:")]
    matches = (
        BotMatch.objects.filter(status=MatchStatus.FINISHED, rated_seq__isnull=False)
        .filter(
            Q(version_a_id__in=version_ids)
            | Q(version_b_id__in=version_ids)
            | Q(builtin_a__in=builtins)
            | Q(builtin_b__in=builtins)
        )
        .only("version_a_id", "version_b_id", "builtin_a", "builtin_b", "winner", "rated_seq")
        .order_by("-rated_seq")
    )
    wanted = set(keys)
    form: dict[str, list[str]] = defaultdict(list)
    # Bounded: enough recent matches to fill every entrant's form in the common case.
    for match in matches[: max(50, len(keys) * length * 2)]:
        for key, side in ((match.key_a, "a"), (match.key_b, "b")):
            if key in wanted and len(form[key]) < length:
                form[key].append("D" if not match.winner else "W" if match.winner == side else "L")
    return {key: "".join(results) for key, results in form.items()}
