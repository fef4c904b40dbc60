from __future__ import annotations

from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Blackjack Strategy Trainer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Keep the engine's analyses in the database, and let no request compute one but a
        preset's (the others are worked out in the background, see `trainer.analyses`)."""
        from engine.strategy.store import use_store
        from trainer.analyses import DatabaseStore, is_preset

        use_store(DatabaseStore(), compute_inline=is_preset)

        from django.contrib.auth.signals import user_logged_in

        from trainer.signals import adopt_guest_drills

        user_logged_in.connect(adopt_guest_drills, dispatch_uid="adopt_guest_drills")
