"""The running-count drill's pages: choose how a deck is dealt, count it, see the grade.

Thin: each view reads the clock once, hands the request to `trainer.counting.services`
(a change) or `trainer.counting.selectors` (a read), and draws what it returns. A first
visit's GET writes nothing; dealing a deck is the visitor's first write.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from trainer.counting import selectors, services
from trainer.counting.forms import CountForm, StartForm
from trainer.counting.pages import DECK_SECONDS, DECK_STREAK, TAG_SECONDS, RunPage
from trainer.shared.owners import owner_known, owner_of
from trainer.shared.unit_of_work import NotFound, Refused

STANDARDS = {"deck_seconds": DECK_SECONDS, "deck_streak": DECK_STREAK, "tag_seconds": TAG_SECONDS}


@require_http_methods(["GET", "POST"])
def counting(request: HttpRequest) -> HttpResponse:
    """The drill's start: how the next deck is dealt, and the player's figures."""
    form = StartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        run = services.counting_start(owner=owner_of(request), settings=form.run_settings())
        return redirect("trainer:counting-run", run_id=run.pk)
    context = {
        "form": form,
        "figures": selectors.counting_figures(owner_known(request)),
        **STANDARDS,
    }
    return render(
        request, "trainer/counting/counting.html", context, status=400 if form.errors else 200
    )


@require_http_methods(["GET", "POST"])
def counting_run(request: HttpRequest, run_id: int) -> HttpResponse:
    """A deck to count (its cards, and the form for the count), or once counted, the
    grade; a POST is the player's count."""
    owner = owner_known(request)
    now = timezone.now()
    if owner is None:
        raise Http404
    try:
        run = services.counting_run(owner=owner, run_id=run_id, now=now)
    except NotFound as missing:
        raise Http404(str(missing)) from missing
    page = RunPage.of(run)
    form = CountForm(request.POST or None, checkpoints=page.checkpoints)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            services.counting_answer(
                owner=owner,
                run_id=run.pk,
                answer=form.cleaned_data["answer"],
                at_checkpoints=form.counts_at_checkpoints(),
                now=now,
            )
        except Refused as refused:
            error = str(refused)
        else:
            return redirect("trainer:counting-run", run_id=run.pk)
    context = {
        "page": page,
        "form": form,
        "groups": [
            (group, form[f"checkpoint_{group.checkpoint}"] if group.checkpoint else None)
            for group in page.groups
        ],
        "error": error,
        "figures": selectors.counting_figures(owner) if page.grade else None,
        "again": StartForm(initial={
            "system": run.system, "group": run.group, "pace": run.pace_tenths,
            "checkpoint_every": run.checkpoint_every,
        }),
        **STANDARDS,
    }  # fmt: skip
    status = 400 if error or form.errors else 200
    return render(request, "trainer/counting/run.html", context, status=status)
