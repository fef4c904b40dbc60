"""What the load benchmarks share: a production-like environment for a server on this
machine (HTTP on 127.0.0.1, so no HTTPS redirect or secure cookies), and a database made
ready for it."""

from __future__ import annotations

import os
import secrets
import subprocess
import time
import urllib.request
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


def wait_until_up(port: int) -> None:
    """Wait for a server on 127.0.0.1:``port`` to answer ``/healthz`` (up to 10 s)."""
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"no server answered on port {port}")


def cpu_seconds(pid: int) -> float:
    """A process's user and system CPU time so far (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
