"""A deep copy of a room's state, as :func:`copy.deepcopy` makes it, several times faster.

A room is copied before every input (:meth:`boardroom.server.core.room.Room.snapshot`:
the adapter puts it back if the store refuses the input's events for now), so on
the relay path every move pays for one copy. ``copy.deepcopy`` copies a
dataclass with slots through its pickling protocol (``__reduce_ex__``,
``dataclasses.fields`` on each side): about 9 µs an object, 25 objects a
tic-tac-toe table, a fifth of the server's CPU a move (issue 29's profile).

:func:`deep_copy` makes the same copy by walking the objects itself: lists,
dicts, sets and dataclasses that use the default pickling (with slots or a
``__dict__``) are rebuilt attribute by attribute; immutable values of the
builtin kinds are shared (as ``deepcopy`` returns them, or an equal copy nobody
can tell apart), and so are enums' members; anything else (a class with its own ``__deepcopy__`` or
``__reduce__``, like a game's rules) goes to ``copy.deepcopy`` with the same
memo. Objects reached twice are copied once, and a memo entry given in advance
(``{id(x): x}``) shares ``x`` instead of copying it, as with ``deepcopy``.

>>> from dataclasses import dataclass, field
>>> @dataclass(slots=True)
... class Box:
...     items: list[int] = field(default_factory=list)
>>> original = Box([1, 2])
>>> copied = deep_copy(original, {})
>>> copied == original and copied is not original and copied.items is not original.items
True
"""

from __future__ import annotations

import copy
import dataclasses
import enum
from typing import Any, Final, TypeVar

__all__ = ["deep_copy"]

_T = TypeVar("_T")

_SHARED: Final = frozenset({type(None), bool, int, float, complex, str, bytes, range})
"""Immutable kinds with nothing inside to copy: ``deepcopy`` returns them as they are."""

_MISSING: Final = object()
_SHARE: Final = ("<shared>",)
"""In :data:`_ATTRIBUTES`: a class whose instances are shared, not copied (an enum)."""

_ATTRIBUTES: dict[type, tuple[str, ...] | None] = {}
"""Per class: the slots to copy of a dataclass with slots and the default pickling,
``()`` for one with a ``__dict__``, :data:`_SHARE` for an enum, None for a class
left to ``copy.deepcopy``."""


def deep_copy(value: _T, memo: dict[int, Any]) -> _T:
    """A deep copy of ``value`` (see the module docstring); ``memo`` maps the ids of
    objects already copied (or to share) to their copies."""
    copied: _T = _copy(value, memo)
    return copied


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _SHARED:
        return value
    found = memo.get(id(value), _MISSING)
    if found is not _MISSING:
        return found
    if kind is list:
        items: list[Any] = []
        memo[id(value)] = items
        items.extend(_copy(item, memo) for item in value)
        return items
    if kind is dict:
        mapping: dict[Any, Any] = {}
        memo[id(value)] = mapping
        for key, item in value.items():
            mapping[_copy(key, memo)] = _copy(item, memo)
        return mapping
    if kind is set:
        members: set[Any] = set()
        memo[id(value)] = members
        members.update(_copy(member, memo) for member in value)
        return members
    if kind is tuple or kind is frozenset:
        inner = [_copy(item, memo) for item in value]
        if all(a is b for a, b in zip(inner, value, strict=True)):
            return value  # nothing mutable inside: deepcopy returns it as it is
        rebuilt = kind(inner)
        memo[id(value)] = rebuilt
        return rebuilt
    attributes = _ATTRIBUTES.get(kind, _MISSING)
    if attributes is _MISSING:
        attributes = _ATTRIBUTES[kind] = _copyable_attributes(kind)
    if attributes is None:
        return copy.deepcopy(value, memo)
    if attributes is _SHARE:
        return value
    new = object.__new__(kind)
    memo[id(value)] = new
    if attributes:
        for name in attributes:
            object.__setattr__(new, name, _copy(getattr(value, name), memo))
    else:
        state = new.__dict__
        for name, item in value.__dict__.items():
            state[name] = _copy(item, memo)
    return new


def _copyable_attributes(kind: type) -> tuple[str, ...] | None:
    """What :func:`_copy` copies of an instance of ``kind`` (see :data:`_ATTRIBUTES`)."""
    if issubclass(kind, enum.Enum):
        return _SHARE  # an enum's members are never copied (Enum.__deepcopy__)
    default_pickling = (
        kind.__reduce_ex__ is object.__reduce_ex__
        and kind.__reduce__ is object.__reduce__
        and getattr(kind, "__deepcopy__", None) is None
        and getattr(kind, "__copy__", None) is None
    )
    if not dataclasses.is_dataclass(kind) or not default_pickling:
        return None
    slots = [
        name
        for klass in kind.__mro__
        for name in _slot_names(klass)
        if name not in ("__dict__", "__weakref__")
    ]
    if "__dict__" in kind.__dict__ or any(
        "__dict__" in _slot_names(klass) or (klass is not object and "__slots__" not in vars(klass))
        for klass in kind.__mro__
    ):
        return () if not slots else None  # a __dict__ (and no slots besides): copied as a dict
    return tuple(dict.fromkeys(slots))


def _slot_names(klass: type) -> tuple[str, ...]:
    slots = vars(klass).get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)
