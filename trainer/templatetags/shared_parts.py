"""``{% shared_part "name" value … %}…{% endshared_part %}``: a fragment drawn once for
every viewer whose values are the same, then kept (the latest few thousand, in this
process).

A busy live table's players each see a page of their own, but most of it — the dealer,
each seat as the other players see it, the buttons beside it — is drawn from the same
values for all of them, so it is the same HTML. A fragment is kept under a fingerprint of
everything it is drawn from: the values named (plain values only, their every field and
item, never an object's identity) and the language. A viewer is therefore handed only
what their own values would have drawn: no one's private state (a decision, a choice
made before one's turn, chips) can reach another's page. The CSRF token, each person's
own, is drawn as a placeholder and put in for each viewer.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import io
import pickle
import threading
from collections import OrderedDict
from fractions import Fraction
from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

#: What a kept fragment holds in place of the viewer's CSRF token.
CSRF_SLOT = "sharedpartcsrftokenslot"


class _Fragments:
    """The fragments drawn in this process, the latest ``size`` used. A key names all
    that its fragment is drawn from, so a fragment kept is never stale and needs no
    expiry; and each is a string, used as it is: a dict under a lock, where one of
    Django's caches (which checks each key and pickles each value) took a quarter of
    a lookup's time."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[bytes, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes) -> str | None:
        with self._lock:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
            return html

    def keep(self, key: bytes, html: str) -> None:
        with self._lock:
            self._kept[key] = html
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


#: A few per busy table and change, a few kB each: 3,000 hold the latest changes of a
#: hundred busy tables (about 15 MB at most).
FRAGMENTS = _Fragments(3000)


class _PlainPickler(pickle.Pickler):
    """Pickles plain values only: anything else is refused rather than pickled by what
    its class chooses to keep (which may leave out what it draws)."""

    def reducer_override(self, obj: object) -> Any:  # a reduction, or NotImplemented
        # Called for every object but exact ints, floats, strings, lists, tuples and the
        # like, which pickle writes whole; a type is judged once.
        kind = type(obj)
        if kind in _PLAIN_TYPES:
            return NotImplemented  # pickled as usual
        if isinstance(obj, Promise):  # a translation: its words in the active language
            return str, (str(obj),)
        # A str subclass (SafeString), a class (pickled by name), or a dataclass: pickled
        # as its class and every field.
        if issubclass(kind, str | Fraction | enum.Enum | type) or dataclasses.is_dataclass(kind):
            _PLAIN_TYPES.add(kind)
            return NotImplemented
        raise TypeError(f"a shared part cannot be keyed by a {kind.__name__}")


#: The types `_PlainPickler` has found plain (a few dozen at most).
_PLAIN_TYPES: set[type] = set()


def fingerprint(value: object) -> bytes:
    """Everything ``value`` holds, as bytes: values that give the same bytes are equal
    (they unpickle alike), and a value it cannot see into is an error.

    Pickled, in C but for a check of each type, rather than walked through in Python
    (about a ninth of the cost: docs/performance.md). Two equal values may give different bytes
    where one shares an object that the other holds twice, which costs a drawing, never
    a wrong one.

    >>> fingerprint((1, "a", None)) == fingerprint((1, "a", None)) != fingerprint((1, "a"))
    True
    """
    out = io.BytesIO()
    _PlainPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return out.getvalue()


class SharedPartNode(template.Node):
    """The fragment, drawn once per fingerprint of its values and language."""

    def __init__(self, name: str, values: list[FilterExpression], nodelist: NodeList) -> None:
        self.name = name
        self.values = values
        self.nodelist = nodelist

    def render(self, context: Context) -> SafeString:
        token = context.get("csrf_token")
        if not token or str(token) == "NOTPROVIDED":  # no token to put in: drawn as it is
            return mark_safe(self.nodelist.render(context))
        values = [self.name, get_language() or ""]
        values += [value.resolve(context) for value in self.values]
        key = hashlib.sha256(fingerprint(values)).digest()
        html = FRAGMENTS.get(key)
        if html is None:
            with context.push(csrf_token=CSRF_SLOT):
                html = str(self.nodelist.render(context))
            FRAGMENTS.keep(key, html)
        return mark_safe(html.replace(CSRF_SLOT, conditional_escape(str(token))))


@register.tag("shared_part")
def shared_part(parser: Parser, token: Token) -> SharedPartNode:
    """``{% shared_part "name" value … %}``: the fragment up to ``{% endshared_part %}``,
    drawn once for all who draw it from the same values."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError("shared_part takes a quoted name, then its values")
    nodelist = parser.parse(("endshared_part",))
    parser.delete_first_token()
    return SharedPartNode(bits[1][1:-1], [parser.compile_filter(bit) for bit in bits[2:]], nodelist)
