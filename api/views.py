"""Thin API views: read input, call a service or selector, serialize the result."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from api.errors import error, error_body, unknown_parameters
from api.pagination import PageNumberPagination
from api.serializers import (
    ErrorResponseSerializer,
    PlayerSerializer,
    RecordDetailSerializer,
    RecordFileUploadSerializer,
    RecordFilterSerializer,
    RecordSummarySerializer,
    TeamSerializer,
)
from api.uploads import upload_bytes
from fivehundred.record import dumps
from replays.models import StoredRecord
from replays.selectors import record_get, record_list
from replays.services import RecordInvalid, record_ingest
from tournaments.models import Player, Team
from tournaments.selectors import player_list, team_list

ERRORS = OpenApiResponse(ErrorResponseSerializer, description="What was wrong, and where.")


class ApiRootView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=inline_serializer("ApiRoot", {"endpoints": serializers.DictField()}),
        summary="The API's entry points",
    )
    def get(self, request: Request) -> Response:
        names = [
            "record-list",
            "player-list",
            "team-list",
            "tournament-list",
            "rating-list",
            "bot-list",
            "bot-match-list",
            "ladder",
            "token",
            "health",
            "schema",
            "docs",
        ]
        return Response(
            {"endpoints": {name: reverse(f"api:{name}", request=request) for name in names}}
        )


class HealthView(APIView):
    permission_classes = [AllowAny]
    throttle_classes: list[type[BaseThrottle]] = []

    @extend_schema(
        responses=inline_serializer(
            "Health",
            {
                "status": serializers.CharField(),
                "database": serializers.CharField(),
                "tasks": serializers.CharField(),
            },
        ),
        summary="Liveness: the web process answers and reaches its database",
    )
    def get(self, request: Request) -> Response:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        tasks = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "broker"
        return Response({"status": "ok", "database": connection.vendor, "tasks": tasks})


class RecordListCreateView(generics.GenericAPIView[StoredRecord]):
    """List stored records, or upload one."""

    parser_classes = [JSONParser, MultiPartParser]
    pagination_class = PageNumberPagination
    serializer_class = RecordSummarySerializer
    throttle_scope = "upload"

    def get_throttles(self) -> list[BaseThrottle]:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles

    @extend_schema(
        parameters=[RecordFilterSerializer],
        responses={200: RecordSummarySerializer(many=True), 400: ERRORS},
        summary="List records (newest first), filtered and paginated",
    )
    def get(self, request: Request) -> Response:
        if bad := unknown_parameters(request, set(RecordFilterSerializer().fields)):
            return bad
        params = RecordFilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        filters = {k: v for k, v in params.validated_data.items() if k not in ("page", "page_size")}
        page = self.paginate_queryset(record_list(user=request.user, **filters))
        data = RecordSummarySerializer(page, many=True, context={"request": request}).data
        return self.get_paginated_response(data)

    @extend_schema(
        request={
            "application/json": OpenApiTypes.OBJECT,
            "multipart/form-data": RecordFileUploadSerializer,
        },
        responses={
            201: OpenApiResponse(RecordDetailSerializer, description="Verified and stored."),
            200: OpenApiResponse(
                RecordDetailSerializer, description="Already stored: the existing record."
            ),
            400: ERRORS,
            401: ERRORS,
            413: ERRORS,
            415: ERRORS,
            429: ERRORS,
        },
        examples=[
            OpenApiExample(
                "Invalid record",
                value=error_body(
                    error(
                        "illegal_action",
                        "seat 2 must follow hearts (holds 9H)",
                        pointer="/hands/1/actions/23",
                    )
                ),
                response_only=True,
                status_codes=["400"],
            )
        ],
        summary="Upload a record: verified, then stored once per digest",
        description=(
            "Send the record as the JSON body, or as the file field `file` of a multipart form. "
            "An invalid record is refused with the verifier's errors and nothing is stored; "
            "a record already stored (same canonical digest) returns the stored one with 200."
        ),
    )
    def post(self, request: Request) -> Response:
        raw = upload_bytes(request)
        try:
            record, created = record_ingest(data=raw, uploaded_by=request.user)
        except RecordInvalid as invalid:
            return Response(
                error_body(*(e.to_json() for e in invalid.errors)),
                status=status.HTTP_400_BAD_REQUEST,
            )
        data = RecordDetailSerializer(record, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def _record_or_404(request: Request, pk: int) -> StoredRecord:
    record = record_get(record_id=pk, user=request.user)
    if record is None:
        raise NotFound(f"No record with id {pk}.")
    return record


class RecordDetailView(APIView):
    @extend_schema(responses={200: RecordDetailSerializer, 404: ERRORS}, summary="One record")
    def get(self, request: Request, pk: int) -> Response:
        record = _record_or_404(request, pk)
        return Response(RecordDetailSerializer(record, context={"request": request}).data)


class RecordDownloadView(APIView):
    @extend_schema(
        responses={
            (200, "application/json"): OpenApiResponse(
                OpenApiTypes.OBJECT, description="The record file."
            ),
            404: ERRORS,
        },
        summary="Download the record as a JSON file",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        record = _record_or_404(request, pk)
        response = HttpResponse(dumps(record.data), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="record-{record.pk}.json"'
        return response


class PlayerListView(generics.ListAPIView[Player]):
    serializer_class = PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        return player_list()


class PlayerDetailView(generics.RetrieveAPIView[Player]):
    serializer_class = PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        return player_list()


class TeamListView(generics.ListAPIView[Team]):
    serializer_class = TeamSerializer

    def get_queryset(self) -> QuerySet[Team]:
        return team_list()
