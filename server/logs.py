"""Structured log lines: ``key=value`` text for people, or one JSON object per line.

Code logs an event name as the message and its details as ``extra``::

    logger.info("server ready", extra={"database": path, "workers": 1})

and gets ``2026-11-22T10:00:00.123Z INFO boardroom.server.app server ready database=boardroom.db
workers=1``, or with ``--log-format json``
``{"time": "...", "level": "INFO", "logger": "boardroom.server.app", "event": "server ready",
"database": "boardroom.db", "workers": 1}``.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

# Attributes every LogRecord has; anything else on a record came in through ``extra``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


def _time(record: logging.LogRecord) -> str:
    stamp = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
    return stamp.removesuffix("+00:00") + "Z"


class TextFormatter(logging.Formatter):
    """``time LEVEL logger event key=value ...`` (values with spaces are quoted)."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [_time(record), record.levelname, record.name, record.getMessage()]
        for key, value in _fields(record).items():
            shown = str(value)
            parts.append(f"{key}={json.dumps(shown) if ' ' in shown or not shown else shown}")
        line = " ".join(parts)
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, event, then the extras."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_logging(log_format: str, level: str) -> None:
    """Send the root logger's lines to stderr in ``log_format`` (text or json)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # aiohttp's access log line per HTTP request is noise for a game server.
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
