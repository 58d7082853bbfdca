"""`Corpus.answer`: documents found by the question's names, KGs joined with each triple's document kept, source
sentences, event accounts, and the not-found answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgreason.corpus import Corpus
from kgreason.corpus.join import join_kgs
from kgreason.errors import KgreasonError

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def corpus(corpus_dir: Path) -> Corpus:
    return Corpus.load(corpus_dir)


def test_finds_the_document_without_a_doc_id(corpus: Corpus) -> None:
    result = corpus.answer("海鹰号航空母舰的舷号是什么？")
    assert result.kind == "fact"
    assert result.answers == ("H01",)
    assert result.doc_ids == ("d2",)
    (step,) = result.evidence
    assert step.triple == ("海鹰号航空母舰", "舷号", "H01")
    assert step.doc_id == "d2"
    assert step.sentence is not None and "H01" in step.sentence


def test_doc_id_restricts_the_search(corpus: Corpus) -> None:
    assert corpus.answer("雷霆-9是哪一天首飞的？", "d1").answers == ("2001年3月5日",)
    # d2 knows 雷霆-9 but not its first flight
    assert "2001年3月5日" not in corpus.answer("雷霆-9是哪一天首飞的？", "d2").answers


def test_unknown_doc_id_is_a_clear_error(corpus: Corpus) -> None:
    with pytest.raises(KgreasonError, match=r"no document 'd9'.*d1, d2"):
        corpus.answer("雷霆-9由谁研制？", "d9")


def test_a_chain_across_two_documents_keeps_each_triples_document(corpus: Corpus) -> None:
    result = corpus.answer("第5中队装备的雷霆-9是哪一天首飞的？")
    assert result.answers == ("2001年3月5日",)
    assert set(result.doc_ids) == {"d1", "d2"}
    where = {step.triple: step.doc_id for step in result.evidence}
    assert where[("第5中队", "装备", "雷霆-9")] == "d2"
    assert where[("雷霆-9", "首飞时间", "2001年3月5日")] == "d1"


def test_a_name_shared_by_two_documents_does_not_join_them_when_one_suffices(corpus: Corpus) -> None:
    result = corpus.answer("雷霆-9由谁研制？")
    assert result.answers == ("北方飞机公司",)
    assert result.doc_ids == ("d1",)


def test_event_account_is_in_time_order_with_sentences(corpus: Corpus) -> None:
    result = corpus.answer("东海对峙事件的经过是什么？")
    assert result.kind == "account"
    relations = [s.triple[1] for s in result.evidence]
    assert relations.index("开始时间") < relations.index("结束时间")  # the KG lists the end first
    dated = [s.date for s in result.evidence if s.date]
    assert dated == ["2015年6月2日", "2015年6月3日"]
    assert "东海对峙事件结束于2015年6月3日" in result.text
    assert all(s.sentence for s in result.evidence)


def test_question_linking_nothing_gets_closest_names_not_a_crash(corpus: Corpus) -> None:
    result = corpus.answer("大和号的舷号？")
    assert result.kind == "not_found"
    assert not result.found
    assert result.text.startswith("在语料中未找到")
    assert "海鹰号航空母舰" in result.closest
    assert result.to_json()["closest"] == list(result.closest)


def test_sentence_found_when_the_text_shortens_the_name(corpus: Corpus) -> None:
    # the text writes 海鹰号 for 海鹰号航空母舰
    result = corpus.answer("张海隶属于哪艘舰？")
    step = next(s for s in result.evidence if s.triple[1] == "隶属于")
    assert step.sentence == "张海是海鹰号的舰长。"


def test_describe_keeps_entities_the_kg_says_something_about(corpus: Corpus) -> None:
    assert corpus.describe("海鹰号航空母舰") == ("海鹰号航空母舰", ("武器装备",))
    assert corpus.describe("H01") is None  # only an object
    assert corpus.describe("2010年5月1日") is None  # a value
    assert corpus.describe("不存在") is None


def test_join_kgs_prefixes_ids_and_keeps_provenance(corpus_dir: Path) -> None:
    corpus = Corpus.load(corpus_dir)
    kgs = {d: corpus.reasoner.index(d).triples for d in ("d1", "d2")}
    joined = join_kgs(kgs, ["d2", "d1"])
    assert joined.doc_id == "d2+d1"
    assert all(t.triple_id.split(":")[0] in {"d1", "d2"} for t in joined.triples)
    assert joined.documents_of(("雷霆-9", "研制单位", "北方飞机公司")) == ("d1",)
    assert joined.documents_of(("x", "y", "z")) == ()


def test_sample_corpus_answers_without_doc_ids() -> None:
    corpus = Corpus.load(REPO / "examples" / "sample")
    assert corpus.answer("F-35C的翼展是多少？").answers == ("13.1米",)
    assert corpus.answer("卡尔·文森号的舷号是什么？").doc_ids == ("doc_02",)
    joined = corpus.answer("伊丽莎白女王号搭载的F-35B是哪一天首飞的？")
    assert joined.answers == ("2008年6月11日",)
    assert set(joined.doc_ids) == {"doc_01", "doc_04"}


def test_an_alias_is_not_a_separate_entity_of_the_dialogue() -> None:
    corpus = Corpus.load(REPO / "examples" / "sample")
    assert corpus.describe("第211战斗攻击中队") is not None
    assert corpus.describe("威克岛复仇者") is None  # its squadron's nickname, stated only as an object
