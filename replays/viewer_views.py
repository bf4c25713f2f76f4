"""Pages of the replay viewer: thin views over ``replays.viewer`` and ``replays.annotations``.

The page is rendered on the server at the requested position; stepping fetches the next
position's table as an HTML fragment (``record_step``), built for the chosen seat only.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from fivehundred.engine import action_from_json, format_action
from fivehundred.record import dumps
from fivehundred.record.show import render_text
from replays.annotations import (
    annotation_list,
    annotation_list_all,
    annotations_import,
    markdown_render,
    record_export,
)
from replays.models import StoredRecord
from replays.models_annotations import Annotation, Glyph, Visibility
from replays.selectors import record_visible_to
from replays.viewer import SUIT_SYMBOLS, GameWalk, ViewerError, card_json, step, walk

DIGEST_PREFIX = re.compile(r"^[0-9a-fA-F]{8,64}$")
UPLOAD_MAX = 5 * 1024 * 1024


def record_resolve(*, ref: str | int, user: Any) -> StoredRecord:
    """A record visible to ``user`` by primary key or by a digest prefix of 8+ hex characters."""
    records = record_visible_to(user=user).prefetch_related("seats")
    text = str(ref)
    if text.isdigit() and len(text) < 8:
        found = records.filter(pk=int(text)).first()
    elif DIGEST_PREFIX.match(text):
        matches = list(records.filter(digest__startswith=text.lower())[:2])
        if len(matches) > 1:
            raise Http404(f"The digest prefix {text} matches several records; give more of it.")
        found = matches[0] if matches else None
        if found is None and text.isdigit():
            found = records.filter(pk=int(text)).first()
    else:
        raise Http404(f"{text!r} is neither a record id nor a digest prefix (8+ hex characters).")
    if found is None:
        raise Http404(f"No record {text}.")
    return found


def _int_param(request: HttpRequest, name: str) -> int | None:
    raw = request.GET.get(name, "")
    if raw in ("", "all"):
        return None
    if not raw.lstrip("-").isdigit():
        raise ViewerError(name, f"{name} must be a whole number, not {raw!r}")
    return int(raw)


def _position(request: HttpRequest, game: GameWalk) -> tuple[int, int, int | None]:
    hand = _int_param(request, "hand")
    action = _int_param(request, "action")
    seat = _int_param(request, "seat")
    if not game.hands:
        raise ViewerError("hand", "the record has no hands yet")
    hand = 0 if hand is None else hand
    h = game.hand(hand)
    action = 0 if action is None else action
    if action < 0 or action >= h.positions:
        raise ViewerError(
            "action",
            f"hand {hand} has positions 0 to {h.positions - 1}; there is no position {action}",
        )
    if seat is not None and not 0 <= seat < game.rules.players:
        raise ViewerError(
            "seat", f"seat {seat} does not exist: seats are 0 to {game.rules.players - 1}"
        )
    return hand, action, seat


def _note_json(
    note: Annotation, *, user: Any, seat: int | None, names: list[str]
) -> dict[str, Any]:
    # In one seat's view a note's cards and variation could show what that seat cannot see,
    # so only the text and glyph go to the page there.
    open_view = seat is None
    return {
        "id": note.pk,
        "hand": note.hand,
        "action": note.action,
        "glyph": note.glyph,
        "html": markdown_render(note.text),
        "text": note.text,
        "author": note.author.get_username(),
        "cards": [card_json(c) for c in note.cards] if open_view else [],
        "variation": list(note.variation) if open_view else [],
        "variation_text": _variation_text(note.variation, names) if open_view else "",
        "visibility": note.visibility,
        "mine": note.author_id == getattr(user, "pk", None),
        "updated_at": note.updated_at,
    }


def _record_notes(record: StoredRecord, seat: int | None, names: list[str]) -> list[dict[str, Any]]:
    """The annotations written inside the record itself (verified with it), shown like ours."""
    out = []
    for k, note in enumerate(record.data.get("annotations") or []):
        open_view = seat is None
        variation = note.get("variation") or []
        out.append(
            {
                "id": f"record-{k}",
                "hand": note.get("hand"),
                "action": note.get("action"),
                "glyph": note.get("glyph", ""),
                "html": markdown_render(note.get("text", "")),
                "text": note.get("text", ""),
                "author": note.get("author") or "(in the record)",
                "cards": [card_json(c) for c in note.get("cards") or []] if open_view else [],
                "variation": variation if open_view else [],
                "variation_text": _variation_text(variation, names) if open_view else "",
                "visibility": "public",
                "mine": False,
                "updated_at": None,
            }
        )
    return out


def _variation_text(variation: list[dict[str, Any]], names: list[str]) -> str:
    parts = []
    for obj in variation:
        try:
            seat, action = action_from_json(obj)
        except ValueError:
            parts.append("?")
            continue
        who = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
        parts.append(f"{who}: {format_action(action)}")
    return ", ".join(parts)


def _step_context(
    request: HttpRequest,
    record: StoredRecord,
    game: GameWalk,
    hand: int,
    action: int,
    seat: int | None,
) -> dict[str, Any]:
    current = step(game, hand, action, seat)
    n = game.rules.players
    names = [game.seats[s].get("name", f"seat {s}") for s in range(n)]
    notes = _record_notes(record, seat, names) + [
        _note_json(note, user=request.user, seat=seat, names=names)
        for note in annotation_list(record=record, user=request.user)
    ]
    hand_notes = [n for n in notes if n["hand"] == hand]
    shown = {m["index"] for m in current["moves"]}
    on_move: dict[int, list[dict[str, Any]]] = {}
    for note in hand_notes:
        if note["action"] is not None and note["action"] in shown:
            on_move.setdefault(note["action"], []).append(note)
    for m in current["moves"]:
        m["notes"] = on_move.get(m["index"], [])
    here = (
        on_move.get(action - 1, [])
        if action > 0
        else [note for note in hand_notes if note["action"] is None]
    )
    # Cards the notes on this position point at are outlined on the table too.
    highlight = {c["card"] for note in here for c in note["cards"]}
    bottom = seat if seat is not None else 0
    places = []
    for s in current["seats"]:
        i = (s["seat"] - bottom) % n
        angle = 2 * math.pi * i / n
        places.append(
            {
                **s,
                # Offsets from the table's centre in percent (CSS scales them on small screens).
                "dx": round(-40 * math.sin(angle), 2),
                "dy": round(38 * math.cos(angle), 2),
                "tdx": round(-17 * math.sin(angle), 2),
                "tdy": round(20 * math.cos(angle), 2),
                "pos": "pos-side" if abs(math.sin(angle)) > 0.5 else "pos-end",
                "to_act": current["to_act"] == s["seat"],
                "is_dealer": current["dealer"] == s["seat"],
                "is_contractor": (current["contract"] or {}).get("seat") == s["seat"],
                "is_partner": current.get("partner") == s["seat"],
                "hidden": s["cards"] is None,
                "played": [],
            }
        )
    if current["trick"]:
        by_seat = {p["seat"]: p for p in places}
        for c in current["trick"]["cards"]:
            by_seat[c["seat"]]["played"].append(c)
    # Once the hand is scored the running totals include it.
    shown_totals = (current["result"] or {}).get("totals") or current["totals"]
    sides = [
        {
            "side": i,
            "seats": ", ".join(game.seats[s].get("name", f"seat {s}") for s in side),
            "tricks": (current["tricks_won"] or [None] * len(game.rules.sides))[i],
            "total": shown_totals[i] if shown_totals else 0,
        }
        for i, side in enumerate(game.rules.sides)
    ]
    auction_rows = _auction_rows(current["auction"], current["dealer"], n)
    first = (current["dealer"] + 1) % n
    for m in current["moves"]:
        m["name"] = names[m["seat"]]
    sheet = [
        {
            **row,
            "contract_text": _contract_text(row.get("contract"), names),
        }
        for row in current["sheet"]
    ]
    total_positions = len(game.positions)
    index = game.positions.index((hand, action))
    return {
        "record": record,
        "step": current,
        "places": places,
        "sides": sides,
        "auction_rows": auction_rows,
        "seat_names": names,
        "auction_seats": [names[(first + i) % n] for i in range(n)],
        "contract_text": _contract_text(current["contract"], names),
        "sheet": sheet,
        "names": _names_of(current, names, game),
        "notes_here": here,
        "highlight": highlight,
        "hand_actions": len(game.hands[hand].actions),
        "hand_notes": [x for x in hand_notes if x["action"] is None],
        "game_notes": [x for x in notes if x["hand"] is None],
        "all_notes": notes,
        "index": index,
        "total": total_positions,
        "seat": seat,
        "hand": hand,
        "action": action,
        "suit_symbols": SUIT_SYMBOLS,
    }


_CALL_NAMES = {"PASS": "pass", "MIS": "misère", "OM": "open misère", "BM": "blind misère"}


def call_pretty(text: str) -> dict[str, Any]:
    """A call as people write it: ``7♥``, ``6NT``, ``misère``; red for hearts and diamonds."""
    base, _, sans = text.partition("/")
    if base in _CALL_NAMES:
        out = _CALL_NAMES[base]
    elif base.endswith("NT"):
        out = base
    else:
        out = base[:-1] + SUIT_SYMBOLS[base[-1]]
    if sans:
        out += " sans kitty"
    return {"text": out, "red": base[-1:] in ("H", "D") and base not in _CALL_NAMES}


def _names_of(current: dict[str, Any], names: list[str], game: GameWalk) -> dict[str, str]:
    """Names of the seats a step mentions (the template cannot index a list by a variable)."""

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""

    trick = current.get("trick") or {}
    last = current.get("last") or {}
    return {
        "winner": name(trick.get("winner")),
        "partner": name(current.get("partner")),
        "last": name(last.get("seat")),
        "dealer": name(current.get("dealer")),
        "to_act": name(current.get("to_act")),
        "termination": name((game.termination or {}).get("seat")),
    }


def _auction_rows(
    auction: list[dict[str, Any]], dealer: int, n: int
) -> list[list[dict[str, Any] | None]]:
    """The auction as a table: one column per seat, from the dealer's left, one row per round."""
    rows: list[list[dict[str, Any] | None]] = []
    row: list[dict[str, Any] | None] = []
    first = (dealer + 1) % n
    for call in auction:
        col = (call["seat"] - first) % n
        if col < len(row):
            rows.append(row + [None] * (n - len(row)))
            row = []
        row.extend([None] * (col - len(row)))
        row.append(call_pretty(call["call"]))
        if len(row) == n:
            rows.append(row)
            row = []
    if row:
        rows.append(row + [None] * (n - len(row)))
    return rows


def _contract_text(contract: dict[str, Any] | None, names: list[str]) -> dict[str, Any] | None:
    if not contract:
        return None
    seat = contract["seat"]
    return {**call_pretty(contract["bid"]), "by": names[seat], "seat": seat}


def _viewer_error(request: HttpRequest, e: ViewerError) -> HttpResponse:
    return render(
        request,
        "error.html",
        {"status": 400, "message": f"{e.member}: {e.message}"},
        status=400,
    )


def viewer_page(request: HttpRequest, ref: str | int) -> HttpResponse:
    record = record_resolve(ref=ref, user=request.user)
    game = walk(record.data, record.digest)
    if not game.hands:
        return render(request, "replays/viewer_empty.html", {"record": record, "game": game})
    try:
        hand, action, seat = _position(request, game)
    except ViewerError as e:
        return _viewer_error(request, e)
    context = _step_context(request, record, game, hand, action, seat)
    context.update(
        table_json=game.table_json(),
        game=game,
        glyphs=Glyph.choices,
        visibilities=Visibility.choices,
        seat_choices=list(enumerate(context["seat_names"])),
        ref=record.digest[:12],
        step_url=reverse("record-step", args=[record.digest[:12]]),
        termination=game.termination,
        result=game.result,
        # The text shows every hand: only in the open view.
        text=render_text(record.data) if seat is None else "",
    )
    return render(request, "replays/viewer.html", context)


def record_step(request: HttpRequest, ref: str) -> HttpResponse:
    """The table at one position, as the fragment the viewer swaps in."""
    record = record_resolve(ref=ref, user=request.user)
    game = walk(record.data, record.digest)
    try:
        hand, action, seat = _position(request, game)
    except ViewerError as e:
        return HttpResponseBadRequest(f"{e.member}: {e.message}", content_type="text/plain")
    context = _step_context(request, record, game, hand, action, seat)
    return render(request, "replays/viewer_step.html", context)


def record_export_download(request: HttpRequest, ref: str) -> HttpResponse:
    record = record_resolve(ref=ref, user=request.user)
    response = HttpResponse(dumps(record_export(record=record)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="record-{record.pk}-annotated.json"'
    return response


@require_POST
def record_annotations_import(request: HttpRequest, ref: str) -> HttpResponse:
    record = record_resolve(ref=ref, user=request.user)
    back = reverse("record-viewer", args=[record.digest[:12]])
    if not request.user.is_authenticated:
        return redirect(f"{reverse('admin:login')}?next={back}")
    upload = request.FILES.get("file")
    if upload is None:
        messages.error(request, "Choose an annotated record file to import.")
        return redirect(back)
    if upload.size is not None and upload.size > UPLOAD_MAX:
        messages.error(request, "The file is larger than 5 MiB.")
        return redirect(back)
    try:
        data = json.loads(upload.read())
    except (ValueError, UnicodeDecodeError) as e:
        messages.error(request, f"The file is not JSON: {e}")
        return redirect(back)
    report = annotations_import(record=record, author=request.user, data=data)
    if report.created:
        messages.success(request, f"Imported {len(report.created)} annotation(s), as private.")
    for p in report.problems:
        messages.error(request, f"{p.pointer or 'file'}: {p.message}")
    return redirect(back)


def annotation_list_page(request: HttpRequest) -> HttpResponse:
    notes = annotation_list_all(user=request.user)
    page = Paginator(notes, 50).get_page(request.GET.get("page"))
    rows = []
    for n in page.object_list:
        link = reverse("record-viewer", args=[n.record.digest[:12]])
        if n.hand is not None:
            action = 0 if n.action is None else n.action + 1
            link += f"?hand={n.hand}&action={action}"
        rows.append({"note": n, "link": link, "html": markdown_render(n.text)})
    return render(request, "replays/viewer_annotations.html", {"page": page, "rows": rows})
