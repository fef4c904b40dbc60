"""The one app, ``trainer``: what it wires when Django starts."""

from __future__ import annotations

from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Blackjack Strategy Trainer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Keep the engine's analyses in the database, and let no request compute one but a
        preset's (the others are worked out in the background, see `trainer.shared.analyses`)."""
        from engine.strategy.store import use_store
        from trainer.shared.analyses import DatabaseStore, is_preset

        use_store(DatabaseStore(), compute_inline=is_preset)

        from django.contrib.auth.signals import user_logged_in

        from trainer.accounts.signals import adopt_guest
        from trainer.counting.services import counting_adopt_guest
        from trainer.drills.services import drills_adopt_guest
        from trainer.practice.services import practice_adopt_guest
        from trainer.shared.owners import guest_adopted

        user_logged_in.connect(adopt_guest, dispatch_uid="adopt_guest")
        guest_adopted.connect(drills_adopt_guest, dispatch_uid="drills_adopt_guest")
        guest_adopted.connect(practice_adopt_guest, dispatch_uid="practice_adopt_guest")
        guest_adopted.connect(counting_adopt_guest, dispatch_uid="counting_adopt_guest")
