from __future__ import annotations

from django.apps import AppConfig


class TrainerConfig(AppConfig):
    name = "trainer"
    verbose_name = "Blackjack Strategy Trainer"
    default_auto_field = "django.db.models.BigAutoField"
