"""``{{ name|preset_name }}``: a rules preset's name in the player's language; a name the
language keeps in English (Deluxe, in every catalogue) is marked as English for screen
readers (`trainer.shared.bidi.english`). ``{{ name|rules_title }}``: any recorded rules' name in
words, a custom set's too ("European, with changes of your own")."""

from __future__ import annotations

from django import template
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

from trainer.shared import rules_words
from trainer.shared.bidi import english
from trainer.shared.rules_words import RulesWords

register = template.Library()


@register.filter(is_safe=True)
def preset_name(name: str) -> SafeString:
    shown = rules_words.preset_name(name)
    with translation.override("en"):
        kept_in_english = shown == rules_words.preset_name(name)
    return english(shown) if kept_in_english else conditional_escape(shown)


@register.filter(is_safe=True)
def rules_title(name: str) -> SafeString:
    if name in rules_words.PRESET_NAMES:
        return preset_name(name)
    return conditional_escape(RulesWords.named(name).title)
