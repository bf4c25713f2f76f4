"""The tournaments API (``/api/v1/tournaments/...``): thin views over the services and selectors.

Everyone reads public events; only an event's directors change it; the players at a table (and
the directors) enter its result. Every error is the API's one JSON shape: a ``TournamentError``
becomes 400 with a pointer to the field, ``NotAllowed`` 403, an unknown event or table 404.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.db.models import F, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import error, error_body
from api.serializers import ErrorResponseSerializer
from tournaments import selectors, services
from tournaments.api_serializers import (
    EventBracketSerializer,
    EventEntrantSerializer,
    EventEntrantWriteSerializer,
    EventHistorySerializer,
    EventRoundSerializer,
    ForfeitRequestSerializer,
    PairingOverrideSerializer,
    PlayerRatingSerializer,
    ResultConfirmSerializer,
    ResultCorrectionSerializer,
    ResultGamesSerializer,
    ResultSubmissionSerializer,
    StandingRowSerializer,
    TableSerializer,
    TournamentSerializer,
    TournamentWriteSerializer,
    WithdrawalSerializer,
)
from tournaments.errors import NotAllowed, TournamentError
from tournaments.models import Match, PlayerRating, Round, Tournament

ERRORS = OpenApiResponse(ErrorResponseSerializer, description="What was wrong, and where.")
WRITE_ERRORS = {400: ERRORS, 401: ERRORS, 403: ERRORS, 404: ERRORS}


def pointer_of(where: str) -> str:
    """``games[0].hands[2].tricks`` -> ``/games/0/hands/2/tricks`` (a JSON Pointer)."""
    if not where:
        return ""
    return "/" + re.sub(r"\[(\d+)\]", r"/\1", where).replace(".", "/").lstrip("/")


def _answer(call: Callable[[], Any], ok: Callable[[Any], Response]) -> Response:
    """Run a service; its refusals become 400/403 in the API's error shape."""
    try:
        value = call()
    except NotAllowed as exc:
        return Response(
            error_body(error("permission_denied", exc.message)), status=status.HTTP_403_FORBIDDEN
        )
    except TournamentError as exc:
        errors = [error(exc.code, str(exc), pointer=pointer_of(exc.where))]
        errors.extend(exc.details)
        return Response(error_body(*errors), status=status.HTTP_400_BAD_REQUEST)
    return ok(value)


def _event(request: Request, event: int) -> Tournament:
    tournament = selectors.tournament_list(user=request.user).filter(pk=event).first()
    if tournament is None:
        raise NotFound(f"No event with id {event}.")
    return tournament


def _round(tournament: Tournament, number: int) -> Round:
    rnd = selectors.round_get(tournament=tournament, number=number)
    if rnd is None:
        raise NotFound(f"{tournament.name} has no round {number}.")
    return rnd


def _match(tournament: Tournament, pk: int) -> Match:
    match = tournament.matches.select_related("round").filter(pk=pk).first()
    if match is None:
        raise NotFound(f"{tournament.name} has no table with id {pk}.")
    return match


def _valid(serializer_class: Any, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class TournamentListView(generics.GenericAPIView[Tournament]):
    """Events: public ones for everyone, private ones for their directors."""

    serializer_class = TournamentSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self) -> QuerySet[Tournament]:
        return selectors.tournament_list(user=self.request.user).prefetch_related("directors")

    @extend_schema(responses={200: TournamentSerializer(many=True)}, summary="List events")
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TournamentSerializer(page, many=True).data)

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={201: TournamentSerializer, **WRITE_ERRORS},
        summary="Create an event (you become its director)",
    )
    def post(self, request: Request) -> Response:
        data = _valid(TournamentWriteSerializer, request)
        return _answer(
            lambda: services.tournament_create(director=request.user, **data),
            lambda t: Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED),
        )


class TournamentDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: TournamentSerializer, 404: ERRORS}, summary="One event")
    def get(self, request: Request, event: int) -> Response:
        return Response(TournamentSerializer(_event(request, event)).data)

    @extend_schema(
        request=TournamentWriteSerializer(partial=True),
        responses={200: TournamentSerializer, **WRITE_ERRORS},
        summary="Edit an event (directors; rules and format only during registration)",
    )
    def patch(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        serializer = TournamentWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        return _answer(
            lambda: services.tournament_update(
                tournament=tournament, actor=request.user, **changes
            ),
            lambda t: Response(TournamentSerializer(t).data),
        )


class EntrantListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: EventEntrantSerializer(many=True), 404: ERRORS}, summary="Entrants"
    )
    def get(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        entrants = tournament.entrants.select_related("player").prefetch_related("team__members")
        return Response(EventEntrantSerializer(entrants, many=True).data)

    @extend_schema(
        request=EventEntrantWriteSerializer,
        responses={201: EventEntrantSerializer, **WRITE_ERRORS},
        summary="Register an entrant (directors: anyone, late entries too; players: themselves)",
    )
    def post(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        data = _valid(EventEntrantWriteSerializer, request)
        return _answer(
            lambda: services.entrant_register(tournament=tournament, actor=request.user, **data),
            lambda e: Response(EventEntrantSerializer(e).data, status=status.HTTP_201_CREATED),
        )


class EntrantWithdrawView(APIView):
    @extend_schema(
        request=WithdrawalSerializer,
        responses={200: EventEntrantSerializer, **WRITE_ERRORS},
        summary="Withdraw an entrant (directors); unplayed tables are forfeited",
    )
    def post(self, request: Request, event: int, pk: int) -> Response:
        tournament = _event(request, event)
        entrant = tournament.entrants.filter(pk=pk).first()
        if entrant is None:
            raise NotFound(f"{tournament.name} has no entrant with id {pk}.")
        data = _valid(WithdrawalSerializer, request)
        return _answer(
            lambda: services.entrant_withdraw(entrant=entrant, actor=request.user, **data),
            lambda e: Response(EventEntrantSerializer(e).data),
        )


class RoundListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: EventRoundSerializer(many=True), 404: ERRORS}, summary="Rounds")
    def get(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        rounds = tournament.rounds.prefetch_related("matches__sides__entrant", "matches__records")
        return Response(EventRoundSerializer(rounds, many=True).data)

    @extend_schema(
        request=None,
        responses={201: EventRoundSerializer, **WRITE_ERRORS},
        summary="Pair the next round (directors); the first closes registration",
    )
    def post(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        return _answer(
            lambda: services.round_generate(tournament=tournament, actor=request.user),
            lambda r: Response(EventRoundSerializer(r).data, status=status.HTTP_201_CREATED),
        )


class RoundDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: EventRoundSerializer, 404: ERRORS}, summary="One round's tables")
    def get(self, request: Request, event: int, number: int) -> Response:
        return Response(EventRoundSerializer(_round(_event(request, event), number)).data)


class RoundOverrideView(APIView):
    @extend_schema(
        request=PairingOverrideSerializer,
        responses={200: EventRoundSerializer, **WRITE_ERRORS},
        summary="Swap two entrants between unplayed tables (directors; a manual pairing)",
    )
    def post(self, request: Request, event: int, number: int) -> Response:
        tournament = _event(request, event)
        rnd = _round(tournament, number)
        data = _valid(PairingOverrideSerializer, request)
        entrants = {
            e.pk: e for e in tournament.entrants.filter(pk__in=[data["first"], data["second"]])
        }
        for key in ("first", "second"):
            if data[key] not in entrants:
                return Response(
                    error_body(error("not_found", f"no entrant {data[key]} in this event",
                                     pointer=f"/{key}")),
                    status=status.HTTP_400_BAD_REQUEST,
                )  # fmt: skip
        return _answer(
            lambda: services.pairing_override(
                round=rnd,
                actor=request.user,
                first=entrants[data["first"]],
                second=entrants[data["second"]],
                reason=data["reason"],
            ),
            lambda r: Response(EventRoundSerializer(r).data),
        )


class MatchDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: TableSerializer, 404: ERRORS}, summary="One table")
    def get(self, request: Request, event: int, pk: int) -> Response:
        return Response(TableSerializer(_match(_event(request, event), pk)).data)


class MatchResultView(APIView):
    @extend_schema(responses={200: ResultSubmissionSerializer(many=True), 404: ERRORS},
                   summary="The results sent for a table")  # fmt: skip
    def get(self, request: Request, event: int, pk: int) -> Response:
        match = _match(_event(request, event), pk)
        return Response(ResultSubmissionSerializer(match.submissions.all(), many=True).data)

    @extend_schema(
        request=ResultGamesSerializer,
        responses={201: ResultSubmissionSerializer, **WRITE_ERRORS},
        summary="Enter a table's result: score sheets or records (directors, players at it)",
        description="Each game is verified by the engine and stored as a record. A director's "
        "result is confirmed at once; a player's waits for the other side or a director.",
    )
    def post(self, request: Request, event: int, pk: int) -> Response:
        match = _match(_event(request, event), pk)
        data = _valid(ResultGamesSerializer, request)
        return _answer(
            lambda: services.match_result_submit(match=match, actor=request.user, **data),
            lambda s: Response(ResultSubmissionSerializer(s).data, status=status.HTTP_201_CREATED),
        )


class MatchConfirmView(APIView):
    @extend_schema(
        request=ResultConfirmSerializer,
        responses={200: TableSerializer, **WRITE_ERRORS},
        summary="Confirm a submitted result (a director or a player of another side)",
    )
    def post(self, request: Request, event: int, pk: int) -> Response:
        match = _match(_event(request, event), pk)
        data = _valid(ResultConfirmSerializer, request)
        submission = match.submissions.filter(pk=data["submission"]).first()
        if submission is None:
            raise NotFound(f"No submission {data['submission']} for this table.")
        return _answer(
            lambda: services.match_result_confirm(submission=submission, actor=request.user),
            lambda m: Response(TableSerializer(m).data),
        )


class MatchForfeitView(APIView):
    @extend_schema(
        request=ForfeitRequestSerializer,
        responses={200: TableSerializer, **WRITE_ERRORS},
        summary="A no-show: the absent entrants lose by forfeit (directors)",
    )
    def post(self, request: Request, event: int, pk: int) -> Response:
        tournament = _event(request, event)
        match = _match(tournament, pk)
        data = _valid(ForfeitRequestSerializer, request)
        absent = list(tournament.entrants.filter(pk__in=data["absent"]))
        if len(absent) != len(set(data["absent"])):
            return Response(
                error_body(error("not_found", "an absent entrant is not in this event",
                                 pointer="/absent")),
                status=status.HTTP_400_BAD_REQUEST,
            )  # fmt: skip
        return _answer(
            lambda: services.match_forfeit(
                match=match, actor=request.user, absent=absent, reason=data["reason"]
            ),
            lambda m: Response(TableSerializer(m).data),
        )


class MatchCorrectView(APIView):
    @extend_schema(
        request=ResultCorrectionSerializer,
        responses={200: TableSerializer, **WRITE_ERRORS},
        summary="Correct a confirmed result (directors, with a reason)",
    )
    def post(self, request: Request, event: int, pk: int) -> Response:
        match = _match(_event(request, event), pk)
        data = _valid(ResultCorrectionSerializer, request)
        return _answer(
            lambda: services.result_correct(match=match, actor=request.user, **data),
            lambda m: Response(TableSerializer(m).data),
        )


class StandingsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses={200: StandingRowSerializer(many=True), 404: ERRORS},
        summary="Standings with the event's tie-breaks, in order",
    )
    def get(self, request: Request, event: int) -> Response:
        rows = selectors.standings_table(tournament=_event(request, event))
        return Response(StandingRowSerializer(rows, many=True).data)


class ResultsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: TableSerializer(many=True), 404: ERRORS},
                   summary="Every table of the event")  # fmt: skip
    def get(self, request: Request, event: int) -> Response:
        matches = selectors.match_results(tournament=_event(request, event))
        return Response(TableSerializer(matches, many=True).data)


class BracketView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: EventBracketSerializer, 404: ERRORS},
                   summary="An elimination event's bracket")  # fmt: skip
    def get(self, request: Request, event: int) -> Response:
        view = selectors.bracket_view(tournament=_event(request, event))
        if view is None:
            raise NotFound("This event has no bracket (not elimination, or not started).")
        return Response(EventBracketSerializer(view).data)


class HistoryView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses={200: EventHistorySerializer(many=True), 404: ERRORS},
                   summary="Who did what to the event, when and why")  # fmt: skip
    def get(self, request: Request, event: int) -> Response:
        events = _event(request, event).history.select_related("actor")
        return Response(EventHistorySerializer(events, many=True).data)


class FinishView(APIView):
    @extend_schema(request=None, responses={200: TournamentSerializer, **WRITE_ERRORS},
                   summary="Finish a complete event (directors)")  # fmt: skip
    def post(self, request: Request, event: int) -> Response:
        tournament = _event(request, event)
        return _answer(
            lambda: services.tournament_finish(tournament=tournament, actor=request.user),
            lambda t: Response(TournamentSerializer(t).data),
        )


class RatingListView(generics.ListAPIView[PlayerRating]):
    """Players' OpenSkill ratings across events, best (mu - 3 sigma) first."""

    serializer_class = PlayerRatingSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self) -> QuerySet[PlayerRating]:
        ordinal = F("mu") - 3 * F("sigma")
        return (
            PlayerRating.objects.select_related("player")
            .annotate(rank_score=ordinal)
            .order_by("-rank_score", "player")
        )
