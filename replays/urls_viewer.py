"""URLs of the replay viewer and the annotations pages (included at the site's root)."""

from __future__ import annotations

from django.urls import path

from replays import viewer_views

urlpatterns = [
    # ``ref`` is a record id or a digest prefix of 8+ hex characters.
    path("records/<str:ref>/", viewer_views.viewer_page, name="record-viewer"),
    path("records/<str:ref>/step/", viewer_views.record_step, name="record-step"),
    path("records/<str:ref>/export/", viewer_views.record_export_download, name="record-export"),
    path(
        "records/<str:ref>/annotations/import/",
        viewer_views.record_annotations_import,
        name="record-annotations-import",
    ),
    path("annotations/", viewer_views.annotation_list_page, name="annotation-list"),
]
