"""The live table's order buttons (trainer/templatetags/live_orders.py): each a form that
posts what the table's form reads, with the viewer's token, its label escaped."""

from __future__ import annotations

from types import SimpleNamespace

from django.template import Context, Template

ORDER = Template(
    "{% load live_orders %}"
    "{% live_order op label seat=seat amount=amount action=action chosen=chosen %}"
)


def drawn(**values: object) -> str:
    context = {"op": "bet", "label": "10", "seat": None, "amount": None, "action": None,
               "chosen": None, "post_url": "/tables/7/", "live": SimpleNamespace(version=42),
               "csrf_token": "tok"} | values  # fmt: skip
    return ORDER.render(Context(context))


def test_a_bet_posts_its_seat_and_amount_with_the_viewers_token_and_no_version() -> None:
    """A bet is absolute (any version takes it): its button stays the same as the table
    moves on."""
    html = drawn(op="bet", label=20, seat=3, amount=20)
    assert html.startswith(
        '<form class="live__order" method="post" action="/tables/7/" hx-post="/tables/7/"'
    )
    assert (
        '<input type="hidden" name="csrfmiddlewaretoken" value="tok">'
        '<input type="hidden" name="op" value="bet">'
        '<input type="hidden" name="seat" value="3">'
        '<input type="hidden" name="amount" value="20">'
    ) in html
    assert 'name="version"' not in html
    assert (
        '<button type="submit" id="order-bet-3-20" data-op="bet" data-seat="3" data-amount="20">'
        "20</button>" in html
    )


def test_a_play_chosen_before_the_turn_is_pressed_and_the_others_are_not() -> None:
    chosen = drawn(op="preselect", label="Stand", seat=4, action="stand", chosen="stand")
    other = drawn(op="preselect", label="Hit", seat=4, action="hit", chosen="stand")
    assert (
        'id="order-preselect-4-stand" data-op="preselect" data-action="stand" aria-pressed="true"'
        ' data-seat="4"' in chosen
    )
    assert (
        'aria-pressed="false"' in other
        and '<input type="hidden" name="action" value="hit">' in other
    )


def test_an_order_without_a_seat_or_amount_carries_neither() -> None:
    html = drawn(op="cash_out", label="Cash out and leave")
    assert 'name="seat"' not in html and 'name="amount"' not in html and "data-seat" not in html
    assert 'id="order-cash_out" data-op="cash_out">Cash out and leave</button>' in html


def test_a_label_is_escaped_and_no_token_is_drawn_where_there_is_none() -> None:
    html = drawn(label="<b>Join</b>", csrf_token="NOTPROVIDED")
    assert "&lt;b&gt;Join&lt;/b&gt;" in html and "<b>" not in html
    assert "csrfmiddlewaretoken" not in html
