"""The site's routes, each to its feature's view (docs/architecture.md)."""

from __future__ import annotations

from django.urls import include, path

from trainer.accounts import views as accounts
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
    path("chart/", rules.chart, name="chart"),
    path("chart/yours/", rules.chart_yours, name="chart-yours"),
    path("chart/<slug:preset>/", rules.chart, name="chart"),
    path("rules/", rules.rules, name="rules"),
    path("rules/lab/", rules.rules_lab, name="rules-lab"),
    path("rules/<slug:preset>/", rules.rules, name="rules"),
]

urlpatterns = [
    path("", include((trainer_patterns, "trainer"))),
    path("accounts/signup/", accounts.signup, name="signup"),
    # Before Django's own: the throttled log-in and reset, and a log-out page for a GET.
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.logout, name="logout"),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
