"""What the load benchmarks share: a production-like environment for a server on this
machine (HTTP on 127.0.0.1, so no HTTPS redirect or secure cookies), and a database made
ready for it."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def production_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a server with production settings on ``database_url``."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SESSION_COOKIE_SECURE": "0",
        "DJANGO_CSRF_COOKIE_SECURE": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        **extra,
    }


def prepare_database(python: str, env: dict[str, str]) -> None:
    """Migrate the database and collect the static files, as a deployment does."""
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
