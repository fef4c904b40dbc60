from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries
from pytest_django.asserts import assertContains, assertNotContains

from engine.rules import DELUXE, EUROPEAN, Rules
from engine.strategy import strategy_for
from trainer.models import Drill
from trainer.progress import selectors
from trainer.progress.pages import SHOWN_PERIODS, Progress
from trainer.shared import analyses
from trainer.shared.owners import Owner

pytestmark = [pytest.mark.django_db, pytest.mark.database]
URL = "/progress/"


def answered(
    user: User,
    row: str,
    up: str,
    *,
    right: bool,
    days_ago: int = 0,
    lost: str = "0.05",
    rules: Rules = EUROPEAN,
) -> Drill:
    """An answered drill, made directly: the progress page only reads what is stored."""
    when = timezone.now() - timedelta(days=days_ago)
    return Drill.objects.create(
        user=user, rules_name=rules.name, rules_version=rules.version, rules=rules.to_json(),
        cards="10s 6h", up="10d", row=row, up_column=up, answered_at=when,
        action="hit" if right else "stand", correct_action="hit", correct_code="H",
        ev_lost=Decimal("0") if right else Decimal(lost),
    )  # fmt: skip


@pytest.fixture
def ann(client: Client) -> User:
    user = get_user_model().objects.create_user("ann", password="pw-long-enough-1")
    client.force_login(user)
    return user


def test_a_new_player_is_pointed_to_the_drills(client: Client) -> None:
    response = client.get(URL)
    assertContains(response, "No answers yet.")


def test_the_totals_streak_and_categories(client: Client, ann: User) -> None:
    answered(ann, "hard 16", "10", right=False, days_ago=2)
    answered(ann, "hard 16", "10", right=True, days_ago=1)
    answered(ann, "soft 18", "9", right=True)
    answered(ann, "pair 8", "A", right=True)
    html = client.get(URL).content.decode()
    progress = client.get(URL).context["progress"]
    assert (progress.total.answered, progress.total.correct) == (4, 3)
    assert progress.streak == 3
    assert [t.answered for _, t in progress.kinds] == [2, 1, 1]
    assert len(progress.days) == 3
    assert "<polyline" in html
    assert "75%" in html


def test_the_line_draws_the_latest_days_and_the_totals_count_every_one(
    client: Client, ann: User
) -> None:
    for days_ago in range(SHOWN_PERIODS + 5):
        answered(ann, "hard 16", "10", right=days_ago % 2 == 0, days_ago=days_ago)
    response = client.get(URL)
    progress = response.context["progress"]
    assert (len(progress.days), progress.earlier) == (SHOWN_PERIODS, 5)
    assert progress.days[-1].day == timezone.now().date()  # the latest, not the first
    assert len(progress.line.dots) == SHOWN_PERIODS
    assert progress.total.answered == SHOWN_PERIODS + 5
    assertContains(response, f"The line shows the latest {SHOWN_PERIODS} days")
    by_week = client.get(URL, {"by": "week"}).context["progress"]
    assert by_week.earlier == 0 and sum(p.tally.answered for p in by_week.days) == 95


def test_the_weakest_cells_come_first(client: Client, ann: User) -> None:
    answered(ann, "hard 12", "3", right=False, lost="0.01")
    answered(ann, "hard 16", "10", right=False, lost="0.04")
    answered(ann, "hard 16", "10", right=True)
    answered(ann, "soft 18", "9", right=True)
    weakest = client.get(URL).context["progress"].weakest
    assert [(row, up) for row, up, _ in weakest] == [("Hard 12", "3"), ("Hard 16", "10")]


def test_the_heat_map_shows_seen_and_unseen_cells(client: Client, ann: User) -> None:
    answered(ann, "hard 16", "10", right=True)
    answered(ann, "hard 16", "10", right=False)
    progress = client.get(URL).context["progress"]
    cells = {r.title: r.cells for r in progress.heat_rows}["Hard 16"]
    assert [c.share for c in cells if c.up == "10"] == ["50%"]
    assert all(c.tally is None for c in cells if c.up != "10")
    assertContains(client.get(URL), "not seen yet")


def test_only_the_players_own_answers_count(client: Client, ann: User) -> None:
    other = get_user_model().objects.create_user("bob", password="pw-long-enough-1")
    answered(other, "hard 16", "10", right=False)
    assertContains(client.get(URL), "No answers yet.")


def test_a_guests_answers_show_on_their_progress(client: Client) -> None:
    client.post(reverse("trainer:drill"), {"deal": "1"})
    drill = Drill.objects.get()
    client.post(reverse("trainer:drill"), {"drill": drill.pk, "action": "stand"})
    assertNotContains(client.get(URL), "No answers yet.")
    assert Client().get(URL).context["progress"].total.answered == 0


@pytest.mark.usefixtures("presets_analysed")
def test_the_progress_page_reads_in_a_few_queries(
    client: Client, ann: User, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    for day in range(30):
        answered(ann, "hard 16", "10", right=day % 3 != 0, days_ago=day)
    # The session and the user, then the answers by period, by cell, the latest ones and
    # the response times; then the four counting drills' answers of the last weeks, and
    # the index plays' heat map.
    with django_assert_max_num_queries(11):
        client.get(URL)


def test_a_week_is_one_point_of_the_line(client: Client, ann: User) -> None:
    # Three answers in one ISO week (Monday to Wednesday of a fixed week) and one a week
    # later: two points by week, three by day.
    monday = timezone.now().replace(year=2026, month=11, day=16, hour=12)
    for offset, right in ((0, True), (1, False), (2, True), (7, True)):
        drill = answered(ann, "hard 16", "10", right=right)
        Drill.objects.filter(pk=drill.pk).update(answered_at=monday + timedelta(days=offset))
    weekly = client.get(URL, {"by": "week"}).context["progress"]
    assert [(p.day.isoformat(), p.tally.answered, p.tally.correct) for p in weekly.days] == [
        ("2026-11-16", 3, 2),
        ("2026-11-23", 1, 1),
    ]
    assert len(client.get(URL).context["progress"].days) == 4
    assertContains(client.get(URL, {"by": "week"}), "Accuracy by week")
    assert client.get(URL, {"by": "year"}).context["progress"].period == "day"


def test_drills_and_practice_decisions_are_counted_apart_and_together(
    client: Client, ann: User
) -> None:
    answered(ann, "hard 16", "10", right=True)
    Drill.objects.filter(pk=answered(ann, "hard 12", "3", right=False).pk).update(source="play")
    Drill.objects.filter(pk=answered(ann, "hard 12", "2", right=True).pk).update(source="play")
    progress = client.get(URL).context["progress"]
    assert [(str(title), t.answered, t.correct) for title, t in progress.sources] == [
        ("Drills", 1, 1),
        ("Practice rounds", 2, 1),
    ]
    assert progress.total.answered == 3
    heat = {
        (heat_row.title, cell.up): cell.tally
        for heat_row in progress.heat_rows
        for cell in heat_row.cells
    }
    assert heat["Hard 12", "3"] is not None and heat["Hard 12", "3"].answered == 1


def add_up(progress: Progress) -> None:
    """Every breakdown of the page counts the answers its totals count."""
    total = progress.total
    heat = [cell.tally for heat_row in progress.heat_rows for cell in heat_row.cells if cell.tally]
    for breakdown in (
        [tally for _, tally in progress.kinds],
        [tally for _, tally in progress.sources],
        [point.tally for point in progress.days],
        heat,
    ):
        assert sum(t.answered for t in breakdown) == total.answered
        assert sum(t.correct for t in breakdown) == total.correct


def test_progress_is_shown_per_rules_set_the_most_trained_first(client: Client, ann: User) -> None:
    for right in (True, False, True):
        answered(ann, "hard 16", "10", right=right, rules=DELUXE)
    answered(ann, "soft 18", "9", right=True, rules=DELUXE)
    answered(ann, "hard 12", "3", right=False)
    answered(ann, "pair 8", "A", right=True, days_ago=1)
    Drill.objects.filter(pk=answered(ann, "hard 9", "4", right=True).pk).update(source="play")

    shown = client.get(URL)
    progress = shown.context["progress"]
    assert progress.rules_name == "deluxe"  # four answers against three
    assert (progress.total.answered, progress.total.correct) == (4, 3)
    add_up(progress)
    assertContains(shown, '<a href="/rules/deluxe/">Deluxe</a>')

    european = client.get(URL, {"rules": "european"}).context["progress"]
    assert european.rules_name == "european"
    assert (european.total.answered, european.total.correct) == (3, 2)
    assert [t.answered for _, t in european.kinds] == [2, 0, 1]
    add_up(european)
    assert [(choice.name, choice.answered) for choice in european.rules_sets] == [
        ("deluxe", 4),
        ("european", 3),
    ]
    weekly = client.get(URL, {"rules": "european", "by": "week"}).context["progress"]
    assert weekly.total.answered == 3


def test_an_unknown_rules_set_shows_the_most_trained(client: Client, ann: User) -> None:
    answered(ann, "hard 16", "10", right=True)
    response = client.get(URL, {"rules": "no-such-rules"})
    assert response.status_code == 200
    assert response.context["progress"].rules_name == "european"


def test_a_custom_rules_set_is_its_own_choice_with_its_own_chart(client: Client, ann: User) -> None:
    custom = EUROPEAN.with_overrides({"dealer_hits_soft_17": "true"})
    analyses.analysis_start(rules=custom, visitor="ann")  # worked out at once in tests
    answered(ann, "soft 18", "2", right=True, rules=custom)
    answered(ann, "hard 16", "10", right=False)
    progress = client.get(URL, {"rules": "european-custom"}).context["progress"]
    assert progress.total.answered == 1
    add_up(progress)
    chart = strategy_for(custom).chart
    codes = {
        (heat_row.title, cell.up): cell.code
        for heat_row in progress.heat_rows
        for cell in heat_row.cells
    }
    assert codes["Soft 18", "2"] == chart["soft 18"]["2"]
    assert codes["Hard 11", "A"] == chart["hard 11"]["A"]


def test_a_rules_set_without_an_analysis_shows_its_answers_without_the_chart(
    client: Client, ann: User
) -> None:
    drill = answered(ann, "hard 16", "10", right=False)
    # Stored under rules the engine no longer accepts.
    Drill.objects.filter(pk=drill.pk).update(rules_name="old-custom", rules={"decks": "many"})
    response = client.get(URL)
    assert response.status_code == 200
    progress = response.context["progress"]
    assert progress.rules_name == "old-custom"
    add_up(progress)
    cells = [cell for heat_row in progress.heat_rows for cell in heat_row.cells]
    assert all(cell.code == "" for cell in cells)
    assert [cell.tally.answered for cell in cells if cell.tally] == [1]


def test_svg_coordinates_are_never_localized(client: Client, ann: User) -> None:
    # Right shares of 2/3, 1/3 and 1: coordinates with decimals.
    for days_ago, results in ((2, (True, True, False)), (1, (True, False, False)), (0, (True,))):
        for right in results:
            answered(ann, "hard 16", "10", right=right, days_ago=days_ago)
    for language in ("pl", "ar", "en"):
        client.cookies["django_language"] = language
        html = client.get(URL).content.decode()
        svg = html[html.index("<svg") : html.index("</svg>")]
        coordinates = re.findall(r'\b(?:x1|x2|y1|y2)="([^"]*)"', svg)
        assert len(coordinates) == 4 * (3 + 3)  # the grid's three lines, the three dots
        for value in coordinates:
            float(value)  # "33,33" fails
        for box in re.findall(r'viewBox="([^"]*)"', svg):
            assert [float(n) for n in box.split()]
        for points in re.findall(r'points="([^"]*)"', svg):
            assert all(len([float(n) for n in p.split(",")]) == 2 for p in points.split())


def test_a_share_is_never_rounded_to_all_or_nothing(client: Client, ann: User) -> None:
    for n in range(200):
        answered(ann, "hard 16", "10", right=n != 0)
    html = client.get(URL).content.decode()
    shown = re.findall(r">([^<>]*%)<", html)  # every share, as a cell's whole text
    assert shown and "100%" not in shown
    assert "99%" in shown  # 199 right of 200


def test_the_progress_view_is_built_without_a_query(
    ann: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    answered(ann, "hard 16", "10", right=False, days_ago=1)
    answered(ann, "hard 16", "10", right=True)
    answers = selectors.progress_answers(Owner(user_id=ann.pk, guest_token=""), "day")
    # Forgotten by the process, so that reading the chart again would be a query.
    strategy_for.cache_clear()
    with django_assert_num_queries(0):
        progress = Progress.of(answers)
    assert (progress.total.answered, progress.total.correct, progress.streak) == (2, 1, 1)
    heat = {
        (heat_row.title, cell.up): cell
        for heat_row in progress.heat_rows
        for cell in heat_row.cells
    }
    assert heat["Hard 16", "10"].code == "H" and heat["Hard 16", "10"].share


def test_the_heat_map_leaves_out_rows_no_drill_deals(client: Client, ann: User) -> None:
    """Hard 20 (two tens are a pair) and the 21s are never dealt in a drill: their rows
    are shown only once a practice round's later decision fell in one."""
    answered(ann, "hard 16", "10", right=True)
    titles = [row.title for row in client.get(URL).context["progress"].heat_rows]
    assert "Hard 16" in titles and "10,10" in titles
    assert not {"Hard 20", "Hard 21", "Soft 21"} & set(titles)
    answered(ann, "hard 20", "6", right=True)  # a practice round's hit to 20
    titles = [row.title for row in client.get(URL).context["progress"].heat_rows]
    assert "Hard 20" in titles and "Hard 21" not in titles
