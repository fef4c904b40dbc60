from __future__ import annotations

from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Blackjack Strategy Trainer"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Point the engine's strategy store at the folder the settings name."""
        from django.conf import settings

        from engine.strategy.store import use_directory

        use_directory(settings.STRATEGY_CACHE_DIR)

        from django.contrib.auth.signals import user_logged_in

        from trainer.signals import adopt_guest_drills

        user_logged_in.connect(adopt_guest_drills, dispatch_uid="adopt_guest_drills")
