"""Loading the three sets' original formats, lenient readings and bad records."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from textqa_samples import HOTPOT, MUSIQUE, TWOWIKI, write_json, write_jsonl

from kgreason.errors import DataError
from kgreason.textqa.context import context_sentences
from kgreason.textqa.loaders import load_textqa
from kgreason.textqa.sentences import split_sentences
from kgreason.textqa.unified import to_unified


def test_formats_are_detected_and_read(tmp_path: Path) -> None:
    hotpot = load_textqa(write_json(tmp_path / "h.json", HOTPOT))
    assert hotpot.dataset == "hotpotqa" and [i.id for i in hotpot.items] == ["h1", "h2"]
    assert hotpot.items[0].supporting_facts == (("Film X", 0), ("Anne Dupont", 1))
    wiki = load_textqa(write_jsonl(tmp_path / "w.jsonl", TWOWIKI))
    assert wiki.dataset == "2wiki" and wiki.items[0].evidences[1] == ("Anne Dupont", "mother", "Marie Dupont")
    musique = load_textqa(write_json(tmp_path / "m.json", MUSIQUE))
    item = musique.items[0]
    assert musique.dataset == "musique" and item.hop == 2 and item.supporting_paragraphs == (0, 1)
    assert item.gold_answers == ("Lyon", "Lyons") and item.answerable is True
    assert item.paragraphs[1].sentences == ("Anne Dupont was born in Lyon.", "She studied in Paris.")
    assert item.decomposition[1].paragraph == 1
    assert not (hotpot.warnings or wiki.warnings or musique.warnings)


def test_python_literal_strings_are_read_with_one_warning_per_field(tmp_path: Path) -> None:
    records = copy.deepcopy(HOTPOT)
    for r in records:
        r["context"] = repr(r["context"])  # Python literal, single quotes
        r["supporting_facts"] = json.dumps(r["supporting_facts"])
    data = load_textqa(write_json(tmp_path / "h.json", records))
    assert data.items[0].paragraphs[1].sentences[1] == " She was born in Lyon."
    # one warning per kind of leniency for the whole file, not one per record
    assert len(data.warnings) == 2 and all("2 record(s)" in w for w in data.warnings)
    assert "'context'" in data.warnings[0] and "'supporting_facts'" in data.warnings[1]


def test_bad_records_name_file_record_and_field(tmp_path: Path) -> None:
    records = copy.deepcopy(HOTPOT)
    records[1]["supporting_facts"] = [["Film X", "first"]]
    del records[0]["question"]
    path = write_json(tmp_path / "bad.json", records)
    with pytest.raises(DataError) as info:
        load_textqa(path)
    text = str(info.value)
    assert "bad.json, record #0, field 'question': missing" in text
    assert "record #1, field 'supporting_facts[0]'" in text


def test_unknown_shape_and_format_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot tell the data set"):
        load_textqa(write_json(tmp_path / "x.json", [{"q": 1}]))
    with pytest.raises(DataError, match="unknown format"):
        load_textqa(write_json(tmp_path / "h.json", HOTPOT), "squad")
    with pytest.raises(DataError, match="duplicate id 'h1'"):
        load_textqa(write_json(tmp_path / "d.json", [HOTPOT[0], HOTPOT[0]]))


def test_unified_format_keeps_chunks_facts_and_decomposition(tmp_path: Path) -> None:
    hotpot = to_unified(load_textqa(write_json(tmp_path / "h.json", HOTPOT)).items[0])
    assert hotpot["chunks"][0] == {
        "id": 0,
        "title": "Film X",
        "chunk": "Film X is a 1990 drama directed by Anne Dupont. It won a prize.",
    }
    assert hotpot["supporting_facts"][1] == {
        "id": 1,
        "title": "Anne Dupont",
        "chunk": "She was born in Lyon.",
        "sent_id": 1,
    }
    assert hotpot["decomposition"] == [] and hotpot["hop"] == 2
    musique = to_unified(load_textqa(write_json(tmp_path / "m.json", MUSIQUE)).items[0])
    assert [f["id"] for f in musique["supporting_facts"]] == [0, 1]
    assert musique["decomposition"][0] == {
        "question": "Who directed Film X?",
        "answer": "Anne Dupont",
        "paragraph_support_idx": 0,
    }


def test_sentence_splitting_and_offsets(tmp_path: Path) -> None:
    assert split_sentences("Mr. J. Smith went to St. Louis. He stayed.") == (
        "Mr. J. Smith went to St. Louis.",
        "He stayed.",
    )
    item = load_textqa(write_json(tmp_path / "h.json", HOTPOT)).items[0]
    sentences = context_sentences(item)
    assert [s.key for s in sentences][:3] == ["S1", "S2", "S3"]
    second = sentences[1]
    assert (
        second.sentence.text == "It won a prize."
        and item.paragraphs[0].text[second.sentence.start : second.sentence.end] == "It won a prize."
    )
