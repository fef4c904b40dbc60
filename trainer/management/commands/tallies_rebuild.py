"""``manage.py tallies_rebuild``: count the progress tallies again from the answers."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from trainer.shared import tallies
from trainer.shared.owners import Owner


class Command(BaseCommand):
    help = (
        "Count every player's progress tallies again from their answers (or only --user's): "
        "after a restore, or answers imported around the app."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", help="the username whose tallies to count again")

    def handle(self, *args: Any, user: str | None, **options: Any) -> None:
        owner = None
        if user is not None:
            found = get_user_model().objects.filter(username=user).first()
            if found is None:
                raise CommandError(f"There is no user called {user!r}.")
            owner = Owner(user_id=found.pk, guest_token="")
        tallies.rebuild(owner)
        self.stdout.write(f"Counted the tallies of {user or 'every player'} again.")
