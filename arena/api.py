"""The arena's REST API: thin views over ``arena.services`` and ``arena.selectors``.

Bots and their code: ``/bots/`` (list, create), ``/bots/<id>/``, ``/bots/<id>/versions/`` (list,
upload), ``/bots/<id>/versions/<n>/``, ``/bots/<id>/versions/<n>/code/`` (owner and staff only).
Matches: ``/bot-matches/`` (list, challenge), ``/bot-matches/<id>/``. The ladder: ``/ladder/``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from api.errors import error, error_body, unknown_parameters
from api.pagination import PageNumberPagination
from api.serializers import ErrorResponseSerializer
from arena.models import Bot, BotMatch, BotVersion, MatchKind, MatchStatus
from arena.selectors import (
    bot_active_version,
    bot_get,
    bot_list,
    bot_match_fault_visible,
    bot_match_games,
    bot_match_get,
    bot_match_list,
    bot_private_visible,
    bot_version_code,
    bot_version_get,
    bot_version_list,
    ladder_rows,
)
from arena.services import (
    MAX_BOARDS,
    ArenaError,
    ArenaPermissionDenied,
    bot_challenge,
    bot_create,
    bot_version_retire,
    bot_version_upload,
)

ERRORS = OpenApiResponse(ErrorResponseSerializer, description="What was wrong, and where.")


def _arena_error(exc: ArenaError) -> Response:
    code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE if exc.code == "too_large" else 400
    return Response(error_body(error(exc.code, exc.message, pointer=exc.field)), status=code)


def _denied(request: Request, exc: Exception) -> Exception:
    if not getattr(request.user, "is_authenticated", False):
        return NotAuthenticated()
    return PermissionDenied(str(exc))


# --- Serializers: shapes only --------------------------------------------------------------------


class BotRatingSerializer(serializers.Serializer[Any]):
    rating = serializers.FloatField(source="ordinal", help_text="mu - 3 sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


class BotVersionSerializer(serializers.Serializer[Any]):
    """A version; ``reason``, ``fault``, ``stderr_tail`` and ``code_url`` only for the owner/staff."""

    number = serializers.IntegerField()
    filename = serializers.CharField()
    entry = serializers.CharField()
    size = serializers.IntegerField()
    sha256 = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    validated_at = serializers.DateTimeField(allow_null=True)
    rating = serializers.SerializerMethodField()
    reason = serializers.CharField(required=False)
    fault = serializers.JSONField(required=False, allow_null=True)
    stderr_tail = serializers.CharField(required=False)
    validation_record = serializers.IntegerField(
        required=False, allow_null=True, source="validation_record_id"
    )
    code_url = serializers.SerializerMethodField()

    def get_code_url(self, version: BotVersion) -> str | None:
        if not bot_private_visible(user=self.context["request"].user, bot=version.bot):
            return None
        return reverse("api:bot-version-code", args=[version.bot_id, version.number])

    def get_rating(self, version: BotVersion) -> dict[str, Any] | None:
        rating = getattr(version, "rating", None)
        return dict(BotRatingSerializer(rating).data) if rating else None

    def to_representation(self, version: BotVersion) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(version)
        user = self.context["request"].user
        if not bot_private_visible(user=user, bot=version.bot):
            for name in ("reason", "fault", "stderr_tail", "validation_record"):
                data.pop(name, None)
        return data


class BotSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    description = serializers.CharField()
    created_at = serializers.DateTimeField()
    active_version = serializers.SerializerMethodField()

    def get_active_version(self, bot: Bot) -> dict[str, Any] | None:
        version = bot_active_version(bot=bot)
        return dict(BotVersionSerializer(version, context=self.context).data) if version else None


class BotCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=40)
    description = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class BotVersionUploadSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="A single .py file or a .zip archive, at most 1 MiB.")
    entry = serializers.CharField(
        required=False, allow_blank=True, help_text="The zip's entry module (e.g. pkg.main)."
    )


class BotMatchGameSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    board = serializers.IntegerField()
    round = serializers.IntegerField()
    record = serializers.IntegerField(source="record_id")
    record_url = serializers.SerializerMethodField()
    digest = serializers.CharField(source="record.digest")

    def get_record_url(self, game: Any) -> str:
        return reverse("api:record-detail", args=[game.record_id])


class BotMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    rated = serializers.BooleanField()
    status = serializers.CharField()
    a = serializers.CharField(source="label_a")
    b = serializers.CharField(source="label_b")
    entrant_a = serializers.CharField(source="key_a")
    entrant_b = serializers.CharField(source="key_b")
    rules = serializers.JSONField()
    boards = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    totals = serializers.JSONField(allow_null=True)
    difference = serializers.FloatField(allow_null=True)
    winner = serializers.CharField(help_text="a, b, or empty for a draw or an unfinished match")
    fault_entrant = serializers.CharField()
    fault = serializers.JSONField(required=False, allow_null=True)
    error = serializers.CharField()
    games = serializers.SerializerMethodField()

    def get_games(self, match: BotMatch) -> list[dict[str, Any]]:
        if not self.context.get("with_games"):
            return []
        return [
            dict(g) for g in BotMatchGameSerializer(bot_match_games(match=match), many=True).data
        ]

    def to_representation(self, match: BotMatch) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(match)
        if not bot_match_fault_visible(match=match, user=self.context["request"].user):
            data.pop("fault", None)
        if not self.context.get("with_games"):
            data.pop("games", None)
        return data


class BotChallengeSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(help_text="Your bot's id; its active version plays.")
    opponent = serializers.CharField(
        max_length=40, help_text="bot:<id> (its active version) or builtin:random / heuristic."
    )
    boards = serializers.IntegerField(min_value=1, max_value=MAX_BOARDS, default=2)


class BotMatchFilterSerializer(serializers.Serializer[Any]):
    bot = serializers.IntegerField(required=False, min_value=1)
    status = serializers.ChoiceField(required=False, choices=MatchStatus.choices)
    kind = serializers.ChoiceField(required=False, choices=MatchKind.choices)
    page = serializers.IntegerField(required=False, min_value=1)
    page_size = serializers.IntegerField(required=False, min_value=1, max_value=100)


class LadderRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    entrant = serializers.CharField(source="key")
    name = serializers.CharField(source="label")
    bot = serializers.IntegerField(source="bot.pk", allow_null=True, default=None)
    version = serializers.IntegerField(source="version.number", allow_null=True, default=None)
    rating = serializers.FloatField(help_text="mu - 3 sigma")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    form = serializers.CharField(help_text="Last results, newest first: W, L, D")


# --- Views ---------------------------------------------------------------------------------------


def _bot_or_404(pk: int) -> Bot:
    bot = bot_get(bot_id=pk)
    if bot is None:
        raise NotFound(f"No bot with id {pk}.")
    return bot


class BotListCreateView(GenericAPIView[Bot]):
    serializer_class = BotSerializer
    pagination_class = PageNumberPagination
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: BotSerializer(many=True), 400: ERRORS}, summary="List bots")
    def get(self, request: Request) -> Response:
        if bad := unknown_parameters(request, {"page", "page_size"}):
            return bad
        page = self.paginate_queryset(bot_list())
        data = BotSerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(
        request=BotCreateSerializer,
        responses={201: BotSerializer, 400: ERRORS, 401: ERRORS, 403: ERRORS},
        summary="Create a bot (needs the bot-owner role)",
    )
    def post(self, request: Request) -> Response:
        params = BotCreateSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        try:
            bot = bot_create(owner=request.user, **params.validated_data)
        except ArenaError as exc:
            return _arena_error(exc)
        except ArenaPermissionDenied as exc:
            raise _denied(request, exc) from None
        data = BotSerializer(bot, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED)


class BotDetailView(APIView):
    @extend_schema(responses={200: BotSerializer, 404: ERRORS}, summary="One bot")
    def get(self, request: Request, pk: int) -> Response:
        return Response(BotSerializer(_bot_or_404(pk), context={"request": request}).data)


class BotVersionListCreateView(APIView):
    parser_classes = [MultiPartParser]
    throttle_scope = "upload"

    def get_throttles(self) -> list[BaseThrottle]:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles

    @extend_schema(
        responses={200: BotVersionSerializer(many=True), 404: ERRORS},
        summary="A bot's versions, newest first",
    )
    def get(self, request: Request, pk: int) -> Response:
        bot = _bot_or_404(pk)
        versions = bot_version_list(bot=bot)
        return Response(
            BotVersionSerializer(versions, many=True, context={"request": request}).data
        )

    @extend_schema(
        request={"multipart/form-data": BotVersionUploadSerializer},
        responses={
            201: OpenApiResponse(BotVersionSerializer, description="Stored; validation is queued."),
            400: ERRORS,
            401: ERRORS,
            403: ERRORS,
            404: ERRORS,
            413: ERRORS,
            415: ERRORS,
            429: ERRORS,
        },
        summary="Upload a new version of your bot's code",
        description=(
            "A single `.py` file, or a `.zip` with an entry module (`entry`, default `bot.py`, "
            "`main.py` or `__main__.py` at the top), at most 1 MiB. The version starts `pending`; "
            "a worker validates it in the sandbox against `random` and makes it `active` or "
            "`rejected` (the reason, fault and stderr are shown to you only)."
        ),
    )
    def post(self, request: Request, pk: int) -> Response:
        bot = _bot_or_404(pk)
        if not getattr(request.user, "is_authenticated", False):
            raise NotAuthenticated()
        params = BotVersionUploadSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        upload = params.validated_data["file"]
        try:
            version = bot_version_upload(
                bot=bot,
                user=request.user,
                filename=upload.name or "",
                content=upload.read(),
                entry=params.validated_data.get("entry", ""),
            )
        except ArenaError as exc:
            return _arena_error(exc)
        except ArenaPermissionDenied as exc:
            raise _denied(request, exc) from None
        version.refresh_from_db()
        data = BotVersionSerializer(version, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED)


def _version_or_404(pk: int, number: int) -> BotVersion:
    version = bot_version_get(bot=_bot_or_404(pk), number=number)
    if version is None:
        raise NotFound(f"Bot {pk} has no version {number}.")
    return version


class BotVersionDetailView(APIView):
    @extend_schema(responses={200: BotVersionSerializer, 404: ERRORS}, summary="One version")
    def get(self, request: Request, pk: int, number: int) -> Response:
        version = _version_or_404(pk, number)
        return Response(BotVersionSerializer(version, context={"request": request}).data)


class BotVersionRetireView(APIView):
    @extend_schema(
        request=None,
        responses={200: BotVersionSerializer, 401: ERRORS, 403: ERRORS, 404: ERRORS},
        summary="Retire a version: it leaves the ladder (its matches and rating stay)",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        version = _version_or_404(pk, number)
        try:
            version = bot_version_retire(version=version, user=request.user)
        except ArenaPermissionDenied as exc:
            raise _denied(request, exc) from None
        return Response(BotVersionSerializer(version, context={"request": request}).data)


class BotVersionCodeView(APIView):
    @extend_schema(
        responses={
            (200, "application/octet-stream"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The uploaded file."
            ),
            401: ERRORS,
            403: ERRORS,
            404: ERRORS,
        },
        summary="Download a version's code (its owner and staff only)",
    )
    def get(self, request: Request, pk: int, number: int) -> HttpResponse:
        version = _version_or_404(pk, number)
        code = bot_version_code(version=version, user=request.user)
        if code is None:
            raise _denied(request, Exception("Only the bot's owner and staff may see its code."))
        response = HttpResponse(code, content_type="application/octet-stream")
        # A name of our own: the uploaded file name is the author's text, not a safe header value.
        suffix = ".zip" if version.filename.endswith(".zip") else ".py"
        name = f"bot-{version.bot_id}-v{version.number}{suffix}"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class BotMatchListCreateView(GenericAPIView[BotMatch]):
    serializer_class = BotMatchSerializer
    pagination_class = PageNumberPagination
    parser_classes = [JSONParser]

    @extend_schema(
        parameters=[BotMatchFilterSerializer],
        responses={200: BotMatchSerializer(many=True), 400: ERRORS},
        summary="List bot matches, newest first",
    )
    def get(self, request: Request) -> Response:
        if bad := unknown_parameters(request, set(BotMatchFilterSerializer().fields)):
            return bad
        params = BotMatchFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        bot = None
        if "bot" in params.validated_data:
            bot = bot_get(bot_id=params.validated_data["bot"])
            if bot is None:
                return Response(
                    error_body(error("not_found", "No such bot.", pointer="/bot")), status=400
                )
        matches = bot_match_list(
            bot=bot,
            status=params.validated_data.get("status"),
            kind=params.validated_data.get("kind"),
        )
        page = self.paginate_queryset(matches)
        data = BotMatchSerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(
        request=BotChallengeSerializer,
        responses={201: BotMatchSerializer, 400: ERRORS, 401: ERRORS, 403: ERRORS},
        summary="Challenge: your bot against another bot or a built-in (unrated)",
    )
    def post(self, request: Request) -> Response:
        params = BotChallengeSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        bot = bot_get(bot_id=params.validated_data["bot"])
        if bot is None:
            return Response(
                error_body(error("not_found", "bot: no such bot", pointer="/bot")), status=400
            )
        try:
            match = bot_challenge(
                user=request.user,
                bot=bot,
                opponent=params.validated_data["opponent"],
                boards=params.validated_data["boards"],
            )
        except ArenaError as exc:
            return _arena_error(exc)
        except ArenaPermissionDenied as exc:
            raise _denied(request, exc) from None
        match.refresh_from_db()
        data = BotMatchSerializer(match, context={"request": request, "with_games": True}).data
        return Response(data, status=status.HTTP_201_CREATED)


class BotMatchDetailView(APIView):
    @extend_schema(
        responses={200: BotMatchSerializer, 404: ERRORS}, summary="One match and its games"
    )
    def get(self, request: Request, pk: int) -> Response:
        match = bot_match_get(match_id=pk)
        if match is None:
            raise NotFound(f"No bot match with id {pk}.")
        return Response(
            BotMatchSerializer(match, context={"request": request, "with_games": True}).data
        )


class LadderView(APIView):
    @extend_schema(
        responses={200: LadderRowSerializer(many=True)},
        summary="The ladder: active bots and built-in anchors by rating (mu - 3 sigma)",
    )
    def get(self, request: Request) -> Response:
        if bad := unknown_parameters(request, set()):
            return bad
        return Response(LadderRowSerializer(ladder_rows(), many=True).data)
