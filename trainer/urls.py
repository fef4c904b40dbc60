from __future__ import annotations

from django.urls import include, path

from trainer import accounts, live_views, views

# The project and the app share this package, so the app's routes get their "trainer"
# namespace here rather than from a second urls module.
trainer_patterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("drill/", views.drill, name="drill"),
    path("drill/settings/", views.drill_settings, name="drill-settings"),
    path("drill/focus/", views.drill_focus, name="drill-focus"),
    path("progress/", views.progress, name="progress"),
    path("progress/decisions.csv", views.progress_export, name="progress-export"),
    path("practice/", views.practice_start, name="practice"),
    path("practice/<int:session_id>/", views.table, name="table"),
    path("practice/<int:session_id>/options/", views.table_options, name="table-options"),
    path("practice/<int:session_id>/summary/", views.practice_summary, name="practice-summary"),
    path("bets/", views.bets, name="bets"),
    path("tables/", live_views.lobby, name="live-lobby"),
    path("tables/<int:table_id>/", live_views.table, name="live-table"),
    path("tables/<int:table_id>/state/", live_views.table_state, name="live-table-state"),
    path("chart/", views.chart, name="chart"),
    path("chart/yours/", views.chart_yours, name="chart-yours"),
    path("chart/<slug:preset>/", views.chart, name="chart"),
    path("rules/", views.rules, name="rules"),
    path("rules/lab/", views.rules_lab, name="rules-lab"),
    path("rules/<slug:preset>/", views.rules, name="rules"),
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
