"""The site's routes, each to its feature's view (docs/architecture.md)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, include, path
from django.views import View

from trainer.accounts import views as accounts
from trainer.counting import views as counting
from trainer.drills import views as drills
from trainer.home import views as home
from trainer.live import views as live
from trainer.practice import views as practice
from trainer.progress import views as progress
from trainer.rules import views as rules

# The project and the app share this package, so the app's routes get their "trainer"
# namespace here rather than from a second urls module.
trainer_patterns = [
    path("", home.home, name="home"),
    path("healthz", home.health, name="health"),
    path("drill/", drills.drill, name="drill"),
    path("drill/settings/", drills.drill_settings, name="drill-settings"),
    path("drill/focus/", drills.drill_focus, name="drill-focus"),
    path("counting/", counting.counting, name="counting"),
    path("counting/<int:run_id>/", counting.counting_run, name="counting-run"),
    path("counting/betting/", counting.betting, name="betting"),
    path("counting/betting/<int:question_id>/", counting.bet_question, name="bet-question"),
    path("counting/betting/<int:question_id>/next/", counting.bet_next, name="bet-next"),
    path("counting/indices/", counting.index_drill, name="index-drill"),
    path("counting/indices/chart/", counting.index_chart, name="index-chart"),
    path("counting/indices/<int:question_id>/", counting.index_question, name="index-question"),
    path("counting/true-count/", counting.true_count, name="true-count"),
    path("counting/your-game/", counting.your_game, name="your-game"),
    path("counting/casino-ready/", counting.casino_ready, name="casino-ready"),
    path("counting/casino-ready/<int:check_id>/", counting.casino_attempt, name="casino-attempt"),
    path(
        "counting/true-count/<int:question_id>/",
        counting.true_count_question,
        name="true-count-question",
    ),
    path(
        "counting/true-count/<int:question_id>/next/",
        counting.true_count_next,
        name="true-count-next",
    ),
    path("progress/", progress.progress, name="progress"),
    path("progress/decisions.csv", progress.progress_export, name="progress-export"),
    path("bets/", progress.bets, name="bets"),
    path("practice/", practice.practice_start, name="practice"),
    path("practice/<int:session_id>/", practice.table, name="table"),
    path("practice/<int:session_id>/options/", practice.table_options, name="table-options"),
    path("practice/<int:session_id>/summary/", practice.practice_summary, name="practice-summary"),
    path("tables/", live.lobby, name="live-lobby"),
    path("tables/<int:table_id>/", live.table, name="live-table"),
    path("tables/<int:table_id>/state/", live.table_state, name="live-table-state"),
    path("tables/<int:table_id>/events/", live.table_events, name="live-table-events"),
    path("chart/", rules.chart, name="chart"),
    path("chart/yours/", rules.chart_yours, name="chart-yours"),
    path("chart/<slug:preset>/", rules.chart, name="chart"),
    path("rules/", rules.rules, name="rules"),
    path("rules/lab/", rules.rules_lab, name="rules-lab"),
    path("rules/<slug:preset>/", rules.rules, name="rules"),
]

#: Django's account views under their own names and paths (`django.contrib.auth.urls`),
#: with the throttled log-in and reset, a log-out page for a GET, and the pages' templates
#: in the accounts feature's folder.
PAGES = "trainer/accounts"


def _page(
    route: str, view: type[View[Any]], name: str, template: str = "", **options: Any
) -> URLPattern:
    """An account view at ``route``, drawn with its page in the accounts feature's folder
    (the page named as the URL unless ``template`` says otherwise)."""
    page = f"{PAGES}/{template or name}.html"
    return path(route, view.as_view(template_name=page, **options), name=name)


account_patterns = [
    path("signup/", accounts.signup, name="signup"),
    _page("login/", accounts.LoginView, "login"),
    path("logout/", accounts.logout, name="logout"),
    _page("password_change/", auth_views.PasswordChangeView, "password_change",
          "password_change_form"),
    _page("password_change/done/", auth_views.PasswordChangeDoneView, "password_change_done"),
    _page("password_reset/", accounts.PasswordResetView, "password_reset", "password_reset_form",
          email_template_name=f"{PAGES}/password_reset_email.html",
          subject_template_name=f"{PAGES}/password_reset_subject.txt"),
    _page("password_reset/done/", auth_views.PasswordResetDoneView, "password_reset_done"),
    _page("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView,
          "password_reset_confirm"),
    _page("reset/done/", auth_views.PasswordResetCompleteView, "password_reset_complete"),
]  # fmt: skip

urlpatterns = [
    path("", include((trainer_patterns, "trainer"))),
    path("accounts/", include(account_patterns)),
    path("i18n/", include("django.conf.urls.i18n")),
]
