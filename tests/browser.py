"""The system's Chromium (installed by ``.ci/run``) driven by Playwright, for the page tests.

Without Chromium a browser test is skipped, except under ``CI=true``, where it fails. Playwright's
sync API switches greenlets inside the test's thread, and Django would see database calls made
meanwhile as coming from another context (a second connection, never closed): so a browser test
does its database work before it starts the browser.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = (
    "/usr/bin/chromium"
    if os.path.exists("/usr/bin/chromium")
    else shutil.which("chromium") or shutil.which("chromium-browser")
)
# Headless, and none of the background traffic a closed network would refuse.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[Any]:
    """A Playwright ``Browser`` on the system's Chromium, closed afterwards."""
    if CHROMIUM is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is not installed (required when CI=true)")
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
