"""``{{ value|ltr }}`` and ``{{ chips|signed }}``: numbers that keep their sign on the left
in Arabic too; ``{{ name|english }}``: a name left in English, marked as such."""

from __future__ import annotations

from django import template

from trainer.shared import bidi

register = template.Library()
register.filter("ltr", bidi.ltr, is_safe=True)
register.filter("signed", bidi.signed, is_safe=True)
register.filter("english", bidi.english, is_safe=True)
