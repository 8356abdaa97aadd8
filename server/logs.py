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
import time
from json.encoder import encode_basestring_ascii
from typing import Any

# Attributes every LogRecord has; anything else on a record came in through ``extra``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


_second: tuple[int, str] = (-1, "")
"""The last whole second stamped, and its text: lines come many a second (one
tuple, replaced whole: lines logged from several threads read it safely)."""


def _time(record: logging.LogRecord) -> str:
    """``2026-11-22T10:00:00.123Z``: UTC, to the millisecond (truncated)."""
    global _second
    seconds, text = _second
    whole = int(record.created)
    if whole != seconds:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
        _second = (whole, text)
    return f"{text}.{int(record.msecs):03d}Z"


class TextFormatter(logging.Formatter):
    """``time LEVEL logger event key=value ...`` (values with spaces are quoted)."""

    def format(self, record: logging.LogRecord) -> str:
        parts = [_time(record), record.levelname, record.name, record.getMessage()]
        for key, value in _fields(record).items():
            shown = str(value)
            # json.dumps' own quoting of a str, without its dispatch (a tenth of the time).
            quoted = encode_basestring_ascii(shown) if " " in shown or not shown else shown
            parts.append(f"{key}={quoted}")
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
    # What no line shows is not gathered for each record: the caller's file and
    # line (a walk up the stack), the thread, the process and multiprocessing's
    # name (the logging HOWTO's "Optimization"). The server logs two lines a game
    # (started, finished), 13 -> 9 µs of CPU each (issue 29).
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    # aiohttp's access log line per HTTP request is noise for a game server.
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
