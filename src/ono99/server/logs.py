"""How the server logs: uvicorn's text lines (the default), or, with ``ono99 serve
--log-format json``, one JSON object a line on stderr — time, level, logger, message, and the
traceback when there is one — for a log collector to read without a parser of its own.

The standard library's logging does it with a formatter of a few lines (so no dependency for
it); uvicorn's own loggers (errors, and access lines were they turned on) go through it, and
so does everything else that logs (the root logger), the supervisor of ``--workers`` too.
"""

from __future__ import annotations

import json
import logging
import logging.config
from datetime import UTC, datetime
from typing import Any

from uvicorn.config import LOGGING_CONFIG

FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def log_config(log_format: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` for uvicorn (its ``log_config``) and the rest."""
    if log_format == "text":
        return LOGGING_CONFIG
    if log_format != "json":
        raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    json_out = {"handlers": ["json"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": json_out,
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": json_out,
        },
        "root": {"handlers": ["json"], "level": "WARNING"},
    }


def configure(log_format: str) -> None:
    """Log this way in a process that runs no uvicorn (the supervisor of ``--workers``)."""
    if log_format != "text":
        logging.config.dictConfig(log_config(log_format))
