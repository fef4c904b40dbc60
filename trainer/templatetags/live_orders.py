"""``{% live_order "op" label seat=… amount=… action=… chosen=… %}``: one button of a live
table, a form of its own that posts its order to the table (trainer/live/forms.py reads it).

A table in its betting window shows some seventy of them, one per bet, bet behind, pair
bet and seat. This tag draws each in one pass, with the markup an include of a template
drew, to the byte; the include's twenty lookups a button made a seated player's view
5–12% dearer (docs/performance.md, "What following a busy live table costs").
"""

from __future__ import annotations

from django import template
from django.template.base import render_value_in_context
from django.template.context import Context
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def live_order(
    context: Context,
    op: str,
    label: object,
    *,
    seat: int | None = None,
    amount: int | None = None,
    action: str | None = None,
    chosen: str | None = None,
) -> SafeString:
    """The form for the order ``op`` (with its seat, amount or action), its button
    saying ``label``; a play chosen before one's turn is pressed when it is the
    ``chosen`` one. Posts to ``post_url`` with the viewer's CSRF token, both from the
    page's context. It names no version: these orders set absolute values, taken from
    any version (trainer/live/services.py), so a seat's buttons stay the same HTML
    while the seat does, whatever else at the table moves."""
    fields: list[tuple[str, object]] = [("op", op)]
    button_id = ["order", op]
    data: list[tuple[str, object]] = []
    if action:
        data += [("data-action", action), ("aria-pressed", "true" if action == chosen else "false")]
    for name, value in (("seat", seat), ("amount", amount), ("action", action)):
        if value:
            fields.append((name, value))
            button_id.append(str(value))
            if name != "action":
                data.append((f"data-{name}", value))
    token = context.get("csrf_token")
    if token and token != "NOTPROVIDED":
        fields.insert(0, ("csrfmiddlewaretoken", token))
    return format_html(
        '<form class="live__order" method="post" action="{url}" hx-post="{url}"'
        ' hx-target="#live" hx-swap="morph">{fields}<button type="submit" id="{id}"'
        ' data-op="{op}"{data}>{label}</button></form>\n',  # a space between inline buttons
        url=context["post_url"],
        fields=format_html_join("", '<input type="hidden" name="{}" value="{}">', fields),
        id="-".join(button_id),
        op=op,
        data=format_html_join("", ' {}="{}"', data),
        label=render_value_in_context(label, context),
    )
