"""The four components of the official score (spec 000, section 3), one pure function each.

Every function compares a prediction's fields with one gold record after normalisation
(`kgreason.text.normalize.normalize_text`) and returns a frozen result with the component's score and every
sub-metric. Where the spec defines a quantity only in words, the definition here is ours; `docs/scoring.md` states
each one with worked examples, and comments below say why.

Ratio convention used throughout: `x / 0` is 0, except that comparing two empty sets counts as a perfect match
(P = R = F1 = 1); see `set_prf`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from kgreason.data.records import DERIVED_RELATIONS, AnswerRecord, Path, PathTriple
from kgreason.text.normalize import normalize_text

T = TypeVar("T")
AnswerKind = Literal["single", "set"]

# EvidenceScore = 0.6·TripleMatch + 0.4·Parsimony (spec 3.2)
EVIDENCE_TRIPLE_WEIGHT = 0.6
EVIDENCE_PARSIMONY_WEIGHT = 0.4
# ReasoningScore = 0.4·NodeCoverage + 0.4·EdgeOrder + 0.2·HopMatch (spec 3.3)
REASONING_NODE_WEIGHT = 0.4
REASONING_ORDER_WEIGHT = 0.4
REASONING_HOP_WEIGHT = 0.2

# Our choice: a question node shorter than this is not looked for in the question text (a one-character node such
# as `美` would match almost any question by accident).
MIN_KEY_ENTITY_CHARS = 2

_DERIVED = frozenset(normalize_text(r) for r in DERIVED_RELATIONS)


# --------------------------------------------------------------------------------------------------------- helpers
def ratio(num: int, den: int) -> float:
    """`num / den`, 0 when `den` is 0."""
    return num / den if den else 0.0


def f1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


@dataclass(frozen=True, slots=True)
class SetMatch:
    """Precision, recall and F1 of a predicted set against a gold set."""

    precision: float
    recall: float
    f1: float
    matched: int
    n_pred: int
    n_gold: int


def set_prf(pred: Collection[T], gold: Collection[T]) -> SetMatch:
    """P = |pred ∩ gold| / |pred|, R = |pred ∩ gold| / |gold|, F1 their harmonic mean.

    Both empty is a perfect match (1, 1, 1): nothing was asked and nothing was given. Otherwise `x / 0` is 0.
    """
    p_set = pred if isinstance(pred, set | frozenset) else set(pred)
    g_set = gold if isinstance(gold, set | frozenset) else set(gold)
    if not p_set and not g_set:
        return SetMatch(1.0, 1.0, 1.0, 0, 0, 0)
    inter = len(p_set & g_set)
    p, r = ratio(inter, len(p_set)), ratio(inter, len(g_set))
    return SetMatch(p, r, f1(p, r), inter, len(p_set), len(g_set))


def lcs_length(a: Sequence[T], b: Sequence[T]) -> int:
    """Length of the longest common subsequence (not necessarily contiguous)."""
    if not a or not b:
        return 0
    if a == b:  # the common case of a right answer
        return len(a)
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, start=1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def normalize_path(path: Iterable[PathTriple]) -> list[PathTriple]:
    """Every triple normalised (`normalize_triple`), order and repeats kept."""
    n = normalize_text
    return [(n(h), n(r), n(t)) for h, r, t in path]


def _nodes(path: Iterable[PathTriple]) -> list[str]:
    """Heads and tails in order of first appearance, without repeats."""
    return list(dict.fromkeys(x for h, _, t in path for x in (h, t)))


# ---------------------------------------------------------------------------------------------------------- answer
_YES = frozenset(normalize_text(w) for w in ("是", "是的", "对", "正确", "yes", "true"))
_NO = frozenset(normalize_text(w) for w in ("否", "不是", "不", "不对", "错", "错误", "no", "false"))


def normalize_answers(answers: Iterable[str]) -> frozenset[str]:
    """Normalised answers as a set; answers that normalise to nothing (`""`, `"。"`) are dropped."""
    return frozenset(n for n in (normalize_text(a) for a in answers) if n)


def _canonical_boolean(answer: str) -> str:
    if answer in _YES:
        return "是"
    if answer in _NO:
        return "否"
    return answer


def is_set_answer(gold: AnswerRecord) -> bool:
    """The set rule of docs/annotation.md: `answer_type` contains `集合`, or more than one (distinct) answer."""
    return "集合" in gold.answer_type or len(normalize_answers(gold.answers)) > 1


@dataclass(frozen=True, slots=True)
class GoldView:
    """A gold record normalised once for scoring (every component function also accepts the plain record)."""

    record: AnswerRecord
    kind: AnswerKind
    answers: frozenset[str]  # normalised, empties dropped
    paths: tuple[tuple[str, tuple[PathTriple, ...]], ...]  # ("main", ...), ("alt[0]", ...): normalised triples
    path_sets: tuple[frozenset[PathTriple], ...]  # the same paths as sets, for TripleMatch
    main_size: int  # |Gold_t,min|: distinct triples of the main path
    question: str  # normalised
    boolean: bool  # a yes/no question: every answer is a yes or a no word


def view_gold(gold: AnswerRecord | GoldView) -> GoldView:
    """`gold`, normalised once (returned as is when it is a view already)."""
    if isinstance(gold, GoldView):
        return gold
    answers = normalize_answers(gold.answers)
    paths = tuple((label, tuple(normalize_path(path))) for label, path in gold_paths(gold))
    path_sets = tuple(frozenset(p) for _, p in paths)
    return GoldView(
        record=gold,
        kind="set" if "集合" in gold.answer_type or len(answers) > 1 else "single",  # as `is_set_answer`
        answers=answers,
        paths=paths,
        path_sets=path_sets,
        main_size=len(path_sets[0]),
        question=normalize_text(gold.question),
        boolean=bool(answers) and all(a in _YES or a in _NO for a in answers),
    )


@dataclass(frozen=True, slots=True)
class AnswerResult:
    kind: AnswerKind
    em: float  # 1 when the normalised answer sets are equal
    precision: float
    recall: float
    f1: float
    score: float  # em for single answers, f1 for set answers


def answer_score(pred_answers: Iterable[str], gold: AnswerRecord | GoldView) -> AnswerResult:
    """AnswerScore (spec 3.1): normalised exact match for single answers, normalised set F1 for set answers.

    Both sides are compared as sets of normalised strings. A single-answer question therefore scores 1 only when the
    prediction's set equals `{gold}`: `["艾森豪威尔", "蒙哥马利"]` scores 0 (a hedge is not an exact match), while a
    repeat of the same answer (`["艾森豪威尔", "艾森豪威尔 "]`) is still an exact match.
    Yes/no questions (every gold answer is a yes or a no word): both sides are first mapped to `是` / `否`
    (`是的`, `对`, `正确`, `yes`, `true` -> `是`; `不是`, `不`, `不对`, `错`, `错误`, `no`, `false` -> `否`).
    """
    g = view_gold(gold)
    pred = normalize_answers(pred_answers)
    gold_set = g.answers
    if g.boolean:
        pred = frozenset(_canonical_boolean(a) for a in pred)
        gold_set = frozenset(_canonical_boolean(a) for a in gold_set)
    m = set_prf(pred, gold_set)
    em = 1.0 if pred == gold_set else 0.0
    return AnswerResult(g.kind, em, m.precision, m.recall, m.f1, em if g.kind == "single" else m.f1)


# -------------------------------------------------------------------------------------------------------- evidence
@dataclass(frozen=True, slots=True)
class EvidenceResult:
    precision: float  # P_t against the matched gold path
    recall: float  # R_t
    triple_match: float  # F1(P_t, R_t)
    parsimony: float
    score: float  # 0.6·triple_match + 0.4·parsimony
    matched_path: str | None  # "main", "alt[0]", ...; None when the prediction's path could not be scored
    n_pred: int  # |Pred_t| as submitted (repeats included)
    n_gold_main: int  # |Gold_t,min|: distinct triples of the gold main path


NO_EVIDENCE = EvidenceResult(0.0, 0.0, 0.0, 0.0, 0.0, None, 0, 0)


def gold_paths(gold: AnswerRecord) -> list[tuple[str, Path]]:
    """The gold paths a prediction may hit, labelled: the main path, then each non-empty alternative."""
    out: list[tuple[str, Path]] = [("main", gold.main_path)]
    out.extend((f"alt[{i}]", p) for i, p in enumerate(gold.alt_paths) if p)
    return out


def evidence_score(pred_path: Sequence[PathTriple], gold: AnswerRecord | GoldView) -> EvidenceResult:
    """EvidenceScore (spec 3.2) = 0.6·TripleMatch + 0.4·Parsimony.

    Pred_t is the prediction's `gold_reasoning_paths_main`; its alternatives are not scored. TripleMatch is the
    triple F1 between Pred_t and a gold path, taking the best over the main path and every alternative ("只要命中
    上述任一推理路径即算正确"); ties go to the main path, then to the earlier alternative. Triples are compared
    normalised and in the KG's direction (a reversed triple does not match), as sets: a repeated triple counts
    once for P_t / R_t, but every submitted triple counts in |Pred_t| for Parsimony, so padding by repetition is
    penalised. Parsimony = min(1, |Gold_t,min| / |Pred_t|), 0 when Pred_t is empty.
    """
    return evidence_normalized(normalize_path(pred_path), view_gold(gold))


def evidence_normalized(pred: Sequence[PathTriple], gold: GoldView) -> EvidenceResult:
    """`evidence_score` of an already normalised predicted path."""
    pred_set = set(pred)
    best_label, best = "", SetMatch(-1.0, -1.0, -1.0, 0, 0, 0)
    for (label, _), path_set in zip(gold.paths, gold.path_sets, strict=True):
        m = set_prf(pred_set, path_set)
        if m.f1 > best.f1:
            best_label, best = label, m
    gold_min = gold.main_size
    # The spec's formula, literally: Parsimony does not look at whether the triples are right (that is TripleMatch's
    # job), so a short wrong path still earns it. docs/scoring.md notes this.
    parsimony = min(1.0, gold_min / len(pred)) if pred else 0.0
    tm = best.f1 if pred else 0.0
    score = EVIDENCE_TRIPLE_WEIGHT * tm + EVIDENCE_PARSIMONY_WEIGHT * parsimony
    return EvidenceResult(best.precision, best.recall, tm, parsimony, score, best_label, len(pred), gold_min)


# ------------------------------------------------------------------------------------------------------- reasoning
@dataclass(frozen=True, slots=True)
class ReasoningResult:
    node_coverage: float
    edge_order: float  # connection × relation_order
    hop_match: float
    score: float  # 0.4·node_coverage + 0.4·edge_order + 0.2·hop_match
    connection: float  # fraction of gold answer nodes the predicted chain links to a key entity (EdgeOrder's gate)
    relation_order: float  # LCS(gold relations, predicted relations) / max(lengths)
    key_entities: tuple[str, ...]  # normalised
    bridge_nodes: tuple[str, ...]  # normalised
    path: str | None  # the gold path it was measured against; None when not scored


NO_REASONING = ReasoningResult(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, (), (), None)


def key_entities(
    path: Sequence[PathTriple], question: str, answers: Collection[str], *, nodes: Sequence[str] | None = None
) -> tuple[str, ...]:
    """The question's key entities on a (normalised) gold path, normalised, in path order.

    = the head of the path's first triple, unless it is an answer (triples keep the KG's direction, so a chain may
    be written backwards, and a which-of-two question's path starts at the answer), plus every node whose text
    occurs in the question (normalised substring, at least `MIN_KEY_ENTITY_CHARS` characters). When that leaves
    nothing (the question paraphrases every node), the first node of the path that is not an answer.
    `nodes`: the path's nodes (`_nodes(path)`) when the caller has them already.
    """
    if not path:
        return ()
    q = normalize_text(question)
    if nodes is None:
        nodes = _nodes(path)
    head = path[0][0]
    keys = [n for n in nodes if (n == head and n not in answers) or (len(n) >= MIN_KEY_ENTITY_CHARS and n in q)]
    if not keys:
        keys = [n for n in nodes if n not in answers][:1]
    return tuple(keys)


def bridge_nodes(
    path: Sequence[PathTriple],
    keys: Collection[str],
    answers: Collection[str],
    *,
    nodes: Sequence[str] | None = None,
) -> tuple[str, ...]:
    """Nodes of a (normalised) gold path other than key entities, answers and the operands of derived comparison
    triples (`晚于`, `处于时期内`, … are checks on attribute values, not hops of the chain)."""
    derived_nodes = {n for h, r, t in path if r in _DERIVED for n in (h, t)}
    if nodes is None:
        nodes = _nodes(path)
    return tuple(n for n in nodes if n not in keys and n not in answers and n not in derived_nodes)


def _components(triples: Iterable[PathTriple]) -> dict[str, int]:
    """Connected components of the triples' graph, edges undirected: node -> component number."""
    members: dict[str, set[str]] = {}
    for h, _, t in triples:
        ch, ct = members.get(h), members.get(t)
        if ch is None and ct is None:
            members[h] = members[t] = {h, t}
        elif ch is None:
            assert ct is not None
            ct.add(h)
            members[h] = ct
        elif ct is None:
            ch.add(t)
            members[t] = ch
        elif ch is not ct:  # merge the smaller piece into the larger
            big, small = (ch, ct) if len(ch) >= len(ct) else (ct, ch)
            big |= small
            for n in small:
                members[n] = big
    # All pieces are alive while numbered, so distinct pieces get distinct ids.
    return {n: id(group) for n, group in members.items()}


def connection(pred: Sequence[PathTriple], keys: Sequence[str], targets: Collection[str]) -> float:
    """EdgeOrder's gate: does the predicted chain link the key entities to the answer?

    With answer nodes on the gold path (`targets`): the fraction of them that lie, in the predicted triples' graph
    (edges undirected), in the same connected component as a key entity other than themselves (if the answer is
    the only key entity, it only has to appear). Without answer nodes (yes/no and count questions, whose answer is
    not a KG node): 1 when every key entity appears and all of them are in one component, else 0.
    """
    comp = _components(pred)
    if targets:
        linked = 0
        for a in targets:
            others = [k for k in keys if k != a]
            if a in comp and (not others or any(k in comp and comp[k] == comp[a] for k in others)):
                linked += 1
        return linked / len(targets)
    if not pred:
        return 0.0
    if not keys:
        return 1.0
    if any(k not in comp for k in keys):
        return 0.0
    return 1.0 if len({comp[k] for k in keys}) == 1 else 0.0


def reasoning_score(
    pred_path: Sequence[PathTriple], gold: AnswerRecord | GoldView, path_label: str = "main"
) -> ReasoningResult:
    """ReasoningScore (spec 3.3) = 0.4·NodeCoverage + 0.4·EdgeOrder + 0.2·HopMatch, measured against one gold
    path, named as in `gold_paths` (the one Evidence matched; an unknown label means the main path). An empty
    prediction scores 0 on all three parts.

    - NodeCoverage: fraction of the key entities (`key_entities`) that occur as nodes of the predicted triples.
    - EdgeOrder: `connection` × LCS(gold relation sequence, predicted relation sequence) / max(their lengths);
      relations normalised, in the order written, derived comparison relations included.
    - HopMatch: fraction of the gold path's bridge nodes (`bridge_nodes`) that occur as predicted nodes; 1 when the
      gold path has none.
    """
    return reasoning_normalized(normalize_path(pred_path), view_gold(gold), path_label)


def reasoning_normalized(pred: Sequence[PathTriple], gold: GoldView, path_label: str = "main") -> ReasoningResult:
    """`reasoning_score` of an already normalised predicted path."""
    if not pred:
        return NO_REASONING
    label, gpath = gold.paths[0]
    for lbl, path in gold.paths:
        if lbl == path_label:
            label, gpath = lbl, path
            break
    answers = gold.answers
    gold_node_list = _nodes(gpath)
    keys = key_entities(gpath, gold.question, answers, nodes=gold_node_list)
    pred_nodes = {x for h, _, t in pred for x in (h, t)}

    # keys, targets and bridges hold distinct nodes, so set sizes count them
    node_coverage = len(pred_nodes.intersection(keys)) / len(keys) if keys else 1.0

    targets = sorted(answers.intersection(gold_node_list))
    conn = connection(pred, keys, targets)
    gold_rels = [r for _, r, _ in gpath]
    pred_rels = [r for _, r, _ in pred]
    order = ratio(lcs_length(gold_rels, pred_rels), max(len(gold_rels), len(pred_rels)))
    edge_order = conn * order

    bridges = bridge_nodes(gpath, keys, answers, nodes=gold_node_list)
    hop = len(pred_nodes.intersection(bridges)) / len(bridges) if bridges else 1.0

    score = REASONING_NODE_WEIGHT * node_coverage + REASONING_ORDER_WEIGHT * edge_order + REASONING_HOP_WEIGHT * hop
    return ReasoningResult(node_coverage, edge_order, hop, score, conn, order, keys, bridges, label)


# ------------------------------------------------------------------------------------------------------ constraint
# Our choice: Chinese spellings of the keys of docs/annotation.md are read as those keys.
CONSTRAINT_KEY_ALIASES: Mapping[str, str] = {
    "时间": "time",
    "时段": "time",
    "阵营": "camp",
    "所属": "camp",
    "地点": "place",
    "位置": "place",
    "数值": "numeric",
    "数量": "numeric",
    "顺序": "order",
    "排序": "order",
    "类型": "type",
    "类别": "type",
}


@dataclass(frozen=True, slots=True)
class ConstraintResult:
    precision: float  # P_c
    recall: float  # R_c
    f1: float  # the ConstraintScore
    matched: int
    n_pred: int
    n_gold: int

    @property
    def score(self) -> float:
        return self.f1


NO_CONSTRAINT = ConstraintResult(0.0, 0.0, 0.0, 0, 0, 0)


def constraint_pairs(constraints: Mapping[str, str]) -> list[tuple[str, str]]:
    """Distinct (key, value) pairs, both normalised, keys through `CONSTRAINT_KEY_ALIASES`; empty values dropped."""
    out: dict[tuple[str, str], None] = {}
    for k, v in constraints.items():
        key, value = normalize_text(k), normalize_text(v)
        if value:
            out.setdefault((CONSTRAINT_KEY_ALIASES.get(key, key), value), None)
    return list(out)


def values_match(pred: str, gold: str) -> bool:
    """Two normalised constraint values match when equal, or when one contains the other and the shorter has at
    least 2 characters and at least half the longer's length (`第二次世界大战` ~ `第二次世界大战期间`,
    `射程超过1000公里` ~ `1000公里`; but not `年以后` ~ `2010年以后`)."""
    if pred == gold:
        return True
    short, long_ = (pred, gold) if len(pred) <= len(gold) else (gold, pred)
    return len(short) >= 2 and 2 * len(short) >= len(long_) and short in long_


def constraint_score(pred: Mapping[str, str], gold: Mapping[str, str]) -> ConstraintResult:
    """ConstraintScore (spec 3.4) = F1 over (key, value) pairs, P_c and R_c as in `set_prf`.

    A predicted pair matches a gold pair with the same key and a matching value (`values_match`); pairs are
    matched one to one (exact values first, then containment). Both empty -> 1; gold empty and prediction not ->
    0 (P_c = 0: every predicted constraint is spurious); gold not empty and prediction empty -> 0.
    """
    p_pairs, g_pairs = constraint_pairs(pred), constraint_pairs(gold)
    if not p_pairs and not g_pairs:
        return ConstraintResult(1.0, 1.0, 1.0, 0, 0, 0)
    free = list(p_pairs)
    unmatched_gold: list[tuple[str, str]] = []
    matched = 0
    for g in g_pairs:  # pass 1: exact pairs
        if g in free:
            free.remove(g)
            matched += 1
        else:
            unmatched_gold.append(g)
    for gk, gv in unmatched_gold:  # pass 2: containment under the same key
        for pair in free:
            if pair[0] == gk and values_match(pair[1], gv):
                free.remove(pair)
                matched += 1
                break
    p, r = ratio(matched, len(p_pairs)), ratio(matched, len(g_pairs))
    return ConstraintResult(p, r, f1(p, r), matched, len(p_pairs), len(g_pairs))
