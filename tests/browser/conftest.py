"""Browser tests run each journey at a desktop and a phone size, and keep screenshots."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

SCREENSHOTS = Path(__file__).resolve().parent.parent / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# These machines are shared: give a busy server more than the default 5 s to answer.
expect.set_options(timeout=10_000)


@dataclass
class Screen:
    name: str
    page: Page

    def shot(self, label: str) -> None:
        """Save a full-page screenshot as tests/screenshots/<label>-<screen>.png."""
        SCREENSHOTS.mkdir(exist_ok=True)
        self.page.screenshot(path=SCREENSHOTS / f"{label}-{self.name}.png", full_page=True)


@pytest.fixture(params=list(SIZES))
def screen(request: pytest.FixtureRequest, page: Page) -> Screen:
    """The page, sized as a desktop or a phone (each test runs at both)."""
    width, height = SIZES[request.param]
    page.set_viewport_size({"width": width, "height": height})
    return Screen(request.param, page)
