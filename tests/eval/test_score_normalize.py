"""The normalisation rules added for the scorer (rule 5 of `kgreason.text.normalize`)."""

from __future__ import annotations

import pytest

from kgreason.text.normalize import normalize_text


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("1939年～1945年", "1939年-1945年"),  # full-width tilde as a range mark, like a dash
        ("1939年〜1945年", "1939年~1945年"),  # wave dash and ASCII tilde
        ("｀歼-20｀", "歼20"),  # full-width backtick used as a quote
        ("`辽宁舰`", "“辽宁舰”"),
        ("３０％", "30%"),
    ],
)
def test_marks_that_do_not_change_meaning(a: str, b: str) -> None:
    assert normalize_text(a) == normalize_text(b)


@pytest.mark.parametrize(("a", "b"), [("提高30%", "提高30"), ("5‰", "5"), ("３０％", "30")])
def test_percent_signs_are_kept(a: str, b: str) -> None:
    assert normalize_text(a) != normalize_text(b)
