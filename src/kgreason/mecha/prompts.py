"""Relevance prompts (spec 001 §2.4, 表 1): triples shown with their relevance to the question, sorted ascending.

Two builders:
- `build_relevance_prompt`: the paper's free-answer template, verbatim in structure
  (`三元组:` / `[s, r, o, 与问题的相关性: x]` ... / `问题: ...` / `答案:`).
- `build_choice_request`: the same listing plus a JSON schema whose `enum` is the candidate triples, so a small
  model can only pick candidates (it cannot be trusted with free text: docs/naive_baseline.md). The program then
  turns the chosen triples into the answer (`kgreason.mecha.answering`).

Sorting is ascending with the most relevant triple last, right before the question: models use the end of a long
context better than its middle (spec 001 cites "lost in the middle"). Ties keep the caller's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from kgreason.data.records import PathTriple
from kgreason.llm.types import ChatMessage

RELEVANCE_LABEL = "与问题的相关性"
LabelStyle = Literal["relation", "triple", "id"]
DEFAULT_SYSTEM = "你是机械制造领域的知识图谱问答助手，只依据给出的三元组回答问题。"


def clip(text: str, max_chars: int | None) -> str:
    """`text` cut to `max_chars` characters with an ellipsis (display only; answers use the full value)."""
    if max_chars is None or len(text) <= max_chars:
        return text
    return text[: max(1, max_chars - 1)] + "…"


def format_triple(
    triple: PathTriple, score: float | None = None, *, digits: int = 2, max_chars: int | None = None
) -> str:
    """`[s, r, o, 与问题的相关性: x]`, or `[s, r, o]` without a score."""
    s, r, o = (clip(x, max_chars) for x in triple)
    if score is None:
        return f"[{s}, {r}, {o}]"
    return f"[{s}, {r}, {o}, {RELEVANCE_LABEL}: {score:.{digits}f}]"


def display_order(scores: Sequence[float] | None, n: int, *, sort: bool = True) -> list[int]:
    """Indices in display order: ascending by score (most relevant last) when sorting, else as given."""
    if scores is None or not sort:
        return list(range(n))
    return sorted(range(n), key=lambda i: (scores[i], i))


def build_relevance_prompt(
    question: str,
    triples: Sequence[PathTriple],
    scores: Sequence[float] | None,
    *,
    sort: bool = True,
    show_scores: bool = True,
    digits: int = 2,
    max_chars: int | None = None,
) -> str:
    """The paper's prompt (表 1). `scores` are the numbers to show (e.g. `relevance_probabilities` of the logits);
    `show_scores=False` is the "w/o scores" ablation, `sort=False` the "w/o sort" one."""
    lines = ["三元组:"]
    for i in display_order(scores, len(triples), sort=sort):
        shown = scores[i] if (scores is not None and show_scores) else None
        lines.append(format_triple(triples[i], shown, digits=digits, max_chars=max_chars))
    lines.append(f"问题: {question}")
    lines.append("答案:")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class ChoiceRequest:
    """Messages and schema for one choice call; `ids[label]` is the candidate index an enum value stands for."""

    messages: list[ChatMessage]
    schema: dict[str, Any]
    ids: dict[str, int]

    def chosen(self, value: Any) -> list[int]:
        """Candidate indices picked in a (schema-valid) reply, first mention first, duplicates dropped."""
        if not isinstance(value, dict):
            return []
        picked = value.get("triples", [value.get("triple")])
        if not isinstance(picked, list):
            return []
        out: list[int] = []
        for key in picked:
            i = self.ids.get(key) if isinstance(key, str) else None
            if i is not None and i not in out:
                out.append(i)
        return out


def choice_schema(ids: Sequence[str], max_select: int, min_select: int = 1) -> dict[str, Any]:
    """`{"triple": "T3"}` when one triple is to be chosen, else `{"triples": ["T1", "T3"]}` (min_select..max_select,
    both bounded by the number of candidates)."""
    if max_select <= 1:
        return {
            "type": "object",
            "properties": {"triple": {"type": "string", "enum": list(ids)}},
            "required": ["triple"],
            "additionalProperties": False,
        }
    return {
        "type": "object",
        "properties": {
            "triples": {
                "type": "array",
                "items": {"type": "string", "enum": list(ids)},
                "minItems": max(1, min(min_select, max_select, len(ids))),
                "maxItems": min(max_select, len(ids)),
            }
        },
        "required": ["triples"],
        "additionalProperties": False,
    }


def triple_label(triple: PathTriple, max_chars: int | None) -> str:
    """The enum value standing for a triple: `[s, r, o]` with each part clipped (what the model copies)."""
    return format_triple(triple, None, max_chars=max_chars)


def _labels(
    triples: Sequence[PathTriple],
    order: Sequence[int],
    style: LabelStyle,
    max_chars: int | None,
    *,
    ids_descending: bool = False,
) -> list[str]:
    if style == "id":
        n = len(order)
        return [f"T{n - k}" if ids_descending else f"T{k + 1}" for k in range(n)]
    relations = [clip(triples[i][1], max_chars) for i in order]
    labels: list[str] = []
    for k, i in enumerate(order):
        if style == "relation" and relations.count(relations[k]) == 1:
            label = relations[k]
        elif style == "relation":  # the relation is shared (e.g. the question names the tail): say whose
            label = f"{clip(triples[i][0], max_chars)}的{relations[k]}"
        else:
            label = triple_label(triples[i], max_chars)
        while label in labels:  # two candidates that clip to the same text stay distinguishable
            label += "'"
        labels.append(label)
    return labels


def build_choice_request(
    question: str,
    triples: Sequence[PathTriple],
    scores: Sequence[float] | None,
    *,
    sort: bool = True,
    show_scores: bool = True,
    max_select: int = 1,
    min_select: int = 1,
    digits: int = 2,
    max_chars: int | None = 80,
    label_style: LabelStyle = "id",
    label_chars: int | None = 40,
    ids_descending: bool = False,
    system: str = DEFAULT_SYSTEM,
) -> ChoiceRequest:
    """The relevance listing and a schema to choose from it; the reply is `{"triple": LABEL}` (or, with
    `max_select` > 1, `{"triples": [LABEL, ...]}`).

    Labels (the enum values; the prompt lines keep the paper's form, prefixed by the id for `id`):
    - `id` (default): `T1..Tn` in display order, so the most relevant triple is `Tn`, right before the question;
      with `ids_descending`, `Tn..T1`, so the last line (the most relevant one when sorted) is `T1`. The lines
      keep their order either way: this separates a model's bias for an id from its bias for a position.
    - `triple`: `[s, r, o]` with parts clipped to `label_chars`; the model copies the triple it means.
    - `relation`: the relation, or `<head>的<relation>` when candidates share it; short but too little to go on.
    Measured with `ours-top5` on the first 60 Mecha-QA test questions (docs/mecha_qa.md): Qwen2.5-1.5B was right
    90.0% with ids (4.1 s/question), 85.0% with triples (6.3 s: one forward pass per generated token) and 65.0% with
    relations; Qwen2.5-0.5B answered `T1` (the least relevant line) for every id prompt it saw.

    The instruction comes first and the question last, so consecutive calls share a prompt prefix (the embedded
    runtime reuses it) and the most relevant triple sits next to the question."""
    if not triples:
        raise ValueError("a choice request needs at least one candidate triple")
    with_scores = scores is not None and show_scores
    order = display_order(scores, len(triples), sort=sort)
    labels = _labels(triples, order, label_style, label_chars, ids_descending=ids_descending)
    intro = "下面是从知识图谱中检索到的三元组" + ("，每行以编号开头" if label_style == "id" else "")
    if with_scores:
        intro += f"，并给出它{RELEVANCE_LABEL}（0 到 1，越大越相关）"
    if scores is not None and sort:
        intro += "，按相关性从低到高排列，最相关的在最后"
    lines = [intro + "。", "", "三元组:"]
    for label, i in zip(labels, order, strict=True):
        shown = scores[i] if (scores is not None and with_scores) else None
        line = format_triple(triples[i], shown, digits=digits, max_chars=max_chars)
        lines.append(f"{label} {line}" if label_style == "id" else line)
    what = {"id": "的编号", "relation": "，写出它的关系", "triple": ""}[label_style]
    schema = choice_schema(labels, max_select, min_select)
    if max_select <= 1:
        ask = f"请选出能回答这个问题的那一个三元组{what}。"
    elif min_select <= 1:
        ask = (
            f"请选出回答这个问题所需的三元组{what}。通常只需要一个；"
            "只有问题要求比较几个对象或同时询问几项内容时才选多个。"
        )
    else:  # the program has read from the question that it needs several: say how many
        lo, hi = schema["properties"]["triples"]["minItems"], schema["properties"]["triples"]["maxItems"]
        count = f"{lo}个" if lo == hi else f"{lo}到{hi}个"
        ask = f"这个问题需要{count}三元组（几项内容、几个对象或一组取值）。请选出它们{what}。"
    lines += ["", f"问题: {question}", "", ask]
    messages = [ChatMessage("system", system), ChatMessage("user", "\n".join(lines))]
    return ChoiceRequest(messages, schema, dict(zip(labels, order, strict=True)))
