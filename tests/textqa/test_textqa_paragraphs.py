"""Whole paragraphs for the reader (`textqa.paragraphs`) and the `paragraphs` completion rule (`textqa.support`):
the choice of the question's pair (comparison by titles, bridge by links), the completion to two paragraphs, and the
run with the paragraph context against the ranked-sentences one (the default)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textqa_samples import write_json

from kgreason.data.provenance import Sentence, SourcedTriple
from kgreason.data.records import KGTriple
from kgreason.llm.fake import FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.answers import PathAnswer
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.paragraphs import choose_paragraphs, linked, order_paragraphs, paragraph_context
from kgreason.textqa.records import Paragraph, TextQAItem
from kgreason.textqa.run import JOURNAL, TextQASettings, run_textqa, shown_context
from kgreason.textqa.support import complete_support, default_rules

# A bridge question: "Film X" names "Anne Dupont (director)"; "Other film" matches the question's words better than
# the director's paragraph but is not linked to Film X.
BRIDGE: dict[str, Any] = {
    "_id": "b1",
    "question": "In which city was the director of the drama Film X born?",
    "answer": "Lyon",
    "type": "bridge",
    "supporting_facts": [["Film X", 0], ["Anne Dupont (director)", 0], ["Anne Dupont (director)", 1]],
    "context": [
        ["Other film", ["Other film is a drama about a city.", " It was a hit."]],
        ["Anne Dupont (director)", ["Anne Dupont is a French director.", " She was born in Lyon.", " She writes."]],
        ["Film X", ["Film X is a 1990 drama directed by Anne Dupont.", " The film won a prize."]],
        ["Lyon", ["Lyon is a city in France."]],
    ],
}
# A comparison: the question names both titles; the other paragraphs match its words more.
COMPARISON: dict[str, Any] = {
    "_id": "c1",
    "question": "Which magazine was started first, Arthur's Magazine or First for Women?",
    "answer": "Arthur's Magazine",
    "type": "comparison",
    "supporting_facts": [["Arthur's Magazine", 0], ["First for Women", 0]],
    "context": [
        ["Magazine history", ["A magazine was started first in 1731.", " Magazine magazine started first."]],
        ["Arthur's Magazine", ["Arthur's Magazine was a literary periodical founded in 1844."]],
        ["Women's Weekly", ["Women's Weekly is a magazine for women started in 1933."]],
        ["First for Women", ["First for Women is a woman's magazine published in the USA.", " It began in 1989."]],
    ],
}


def load(tmp_path: Path, *values: dict[str, Any]) -> list[TextQAItem]:
    return list(load_textqa(write_json(tmp_path / "h.json", list(values))).items)


def titles(paragraphs: list[Paragraph]) -> list[str]:
    return [p.title for p in paragraphs]


def test_links_and_the_order_of_the_pair(tmp_path: Path) -> None:
    bridge, comparison = load(tmp_path, BRIDGE, COMPARISON)
    by_title = {p.title: p for p in bridge.paragraphs}
    assert linked(by_title["Film X"], by_title["Anne Dupont (director)"])  # the parenthesis is not in the text
    assert linked(by_title["Anne Dupont (director)"], by_title["Film X"])  # either direction
    assert not linked(by_title["Film X"], by_title["Lyon"])
    # ranked: Film X, Other film, Anne Dupont: the linked paragraph moves ahead of the better-ranked unlinked one
    ranked = [by_title[t] for t in ("Film X", "Other film", "Anne Dupont (director)", "Lyon")]
    assert titles(order_paragraphs(bridge.question, ranked)) == [
        "Film X",
        "Anne Dupont (director)",
        "Other film",
        "Lyon",
    ]
    # nothing linked to the first: the ranking stands
    alone = [by_title[t] for t in ("Lyon", "Other film", "Film X")]
    assert titles(order_paragraphs(bridge.question, alone)) == ["Lyon", "Other film", "Film X"]
    assert order_paragraphs(bridge.question, []) == []
    # the question names two titles: those two first, whatever the ranking
    ranked_c = list(reversed(comparison.paragraphs))
    assert titles(order_paragraphs(comparison.question, ranked_c))[:2] == ["First for Women", "Arthur's Magazine"]


def test_choose_paragraphs_ranks_and_keeps_n(tmp_path: Path) -> None:
    bridge, comparison = load(tmp_path, BRIDGE, COMPARISON)
    chosen = choose_paragraphs(bridge.question, bridge.paragraphs, 2, "bm25")
    assert set(titles(chosen)) == {"Film X", "Anne Dupont (director)"}
    assert len(choose_paragraphs(bridge.question, bridge.paragraphs, 3, "bm25")) == 3
    assert set(titles(choose_paragraphs(comparison.question, comparison.paragraphs, 2, "bm25"))) == {
        "Arthur's Magazine",
        "First for Women",
    }
    # every sentence of the chosen paragraphs, in reading order, keys as in the whole item
    sentences = context_sentences(bridge)
    shown = paragraph_context(sentences, chosen)
    assert [s.key for s in shown] == ["S3", "S4", "S5", "S6", "S7"]


def answer(keys: tuple[str, ...], paragraphs: tuple[int, ...]) -> PathAnswer:
    return PathAnswer("baseline", "Lyon", keys, (), "llm-decomposition", (), 5, paragraphs=paragraphs)


def test_paragraphs_rule_completes_to_two_paragraphs_with_their_first_sentences(tmp_path: Path) -> None:
    (bridge,) = load(tmp_path, BRIDGE)
    sentences = context_sentences(bridge)
    key = {(s.paragraph.title, s.sentence.index): s.key for s in sentences}
    born = key[("Anne Dupont (director)", 1)]
    chosen = (2, 1, 0)  # Film X, Anne Dupont, Other film: the order the program chose
    # one paragraph cited: completed by the first chosen paragraph not cited, each with its first sentence
    got = complete_support(bridge.question, answer((born,), chosen), sentences, ("paragraphs",))
    assert got.added == ((key[("Anne Dupont (director)", 0)], "paragraphs"), (key[("Film X", 0)], "paragraphs"))
    assert default_rules(answer((born,), chosen)) == ()  # measured, off by default (textqa.support)
    # two paragraphs cited (Other film and Anne Dupont): their first sentences only, not the chosen pair's
    other = key[("Other film", 1)]
    got = complete_support(bridge.question, answer((other, born), chosen), sentences, ("paragraphs",))
    assert [k for k, _ in got.added] == [key[("Other film", 0)], key[("Anne Dupont (director)", 0)]]
    # nothing cited: the chosen pair's first sentences
    assert [k for k, _ in complete_support(bridge.question, answer((), chosen), sentences, ("paragraphs",)).added] == [
        key[("Anne Dupont (director)", 0)],
        key[("Film X", 0)],
    ]
    # ranked sentences shown (no paragraphs recorded): the rule adds nothing, and the default is the bridge rule
    assert complete_support(bridge.question, answer((born,), ()), sentences, ("paragraphs",)).added == ()
    assert default_rules(answer((born,), ())) == ("bridge",)
    # the choice survives the journal
    assert PathAnswer.from_dict(answer((born,), chosen).as_dict()).paragraphs == chosen


LINE = re.compile(r"^\[(S\d+)\] (.*)$", re.MULTILINE)


def reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """Cites the shown sentence saying where someone was born."""
    shown = LINE.findall(messages[-1].content)
    cited = [k for k, s in shown if "born in" in s] or [shown[0][0]]
    return {"steps": [{"question": "Where was she born?", "answer": "Lyon", "sentences": cited}], "answer": "Lyon"}


def test_run_shows_whole_paragraphs_on_request_and_ranked_sentences_by_default(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", [BRIDGE]))
    assert TextQASettings("hotpotqa", "fake", "bm25", 1, False).context == "sentences"
    settings = TextQASettings("hotpotqa", "fake", "bm25", 1, False, context="paragraphs", paragraphs=2)
    shown = shown_context(data.items[0], settings, None)
    assert {s.paragraph.title for s in shown.sentences} == {"Film X", "Anne Dupont (director)"}
    assert len(shown.sentences) == 5 and shown.paragraphs == (2, 1)
    llm = FakeLLM(reader)
    run_textqa(data, tmp_path / "out", settings, llm)
    assert "She writes." in llm.calls[0].messages[-1].content  # the whole paragraph, not only its ranked sentences
    journal = [json.loads(line) for line in (tmp_path / "out" / JOURNAL).read_text(encoding="utf-8").splitlines()]
    assert journal[0]["settings"]["context"] == "paragraphs" and journal[0]["settings"]["paragraphs"] == 2
    assert journal[1]["answers"]["baseline"]["paragraphs"] == [2, 1]
    full = json.loads((tmp_path / "out/baseline/prediction.json").read_text(encoding="utf-8"))
    cited = json.loads((tmp_path / "out/baseline/prediction.cited.json").read_text(encoding="utf-8"))
    assert cited["sp"]["b1"] == [["Anne Dupont (director)", 1]]
    assert full["sp"] == cited["sp"]  # no completion rule is on by default with whole paragraphs
    # the ranked-sentences context (the default): one sentence + its paragraph's first, no paragraphs recorded
    old = TextQASettings("hotpotqa", "fake", "bm25", 1, False)
    shown_old = shown_context(data.items[0], old, None)
    assert shown_old.paragraphs == () and len(shown_old.sentences) <= 2


class SeenSource:
    """A TripleSource reading one triple (title, says, sentence) from each sentence, recording what it was given."""

    def __init__(self) -> None:
        self.seen: list[Sentence] = []

    def extract(self, sentences: Sequence[Sentence]) -> list[SourcedTriple]:
        self.seen.extend(sentences)
        return [
            SourcedTriple(KGTriple(f"t{i}", s.doc_id, "", "says", s.text, ""), s.doc_id, s.index, (s.start, s.end))
            for i, s in enumerate(sentences)
        ]


def test_the_kg_path_reads_the_chosen_paragraphs(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", [BRIDGE]))

    def model(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        if "triples" in schema["properties"]:
            ids = re.findall(r"^\[(T\d+)\] \((.*)\)$", messages[-1].content, re.MULTILINE)
            return {"triples": [i for i, t in ids if "born in" in t][:1] or [ids[0][0]], "answer": "Lyon"}
        return reader(messages, schema)

    source = SeenSource()
    settings = TextQASettings("hotpotqa", "fake", "bm25", 1, True, context="paragraphs", paragraphs=2)
    summary = run_textqa(data, tmp_path / "out", settings, FakeLLM(model), triple_source=source)
    assert {s.doc_id for s in source.seen} == {"Film X", "Anne Dupont (director)"} and len(source.seen) == 5
    kg = summary.outcomes[0].answers["kg"]
    assert kg.paragraphs == (2, 1) and kg.answer == "Lyon"
