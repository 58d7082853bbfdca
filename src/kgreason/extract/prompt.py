"""What the LLM is asked for one window of sentences: the messages and the JSON schema of its reply.

The reply is a list of triples, each citing a sentence of the window by its number (`i`, an `enum` of the window's
indices, so it cannot cite another). Keys are one or two letters because output length is the cost on a CPU
(6–10 generated tokens/s for the embedded 1.5B model). Subject and object types come from a small closed list;
dates and numbers are typed by the program (`kgreason.extract.values`), whose finds are shown as candidates so the
model copies their spelling. The shared instructions come first so llama.cpp reuses the prompt prefix between calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kgreason.data.provenance import Sentence
from kgreason.llm.types import ChatMessage

# Entity types the model chooses from: the node types of the task's KGs (examples/sample). `时间` and `数值` are
# the program's (values found by the parsers); the model may still pick them for a value the parsers missed.
ENTITY_TYPES: tuple[str, ...] = (
    "武器装备", "组织机构", "作战行动", "事件", "人物", "国家", "地点", "类别", "名称", "编号", "军衔", "职务",
    "项目", "时间", "数值",
)  # fmt: skip
MAX_TRIPLES_PER_SENTENCE = 6
MAX_LINE_CHARS = 80

SYSTEM = "你是信息抽取助手，从句子中抽取知识图谱三元组，只输出JSON。"

# The relation names the instructions give as examples (also the vocabulary `canonical.relation_head` maps onto).
RELATION_EXAMPLES: tuple[str, ...] = (
    "研制单位", "研制国家", "别名", "简称", "类型", "隶属于", "指挥官", "首飞时间", "服役时间", "发生时间", "发生地点",
    "参战方", "满载排水量", "作战半径", "使用方", "装备",
)  # fmt: skip
INSTRUCTIONS = (
    "从每个编号句子中抽取事实，每条写成“主语|关系|宾语”，放在该句的键（如s3）下。要求：\n"
    "1. 主语和宾语照抄句中原文的名称；代词（它、该舰、该机、该系列、其）写成它指代的完整名称。\n"
    f"2. 关系是简短的词，如：{'、'.join(RELATION_EXAMPLES)}。\n"
    "3. 时间和数值照抄原文作为宾语。\n"
    "4. 每个事实只写一次，句中没有的事实不写。\n"
    "例：[0] 歼-20由成都飞机工业集团研制，2011年1月11日首飞。\n"
    '输出：{"s0":["歼-20|研制单位|成都飞机工业集团","歼-20|首飞时间|2011年1月11日"]}'
)
SHORT_INSTRUCTIONS = "从每个编号句子中抽取事实，每条写成“主语|关系|宾语”，主语和宾语照抄原文，放在该句的键下。"

# English text gets English instructions, so relations come out in the text's language (a Chinese prompt made the
# model write `母亲` for "mother" in English text, which no English question or gold triple uses). The relation
# examples are generic encyclopedic property labels, the counterpart of the Chinese list above.
SYSTEM_EN = "You extract knowledge graph triples from sentences. Output JSON only."
INSTRUCTIONS_EN = (
    "From each numbered sentence, list its facts as 'subject|relation|object' under that sentence's key (e.g. s3).\n"
    "1. Copy subject and object names exactly as the sentence writes them; write a pronoun (he, she, it, the film)\n"
    "as the full name it stands for.\n"
    "2. A relation is a short property label, such as: director, mother, father, spouse, date of birth,\n"
    "place of birth, date of death, place of death, country, nationality, publication date, founded by,\n"
    "located in, member of, educated at, occupation, award received.\n"
    "3. Copy dates and numbers as written as the object.\n"
    "4. List each fact once; do not list facts the sentence does not state.\n"
    "Example: [0] Inception is a 2010 film directed by Christopher Nolan.\n"
    'Output: {"s0":["Inception|publication date|2010","Inception|director|Christopher Nolan"]}'
)
SHORT_INSTRUCTIONS_EN = "List each numbered sentence's facts as 'subject|relation|object' under its key, names copied."


@dataclass(frozen=True, slots=True)
class Window:
    """Consecutive sentences of one document asked about in one call."""

    doc_id: str
    title: str  # the document's first sentence, given as context
    sentences: tuple[Sentence, ...]
    values: tuple[str, ...] = ()  # dates and quantities the program found in these sentences, as written

    @property
    def indices(self) -> list[int]:
        return [s.index for s in self.sentences]


def sentence_key(index: int) -> str:
    return f"s{index}"


def reply_schema(window: Window, max_lines: int) -> dict[str, Any]:
    """One array per sentence of the window (so the citation is the structure itself), of `主语|关系|宾语` strings:
    about a third of the tokens of an object per triple, and `maxItems` (`max_lines`) cuts off a model that starts
    repeating."""
    line = {"type": "string", "minLength": 5, "maxLength": MAX_LINE_CHARS}
    per_sentence = {"type": "array", "items": line, "maxItems": max_lines}
    keys = [sentence_key(i) for i in window.indices]
    return {
        "type": "object",
        "properties": {k: per_sentence for k in keys},
        "required": keys,
        "additionalProperties": False,
    }


def _numbered(sentences: Sequence[Sentence]) -> str:
    return "\n".join(f"[{s.index}] {s.text}" for s in sentences)


def is_chinese(text: str) -> bool:
    """Whether Chinese characters make up at least a third of the text's letters."""
    letters = [ch for ch in text if ch.isalpha()]
    cjk = sum(1 for ch in letters if "\u3400" <= ch <= "\u9fff")
    return bool(letters) and cjk * 3 >= len(letters)


def window_messages(window: Window, *, short: bool = False) -> list[ChatMessage]:
    """The messages for `window`, in the language of its sentences; `short` drops the rules, the example and the
    context (the retry after a malformed reply: a shorter prompt leaves the model less to echo)."""
    chinese = is_chinese("".join(s.text for s in window.sentences))
    if chinese:
        system, rules, brief = SYSTEM, INSTRUCTIONS, SHORT_INSTRUCTIONS
        title, listed, values = "文档标题：", "句子：", "句中的时间和数值："
    else:
        system, rules, brief = SYSTEM_EN, INSTRUCTIONS_EN, SHORT_INSTRUCTIONS_EN
        title, listed, values = "Title: ", "Sentences:", "Dates and numbers in them: "
    parts = [brief if short else rules]
    if not short and window.title and window.title not in (s.text for s in window.sentences):
        parts.append(f"{title}{window.title}")
    parts.append(listed + "\n" + _numbered(window.sentences))
    if window.values and not short:
        parts.append(values + ("；" if chinese else "; ").join(window.values))
    return [ChatMessage("system", system), ChatMessage("user", "\n".join(parts))]
