"""Benchmark: the instructions one drill answer costs the app, counted by callgrind.

    .venv/bin/python tests/benchmarks/bench_answer_cost.py [--database-url URL] [--account]

The load benchmark (`bench_answer.py`) measures throughput, which on this shared machine
moves by 15–20% from one run to the next: too much to see a change of a few percent.
This counts instead. It prepares a throwaway database (a SQLite file unless
``--database-url`` names an empty PostgreSQL database) with drills dealt to guests (or
accounts) as `bench_answer.py` does, then runs the app in process under
``valgrind --tool=callgrind`` (Debian package ``valgrind``) twice: each answers 50 drills
to warm up, then 50 or 350 more, POSTed through Django's WSGI handler as htmx sends them,
with production settings. The difference of the two counts over 300 is one answer's
instructions, start-up and warm-up taken out. On SQLite that includes the database's own
work; a PostgreSQL server's is not counted. The count moves by well under 1% between runs.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_answer import _SETUP
from served_app import ROOT, prepare_database, production_env

WARM_UP, FEW, MANY = 50, 50, 350


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="an empty database; default: a SQLite file")
    parser.add_argument("--account", action="store_true", help="answer as accounts")
    parser.add_argument(
        "--answer", nargs=3, metavar=("CSRF", "FIRST", "COUNT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.answer:  # the process callgrind counts
        answer(*args.answer)
        return
    counts = {}
    for answers in (MANY, FEW):  # each run on a database of its own, prepared alike
        work = Path(tempfile.mkdtemp(prefix="bench-answer-cost-"))
        env = production_env(args.database_url or f"sqlite:///{work / 'db.sqlite3'}")
        if args.database_url:
            _empty(env, first=answers == MANY)
        prepare_database(sys.executable, env)
        subprocess.run([sys.executable, "manage.py", "analyse_presets"], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        setup = subprocess.run(
            [sys.executable, "-c",
             _SETUP.format(count=WARM_UP + answers, account=args.account,
                           sessions=str(work / "sessions.txt"))],
            cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "trainer.settings"},
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        csrf, first = setup.stdout.split()
        counted = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work / 'callgrind.out'}",
             sys.executable, __file__, "--answer", csrf, first, str(WARM_UP + answers)],
            cwd=ROOT, env={**env, "PYTHONHASHSEED": "0", "SESSIONS": str(work / "sessions.txt")},
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        found = re.search(r"Collected : (\d+)", counted.stderr)
        assert found, counted.stderr[-2000:]
        counts[answers] = int(found.group(1))
        print(f"{WARM_UP} + {answers} answers: {counts[answers]:,} instructions", flush=True)
    each = (counts[MANY] - counts[FEW]) / (MANY - FEW)
    print(f"one answer: {each:,.0f} instructions")


def answer(csrf: str, first: str, count: str) -> None:
    """Answer ``count`` drills, the first with id ``first``, each as its own player."""
    sys.path.insert(0, str(ROOT))
    os.environ["DJANGO_SETTINGS_MODULE"] = "trainer.settings"
    import django

    django.setup()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection

    from trainer.models import Drill

    cookies = Path(os.environ["SESSIONS"]).read_text().split()
    app = WSGIHandler()
    statuses: list[str] = []
    for index in range(int(count)):
        body = f"drill={int(first) + index}&action=hit".encode()
        environ = {
            "REQUEST_METHOD": "POST", "PATH_INFO": "/drill/", "QUERY_STRING": "",
            "SCRIPT_NAME": "", "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000",
            "HTTP_HOST": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr,
            "CONTENT_TYPE": "application/x-www-form-urlencoded",
            "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body),
            "HTTP_HX_REQUEST": "true", "HTTP_X_CSRFTOKEN": csrf,
            "HTTP_COOKIE": f"csrftoken={csrf}; {cookies[index]}",
        }  # fmt: skip
        statuses.clear()
        b"".join(app(environ, lambda status, headers, *_: statuses.append(status)))
        assert statuses == ["200 OK"], statuses
    answered = Drill.objects.filter(answered_at__isnull=False).count()
    assert answered == int(count), f"{answered} of {count} answers recorded"
    assert settings.DEBUG is False
    if connection.vendor == "postgresql" and connection.pool:
        connection.close_pool()  # its threads would outlast a slow exit under valgrind


def _empty(env: dict[str, str], *, first: bool) -> None:
    """Refuse a PostgreSQL database that holds tables at the start (this benchmark fills
    it); before the second run, empty it of the first's."""
    script = (
        "from django.db import connection\n"
        "if connection.introspection.table_names():\n"
        f"    if {first}: raise SystemExit('--database-url must name an empty database')\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute('DROP SCHEMA public CASCADE; CREATE SCHEMA public')\n"
    )
    subprocess.run(
        [sys.executable, "-c", f"import django; django.setup()\n{script}"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "trainer.settings"}, check=True,
    )  # fmt: skip


if __name__ == "__main__":
    main()
