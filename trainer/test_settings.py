"""Settings for the test suite: production settings with only what tests need changed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from trainer.settings import *  # noqa: F403

# No collectstatic manifest in tests; live_server serves files straight from the finders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Password hashing is deliberately slow; tests that create users need it fast, not safe.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Tests run with DEBUG off but without collectstatic: let WhiteNoise find static files the
# way it does in development instead of warning that STATIC_ROOT is missing.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Browser tests deal practice rounds from stacked shoes.
PRACTICE_STACKED_SHOES = True

# SQLite's test database is a file, as in production, not the default shared in-memory one:
# there, connections working at once (the race tests' threads, live_server's) fail straight
# away with "database table is locked" instead of queueing on the busy timeout.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(tempfile.gettempdir()) / f"trainer-test-{os.getpid()}.sqlite3")
    }

# Race tests start dozens of threads that each hold a PostgreSQL connection at once; the
# production pool, sized for gunicorn's threads, would keep all but a few of them waiting.
if "pool" in DATABASES["default"].get("OPTIONS", {}):  # noqa: F405
    DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 1, "max_size": 60}  # noqa: F405

# A simulation of a player's game deals 50 chunks of 100 rounds to each game: seconds, not
# minutes, and still two chunks and more to measure the costs' spread.
BLACKJACK_GAME_ROUNDS = 5_000
