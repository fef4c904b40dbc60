"""``{{ right|share:answered }}``: a share of answers, never rounded to 100% or 0% by
mistake (see `trainer.shared.shares`)."""

from __future__ import annotations

from django import template

from trainer.shared.shares import share

register = template.Library()
register.filter("share", share)
