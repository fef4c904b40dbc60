"""The live tables' pages: the lobby, a table, and the table's part that the page polls.

Thin: each reads the clock once, hands the request to `trainer.live.services` (a change) or
`trainer.live.selectors` (a read) and draws what it returns. The poll answers 304 while the
table's version has not moved (an ETag of the version, the viewer and the language) — after
applying any deadline passed, so a countdown that ran out changes the table on the next poll
of anyone at it. The part is drawn once for all the table's onlookers (people with no
part in it) per version, language and second, and handed to each with their own CSRF token
and ETag; a player at the table is drawn for themselves. Where the server can push
(ASGI, PostgreSQL), `table_events` streams each new version as the viewer's own part
(trainer/live/push.py), drawn once per version for all the table's viewers in the
process, and applies the table's deadlines when they pass.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import auth
from django.core.cache import caches
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.html import escapejs
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers

from engine.live_public import LivePublic
from trainer.live import push, selectors, services
from trainer.live.forms import LiveOrderForm, OpenTableForm
from trainer.live.pages import LiveTableView
from trainer.live.table import LiveSnapshot, deadline_of
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.owners import Owner, owner_of
from trainer.shared.unit_of_work import NotFound, Refused

IDLE_MINUTES = int(services.IDLE.total_seconds() // 60)

log = logging.getLogger(__name__)


@require_http_methods(["GET", "POST"])
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """The open tables, current as of now, and a form for an account to open one."""
    form = OpenTableForm(request.POST or None)
    now = timezone.now()
    error: str | None = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            error = _("Log in to open a table: guests may watch and bet behind.")
        elif form.is_valid():
            try:
                row = services.open_table(
                    user_id=request.user.pk,
                    bots=form.bots(),
                    seats=form.yours(),
                    buy_in=form.cleaned_data["buy_in"],
                    pace=form.cleaned_data["pace"],
                    now=now,
                )
            except Refused as refused:
                error = str(refused)
            else:
                return redirect("trainer:live-table", table_id=row.pk)
    services.idle_tables_closed(now)
    page = selectors.lobby_page(request.GET.get("page"))
    if services.tables_brought_up([row.pk for row in page], now):
        page = selectors.lobby_page(request.GET.get("page"))  # the counts as they are now
    context = {"form": form, "page": page, "error": error, "idle_minutes": IDLE_MINUTES}
    status = 400 if error or form.errors else 200
    return render(request, "trainer/live/live_lobby.html", context, status=status)


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def table(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """A live table: join, sit, bet, play, watch. A POST answers the table's part (htmx)
    or redirects to the page (POST/redirect/GET)."""
    owner = owner_of(request)
    now = timezone.now()
    error: str | None = None
    shown: LiveSnapshot | None = None
    try:
        if request.method == "POST":
            form = LiveOrderForm(request.POST)
            if not form.is_valid():
                error = str(next(iter(form.errors.values()))[0])
            else:
                try:
                    shown = services.live_request(
                        owner=owner, table_id=table_id, order=form.order(), now=now
                    )
                except NotFound:
                    raise
                except Refused as refused:
                    error, shown = str(refused), refused.shown
            if not request.htmx and error is None:
                return redirect("trainer:live-table", table_id=table_id)
        if shown is None:
            head = services.current_head(table_id, now)
            if head is None:
                raise NotFound(_("There is no such table."))
            shown = selectors.table_snapshot(table_id, head)
    except NotFound:
        raise Http404("no such live table") from None
    partial = request.htmx and not request.htmx.history_restore_request
    template = "trainer/live/live_table.html" + ("#live" if partial else "")
    etag = _etag(shown.row.version, owner)
    context = {
        "live": _view(shown, owner, now), "error": error, "swapped": partial, "etag": etag,
        **_links(request, table_id),
    }  # fmt: skip
    status = 400 if error and not request.htmx else 200
    response = render(request, template, context, status=status)
    if partial:
        response["ETag"] = etag
    return response


@require_GET
def table_state(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """The table's part, polled every second: 304 unless it changed (deadlines passed
    are applied first)."""
    owner = owner_of(request)
    now = timezone.now()
    head = services.current_head(table_id, now)
    if head is None:
        raise Http404("no such live table")
    if _etag(head.version, owner) in request.headers.get("If-None-Match", ""):
        not_modified = HttpResponseNotModified()  # nothing parsed, nothing drawn
        not_modified["ETag"] = _etag(head.version, owner)
        return not_modified
    try:
        shown = selectors.table_snapshot(table_id, head)
    except NotFound:
        raise Http404("no such live table") from None
    etag = _etag(shown.row.version, owner)
    public = shown.public(owner)
    view = _view(shown, owner, now, public)
    links = _links(request, table_id)
    context = {"live": view, "error": None, "swapped": True, "etag": etag, **links}
    if public.onlooker:
        # One drawing for every onlooker of this version, in this language, at this second.
        key = ":".join(
            str(part)
            for part in ("live", table_id, view.version, get_language(), view.guest,
                         view.seconds_left, *links.values())
        )  # fmt: skip
        response = HttpResponse(_onlookers_part(request, context, key))
    else:
        response = render(request, PART, context)
    response["ETag"] = etag
    # Every poll asks again, naming the table its page shows (If-None-Match).
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
async def table_events(request: HttpRequest, table_id: int) -> HttpResponse | StreamingHttpResponse:
    """The table's new versions as server-sent events, each the viewer's part as they
    happen (an ASGI server on PostgreSQL; elsewhere 204, which tells the page to stop
    asking: it polls)."""
    if not push.available(request):
        return HttpResponse(status=204)
    viewer = await sync_to_async(_viewer_released)(request)
    if await sync_to_async(push.version_released)(table_id) is None:
        raise Http404("no such live table")
    since = request.GET.get("version", "")
    drawing = _Drawing(push.hub, table_id, request, get_token(request))
    events = push.stream(
        table_id, int(since) if since.isdecimal() else 0, viewer=viewer, drawing=drawing.draw
    )
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: hand each event on at once
    return response


#: How often a stream checks again who its viewer is (a log-out, a session expired).
VIEWER_RECHECK_SECONDS = 30.0
#: How long after a table's deadline its streams' process applies it: a moment, so that a
#: page's own countdown has shown 0.
DEADLINE_GRACE_SECONDS = 0.05


@dataclass(frozen=True)
class _Viewer:
    """Who follows a table through a stream, as far as their part differs: the owner and
    the language (the request is what their part is drawn with, any of theirs)."""

    owner: Owner
    language: str
    request: HttpRequest = field(compare=False)


def _viewer_released(request: HttpRequest) -> _Viewer:
    """The request's viewer, the connection given back at once (a stream lasts as long
    as the page is open)."""
    try:
        return _Viewer(owner_of(request), get_language(), request)
    finally:
        connection.close()


def _as_now(request: HttpRequest) -> HttpRequest:
    """The request as its session stands now (logged out, in as someone else, expired),
    not as it stood when the stream was opened."""
    now = copy.copy(request)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    now.session = store(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    now.user = SimpleLazyObject(lambda: auth.get_user(now))  # type: ignore[assignment]
    return now


@dataclass(frozen=True)
class _Parts:
    """A table's parts drawn at one version for the viewers following it here: each
    viewer's HTML (with the CSRF token's and ETag's slots) and ETag."""

    version: int
    drawn: dict[_Viewer, tuple[str, str]]
    deadline: float | None  # the table's next deadline, seconds since the epoch


class _Drawing:
    """What a stream's page is pushed: its viewer's part of each version, drawn with the
    other streams' here once per version (`push.Hub.latest`); and the table's deadline,
    applied here when it passes, which the page would otherwise ask for all at once."""

    def __init__(self, hub: push.Hub, table_id: int, request: HttpRequest, token: str) -> None:
        self.hub = hub
        self.table_id = table_id
        self.request = request
        self.token = token
        self.checked = time.monotonic()

    async def draw(self, follower: push.Follower, version: int) -> push.Drawn | None:
        """The viewer's part of the table at ``version`` or newer; None (the page then
        asks for it, and is answered or told what is wrong as any request is) if there
        is none to give: the table gone, or the drawing failed."""
        try:
            if time.monotonic() - self.checked > VIEWER_RECHECK_SECONDS:
                follower.viewer = await sync_to_async(_viewer_released)(_as_now(self.request))
                self.checked = time.monotonic()
            parts = await self.hub.latest(self.table_id, version, self._parts)
            viewer = follower.viewer
            if isinstance(viewer, _Viewer) and viewer not in parts.drawn:
                parts = await _drawn_aside(self.table_id, [viewer])  # came in the meantime
        except Exception:
            log.exception("Drawing live table %s's part for its stream failed.", self.table_id)
            return None
        if not isinstance(viewer, _Viewer) or viewer not in parts.drawn:
            return None
        html, etag = parts.drawn[viewer]
        return push.Drawn(
            parts.version, html.replace(_CSRF_SLOT, self.token).replace(_ETAG_SLOT, etag)
        )

    async def _parts(self) -> _Parts:
        viewers = [v for v in self.hub.viewers(self.table_id) if isinstance(v, _Viewer)]
        parts = await _drawn_aside(self.table_id, viewers)
        if parts.deadline is not None:
            self.hub.wake(self.table_id, parts.deadline + DEADLINE_GRACE_SECONDS, self._due)
        return parts

    async def _due(self) -> None:
        await sync_to_async(_deadlines_applied, thread_sensitive=False)(self.table_id)


#: The thread the pushed parts are drawn in, one a process: the drawings of several
#: tables take turns rather than contend for the interpreter with each other and with
#: the pages' requests, and a table whose versions come faster than they are drawn has
#: them drawn together (`push.Hub.latest`).
_DRAWER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-parts")


async def _drawn_aside(table_id: int, viewers: list[_Viewer]) -> _Parts:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_DRAWER, _parts_drawn, table_id, viewers)


def _parts_drawn(table_id: int, viewers: list[_Viewer]) -> _Parts:
    """The table as it is now, drawn for each viewer: the onlookers of a language once
    for all of them, each player for themselves. The connection is given back before
    the drawing, which needs none, so that the pages' requests do not wait for it."""
    now = timezone.now()
    try:
        head = services.current_head(table_id, now)
        if head is None:
            return _Parts(0, {}, None)
        shown = selectors.table_snapshot(table_id, head)
        names = selectors.player_names(shown)
    finally:
        connection.close()
    drawn: dict[_Viewer, tuple[str, str]] = {}
    onlookers: dict[tuple[str, bool], str] = {}
    # Each viewer follows by a stream through this process: their links are the same.
    links = _links(viewers[0].request, table_id) if viewers else {}
    for viewer in viewers:
        with translation.override(viewer.language):
            public = shown.public(viewer.owner)
            view = _view(shown, viewer.owner, now, public, names)
            etag = escapejs(_etag(shown.row.version, viewer.owner))
            shared = (viewer.language, view.guest)
            if public.onlooker and shared in onlookers:
                drawn[viewer] = (onlookers[shared], etag)
                continue
            context = {
                "live": view, "error": None, "swapped": True, "etag": _ETAG_SLOT,
                "csrf_token": _CSRF_SLOT, **links,
            }  # fmt: skip
            html = render_to_string(PART, context, viewer.request)
            if public.onlooker:
                onlookers[shared] = html
            drawn[viewer] = (html, etag)
    deadline = deadline_of(shown.table)
    return _Parts(shown.row.version, drawn, deadline.timestamp() if deadline else None)


def _deadlines_applied(table_id: int) -> None:
    """Apply the table's deadlines passed (its change is then pushed), the connection
    given back at once."""
    try:
        services.apply_deadlines(table_id, timezone.now())
    finally:
        connection.close()


def _links(request: HttpRequest, table_id: int) -> dict[str, Any]:
    """Where the page's forms post, where it polls and how often, where it follows the
    table's changes by a stream (None where this server cannot push: it polls), and the
    lobby: reversed once a request, or once a drawing for all the viewers in it."""
    pushed = push.available(request)
    return {
        "post_url": reverse("trainer:live-table", args=[table_id]),
        "state_url": reverse("trainer:live-table-state", args=[table_id]),
        "lobby_url": reverse("trainer:live-lobby"),
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        "push_url": reverse("trainer:live-table-events", args=[table_id]) if pushed else None,
    }


#: The table's part, as a poll or a push's follow-up asks for it.
PART = "trainer/live/live_table.html#live"
#: What the onlookers' shared drawing holds in place of each one's own CSRF token and
#: ETag (`_onlookers_part`).
_CSRF_SLOT = "onlookerscsrftokenslot"
_ETAG_SLOT = "onlookersetagslot"


def _onlookers_part(request: HttpRequest, context: dict[str, Any], key: str) -> str:
    """The table's part as every onlooker of it sees it (`LivePublic.onlooker`), drawn
    once and kept under ``key``, then given this viewer's CSRF token and ETag: a busy
    table's watchers cost one drawing per version and second, not one each."""
    fragments = caches["live_parts"]
    html = fragments.get(key)
    if html is None:
        slots = {"csrf_token": _CSRF_SLOT, "etag": _ETAG_SLOT}
        html = render_to_string(PART, {**context, **slots}, request)
        fragments.set(key, html)
    return (
        str(html)
        .replace(_CSRF_SLOT, get_token(request))
        .replace(_ETAG_SLOT, escapejs(context["etag"]))
    )


def _etag(version: int, owner: Owner) -> str:
    """The table's version as this viewer sees it, in their language."""
    viewer = hashlib.sha256(owner.name.encode()).hexdigest()[:16]
    return f'"{version}-{viewer}-{get_language()}"'


def _view(
    shown: LiveSnapshot,
    owner: Owner,
    now: Any,
    public: LivePublic | None = None,
    names: dict[str, str] | None = None,
) -> LiveTableView:
    public = public or shown.public(owner)
    return LiveTableView.of(
        table_id=shown.row.pk,
        version=shown.row.version,
        closed=shown.row.closed_at is not None,
        public=public,
        names=selectors.player_names(shown) if names is None else names,
        guest=owner.user_id is None,
        pace=int(shown.table.decision_seconds),
        now=now.timestamp(),
    )
