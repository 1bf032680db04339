"""Build frozen slotted dataclasses quickly, positionally.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, which costs a
few microseconds per record in CPython; an audit builds about a hundred records per hand
(street activity, actions, cards). `positional(cls)` makes a constructor that sets the same
slots directly: the objects are identical (equal, hashable, still frozen), only built faster.
No validation or `__post_init__` runs, so use it only for plain record classes.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int
>>> make = positional(Point)
>>> make(1, 2) == Point(1, 2)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def positional(cls: type[T]) -> Callable[..., T]:
    """A fast positional constructor for the frozen slotted dataclass `cls`."""
    spec = dataclasses.fields(cls)  # type: ignore[arg-type]
    if "__slots__" not in cls.__dict__ or any(not f.init for f in spec):
        raise TypeError(f"{cls.__name__} is not a plain slotted dataclass")
    fields = [f.name for f in spec]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    body = [f"def make({', '.join(fields)}):", "    obj = _new(_cls)"]
    for k, name in enumerate(fields):
        namespace[f"_set{k}"] = cls.__dict__[name].__set__
        body.append(f"    _set{k}(obj, {name})")
    body.append("    return obj")
    exec("\n".join(body), namespace)
    make: Callable[..., T] = namespace["make"]
    make.__doc__ = f"Build a {cls.__name__} from its fields, in order."
    return make
