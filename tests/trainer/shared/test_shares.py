from __future__ import annotations

import pytest
from django.template import Context, Template

from trainer.shared.shares import share


@pytest.mark.parametrize(
    ("part", "whole", "shown"),
    [
        (1000, 1000, "100%"),
        (999, 1000, "99%"),
        (995, 1000, "99%"),  # rounds to 100, which would hide a miss
        (994, 1000, "99%"),
        (985, 1000, "99%"),  # half a percent rounds up below the top
        (984, 1000, "98%"),
        (2, 3, "67%"),
        (1, 2, "50%"),
        (1, 3, "33%"),
        (15, 1000, "2%"),
        (5, 1000, "1%"),
        (4, 1000, "<1%"),  # rounds to 0, which would hide a right answer
        (1, 1000, "<1%"),
        (0, 1000, "0%"),
        (0, 0, "—"),
    ],
)
def test_a_share_is_never_all_or_nothing_unless_it_is(part: int, whole: int, shown: str) -> None:
    assert share(part, whole) == shown


def test_the_template_filter_escapes_its_text() -> None:
    html = Template("{% load shares %}{{ part|share:whole }}").render(
        Context({"part": 1, "whole": 1000})
    )
    assert html == "&lt;1%"
