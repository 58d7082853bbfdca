"""CCKS CKBQA question files (CCKS 2021 / 2023): questions paired with the SPARQL query that answers them.

Each record is three lines (the files use CRLF; records are separated by a blank line):

    q1:新子憧的声优是哪一年出道的？
    select ?x where { <新子憧> <配音> ?y. ?y <出道时间> ?x.}
    "2010"

`load_ckbqa(path)` turns a file into `CkbqaQuestion`s: the question without its `qN:` prefix, the triple patterns of
the query, the relations (constant predicates, `<>` stripped, in order of first use; variable predicates such as
`?x ?p <歼-20>` are ignored, datatype IRIs such as `"5"^^<...#float>` are not predicates) and the answers (`<>` / `""`
stripped). FILTER / ORDER BY / LIMIT / UNION / OPTIONAL parts are understood well enough to be skipped.

Messy records (no `qN:` question line, a query that cannot be read, no constant predicate) are skipped; the loader
returns, next to the records, one warning per file that counts what was skipped and why. A file that cannot be read at
all (missing, a folder, not UTF-8, no record) raises `DataError` naming the file.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kgreason.data.jsonio import read_text, split_lines
from kgreason.errors import DataError, Problem

Triple = tuple[str, str, str]

_QUESTION_LINE = re.compile(r"^\s*q(\d+)\s*[:：]\s*(.*)$", re.IGNORECASE)
_SELECT = re.compile(r"^\s*(select|ask)\b", re.IGNORECASE)

# SPARQL tokens. IRIs hold no whitespace or quotes here, which keeps `?d <= 3` in a FILTER an operator.
_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<lit>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')(?:\^\^(?:<[^<>"\s]*>|[A-Za-z][\w-]*:[\w-]*)|@[A-Za-z][\w-]*)?
  | (?P<iri><[^<>"\s{}|^`\\]*>)
  | (?P<var>[?$][\w\u0080-\uffff]+)
  | (?P<num>[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<word>[A-Za-z_][\w-]*(?::[\w-]*)?)
  | (?P<punct>[{}().;,])
  | (?P<op>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_SKIPPED_WORDS = {"union", "optional", "minus", "graph", "service", "silent"}
_EXPRESSION_WORDS = {"filter", "bind", "values"}
_RDF_TYPE = "rdf:type"

# reasons a record is skipped (the warning lists them with counts)
NO_QUESTION = "no 'qN:' question line"
EMPTY_QUESTION = "empty question"
NO_QUERY = "no SPARQL query line"
BAD_QUERY = "SPARQL query cannot be read"
NO_RELATION = "no constant predicate in the query"


class SparqlError(ValueError):
    """A query the triple-pattern reader does not understand."""


@dataclass(frozen=True, slots=True)
class CkbqaQuestion:
    """One CKBQA question. `qid` is the N of `qN:`; `line` the 1-based line of the question in `source`."""

    source: str
    qid: int
    line: int
    question: str
    sparql: str
    patterns: tuple[Triple, ...]  # terms as written: `<IRI>`, `?var`, `"literal"`, numbers
    relations: tuple[str, ...]  # constant predicates without `<>`, first use first, no repeats
    answers: tuple[str, ...]


# --------------------------------------------------------------------------------------------- SPARQL


def _tokens(query: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(query):
        kind = m.lastgroup or "op"
        if kind != "ws":
            out.append((kind, m.group(0)))
    return out


def _skip_expression(tokens: Sequence[tuple[str, str]], i: int) -> int:
    """Index after a FILTER/BIND/VALUES expression starting at `tokens[i]` (the keyword): an optional function name
    (`regex`, `not exists`), then one balanced `( … )` or `{ … }` group."""
    i += 1
    while i < len(tokens) and tokens[i][0] == "word":
        i += 1
    if i >= len(tokens) or tokens[i][1] not in "({" or tokens[i][0] != "punct":
        # VALUES ?x { … }: a variable before the block
        while i < len(tokens) and tokens[i][0] == "var":
            i += 1
        if i >= len(tokens) or tokens[i][0] != "punct" or tokens[i][1] not in "({":
            raise SparqlError("a FILTER/BIND/VALUES without its ( … ) expression")
    depth = 0
    while i < len(tokens):
        kind, text = tokens[i]
        if kind == "punct" and text in "({":
            depth += 1
        elif kind == "punct" and text in ")}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise SparqlError("unbalanced parentheses in a FILTER/BIND/VALUES expression")


def parse_sparql(query: str) -> tuple[Triple, ...]:
    """The triple patterns of a SELECT/ASK query's WHERE block, in order. Raises `SparqlError` when there is no
    `{ … }` block, brackets do not balance, or a pattern is incomplete."""
    tokens = _tokens(query)
    start = next((i for i, (k, t) in enumerate(tokens) if k == "punct" and t == "{"), None)
    if start is None:
        raise SparqlError("no WHERE { … } block")
    patterns: list[Triple] = []
    current: list[str] = []
    last: Triple | None = None
    depth = 0
    i = start
    while i < len(tokens):
        kind, text = tokens[i]
        low = text.lower()
        if kind == "word" and low in _EXPRESSION_WORDS:
            i = _skip_expression(tokens, i)
            continue
        if kind == "punct" and text in "{}":
            if current:
                raise SparqlError(f"incomplete triple pattern {' '.join(current)!r}")
            depth += 1 if text == "{" else -1
            i += 1
            if depth == 0:
                break
            continue
        if kind == "punct" and text == ".":
            if current:
                raise SparqlError(f"incomplete triple pattern {' '.join(current)!r}")
        elif kind == "punct" and text in ";,":
            if current or last is None:
                raise SparqlError(f"misplaced {text!r}")
            current = [last[0]] if text == ";" else [last[0], last[1]]
        elif kind in ("iri", "var", "lit", "num") or (kind == "word" and (":" in text or text == "a")):
            current.append(_RDF_TYPE if (kind == "word" and text == "a" and len(current) == 1) else text)
            if len(current) == 3:
                last = (current[0], current[1], current[2])
                patterns.append(last)
                current = []
        elif kind == "word" and low in _SKIPPED_WORDS:
            pass
        else:
            raise SparqlError(f"unexpected {text!r} in the WHERE block")
        i += 1
    if depth != 0:
        raise SparqlError("unbalanced braces")
    if not patterns:
        raise SparqlError("no triple pattern")
    return tuple(patterns)


def pattern_relations(patterns: Iterable[Triple]) -> tuple[str, ...]:
    """Constant predicates (`<代表作品>` -> `代表作品`), first use first; variables and `rdf:type` are left out."""
    out: dict[str, None] = {}
    for _, p, _ in patterns:
        if p.startswith("<") and p.endswith(">") and len(p) > 2:
            out.setdefault(p[1:-1].strip(), None)
    return tuple(r for r in out if r)


def parse_answers(line: str) -> tuple[str, ...]:
    """Tab-separated answers with their `<>` / `""` stripped (empty ones dropped)."""
    out: list[str] = []
    for raw in line.split("\t"):
        a = raw.strip()
        if len(a) >= 2 and ((a[0] == "<" and a[-1] == ">") or (a[0] == '"' and a[-1] == '"')):
            a = a[1:-1].strip()
        if a:
            out.append(a)
    return tuple(out)


# --------------------------------------------------------------------------------------------- files


def _read(path: Path) -> str:
    if path.is_dir():
        raise DataError.single(str(path), "is a directory, expected a CKBQA question file")
    return read_text(path)  # DataError naming the file when missing, unreadable or not UTF-8


def load_ckbqa(path: Path) -> tuple[list[CkbqaQuestion], list[Problem]]:
    """Questions of a CKBQA file and at most one warning (what was skipped, counted by reason)."""
    name = str(path)
    lines = [line for _, line in split_lines(_read(path))]
    records: list[CkbqaQuestion] = []
    skipped: Counter[str] = Counter()
    first_skipped: dict[str, str] = {}

    def skip(reason: str, where: str) -> None:
        skipped[reason] += 1
        first_skipped.setdefault(reason, where)

    # group lines into records: a `qN:` line starts one; stray lines before the first record are skipped
    groups: list[list[tuple[int, str]]] = []
    stray: list[int] = []
    for lineno, line in enumerate(lines, start=1):
        if _QUESTION_LINE.match(line) and not _SELECT.match(line):
            groups.append([(lineno, line)])
        elif line.strip():
            if groups:
                groups[-1].append((lineno, line))
            else:
                stray.append(lineno)
    if stray:
        skip(NO_QUESTION, f"line {stray[0]}")
    for group in groups:
        record = _parse_group(name, group, skip)
        if record is not None:
            records.append(record)
    if not records:
        detail = f" ({_summary(skipped)})" if skipped else ""
        raise DataError.single(name, f"no CKBQA record (qN:question / SPARQL / answers lines) in the file{detail}")
    warnings: list[Problem] = []
    if skipped:
        firsts = ", ".join(f"{reason}: first at {where}" for reason, where in first_skipped.items())
        warnings.append(
            Problem(
                file=name,
                message=f"skipped {sum(skipped.values())} of {sum(skipped.values()) + len(records)} records: "
                f"{_summary(skipped)} ({firsts})",
                severity="warning",
            )
        )
    return records, warnings


def _summary(counts: Counter[str]) -> str:
    return ", ".join(f"{n} {reason}" for reason, n in counts.most_common())


def _parse_group(name: str, group: list[tuple[int, str]], skip: Callable[[str, str], None]) -> CkbqaQuestion | None:
    lineno, first = group[0]
    m = _QUESTION_LINE.match(first)
    assert m is not None  # groups start at question lines
    where = f"line {lineno} (q{m.group(1)})"
    question = m.group(2).strip()
    if not question:
        skip(EMPTY_QUESTION, where)
        return None
    rest = [text for _, text in group[1:]]
    if not rest or not _SELECT.match(rest[0]):
        skip(NO_QUERY, where)
        return None
    # the answer line is the last one unless it is part of the query (no answers given)
    if len(rest) >= 2 and not _looks_like_query_part(rest[-1]):
        query_lines, answer_line = rest[:-1], rest[-1]
    else:
        query_lines, answer_line = rest, ""
    sparql = " ".join(x.strip() for x in query_lines)
    try:
        patterns = parse_sparql(sparql)
    except SparqlError:
        skip(BAD_QUERY, where)
        return None
    relations = pattern_relations(patterns)
    if not relations:
        skip(NO_RELATION, where)
        return None
    return CkbqaQuestion(
        source=name,
        qid=int(m.group(1)),
        line=lineno,
        question=question,
        sparql=sparql,
        patterns=patterns,
        relations=relations,
        answers=parse_answers(answer_line),
    )


def _looks_like_query_part(line: str) -> bool:
    s = line.strip()
    return s.endswith("}") or s.lower().startswith(("filter", "order", "limit", "group", "}"))


def load_ckbqa_files(paths: Sequence[Path]) -> tuple[list[CkbqaQuestion], list[Problem]]:
    """Several files, in order; their warnings together."""
    records: list[CkbqaQuestion] = []
    warnings: list[Problem] = []
    for path in paths:
        r, w = load_ckbqa(path)
        records.extend(r)
        warnings.extend(w)
    return records, warnings
