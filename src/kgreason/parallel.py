"""An ordered map on worker threads: the one home of `--workers` (`kgreason run`, `evalset run`, and whatever
else answers many independent items against a served model).

    for item, result in ordered_map(answer, questions, workers=8, stop=stop):
        write(result)                       # in the items' order, whatever order they finished in

Threads help where an item waits for something outside the process (an HTTP model server doing continuous
batching): while one item waits, another runs the program's own CPU work. They do not make CPU work itself faster
(one interpreter lock), so callers use one worker when nothing is waited for.

- Results come in input order: a result that finishes early is buffered until its predecessors are done. At most
  `window` items (default 4 x workers) are started beyond the oldest unfinished one, so the buffer stays bounded.
- `stop` (a `threading.Event`, e.g. set on Ctrl-C): no item starts after it is set; the results already finished
  are still yielded, in order, skipping the items still running (so a journal written from them loses nothing
  that was done), and the iteration ends without waiting for those: they run on daemon threads, their results are
  dropped.
- An exception raised by `fn` is raised to the consumer at that item's turn; nothing new starts after it.
- `workers=1` runs everything on the caller's thread, one item at a time (no thread at all).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar, cast

from kgreason.errors import KgreasonError

T = TypeVar("T")
R = TypeVar("R")

POLL_SECONDS = 0.05  # how often a waiting consumer looks at `stop` (an Event cannot wake a Condition)


def check_workers(workers: int, option: str = "--workers") -> int:
    """`workers` itself when it is 1 or more; else a `KgreasonError` naming the option."""
    if workers < 1:
        raise KgreasonError(f"{option} must be 1 or more, got {workers}")
    return workers


@dataclass(slots=True)
class _Outcome(Generic[R]):
    value: R | None = None
    error: BaseException | None = None


class _State(Generic[T, R]):
    """What the workers and the consumer share, under one condition variable."""

    def __init__(self, items: Sequence[T], window: int, stop: threading.Event | None) -> None:
        self.items = items
        self.window = window
        self.stop = stop
        self.cond = threading.Condition()
        self.next_start = 0  # the next item to hand to a worker
        self.next_yield = 0  # the next item the consumer waits for
        self.done: dict[int, _Outcome[R]] = {}
        self.closed = False  # the consumer is gone (finished, stopped, raised): take nothing new

    def stopping(self) -> bool:
        return self.closed or (self.stop is not None and self.stop.is_set())

    def take(self) -> int | None:
        """The next item index for a worker, waiting while the window is full; None when there is nothing more."""
        with self.cond:
            while True:
                if self.stopping() or self.next_start >= len(self.items):
                    return None
                if self.next_start - self.next_yield < self.window:
                    index = self.next_start
                    self.next_start += 1
                    return index
                self.cond.wait(POLL_SECONDS)

    def put(self, index: int, outcome: _Outcome[R]) -> None:
        with self.cond:
            self.done[index] = outcome
            self.cond.notify_all()


def ordered_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int,
    stop: threading.Event | None = None,
    on_start: Callable[[T], None] | None = None,
    window: int | None = None,
) -> Iterator[tuple[T, R]]:
    """`(item, fn(item))` for every item, in the items' order, computed on `workers` threads (see the module's
    note for `stop`, errors and the window). `on_start(item)` is called on the worker just before `fn(item)`."""
    check_workers(workers, "workers")
    if workers == 1 or len(items) <= 1:
        yield from _serial(fn, items, stop, on_start)
        return
    state: _State[T, R] = _State(items, max(workers, window or 4 * workers), stop)

    def work() -> None:
        while (index := state.take()) is not None:
            item = state.items[index]
            outcome: _Outcome[R] = _Outcome()
            try:
                if on_start is not None:
                    on_start(item)
                outcome.value = fn(item)
            except BaseException as exc:  # handed to the consumer, raised at this item's turn
                outcome.error = exc
            state.put(index, outcome)

    for n in range(min(workers, len(items))):
        threading.Thread(target=work, name=f"kgreason-worker-{n}", daemon=True).start()
    try:
        yield from _in_order(state)
    finally:
        with state.cond:
            state.closed = True
            state.cond.notify_all()


def _serial(
    fn: Callable[[T], R], items: Sequence[T], stop: threading.Event | None, on_start: Callable[[T], None] | None
) -> Iterator[tuple[T, R]]:
    for item in items:
        if stop is not None and stop.is_set():
            return
        if on_start is not None:
            on_start(item)
        yield item, fn(item)


def _in_order(state: _State[T, R]) -> Iterator[tuple[T, R]]:
    n = len(state.items)
    while state.next_yield < n:
        with state.cond:
            while state.next_yield not in state.done and not state.stopping():
                state.cond.wait(POLL_SECONDS)
            outcome = state.done.pop(state.next_yield, None)
            if outcome is None:  # stopped while this item is unfinished: hand over what is finished, then end
                state.closed = True
                rest = sorted(state.done)
                finished = [(i, state.done.pop(i)) for i in rest]
                state.cond.notify_all()
            else:
                index = state.next_yield
                state.next_yield += 1
                state.cond.notify_all()  # the window moved on
        if outcome is None:
            for i, later in finished:
                if later.error is not None:
                    raise later.error
                yield state.items[i], cast(R, later.value)
            return
        if outcome.error is not None:
            raise outcome.error
        yield state.items[index], cast(R, outcome.value)
