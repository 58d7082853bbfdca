"""Normalisation rules used by every comparison (answers, triples, constraints, linking)."""

from __future__ import annotations

import pytest

from kgreason.text.normalize import is_han, normalize_text, normalize_triple


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1944 年 6 月 6 日", "1944年6月6日"),  # inner spaces
        ("Ｆ－３５Ａ", "F-35A"),  # full width
        ("f-35a", "F35A"),  # case and dash
        ("《论持久战》", "论持久战"),  # book-title marks
        ("“同盟国”", "同盟国"),  # quotes
        ("辽宁舰。", "辽宁舰"),  # trailing full stop
        ("３０％", "30%"),
        ("歼\u200b-20", "歼20"),  # zero-width space
    ],
)
def test_equal_after_normalisation(a: str, b: str) -> None:
    assert normalize_text(a) == normalize_text(b)


@pytest.mark.parametrize(("a", "b"), [("1.5吨", "15吨"), ("30℃", "30"), ("+5", "5"), ("歼-20", "歼-10")])
def test_meaningful_differences_survive(a: str, b: str) -> None:
    assert normalize_text(a) != normalize_text(b)


def test_triple() -> None:
    assert normalize_triple(("诺曼底登陆", "发生时间", "1944 年 6 月 6 日")) == (
        "诺曼底登陆",
        "发生时间",
        "1944年6月6日",
    )


def test_surname_is_the_last_part_of_a_transliterated_name() -> None:
    from kgreason.text.names import surname

    assert surname("弗兰克·杰克·弗莱彻") == "弗莱彻"
    assert surname("约瑟夫・罗彻福特") == "罗彻福特"  # the other dot
    assert surname("杨伟") == ""


def test_is_han_is_true_only_for_chinese_characters() -> None:
    assert is_han("战斧") and is_han("歼")
    assert not is_han("F-") and not is_han("战F") and not is_han("")
