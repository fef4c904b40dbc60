"""``{{ value|ltr }}``: a number that keeps its sign on its left in Arabic too."""

from __future__ import annotations

from django import template

from trainer import bidi

register = template.Library()
register.filter("ltr", bidi.ltr, is_safe=True)
