"""`learn`: infer an annotator's conventions from their gold answers (`qa_answer.json`), with a report.

Nothing is looked up in a list of names. Each finding comes from what the data shows:

- derived relations: a path triple whose two operands are comparable values (two dates, a date and a KG period,
  two quantities of one dimension) and which is not a KG fact is a derived comparison; the comparisons that hold
  between its operands (`kgreason.kg.compare.holding_operators`) say which operator its relation name stands for
  (the most specific one that holds in most of the name's triples: `gt` rather than `ge`);
- counts: the `数值`-like answers that are whole numbers, with or without a measure word (`4` vs `4艘`);
- yes/no: the answer type whose single answers are short words that are never a node of the path; the word with a
  negation is the "no";
- set types: the `answer_type` of answers with several members, generic (`实体集合`) or the members' type plus a
  suffix (`装备集合`: 装备 is the members' KG type, or another question's answer type);
- constraint keys: each value is read by its content and its place in the question (a date or time window ->
  time; a comparison word with a quantity -> numeric; a superlative or comparative -> order; a negation -> exclude;
  a value the path reaches through a place / country / type / side relation -> that kind); a key takes the kind
  most of its values show. A key none of whose values decides is kept as an "other" key and reported.

Whatever the data does not show is kept from the base conventions (the project's defaults), and the report says
so. The language words (comparatives, superlatives, time-window words, camp/place markers, negation markers and
`除…以外` frames, relation synonyms) come from `kgreason.reason.lexicon`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from kgreason.conventions.model import (
    CONSTRAINT_KINDS,
    NUMBER_OPERATORS,
    OPERATOR_MEANINGS,
    OPERATORS,
    TIME_OPERATORS,
    ConstraintKind,
    Conventions,
    CountFormat,
    Operator,
    RelationNames,
    SetStyle,
    SetTypes,
    default_conventions,
    most_specific,
)
from kgreason.data.levels import LEVELS, Level
from kgreason.data.records import AnswerRecord, KGTriple, PathTriple
from kgreason.kg.compare import holding_operators
from kgreason.kg.dates import find_dates, parse_date
from kgreason.kg.quantities import find_quantities, parse_count, parse_quantity
from kgreason.reason.lexicon import (
    CAMP_MARKERS,
    COMPARATIVE_WORDS,
    EXCLUDE_FRAMES,
    NEGATION_MARKERS,
    NUMERIC_COMPARATORS,
    ORDER_WORDS,
    PLACE_MARKERS,
    RELATION_SYNONYMS,
    TIME_AFTER_WORDS,
    TIME_BEFORE_WORDS,
    TIME_WITHIN_WORDS,
)
from kgreason.text.normalize import normalize_text, normalize_triple

# Negations from the lexicon: a marker or a frame's opening word before the negated item (`不是北约成员国`,
# `除在朱日和举行的阅兵以外`), a frame's closing word after it (`英国以外`; the one-character closer `外` is left out:
# `海外` is no negation).
NEGATION_BEFORE: tuple[str, ...] = tuple(dict.fromkeys([*NEGATION_MARKERS, *(opener for opener, _ in EXCLUDE_FRAMES)]))
NEGATION_AFTER: tuple[str, ...] = tuple(
    dict.fromkeys(closer for _, closers in EXCLUDE_FRAMES for closer in closers if len(closer) >= 2)
)
# Characters that make a yes/no answer word the "no" one: `否` and the first characters of the negation markers
# (`不是`, `没有`, `非`).
_NEGATION_CHARS = "否" + "".join(dict.fromkeys(m[0] for m in NEGATION_MARKERS if m[0] != "并"))

_TIME_WINDOW_LONG = tuple(w for w in (*TIME_AFTER_WORDS, *TIME_BEFORE_WORDS, *TIME_WITHIN_WORDS) if len(w) >= 2)
_TIME_WINDOW_SHORT = tuple(w for w in (*TIME_AFTER_WORDS, *TIME_BEFORE_WORDS, *TIME_WITHIN_WORDS) if len(w) == 1)
_ORDER_LONG = tuple(w for w in (*ORDER_WORDS, *COMPARATIVE_WORDS) if len(w) >= 2)
# One-character comparatives (`先沉没`, `先被击中`) count only at the start of a short value, and only the time ones
# (`大`, `长`, `高` begin too many names: 大连, 长征18号艇).
_ORDER_SHORT_TIME = tuple(w for w, (aspect, _) in COMPARATIVE_WORDS.items() if len(w) == 1 and aspect == "time")
_PART_SEPARATORS = re.compile(r"[、，,；;和及与]")


def _groups_with(*words: str) -> tuple[str, ...]:
    """Every word of the lexicon's relation-synonym groups that contain one of `words` (2+ characters)."""
    out: list[str] = []
    for group in RELATION_SYNONYMS:
        if any(w in group for w in words):
            out += [w for w in group if len(w) >= 2]
    return tuple(dict.fromkeys(out))


# The kind a relation's name marks its object as, most specific first (`所属国家` is a country, `所属型号` a type).
_RELATION_KINDS: tuple[tuple[ConstraintKind, tuple[str, ...]], ...] = (
    ("place", _groups_with("地点")),
    ("country", _groups_with("国籍")),
    ("type", _groups_with("类型")),
    ("camp", _groups_with("阵营", "隶属")),
)


# ---------------------------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the report: what was learned (or kept) about one convention, and from what."""

    topic: str  # derived_relations / counts / yes_no / set_types / constraint_keys
    subject: str  # the operator, key, ... it is about
    text: str
    examples: int  # how many gold examples it rests on (0: kept from the base conventions)


_TITLES = {
    "derived_relations": "Derived relations",
    "counts": "Counts",
    "yes_no": "Yes/no answers",
    "set_types": "Set answer types",
    "constraint_keys": "Constraint keys",
    "constraint_levels": "Constraint levels",
}


@dataclass(frozen=True, slots=True)
class LearnReport:
    items: int  # gold items read
    items_with_kg: int  # of which the document's KG was available
    findings: tuple[Finding, ...]
    undecided_keys: tuple[str, ...]  # constraint keys kept without a kind

    def lines(self) -> list[str]:
        head = f"Learned from {self.items} gold item(s)"
        head += f" ({self.items_with_kg} with their document's KG)." if self.items_with_kg else " (no KG given)."
        out = [head]
        for topic, title in _TITLES.items():
            rows = [f for f in self.findings if f.topic == topic]
            if rows:
                out.append(f"{title}:")
                out += [f"  {f.subject}: {f.text}" for f in rows]
        if self.undecided_keys:
            out.append(
                "Undecided: constraint key(s) "
                + ", ".join(self.undecided_keys)
                + " kept as other keys (their values show no kind)."
            )
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def to_json(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "items_with_kg": self.items_with_kg,
            "findings": [
                {"topic": f.topic, "subject": f.subject, "text": f.text, "examples": f.examples} for f in self.findings
            ],
            "undecided_keys": list(self.undecided_keys),
        }


# ---------------------------------------------------------------------------------------------------------------
# learn
# ---------------------------------------------------------------------------------------------------------------


def learn(
    gold: Sequence[AnswerRecord],
    *,
    kgs: Mapping[str, Sequence[KGTriple]] | None = None,
    base: Conventions | None = None,
) -> tuple[Conventions, LearnReport]:
    """The conventions `gold` follows, and a report of what was learned from how many examples.

    `kgs` (doc_id -> triples, optional) tells KG facts from derived triples and gives periods' start and end and
    the answers' node types; without it those are read from the values alone. `base` (default: the project's
    defaults) supplies every convention the data does not show.
    """
    base = base or default_conventions()
    kgs = kgs or {}
    findings: list[Finding] = []
    relations = _learn_relations(gold, kgs, base, findings)
    number_type, count_format = _learn_counts(gold, base, findings)
    boolean_type, yes, no = _learn_yes_no(gold, base, number_type, findings)
    set_types = _learn_set_types(gold, kgs, base, (number_type, boolean_type), findings)
    keys, others = _learn_keys(gold, base, findings)
    keyed = replace(base, constraint_keys=keys)
    levels = _learn_levels(gold, keyed, findings)
    learned = replace(
        base,
        relations=relations,
        boolean_type=boolean_type,
        yes=yes,
        no=no,
        number_type=number_type,
        count_format=count_format,
        set_types=set_types,
        constraint_keys=keys,
        other_constraint_keys=others,
        constraint_levels=levels,
        description=f"learned from {len(gold)} gold item(s) by kgreason conventions learn",
        source="",
    )
    with_kg = sum(1 for item in gold if item.doc_id in kgs)
    return learned, LearnReport(len(gold), with_kg, tuple(findings), others)


def _examples(names: Iterable[str], limit: int = 4) -> str:
    shown = list(dict.fromkeys(names))
    text = ", ".join(shown[:limit])
    return text + (f", … ({len(shown) - limit} more)" if len(shown) > limit else "")


def _majority(counter: Counter[str], prefer: str | None) -> str | None:
    """The most common value; a tie is broken in favour of `prefer` (the base's choice), else undecided."""
    if not counter:
        return None
    top = counter.most_common()
    best = [v for v, n in top if n == top[0][1]]
    if len(best) == 1:
        return best[0]
    return prefer if prefer in best else None


# ----------------------------------------------------------------------------------------------- derived relations


def _path_triples(item: AnswerRecord) -> list[PathTriple]:
    """The item's main and alternative triples, each once."""
    seen: dict[PathTriple, None] = {}
    for path in (item.main_path, *item.alt_paths):
        for t in path:
            seen.setdefault(t, None)
    return list(seen)


def _learn_relations(
    gold: Sequence[AnswerRecord], kgs: Mapping[str, Sequence[KGTriple]], base: Conventions, out: list[Finding]
) -> tuple[RelationNames, ...]:
    votes: dict[str, Counter[Operator]] = {}  # name -> operator -> triples it holds in
    totals: Counter[str] = Counter()  # name -> comparable triples
    kinds: dict[str, set[str]] = {}  # name -> time / number
    unreadable: Counter[str] = Counter()  # known derived name, operands not comparable
    for item in gold:
        kg = kgs.get(item.doc_id, ())
        facts = {normalize_triple(t.spo) for t in kg}
        for triple in _path_triples(item):
            if facts and normalize_triple(triple) in facts:
                continue
            left, name, right = (part.strip() for part in triple)
            reading = holding_operators(left, right, kg)
            if reading is None:
                if base.operator_of(name) is not None:
                    unreadable[name] += 1
                continue
            totals[name] += 1
            kinds.setdefault(name, set()).add(reading.kind)
            votes.setdefault(name, Counter()).update(reading.holds)

    chosen: dict[Operator, Counter[str]] = {}  # operator -> names -> triples
    for name, n in totals.most_common():
        counter = votes.get(name, Counter())
        best = max(counter.values(), default=0)
        candidates = most_specific(op for op, k in counter.items() if k == best and k > 0)
        what = "/".join(sorted(kinds[name]))
        if len(candidates) != 1:
            held = ", ".join(f"{op} {k}" for op, k in counter.most_common()) or "nothing"
            out.append(
                Finding(
                    "derived_relations",
                    f"name {name}",
                    f"{n} triple(s) comparing {what} values; undecided (holds: {held}); not learned",
                    n,
                )
            )
            continue
        op = candidates[0]
        chosen.setdefault(op, Counter())[name] = n
        out.append(
            Finding(
                "derived_relations",
                f"name {name}",
                f"{n} triple(s) comparing {what} values; '{OPERATOR_MEANINGS[op]}' holds in {best} -> {op}",
                n,
            )
        )
    for name, n in unreadable.items():
        if name not in totals:
            out.append(
                Finding(
                    "derived_relations",
                    f"name {name}",
                    f"{n} triple(s) whose operands could not be read as comparable values (give the KG for periods); "
                    f"kept as {base.operator_of(name)}",
                    0,
                )
            )

    learned_names = {normalize_text(n): op for op, names in chosen.items() for n in names}
    writes = {
        op: _majority(Counter(dict(names)), base.relation_for(op)) or names.most_common(1)[0][0]
        for op, names in chosen.items()
    }
    relations: list[RelationNames] = []
    not_seen: list[str] = []
    by_analogy: list[str] = []
    for op in OPERATORS:
        names = chosen.get(op)
        old = base.names(op)
        keep = [n for n in old.accept if learned_names.get(normalize_text(n), op) == op]
        if not names:
            write = old.write if old.write in keep else (keep[0] if keep else old.write)
            position = _analogous_position(op, writes, base)
            if position is not None and position < len(old.accept) and old.accept[position] in keep:
                write = old.accept[position]
                by_analogy.append(f"{op} {write}")
            else:
                not_seen.append(f"{op} {write}")
            relations.append(RelationNames(op, write, tuple(dict.fromkeys([write, *keep]))))
            continue
        write = writes[op]
        accept = tuple(dict.fromkeys([write, *names, *keep]))
        relations.append(RelationNames(op, write, accept))
        also = [n for n in accept if n != write]
        text = f"write {write}" + (f", also read {', '.join(also)}" if also else "")
        out.append(Finding("derived_relations", f"operator {op}", text, sum(names.values())))
    if by_analogy:
        text = ", ".join(by_analogy) + " (the same choice among the base's names as the operators seen)"
        out.append(Finding("derived_relations", "not seen, by analogy", text, 0))
    if not_seen:
        out.append(Finding("derived_relations", "not seen, kept", ", ".join(not_seen), 0))
    return tuple(relations)


def _analogous_position(op: Operator, writes: Mapping[Operator, str], base: Conventions) -> int | None:
    """When every learned operator of `op`'s family (time or number) writes the base's n-th accepted name and n is
    not 0 (the annotator writes `大于` where the base writes `数值大于`), n: an unseen operator of the family
    then writes its own n-th name (`小于`). None otherwise."""
    family = TIME_OPERATORS if op in TIME_OPERATORS else NUMBER_OPERATORS
    positions = set()
    for other, write in writes.items():
        if other not in family:
            continue
        accept = base.names(other).accept
        positions.add(accept.index(write) if write in accept else -1)
    if len(positions) != 1:
        return None
    position = positions.pop()
    return position if position > 0 else None


# ------------------------------------------------------------------------------------------------- answer formats


def _single(item: AnswerRecord) -> str | None:
    return item.answers[0].strip() if len(item.answers) == 1 else None


def _learn_counts(gold: Sequence[AnswerRecord], base: Conventions, out: list[Finding]) -> tuple[str, CountFormat]:
    """The number answer type (the type of answers that are quantities with a unit) and how counts are written."""
    types: Counter[str] = Counter()
    for item in gold:
        answer = _single(item)
        if answer is None:
            continue
        q = parse_quantity(answer)
        if q is not None and q.dimension:
            types[item.answer_type.strip()] += 1
    number_type = _majority(types, base.number_type) or base.number_type
    if types:
        out.append(
            Finding(
                "counts",
                "answer_type",
                f"{number_type} ({types[number_type]} answer(s) with a unit)",
                sum(types.values()),
            )
        )
    else:
        out.append(Finding("counts", "answer_type", f"no quantity answers; kept {number_type}", 0))

    bare: list[str] = []
    worded: list[str] = []
    for item in gold:
        answer = _single(item)
        if answer is None or item.answer_type.strip() != number_type:
            continue
        count = parse_count(answer)
        if count is None:
            continue
        (worded if count[1] else bare).append(answer)
    votes: Counter[str] = Counter({"bare": len(bare), "measure_word": len(worded)})
    votes = +votes
    decided = _majority(votes, base.count_format)
    fmt: CountFormat = base.count_format
    if decided == "bare":
        fmt = "bare"
    elif decided == "measure_word":
        fmt = "measure_word"
    n = len(bare) + len(worded)
    if n == 0:
        out.append(Finding("counts", "format", f"no count answers; kept {fmt}", 0))
    else:
        seen = []
        if worded:
            seen.append(f"{len(worded)} with a measure word ({_examples(worded)})")
        if bare:
            seen.append(f"{len(bare)} bare ({_examples(bare)})")
        out.append(Finding("counts", "format", f"{fmt}: {'; '.join(seen)}", n))
    return number_type, fmt


def _is_plain_word(answer: str, item: AnswerRecord) -> bool:
    """A short answer that is not a node of the item's paths, a number or a date: a candidate yes/no word."""
    if not answer or len(answer) > 3:
        return False
    if parse_quantity(answer) is not None or parse_date(answer, allow_bare_year=True) is not None:
        return False
    norm = normalize_text(answer)
    return not any(norm in (normalize_text(t[0]), normalize_text(t[2])) for t in _path_triples(item))


def _learn_yes_no(
    gold: Sequence[AnswerRecord], base: Conventions, number_type: str, out: list[Finding]
) -> tuple[str, str, str]:
    by_type: dict[str, list[str]] = {}
    for item in gold:
        answer = _single(item)
        if answer is not None and item.answer_type.strip() != number_type and _is_plain_word(answer, item):
            by_type.setdefault(item.answer_type.strip(), []).append(answer)
    sizes = Counter({t: len(v) for t, v in by_type.items() if len(set(v)) <= 2})
    bool_type = _majority(sizes, base.boolean_type)
    if bool_type is None:
        out.append(Finding("yes_no", "answer_type", f"no yes/no answers recognised; kept {base.boolean_type}", 0))
        return base.boolean_type, base.yes, base.no
    words = Counter(by_type[bool_type])
    n = sum(words.values())
    out.append(Finding("yes_no", "answer_type", f"{bool_type} ({n} answer(s): {_examples(words)})", n))
    yes, no = base.yes, base.no
    no_words = [w for w in words if any(c in w for c in _NEGATION_CHARS)]
    yes_words = [w for w in words if w not in no_words]
    if len(no_words) == 1:
        no = no_words[0]
        out.append(Finding("yes_no", "no", f"{no} ×{words[no]} (has a negation)", words[no]))
    else:
        out.append(Finding("yes_no", "no", f"not seen; kept {no}", 0))
    if len(yes_words) == 1:
        yes = yes_words[0]
        out.append(Finding("yes_no", "yes", f"{yes} ×{words[yes]}", words[yes]))
    else:
        out.append(Finding("yes_no", "yes", f"not seen; kept {yes}", 0))
    if yes == no:
        yes, no = base.yes, base.no
    return bool_type, yes, no


def _node_types(kg: Sequence[KGTriple]) -> dict[str, str]:
    types: dict[str, str] = {}
    for t in kg:
        types.setdefault(normalize_text(t.sub), t.sub_type.strip())
        types.setdefault(normalize_text(t.obj), t.obj_type.strip())
    return types


def _learn_set_types(
    gold: Sequence[AnswerRecord],
    kgs: Mapping[str, Sequence[KGTriple]],
    base: Conventions,
    not_sets: tuple[str, ...],
    out: list[Finding],
) -> SetTypes:
    single_types = {item.answer_type.strip() for item in gold if len(item.answers) == 1}
    styles: Counter[str] = Counter()
    generic: Counter[str] = Counter()
    suffixes: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for item in gold:
        answer_type = item.answer_type.strip()
        if len(item.answers) < 2 or answer_type in not_sets:
            continue
        seen[answer_type] += 1
        types = _node_types(kgs.get(item.doc_id, ()))
        member = {types.get(normalize_text(a)) for a in item.answers}
        prefix: str | None = None
        if len(member) == 1 and (m := member.pop()) and answer_type.startswith(m) and len(answer_type) > len(m):
            prefix = m  # the members' KG type
        else:
            prefix = next(
                (
                    p
                    for p in sorted(single_types, key=len, reverse=True)
                    if p and answer_type.startswith(p) and p != answer_type
                ),
                None,
            )
        if prefix is not None:
            styles["by_member_type"] += 1
            suffixes[answer_type[len(prefix) :]] += 1
        else:
            styles["generic"] += 1
            generic[answer_type] += 1
    if not seen:
        out.append(Finding("set_types", "style", f"no set answers; kept {base.set_types.style}", 0))
        return base.set_types
    style_name = _majority(styles, base.set_types.style) or base.set_types.style
    style: SetStyle = "generic" if style_name == "generic" else "by_member_type"
    name = _majority(generic, base.set_types.generic) or base.set_types.generic
    suffix = _majority(suffixes, base.set_types.suffix) or base.set_types.suffix
    n = sum(seen.values())
    shown = ", ".join(f"{t} ×{k}" for t, k in seen.most_common())
    text = f"generic: {name} ({shown})" if style == "generic" else f"the members' type + {suffix} ({shown})"
    out.append(Finding("set_types", "style", text, n))
    return SetTypes(style, name, suffix)


# ------------------------------------------------------------------------------------------------ constraint keys


def _locate(value: str, question: str) -> list[tuple[int, int]]:
    """Where `value` stands in the question: every verbatim occurrence, or else the span from its longest prefix
    to its longest suffix that the question has (`在朱日和举行的阅兵` in `除在朱日和举行的那次阅兵以外`)."""
    spans = [(m.start(), m.start() + len(value)) for m in re.finditer(re.escape(value), question)] if value else []
    if spans:
        return spans
    for k in range(len(value) - 1, 1, -1):
        start = question.find(value[:k])
        if start >= 0:
            end = start + k
            for m in range(len(value) - k, 1, -1):
                j = question.find(value[-m:], end)
                if j >= 0:
                    end = j + m
                    break
            return [(start, end)]
    return []


def _context(question: str, span: tuple[int, int]) -> tuple[str, str]:
    """The few characters before and after a span of the question."""
    return question[max(0, span[0] - 4) : span[0]], question[span[1] : span[1] + 3]


def _relation_kind(relation: str) -> ConstraintKind | None:
    for kind, words in _RELATION_KINDS:
        if any(w in relation for w in words):
            return kind
    return None


def _path_kind(value: str, item: AnswerRecord) -> ConstraintKind | None:
    """The kind of the relation through which the main path reaches the value (the value is, or contains, or is
    contained in a triple's object)."""
    v = normalize_text(value)
    if len(v) < 2:
        return None
    exact: Counter[ConstraintKind] = Counter()
    near: Counter[ConstraintKind] = Counter()
    for _, relation, obj in item.main_path:
        o = normalize_text(obj)
        kind = _relation_kind(relation)
        if kind is None or len(o) < 2:
            continue
        if o == v:
            exact[kind] += 1
        elif o in v or v in o:
            near[kind] += 1
    votes = exact or near
    if not votes:
        return None
    order = [k for k, _ in _RELATION_KINDS]
    return max(votes, key=lambda k: (votes[k], -order.index(k)))


def classify_value(value: str, question: str, item: AnswerRecord | None = None) -> tuple[ConstraintKind | None, str]:
    """The kind of constraint a value shows, and why (`("time", "a date")`); `(None, "...")` when undecided."""
    v = value.strip()
    parts = [p for p in _PART_SEPARATORS.split(v) if p]
    if find_quantities(v) and any(w in v for w in NUMERIC_COMPARATORS):
        return "numeric", "a quantity with a comparison word"
    if find_dates(v):
        return "time", "a date"
    if parts and all(p.endswith(_TIME_WINDOW_LONG) for p in parts):
        return "time", "a time-window word"
    if any(w in v for w in _ORDER_LONG):
        return "order", "a superlative or comparative"
    if len(v) <= 4 and v.startswith(_ORDER_SHORT_TIME):
        return "order", "a comparative (先/后)"
    if len(v) >= 3 and parts and all(p.endswith(_TIME_WINDOW_SHORT + _TIME_WINDOW_LONG) for p in parts):
        return "time", "a time-window word"
    if v.startswith(NEGATION_BEFORE) or v.endswith(NEGATION_AFTER):
        return "exclude", "a negation"
    contexts = [_context(question, span) for span in _locate(v, question)]
    if contexts and all(b.endswith(NEGATION_BEFORE) or a.startswith(NEGATION_AFTER) for b, a in contexts):
        return "exclude", "negated in the question"
    if item is not None:
        kind = _path_kind(v, item)
        if kind is not None:
            return kind, "the relation that reaches it"
    if any(b.endswith(CAMP_MARKERS) for b, _ in contexts):
        return "camp", "a side marker before it in the question"
    if any(b.endswith(PLACE_MARKERS) for b, _ in contexts):
        return "place", "a place marker before it in the question"
    return None, "undecided"


def _learn_keys(
    gold: Sequence[AnswerRecord], base: Conventions, out: list[Finding]
) -> tuple[tuple[tuple[ConstraintKind, str | None], ...], tuple[str, ...]]:
    votes: dict[str, Counter[ConstraintKind]] = {}
    values: Counter[str] = Counter()
    for item in gold:
        for key, value in item.constraints.items():
            k = key.strip()
            values[k] += 1
            found, _ = classify_value(value, item.question, item)
            counter = votes.setdefault(k, Counter())
            if found is not None:
                counter[found] += 1

    key_kind: dict[str, ConstraintKind] = {}
    undecided: list[str] = []
    for key, n in values.most_common():
        counter = votes[key]
        prefer = base.kind_of_key(key)
        top = counter.most_common()
        best = [k for k, c in top if c == top[0][1]] if top else []
        kind: ConstraintKind | None = None
        if len(best) == 1:
            kind = best[0]
        elif prefer is not None and (prefer in best or not best):
            kind = prefer
        shown = ", ".join(f"{k} {c}" for k, c in top) or "none decided"
        if kind is None:
            undecided.append(key)
            text = f"{n} value(s) ({shown}); undecided, kept as an other key"
            out.append(Finding("constraint_keys", f"key {key}", text, n))
            continue
        key_kind[key] = kind
        why = "" if best else f"; kept as in the base conventions ({prefer})"
        out.append(Finding("constraint_keys", f"key {key}", f"{n} value(s) ({shown}) -> {kind}{why}", n))

    keys: list[tuple[ConstraintKind, str | None]] = []
    extra: list[str] = []
    written: list[str] = []
    kept: list[str] = []
    for canon in CONSTRAINT_KINDS:
        mine = [k for k, _ in values.most_common() if key_kind.get(k) == canon]
        if not mine:
            old = base.constraint_key(canon)
            keys.append((canon, old))
            kept.append(f"{canon} -> {old or '(no key of its own)'}")
            continue
        keys.append((canon, mine[0]))
        extra += mine[1:]
        also = f" (also {', '.join(mine[1:])})" if mine[1:] else ""
        written.append(f"{canon} -> {mine[0]}{also}")
    if written:
        out.append(Finding("constraint_keys", "kinds learned", ", ".join(written), sum(values.values())))
    if kept:
        out.append(Finding("constraint_keys", "not seen, kept", ", ".join(kept), 0))
    return tuple(keys), tuple(dict.fromkeys([*undecided, *extra]))


# A kind is not written at a level whose gold questions, this many or more, never have it — judged only when the
# gold has two such levels (a file without difficulties reads as all L1). How often a kind is written is no guide
# by itself: a level's questions seldom name a time, but when one does its annotator may well write it.
LEVEL_MIN_QUESTIONS = 10


def _learn_levels(
    gold: Sequence[AnswerRecord], conv: Conventions, out: list[Finding]
) -> tuple[tuple[ConstraintKind, tuple[Level, ...]], ...]:
    asked: Counter[str] = Counter(item.difficulty for item in gold)
    judged = [lv for lv in LEVELS if asked[lv] >= LEVEL_MIN_QUESTIONS]
    if len(judged) < 2:
        out.append(Finding("constraint_levels", "levels", "fewer than two levels with enough questions; kept", 0))
        return conv.constraint_levels
    written: Counter[tuple[str, str]] = Counter()
    for item in gold:
        for written_key in item.constraints:
            written[(written_key.strip(), item.difficulty)] += 1
    kept = dict(conv.constraint_levels)
    learned: list[tuple[ConstraintKind, tuple[Level, ...]]] = []
    for kind in CONSTRAINT_KINDS:
        key = conv.constraint_key(kind) or ""
        seen = sum(written[(key, lv)] for lv in LEVELS)
        if not seen:
            if kind in kept:
                learned.append((kind, kept[kind]))
            continue
        levels = tuple(lv for lv in LEVELS if lv not in judged or written[(key, lv)])
        counts = ", ".join(f"{lv} {written[(key, lv)]} of {asked[lv]}" for lv in LEVELS if asked[lv])
        if levels != LEVELS:
            learned.append((kind, levels))
            out.append(Finding("constraint_levels", kind, f"written at {', '.join(levels)} only ({counts})", seen))
        else:
            out.append(Finding("constraint_levels", kind, f"written at every level ({counts})", seen))
    return tuple(learned)
