"""The practice pages: sitting down at a table, playing it, its options and its summary."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from engine.rules import PRESETS, Rules
from trainer.models import CasinoCheck, PracticeSession
from trainer.practice import selectors, services
from trainer.practice.forms import (
    PracticeStartForm,
    TableForm,
    TableOp,
    TableOptionsForm,
)
from trainer.practice.pages import TableView
from trainer.practice.summary import SessionSummary
from trainer.practice.table import TableSnapshot
from trainer.shared import analyses
from trainer.shared.htmx import HtmxHttpRequest
from trainer.shared.owners import Owner, owner_of
from trainer.shared.preferences import preferences_of
from trainer.shared.rules_words import RulesWords
from trainer.shared.unit_of_work import Moved, NotFound, Refused


@require_http_methods(["GET", "POST"])
def practice_start(request: HtmxHttpRequest) -> HttpResponse:
    """Sit down at a practice table: rules, chips, and who sits in each seat."""
    owner = owner_of(request)
    form = PracticeStartForm(
        request.POST or None,
        presets=list(PRESETS),
        bankrolls=services.BANKROLLS,
        stacked_shoes=settings.PRACTICE_STACKED_SHOES,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        rules = data["rules_in_play"]
        try:
            _practice_analysis_ready(request, rules)
            session = services.practice_start(
                owner=owner,
                rules=rules,
                bankroll=data["bankroll"],
                seats=[services.SeatChoice(seat, tier) for seat, tier in form.seats()],
                hints=data["hints"],
                coach=data["coach"],
                counting=form.counting_mode(),
                casino_check=data["casino_check"] and data["counting"],
                shoe=data.get("shoe"),
            )
        except Refused as refused:
            form.add_error(None, str(refused))
        else:
            return redirect("trainer:table", session_id=session.pk)
    context: dict[str, Any] = {"form": form, "sessions": selectors.practice_sessions(owner)}
    if (
        form.is_bound
        and form.cleaned_data.get("custom_rules")
        and "rules_in_play" in form.cleaned_data
    ):
        # Changes of the player's own (from the rules lab), kept for the next try.
        context["custom_words"] = RulesWords.of(form.cleaned_data["rules_in_play"])
    return render(
        request, "trainer/practice/practice.html", context, status=400 if form.errors else 200
    )


def _practice_analysis_ready(request: HtmxHttpRequest, rules: Rules) -> None:
    """Refuse a table on rules whose analysis is not at hand (its bots, hints and grading
    need it), starting that analysis; a preset's always is."""
    if analyses.is_preset(rules):
        return
    state = analyses.analysis_start(rules=rules, visitor=analyses.visitor_of(request))
    if state is analyses.Analysis.READY:
        return
    if state is analyses.Analysis.LIMITED:
        limit = settings.BLACKJACK_ANALYSES_PER_HOUR
        message = ngettext(
            "Not worked out: you have asked for %(limit)s new set of rules in the last "
            "hour, the most allowed.",
            "Not worked out: you have asked for %(limit)s new sets of rules in the last "
            "hour, the most allowed.",
            limit,
        ) % {"limit": limit}
    elif state is analyses.Analysis.FAILED:
        message = gettext("These rules could not be worked out within the trainer's limits.")
    else:
        message = gettext("These rules are still being worked out: try again in a moment.")
    raise Refused(message)


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def table(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """The practice table: bets, the player's decisions, the bots and the dealer."""
    owner = owner_of(request)
    error: str | None = None
    seen: int | None = None
    op: TableOp | None = None
    # The table as a change left it, or as a refused one found it: shown without reading
    # it again.
    shown: TableSnapshot | None = None
    if request.method == "POST":
        form = TableForm(request.POST)
        if not form.is_valid():
            error = str(next(iter(form.errors.values()))[0])
        else:
            seen, op = form.cleaned_data["seen"], form.cleaned_data["op"]
            try:
                shown = _table_request(owner, session_id, form)
            except NotFound:
                raise Http404("no such practice table") from None
            except Moved as moved:
                error, seen, shown = str(moved), None, moved.shown
            except Refused as refused:
                error, shown = str(refused), refused.shown
            else:
                if op is TableOp.DEAL:
                    seen = 0  # a new round: every line of its story is new
                if shown.session.ended_at is not None:  # ended, or a check's shoe is over
                    after = _after_the_end(shown.session)
                    return HttpResponseClientRedirect(after) if request.htmx else redirect(after)
        if not request.htmx and error is None:
            return redirect("trainer:table", session_id=session_id)  # POST/redirect/GET
    if shown is None:
        shown = selectors.practice_table(owner, session_id)  # a 404 if not theirs
    template = "trainer/practice/table.html"
    swapped = bool(request.htmx and not request.htmx.history_restore_request)
    if swapped:
        template += "#table"
    on_show = selectors.table_on_show(shown.session, shown.table)
    context = {
        "table": TableView.of(on_show, seen=seen),
        "error": error,
        "swapped": swapped,
        "focus": _focus_after(
            op, asks_count=on_show.counting is not None and on_show.counting.asked is not None
        )
        if swapped
        else None,
        # Counting mode: the count just given is graded aloud.
        "answered_count": op is TableOp.COUNT and error is None,
        "letter_keys": preferences_of(request).letter_keys,
    }
    return render(request, template, context, status=400 if error and not request.htmx else 200)


def _after_the_end(session: PracticeSession) -> str:
    """Where a session that has just ended leads: its casino-ready check's grade, if it
    was an attempt at it, else its summary."""
    check = CasinoCheck.objects.filter(session=session).values_list("pk", flat=True).first()
    if check is not None:
        return reverse("trainer:casino-attempt", args=[check])
    return reverse("trainer:practice-summary", args=[session.pk])


def _focus_after(op: TableOp | None, *, asks_count: bool = False) -> str | None:
    """Where the player's own request puts the focus (an autofocus in the answer, which
    htmx follows): the table's status after a deal or a play ("Take it back" while the
    coach holds one), the Deal button after a chip or a cleared bet; in counting mode, the
    count's field when the table asks for it once the round is over."""
    if asks_count and op in (TableOp.DEAL, TableOp.ACT):
        return "count"
    match op:
        case TableOp.DEAL | TableOp.ACT | TableOp.TAKE_BACK:
            return "status"
        case TableOp.CHIP | TableOp.CLEAR | TableOp.COUNT:
            return "deal"
    return None


def _table_request(owner: Owner, session_id: int, form: TableForm) -> TableSnapshot:
    data = form.cleaned_data
    table = {"owner": owner, "session_id": session_id, "version": data["version"]}
    match data["op"]:
        case TableOp.CHIP:
            return services.practice_chip(**table, chip=data["chip"])
        case TableOp.CLEAR:
            return services.practice_chip(**table, chip=None)
        case TableOp.DEAL:
            pair, behind = form.side_bets()
            return services.practice_deal(**table, pair=pair, behind=behind)
        case TableOp.ACT:
            return services.practice_act(**table, action=data["action"])
        case TableOp.TAKE_BACK:
            return services.practice_take_back(**table)
        case TableOp.COUNT:
            return services.practice_count(
                **table, running=data["running"], true=data["true_count"]
            )
        case TableOp.END:
            return services.practice_end(**table)
    raise AssertionError(f"no such request: {data['op']!r}")  # the form allows no other


@require_POST
@vary_on_headers("HX-Request")
def table_options(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """Hints and coach mode on or off (they change nothing in the game)."""
    owner = owner_of(request)
    form = TableOptionsForm(request.POST)
    form.is_valid()  # two optional booleans: always valid
    try:
        services.practice_options(owner=owner, session_id=session_id, **form.cleaned_data)
    except NotFound:
        raise Http404("no such practice table") from None
    if request.htmx:
        shown = selectors.practice_table(owner, session_id)
        on_show = selectors.table_on_show(shown.session, shown.table)
        context = {
            "table": TableView.of(on_show),
            "error": None,
            "swapped": True,
            "letter_keys": preferences_of(request).letter_keys,
        }
        return render(request, "trainer/practice/table.html#table", context)
    return redirect("trainer:table", session_id=session_id)


@require_GET
def practice_summary(request: HtmxHttpRequest, session_id: int) -> HttpResponse:
    """A session in numbers, its biggest mistakes, and every round as it was played."""
    owner = owner_of(request)
    session = selectors.practice_session(owner, session_id)
    summary = SessionSummary.of(selectors.session_record(session))
    return render(request, "trainer/practice/practice_summary.html", {"summary": summary})
