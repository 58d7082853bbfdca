"""Character overlap helpers of `kgreason.text.overlap`."""

from __future__ import annotations

from kgreason.text.overlap import longest_common_substring, occurrences


def test_occurrences_lists_every_start_overlapping_ones_too() -> None:
    assert occurrences("海滩和海滩海滩", "海滩") == [0, 3, 5]
    assert occurrences("啊啊啊", "啊啊") == [0, 1]
    assert occurrences("犹他海滩", "奥马哈") == []


def test_longest_common_substring_gives_length_and_end_in_the_second() -> None:
    assert longest_common_substring("出动架次", "使用出动超过") == (2, 4)
    assert longest_common_substring("甲", "乙") == (0, 0)
