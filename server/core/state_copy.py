"""A deep copy of a room's state, as :func:`copy.deepcopy` makes it, several times faster.

A room is copied before every input (:meth:`boardroom.server.core.room.Room.snapshot`:
the adapter puts it back if the store refuses the input's events for now), so on
the relay path every move pays for one copy. ``copy.deepcopy`` copies a
dataclass with slots through its pickling protocol (``__reduce_ex__``,
``dataclasses.fields`` on each side): about 9 µs an object, 25 objects a
tic-tac-toe table, a fifth of the server's CPU a move (issue 29's profile).

:func:`deep_copy` makes the same copy by walking the objects itself, with a
copier made once per class met: lists, dicts, sets and dataclasses that use the
default pickling (with slots or a ``__dict__``) are rebuilt attribute by
attribute; immutable values of the builtin kinds are shared (as ``deepcopy``
returns them, or an equal copy nobody can tell apart), and so are enums' members
and frozen dataclasses with slots whose attributes are all such values or tuples
of them (an equal copy nobody could tell apart either; with these, and the random
source's state saved only when drawn from, :mod:`~boardroom.server.core.rewindable_random`,
a tic-tac-toe room's snapshot went from 33 to 14 µs, issue 29);
msgspec structs (a game's result) are rebuilt around copies of their fields (a
frozen one is shared when none needed a copy); anything else (a class with its
own ``__deepcopy__`` or ``__reduce__``, like a game's rules) goes to
``copy.deepcopy`` with the same memo. Objects reached twice
are copied once, and a memo entry given in advance (``{id(x): x}``) shares ``x``
instead of copying it, as with ``deepcopy``.

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
from collections.abc import Callable
from typing import Any, Final, TypeVar

import msgspec

__all__ = ["deep_copy"]

_T = TypeVar("_T")

_SHARED: set[type] = {type(None), bool, int, float, complex, str, bytes, range}
"""Kinds whose values are shared, not copied: immutable builtins with nothing inside
to copy (``deepcopy`` returns them as they are), and each enum met (its members are
never copied, ``Enum.__deepcopy__``), added the first time one is copied."""

_MISSING: Final = object()

_Copier = Callable[[Any, dict[int, Any]], Any]

_COPIERS: dict[type, _Copier] = {}
"""Per kind met: how to copy one of its values (:func:`_copier_for`)."""


def deep_copy(value: _T, memo: dict[int, Any]) -> _T:
    """A deep copy of ``value`` (see the module docstring); ``memo`` maps the ids of
    objects already copied (or to share) to their copies."""
    copied: _T = _copy(value, memo)
    return copied


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in _SHARED:
        return value
    copier = _COPIERS.get(kind)
    if copier is None:
        copier = _COPIERS[kind] = _copier_for(kind)
        if kind in _SHARED:
            return value  # an enum, shared from now on
    return copier(value, memo)


def _copy_list(value: list[Any], memo: dict[int, Any]) -> list[Any]:
    found = memo.get(id(value), _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[no-any-return]
    items: list[Any] = []
    memo[id(value)] = items
    shared = _SHARED
    items.extend(item if type(item) in shared else _copy(item, memo) for item in value)
    return items


def _copy_dict(value: dict[Any, Any], memo: dict[int, Any]) -> dict[Any, Any]:
    found = memo.get(id(value), _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[no-any-return]
    mapping: dict[Any, Any] = {}
    memo[id(value)] = mapping
    shared = _SHARED
    for key, item in value.items():
        mapping[key if type(key) in shared else _copy(key, memo)] = (
            item if type(item) in shared else _copy(item, memo)
        )
    return mapping


def _copy_set(value: set[Any], memo: dict[int, Any]) -> set[Any]:
    found = memo.get(id(value), _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[no-any-return]
    members: set[Any] = set()
    memo[id(value)] = members
    shared = _SHARED
    members.update(item if type(item) in shared else _copy(item, memo) for item in value)
    return members


def _copy_immutable(value: tuple[Any, ...] | frozenset[Any], memo: dict[int, Any]) -> Any:
    """A tuple or a frozenset: itself when nothing inside it is copied (as ``deepcopy``
    returns it), else rebuilt around the copies."""
    shared = _SHARED
    if all(type(item) in shared for item in value):
        return value
    found = memo.get(id(value), _MISSING)
    if found is not _MISSING:
        return found
    inner = [_copy(item, memo) for item in value]
    if all(a is b for a, b in zip(inner, value, strict=True)):
        return value  # nothing mutable inside: deepcopy returns it as it is
    rebuilt = type(value)(inner)
    memo[id(value)] = rebuilt
    return rebuilt


def _deepcopy(value: Any, memo: dict[int, Any]) -> Any:
    found = memo.get(id(value), _MISSING)  # a shared object (the rules), most often
    return copy.deepcopy(value, memo) if found is _MISSING else found


def _copier_for(kind: type) -> _Copier:
    """How :func:`_copy` copies a value of ``kind``: the builtin containers and
    dataclasses that use the default pickling (with slots or a ``__dict__``) here,
    attribute by attribute; an enum is shared (added to :data:`_SHARED`); anything
    else goes to ``copy.deepcopy``."""
    if issubclass(kind, enum.Enum):
        _SHARED.add(kind)  # an enum's members are never copied (Enum.__deepcopy__)
        return _deepcopy  # never called: _copy shares the kind's values from now on
    builtin: dict[type, _Copier] = {
        list: _copy_list,
        dict: _copy_dict,
        set: _copy_set,
        tuple: _copy_immutable,
        frozenset: _copy_immutable,
    }
    if kind in builtin:
        return builtin[kind]
    if issubclass(kind, msgspec.Struct) and kind.__reduce_ex__ is msgspec.Struct.__reduce_ex__:
        return _struct_copier(kind)
    default_pickling = (
        kind.__reduce_ex__ is object.__reduce_ex__
        and kind.__reduce__ is object.__reduce__
        and getattr(kind, "__deepcopy__", None) is None
        and getattr(kind, "__copy__", None) is None
    )
    if not dataclasses.is_dataclass(kind) or not default_pickling:
        return _deepcopy
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
        # A __dict__ (and no slots besides): copied as a dict.
        return _deepcopy if slots else _dict_copier(kind)
    names = tuple(dict.fromkeys(slots))
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return _frozen_copier(kind, names)
    return _slots_copier(kind, names)


def _struct_copier(kind: type[msgspec.Struct]) -> _Copier:
    """A msgspec struct (a message kept in the state, like a game's result): its
    fields copied, rebuilt with ``msgspec.structs.replace``; a frozen one whose
    fields all copy to themselves is itself."""
    names: tuple[str, ...] = kind.__struct_fields__
    frozen = kind.__struct_config__.frozen

    def copy_struct(value: Any, memo: dict[int, Any]) -> Any:
        found = memo.get(id(value), _MISSING)
        if found is not _MISSING:
            return found
        shared = _SHARED
        changes = {}
        for name in names:
            item = getattr(value, name)
            if type(item) not in shared:
                copied = _copy(item, memo)
                if copied is not item:
                    changes[name] = copied
        new = value if frozen and not changes else msgspec.structs.replace(value, **changes)
        memo[id(value)] = new
        return new

    return copy_struct


def _dict_copier(kind: type) -> _Copier:
    def copy_object(value: Any, memo: dict[int, Any]) -> Any:
        found = memo.get(id(value), _MISSING)
        if found is not _MISSING:
            return found
        new: Any = object.__new__(kind)
        memo[id(value)] = new
        state = new.__dict__
        shared = _SHARED
        for name, item in value.__dict__.items():
            state[name] = item if type(item) in shared else _copy(item, memo)
        return new

    return copy_object


def _slots_copier(kind: type, names: tuple[str, ...]) -> _Copier:
    def copy_object(value: Any, memo: dict[int, Any]) -> Any:
        found = memo.get(id(value), _MISSING)
        if found is not _MISSING:
            return found
        new: Any = object.__new__(kind)
        memo[id(value)] = new
        shared = _SHARED
        for name in names:
            item = getattr(value, name)
            object.__setattr__(new, name, item if type(item) in shared else _copy(item, memo))
        return new

    return copy_object


def _frozen_copier(kind: type, names: tuple[str, ...]) -> _Copier:
    """A frozen dataclass with slots: itself when its attributes are all shared
    values or tuples of them (nobody can tell it from a copy), else copied as
    :func:`_slots_copier` does."""
    copy_slots = _slots_copier(kind, names)

    def copy_object(value: Any, memo: dict[int, Any]) -> Any:
        found = memo.get(id(value), _MISSING)
        if found is not _MISSING:
            return found
        shared = _SHARED
        for name in names:
            item = getattr(value, name)
            kind = type(item)
            if kind not in shared and not (
                (kind is tuple or kind is frozenset) and all(type(i) in shared for i in item)
            ):
                return copy_slots(value, memo)
        return value

    return copy_object


def _slot_names(klass: type) -> tuple[str, ...]:
    slots = vars(klass).get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)
