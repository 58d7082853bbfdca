"""Sentence splitting: exact offsets, Chinese and English enders, abbreviations, decimals, quotes."""

from __future__ import annotations

import pytest

from kgreason.extract.sentences import split_sentences


def texts(text: str) -> list[str]:
    return [s.text for s in split_sentences("d", text)]


def test_offsets_index_the_document_text() -> None:
    text = "  标题\nF-35是美国研制的战斗机。它于2006年首飞！\n\n  The F-35 flew in 2006. It is fast.  "
    sentences = split_sentences("doc", text)
    assert [s.index for s in sentences] == list(range(len(sentences)))
    for s in sentences:
        assert text[s.start : s.end] == s.text
        assert s.doc_id == "doc"
    assert texts(text) == [
        "标题",
        "F-35是美国研制的战斗机。",
        "它于2006年首飞！",
        "The F-35 flew in 2006.",
        "It is fast.",
    ]


def test_chinese_enders_quotes_and_decimals() -> None:
    assert texts("他说：“走吧。”然后离开了！真的？？是的。速度约1.6马赫。") == [
        "他说：“走吧。”",
        "然后离开了！",
        "真的？？",
        "是的。",
        "速度约1.6马赫。",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dr. Smith went to the U.S. on Jan. 5. He left.", ["Dr. Smith went to the U.S. on Jan. 5.", "He left."]),
        ("It flew at 1.6 Mach. Then it landed.", ["It flew at 1.6 Mach.", "Then it landed."]),
        ('"Really?" she asked. Yes.', ['"Really?" she asked.', "Yes."]),
        ("Built by Lockheed Martin Corp. in Texas. It flew.", ["Built by Lockheed Martin Corp. in Texas.", "It flew."]),
        ("J. Smith wrote it. See example.com for more.", ["J. Smith wrote it.", "See example.com for more."]),
        ("It was approx. three hours. Done", ["It was approx. three hours.", "Done"]),
    ],
)
def test_english_edge_cases(text: str, expected: list[str]) -> None:
    assert texts(text) == expected


def test_empty_and_blank_text_give_no_sentences() -> None:
    assert split_sentences("d", "") == []
    assert split_sentences("d", " \n\n ") == []
