"""Comparisons answered by parts (`textqa.comparison`, `textqa.values`, `textqa.by_parts`): detection from the
question's text on many shapes (and questions that are not comparisons), English dates and numbers, the comparison
made in code, what each lookup is shown, and the fallback to the single-call reader in a run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textqa_samples import write_json

from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.by_parts import Lookup, compare_by_parts, decide, lookup_context, same_value
from kgreason.textqa.comparison import Comparison, detect_comparison
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.records import Paragraph
from kgreason.textqa.run import JOURNAL, TextQASettings, run_textqa
from kgreason.textqa.values import english_date, english_number


def paragraphs(*titles: str) -> tuple[Paragraph, ...]:
    return tuple(Paragraph(i, t, (f"{t} is a thing.",)) for i, t in enumerate(titles))


@pytest.mark.parametrize(
    ("question", "titles", "kind", "names", "yes_no"),
    [
        (
            "Which magazine was published first, Guitar World or Science News?",
            ("Guitar World", "Science News"),
            "earlier",
            ("Guitar World", "Science News"),
            False,
        ),
        (
            "Who was born earlier, Sid Haig or Vic Darchinyan?",
            ("Vic Darchinyan", "Sid Haig"),
            "earlier",
            ("Sid Haig", "Vic Darchinyan"),
            False,
        ),
        (
            "Who is younger, Ann Lee or Bo Chan?",
            ("Ann Lee (singer)", "Bo Chan"),
            "later",
            ("Ann Lee", "Bo Chan"),
            False,
        ),
        (
            "Which film was released more recently, Film A or Film B?",
            ("Film A", "Film B"),
            "later",
            ("Film A", "Film B"),
            False,
        ),
        (
            "Which band has more members, Alpha Band or Beta Band?",
            ("Alpha Band", "Beta Band"),
            "more",
            ("Alpha Band", "Beta Band"),
            False,
        ),
        ("Which river is shorter, the Vltava or the Elbe?", ("Vltava", "Elbe"), "less", ("Vltava", "Elbe"), False),
        # names from a closing "A or B" when no paragraph is titled with them
        (
            "Which was founded first, Acme Corp or Zeta Inc?",
            ("Unrelated",),
            "earlier",
            ("Acme Corp", "Zeta Inc"),
            False,
        ),
        # two names, then a which-sentence
        (
            "Pizza Hut and Little Caesars opened in the 1950s. Which was the first to serve pizza?",
            ("Little Caesars", "Pizza Hut"),
            "earlier",
            ("Pizza Hut", "Little Caesars"),
            False,
        ),
        ("Are Medici and Senet both board games?", ("Medici (board game)", "Senet"), "both", ("Medici", "Senet"), True),
        ("Are both Medici and Senet board games?", ("Medici (board game)", "Senet"), "both", ("Medici", "Senet"), True),
        (
            "Are Nantong and Jingdezhen situated in the same province?",
            ("Nantong", "Jingdezhen"),
            "same",
            ("Nantong", "Jingdezhen"),
            True,
        ),
        (
            "Were Scott Derrickson and Ed Wood of the same nationality?",
            ("Ed Wood", "Scott Derrickson"),
            "same",
            ("Scott Derrickson", "Ed Wood"),
            True,
        ),
        ("Is Film A older than Film B?", ("Film A", "Film B"), "earlier", ("Film A", "Film B"), True),
    ],
)
def test_detects_comparisons(
    question: str, titles: tuple[str, ...], kind: str, names: tuple[str, str], yes_no: bool
) -> None:
    found = detect_comparison(question, paragraphs(*titles))
    assert found is not None
    assert (found.kind, found.names, found.yes_no) == (kind, names, yes_no)


@pytest.mark.parametrize(
    ("question", "titles"),
    [
        ("Which city is the birthplace of the director of Film X?", ("Film X", "Anne Dupont")),  # bridge
        (
            "What author was more popular in the 70's, Richard Wright or Richard Bach?",
            ("Richard Wright", "Richard Bach"),
        ),  # no number to compare
        ("What do E. B. White and Dan Masterson have in common?", ("E. B. White", "Dan Masterson")),
        ("Both Never Cry Wolf and Big Hero 6 were released by what label?", ("Never Cry Wolf", "Big Hero 6")),
        ("Who was the first president of the university where Ann Lee studied?", ("Ann Lee", "Oxford")),
        ("Is Film A a drama?", ("Film A", "Film B")),  # yes/no about one entity
        ("Which film came first?", ("Film A", "Film B")),  # names neither
        # the compared attribute is a related entity's (two hops): not one lookup per named entity
        ("Which film has the director born earlier, Film A or Film B?", ("Film A", "Film B")),
        ("Which film whose director is younger, Film A or Film B?", ("Film A", "Film B")),
    ],
)
def test_leaves_other_questions_alone(question: str, titles: tuple[str, ...]) -> None:
    assert detect_comparison(question, paragraphs(*titles)) is None


def test_a_choice_is_answered_as_the_question_spells_the_name() -> None:
    found = detect_comparison(
        "Which song was released more recently, Come With Me (Pure Imagination) or Hold On Me?",
        paragraphs("Come with Me (Pure Imagination)", "Hold On Me (Grinspoon song)"),
    )
    assert found is not None
    assert found.names == ("Come with Me", "Hold On Me")
    assert found.spelled == ("Come With Me (Pure Imagination)", "Hold On Me")
    assert decide(found, lookup("1971"), lookup("2002")) == "Hold On Me"
    assert decide(found, lookup("2005"), lookup("2002")) == "Come With Me (Pure Imagination)"


def test_each_name_gets_its_own_date_event_and_names_inside_names_do_not_count() -> None:
    found = detect_comparison(
        "Which came first the forming of The Dandy Warhols or the birth of Robert Young?",
        paragraphs("The Dandy Warhols", "Robert Young (musician)", "Young"),
    )
    assert found is not None
    assert found.names == ("The Dandy Warhols", "Robert Young")
    assert found.lookups == ("When was The Dandy Warhols formed?", "When was Robert Young born?")


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("March 3, 1994", (1994, 3, 3), (1994, 3, 3)),
        ("on 3rd March 1994 in Paris", (1994, 3, 3), (1994, 3, 3)),
        ("Sept. 4, 2001", (2001, 9, 4), (2001, 9, 4)),
        ("August 1988", (1988, 8, 1), (1988, 8, 31)),
        ("founded in 1958", (1958, 1, 1), (1958, 12, 31)),
        ("the 1990s", (1990, 1, 1), (1999, 12, 31)),
        ("the 5th century BC", (-500, 1, 1), (-401, 12, 31)),
        ("(May 5, 1926 – March 2, 2015)", (1926, 5, 5), (1926, 5, 5)),
    ],
)
def test_english_dates(text: str, lo: tuple[int, int, int], hi: tuple[int, int, int]) -> None:
    value = english_date(text)
    assert value is not None
    assert (value.lo, value.hi) == (lo, hi)


def test_english_dates_and_numbers_refuse_what_they_cannot_read() -> None:
    assert english_date("a long time ago") is None
    impossible_day = english_date("February 30, 1990")  # the year stands, the day does not
    assert impossible_day is not None and impossible_day.precision == "year"
    assert english_date("1,500 people") is None
    assert english_number("many") is None


@pytest.mark.parametrize(
    ("text", "value"), [("1,200 members", 1200.0), ("3.5 million", 3.5e6), ("twelve albums", 12.0), ("4.5 km", 4.5)]
)
def test_english_numbers(text: str, value: float) -> None:
    assert english_number(text) == value


def comparison(kind: Any, yes_no: bool = False) -> Comparison:
    return Comparison(kind, ("A", "B"), ("A", "B"), ("about A?", "about B?"), yes_no=yes_no, attribute="x")


def lookup(value: str, holds: bool | None = None) -> Lookup:
    return Lookup("?", "?", value, holds, ("S1",))


def test_decide_in_code() -> None:
    assert decide(comparison("earlier"), lookup("1844"), lookup("March 1989")) == "A"
    assert decide(comparison("later"), lookup("1844"), lookup("March 1989")) == "B"
    assert decide(comparison("earlier", yes_no=True), lookup("1990"), lookup("1980")) == "no"
    assert decide(comparison("more"), lookup("12 members"), lookup("1,200 members")) == "B"
    assert decide(comparison("less"), lookup("12 members"), lookup("1,200 members")) == "A"
    assert decide(comparison("both"), lookup("a game", True), lookup("a game", True)) == "yes"
    assert decide(comparison("both"), lookup("a game", True), lookup("a film", False)) == "no"
    assert decide(comparison("same"), lookup("Jiangsu"), lookup("Jiangsu Province")) == "yes"
    assert decide(comparison("same"), lookup("Jiangsu"), lookup("Jiangxi")) == "no"
    # undecided: a value without a date, overlapping dates, equal numbers
    assert decide(comparison("earlier"), lookup("unknown"), lookup("1990")) is None
    assert decide(comparison("earlier"), lookup("1990"), lookup("May 1990")) is None
    assert decide(comparison("more"), lookup("3"), lookup("three")) is None


def test_same_value_needs_something_to_compare() -> None:
    assert not same_value("", "")
    assert same_value("The Beatles", "beatles")


MAGAZINES: dict[str, Any] = {
    "_id": "c1",
    "question": "Which magazine was started first, Arthur's Magazine or First for Women?",
    "answer": "Arthur's Magazine",
    "type": "comparison",
    "supporting_facts": [["Arthur's Magazine", 0], ["First for Women", 0]],
    "context": [
        ["Arthur's Magazine", ["Arthur's Magazine was a literary periodical.", " It was founded in 1844."]],
        ["Women's Weekly", ["Women's Weekly names First for Women as a rival."]],
        ["First for Women", ["First for Women is a woman's magazine.", " It began in 1989."]],
    ],
}
LINE = re.compile(r"^\[(S\d+)\] \(([^)]*)\) (.*)$", re.MULTILINE)


def dates_reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """A lookup replies with the first year of the sentences shown and cites that sentence; the single-call reader
    answers with the second entity (a flipped comparison)."""
    shown = LINE.findall(messages[-1].content)
    if "Answer only this part" in messages[-1].content:
        key, _, text = next(((k, t, s) for k, t, s in shown if re.search(r"\d{4}", s)), shown[0])
        year = re.search(r"\d{4}", text)
        # the sentence stating the value, then the paragraph's first (which the supporting facts leave out)
        return {"value": year.group(0) if year else "not stated", "sentences": list(dict.fromkeys([key, shown[0][0]]))}
    return {
        "steps": [{"question": "Which first?", "answer": "First for Women", "sentences": [shown[0][0]]}],
        "answer": "First for Women",
    }


def test_lookups_show_each_entity_without_the_other(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "c.json", [MAGAZINES])).items[0]
    found = detect_comparison(item.question, item.paragraphs)
    assert found is not None
    sentences = context_sentences(item)
    first = {s.paragraph.title for s in lookup_context(found, 0, sentences, sentences)}
    second = {s.paragraph.title for s in lookup_context(found, 1, sentences, sentences)}
    assert first == {"Arthur's Magazine"}
    assert second == {"First for Women", "Women's Weekly"}  # a shown sentence of another paragraph naming it


def test_run_answers_by_parts_and_records_the_parts(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "c.json", [MAGAZINES]))
    settings = TextQASettings("hotpotqa", "fake", "bm25", 8, kg_path=False, compare_by_parts=True)
    llm = FakeLLM(dates_reader)
    run_textqa(data, tmp_path / "on", settings, llm)
    assert len(llm.calls) == 2  # one lookup per entity, no single-call reading
    record = json.loads((tmp_path / "on" / "baseline" / "answers.json").read_text("utf-8"))[0]
    assert record["final_answer"] == "Arthur's Magazine"
    assert record["sub_questions_source"] == "comparison-by-parts"
    assert [s["answer"] for s in record["sub_questions"]] == ["1844", "1989", "Arthur's Magazine"]
    cited_per_step = [sum(len(c["chunk"]) for c in s["relevant_chunks"]) for s in record["sub_questions"][:2]]
    assert cited_per_step == [2, 2]  # the steps keep every citation
    prediction = json.loads((tmp_path / "on" / "baseline" / "prediction.json").read_text("utf-8"))
    # each lookup's first citation: one value, one sentence
    assert prediction["sp"]["c1"] == [["Arthur's Magazine", 1], ["First for Women", 1]]
    off = TextQASettings("hotpotqa", "fake", "bm25", 8, kg_path=False, compare_by_parts=False)
    run_textqa(data, tmp_path / "off", off, FakeLLM(dates_reader))
    assert json.loads((tmp_path / "off" / "baseline" / "answers.json").read_text("utf-8"))[0]["final_answer"] == (
        "First for Women"
    )
    assert '"compare_by_parts": true' in (tmp_path / "on" / JOURNAL).read_text("utf-8").splitlines()[0]


def test_falls_back_to_the_reader_when_parts_cannot_decide(tmp_path: Path) -> None:
    undated = json.loads(json.dumps(MAGAZINES))
    undated["context"][2][1][1] = " It is sold in shops."
    data = load_textqa(write_json(tmp_path / "c.json", [undated]))
    settings = TextQASettings("hotpotqa", "fake", "bm25", 8, kg_path=False, compare_by_parts=True)
    llm = FakeLLM(dates_reader)
    run_textqa(data, tmp_path / "out", settings, llm)
    assert len(llm.calls) == 3  # two lookups, then the single-call reader
    record = json.loads((tmp_path / "out" / "baseline" / "answers.json").read_text("utf-8"))[0]
    assert (record["final_answer"], record["sub_questions_source"]) == ("First for Women", "llm-decomposition")


def test_a_failed_lookup_falls_back_unless_the_server_failed(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "c.json", [MAGAZINES])).items[0]
    found = detect_comparison(item.question, item.paragraphs)
    assert found is not None
    sentences = context_sentences(item)
    broken = FakeLLM(["not json"])
    assert compare_by_parts(broken, item.question, found, sentences, sentences) is None  # the single reader next
    assert len(broken.calls) == 1  # the second entity is not asked once the first lookup failed
    slow = FakeLLM([{"value": "1844", "sentences": ["S2"]}, FakeFailure("timeout")])
    failed = compare_by_parts(slow, item.question, found, sentences, sentences)
    assert failed is not None and (failed.answer, failed.failure) == ("", "timeout")  # asked again on a resume
