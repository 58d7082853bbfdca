"""The progress lines `kgreason extract` prints on stderr: one per window, with counts, elapsed time and ETA."""

from __future__ import annotations

import time

from rich.console import Console

from kgreason.commands.run_progress import _clock
from kgreason.extract.prompt import Window
from kgreason.text.terminal import safe_text


class ExtractProgress:
    def __init__(self, console: Console, total_windows: int) -> None:
        self._console = console
        self.total = total_windows
        self.done = 0
        self.triples = 0
        self._started = time.monotonic()

    def document(self, doc_id: str, sentences: int, windows: int) -> None:
        self._say(f"{doc_id}: {sentences} sentences in {windows} windows")

    def window(self, window: Window, triples: int) -> None:
        self.done += 1
        self.triples += triples
        elapsed = time.monotonic() - self._started
        eta = (self.total - self.done) * elapsed / self.done
        first, last = window.indices[0], window.indices[-1]
        self._say(
            f"  {window.doc_id} sentences {first}–{last}: {triples} triples · window {self.done}/{self.total} · "
            f"{_clock(elapsed)} elapsed · ETA {_clock(eta)}"
        )

    def _say(self, text: str) -> None:
        self._console.print(safe_text(text, newlines=False), markup=False)
