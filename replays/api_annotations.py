"""REST API of the viewer and the annotations (included under /api/v1/ by ``api/urls.py``).

- ``records/<id>/annotations/``: list (public ones and your own private ones) and create.
- ``annotations/<id>/``: read; update and delete your own.
- ``records/<id>/replay/?seat=S&hand=H``: the steps of the game for one seat or all hands open.
- ``records/<id>/legal/?hand=H&action=A&variation=[...]&next=TEXT``: what a line may continue with.
"""

from __future__ import annotations

import json
from typing import Any

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import error, error_body
from api.serializers import ErrorResponseSerializer
from fivehundred.engine import EngineError, action_to_json, parse_action
from replays.annotations import (
    VARIATION_MAX,
    AnnotationForbidden,
    AnnotationInvalid,
    annotation_create,
    annotation_delete,
    annotation_get,
    annotation_list,
    annotation_update,
    markdown_render,
)
from replays.models import StoredRecord
from replays.models_annotations import Annotation, Glyph, Visibility
from replays.selectors import record_get
from replays.viewer import ViewerError, legal_json, steps, variation_check, walk

ERRORS = OpenApiResponse(ErrorResponseSerializer, description="What was wrong, and where.")


class AnnotationSerializer(serializers.ModelSerializer[Annotation]):
    author = serializers.CharField(source="author.get_username", read_only=True)
    html = serializers.SerializerMethodField(help_text="The text rendered as safe HTML.")

    class Meta:
        model = Annotation
        fields = [
            "id",
            "record",
            "author",
            "hand",
            "action",
            "glyph",
            "text",
            "html",
            "cards",
            "variation",
            "visibility",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_html(self, obj: Annotation) -> str:
        return markdown_render(obj.text)


class AnnotationInputSerializer(serializers.Serializer[Any]):
    """The shape of an annotation; the engine checks its content (``replays.annotations``)."""

    hand = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    action = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    glyph = serializers.ChoiceField(choices=["", *Glyph.values], required=False)
    text = serializers.CharField(required=False, allow_blank=True, max_length=10_000)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    variation = serializers.ListField(child=serializers.DictField(), required=False)
    visibility = serializers.ChoiceField(choices=Visibility.values, required=False)


def _invalid(e: AnnotationInvalid) -> Response:
    return Response(
        error_body(*(error(p.code, p.message, pointer=p.pointer) for p in e.problems)),
        status=status.HTTP_400_BAD_REQUEST,
    )


def _forbidden(e: Exception) -> Response:
    return Response(
        error_body(error("permission_denied", str(e))), status=status.HTTP_403_FORBIDDEN
    )


def _record(request: Request, pk: int) -> StoredRecord:
    record = record_get(record_id=pk, user=request.user)
    if record is None:
        raise NotFound(f"No record with id {pk}.")
    return record


def _bad_param(member: str, message: str) -> Response:
    return Response(
        error_body(error("bad_parameter", message, pointer=f"/{member}")),
        status=status.HTTP_400_BAD_REQUEST,
    )


def _int(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name, "")
    if raw in ("", "all"):
        return None
    if not raw.isdigit():
        raise ViewerError(name, f"{name} must be a whole number (0 or more), not {raw!r}")
    return int(raw)


class RecordAnnotationsView(APIView):
    @extend_schema(
        responses={200: AnnotationSerializer(many=True), 404: ERRORS},
        summary="A record's annotations (public ones and your own private ones)",
    )
    def get(self, request: Request, pk: int) -> Response:
        record = _record(request, pk)
        notes = annotation_list(record=record, user=request.user)
        return Response(AnnotationSerializer(notes, many=True).data)

    @extend_schema(
        request=AnnotationInputSerializer,
        responses={201: AnnotationSerializer, 400: ERRORS, 401: ERRORS, 404: ERRORS},
        summary="Annotate a record (its variation is checked by the engine)",
    )
    def post(self, request: Request, pk: int) -> Response:
        record = _record(request, pk)
        data = AnnotationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            note = annotation_create(record=record, author=request.user, **data.validated_data)
        except AnnotationInvalid as e:
            return _invalid(e)
        return Response(AnnotationSerializer(note).data, status=status.HTTP_201_CREATED)


class AnnotationDetailView(APIView):
    def _note(self, request: Request, pk: int) -> Annotation:
        note = annotation_get(annotation_id=pk, user=request.user)
        if note is None:
            raise NotFound(f"No annotation with id {pk}.")
        return note

    @extend_schema(responses={200: AnnotationSerializer, 404: ERRORS}, summary="One annotation")
    def get(self, request: Request, pk: int) -> Response:
        return Response(AnnotationSerializer(self._note(request, pk)).data)

    @extend_schema(
        request=AnnotationInputSerializer,
        responses={200: AnnotationSerializer, 400: ERRORS, 403: ERRORS, 404: ERRORS},
        summary="Change your own annotation",
    )
    def patch(self, request: Request, pk: int) -> Response:
        note = self._note(request, pk)
        data = AnnotationInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        try:
            note = annotation_update(annotation=note, user=request.user, **data.validated_data)
        except AnnotationForbidden as e:
            return _forbidden(e)
        except AnnotationInvalid as e:
            return _invalid(e)
        return Response(AnnotationSerializer(note).data)

    @extend_schema(
        request=AnnotationInputSerializer,
        responses={200: AnnotationSerializer, 400: ERRORS, 403: ERRORS, 404: ERRORS},
        summary="Replace your own annotation",
    )
    def put(self, request: Request, pk: int) -> Response:
        return self.patch(request, pk)

    @extend_schema(
        responses={204: None, 403: ERRORS, 404: ERRORS}, summary="Delete your own annotation"
    )
    def delete(self, request: Request, pk: int) -> Response:
        note = self._note(request, pk)
        try:
            annotation_delete(annotation=note, user=request.user)
        except AnnotationForbidden as e:
            return _forbidden(e)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RecordReplayView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "seat",
                OpenApiTypes.INT,
                description="One seat's view (what it knew at each step); omit for all hands open.",
            ),
            OpenApiParameter("hand", OpenApiTypes.INT, description="Only this hand's steps."),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
        summary="The game step by step, for one seat or all hands open",
        description=(
            "Each step is one position (`hand`, `action`: the number of actions applied). "
            "With `seat`, a step is built from the engine's view of that seat and holds no other "
            "seat's cards."
        ),
    )
    def get(self, request: Request, pk: int) -> Response:
        record = _record(request, pk)
        game = walk(record.data, record.digest)
        try:
            seat = _int(request, "seat")
            hand = _int(request, "hand")
            found = steps(game, seat=seat, hand=hand)
        except ViewerError as e:
            return _bad_param(e.member, e.message)
        return Response(
            {
                "record": record.pk,
                "digest": record.digest,
                "seat": seat,
                **game.table_json(),
                "steps": found,
            }
        )


class RecordLegalView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("hand", OpenApiTypes.INT, required=True),
            OpenApiParameter(
                "action", OpenApiTypes.INT, description="The annotated action (omit: the hand)."
            ),
            OpenApiParameter(
                "variation",
                OpenApiTypes.STR,
                description="The line so far: a JSON list of actions.",
            ),
            OpenApiParameter(
                "next", OpenApiTypes.STR, description="An action to add, as text (`play AH`)."
            ),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: ERRORS},
        summary="Check a line from before an action and list what may follow",
    )
    def get(self, request: Request, pk: int) -> Response:
        record = _record(request, pk)
        game = walk(record.data, record.digest)
        try:
            hand = _int(request, "hand")
            action = _int(request, "action")
            if hand is None:
                raise ViewerError("hand", "hand is required")
            raw = request.query_params.get("variation") or "[]"
            try:
                line = json.loads(raw)
            except ValueError:
                raise ViewerError("variation", "variation must be a JSON list of actions") from None
            if not isinstance(line, list) or len(line) > VARIATION_MAX:
                raise ViewerError(
                    "variation", f"variation must be a JSON list of at most {VARIATION_MAX} actions"
                )
            state, failed, message = variation_check(game, hand, action, line)
        except ViewerError as e:
            return _bad_param(e.member, e.message)
        if failed is not None:
            return Response(
                error_body(
                    error(
                        "illegal_action",
                        f"not legal here: {message}",
                        pointer=f"/variation/{failed}",
                    )
                ),
                status=status.HTTP_400_BAD_REQUEST,
            )
        added = None
        text = request.query_params.get("next", "").strip()
        if text:
            seat = state.to_act
            try:
                if seat is None:
                    raise ViewerError("next", "the hand is over: nothing may follow")
                act = parse_action(text)
                state = state.apply(act, seat)
            except ViewerError as e:
                return _bad_param(e.member, e.message)
            except EngineError as e:
                return Response(
                    error_body(error("illegal_action", f"{text}: {e}", pointer="/next")),
                    status=status.HTTP_400_BAD_REQUEST,
                )
            added = action_to_json(seat, act)
            line = [*line, added]
        return Response(
            {
                "hand": hand,
                "action": action,
                "variation": line,
                "added": added,
                "to_act": state.to_act,
                "legal": legal_json(state),
            }
        )


urlpatterns = [
    path(
        "records/<int:pk>/annotations/",
        RecordAnnotationsView.as_view(),
        name="record-annotations",
    ),
    path("records/<int:pk>/replay/", RecordReplayView.as_view(), name="record-replay"),
    path("records/<int:pk>/legal/", RecordLegalView.as_view(), name="record-legal"),
    path("annotations/<int:pk>/", AnnotationDetailView.as_view(), name="annotation-detail"),
]
