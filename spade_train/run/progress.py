"""Progress bars that suit both a terminal and a log file.

In a terminal the bar redraws in place. Written to a file or a pipe (CI, ``nohup``), a redraw is a
new line, so there the bar only reports every ``LOG_INTERVAL_S`` seconds and at the end.
"""

from __future__ import annotations

from typing import Any, TextIO

LOG_INTERVAL_S = 15.0


def progress_bar(out: TextIO, **options: Any) -> Any:
    """A ``tqdm`` bar on ``out`` (options as for tqdm: iterable, total, desc, unit, initial...)."""
    from tqdm import tqdm

    interactive = bool(getattr(out, "isatty", lambda: False)())
    return tqdm(file=out, mininterval=0.1 if interactive else LOG_INTERVAL_S, dynamic_ncols=interactive, **options)


def quiet_transformers() -> None:
    """Silence transformers' own bars (one per ``save_pretrained``), which would interleave with ours."""
    try:
        from transformers.utils import logging
    except ImportError:
        return
    logging.disable_progress_bar()
