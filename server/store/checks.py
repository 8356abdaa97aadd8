"""Argument checks that more than one part of the store makes, before any transaction,
so that a refused write touches nothing. Each raises :class:`InvalidRecordError`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from server.store.errors import InvalidRecordError


def check_time(name: str, at: object) -> float:
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at) or at < 0:
        raise InvalidRecordError(f"{name} must be a time in Unix seconds (time.time()), not {at!r}")
    return float(at)


def options_json(options: Mapping[str, Any] | None) -> str:
    if options is None:
        return "{}"
    if not isinstance(options, Mapping) or not all(isinstance(key, str) for key in options):
        raise InvalidRecordError(f"options must be a JSON object with string keys, not {options!r}")
    try:
        return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidRecordError(f"options must be JSON: {error}") from error
