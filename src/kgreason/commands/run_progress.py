"""What `kgreason run` shows while it answers: the question in flight, done/total, elapsed, ETA, LLM seconds.

With several workers several questions are in flight: the line shows the oldest of them (the one the ordered
output waits for) and how many more are running.

On a terminal: a live bar (rich). Without one (CI logs, nohup, a file): plain lines, the first at once and then one
at most every `every` seconds, plus the last — so a log never stays silent for long and never floods.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Any

from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kgreason.data.records import Question
from kgreason.text.terminal import safe_text

QUESTION_CELLS = 40  # terminal cells of the question text shown beside its id in plain lines (a Chinese
# character takes two)
BAR_CELLS = 12
LIVE_FIXED_CELLS = 50  # the live line without the question: label, bar, done/total, elapsed, ETA, the id


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


def _short(text: str, cells: int) -> str:
    """`text` cut to at most `cells` terminal cells, with an ellipsis when cut."""
    text = " ".join(safe_text(text, newlines=False).split())  # data may hold terminal escapes
    if cell_len(text) <= cells:
        return text
    out, used = [], 1
    for ch in text:
        used += cell_len(ch)
        if used > cells:
            break
        out.append(ch)
    return "".join(out) + "…"


class RunProgress:
    """Receives the runner's callbacks (`start`, `begin`, `done`); safe to call from the worker thread."""

    def __init__(self, console: Console, *, live: bool, every: float = 10.0) -> None:
        self._console = console
        self._live = live
        self._every = every
        self._lock = threading.Lock()
        self._progress = Progress(
            TextColumn("[bold]answering"),
            BarColumn(bar_width=BAR_CELLS),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[eta]}"),
            TextColumn("{task.fields[now]}"),
            console=console,
            disable=not live,
            transient=False,
        )
        self._task = self._progress.add_task("run", total=None, eta="", now="")
        self.total = 0
        self.done = 0  # answered, resumed ones included
        self.resumed = 0
        self.llm_seconds = 0.0
        self._started = time.monotonic()
        self._last_line = 0.0
        self._flying: dict[str, Question] = {}  # in flight by query_id, oldest first

    def __enter__(self) -> RunProgress:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """End the live display (it restores the cursor); safe to call twice."""
        self._progress.stop()

    def start(self, total: int, resumed: int) -> None:
        with self._lock:
            self.total, self.done, self.resumed = total, resumed, resumed
            self._started = time.monotonic()
        self._progress.update(self._task, total=total, completed=resumed)
        if resumed:
            self._say(f"resuming: {resumed} of {total} questions already answered")
        if not self._live:
            self._say(f"answering {total - resumed} question(s)")

    def begin(self, q: Question) -> None:
        with self._lock:
            self._flying[q.query_id] = q
        self._show_current()
        self._maybe_line()

    def finished(self, q: Question, entry: dict[str, Any]) -> None:
        with self._lock:
            self.done += 1
            self._flying.pop(q.query_id, None)
            for part in ("reading", "llm"):  # the LLM reads the question, then may choose among candidates
                llm = entry.get(part)
                if isinstance(llm, dict) and llm.get("asked"):
                    self.llm_seconds += float(llm.get("seconds", 0.0))
        self._progress.update(self._task, completed=self.done, eta=self._eta())
        self._show_current()
        if self.done == self.total:
            self._maybe_line(force=True)

    def _oldest(self) -> tuple[Question | None, int]:
        """The oldest question in flight and how many others are."""
        with self._lock:
            oldest = next(iter(self._flying.values()), None)
            return oldest, max(0, len(self._flying) - 1)

    def _show_current(self) -> None:
        oldest, more = self._oldest()
        if oldest is None:
            return
        qid = safe_text(oldest.query_id, newlines=False)
        extra = f" +{more}" if more else ""
        # On a terminal the whole line must fit its width, or rich squeezes the counts into "0…".
        room = max(0, self._console.width - LIVE_FIXED_CELLS - cell_len(qid) - len(extra))
        shown = f"{qid} {_short(oldest.question, room)}" if room >= 6 else qid
        self._progress.update(self._task, now=shown + extra, eta=self._eta())

    def _eta(self) -> str:
        answered_now = self.done - self.resumed
        if answered_now <= 0:
            return ""
        elapsed = time.monotonic() - self._started
        remaining = (self.total - self.done) * elapsed / answered_now
        return f"ETA {_clock(remaining)}"

    def status_line(self) -> str:
        """`answered 12/47, 30 s, ETA 1:30, LLM 12.3 s; now doc_01_013 歼-20的…`."""
        with self._lock:
            parts = [f"answered {self.done}/{self.total}", _clock(time.monotonic() - self._started)]
            if eta := self._eta():
                parts.append(eta)
            if self.llm_seconds:
                parts.append(f"LLM {self.llm_seconds:.1f} s")
            line = ", ".join(parts)
            oldest = next(iter(self._flying.values()), None)
            if oldest is not None and self.done < self.total:
                more = len(self._flying) - 1
                line += f"; now {safe_text(oldest.query_id, newlines=False)} {_short(oldest.question, QUESTION_CELLS)}"
                line += f" (+{more} more in flight)" if more else ""
            return line

    def _maybe_line(self, *, force: bool = False) -> None:
        if self._live:
            return
        now = time.monotonic()
        with self._lock:
            due = force or now - self._last_line >= self._every
            if due:
                self._last_line = now
        if due:
            self._say(self.status_line())

    def _say(self, text: str) -> None:
        self._console.print(text, markup=False)
