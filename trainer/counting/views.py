"""The counting drills' pages: a deck to count down (choose how it is dealt, count it, see
the grade), and the true count (judge the decks left from a discard tray, then turn a
running count into a true count).

Thin: each view reads the clock once, hands the request to `trainer.counting.services`
(a change) or `trainer.counting.selectors` (a read), and draws what it returns. A first
visit's GET writes nothing; dealing a deck is the visitor's first write.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engine.counting.index_store import IndexTablePending
from trainer.counting import casino, selectors, services
from trainer.counting.forms import (
    CONVERSION_LABELS,
    ESTIMATE_LABELS,
    BetAnswerForm,
    BetStartForm,
    CountForm,
    IndexStartForm,
    StartForm,
    TrueCountAnswerForm,
    TrueCountStartForm,
    YourGameForm,
)
from trainer.counting.index_pages import IndexPage, chart_lines
from trainer.counting.pages import DECK_SECONDS, DECK_STREAK, TAG_SECONDS, RunPage
from trainer.counting.true_count_pages import ANSWER_SECONDS, BetPage, QuestionPage
from trainer.counting.your_game import game_figures, player_game
from trainer.models import (
    BetQuestion,
    CountingAnswer,
    CountingRun,
    IndexPlayQuestion,
    TrueCountQuestion,
)
from trainer.shared import analyses
from trainer.shared.owners import Owner, owner_known, owner_of
from trainer.shared.unit_of_work import NotFound, Refused

STANDARDS = {"deck_seconds": DECK_SECONDS, "deck_streak": DECK_STREAK, "tag_seconds": TAG_SECONDS}


def _asked[Answer: CountingAnswer](
    request: HttpRequest, model: type[Answer], pk: int
) -> tuple[Owner, Answer]:
    """The visitor's question ``pk``, noted as shown now; a 404 for anyone else's (and for
    a visitor who has none)."""
    owner = owner_known(request)
    if owner is None:
        raise Http404
    try:
        return owner, services.shown(model, owner=owner, pk=pk, now=timezone.now())
    except NotFound as missing:
        raise Http404(str(missing)) from missing


def _refusal(answer: Callable[[], object]) -> str | None:
    """Carry out ``answer``: None once done, or the words of its refusal."""
    try:
        answer()
    except Refused as refused:
        return str(refused)
    return None


def _following(
    request: HttpRequest, follow: Callable[..., CountingAnswer], pk: int, page: str
) -> HttpResponse:
    """The question ``follow`` deals after the visitor's answered question ``pk``, shown
    at ``page``; a 404 for anyone else's, or for one not answered yet."""
    owner = owner_known(request)
    if owner is None:
        raise Http404
    try:
        question = follow(owner=owner, question_id=pk)
    except NotFound as missing:
        raise Http404(str(missing)) from missing
    return redirect(page, question_id=question.pk)


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
    owner, run = _asked(request, CountingRun, run_id)
    page = RunPage.of(run)
    form = CountForm(request.POST or None, checkpoints=page.checkpoints)
    error = None
    if request.method == "POST" and form.is_valid():
        error = _refusal(lambda: services.counting_answer(
            owner=owner, run_id=run.pk, answer=form.cleaned_data["answer"],
            at_checkpoints=form.counts_at_checkpoints(), now=timezone.now(),
        ))  # fmt: skip
        if error is None:
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


@require_http_methods(["GET", "POST"])
def true_count(request: HttpRequest) -> HttpResponse:
    """The true-count drill's start: the shoe and the player's method, and their figures."""
    form = TrueCountStartForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        question = services.true_count_start(
            owner=owner_of(request), settings=form.true_count_settings()
        )
        return redirect("trainer:true-count-question", question_id=question.pk)
    context = {
        "form": form,
        "figures": selectors.true_count_figures(owner_known(request)),
        "answer_seconds": ANSWER_SECONDS,
    }
    status = 400 if form.errors else 200
    return render(request, "trainer/counting/true_count.html", context, status=status)


@require_http_methods(["GET", "POST"])
def true_count_question(request: HttpRequest, question_id: int) -> HttpResponse:
    """A question (the discard tray, or a running count to convert), or once answered,
    its grade; a POST is the answer."""
    owner, question = _asked(request, TrueCountQuestion, question_id)
    form = TrueCountAnswerForm(request.POST or None, kind=question.kind)
    error = None
    if request.method == "POST" and form.is_valid():
        error = _refusal(lambda: services.true_count_answer(
            owner=owner, question_id=question.pk, answer=form.cleaned_data["answer"],
            now=timezone.now(),
        ))  # fmt: skip
        if error is None:
            return redirect("trainer:true-count-question", question_id=question.pk)
    page = QuestionPage.of(question, services.expected(question))
    context = {
        "page": page,
        "method_words": f"{ESTIMATE_LABELS[page.estimate]} · {CONVERSION_LABELS[page.conversion]}",
        "form": form,
        "error": error,
        "answer_seconds": ANSWER_SECONDS,
        "figures": selectors.true_count_figures(owner) if question.answered_at else None,
    }
    status = 400 if error or form.errors else 200
    return render(request, "trainer/counting/true_count_question.html", context, status=status)


@require_POST
def true_count_next(request: HttpRequest, question_id: int) -> HttpResponse:
    """The next question after an answered one."""
    return _following(request, services.true_count_next, question_id, "trainer:true-count-question")


@require_http_methods(["GET", "POST"])
def index_drill(request: HttpRequest) -> HttpResponse:
    """The index-play drill's start. The table for the chosen rules, system and method is
    worked out once in the background: a POST starts it if needed and leads to this page
    with the choices in its address, which says how far it has gone (asking again every
    few seconds) and offers the drill once the table is stored; a GET never starts one."""
    if request.method == "POST":
        form = IndexStartForm(request.POST)
        if form.is_valid():
            chosen = form.index_settings()
            try:
                question = services.index_start(
                    owner=owner_of(request), settings=chosen, now=timezone.now()
                )
            except IndexTablePending:
                pass  # worked out in the background, below
            else:
                return redirect("trainer:index-question", question_id=question.pk)
            analysis = analyses.indices_start(
                request=chosen.request(), visitor=analyses.visitor_of(request)
            )
            if analysis is not analyses.Analysis.LIMITED:
                return redirect(f"{reverse('trainer:index-drill')}?{urlencode(form.cleaned_data)}")
            return _index_start_page(request, form, analysis, status=429)
        return _index_start_page(request, form, None, status=400)
    form = IndexStartForm(request.GET if "rules" in request.GET else None)
    state = None
    if form.is_bound and form.is_valid():
        state = analyses.indices_state(form.index_settings().request())
    return _index_start_page(request, form, state, status=200)


def _index_start_page(
    request: HttpRequest, form: IndexStartForm, analysis: analyses.Analysis | None, status: int
) -> HttpResponse:
    progress = None
    if analysis is analyses.Analysis.RUNNING and form.is_valid():
        progress = analyses.indices_progress(form.index_settings().request())
    context = {
        "form": form,
        "analysis": analysis,
        "analysis_seconds": progress.seconds if progress else None,
        "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        "figures": selectors.index_figures(owner_known(request)),
    }
    return render(request, "trainer/counting/indices.html", context, status=status)


@require_http_methods(["GET", "POST"])
def index_question(request: HttpRequest, question_id: int) -> HttpResponse:
    """An index play to make at a true count, or once made, its grade; a POST is the play."""
    owner, question = _asked(request, IndexPlayQuestion, question_id)
    error = None
    if request.method == "POST":
        error = _refusal(lambda: services.index_answer(
            owner=owner, question_id=question.pk, answer=request.POST.get("play", ""),
            now=timezone.now(),
        ))  # fmt: skip
        if error is None:
            return redirect("trainer:index-question", question_id=question.pk)
    context = {
        "page": IndexPage(question, services.index_right_play(question)),
        "error": error,
        "again": IndexStartForm(initial={
            "rules": question.rules_name, "changes": question.rules_changes,
            "system": question.system, "estimate": question.estimate,
            "conversion": question.conversion,
        }),
        "figures": selectors.index_figures(owner) if question.answered_at else None,
    }  # fmt: skip
    status = 400 if error else 200
    return render(request, "trainer/counting/index_question.html", context, status=status)


@require_GET
def index_chart(request: HttpRequest) -> HttpResponse:
    """The index table of the chosen rules, system and method as a printable chart, beside
    the book's indices (Hi-Lo's) with the differences marked; a table not worked out yet
    is said so, and started from the drill's page (a GET starts nothing)."""
    form = IndexStartForm(request.GET if "rules" in request.GET else None)
    if not form.is_bound:
        form = IndexStartForm(IndexStartForm.defaults())
    if not form.is_valid():
        return render(request, "trainer/counting/index_chart.html", {"form": form}, status=400)
    chosen = form.index_settings()
    table = selectors.index_table(chosen)
    context = {
        "form": form,
        "chosen": chosen,
        "lines": chart_lines(table, with_book=chosen.system == "hi-lo") if table else None,
        "with_book": chosen.system == "hi-lo",
    }
    return render(request, "trainer/counting/index_chart.html", context)


@require_http_methods(["GET", "POST"])
def betting(request: HttpRequest) -> HttpResponse:
    """The betting drill's start: the player's own ramp (or the one their counting game
    suggests, in the address), and their figures."""
    suggested = {name: request.GET[name] for name in ("ramp", "below") if name in request.GET}
    form = BetStartForm(request.POST or None, initial=suggested)
    if request.method == "POST" and form.is_valid():
        question = services.bet_start(owner=owner_of(request), ramp=form.cleaned_data["bet_ramp"])
        return redirect("trainer:bet-question", question_id=question.pk)
    context = {"form": form, "figures": selectors.bet_figures(owner_known(request))}
    status = 400 if form.errors else 200
    return render(request, "trainer/counting/betting.html", context, status=status)


@require_http_methods(["GET", "POST"])
def bet_question(request: HttpRequest, question_id: int) -> HttpResponse:
    """A true count to bet at, or once bet, the grade; a POST is the bet."""
    owner, question = _asked(request, BetQuestion, question_id)
    form = BetAnswerForm(request.POST or None)
    error = None
    if request.method == "POST" and form.is_valid():
        error = _refusal(lambda: services.bet_answer(
            owner=owner, question_id=question.pk, answer=form.cleaned_data["answer"],
            now=timezone.now(),
        ))  # fmt: skip
        if error is None:
            return redirect("trainer:bet-question", question_id=question.pk)
    context = {
        "page": BetPage(question, services.ramp_of(question)),
        "form": form,
        "error": error,
        "figures": selectors.bet_figures(owner) if question.answered_at else None,
    }
    status = 400 if error or form.errors else 200
    return render(request, "trainer/counting/bet_question.html", context, status=status)


@require_POST
def bet_next(request: HttpRequest, question_id: int) -> HttpResponse:
    """The next count to bet at, by the same ramp."""
    return _following(request, services.bet_next, question_id, "trainer:bet-question")


@require_http_methods(["GET", "POST"])
def your_game(request: HttpRequest) -> HttpResponse:
    """The player's own counting game: their measured error rates, and once simulated in
    the background, its figures beside the same game played without mistakes and the
    ramp the engine suggests, for the bankroll, risk and top bet in the address. A POST
    starts the simulation (within the visitor's allowance) and leads back here, where the
    page asks how far it has gone; a GET never starts one."""
    game = player_game(owner_known(request))
    wanted = game.request()
    table_ready = analyses.indices_ready(wanted.index)
    state: analyses.Analysis | None
    if request.method == "POST" and table_ready:
        state = analyses.game_start(request=wanted, visitor=analyses.visitor_of(request))
        if state is not analyses.Analysis.LIMITED:
            return redirect(f"{reverse('trainer:your-game')}?{request.GET.urlencode()}")
    else:
        state = analyses.game_state(wanted) if table_ready else None
    # A field left out of the address keeps its first value.
    defaults = {name: str(field.initial) for name, field in YourGameForm.base_fields.items()}
    form = YourGameForm({**defaults, **request.GET.dict()})
    first = YourGameForm(defaults)
    first.is_valid()  # the first values are, always: a wrong field falls back on them
    chosen = form.cleaned_data if form.is_valid() else first.cleaned_data
    report = analyses.game_report(wanted) if state is analyses.Analysis.READY else None
    figures = None
    if report is not None:
        figures = game_figures(
            report, bank=chosen["bank"], risk=float(chosen["risk"]) / 100, top=chosen["top"]
        )
    context = {
        "game": game,
        "form": form,
        "table_ready": table_ready,
        "analysis": state,
        "done": analyses.game_done(wanted) if state is analyses.Analysis.RUNNING else None,
        "analysis_limit": settings.BLACKJACK_ANALYSES_PER_HOUR,
        "figures": figures,
        "bank": chosen["bank"],
        "risk": chosen["risk"],
        "top": chosen["top"],
        "index_query": urlencode(game.index_query),
    }
    status = 429 if state is analyses.Analysis.LIMITED else 400 if form.errors else 200
    return render(request, "trainer/counting/your_game.html", context, status=status)


@require_GET
def casino_ready(request: HttpRequest) -> HttpResponse:
    """The casino-ready check: its standard, the player's attempts, and the start of one
    (the practice table's start form, filled for the player's own game)."""
    owner = owner_known(request)
    game = player_game(owner)
    context = {
        "game": game,
        "table_ready": analyses.indices_ready(game.request().index),
        "index_query": urlencode(game.index_query),
        "start_fields": casino.start_fields(game),
        "attempts": casino.owner_checks(owner) if owner else [],
        "play_seconds": casino.PLAY_SECONDS,
        "count_seconds": casino.COUNT_SECONDS,
    }
    return render(request, "trainer/counting/casino_ready.html", context)


@require_GET
def casino_attempt(request: HttpRequest, check_id: int) -> HttpResponse:
    """One attempt: under way (back to its table), or graded against the standard."""
    owner = owner_known(request)
    if owner is None:
        raise Http404
    try:
        check = casino.owner_check(owner, check_id)
    except NotFound as missing:
        raise Http404(str(missing)) from missing
    context = {
        "check": check,
        "figures": casino.figures_shown(check),
        "play_seconds": casino.PLAY_SECONDS,
        "count_seconds": casino.COUNT_SECONDS,
    }
    return render(request, "trainer/counting/casino_attempt.html", context)
