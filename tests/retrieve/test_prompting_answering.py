"""Relevance prompts, the schema-bound choice, answer assembly and the benchmark loop (with a fake LLM)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mecha_fakes import CharEmbedder

from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.schema import validate
from kgreason.llm.types import ChatMessage
from kgreason.mecha.answering import answer_text, choose_top, choose_with_llm, expand_comparison
from kgreason.mecha.bench import SETUPS, Scorers, format_table, results_json, run_bench
from kgreason.mecha.data import SubgraphIndex, load_mecha_kg, load_mecha_qa
from kgreason.mecha.prompts import (
    build_choice_request,
    build_relevance_prompt,
    choice_schema,
    display_order,
    format_triple,
)
from kgreason.retrieve.embedder import CosineTripleScorer
from kgreason.retrieve.lexical import BM25TripleScorer

FIX = Path(__file__).parent.parent / "fixtures" / "mecha"
TRIPLES = [("灰铸铁", "密度", "7"), ("灰铸铁", "熔点", "1200℃"), ("灰铸铁", "代号", "HT")]


def test_format_triple() -> None:
    assert format_triple(TRIPLES[1], 0.876) == "[灰铸铁, 熔点, 1200℃, 与问题的相关性: 0.88]"
    assert format_triple(TRIPLES[1]) == "[灰铸铁, 熔点, 1200℃]"
    assert format_triple(("a" * 10, "r", "o"), max_chars=4) == "[aaa…, r, o]"


def test_paper_prompt_sorted_ascending_most_relevant_last() -> None:
    prompt = build_relevance_prompt("灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1])
    assert prompt.splitlines() == [
        "三元组:",
        "[灰铸铁, 代号, HT, 与问题的相关性: 0.10]",
        "[灰铸铁, 密度, 7, 与问题的相关性: 0.20]",
        "[灰铸铁, 熔点, 1200℃, 与问题的相关性: 0.70]",
        "问题: 灰铸铁的熔点是多少？",
        "答案:",
    ]
    no_scores = build_relevance_prompt("q", TRIPLES, [0.2, 0.7, 0.1], show_scores=False).splitlines()
    assert no_scores[1:4] == ["[灰铸铁, 代号, HT]", "[灰铸铁, 密度, 7]", "[灰铸铁, 熔点, 1200℃]"]
    no_sort = build_relevance_prompt("q", TRIPLES, [0.2, 0.7, 0.1], sort=False).splitlines()
    assert no_sort[1] == "[灰铸铁, 密度, 7, 与问题的相关性: 0.20]"
    assert display_order([0.5, 0.5, 0.1], 3) == [2, 0, 1]
    assert display_order(None, 2) == [0, 1]


def test_choice_request_ids_follow_display_order() -> None:
    req = build_choice_request("灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1])
    user = req.messages[-1].content
    assert "T3 [灰铸铁, 熔点, 1200℃, 与问题的相关性: 0.70]" in user
    assert user.index("T3 [") < user.index("问题: 灰铸铁的熔点是多少？")
    assert req.ids == {"T1": 2, "T2": 0, "T3": 1}
    assert req.schema["properties"]["triple"]["enum"] == ["T1", "T2", "T3"]
    assert req.chosen({"triple": "T3"}) == [1]
    assert req.chosen({"triple": "T9"}) == [] and req.chosen("junk") == []
    with pytest.raises(ValueError):
        build_choice_request("q", [], None)


def test_descending_ids_keep_the_line_order_and_name_the_last_line_t1() -> None:
    req = build_choice_request("灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1], ids_descending=True)
    lines = [x for x in req.messages[-1].content.splitlines() if x.startswith("T")]
    assert lines == [
        "T3 [灰铸铁, 代号, HT, 与问题的相关性: 0.10]",
        "T2 [灰铸铁, 密度, 7, 与问题的相关性: 0.20]",
        "T1 [灰铸铁, 熔点, 1200℃, 与问题的相关性: 0.70]",
    ]
    assert req.ids == {"T3": 2, "T2": 0, "T1": 1}
    assert req.chosen({"triple": "T1"}) == [1]
    llm = FakeLLM([{"triple": "T1"}])
    choice = choose_with_llm(llm, "灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1], ids_descending=True)
    assert choice.indices == (1,)


def test_choice_labels_relations_and_triples() -> None:
    req = build_choice_request("灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1], label_style="relation")
    assert req.schema["properties"]["triple"]["enum"] == ["代号", "密度", "熔点"]
    assert "[灰铸铁, 熔点, 1200℃, 与问题的相关性: 0.70]" in req.messages[-1].content
    assert req.chosen({"triple": "熔点"}) == [1]
    cands = [("灰铸铁", "代号", "HT"), ("可锻铸铁", "代号", "KT"), ("灰铸铁", "密度", "7")]
    shared = build_choice_request("HT是什么？", cands, None, label_style="relation")
    assert shared.schema["properties"]["triple"]["enum"] == ["灰铸铁的代号", "可锻铸铁的代号", "密度"]
    same = [("a", "r", "x" * 50 + "1"), ("a", "r", "x" * 50 + "2")]
    full = build_choice_request("q", same, None, label_style="triple", label_chars=10)
    labels = full.schema["properties"]["triple"]["enum"]
    assert len(set(labels)) == 2 and full.chosen({"triple": labels[1]}) == [1]
    many = choice_schema(["T1", "T2"], 3)
    assert many["properties"]["triples"]["maxItems"] == 2
    assert validate({"triples": ["T1", "T2"]}, many) == []


def test_choose_with_llm_and_failures() -> None:
    llm = FakeLLM([{"triple": "T3"}, FakeFailure("timeout")])
    choice = choose_with_llm(llm, "灰铸铁的熔点是多少？", TRIPLES, [0.2, 0.7, 0.1])
    assert choice.indices == (1,) and choice.failure is None
    failed = choose_with_llm(llm, "q", TRIPLES, None)
    assert failed.indices == () and failed.failure is not None and failed.failure.startswith("timeout")
    assert choose_with_llm(llm, "q", [], None).indices == ()
    assert choose_with_llm(llm, "q", TRIPLES[:1], None).indices == (0,)  # no call for a single candidate
    assert len(llm.calls) == 2
    assert choose_top([0.1, 0.9, 0.9]).indices == (1,)
    assert choose_top([]).indices == ()


def test_answer_text() -> None:
    assert answer_text([TRIPLES[1]], ["灰铸铁"]) == "1200℃"
    assert answer_text([TRIPLES[2]], ["HT"]) == "灰铸铁"
    assert answer_text([], ["x"]) == ""
    two = answer_text([("灰铸铁", "密度", "7"), ("白口铸铁", "密度", "7.55")], ["灰铸铁", "白口铸铁"])
    assert two == "灰铸铁的密度是7；白口铸铁的密度是7.55"


def test_expand_comparison_adds_same_relation_of_other_entities() -> None:
    cands = [("灰铸铁", "密度", "7"), ("灰铸铁", "熔点", "1200")]
    cands += [("白口铸铁", "密度", "7.55"), ("白口铸铁", "熔点", "x")]
    assert expand_comparison([2], cands, ["灰铸铁", "白口铸铁"]) == [2, 0]
    assert expand_comparison([1], cands, ["灰铸铁"]) == [1]
    assert expand_comparison([], cands, ["灰铸铁", "白口铸铁"]) == []


def _fake_reply(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    # picks the last listed triple: with sorted prompts that is the most relevant one
    return {"triple": schema["properties"]["triple"]["enum"][-1]}


def test_run_bench_with_fake_llm(tmp_path: Path) -> None:
    kg = load_mecha_kg(FIX / "kg.txt")
    items = load_mecha_qa(FIX / "qa.jsonl")
    index = SubgraphIndex(kg)
    emb = CharEmbedder()
    scorers = Scorers(cosine=CosineTripleScorer(emb), bm25=BM25TripleScorer(), trained=BM25TripleScorer())
    setups = [SETUPS[name] for name in ("emb-cosine", "bm25", "ours", "ours-top5", "llm-kg")]
    judged: list[str] = []

    def judge(question: str, answer: str, reference: str) -> int | None:
        judged.append(answer)
        return 4

    summaries, results = run_bench(items, index, setups, scorers, FakeLLM(_fake_reply), judge=judge)
    assert [s.setup for s in summaries] == ["emb-cosine", "bm25", "ours", "ours-top5", "llm-kg"]
    ours = next(s for s in summaries if s.setup == "ours")
    assert ours.n == 4 and ours.accuracy == 1.0 and ours.llm_score == 4.0 and ours.tokens_per_question > 0
    comparison = next(r for r in results if r.setup == "ours" and r.index == 2)
    assert len(comparison.chosen) == 2 and comparison.gold_recall == 1.0
    assert len(judged) == 20
    table = format_table(summaries)
    assert table.splitlines()[0].startswith("| setup |") and "| ours | 4 | 100.00% |" in table
    json.dumps(results_json({"x": 1}, summaries, results), ensure_ascii=False)
    no_llm, _ = run_bench(items, index, setups, scorers, None)
    assert [s.setup for s in no_llm] == ["emb-cosine", "bm25"]


def test_gate_skips_the_llm_when_the_ranker_is_confident() -> None:
    from dataclasses import replace

    kg = load_mecha_kg(FIX / "kg.txt")
    items = load_mecha_qa(FIX / "qa.jsonl")
    index = SubgraphIndex(kg)
    scorers = Scorers(trained=BM25TripleScorer())
    gated = SETUPS["ours-gated"]
    never = FakeLLM(_fake_reply)
    run_bench(items, index, [replace(gated, gate=0.0)], scorers, never)
    assert never.calls == []
    always = FakeLLM(_fake_reply)
    summaries, _ = run_bench(items, index, [replace(gated, gate=1.01)], scorers, always)
    assert len(always.calls) == 2  # the two questions with several candidates
    assert summaries[0].n == 4


def test_ids_down_setup_numbers_the_most_relevant_line_t1() -> None:
    """A model that always answers `T1` is right with `ours-ids-down` (T1 = the last, most relevant line) and picks
    the least relevant line with `ours` (T1 = the first line)."""
    kg = load_mecha_kg(FIX / "kg.txt")
    items = load_mecha_qa(FIX / "qa.jsonl")
    index = SubgraphIndex(kg)
    scorers = Scorers(trained=BM25TripleScorer())

    def first_id(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        return {"triple": "T1"}

    summaries, results = run_bench(items, index, [SETUPS["ours-ids-down"], SETUPS["ours"]], scorers, FakeLLM(first_id))
    down, up = summaries
    assert down.accuracy == 1.0 and up.accuracy < 1.0
    _, ranker = run_bench(items, index, [SETUPS["rem"]], scorers, None)
    assert [r.chosen for r in results if r.setup == "ours-ids-down"] == [r.chosen for r in ranker]


def test_set_choice_schema_is_bounded_and_says_how_many() -> None:
    schema = choice_schema(["T1", "T2", "T3"], 5, 2)["properties"]["triples"]
    assert (schema["minItems"], schema["maxItems"]) == (2, 3)
    assert choice_schema(["T1", "T2"], 2, 9)["properties"]["triples"]["minItems"] == 2
    req = build_choice_request("q", TRIPLES, [0.2, 0.7, 0.1], max_select=3, min_select=2)
    assert "这个问题需要2到3个三元组" in req.messages[-1].content
    assert req.chosen({"triples": ["T3", "T2", "T3"]}) == [1, 0]
    assert validate({"triples": ["T1"]}, req.schema)  # one is too few: a schema error


def test_ours_set_lets_the_llm_choose_a_bounded_set() -> None:
    """The fake model takes as many of the last (most relevant) lines as the schema allows at most."""
    kg = load_mecha_kg(FIX / "real_kg.txt")
    items = load_mecha_qa(FIX / "real_qa.jsonl")
    index = SubgraphIndex(kg)
    scorers = Scorers(trained=BM25TripleScorer())
    bounds: list[tuple[int, int]] = []

    def most_relevant(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        if "triple" in schema["properties"]:
            return {"triple": schema["properties"]["triple"]["enum"][-1]}
        spec = schema["properties"]["triples"]
        bounds.append((spec["minItems"], spec["maxItems"]))
        return {"triples": spec["items"]["enum"][-spec["maxItems"] :]}

    llm = FakeLLM(most_relevant)
    summaries, results = run_bench(items, index, [SETUPS["ours-set"]], scorers, llm)
    assert summaries[0].n == 4 and llm.calls
    assert all(1 <= lo <= hi for lo, hi in bounds) and any(hi > 1 for _, hi in bounds)
    listed = next(r for r in results if r.question.startswith("材料丙"))
    assert len(listed.chosen) == 3 and listed.correct  # the set of three values
    same = next(r for r in results if "是否相同" in r.question)
    assert same.correct and same.verdict is not None and "SLM" in same.answer


def test_rem_selects_what_each_question_needs_and_top1_does_not() -> None:
    kg = load_mecha_kg(FIX / "real_kg.txt")
    items = load_mecha_qa(FIX / "real_qa.jsonl")
    index = SubgraphIndex(kg)
    scorers = Scorers(trained=BM25TripleScorer())
    summaries, _ = run_bench(items, index, [SETUPS["rem"], SETUPS["rem-top1"]], scorers, None)
    need, top1 = summaries
    assert need.accuracy == 1.0 and need.mean_chosen > top1.mean_chosen and top1.accuracy < 1.0
    assert need.by_gold["2"]["accuracy"] == 1.0 and need.by_gold["3-4"]["n"] == 1
    table = format_table(summaries)
    assert "| rem | 2 | 2 | 100.00% |" in table and "chosen / gold" in table


def _wide_subgraph(tmp_path: Path) -> tuple[SubgraphIndex, list[Any]]:
    """One invented alloy with eight properties; the question asks for two of them."""
    props = [("硬度", "HB200"), ("代号", "ZX"), ("颜色", "银灰"), ("用途", "刀具"), ("产地", "临江")]
    props += [("导热率", "50"), ("密度", "7.9"), ("熔点", "1400℃")]  # the asked ones last: list place != KG place
    (tmp_path / "kg.txt").write_text(
        "\n".join(json.dumps(["镍钒合金", r, o], ensure_ascii=False) for r, o in props), encoding="utf-8"
    )
    qa = {"问题": "镍钒合金的密度和熔点分别是多少？", "答案": "7.9，1400℃", "实体": ["镍钒合金"]}
    qa["对应的三元组"] = [["镍钒合金", "密度", "7.9"], ["镍钒合金", "熔点", "1400℃"]]
    (tmp_path / "qa.jsonl").write_text(json.dumps(qa, ensure_ascii=False) + "\n", encoding="utf-8")
    return SubgraphIndex(load_mecha_kg(tmp_path / "kg.txt")), list(load_mecha_qa(tmp_path / "qa.jsonl"))


def test_rem_gated_shows_the_llm_the_top_five_and_grows_its_pick_over_the_whole_subgraph(tmp_path: Path) -> None:
    from dataclasses import replace

    index, items = _wide_subgraph(tmp_path)
    scorers = Scorers(trained=BM25TripleScorer())
    shown: list[list[str]] = []

    def last_listed(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        ids = schema["properties"]["triple"]["enum"]
        shown.append(ids)
        return {"triple": ids[-1]}  # the most relevant line of an ascending listing

    llm = FakeLLM(last_listed)
    always = replace(SETUPS["rem-gated"], gate=1.01)
    _, results = run_bench(items, index, [always, SETUPS["rem"]], scorers, llm)
    asked, rem = results
    assert len(llm.calls) == 1 and len(shown[0]) == 5  # the LLM saw the five best of eight triples
    prompt = llm.calls[0].messages[-1].content
    first = asked.chosen[0]
    assert first[1] in ("密度", "熔点") and f"[{first[0]}, {first[1]}, {first[2]}" in prompt  # mapped back
    assert len(asked.chosen) >= 2  # grown to the two asked properties, as rem grows its own first triple
    never = FakeLLM(last_listed)
    _, sure = run_bench(items, index, [replace(SETUPS["rem-gated"], gate=0.0)], scorers, never)
    assert never.calls == [] and sure[0].chosen == rem.chosen  # above the gate it is rem


def test_ours_set_gated_is_rem_when_the_ranker_is_sure(tmp_path: Path) -> None:
    from dataclasses import replace

    index, items = _wide_subgraph(tmp_path)
    scorers = Scorers(trained=BM25TripleScorer())
    never = FakeLLM(_fake_reply)
    _, results = run_bench(items, index, [replace(SETUPS["ours-set-gated"], gate=0.0), SETUPS["rem"]], scorers, never)
    assert never.calls == []
    assert results[0].chosen == results[1].chosen and len(results[0].chosen) == 2
