"""Bridge questions answered by parts (`textqa.bridge`, `textqa.bridge_parts`): the chain found from the question's
text and the paragraphs (and the questions that have none), what the one lookup is shown, the supporting facts and
steps it gives, the option, and the fallback to the single-call reader."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from textqa_samples import write_json

from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.bridge import detect_bridge
from kgreason.textqa.bridge_parts import bridge_by_parts, hop_context
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.records import Paragraph
from kgreason.textqa.run import JOURNAL, TextQASettings, run_textqa


def para(index: int, title: str, *sentences: str) -> Paragraph:
    return Paragraph(index, title, tuple(sentences))


FILM = para(0, "Film X", "Film X is a 1990 drama directed by Anne Dupont.", " It was scored by Paul Roy.")
DIRECTOR = para(1, "Anne Dupont (director)", "Anne Dupont is a French director.", " She was born in Lyon.")
COMPOSER = para(2, "Paul Roy", "Paul Roy is a composer.", " He was born in Nantes.")
OTHER = para(3, "Lyon", "Lyon is a city in France.")


def test_finds_the_named_paragraph_and_the_one_its_text_names() -> None:
    found = detect_bridge("Which city is the birthplace of the director of Film X?", (FILM, DIRECTOR, COMPOSER, OTHER))
    assert found is not None
    assert found.first.title == "Film X"
    # both linked paragraphs are candidates; the one named by the sentence the question describes comes first
    assert [p.title for p in found.candidates] == ["Anne Dupont (director)", "Paul Roy"]
    composer = detect_bridge("Where was the man who scored Film X born?", (FILM, DIRECTOR, COMPOSER, OTHER))
    assert composer is not None and composer.second.title == "Paul Roy"


def test_a_chain_between_two_named_paragraphs_and_escaped_titles() -> None:
    chained = detect_bridge("Film X was directed by Anne Dupont, born in which city?", (DIRECTOR, FILM, COMPOSER))
    assert chained is not None
    assert (chained.first.title, chained.second.title) == ("Film X", "Anne Dupont (director)")
    show = para(0, "Simon &amp; Simon", "Simon & Simon starred Gerald McRaney.")
    actor = para(1, "Gerald McRaney", "Gerald McRaney is an American actor.")
    found = detect_bridge("Simon & Simon starred which actor from the US?", (show, actor))
    assert found is not None and found.second.title == "Gerald McRaney"


@pytest.mark.parametrize(
    "question",
    [
        "Was the director of Film X born in Lyon?",  # yes/no: not a bridge here
        "Which was made first, Film X or Paul Roy?",  # a choice between two names
        "Are Film X and Paul Roy from France?",
        "What do Film X and Paul Roy have in common?",  # two parallel names
        "Who directed the 1990 drama?",  # no paragraph named
        "In which country is Lyon?",  # the named paragraph names no other
    ],
)
def test_no_bridge(question: str) -> None:
    assert detect_bridge(question, (FILM, DIRECTOR, COMPOSER, OTHER)) is None


ITEM: dict[str, Any] = {
    "_id": "b1",
    "question": "Which city is the birthplace of the director of Film X?",
    "answer": "Lyon",
    "type": "bridge",
    "supporting_facts": [["Film X", 0], ["Anne Dupont (director)", 1]],
    "context": [
        ["Lyon", ["Lyon is a city in France."]],
        ["Film X", ["Film X is a 1990 drama.", " It was directed by Anne Dupont."]],
        ["Anne Dupont (director)", ["Anne Dupont is a French director.", " She was born in Lyon."]],
        ["Paul Roy", ["Paul Roy was born in Nantes."]],
    ],
}
LINE = re.compile(r"^\[(S\d+)\] \((.*?)\) (.*)$", re.MULTILINE)


def hop_reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """The bridge lookup answers the city it is shown and cites that sentence, then the paragraph's first; the
    single-call reader answers the bridge entity (the failure the lookup avoids)."""
    shown = LINE.findall(messages[-1].content)
    if "answer" in schema["properties"] and "steps" not in schema["properties"]:
        born = next(k for k, _, text in shown if "born in" in text)
        lead = next(k for k, title, text in shown if title.startswith("Anne") and "is a" in text)
        return {"answer": "Lyon.", "sentences": [born, lead]}
    step = {"question": "Who?", "answer": "Anne Dupont", "sentences": [shown[0][0]]}
    return {"steps": [step], "answer": "Anne Dupont"}


def settings(bridge: bool) -> TextQASettings:
    return TextQASettings("hotpotqa", "fake", "bm25", 8, kg_path=False, bridge_by_parts=bridge)


def test_the_lookup_is_shown_the_hop_sentence_and_the_second_paragraph_only(tmp_path: Path) -> None:
    item = load_textqa(write_json(tmp_path / "b.json", [ITEM])).items[0]
    found = detect_bridge(item.question, item.paragraphs)
    assert found is not None
    sentences = context_sentences(item)
    context = hop_context(found, sentences)
    assert context is not None
    hop, second = context
    assert hop.text == "It was directed by Anne Dupont."
    assert [s.paragraph.title for s in second] == ["Anne Dupont (director)"] * 2
    llm = FakeLLM(hop_reader)
    answer = bridge_by_parts(llm, item.question, found, sentences)
    assert answer is not None and answer.answer == "Lyon"
    prompt = llm.calls[0].messages[-1].content
    assert "Lyon is a city" not in prompt and "Nantes" not in prompt and "1990 drama" not in prompt
    assert "from Film X to Anne Dupont" in prompt
    assert set(llm.calls[0].schema["properties"]["sentences"]["items"]["enum"]) == {hop.key, *(s.key for s in second)}
    assert answer.sentences == (hop.key, second[1].key)  # the hop sentence and the first citation about her
    # a reply citing the hop sentence only (the entity itself asked): the second paragraph's first sentence names it
    itself = bridge_by_parts(
        FakeLLM([{"answer": "Anne Dupont", "sentences": [hop.key]}]), item.question, found, sentences
    )
    assert itself is not None and itself.sentences == (hop.key, second[0].key)


def test_run_answers_by_parts_and_records_the_hops(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "b.json", [ITEM]))
    llm = FakeLLM(hop_reader)
    run_textqa(data, tmp_path / "on", settings(True), llm)
    assert len(llm.calls) == 1  # one lookup, no single-call reading
    record = json.loads((tmp_path / "on" / "baseline" / "answers.json").read_text("utf-8"))[0]
    assert record["final_answer"] == "Lyon"
    assert record["sub_questions_source"] == "bridge-by-parts"
    assert [s["answer"] for s in record["sub_questions"]] == ["Anne Dupont", "Lyon"]
    prediction = json.loads((tmp_path / "on" / "baseline" / "prediction.json").read_text("utf-8"))
    # the hop sentence and the lookup's first citation
    assert prediction["sp"]["b1"] == [["Film X", 1], ["Anne Dupont (director)", 1]]
    assert '"bridge_by_parts": true' in (tmp_path / "on" / JOURNAL).read_text("utf-8").splitlines()[0]
    off = FakeLLM(hop_reader)
    run_textqa(data, tmp_path / "off", settings(False), off)
    record = json.loads((tmp_path / "off" / "baseline" / "answers.json").read_text("utf-8"))[0]
    assert (record["final_answer"], record["sub_questions_source"]) == ("Anne Dupont", "llm-decomposition")
    assert '"bridge_by_parts": false' in (tmp_path / "off" / JOURNAL).read_text("utf-8").splitlines()[0]


def test_falls_back_to_the_reader_unless_the_server_failed(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "b.json", [ITEM]))
    llm = FakeLLM(["not json", {"steps": [{"question": "Q", "answer": "Lyon", "sentences": ["S1"]}], "answer": "Lyon"}])
    summary = run_textqa(data, tmp_path / "broken", settings(True), llm)
    assert len(llm.calls) == 2  # the lookup's reply broke the schema: the single reader answers
    assert summary.outcomes[0].answers["baseline"].steps_source == "llm-decomposition"
    empty = FakeLLM([{"answer": " ", "sentences": ["S3"]}, FakeFailure("server_error")])
    assert run_textqa(data, tmp_path / "empty", settings(True), empty).outcomes[0].answers["baseline"].failure
    assert len(empty.calls) == 2  # an empty answer falls back too
    item = data.items[0]
    found = detect_bridge(item.question, item.paragraphs)
    assert found is not None
    slow = bridge_by_parts(FakeLLM([FakeFailure("timeout")]), item.question, found, context_sentences(item))
    assert slow is not None and (slow.answer, slow.failure) == ("", "timeout")  # asked again on a resume
