"""Numerals in KG literals and questions: Chinese numerals (`一九四四`, `三千五百`) and the text preparation that
dates and quantities share (full-width to half-width, no whitespace, one dash)."""

from __future__ import annotations

import unicodedata

_CN_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_NUM_CHARS = "".join(_CN_DIGITS) + "".join(_CN_UNITS) + "".join(_CN_BIG)


def prepare_value_text(text: str) -> str:
    """NFKC (full-width digits and letters to half-width), no whitespace, unified dashes; case kept for units."""
    s = unicodedata.normalize("NFKC", text)
    s = "".join(ch for ch in s if not ch.isspace() and unicodedata.category(ch) != "Cf")
    for dash in ("—", "–", "－", "―", "〜", "～", "~"):
        s = s.replace(dash, "-")
    return s


def cn_to_int(text: str) -> int | None:
    """`一九四四` -> 1944 (digit by digit), `二十五` -> 25, `三千五百` -> 3500, `两万` -> 20000; else None."""
    if not text or any(ch not in _CN_NUM_CHARS for ch in text):
        return None
    if all(ch in _CN_DIGITS for ch in text):
        return int("".join(str(_CN_DIGITS[ch]) for ch in text))
    total = 0
    section = 0
    digit = 0
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (digit if digit else 1) * _CN_UNITS[ch]
            digit = 0
        else:  # 万 / 亿
            section += digit
            total += (section if section else 1) * _CN_BIG[ch]
            section = 0
            digit = 0
    return total + section + digit
