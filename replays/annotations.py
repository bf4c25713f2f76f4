"""Annotations: writes (services) and reads (selectors), and their safe Markdown.

Every write checks the annotation against the record through the engine: the position must exist,
the highlighted cards must be in the rules' pack, and a variation must be legal from the state
before the annotated action (the engine's message is what the author sees when it is not).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Q, QuerySet
from markdown_it import MarkdownIt

from fivehundred.engine import Card, NotationError
from fivehundred.record import digest as record_digest
from replays.models import StoredRecord
from replays.models_annotations import Annotation, Glyph, Visibility
from replays.selectors import record_visible_to
from replays.viewer import GameWalk, ViewerError, variation_check, walk

TEXT_MAX = 10_000
CARDS_MAX = 20
VARIATION_MAX = 60

# CommonMark without raw HTML: tags in the text come out escaped, and markdown-it refuses
# javascript:, vbscript: and data: links. Images are off so a note cannot load outside content.
_markdown = MarkdownIt("commonmark", {"html": False, "linkify": False}).disable("image")


def markdown_render(text: str) -> str:
    """An annotation's text as HTML that cannot run script."""
    return str(_markdown.render(text))


@dataclass(frozen=True)
class AnnotationProblem:
    pointer: str  # a JSON Pointer into the annotation (``/variation/2``) or the uploaded record
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "code": self.code, "message": self.message}


class AnnotationInvalid(ValueError):
    def __init__(self, problems: list[AnnotationProblem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class AnnotationForbidden(PermissionError):
    """Someone other than the author tried to change an annotation."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def annotation_problems(
    *,
    game: GameWalk,
    hand: Any,
    action: Any,
    glyph: Any,
    text: Any,
    cards: Any,
    variation: Any,
    prefix: str = "",
) -> list[AnnotationProblem]:
    """Everything wrong with an annotation of the record ``game`` (empty when it is fine)."""
    out: list[AnnotationProblem] = []

    def bad(member: str, message: str, code: str = "bad_annotation") -> None:
        out.append(AnnotationProblem(f"{prefix}/{member}", code, message))

    if hand is not None and (not _is_int(hand) or hand < 0):
        bad("hand", "hand must be a hand index (0 or more)")
        return out
    if action is not None and (not _is_int(action) or action < 0):
        bad("action", "action must be an action index (0 or more)")
        return out
    if action is not None and hand is None:
        bad("action", "an action index needs a hand index")
        return out
    if hand is not None:
        if hand >= len(game.hands):
            bad("hand", f"hand {hand} does not exist: the record has {len(game.hands)} hands")
            return out
        h = game.hands[hand]
        if action is not None and (h.summary or action >= len(h.actions)):
            where = "is a summary hand" if h.summary else f"has {len(h.actions)} actions"
            bad("action", f"hand {hand} {where}; there is no action {action}")
            return out
    if glyph not in (None, "", *Glyph.values):
        bad("glyph", f"glyph must be one of {' '.join(Glyph.values)}, not {glyph!r}")
    if text is not None and (not isinstance(text, str) or len(text) > TEXT_MAX):
        bad("text", f"text must be a string of at most {TEXT_MAX} characters")
    if cards is not None:
        if not isinstance(cards, list) or len(cards) > CARDS_MAX:
            bad("cards", f"cards must be a list of at most {CARDS_MAX} cards")
        else:
            pack = set(game.rules.pack)
            for i, c in enumerate(cards):
                try:
                    card = Card.parse(c) if isinstance(c, str) else None
                except NotationError as e:
                    bad(f"cards/{i}", f"{c!r} is not a card: {e.message}")
                    continue
                if card is None or card not in pack:
                    bad(f"cards/{i}", f"{c!r} is not a card of this game's pack")
    if variation:
        if not isinstance(variation, list) or len(variation) > VARIATION_MAX:
            bad("variation", f"variation must be a list of at most {VARIATION_MAX} actions")
        elif hand is None or game.hands[hand].summary:
            bad("variation", "a variation needs a full hand to start from")
        else:
            try:
                _, failed, message = variation_check(game, hand, action, variation)
            except ViewerError as e:
                bad("variation", e.message)
            else:
                if failed is not None:
                    bad(f"variation/{failed}", f"not legal here: {message}", "illegal_action")
    return out


def _walk_of(record: StoredRecord) -> GameWalk:
    return walk(record.data)


def annotation_create(
    *,
    record: StoredRecord,
    author: Any,
    hand: int | None = None,
    action: int | None = None,
    glyph: str = "",
    text: str = "",
    cards: list[str] | None = None,
    variation: list[dict[str, Any]] | None = None,
    visibility: str = Visibility.PUBLIC,
) -> Annotation:
    """Add an annotation by ``author``; raises ``AnnotationInvalid`` naming each problem."""
    problems = annotation_problems(
        game=_walk_of(record),
        hand=hand,
        action=action,
        glyph=glyph,
        text=text,
        cards=cards,
        variation=variation,
    )
    if visibility not in Visibility.values:
        problems.append(
            AnnotationProblem("/visibility", "bad_annotation", "visibility is private or public")
        )
    if problems:
        raise AnnotationInvalid(problems)
    return Annotation.objects.create(
        record=record,
        author=author,
        hand=hand,
        action=action,
        glyph=glyph or "",
        text=text or "",
        cards=list(cards or []),
        variation=list(variation or []),
        visibility=visibility,
    )


_EDITABLE = ("hand", "action", "glyph", "text", "cards", "variation", "visibility")


def annotation_update(*, annotation: Annotation, user: Any, **changes: Any) -> Annotation:
    """Change the author's own annotation; the result is checked as a whole."""
    if annotation.author_id != getattr(user, "pk", None):
        raise AnnotationForbidden("only its author may change an annotation")
    unknown = set(changes) - set(_EDITABLE)
    if unknown:
        raise AnnotationInvalid(
            [AnnotationProblem(f"/{k}", "unknown_field", f"{k} cannot be changed") for k in unknown]
        )
    merged = {k: changes.get(k, getattr(annotation, k)) for k in _EDITABLE}
    problems = annotation_problems(
        game=_walk_of(annotation.record),
        hand=merged["hand"],
        action=merged["action"],
        glyph=merged["glyph"],
        text=merged["text"],
        cards=merged["cards"],
        variation=merged["variation"],
    )
    if merged["visibility"] not in Visibility.values:
        problems.append(
            AnnotationProblem("/visibility", "bad_annotation", "visibility is private or public")
        )
    if problems:
        raise AnnotationInvalid(problems)
    for key, value in merged.items():
        setattr(annotation, key, value if value is not None or key in ("hand", "action") else "")
    annotation.save()
    return annotation


def annotation_delete(*, annotation: Annotation, user: Any) -> None:
    if annotation.author_id != getattr(user, "pk", None):
        raise AnnotationForbidden("only its author may delete an annotation")
    annotation.delete()


# --------------------------------------------------------------------------------- selectors


def annotation_visible_to(*, user: Any = None) -> QuerySet[Annotation]:
    """Public annotations on records the user may see, and the user's own private ones."""
    notes = Annotation.objects.filter(record__in=record_visible_to(user=user))
    if getattr(user, "is_authenticated", False):
        return notes.filter(Q(visibility=Visibility.PUBLIC) | Q(author=user))
    return notes.filter(visibility=Visibility.PUBLIC)


# The order of the game: notes on the whole game, then each hand's (the hand's own first).
GAME_ORDER = (
    F("hand").asc(nulls_first=True),
    F("action").asc(nulls_first=True),
    "created_at",
    "id",
)


def annotation_list(*, record: StoredRecord, user: Any = None) -> QuerySet[Annotation]:
    """A record's annotations as ``user`` may see them, in the order of the game."""
    return (
        annotation_visible_to(user=user)
        .filter(record=record)
        .select_related("author")
        .order_by(*GAME_ORDER)
    )


def annotation_list_all(*, user: Any = None) -> QuerySet[Annotation]:
    """Every annotation ``user`` may see, newest first (the annotations page)."""
    return (
        annotation_visible_to(user=user)
        .select_related("author", "record")
        .order_by("-created_at", "-id")
    )


def annotation_get(*, annotation_id: int, user: Any = None) -> Annotation | None:
    return (
        annotation_visible_to(user=user).select_related("record").filter(pk=annotation_id).first()
    )


def annotation_to_record_json(note: Annotation) -> dict[str, Any]:
    """The record format's annotation object (docs/record-format.md section 6)."""
    out: dict[str, Any] = {}
    if note.hand is not None:
        out["hand"] = note.hand
    if note.action is not None:
        out["action"] = note.action
    if note.glyph:
        out["glyph"] = note.glyph
    if note.text:
        out["text"] = note.text
    out["author"] = note.author.get_username()
    if note.cards:
        out["cards"] = list(note.cards)
    if note.variation:
        out["variation"] = list(note.variation)
    return out


def record_export(*, record: StoredRecord) -> dict[str, Any]:
    """The record with its public annotations, as record v1 ``annotations``."""
    data: dict[str, Any] = copy.deepcopy(record.data)
    public = Annotation.objects.filter(record=record, visibility=Visibility.PUBLIC).order_by(
        *GAME_ORDER
    )
    # The annotations the record came with (checked when it was verified) stay first.
    notes = list(data.pop("annotations", None) or [])
    notes += [annotation_to_record_json(n) for n in public.select_related("author")]
    if notes:
        data["annotations"] = notes
    return data


# --------------------------------------------------------------------------------- import


@dataclass
class ImportReport:
    created: list[Annotation]
    problems: list[AnnotationProblem]


def annotations_import(
    *, record: StoredRecord, author: Any, data: Any, visibility: str = Visibility.PRIVATE
) -> ImportReport:
    """Add, as ``author``'s, the annotations of ``data`` (an annotated copy of this record).

    The uploaded record must be the same game (same canonical digest); each annotation is checked
    on its own, the good ones are kept and each bad one is reported at ``/annotations/k/...``.
    """
    if not isinstance(data, dict):
        return ImportReport([], [AnnotationProblem("", "not_a_record", "the file is not a record")])
    try:
        same = record_digest(data) == record.digest
    except Exception:  # canonical_text rejects anything that is not plain JSON
        same = False
    if not same:
        return ImportReport(
            [],
            [
                AnnotationProblem(
                    "",
                    "different_game",
                    "the uploaded record is not this game (its digest differs)",
                )
            ],
        )
    notes = data.get("annotations")
    if not isinstance(notes, list) or not notes:
        return ImportReport(
            [],
            [AnnotationProblem("/annotations", "no_annotations", "the record has no annotations")],
        )
    game = _walk_of(record)
    created: list[Annotation] = []
    problems: list[AnnotationProblem] = []
    allowed = {"hand", "action", "glyph", "text", "author", "cards", "variation"}
    with transaction.atomic():
        for k, note in enumerate(notes):
            prefix = f"/annotations/{k}"
            if not isinstance(note, dict):
                problems.append(AnnotationProblem(prefix, "bad_annotation", "not an object"))
                continue
            extra = sorted(set(note) - allowed)
            if extra:
                problems.append(
                    AnnotationProblem(
                        f"{prefix}/{extra[0]}", "bad_annotation", f"unknown member {extra[0]!r}"
                    )
                )
                continue
            found = annotation_problems(
                game=game,
                hand=note.get("hand"),
                action=note.get("action"),
                glyph=note.get("glyph"),
                text=note.get("text"),
                cards=note.get("cards"),
                variation=note.get("variation"),
                prefix=prefix,
            )
            if found:
                problems.extend(found)
                continue
            created.append(
                Annotation.objects.create(
                    record=record,
                    author=author,
                    hand=note.get("hand"),
                    action=note.get("action"),
                    glyph=note.get("glyph") or "",
                    text=note.get("text") or "",
                    cards=list(note.get("cards") or []),
                    variation=list(note.get("variation") or []),
                    visibility=visibility,
                )
            )
    return ImportReport(created, problems)
