"""Typed records of a text multi-hop QA item (HotpotQA, 2WikiMultihopQA, MuSiQue), read by `textqa.loaders`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DatasetName = Literal["hotpotqa", "2wiki", "musique"]
DATASETS: tuple[DatasetName, ...] = ("hotpotqa", "2wiki", "musique")


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One paragraph of an item's context. `index` is its position (MuSiQue: its `idx`), the unified format's chunk
    id; `sentences` are the set's own (HotpotQA, 2Wiki) or split by `textqa.sentences` (MuSiQue)."""

    index: int
    title: str
    sentences: tuple[str, ...]

    @property
    def text(self) -> str:
        return join_sentences(self.sentences)


def join_sentences(sentences: tuple[str, ...] | list[str]) -> str:
    """A paragraph's text from its sentences: HotpotQA's keep their leading space, 2Wiki's need one."""
    out = ""
    for s in sentences:
        out += s if not out or s[:1].isspace() else " " + s
    return out


@dataclass(frozen=True, slots=True)
class SubQuestion:
    """A step of MuSiQue's `question_decomposition`: its question, answer and the supporting paragraph's idx."""

    question: str
    answer: str
    paragraph: int | None


@dataclass(frozen=True, slots=True)
class TextQAItem:
    dataset: DatasetName
    id: str
    question: str
    answer: str | None  # None in a test file
    aliases: tuple[str, ...]
    type: str  # bridge / comparison (HotpotQA); compositional / inference / ... (2Wiki); MuSiQue: "Nhop"
    hop: int
    paragraphs: tuple[Paragraph, ...]
    supporting_facts: tuple[tuple[str, int], ...]  # (title, sentence index): HotpotQA, 2Wiki
    supporting_paragraphs: tuple[int, ...]  # paragraph idx with is_supporting: MuSiQue
    evidences: tuple[tuple[str, str, str], ...]  # 2Wiki
    decomposition: tuple[SubQuestion, ...]  # MuSiQue
    answerable: bool | None  # MuSiQue

    @property
    def gold_answers(self) -> tuple[str, ...]:
        return ((self.answer,) if self.answer is not None else ()) + self.aliases


@dataclass(frozen=True, slots=True)
class TextQASet:
    """The items of one file, the set they belong to, and what was read leniently (one line per kind)."""

    dataset: DatasetName
    items: tuple[TextQAItem, ...]
    warnings: tuple[str, ...]
