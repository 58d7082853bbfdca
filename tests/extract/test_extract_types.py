"""Node types: values, relation-implied object types and name rules by the program; the rest by one LLM call."""

from __future__ import annotations

from kgreason.extract.node_types import llm_types, object_type_by_relation, rule_type
from kgreason.llm.fake import FakeFailure, FakeLLM


def test_program_types_values_countries_designations_and_head_nouns() -> None:
    assert rule_type("2006年12月15日") == "时间"
    assert rule_type("1093公里") == "数值"
    assert rule_type("美国") == "国家"
    assert rule_type("F-35") == "武器装备" and rule_type("MQ-9B") == "武器装备"
    assert rule_type("洛克希德·马丁公司") == "组织机构"
    assert rule_type("环太平洋演习") == "作战行动"
    assert rule_type("闪电II") is None
    assert object_type_by_relation("简称") == "名称" and object_type_by_relation("舷号") == "编号"


def test_llm_types_the_rest_in_order_and_counts_a_failed_call() -> None:
    fake = FakeLLM([{"types": ["人物", "地点"]}])
    types, failed = llm_types(fake, "标题", ["约翰·阿奎利诺", "夏威夷"])
    assert types == {"约翰·阿奎利诺": "人物", "夏威夷": "地点"} and failed == 0
    schema = fake.calls[0].schema["properties"]["types"]
    assert schema["minItems"] == schema["maxItems"] == 2
    types, failed = llm_types(FakeLLM([FakeFailure("timeout")]), "标题", ["某物"])
    assert types == {} and failed == 1
    assert llm_types(None, "标题", ["某物"]) == ({}, 0)
