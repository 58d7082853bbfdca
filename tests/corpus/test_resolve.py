"""Reference resolution against the dialogue state: by the program where one entity fits, by the (fake) LLM under an
enum schema where several do, else the topic."""

from __future__ import annotations

from typing import Any

from kgreason.corpus.answer import CorpusAnswer
from kgreason.corpus.dialogue import DialogueState, Resolution, Salient
from kgreason.corpus.resolve import Resolver
from kgreason.llm import ChatMessage, FakeFailure, FakeLLM

NAMES = ("海鹰号航空母舰", "海鹰级航空母舰", "张海", "12式岸舰导弹", "海军打击导弹", "F-35A", "F-35B", "黑海对峙事件")


def link(question: str) -> list[tuple[int, int, str]]:
    """A stand-in for the corpus index: exact occurrences of the known names."""
    out = []
    for name in NAMES:
        i = question.find(name)
        if i >= 0:
            out.append((i, i + len(name), name))
    return sorted(out)


SHIP = Salient("海鹰号航空母舰", ("武器装备",), "mentioned")
SHIP_CLASS = Salient("海鹰级航空母舰", ("武器装备",), "answered")
CAPTAIN = Salient("张海", ("人物",), "answered")
MISSILES = (Salient("12式岸舰导弹", ("武器装备",), "answered"), Salient("海军打击导弹", ("武器装备",), "answered"))


def state_with(question: str, *entities: Salient) -> DialogueState:
    state = DialogueState()
    state.add(Resolution(question, (question,)), CorpusAnswer(question, "fact", "x"), entities)
    return state


def test_first_turn_is_not_rewritten_but_an_orphan_pronoun_is_reported() -> None:
    r = Resolver(link).resolve("它的舷号是什么？", DialogueState())
    assert not r.changed
    assert r.unresolved == ("它",)


def test_thing_pronoun_with_one_candidate_is_resolved_by_the_program() -> None:
    state = state_with("谁是海鹰号航空母舰的舰长？", SHIP, CAPTAIN)
    r = Resolver(link).resolve("它的舷号是什么？", state)
    assert r.resolved == ("海鹰号航空母舰的舷号是什么？",)
    assert (r.how, r.by, r.referents) == ("pronoun", "program", ("海鹰号航空母舰",))


def test_person_pronoun_skips_things() -> None:
    state = state_with("谁是海鹰号航空母舰的舰长？", SHIP, CAPTAIN)
    assert Resolver(link).resolve("他的职务是什么？", state).resolved == ("张海的职务是什么？",)


def test_demonstrative_kind_word_narrows_and_is_replaced_whole() -> None:
    state = state_with("张海在哪艘舰上？", Salient("张海", ("人物",), "mentioned"), SHIP)
    r = Resolver(link).resolve("该舰何时服役？", state)
    assert r.resolved == ("海鹰号航空母舰何时服役？",)
    assert r.how == "demonstrative"


def test_plural_demonstrative_asks_of_every_answered_member() -> None:
    state = state_with("哪些导弹参加了实弹射击？", *MISSILES)
    r = Resolver(link).resolve("那些导弹是谁研制的？", state)
    assert r.resolved == ("12式岸舰导弹是谁研制的？", "海军打击导弹是谁研制的？")


def test_ambiguous_reference_goes_to_the_llm_under_an_enum_schema() -> None:
    seen: dict[str, Any] = {}

    def reply(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
        seen["schema"] = schema
        seen["prompt"] = messages[-1].content
        return {"referent": "海鹰级航空母舰"}

    llm = FakeLLM(reply)
    state = state_with("海鹰号航空母舰属于哪个舰级？", SHIP, SHIP_CLASS)
    r = Resolver(link, llm).resolve("它的首舰是哪艘？", state)
    assert r.resolved == ("海鹰级航空母舰的首舰是哪艘？",)
    assert r.by == "llm"
    assert seen["schema"]["properties"]["referent"]["enum"] == ["海鹰号航空母舰", "海鹰级航空母舰"]
    assert "它的首舰是哪艘" in seen["prompt"]


def test_llm_failure_or_no_llm_falls_back_to_the_topic() -> None:
    state = state_with("海鹰号航空母舰属于哪个舰级？", SHIP, SHIP_CLASS)
    failing = FakeLLM([FakeFailure("timeout")])
    for resolver in (Resolver(link), Resolver(link, failing)):
        r = resolver.resolve("它的首舰是哪艘？", state)
        assert r.resolved == ("海鹰号航空母舰的首舰是哪艘？",)
        assert r.by == "default"


def test_llm_reply_outside_the_candidates_is_rejected_by_the_schema() -> None:
    state = state_with("海鹰号航空母舰属于哪个舰级？", SHIP, SHIP_CLASS)
    r = Resolver(link, FakeLLM([{"referent": "别的舰"}])).resolve("它的首舰是哪艘？", state)
    assert r.by == "default"


def test_entity_follow_up_replaces_the_same_slot() -> None:
    state = state_with("F-35A是哪一天首飞的？", Salient("F-35A", ("武器装备",), "mentioned"))
    r = Resolver(link).resolve("那F-35B呢？", state)
    assert r.resolved == ("F-35B是哪一天首飞的？",)
    assert r.how == "ellipsis"


def test_attribute_follow_up_and_zero_pronoun_attach_to_the_topic() -> None:
    state = state_with("海鹰号航空母舰的舷号是什么？", SHIP)
    assert Resolver(link).resolve("服役时间呢？", state).resolved == ("海鹰号航空母舰的服役时间",)
    assert Resolver(link).resolve("舰长是谁？", state).resolved == ("海鹰号航空母舰舰长是谁？",)


def test_continue_and_ordinal_follow_ups() -> None:
    state = state_with("黑海对峙事件发生在哪一天？", Salient("黑海对峙事件", ("事件",), "mentioned"))
    r = Resolver(link).resolve("后来呢？", state)
    assert (r.resolved, r.how) == (("黑海对峙事件后来怎么样了",), "continue")
    state = state_with("海鹰级航空母舰的首舰何时服役？", Salient("海鹰级航空母舰", ("武器装备",), "mentioned"))
    r = Resolver(link).resolve("第二艘呢？", state)
    assert (r.resolved, r.how) == (("海鹰级航空母舰的二号舰何时服役？",), "ordinal")


def test_words_that_only_contain_a_pronoun_are_not_references() -> None:
    state = state_with("海鹰号航空母舰的舷号是什么？", SHIP)
    r = Resolver(link).resolve("海鹰级航空母舰其中哪艘最早服役？", state)
    assert not r.changed
    # a pronoun-like character inside a linked name is not a reference either
    assert not Resolver(link).resolve("海鹰号航空母舰何时服役？", state).changed


def test_plural_pronoun_keeps_the_group_the_conversation_is_about() -> None:
    state = DialogueState()
    q = "12式岸舰导弹和海军打击导弹分别由谁发射？"
    launchers = (Salient("日本陆上自卫队", ("组织机构",), "answered"), Salient("第17旅", ("组织机构",), "answered"))
    mentioned = tuple(Salient(e.name, e.types, "mentioned") for e in MISSILES)
    state.add(Resolution(q, (q,)), CorpusAnswer(q, "fact", "x"), (*mentioned, *launchers))
    r = Resolver(link).resolve("它们的射程是多少？", state)
    assert r.resolved == ("12式岸舰导弹的射程是多少？", "海军打击导弹的射程是多少？")


def test_class_measure_wants_a_class_name() -> None:
    destroyer = Salient("捍卫者号驱逐舰", ("武器装备",), "mentioned")
    destroyer_class = Salient("45型驱逐舰", ("武器装备",), "answered")
    state = state_with("捍卫者号驱逐舰属于哪一型？", destroyer, destroyer_class)
    r = Resolver(link).resolve("这型驱逐舰主要承担什么任务？", state)
    assert r.resolved == ("45型驱逐舰主要承担什么任务？",)
    assert r.by == "program"


def test_relation_fit_decides_between_candidates_without_the_llm() -> None:
    accident = Salient("F-35B坠海事故", ("事件",), "mentioned")
    aircraft = Salient("F-35B", ("武器装备",), "answered")
    state = state_with("F-35B坠海事故涉事的是什么装备？", accident, aircraft)
    relations = {"F-35B坠海事故": frozenset({"涉事装备", "发生地点"}), "F-35B": frozenset({"作战半径", "首飞时间"})}
    llm = FakeLLM([])  # must not be asked: the KG's relations leave one candidate
    r = Resolver(link, llm, lambda name: relations.get(name, frozenset())).resolve("它的作战半径是多少？", state)
    assert r.resolved == ("F-35B的作战半径是多少？",)
    assert (r.by, llm.calls) == ("program", [])
