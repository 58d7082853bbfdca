"""Evidence triples written by the by-parts paths (`textqa.evidence`, `textqa.wiki_relations`) and comparisons by a
related entity's attribute (`textqa.related`): relations found in a question's text and resolved to one label,
values spelled as the paragraphs write them, the triples of each path, the run's 2Wiki prediction file, and inputs
that name no relation."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textqa_samples import write_json

from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.answers import Step
from kgreason.textqa.bridge import detect_bridge
from kgreason.textqa.bridge_parts import bridge_by_parts
from kgreason.textqa.by_parts import compare_by_parts, own_paragraphs
from kgreason.textqa.comparison import detect_comparison
from kgreason.textqa.context import context_sentences
from kgreason.textqa.evidence import (
    Fact,
    bridge_evidence,
    comparison_evidence,
    lifespan_role,
    question_relations,
    relation_mentions,
    resolve,
    spelled_value,
    step_evidence,
)
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.reader import read_answer
from kgreason.textqa.related import detect_related_comparison, related_by_parts
from kgreason.textqa.run import JOURNAL, TextQASettings, run_textqa
from kgreason.textqa.values import english_dates
from kgreason.textqa.wiki_relations import BY_LABEL, COMPOSED, RELATIONS


def test_vocabulary_is_consistent() -> None:
    assert len(BY_LABEL) == len(RELATIONS)  # one entry per label
    assert all(r.phrases and all(p == p.lower() for p in r.phrases) for r in RELATIONS)
    assert all(a in BY_LABEL and b in BY_LABEL for a, b in COMPOSED.values())


def test_mentions_keep_the_longest_phrase_and_read_kinship_chains() -> None:
    found = relation_mentions("Where was the place of death of the director of film X?")
    assert [m.labels for m in found] == [("place of death",), ("director",)]
    died = relation_mentions("When did she die?")
    assert died[0].labels == ("date of death", "place of death")  # one phrase, two labels: resolved later
    kin = relation_mentions("Who is the paternal grandfather of Y?")
    assert [(m.labels, m.chain) for m in kin] == [((), ("father", "father"))]
    assert relation_mentions("What colour is the sky?") == []


def test_the_mention_nearest_the_entity_is_the_first_hop() -> None:
    nested = question_relations("Where was the place of death of the director of film The Director?", ["The Director"])
    assert [m.labels[0] for m in nested] == ["director", "place of death"]  # the name's own "Director" is blanked
    possessive = question_relations("When did Lothair II's mother die?", ["Lothair II"])
    assert [m.labels[0] for m in possessive] == ["mother", "date of death"]
    assert [m.labels[0] for m in question_relations("Who directed it?", ["Nobody named"])] == ["director"]


def test_one_label_from_the_value_the_question_word_and_the_sentence() -> None:
    assert resolve(["date of death", "place of death"], value="20 March 851") == "date of death"
    assert resolve(["date of death", "place of death"], value="Hythe") == "place of death"
    assert resolve(["date of birth", "place of birth"], wanted="place") == "place of birth"
    assert resolve(["inception", "founded by"], value="Larry Page") == "founded by"
    lifespan = ["Ann Lee (12 June 1929 – 2 June 2015) was a director."]
    assert lifespan_role("12 June 1929", lifespan) == "date of birth"
    assert lifespan_role("2015", lifespan) == "date of death"
    assert lifespan_role("1950", lifespan) is None and lifespan_role("no date", lifespan) is None
    assert resolve(["date of death", "date of birth"], value="June 12, 1929", texts=lifespan) == "date of birth"
    founded = ["The band was formed in 1975 in Leeds."]
    assert resolve(["date of birth", "inception"], value="1975", texts=founded) == "inception"
    assert resolve(["date of birth", "inception"], value="1975") == "date of birth"  # the vocabulary's order
    assert resolve([], value="x") is None and resolve(["not a label"]) is None


def test_values_are_spelled_as_the_paragraphs_write_them() -> None:
    sentence = ["It was released on February 19, 2016 as a single."]
    assert spelled_value("19 February 2016", sentence) == "February 19, 2016"  # the sentence's spelling
    assert spelled_value("february 19, 2016.", sentence) == "February 19, 2016"
    assert spelled_value("2016", sentence) == "February 19, 2016"  # as precise as the sentence states it
    assert spelled_value("3 May 2016", ["It was released in 2016."]) == "2016"  # the sentence's, overlapping
    assert spelled_value("the Beatles", ["He joined The Beatles."]) == "The Beatles"  # the sentence's spelling
    assert spelled_value("S. R. Ann Lee", [], ["Ann Lee (director)", "Film X"]) == "Ann Lee (director)"  # a title
    assert spelled_value("Lyon", ["She was born in Paris."]) == "Lyon"  # nothing better: the reader's value
    assert [d.text for d in english_dates("(born 3 May 1901 – 1980) and in March 1990")] == [
        "3 May 1901",
        "1980",
        "March 1990",
    ]


def test_bridge_triples() -> None:
    cited = ["Ermengarde of Tours (d. 20 March 851) was a queen."]
    triples = bridge_evidence(
        "When did Lothair II's mother die?",
        ("Lothair II", "Lothair II"),
        ("Ermengarde of Tours", "Ermengarde of Tours"),
        "20 March 851",
        "He was the son of Lothair I and Ermengarde of Tours.",
        cited,
        ["Lothair II", "Ermengarde of Tours"],
    )
    assert triples == (
        ("Lothair II", "mother", "Ermengarde of Tours"),
        ("Ermengarde of Tours", "date of death", "20 March 851"),
    )
    kin = bridge_evidence(
        "Who is Konrad V's paternal grandfather?",
        ("Konrad V", "Konrad V"),
        ("Konrad III (duke)", "Konrad III"),
        "Konrad II",
        "He was the son of Konrad III.",
        ["He was the son of Konrad II."],
        ["Konrad V", "Konrad III (duke)"],
    )
    assert kin == (("Konrad V", "father", "Konrad III (duke)"), ("Konrad III (duke)", "father", "Konrad II"))
    itself = bridge_evidence(
        "Who directed Film X?", ("Film X", "Film X"), ("Ann Lee", "Ann Lee"), "Ann Lee", "", [], ["Ann Lee"]
    )
    assert itself == (("Film X", "director", "Ann Lee"),)  # the answer is the bridge entity: one hop
    one = bridge_evidence(
        "Where did the man in Film X die?", ("Film X", "Film X"), ("Ann Lee", "Ann Lee"), "Lyon", "", ["x"], []
    )
    assert one == (("Ann Lee", "place of death", "Lyon"),)  # the first hop's relation is not named: no triple
    assert bridge_evidence("What is Film X about?", ("Film X", "Film X"), ("B", "B"), "war", "", [], []) == ()


def test_comparison_triples_and_no_relation() -> None:
    facts = [Fact("Song A (song)", "2005", ("It was released on 21 February 2005.",)), Fact("Song B", "1999", ())]
    triples = comparison_evidence(
        "Which song came out first, Song A or Song B?", ["Song A", "Song B"], facts, date=True, titles=[]
    )
    expected = (("Song A (song)", "publication date", "21 February 2005"), ("Song B", "publication date", "1999"))
    assert triples == expected
    none = comparison_evidence("Which is larger, A or B?", ["A", "B"], facts, date=False, titles=[])
    assert none == ()  # the attribute is not in the vocabulary: nothing invented
    assert comparison_evidence("", ["A", "B"], [], date=True, titles=[]) == ()


LINE = re.compile(r"^\[(S\d+)\] \((.*?)\) (.*)$", re.MULTILINE)


def dated_lookups(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """A lookup replies with the first date of the sentences shown (day month year or a year), citing its sentence;
    the single reader replies with a wrong name."""
    shown = LINE.findall(messages[-1].content)
    asked = re.search(r"about (.+?):\n", messages[-1].content)
    if asked is not None:
        own = [s for s in shown if s[1] == asked.group(1)] + [s for s in shown if s[1] != asked.group(1)]
        for key, _, text in own:
            m = re.search(r"\d{1,2} [A-Z][a-z]+ \d{4}|\d{4}", text)
            if m:
                return {"value": m.group(0), "sentences": [key]}
        return {"value": "not stated", "sentences": [shown[0][0]]}
    return {"steps": [{"question": "?", "answer": "Nobody", "sentences": [shown[0][0]]}], "answer": "Nobody"}


DIRECTORS: dict[str, Any] = {
    "_id": "r1",
    "type": "bridge_comparison",
    "question": "Which film has the director born earlier, Film X or Film Y?",
    "answer": "Film Y",
    "supporting_facts": [["Film X", 0], ["Film Y", 1], ["Ann Lee", 0], ["Bo Chan", 0]],
    "evidences": [
        ["Film X", "director", "Ann Lee"],
        ["Film Y", "director", "Bo Chan"],
        ["Ann Lee", "date of birth", "3 May 1950"],
        ["Bo Chan", "date of birth", "1 June 1920"],
    ],
    "context": [
        ["Film X", ["Film X is a 1990 drama directed by Ann Lee and starring Cy Dorr."]],
        ["Film Y", ["Film Y is a 1960 comedy starring Di Evans.", "It was directed by Bo Chan."]],
        ["Ann Lee", ["Ann Lee (3 May 1950 – 9 May 2010) was a director."]],
        ["Bo Chan", ["Bo Chan (1 June 1920 – 2001) was a director."]],
        ["Cy Dorr", ["Cy Dorr (born 1 January 1900) was an actor."]],
        ["Di Evans", ["Di Evans (born 1 January 1890) was an actress."]],
    ],
}


def test_related_comparison_is_detected_with_each_related_entity(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "r.json", [DIRECTORS])).items[0]
    assert detect_comparison(item.question, item.paragraphs) is None  # not a plain comparison
    found = detect_related_comparison(item.question, item.paragraphs)
    assert found is not None
    assert found.relation == "director"
    assert [p.title for p in found.targets] == ["Ann Lee", "Bo Chan"]  # not the actors named too
    assert found.hops == (0, 1)
    assert found.related.lookups == ("When was Ann Lee born?", "When was Bo Chan born?")
    assert found.related.spelled == ("Film X", "Film Y")
    whose = "Which film whose director is younger, Film X or Film Y?"
    assert detect_related_comparison(whose, item.paragraphs) is not None


@pytest.mark.parametrize(
    "question",
    [
        "Which film came out first, Film X or Film Y?",  # a plain comparison
        "Which film has the colour that is brighter, Film X or Film Y?",  # no relation of the vocabulary
        "Which film has the composer born earlier, Film X or Film Y?",  # no paragraph names a composer
        "Does the film have the director born earlier?",  # no two entities
        "",
    ],
)
def test_no_related_comparison(tmp_path: Path, question: str) -> None:
    item = load_textqa(write_json(tmp_path / "r.json", [DIRECTORS])).items[0]
    assert detect_related_comparison(question, item.paragraphs) is None


def test_related_comparison_by_parts(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "r.json", [DIRECTORS])).items[0]
    found = detect_related_comparison(item.question, item.paragraphs)
    assert found is not None
    sentences = context_sentences(item)
    llm = FakeLLM(dated_lookups)
    answer = related_by_parts(llm, item.question, found, sentences, sentences)
    assert answer is not None and answer.answer == "Film Y"
    assert len(llm.calls) == 2  # one lookup per related entity
    assert "(Bo Chan)" not in llm.calls[0].messages[-1].content  # never the other related entity's paragraph
    by_key = {s.key: (s.paragraph.title, s.sentence.index) for s in sentences}
    assert [by_key[k] for k in answer.sentences] == [("Film X", 0), ("Film Y", 1), ("Ann Lee", 0), ("Bo Chan", 0)]
    assert answer.evidence == (
        ("Film X", "director", "Ann Lee"),
        ("Film Y", "director", "Bo Chan"),
        ("Ann Lee", "date of birth", "3 May 1950"),
        ("Bo Chan", "date of birth", "1 June 1920"),
    )
    assert [s.answer for s in answer.steps] == ["Ann Lee", "Bo Chan", "3 May 1950", "1 June 1920", "Film Y"]
    undecided = FakeLLM([{"value": "1950", "sentences": ["S4"]}, {"value": "May 1950", "sentences": ["S5"]}])
    assert related_by_parts(undecided, item.question, found, sentences, sentences) is None  # the reader next
    slow = FakeLLM([FakeFailure("timeout")])
    failed = related_by_parts(slow, item.question, found, sentences, sentences)
    assert failed is not None and (failed.answer, failed.failure) == ("", "timeout")


SONGS: dict[str, Any] = {
    "_id": "c1",
    "type": "comparison",
    "question": "Which song was released more recently, Song A or Song B (Band Song)?",
    "answer": "Song A",
    "supporting_facts": [["Song A", 1], ["Song B (band song)", 1]],
    "evidences": [["Song A", "publication date", "2016"], ["Song B (band song)", "publication date", "2005"]],
    "context": [
        ["Song A", ["Song A is a single.", "It was released on 19 February 2016."]],
        ["Song B (band song)", ["Song B is a song by a band.", "It was released in 2005."]],
    ],
}
CHAIN: dict[str, Any] = {
    "_id": "b1",
    "type": "compositional",
    "question": "Where was the place of death of the director of film Film X?",
    "answer": "Lyon",
    "supporting_facts": [["Film X", 0], ["Ann Lee", 0]],
    "evidences": [["Film X", "director", "Ann Lee"], ["Ann Lee", "place of death", "Lyon"]],
    "context": [
        ["Film X", ["Film X is a 1990 drama directed by Ann Lee."]],
        ["Ann Lee", ["Ann Lee (3 May 1950 – 9 May 2010 in Lyon) was a director."]],
    ],
}


def test_comparison_and_bridge_by_parts_write_triples(tmp_path: Path) -> None:
    songs = load_textqa(write_json(tmp_path / "s.json", [SONGS])).items[0]
    found = detect_comparison(songs.question, songs.paragraphs)
    assert found is not None
    sentences = context_sentences(songs)
    answer = compare_by_parts(FakeLLM(dated_lookups), songs.question, found, sentences, sentences)
    assert answer is not None and answer.answer == "Song A"
    assert answer.evidence == (
        ("Song A", "publication date", "19 February 2016"),
        ("Song B (band song)", "publication date", "2005"),
    )
    chain = load_textqa(write_json(tmp_path / "b.json", [CHAIN])).items[0]
    bridge = detect_bridge(chain.question, chain.paragraphs)
    assert bridge is not None
    reply = FakeLLM([{"answer": "Lyon", "sentences": ["S2"]}])
    hops = bridge_by_parts(reply, chain.question, bridge, context_sentences(chain))
    assert hops is not None
    assert hops.evidence == (("Film X", "director", "Ann Lee"), ("Ann Lee", "place of death", "Lyon"))


def test_run_writes_the_evidence_in_the_2wiki_prediction(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "w.json", [DIRECTORS, SONGS]))
    assert data.dataset == "2wiki"
    settings = TextQASettings("2wiki", "fake", "bm25", 8, kg_path=False)
    run_textqa(data, tmp_path / "on", settings, FakeLLM(dated_lookups))
    prediction = json.loads((tmp_path / "on" / "baseline" / "prediction.json").read_text("utf-8"))
    assert prediction["answer"] == {"r1": "Film Y", "c1": "Song A"}
    assert prediction["evidence"]["r1"][0] == ["Film X", "director", "Ann Lee"]
    assert len(prediction["evidence"]["r1"]) == 4 and len(prediction["evidence"]["c1"]) == 2
    assert '"compare_related_by_parts": true' in (tmp_path / "on" / JOURNAL).read_text("utf-8").splitlines()[0]
    off = TextQASettings("2wiki", "fake", "bm25", 8, kg_path=False, compare_related_by_parts=False)
    run_textqa(data, tmp_path / "off", off, FakeLLM(dated_lookups))
    single = json.loads((tmp_path / "off" / "baseline" / "prediction.json").read_text("utf-8"))
    assert single["answer"]["r1"] == "Nobody" and single["evidence"]["r1"] == []  # the single reader: no triples


def test_the_single_readers_steps_name_triples_when_they_can(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "b.json", [CHAIN])).items[0]
    sentences = context_sentences(item)
    steps = (
        Step("Who is the director of Film X?", "Ann Lee", ("S1",)),  # one subject, one relation: a triple
        Step("Where did Ann Lee die?", "Lyon", ("S2",)),
        Step("Where was the place of death of the director of film Film X?", "Lyon", ("S2",)),  # restated: none
        Step("Who is the director of Film X?", "", ("S1",)),  # no answer: none
        Step("What is the plot of Film X?", "a war", ("S1",)),  # no relation of the vocabulary: none
    )
    assert step_evidence(steps, sentences) == (
        ("Film X", "director", "Ann Lee"),
        ("Ann Lee", "place of death", "Lyon"),
    )
    assert step_evidence((), sentences) == () and step_evidence(steps, []) == ()
    replied = [{"question": s.question, "answer": s.answer, "sentences": list(s.sentences)} for s in steps[:2]]
    reader = FakeLLM([{"steps": replied, "answer": "Lyon"}])
    assert read_answer(reader, item.question, sentences).evidence == step_evidence(steps[:2], sentences)


def test_the_questions_parenthesis_chooses_the_entitys_paragraph(tmp_path: Path) -> None:
    two = json.loads(json.dumps(SONGS))
    two["question"] = "Which song was released more recently, Song A (Band Song) or Song B?"
    two["context"] = [
        ["Song A (singer song)", ["Song A is a song by a singer.", "It was released on 1 June 2019."]],
        ["Song A (band song)", ["Song A is a song by a band.", "It was released on 19 February 2016."]],
        ["Song B", ["Song B is a song.", "It was released in 2005."]],
    ]
    item = load_textqa(write_json(tmp_path / "s.json", [two])).items[0]
    sentences = context_sentences(item)
    assert own_paragraphs("Song A", sentences) == {0, 1}
    assert own_paragraphs("Song A", sentences, "Song A (Band Song)") == {1}
    assert own_paragraphs("Song A", sentences, "Song A (other)") == {0, 1}  # no such title: every one
    found = detect_comparison(item.question, item.paragraphs)
    assert found is not None
    answer = compare_by_parts(FakeLLM(dated_lookups), item.question, found, sentences, sentences)
    assert answer is not None
    assert answer.evidence[0] == ("Song A (band song)", "publication date", "19 February 2016")


def test_a_relation_needs_a_value_of_its_kind_and_each_entity_its_own_event() -> None:
    assert resolve(["publication date"], value="Two Dollar Radio") is None  # published by a house: not a date
    assert resolve(["director"], value="1990") is None
    assert resolve(["director"], value="Ann Lee") == "director"
    facts = [
        Fact("The Band", "1994", ("The Band was formed in 1994.",), "When was The Band formed?"),
        Fact("Ann Lee", "1990", ("Ann Lee (born 1990) is a singer.",), "When was Ann Lee born?"),
    ]
    question = "Which came first, the forming of The Band or the birth of Ann Lee?"
    assert comparison_evidence(question, ["The Band", "Ann Lee"], facts, date=True, titles=[]) == (
        ("The Band", "inception", "1994"),
        ("Ann Lee", "date of birth", "1990"),
    )


def test_both_asks_a_property_not_a_relation(tmp_path: Path) -> None:
    both = {
        "_id": "y1",
        "question": "Are Ann Lee and Bo Chan both film directors?",
        "answer": "yes",
        "type": "comparison",
        "supporting_facts": [["Ann Lee", 0], ["Bo Chan", 0]],
        "context": [["Ann Lee", ["Ann Lee is a film director."]], ["Bo Chan", ["Bo Chan is a film director."]]],
    }
    item = load_textqa(write_json(tmp_path / "y.json", [both])).items[0]
    found = detect_comparison(item.question, item.paragraphs)
    assert found is not None and found.kind == "both"
    sentences = context_sentences(item)
    holds = {"value": "a film director", "holds": "yes"}
    reply = FakeLLM([{**holds, "sentences": ["S1"]}, {**holds, "sentences": ["S2"]}])
    answer = compare_by_parts(reply, item.question, found, sentences, sentences)
    assert answer is not None and answer.answer == "yes" and answer.evidence == ()
