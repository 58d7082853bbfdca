"""The program's completion of the supporting facts (`textqa.support`) and the second retrieval round
(`textqa.second_round`): each rule on a case it must change and on one it must leave alone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textqa_samples import write_json

from kgreason.llm.fake import FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.answers import PathAnswer, Step
from kgreason.textqa.context import ContextSentence, context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.records import TextQAItem
from kgreason.textqa.run import TextQASettings, run_textqa, shown_sentences
from kgreason.textqa.second_round import bridge_query, second_round_context
from kgreason.textqa.support import RULES, complete_support, entity_name, refers_back

ITEM: dict[str, Any] = {
    "_id": "q1",
    "question": "In which city was the director of Film X born?",
    "answer": "Lyon",
    "type": "bridge",
    "supporting_facts": [["Film X", 0], ["Anne Dupont (director)", 0], ["Anne Dupont (director)", 1]],
    "context": [
        ["Film X", ["Film X is a 1990 drama directed by Anne Dupont.", " The film won a prize."]],
        ["Anne Dupont (director)", ["Anne Dupont is a French director.", " She was born in Lyon."]],
        ["Other film", ["Other film is a comedy.", " Anne Dupont appears in it."]],
        ["Lyon", ["Lyon is a city in France.", " It lies on the Rhône."]],
    ],
}


def item(tmp_path: Path, value: dict[str, Any] = ITEM) -> TextQAItem:
    return load_textqa(write_json(tmp_path / "h.json", [value])).items[0]


def keyed(sentences: list[ContextSentence]) -> dict[tuple[str, int], str]:
    return {(s.paragraph.title, s.sentence.index): s.key for s in sentences}


def answer(keys: tuple[str, ...], steps: tuple[Step, ...] = ()) -> PathAnswer:
    return PathAnswer("baseline", "Lyon", keys, steps, "llm-decomposition", (), 8)


def test_refers_back_and_entity_name() -> None:
    assert refers_back("She was born in Lyon.") and refers_back("The film won a prize.")
    assert refers_back("  His mother was Marie.")
    assert not refers_back("The Beatles were a band.") and not refers_back("Anne Dupont is a director.")
    assert not refers_back("Theodore was born in Lyon.")  # "The" only as a word
    assert entity_name("Anne Dupont (director)") == "Anne Dupont" and entity_name("Lyon") == "Lyon"


def test_antecedent_rule_brings_the_sentence_that_names_the_subject(tmp_path: Path) -> None:
    it = item(tmp_path)
    sents = context_sentences(it)
    k = keyed(sents)
    got = complete_support(it.question, answer((k[("Anne Dupont (director)", 1)],)), sents, ("antecedent",))
    assert got.added == ((k[("Anne Dupont (director)", 0)], "antecedent"),)
    # a sentence that names its subject, or a paragraph's first sentence, brings nothing
    named = complete_support(it.question, answer((k[("Film X", 0)],)), sents, ("antecedent",))
    assert named.added == () and named.sentences == (k[("Film X", 0)],)
    # already cited: not counted as added
    both = (k[("Anne Dupont (director)", 0)], k[("Anne Dupont (director)", 1)])
    assert complete_support(it.question, answer(both), sents, ("antecedent",)).added == ()


def test_bridge_rule_brings_the_other_hop_that_names_the_bridge_entity(tmp_path: Path) -> None:
    it = item(tmp_path)
    sents = context_sentences(it)
    k = keyed(sents)
    # only the second hop's paragraph is cited: the first sentence that names "Anne Dupont" and best matches the
    # question (Film X's, not Other film's) is the other hop; then its own lead is already it
    cited = (k[("Anne Dupont (director)", 0)], k[("Anne Dupont (director)", 1)])
    got = complete_support(it.question, answer(cited), sents, ("bridge",))
    assert got.added == ((k[("Film X", 0)], "bridge"),)
    assert got.sentences == (k[("Film X", 0)], *cited)
    # two paragraphs cited already: nothing to add
    two = (k[("Film X", 0)], k[("Anne Dupont (director)", 1)])
    assert complete_support(it.question, answer(two), sents, ("bridge",)).added == ()
    # without the rule, nothing is added
    assert complete_support(it.question, answer(cited), sents, ("antecedent",)).added == ()


def test_bridge_rule_follows_a_sub_answer_and_then_its_antecedent(tmp_path: Path) -> None:
    it = item(tmp_path)
    sents = context_sentences(it)
    k = keyed(sents)
    steps = (Step("Where was she born?", "Lyon", ()), Step("Which city?", "Lyon", ()))
    # Film X's second sentence cited; the sub-answer "Lyon" is named by Anne Dupont's and Lyon's paragraphs: the
    # one the question matches best (director, born) is chosen, and "She" brings the sentence naming her
    got = complete_support(it.question, answer((k[("Film X", 1)],), steps), sents, RULES)
    assert got.added == (
        (k[("Film X", 0)], "antecedent"),  # "The film" → the sentence naming Film X
        (k[("Anne Dupont (director)", 0)], "antecedent"),
        (k[("Anne Dupont (director)", 1)], "bridge"),
    )


def test_run_writes_the_completion_and_the_cited_only_predictions(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", [ITEM]))

    def reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        key = next(line.split("]")[0][1:] for line in messages[-1].content.splitlines() if "born in Lyon" in line)
        return {"steps": [{"question": "Where born?", "answer": "Lyon", "sentences": [key]}], "answer": "Lyon"}

    settings = TextQASettings("hotpotqa", "fake", "bm25", 8, False, context="sentences", bridge_by_parts=False)
    run_textqa(data, tmp_path / "out", settings, FakeLLM(reader))
    import json

    cited = json.loads((tmp_path / "out/baseline/prediction.cited.json").read_text(encoding="utf-8"))
    full = json.loads((tmp_path / "out/baseline/prediction.json").read_text(encoding="utf-8"))
    assert cited["sp"]["q1"] == [["Anne Dupont (director)", 1]]
    # the default rules: the bridge rule only (the antecedent rule is measured, not on: textqa.support)
    assert full["sp"]["q1"] == [["Film X", 0], ["Anne Dupont (director)", 1]]


def test_bridge_query_and_second_round_context(tmp_path: Path) -> None:
    value = dict(ITEM, question="In which city was the director of Film X born?")
    it = item(tmp_path, value)
    sents = context_sentences(it)
    k = keyed(sents)
    shown = [s for s in sents if s.paragraph.title == "Film X"]
    first = answer((k[("Film X", 0)],), (Step("Who directed Film X?", "Anne Dupont", (k[("Film X", 0)],)),))
    first = PathAnswer("baseline", "Anne Dupont", first.sentences, first.steps, "llm-decomposition", (), 2)
    assert bridge_query("Q?", first) == "Q? Anne Dupont"
    wider = second_round_context(it.question, first, sents, shown, "bm25")
    assert wider is not None
    titles = [(s.paragraph.title, s.sentence.index) for s in wider]
    assert ("Anne Dupont (director)", 1) in titles and ("Anne Dupont (director)", 0) in titles
    assert titles[:2] == [("Film X", 0), ("Film X", 1)]  # what was shown stays, in reading order
    # a failed first reading, or nothing new to show: no second call
    failed = PathAnswer("baseline", "", (), (), "llm-decomposition", (), 2, failure="timeout")
    assert second_round_context(it.question, failed, sents, shown, "bm25") is None
    assert second_round_context(it.question, first, sents, sents, "bm25") is None


def test_second_round_asks_once_more_over_the_wider_context(tmp_path: Path) -> None:
    data = load_textqa(
        write_json(tmp_path / "h.json", [dict(ITEM, question="Which city is home to the director of Film X?")])
    )
    seen: list[str] = []

    def reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        text = messages[-1].content
        seen.append(text)
        lines = [line for line in text.splitlines() if line.startswith("[S")]
        born = [line.split("]")[0][1:] for line in lines if "born in Lyon" in line]
        if born:
            return {"steps": [{"question": "Where?", "answer": "Lyon", "sentences": born}], "answer": "Lyon"}
        first = lines[0].split("]")[0][1:]
        return {"steps": [{"question": "Who?", "answer": "Anne Dupont", "sentences": [first]}], "answer": "Anne Dupont"}

    settings = TextQASettings(
        "hotpotqa", "fake", "bm25", 1, False, second_round=True, context="sentences", bridge_by_parts=False
    )
    assert all("born in Lyon" not in s.text for s in shown_sentences(data.items[0], settings, None))
    summary = run_textqa(data, tmp_path / "out", settings, FakeLLM(reader))
    base = summary.outcomes[0].answers["baseline"]
    assert len(seen) == 2 and "born in Lyon" in seen[1]
    assert base.answer == "Lyon" and base.rounds == 2
    # without the setting, one call and the first reading
    seen.clear()
    off = TextQASettings("hotpotqa", "fake", "bm25", 1, False, context="sentences", bridge_by_parts=False)
    again = run_textqa(data, tmp_path / "o2", off, FakeLLM(reader)).outcomes[0].answers["baseline"]
    assert len(seen) == 1 and again.answer == "Anne Dupont" and again.rounds == 1
