"""Character overlap helpers of `kgreason.text.overlap`."""

from __future__ import annotations

from kgreason.text.overlap import abbreviation_in, common_prefix_length, longest_common_substring, occurrences


def test_occurrences_lists_every_start_overlapping_ones_too() -> None:
    assert occurrences("海滩和海滩海滩", "海滩") == [0, 3, 5]
    assert occurrences("啊啊啊", "啊啊") == [0, 1]
    assert occurrences("犹他海滩", "奥马哈") == []


def test_longest_common_substring_gives_length_and_end_in_the_second() -> None:
    assert longest_common_substring("出动架次", "使用出动超过") == (2, 4)
    assert longest_common_substring("甲", "乙") == (0, 0)


def test_abbreviation_in_keeps_the_first_character_and_the_order() -> None:
    assert abbreviation_in("原隶属于", "它原属哪支部队") == (2, 3)  # `原属`
    assert abbreviation_in("首次试飞", "首飞时留空多久") == (2, 2)
    assert abbreviation_in("机队停飞", "机上装的雷达") == (1, 1)  # only the first character
    assert abbreviation_in("隶属于", "原属") == (0, 0)  # no first character


def test_common_prefix_length_counts_the_shared_first_characters() -> None:
    assert common_prefix_length("日军伤亡", "日本军队") == 1
    assert common_prefix_length("英联邦军队伤亡", "英联邦军队") == 5
    assert common_prefix_length("中方伤亡", "日本军队") == 0
    assert common_prefix_length("", "日本") == 0
