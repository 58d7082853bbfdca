"""The LLM reads the question's asked type among the KG's node types (reason/reading.py): asked only where the
question asks for an entity without naming its kind; the type it reads moves the answer to a node of that type;
failures and odd replies read nothing. A deterministic fake model and an invented KG."""

from __future__ import annotations

from typing import Any

from kgreason.data.records import Dataset, Document, KGTriple, Question
from kgreason.kg.index import KGIndex
from kgreason.llm.fake import FakeFailure, FakeLLM
from kgreason.llm.types import ChatMessage
from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reading import OTHER, entity_types, needs_reading, read_question
from kgreason.reason.reasoner import QuestionResult, Reasoner

# Two facts of 星火号 that the question's words fit equally well: one ends on an event, one on an organisation.
ROWS: list[tuple[str, str, str, str, str]] = [
    ("星火号", "装备", "关联甲", "北港演习", "事件"),
    ("星火号", "装备", "关联乙", "南岭造船厂", "组织"),
    ("南岭造船厂", "组织", "位于", "南岭", "地点"),
    ("北港演习", "事件", "举行时间", "2015年5月", "时间"),
    ("白帆号", "装备", "关联乙", "南岭造船厂", "组织"),
]
QUESTION = "星火号关联的是什么对象？"  # `对象`: a kind the question names in words neither the KG nor the lexicon types
# the reading on (it is off by default); margin 0: the LLM never chooses among candidates, so only its reading can
# move the answer
READING = ReasonerConfig(llm_margin=0.0, llm_reads_question=True)


def dataset(question: str) -> Dataset:
    triples = tuple(KGTriple(f"t{i}", s, st, r, o, ot) for i, (s, st, r, o, ot) in enumerate(ROWS, start=1))
    return Dataset(
        root="memory",
        documents={"doc_01": Document("doc_01", "星火号参加了北港演习，由南岭造船厂建造。")},
        kgs={"doc_01": triples},
        questions=(Question("doc_01_001", "doc_01", question, "L2"),),
    )


def reads(type_name: str) -> FakeLLM:
    def reply(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        return {"type": type_name}

    return FakeLLM(reply)


def answer(llm: FakeLLM | None, question: str = QUESTION, config: ReasonerConfig | None = None) -> QuestionResult:
    ds = dataset(question)
    return Reasoner(ds, config or READING, llm=llm).answer(ds.questions[0])


def test_the_type_read_moves_the_answer_to_a_node_of_that_type() -> None:
    for type_name, expected in (("事件", "北港演习"), ("组织", "南岭造船厂")):
        llm = reads(type_name)
        result = answer(llm)
        assert result.record.answers == (expected,), type_name
        assert result.trace.reading.asked_type == type_name
        assert len(llm.calls) == 1


def test_the_prompt_lists_the_kgs_entity_types_with_an_example_and_the_schema_is_their_enum() -> None:
    llm = reads("事件")
    answer(llm)
    call = llm.calls[0]
    enum = call.schema["properties"]["type"]["enum"]
    assert set(enum) == {"装备", "事件", "组织", "地点", OTHER}  # values (时间) are not entity types
    user = call.messages[1].content
    assert f'"{QUESTION}"' in user and '"组织"（如："南岭造船厂"）' in user  # data quoted, never instructions


def test_not_asked_when_the_question_names_a_kg_kind_asks_for_a_value_or_an_attribute() -> None:
    # the KG's own type word; a date; an attribute (the relation names the answer)
    for question in ("星火号关联的是哪个组织？", "北港演习是什么时候举行的？", "星火号的关联是什么？"):
        llm = reads("事件")
        result = answer(llm, question)
        assert llm.calls == [], question
        assert not result.trace.reading.asked


def test_failures_other_and_the_named_entitys_type_read_nothing_and_the_config_turns_it_off() -> None:
    # 装备 is the type of 星火号, which the question names: the small model's usual echo, not used
    for reply in (FakeFailure("timeout"), {"type": OTHER}, {"type": "装备"}):
        result = answer(FakeLLM([reply]))
        assert result.trace.reading.asked and result.trace.reading.asked_type == ""
    llm = reads("事件")
    result = answer(llm, config=ReasonerConfig(llm_margin=0.0))  # the default: off
    assert llm.calls == [] and result.trace.reading.reason == "off in the config"


def test_entity_types_most_frequent_first_and_needs_reading() -> None:
    ds = dataset(QUESTION)
    index = KGIndex("doc_01", ds.kgs["doc_01"])
    types = entity_types(index)
    assert types[0] == ("装备", "星火号")  # two ships; the best-connected one is the example
    r = Reasoner(ds)
    _, analysis = r.analyse(ds.questions[0])
    assert needs_reading(analysis) and analysis.unknown_kind == "对象"
    assert read_question(None, analysis, index, max_tokens=8).reason == "no LLM configured"
