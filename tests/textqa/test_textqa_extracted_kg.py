"""The KG path with `kgreason extract`'s real reader as its TripleSource (the model faked): triples are read from
the retrieved sentences, grounded in them, and the evidence's sentences become the supporting facts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from textqa_samples import TWOWIKI, write_jsonl

from kgreason.extract.source import ExtractorSource, known_text
from kgreason.llm.fake import FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.run import TextQASettings, run_textqa

FACTS = {  # what a careful reader lists for each sentence of the 2Wiki sample
    "Film X is a 1990 drama directed by Anne Dupont.": ["Film X|director|Anne Dupont"],
    "Her mother was Marie Dupont.": ["Her|mother|Marie Dupont"],  # a pronoun: the paragraph's topic
    "Anne Dupont is a French director.": ["Anne Dupont|nationality|French", "Film X|made in|Paris"],  # 2nd: ungrounded
}


def model(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    props = schema["properties"]
    text = messages[-1].content
    if "triples" in props:  # the KG path's choice among the extracted triples
        ids = re.findall(r"^\[(T\d+)\] \(([^)]*)\)$", text, re.MULTILINE)
        chosen = [i for i, t in ids if "director" in t or "mother" in t]
        return {"triples": chosen, "answer": "Marie Dupont"}
    if "steps" in props:  # the baseline reader
        return {"steps": [], "answer": "Marie Dupont"}
    out = {}
    for key in props:  # an extraction window: one array of `subject|relation|object` per sentence
        line = re.search(rf"^\[{key[1:]}\] (.*)$", text, re.M)
        out[key] = FACTS.get(line.group(1).strip(), []) if line else []
    return out


def test_the_kg_path_reads_grounded_triples_from_the_retrieved_sentences(tmp_path: Path) -> None:
    data = load_textqa(write_jsonl(tmp_path / "w.jsonl", TWOWIKI))
    llm = FakeLLM(model)
    source = ExtractorSource(llm)
    settings = TextQASettings(dataset="2wiki", llm="fake", retriever="bm25", top_k=8, kg_path=True, context="sentences")
    summary = run_textqa(data, tmp_path / "out", settings, llm, triple_source=source)
    kg = summary.outcomes[0].answers["kg"]
    assert kg.answer == "Marie Dupont"
    # the pronoun became the paragraph's name; the triple no sentence supports was dropped
    assert set(kg.evidence) == {("Film X", "director", "Anne Dupont"), ("Anne Dupont", "mother", "Marie Dupont")}
    assert source.stats.ungrounded == 1 and source.stats.windows >= 2
    cited = json.loads((tmp_path / "out/kg/prediction.cited.json").read_text(encoding="utf-8"))
    assert sorted(cited["sp"]["w1"]) == [["Anne Dupont", 1], ["Film X", 0]]  # 2Wiki's gold supporting facts
    # two paragraphs cited: the default completion (the bridge rule) has nothing to add
    prediction = json.loads((tmp_path / "out/kg/prediction.json").read_text(encoding="utf-8"))
    assert prediction["sp"] == cited["sp"]


def test_known_text_puts_each_sentence_at_its_offsets() -> None:
    from kgreason.data.provenance import Sentence

    text = known_text([Sentence("p", 0, "A b.", 0, 4), Sentence("p", 2, "C d.", 10, 14)])
    assert text[0:4] == "A b." and text[10:14] == "C d." and text[4:10].strip() == "" and len(text) == 14
