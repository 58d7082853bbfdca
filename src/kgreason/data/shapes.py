"""Files written by other people's tools differ from the spec in ways that can still be read with one meaning:
another name for a field (`subject` for `sub`), records wrapped in an object (`{"data": [...]}`), documents as a
`{doc_id: content}` map, a triple as a bare `[sub, relation, obj]` list, a number where text is expected, a file saved
in GB18030/GBK. The readers (`kgreason.data.readers`) take such records through here and warn once per file and kind;
what has no single reading (a field that is missing under every name, a level `L4`) stays an error.

The alternative field names are data, in one place (`FIELD_ALIASES`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kgreason.data.jsonio import RawRecord

# canonical field -> other names met in KG and QA files (English and Chinese), tried in this order when the
# canonical one is absent
FIELD_ALIASES: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "document": {
        "doc_id": ("id", "docid", "document_id", "文档id", "文档编号"),
        "content": ("text", "body", "document", "context", "内容", "正文", "文本"),
    },
    "triple": {
        "triple_id": ("id", "tid", "三元组id"),
        "sub": ("subject", "head", "s", "h", "主语", "头实体", "主体"),
        "sub_type": ("subject_type", "head_type", "sub_label", "头实体类型", "主语类型"),
        "relation": ("predicate", "rel", "relation_name", "property", "p", "r", "关系", "谓语", "属性"),
        "obj": ("object", "tail", "o", "t", "宾语", "尾实体", "客体"),
        "obj_type": ("object_type", "tail_type", "obj_label", "尾实体类型", "宾语类型"),
    },
    "question": {
        "query_id": ("id", "qid", "question_id", "问题id"),
        "doc_id": ("document_id", "docid", "文档id"),
        "question": ("query", "q", "text", "问题"),
        "difficulty": ("level", "难度", "难度等级"),
    },
}

# keys under which files wrap their records (`{"data": [...]}`); any single list-valued key is also read
WRAPPER_KEYS: tuple[str, ...] = ("data", "records", "items", "triples", "questions", "documents", "kg")

# `difficulty` written as a number or a bare digit
LEVEL_DIGITS: Mapping[str, str] = {"1": "L1", "2": "L2", "3": "L3", "一": "L1", "二": "L2", "三": "L3"}
DEFAULT_LEVEL = "L2"  # a question without a level: the reasoner's full search (L1 restricts it to one fact)


@dataclass(frozen=True, slots=True)
class Reshaped:
    """A record with the spec's field names, and what was changed to get there (one note per kind of change)."""

    value: Any
    notes: tuple[str, ...] = ()


def rename_fields(kind: str, value: Any) -> Reshaped:
    """`value` with each canonical field of `kind` taken from its first alias present, when it is absent itself."""
    if not isinstance(value, dict):
        return Reshaped(value)
    out = dict(value)
    notes: list[str] = []
    for canonical, aliases in FIELD_ALIASES[kind].items():
        if canonical in out:
            continue
        for alias in aliases:
            if alias in out:
                out[canonical] = out.pop(alias)
                notes.append(f"field {alias!r} read as {canonical!r} (the spec's name)")
                break
    return Reshaped(out, tuple(notes))


def triple_from_list(value: Any) -> Reshaped:
    """A bare `[sub, relation, obj]` of three scalars as a triple object without types; anything else unchanged."""
    if isinstance(value, list) and len(value) == 3 and all(_is_scalar(v) for v in value):
        sub, relation, obj = value
        return Reshaped(
            {"sub": sub, "relation": relation, "obj": obj, "sub_type": "", "obj_type": ""},
            ("a bare [sub, relation, obj] list read as a triple (no types)",),
        )
    return Reshaped(value)


def unwrap(records: list[RawRecord], fields: Sequence[str], kind: str) -> tuple[list[RawRecord], str | None]:
    """The records of a file that wraps them: one object holding a list (`{"data": [...]}`), or — for documents —
    a `{doc_id: content}` map. Returns the records unchanged (and None) when the file is not such a wrapper. `kind`
    is a key of `FIELD_ALIASES` or another record kind (`answer`: no other field names)."""
    if len(records) != 1 or not isinstance(records[0].value, dict):
        return records, None
    value: dict[str, Any] = records[0].value
    aliases = FIELD_ALIASES.get(kind, {})
    known = set(fields) | {a for f in fields for a in aliases.get(f, ())}
    if any(k in known for k in value):
        return records, None  # one record of the file's own kind
    lists = [k for k, v in value.items() if isinstance(v, list)]
    key = next((k for k in WRAPPER_KEYS if k in lists), lists[0] if len(lists) == 1 else None)
    if key is not None:
        inner = [RawRecord(index=i, line=0, value=v) for i, v in enumerate(value[key])]
        return inner, f"records read from the list under the key {key!r}"
    if kind == "document" and value and all(isinstance(v, str) for v in value.values()):
        docs = [RawRecord(index=i, line=0, value={"doc_id": k, "content": v}) for i, (k, v) in enumerate(value.items())]
        return docs, "a {doc_id: content} object read as one document per key"
    return records, None


def number_as_text(value: Any) -> str | None:
    """A JSON number where text is expected, as the text it was written as (`3` -> "3", `7.85` -> "7.85"); None for
    anything else (bools, NaN and infinities have no text reading)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return repr(value)


def level_from_digit(value: Any) -> str | None:
    """`3`, `"3"`, `"三"` or `"三级"` as "L3"; None when `value` is no such spelling."""
    text = number_as_text(value) if not isinstance(value, str) else value.strip().removesuffix("级")
    return LEVEL_DIGITS.get(text) if text is not None else None


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str) or number_as_text(value) is not None
