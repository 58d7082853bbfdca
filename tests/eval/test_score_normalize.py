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


def test_fast_paths_agree_with_the_character_loop() -> None:
    """`normalize_text` skips the per-character loop when it can (letters and digits only; no `.`): same result."""
    import random
    import unicodedata

    from kgreason.text.normalize import _normalize_slow

    rng = random.Random(7)
    pool = [
        chr(c) for c in (*range(0x20, 0x250), *range(0x2000, 0x2070), *range(0x3000, 0x3040), *range(0xFF00, 0xFF70))
    ]
    pool += list("歼轰运直航母舰导弹 .1234567890.。，、《》“”％～`~")
    for _ in range(20_000):
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 10)))
        assert normalize_text(text) == _normalize_slow(unicodedata.normalize("NFKC", text).lower()), repr(text)
