"""``{{ name|preset_name }}``: a rules preset's name in the player's language."""

from __future__ import annotations

from django import template

from trainer.rules_words import preset_name

register = template.Library()
register.filter("preset_name", preset_name)
