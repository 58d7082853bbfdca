"""CKBQA loader: records, SPARQL triple patterns and relations, answers, skipped records, unreadable files."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgreason.data.ckbqa import (
    BAD_QUERY,
    NO_QUERY,
    NO_RELATION,
    SparqlError,
    load_ckbqa,
    load_ckbqa_files,
    parse_answers,
    parse_sparql,
    pattern_relations,
)
from kgreason.errors import DataError

GOOD = (
    "q1:新子憧的声优是哪一年出道的？\r\n"
    "select ?x where { <新子憧> <配音> ?y. ?y <出道时间> ?x.} \r\n"
    '"2010"\t\r\n'
    "\r\n"
    "q2:《湖上草》是谁的诗？\r\n"
    "select ?x where { ?x <主要作品> <湖上草>. }\r\n"
    "<柳如是_（明末“秦淮八艳”之一）>\t\r\n"
    "\r\n"
    "q3:2007年出道的声优歌手有哪些人？\r\n"
    'select ?x where { ?x <职业> <歌手>. ?x <职业> <声优>. ?x <出道时间> "2007". } \r\n'
    "<早见沙织>\t<竹达彩奈>\t\r\n"
)


def write(tmp_path: Path, text: str, name: str = "train.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_records_questions_relations_answers(tmp_path: Path) -> None:
    records, warnings = load_ckbqa(write(tmp_path, GOOD))
    assert warnings == []
    assert [r.qid for r in records] == [1, 2, 3]
    first = records[0]
    assert first.question == "新子憧的声优是哪一年出道的？"  # `q1:` prefix gone
    assert first.relations == ("配音", "出道时间")
    assert first.answers == ("2010",)
    assert first.line == 1 and first.source.endswith("train.txt")
    assert first.patterns == (("<新子憧>", "<配音>", "?y"), ("?y", "<出道时间>", "?x"))
    assert records[1].answers == ("柳如是_（明末“秦淮八艳”之一）",)
    assert records[2].relations == ("职业", "出道时间")  # repeated predicate listed once, first use first
    assert records[2].answers == ("早见沙织", "竹达彩奈")


@pytest.mark.parametrize(
    ("query", "relations"),
    [
        # variable predicate ignored
        ("select ?x where { <A> ?p <B>. <A> <别名> ?x. }", ("别名",)),
        # FILTER with a `<=` that must not be read as an IRI, and a typed literal whose datatype is no predicate
        (
            "select ?y where { <H> <附近> ?c. ?c <距离值> ?d. filter(?d <= 5). ?c <实体名称> ?y. "
            '?y <容纳人数> "5.0"^^<http://www.w3.org/2001/XMLSchema#float>. }',
            ("附近", "距离值", "实体名称", "容纳人数"),
        ),
        # FILTER REGEX without a dot before the next pattern, upper case keywords
        ('SELECT ?s WHERE { ?p <别名> ?n . FILTER REGEX(?n, ".*古仔.*") ?p <毕业院校> ?s . }', ("别名", "毕业院校")),
        # UNION blocks, nested braces
        ("select ?x where { {<皮卡丘> <登场作品> ?x.} UNION {?x <主要角色> <皮卡丘>.}}", ("登场作品", "主要角色")),
        # count(...) in the head, ORDER BY / LIMIT after the block
        (
            "select (count(?x) as ?n) where { ?x <城市> <长沙>. ?x <平均价格> ?p. } ORDER BY ASC(?p) LIMIT 1",
            ("城市", "平均价格"),
        ),
        # `;` and `,` abbreviations, a literal holding `;` and `.`
        ('select ?x where { ?x <类型> <酒店>; <地址> "a;b. c", "d". }', ("类型", "地址")),
    ],
)
def test_sparql_relations(query: str, relations: tuple[str, ...]) -> None:
    assert pattern_relations(parse_sparql(query)) == relations


def test_sparql_abbreviations_expand_to_full_patterns() -> None:
    patterns = parse_sparql('select ?x where { ?x <类型> <酒店>; <地址> "a", "b". }')
    assert patterns == (("?x", "<类型>", "<酒店>"), ("?x", "<地址>", '"a"'), ("?x", "<地址>", '"b"'))


@pytest.mark.parametrize(
    "query",
    [
        "select ?x",  # no block
        "select ?x where { <A> <B> }",  # incomplete pattern
        "select ?x where { <A> <B> ?x. ",  # unbalanced braces
        "select ?x where { filter(?x > 1 }",  # unbalanced filter
        "select ?x where { }",  # no pattern
        "select ?x where { <A> <B> ?x. & }",  # junk
    ],
)
def test_bad_sparql_raises(query: str) -> None:
    with pytest.raises(SparqlError):
        parse_sparql(query)


def test_answers() -> None:
    assert parse_answers('"2010"\t') == ("2010",)
    assert parse_answers('<挪威>\t"N64"\t\t') == ("挪威", "N64")
    assert parse_answers("") == ()


def test_messy_records_are_skipped_with_one_counting_warning(tmp_path: Path) -> None:
    text = (
        "a stray line before any question\n"
        + GOOD.replace("\r\n", "\n")
        + "\nq4:建宁公主与韦小宝是什么关系？\nselect ?x where { <建宁公主> ?x <韦小宝>. }\n<夫妻>\n"
        + "\nq5:坏查询？\nselect ?x where { <A> <B> \n<x>\n"
        + "\nq6:另一个坏查询？\nselect ?x where { <A> ?p ?x. }\n<y>\n"
        + "\nq7:没有查询？\n<z>\n"
    )
    records, warnings = load_ckbqa(write(tmp_path, text))
    assert [r.qid for r in records] == [1, 2, 3]
    assert len(warnings) == 1
    w = warnings[0]
    assert w.severity == "warning" and w.file.endswith("train.txt")
    assert "skipped 5 of 8 records" in w.message
    for reason, n in ((NO_RELATION, 2), (BAD_QUERY, 1), (NO_QUERY, 1)):
        assert f"{n} {reason}" in w.message
    assert "line 1" in w.message  # where the first stray line is


def test_record_without_answer_line_is_kept(tmp_path: Path) -> None:
    records, warnings = load_ckbqa(write(tmp_path, "q9:问题？\nselect ?x where { <A> <外文名> ?x. }\n"))
    assert warnings == [] and records[0].relations == ("外文名",) and records[0].answers == ()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "file not found"),
        (b"\xff\xfe\x00bad", "not valid UTF-8"),
        (b"", "no CKBQA record"),
        (b"just some text\nwithout questions\n", "no CKBQA record"),
    ],
)
def test_unreadable_file_raises_naming_it(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "broken.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(DataError) as info:
        load_ckbqa(path)
    assert "broken.txt" in str(info.value) and message in str(info.value)


def test_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="is a directory"):
        load_ckbqa(tmp_path)


def test_several_files(tmp_path: Path) -> None:
    a = write(tmp_path, GOOD, "a.txt")
    b = write(tmp_path, GOOD + "\nq4:x？\nselect ?x where { <A> ?p ?x. }\n<y>\n", "b.txt")
    records, warnings = load_ckbqa_files([a, b])
    assert len(records) == 6 and len(warnings) == 1 and warnings[0].file.endswith("b.txt")
