"""`run_textqa` with a fake model: both paths, outputs in every format, resume, failures, and the KG path with a
fake TripleSource."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from textqa_samples import HOTPOT, MUSIQUE, TWOWIKI, write_json, write_jsonl

from kgreason.data.provenance import Sentence, SourcedTriple
from kgreason.data.records import KGTriple
from kgreason.errors import KgreasonError
from kgreason.llm.accounting import AccountedLLM, Accounting
from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.run import JOURNAL, TextQASettings, run_textqa
from kgreason.textqa.score import score_file

LINE = re.compile(r"^\[(S\d+)\] \(([^)]*)\) (.*)$", re.MULTILINE)


def reader(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """Cites the shown sentences that mention a word of the gold answer (or 'drama' for the yes/no question)."""
    text = messages[-1].content
    if "Knowledge graph triples" in text:
        ids = re.findall(r"^\[(T\d+)\] \(([^)]*)\)$", text, re.MULTILINE)
        chosen = [i for i, t in ids if "Lyon" in t or "directed" in t or "mother" in t][:2] or [ids[0][0]]
        return {"triples": chosen, "answer": "Lyon"}
    shown = LINE.findall(text)
    if "yes/no" in text:
        return {"steps": [{"question": "Both dramas?", "answer": "yes", "sentences": [shown[0][0]]}], "answer": "yes"}
    cited = [k for k, _, s in shown if "born in" in s or "directed" in s or "mother" in s] or [shown[0][0]]
    return {
        "steps": [{"question": "Who directed it, where born?", "answer": "Lyon", "sentences": cited[:3]}],
        "answer": "Lyon.",
    }


class FakeTriples:
    """One triple per sentence that has 'directed' or 'born in': (title, relation, object)."""

    def __init__(self) -> None:
        self.seen: list[Sentence] = []

    def extract(self, sentences: Sequence[Sentence]) -> list[SourcedTriple]:
        self.seen.extend(sentences)
        out = []
        for s in sentences:
            for rel in ("directed by", "born in"):
                if rel in s.text:
                    obj = s.text.split(rel, 1)[1].strip(" .")
                    triple = KGTriple(f"t{len(out)}", s.doc_id, "", rel, obj, "")
                    out.append(SourcedTriple(triple, s.doc_id, s.index, (s.start, s.end)))
        return out


def settings(dataset: str, *, kg: bool = False) -> TextQASettings:
    """The ranked-sentences context and the single-call reader for every question (the paragraph context is tested
    in test_textqa_paragraphs.py, comparisons by parts in test_textqa_by_parts.py)."""
    return TextQASettings(
        dataset=dataset,
        llm="fake",
        retriever="bm25",
        top_k=8,
        kg_path=kg,
        context="sentences",
        compare_by_parts=False,
        bridge_by_parts=False,
    )


def test_hotpot_run_writes_both_formats_and_scores(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", HOTPOT))
    accounting = Accounting()
    llm = AccountedLLM(FakeLLM(reader), accounting)
    summary = run_textqa(data, tmp_path / "out", settings("hotpotqa"), llm, accounting=accounting)
    assert summary.failures == 0 and len(summary.outcomes) == 2
    assert summary.outcomes[0].prompt_tokens > 0
    prediction = json.loads((tmp_path / "out/baseline/prediction.json").read_text(encoding="utf-8"))
    assert prediction["answer"] == {"h1": "Lyon", "h2": "yes"}
    assert prediction["sp"]["h1"] == [["Film X", 0], ["Anne Dupont", 1]]
    # both hops cited: the default completion adds nothing (textqa.support; tested in test_textqa_support.py)
    cited = json.loads((tmp_path / "out/baseline/prediction.cited.json").read_text(encoding="utf-8"))
    assert cited["sp"] == prediction["sp"]
    answers = json.loads((tmp_path / "out/baseline/answers.json").read_text(encoding="utf-8"))
    first = answers[0]
    assert [(s["title"], s["sent_id"], s["added_by"]) for s in first["supporting_sentences"]] == [
        ("Film X", 0, None),
        ("Anne Dupont", 1, None),
    ]
    assert first["final_answer"] == "Lyon" and first["ground_truth"] == "Lyon"
    assert first["sub_questions_source"] == "llm-decomposition"
    assert first["sub_questions"][0]["relevant_chunks"][1] == {
        "title": "Anne Dupont",
        "chunk": ["She was born in Lyon."],
    }
    assert "Answer: Lyon" in first["Inference_process"]
    score = score_file(tmp_path / "out/baseline/prediction.json", data)
    assert score.metrics["sp_em"] == 0.5 and score.metrics["em"] == 1.0
    assert not (tmp_path / "out/kg").exists()  # no TripleSource: no KG path, and nothing faked


def test_resume_skips_done_questions_and_refuses_other_settings(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", HOTPOT))
    run_textqa(data, tmp_path / "out", settings("hotpotqa"), FakeLLM(reader), limit=1)
    second = FakeLLM(reader)
    summary = run_textqa(data, tmp_path / "out", settings("hotpotqa"), second)
    assert summary.resumed == 1 and len(second.calls) == 1 and len(summary.outcomes) == 2
    with (tmp_path / "out" / JOURNAL).open("a", encoding="utf-8") as fh:
        fh.write('{"kind": "question", "id": "h9", "answ')  # a torn last line is skipped
    assert len(run_textqa(data, tmp_path / "out", settings("hotpotqa"), FakeLLM(reader)).outcomes) == 2
    with pytest.raises(KgreasonError, match="top_k: 8 -> 3"):
        run_textqa(
            data,
            tmp_path / "out",
            TextQASettings("hotpotqa", "fake", "bm25", 3, False, context="sentences", compare_by_parts=False),
            FakeLLM(reader),
        )


def test_failed_calls_give_empty_answers_and_count(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "h.json", HOTPOT))
    summary = run_textqa(data, tmp_path / "out", settings("hotpotqa"), FakeLLM([FakeFailure("timeout")] * 2))
    assert summary.failures == 2
    answers = json.loads((tmp_path / "out/baseline/answers.json").read_text(encoding="utf-8"))
    assert answers[0]["final_answer"] == "Unavailable" and answers[0]["Inference_process"] == "Unavailable"
    # timeouts are asked again on a resume; a reply that broke the schema is not
    again = FakeLLM(reader)
    assert run_textqa(data, tmp_path / "out", settings("hotpotqa"), again).failures == 0 and len(again.calls) == 2
    assert run_textqa(data, tmp_path / "o2", settings("hotpotqa"), FakeLLM(["not json"] * 2)).failures == 2
    assert run_textqa(data, tmp_path / "o2", settings("hotpotqa"), FakeLLM([])).failures == 2


def test_musique_prediction_lines(tmp_path: Path) -> None:
    data = load_textqa(write_json(tmp_path / "m.json", MUSIQUE))
    run_textqa(data, tmp_path / "out", settings("musique"), FakeLLM(reader))
    lines = (tmp_path / "out/baseline/prediction.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[0])
    assert record == {
        "id": "2hop__1_2",
        "predicted_answer": "Lyon",
        "predicted_support_idxs": [0, 1],
        "predicted_answerable": True,
    }


def test_kg_path_with_a_fake_triple_source(tmp_path: Path) -> None:
    data = load_textqa(write_jsonl(tmp_path / "w.jsonl", TWOWIKI))
    source = FakeTriples()
    summary = run_textqa(data, tmp_path / "out", settings("2wiki", kg=True), FakeLLM(reader), triple_source=source)
    kg = summary.outcomes[0].answers["kg"]
    assert kg.evidence == (("Film X", "directed by", "Anne Dupont"),) and kg.steps_source == "evidence-chain"
    assert source.seen and all(isinstance(s, Sentence) for s in source.seen)
    prediction = json.loads((tmp_path / "out/kg/prediction.json").read_text(encoding="utf-8"))
    assert prediction["evidence"]["w1"] == [["Film X", "directed by", "Anne Dupont"]]
    assert prediction["sp"]["w1"] == [["Film X", 0]]  # the sentence of the evidence triple
    answers = json.loads((tmp_path / "out/kg/answers.json").read_text(encoding="utf-8"))
    assert answers[0]["sub_questions"][0]["sub_question"] == "directed by of Film X?"
    assert (tmp_path / "out/baseline/prediction.json").exists()
