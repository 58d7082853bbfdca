"""Normalisation used wherever two strings are compared (answers, triples, constraint values, linking).

Rules, applied in this order (documented in docs/scoring.md too):
1. Unicode NFKC: full-width letters, digits and punctuation become half-width (`Ｆ－３５` -> `F-35`,
   `３０％` -> `30%`).
2. Lower case (`F-35A` == `f-35a`).
3. All whitespace is removed, including inner spaces (`1944 年 6 月 6 日` == `1944年6月6日`) and ideographic
   spaces.
4. Punctuation is removed (Unicode categories P*): commas, full stops, quotes `“”‘’"'`, book-title marks `《》〈〉`,
   brackets, dashes, middle dots, colons. One exception keeps numbers intact: a `.` between two digits is kept
   (`1.5` stays `1.5`, not `15`).
Symbols (categories S*: `℃`, `+`, `$`) are kept because they change meaning.
5. Three exceptions to rule 4 and to the symbol rule (added for Chinese answers):
   - the percent signs `%` and `‰` are kept although Unicode files them as punctuation (`30%` != `30`);
   - the backtick `` ` `` (a modifier symbol, `｀` after NFKC) is removed like the quotes it stands in for;
   - the tilde `~` (`～` after NFKC, the usual Chinese range mark) is removed like the dashes `-`, `—` and the wave
     dash `〜`, so `1939年～1945年`, `1939年〜1945年` and `1939年-1945年` compare equal.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

# Rule 5: punctuation that carries meaning, and symbols that are only quote or range marks.
_KEPT_PUNCTUATION = frozenset("%‰")
_DROPPED_SYMBOLS = frozenset("`~")


class _CharMap(dict[int, str | None]):
    """`str.translate` table of rules 3-5 for every character but `.`, filled in on first sight of a character."""

    def __missing__(self, code: int) -> str | None:
        ch = chr(code)
        keep: str | None = ch
        if ch in _KEPT_PUNCTUATION:
            keep = ch
        elif ch.isspace() or ch in _DROPPED_SYMBOLS or unicodedata.category(ch)[0] in "PC":
            keep = None
        self[code] = keep
        return keep


_CHAR_MAP = _CharMap()


@lru_cache(maxsize=1 << 18)  # a 10,000-question scoring run sees ~100k distinct strings
def normalize_text(text: str) -> str:
    """Canonical form of a string for equality tests (see the module docstring for the rules)."""
    s = unicodedata.normalize("NFKC", text).lower()
    # Fast paths, same result as the loop below: letters and digits only (most names), or no `.` to look around.
    if s.isalnum():
        return s
    if "." not in s:
        return s.translate(_CHAR_MAP)
    return _normalize_slow(s)


def _normalize_slow(s: str) -> str:
    """Rules 3-5 character by character on an NFKC, lower-cased string (needed for the `.` between digits)."""
    out: list[str] = []
    n = len(s)
    for i, ch in enumerate(s):
        if ch.isspace():
            continue
        if ch in _KEPT_PUNCTUATION:
            out.append(ch)
            continue
        if ch in _DROPPED_SYMBOLS:
            continue
        cat = unicodedata.category(ch)
        if cat.startswith("P"):
            if ch == "." and 0 < i < n - 1 and s[i - 1].isdigit() and s[i + 1].isdigit():
                out.append(ch)
            continue
        if cat.startswith("C"):  # control / format characters such as zero-width spaces
            continue
        out.append(ch)
    return "".join(out)


def normalize_triple(triple: tuple[str, str, str]) -> tuple[str, str, str]:
    return (normalize_text(triple[0]), normalize_text(triple[1]), normalize_text(triple[2]))


def is_han(text: str) -> bool:
    """Every character of `text` is a Chinese character of the basic CJK block (`战斧`; not `F-`, not "")."""
    return bool(text) and all("\u4e00" <= ch <= "\u9fff" for ch in text)
