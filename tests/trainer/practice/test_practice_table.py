"""The practice table as one aggregate (trainer/practice/table.py): every request at a table
reads its stored state once, and a change writes the session's row once.

The services' behaviour (refusals, races, the ledger) is in test_practice_services.py and
test_practice_views.py; this is about how often the state is read and written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.asserts import assertRedirects

from engine.table import Table
from engine.values import Action
from trainer.models import PracticeSession

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = [pytest.mark.django_db, pytest.mark.database]

HTMX = {"HX-Request": "true"}
# You 10s 6h = 16 against the 10d (hole 7c: 17); a hit draws 2c for 18; then 18 v 9.
SIXTEEN_V_TEN = "10s 10d 6h 7c 2c 9s 9h 9d 10c 9c"


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every time a stored table is parsed (`Table.from_json`), counted."""
    calls: list[str] = []
    parse = Table.from_json

    def counted(data: dict[str, Any], **kwargs: Any) -> Table:
        calls.append("parse")
        return parse(data, **kwargs)

    monkeypatch.setattr(Table, "from_json", counted)
    yield calls


def start(client: Client, shoe: str, *, coach: bool = False) -> PracticeSession:
    data = {"rules": "european", "bankroll": "1000", "shoe": shoe, "seat_1": "you"}
    if coach:
        data["coach"] = "on"
    response = client.post("/practice/", data)
    session = PracticeSession.objects.order_by("-pk").first()
    assert session is not None
    assertRedirects(response, f"/practice/{session.pk}/", fetch_redirect_response=False)
    return session


def send(
    client: Client, session: PracticeSession, op: str, *, htmx: bool = True, **fields: Any
) -> Response:
    version = PracticeSession.objects.get(pk=session.pk).version
    data = {"op": op, "version": version, **fields}
    return client.post(f"/practice/{session.pk}/", data, headers=HTMX if htmx else {})


def alert(response: Response) -> str | None:
    found = re.search(
        r'<p class="drill__error" role="alert">(.*?)</p>', response.content.decode(), re.S
    )
    return found.group(1).strip() if found else None


def test_every_request_at_a_table_parses_its_state_once(
    client: Client, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change is shown as it left the table, and a refused one as the table was when it
    was refused: neither reads the table a second time."""
    session = start(client, SIXTEEN_V_TEN, coach=True)
    url = f"/practice/{session.pk}/"
    requests: list[tuple[str, Any, str | None]] = [
        ("page", lambda: client.get(url), None),
        ("clear", lambda: send(client, session, "clear"), None),
        ("chip", lambda: send(client, session, "chip", chip=10), None),
        ("no-js chip", lambda: send(client, session, "chip", chip=10, htmx=False), None),
        ("clear", lambda: send(client, session, "clear"), None),
        ("chip", lambda: send(client, session, "chip", chip=10), None),
        ("deal", lambda: send(client, session, "deal"), None),
        ("refused by the table", lambda: send(client, session, "chip", chip=10), "Bets are"),
        ("refused by the engine", lambda: send(client, session, "act", action="split"), "Not"),
        ("stale", lambda: client.post(url, {"op": "deal", "version": 0}, headers=HTMX), "moved"),
        ("bad form", lambda: client.post(url, {"op": "act"}, headers=HTMX), ""),
        ("held back", lambda: send(client, session, "act", action="stand"), None),
        ("taken back", lambda: send(client, session, "take_back"), None),
        ("options", lambda: client.post(f"{url}options/", {"coach": "on"}, headers=HTMX), None),
        ("act", lambda: send(client, session, "act", action="hit"), None),
        ("no-js act", lambda: send(client, session, "act", action="stand", htmx=False), None),
        ("end", lambda: send(client, session, "end"), None),
        ("summary", lambda: client.get(f"{url}summary/"), None),
        ("over", lambda: send(client, session, "clear"), "over"),
    ]
    counted = []
    for name, request, refusal in requests:
        parses.clear()
        response = request()
        assert response.status_code in (200, 302), name
        if refusal is None:
            assert alert(response) is None, (name, alert(response))
        else:
            shown = alert(response)
            assert shown is not None and refusal in shown, (name, shown)
        counted.append((name, len(parses)))
    assert counted == [(name, 1) for name, _request, _refusal in requests]

    # A failure inside an action too: shown as the table was, from the one parse.
    session = start(client, SIXTEEN_V_TEN)
    send(client, session, "deal")

    def broken_act(self: Table, action: Action | str) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(Table, "act", broken_act)
    parses.clear()
    failed = send(client, session, "act", action="hit")
    assert "Nothing was changed" in (alert(failed) or "")
    assert "Six of hearts" in failed.content.decode()
    assert parses == ["parse"]


def test_a_change_writes_the_session_once_and_a_refusal_never(client: Client) -> None:
    session = start(client, SIXTEEN_V_TEN, coach=True)
    writes = re.compile(r'^UPDATE "trainer_practicesession"', re.I)

    def session_writes(op: str, **fields: Any) -> int:
        with CaptureQueriesContext(connection) as queries:
            send(client, session, op, **fields)
        return sum(bool(writes.match(query["sql"])) for query in queries.captured_queries)

    assert session_writes("deal") == 1
    assert session_writes("act", action="stand") == 1  # held back: a decision recorded
    assert session_writes("act", action="hit") == 0  # refused: the held play comes first
    assert session_writes("take_back") == 1
    assert session_writes("act", action="hit") == 1
    assert session_writes("act", action="stand") == 1  # the round settled and recorded
    assert session_writes("act", action="stand") == 0  # refused: no round in play
