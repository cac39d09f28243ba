"""Log lines with a time, a level and, on every line about a match, its id: as text or as one
JSON object a line (``--log-format json``), for a log collector to index.

A line is about a match when its call passes ``extra={"match": match_id}``.

>>> import logging
>>> record = logging.makeLogRecord({"msg": "bot %s failed", "args": (2,), "match": "m-1"})
>>> json.loads(JsonFormatter().format(record))["match"]
'm-1'
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(match_part)s: %(message)s"


class MatchField(logging.Filter):
    """Give every record a ``match_part`` (`` match=ID`` or empty) for the text format."""

    def filter(self, record: logging.LogRecord) -> bool:
        match = getattr(record, "match", None)
        record.match_part = f" match={match}" if match else ""
        return True


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON object: time, level, logger, message, match (when the line
    is about one) and the exception's traceback (when there is one)."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as one line of JSON."""
        out: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        match = getattr(record, "match", None)
        if match:
            out["match"] = match
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str, fmt: str) -> dict[str, object]:
    """Return the ``logging.config.dictConfig`` of the server's own and uvicorn's loggers at
    ``level`` in format ``text`` or ``json`` (uvicorn takes it as ``log_config``)."""
    formatter: dict[str, object] = (
        {"()": JsonFormatter}
        if fmt == "json"
        else {"format": TEXT_FORMAT, "datefmt": "%Y-%m-%dT%H:%M:%S%z"}
    )
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "main",
        "filters": ["match"],
        "stream": "ext://sys.stderr",
    }
    loggers = {
        name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
        for name in ("meldhall", "uvicorn", "uvicorn.error", "uvicorn.access")
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"match": {"()": MatchField}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": loggers,
    }


def configure_logging(level: str, fmt: str) -> None:
    """Set up the process's logging as ``log_config`` describes."""
    import logging.config

    logging.config.dictConfig(log_config(level, fmt))
    logging.captureWarnings(True)
