"""Ensemble voting at the caller's level, ties by member order, agreement as confidence."""

from __future__ import annotations

from typing import Any

from kgreason.llm import ChatMessage, EnsembleLLM, FakeFailure, FakeLLM, complete_json_voted

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string", "enum": ["成都飞机工业集团", "沈阳飞机工业集团", "中国航空工业集团"]},
        "path": {"type": "array", "items": {"type": "integer"}, "maxItems": 3},
    },
    "required": ["answer", "path"],
    "additionalProperties": False,
}
MSGS = [ChatMessage("user", "歼-20的研制单位隶属于哪个集团？")]
CHENGDU = "成都飞机工业集团"
AVIC = "中国航空工业集团"


def member(name: str, reply: Any) -> FakeLLM:
    return FakeLLM([reply], name=name)


def test_majority_wins_and_agreement_is_reported() -> None:
    ens = EnsembleLLM(
        [
            member("a", {"answer": CHENGDU, "path": [0]}),
            member("b", {"answer": AVIC, "path": [0, 1]}),
            member("c", {"answer": AVIC, "path": [0, 2]}),
        ]
    )
    result = ens.complete_json(MSGS, SCHEMA, vote_key=lambda v: v["answer"])
    assert result.ok and result.value == {"answer": AVIC, "path": [0, 1]}  # value of the first winning voter
    assert abs(result.confidence - 2 / 3) < 1e-9
    assert [b.agrees for b in result.ballots] == [False, True, True]
    assert result.model == "ensemble(fake:a,fake:b,fake:c)"


def test_vote_level_is_chosen_by_the_caller() -> None:
    replies = [{"answer": AVIC, "path": [0, 1]}, {"answer": AVIC, "path": [0, 2]}, {"answer": CHENGDU, "path": [0, 2]}]
    by_path = EnsembleLLM([member(n, r) for n, r in zip("abc", replies, strict=True)])
    result = by_path.complete_json(MSGS, SCHEMA, vote_key=lambda v: v["path"])
    assert result.ok and result.value["path"] == [0, 2] and result.value["answer"] == AVIC
    whole = EnsembleLLM([member(n, r) for n, r in zip("abc", replies, strict=True)])
    assert whole.complete_json(MSGS, SCHEMA).confidence == 1 / 3  # default key: the whole value


def test_tie_goes_to_member_order() -> None:
    ens = EnsembleLLM(
        [
            member("a", {"answer": CHENGDU, "path": []}),
            member("b", {"answer": AVIC, "path": []}),
            member("c", {"answer": AVIC, "path": []}),
            member("d", {"answer": CHENGDU, "path": []}),
        ],
        parallel=False,
    )
    result = ens.complete_json(MSGS, SCHEMA, vote_key=lambda v: v["answer"])
    assert result.ok and result.value["answer"] == CHENGDU and result.confidence == 0.5


def test_failed_members_count_against_agreement() -> None:
    ens = EnsembleLLM(
        [
            member("a", FakeFailure("timeout")),
            member("b", {"answer": AVIC, "path": [1]}),
            member("c", "不是JSON"),
        ]
    )
    result = ens.complete_json(MSGS, SCHEMA, vote_key=lambda v: v["answer"])
    assert result.ok and result.value["answer"] == AVIC and abs(result.confidence - 1 / 3) < 1e-9
    assert [b.failure_kind for b in result.ballots] == ["timeout", None, "invalid_json"]


def test_all_members_failing_gives_a_typed_failure() -> None:
    kinds = ["timeout", "unavailable", "timeout"]
    ens = EnsembleLLM([member(name, FakeFailure(kind)) for name, kind in zip("abc", kinds, strict=True)])
    result = ens.complete_json(MSGS, SCHEMA)
    assert not result.ok and result.kind == "timeout"
    assert "fake:b: unavailable" in result.message


def test_usage_is_summed() -> None:
    ens = EnsembleLLM([member("a", {"answer": AVIC, "path": []}), member("b", {"answer": AVIC, "path": []})])
    result = ens.complete_json(MSGS, SCHEMA)
    assert result.ok and result.usage.prompt_tokens == 2 * int(len(MSGS[0].content) * 0.5)


def test_complete_json_voted_works_for_single_models_too() -> None:
    single = FakeLLM([{"answer": AVIC, "path": []}])
    result = complete_json_voted(single, MSGS, SCHEMA, vote_key=lambda v: v["answer"])
    assert result.ok and result.confidence == 1.0 and result.ballots == ()
    ens = EnsembleLLM([member("a", {"answer": AVIC, "path": [1]}), member("b", {"answer": AVIC, "path": [2]})])
    voted = complete_json_voted(ens, MSGS, SCHEMA, vote_key=lambda v: v["answer"])
    assert voted.ok and voted.confidence == 1.0


def test_a_key_function_that_cannot_read_a_value_abstains() -> None:
    ens = EnsembleLLM([member("a", {"answer": AVIC, "path": []}), member("b", {"answer": AVIC, "path": [3]})])
    result = ens.complete_json(MSGS, SCHEMA, vote_key=lambda v: v["path"][0])
    assert result.ok and result.value["path"] == [3] and result.confidence == 0.5
