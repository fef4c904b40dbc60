"""The live tables' pages: the lobby, a table, and the table's part that the page polls.

Thin: each reads the clock once, hands the request to `trainer.live.services` (a change) or
`trainer.live.selectors` (a read) and draws what it returns. The poll answers 304 while the
table's version has not moved (an ETag of the version, the viewer and the language) — after
applying any deadline passed, so a countdown that ran out changes the table on the next poll
of anyone at it. The part is drawn once for all the table's onlookers (people with no
part in it) per version, language and second, and handed to each with their own CSRF token
and ETag; a player at the table is drawn for themselves. Where the server can push
(ASGI, PostgreSQL), `table_events` streams the table's new versions (trainer/live/push.py).
"""

from __future__ import annotations

import hashlib
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
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
from django.utils import timezone
from django.utils.html import escapejs
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers

from engine.live_public import LivePublic
from trainer.live import push, selectors, services
from trainer.live.forms import LiveOrderForm, OpenTableForm
from trainer.live.pages import LiveTableView
from trainer.live.table import LiveSnapshot
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.owners import Owner, owner_of
from trainer.shared.unit_of_work import NotFound, Refused

IDLE_MINUTES = int(services.IDLE.total_seconds() // 60)


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
        **_following(request, table_id),
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
    following = _following(request, table_id)
    context = {"live": view, "error": None, "swapped": True, "etag": etag, **following}
    if public.onlooker:
        # One drawing for every onlooker of this version, in this language, at this second.
        key = ":".join(
            str(part)
            for part in ("live", table_id, view.version, get_language(), view.guest,
                         view.seconds_left, *following.values())
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
    """The table's new versions as server-sent events, as they happen (an ASGI server on
    PostgreSQL; elsewhere 204, which tells the page to stop asking: it polls)."""
    if not push.available(request):
        return HttpResponse(status=204)
    if await sync_to_async(selectors.table_version)(table_id) is None:
        raise Http404("no such live table")
    since = request.GET.get("version", "")
    events = push.stream(table_id, int(since) if since.isdecimal() else 0)
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: hand each event on at once
    return response


def _following(request: HttpRequest, table_id: int) -> dict[str, Any]:
    """How the page follows the table: the poll's interval, and the stream of its changes
    where this server can push them (None: the page polls)."""
    pushed = push.available(request)
    return {
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
    shown: LiveSnapshot, owner: Owner, now: Any, public: LivePublic | None = None
) -> LiveTableView:
    public = public or shown.public(owner)
    return LiveTableView.of(
        table_id=shown.row.pk,
        version=shown.row.version,
        closed=shown.row.closed_at is not None,
        public=public,
        names=selectors.player_names(shown),
        guest=owner.user_id is None,
        pace=int(shown.table.decision_seconds),
        now=now.timestamp(),
    )
