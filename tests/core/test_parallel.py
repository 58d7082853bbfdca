"""`kgreason.parallel.ordered_map`: results in input order whatever order they finish in, really concurrent,
stoppable without losing what finished, errors at their item's turn."""

from __future__ import annotations

import threading
import time

import pytest

from kgreason.errors import KgreasonError
from kgreason.parallel import check_workers, ordered_map


def test_results_come_in_input_order_though_they_finish_in_reverse() -> None:
    finished: list[int] = []
    lock = threading.Lock()

    def slow_first(x: int) -> int:
        time.sleep(0.02 * (10 - x))  # item 0 takes longest
        with lock:
            finished.append(x)
        return x * x

    out = list(ordered_map(slow_first, list(range(10)), workers=10))
    assert out == [(x, x * x) for x in range(10)]
    assert finished != sorted(finished)  # they really finished out of order


def test_workers_run_at_once() -> None:
    start = time.monotonic()
    out = [r for _, r in ordered_map(lambda x: time.sleep(0.2) or x, list(range(8)), workers=8)]
    assert out == list(range(8))
    assert time.monotonic() - start < 1.0  # 8 x 0.2 s serially would be 1.6 s


def test_one_worker_runs_on_the_callers_thread_in_order() -> None:
    threads: list[str] = []
    out = list(ordered_map(lambda x: threads.append(threading.current_thread().name) or x, [1, 2, 3], workers=1))
    assert out == [(1, 1), (2, 2), (3, 3)]
    assert set(threads) == {threading.current_thread().name}


def test_at_most_window_items_run_ahead_of_the_oldest_unfinished() -> None:
    started: list[int] = []
    release = threading.Event()

    def fn(x: int) -> int:
        started.append(x)
        if x == 0:
            release.wait(5)
        return x

    results = ordered_map(fn, list(range(50)), workers=4, window=6)
    consumer = threading.Thread(target=lambda: list(results))
    consumer.start()
    time.sleep(0.3)
    assert len(started) <= 6  # item 0 holds the window: nothing beyond 0..5 started
    release.set()
    consumer.join(5)
    assert sorted(started) == list(range(50))


def test_stop_yields_what_finished_skips_what_runs_and_starts_nothing_new() -> None:
    stop = threading.Event()
    started: list[int] = []
    hold = threading.Event()

    def fn(x: int) -> int:
        started.append(x)
        if x == 1:
            hold.wait(5)  # item 1 is still running when we stop
        return x

    got: list[int] = []
    results = ordered_map(fn, list(range(20)), workers=4, stop=stop, window=4)
    for item, _ in results:
        got.append(item)
        if item == 0:
            time.sleep(0.3)  # items 2 and 3 finish meanwhile; 1 does not
            stop.set()
    hold.set()
    # 0 in order, then the ones that finished after the gap; 1 (still running) is left to be redone
    assert 1 not in got and got == [0, *sorted(x for x in started if x > 1)]
    assert max(started) <= 4  # nothing started once stopped (the window of 4 behind item 1 allowed up to 4)


def test_an_error_is_raised_at_its_items_turn() -> None:
    def fn(x: int) -> int:
        if x == 2:
            raise ValueError("boom")
        return x

    got: list[int] = []
    with pytest.raises(ValueError, match="boom"):
        for _, r in ordered_map(fn, list(range(6)), workers=3):
            got.append(r)
    assert got == [0, 1]


def test_on_start_is_called_on_the_worker_before_each_item() -> None:
    seen: list[int] = []
    out = list(ordered_map(lambda x: x, [5, 6, 7], workers=2, on_start=seen.append))
    assert [r for _, r in out] == [5, 6, 7] and sorted(seen) == [5, 6, 7]


def test_bad_worker_counts_are_refused() -> None:
    with pytest.raises(KgreasonError, match="--workers must be 1 or more, got 0"):
        check_workers(0)
    with pytest.raises(KgreasonError):
        list(ordered_map(lambda x: x, [1], workers=-2))
