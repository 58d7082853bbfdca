"""Character overlap of short Chinese strings (names, relation names, question words): no segmenter needed."""

from __future__ import annotations


def occurrences(text: str, word: str) -> list[int]:
    """Every position where `word` starts in `text` (overlapping ones too): a plain scan, no regex to compile."""
    out: list[int] = []
    at = text.find(word)
    while at >= 0:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def common_prefix_length(a: str, b: str) -> int:
    """How many first characters `a` and `b` share (`日军伤亡`, `日本军队` -> 1)."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def longest_common_substring(a: str, b: str) -> tuple[int, int]:
    """(length, end position in b) of the longest common substring of a and b (the first such in b).

    Names and relation words are short: trying a's substrings from the longest down with `str.find` (C speed) is
    faster here than the dynamic program."""
    for n in range(min(len(a), len(b)), 0, -1):
        best = -1
        for i in range(len(a) - n + 1):
            j = b.find(a[i : i + n])
            if j >= 0 and (best < 0 or j < best):
                best = j
        if best >= 0:
            return n, best + n
    return 0, 0


def share_spelled(name: str, words: str, min_chars: int = 2) -> float:
    """The share of `name` that its longest common substring with `words` covers (0 below `min_chars`)."""
    if not name:
        return 0.0
    n, _ = longest_common_substring(name, words)
    return n / len(name) if n >= min(min_chars, len(name)) else 0.0


def abbreviation_in(word: str, text: str) -> tuple[int, int]:
    """(length, end in `text`) of the longest run of `text` that abbreviates `word`: it starts with the word's first
    character and its other characters follow in the word's order (`原属` in `原隶属于`); (0, 0) when none."""
    best = (0, 0)
    start = text.find(word[0])
    while start >= 0:
        j, k = 1, 1
        while start + k < len(text) and j < len(word):
            found = word.find(text[start + k], j)
            if found < 0:
                break
            j, k = found + 1, k + 1
        if k > best[0]:
            best = (k, start + k)
        start = text.find(word[0], start + 1)
    return best
