"""The progress bar the long commands show on stderr (simulate, tournament, review)."""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn


def progress_bar(quiet: bool, console: Console | None = None) -> Progress:
    """Return a progress bar (description, bar, done of total, time left) on stderr; it
    draws nothing when ``quiet``."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        disable=quiet,
    )
