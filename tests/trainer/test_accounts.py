from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django.asserts import assertContains, assertRedirects

from trainer.models import Drill

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase-7"


def answer_drills(client: Client, count: int) -> list[int]:
    """Answer ``count`` drills as whoever the client is; returns their ids."""
    ids = []
    for _ in range(count):
        client.post(reverse("trainer:drill"), {"deal": "1"})  # the pending drill, or a new one
        drill = Drill.objects.filter(answered_at=None).order_by("-pk").first()
        assert drill is not None
        client.post(reverse("trainer:drill"), {"drill": drill.pk, "action": "stand"})
        ids.append(drill.pk)
    return ids


def test_signing_up_logs_in_and_brings_the_guests_answers(client: Client) -> None:
    mine = answer_drills(client, 3)
    stranger = answer_drills(Client(), 2)
    response = client.post(
        reverse("signup"),
        {"username": "ann", "password1": PASSWORD, "password2": PASSWORD},
    )
    assertRedirects(response, reverse("trainer:drill"), fetch_redirect_response=False)
    ann = get_user_model().objects.get(username="ann")
    assert set(Drill.objects.filter(user=ann).values_list("pk", flat=True)) == set(mine)
    assert Drill.objects.filter(pk__in=stranger, user=None).count() == 2
    assertContains(client.get(reverse("trainer:drill")), "ann")  # logged in


def test_logging_in_brings_the_guests_answers_too(client: Client) -> None:
    get_user_model().objects.create_user("bob", password=PASSWORD)
    mine = answer_drills(client, 2)
    response = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
    assert Drill.objects.filter(user__username="bob").count() == len(mine)


def test_an_invalid_sign_up_is_refused_with_reasons(client: Client) -> None:
    response = client.post(
        reverse("signup"), {"username": "ann", "password1": PASSWORD, "password2": "other"}
    )
    assert response.status_code == 400
    assertContains(response, "didn’t match", status_code=400)
    assert not get_user_model().objects.exists()


def test_logging_out_is_a_post(client: Client) -> None:
    user = get_user_model().objects.create_user("cy", password=PASSWORD)
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assertRedirects(response, reverse("trainer:home"), fetch_redirect_response=False)
    assert "_auth_user_id" not in client.session


def test_changing_the_password_needs_the_old_one(client: Client) -> None:
    user = get_user_model().objects.create_user("di", password=PASSWORD)
    assert client.get(reverse("password_change")).status_code == 302  # log in first
    client.force_login(user)
    new = "another-long-phrase-9"
    wrong = client.post(
        reverse("password_change"),
        {"old_password": "nope", "new_password1": new, "new_password2": new},
    )
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors
    client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    user.refresh_from_db()
    assert user.check_password(new)


def test_a_password_reset_mails_a_working_link(client: Client) -> None:
    get_user_model().objects.create_user("ed", email="ed@example.com", password=PASSWORD)
    response = client.post(reverse("password_reset"), {"email": "ed@example.com"})
    assertRedirects(response, reverse("password_reset_done"))
    assert len(mail.outbox) == 1
    link = next(word for word in mail.outbox[0].body.split() if "/accounts/reset/" in word)
    path = link.split("testserver", 1)[1]
    form_page = client.get(path, follow=True)
    assertContains(form_page, "Choose a new password")


def test_an_account_cannot_answer_another_accounts_drill(client: Client) -> None:
    owner = get_user_model().objects.create_user("fay", password=PASSWORD)
    intruder = get_user_model().objects.create_user("gus", password=PASSWORD)
    theirs = Drill.objects.create(
        user=owner, rules_name="european", rules_version="1.0.0", cards="10s 6h", up="10d"
    )
    client.force_login(intruder)
    response = client.post(reverse("trainer:drill"), {"drill": theirs.pk, "action": "hit"})
    assert response.status_code == 400
    theirs.refresh_from_db()
    assert theirs.answered_at is None
