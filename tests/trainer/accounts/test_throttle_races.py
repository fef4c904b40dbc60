"""Throttles count atomically: requests racing on one counter let through exactly the
limit, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.trainer.conftest import Together
from trainer.shared.throttle import Throttle

pytestmark = [pytest.mark.database, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-pass-phrase-7"
THREADS = 8


@pytest.fixture
def passwords_checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names whose password the log-in form checked, from any thread."""
    checked: list[str] = []
    lock = threading.Lock()

    def counting(request: Any, **credentials: Any) -> Any:
        with lock:
            checked.append(credentials["username"])
        return authenticate(request, **credentials)

    monkeypatch.setattr("django.contrib.auth.forms.authenticate", counting)
    yield checked


def attempts(count: int, password: str) -> None:
    """``count`` log-ins as ann from one address, one after another."""
    client = Client()
    for _ in range(count):
        client.post(
            reverse("login"), {"username": "ann", "password": password}, REMOTE_ADDR="10.0.0.1"
        )


def test_racing_failed_log_ins_check_no_more_passwords_than_the_limit(
    together: Together, passwords_checked: list[str]
) -> None:
    get_user_model().objects.create_user("ann", password=PASSWORD)
    together([partial(attempts, 3, "wrong") for _ in range(THREADS)])  # 24 attempts at once
    assert len(passwords_checked) == 10


def test_racing_reset_requests_send_no_more_mails_than_the_limit(together: Together) -> None:
    get_user_model().objects.create_user("ed", email="ed@example.com", password=PASSWORD)
    responses = together(
        [
            partial(
                Client().post,
                reverse("password_reset"),
                {"email": "ed@example.com"},
                REMOTE_ADDR=f"10.0.0.{n}",
            )
            for n in range(THREADS)
        ]
    )
    assert len(mail.outbox) == 3
    assert sorted(r.status_code for r in responses) == [302] * 3 + [429] * (THREADS - 3)


def test_racing_records_all_count(together: Together) -> None:
    counter = Throttle("test-race", limit=1000, window=3600)
    together([partial(counter.record, "ann") for _ in range(THREADS)])
    assert counter.count("ann") == THREADS


def test_racing_sign_ups_make_no_more_accounts_than_the_limit(together: Together) -> None:
    together(
        [
            partial(
                Client().post,
                reverse("signup"),
                {
                    "username": f"user{n}",
                    "email": f"user{n}@example.com",
                    "password1": PASSWORD,
                    "password2": PASSWORD,
                },
                REMOTE_ADDR="10.0.0.1",
            )  # fmt: skip
            for n in range(THREADS)
        ]
    )
    assert get_user_model().objects.count() == 5
