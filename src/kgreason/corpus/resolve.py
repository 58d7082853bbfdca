"""Reading a follow-up question against the dialogue state: pronouns (`它`, `她`), demonstratives with a kind word
(`该舰`, `那些导弹`), ellipsis (`F-35B呢`, `作战半径呢`, `后来呢`) and ordinals (`第二艘呢`).

The program resolves a reference when the state leaves one compatible entity; when it leaves several, the LLM (if
any) chooses among them under a JSON schema whose enum is exactly those names; without an LLM, or when it fails, the
conversation's topic (the entity the latest turn was about) is taken. Compatibility: a person pronoun wants a KG
type of a person; a thing pronoun anything else; a kind word (`舰`, `导弹`, `演习`) must be in the entity's name or
types. Every language word comes from `kgreason.corpus.words`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgreason.corpus.dialogue import DialogueState, Resolution, ResolutionHow, ResolvedBy, Salient
from kgreason.corpus.words import (
    CHINESE_NUMERALS,
    CLASS_MARKERS,
    CLASS_MEASURES,
    CONTINUE_QUESTION,
    CONTINUE_WORDS,
    DEMONSTRATIVE_MEASURES,
    DEMONSTRATIVES,
    FOLLOW_UP_PREFIXES,
    FOLLOW_UP_SUFFIXES,
    KIND_STOP_CHARS,
    NON_REFERRING,
    ORDINAL_FIRST,
    ORDINAL_KINDS,
    ORDINAL_STYLES,
    PLURAL_MARKERS,
    PRONOUNS,
)
from kgreason.llm.request import with_system
from kgreason.llm.types import LLM, ChatMessage
from kgreason.reason.lexicon import MEASURE_WORDS, PERSON_TYPE_HINTS
from kgreason.text.normalize import normalize_text

LinkFn = Callable[[str], list[tuple[int, int, str]]]  # question -> strongly linked (start, end, name), in order
RelationsFn = Callable[[str], frozenset[str]]  # entity name -> its KG relation names (normalised)
MIN_RELATION_CHARS = 2
MAX_KIND_CHARS = 4
RESOLVE_MAX_TOKENS = 48
_TRAILING = re.compile(r"[？?。！!，,\s]+$")
_ORDINAL = re.compile(rf"({'|'.join(ORDINAL_FIRST)}|第[{CHINESE_NUMERALS}]+|[{CHINESE_NUMERALS}]+号)")


@dataclass(frozen=True, slots=True)
class _Reference:
    start: int
    end: int
    word: str  # the pronoun or demonstrative
    kind: str  # the kind word after a demonstrative ('' for pronouns)
    wants: str  # person | thing | any
    plural: bool
    class_measure: bool = False  # `这型`, `该级`: a class of things, not one of them


def _asks_relation_of(question: str, relations: frozenset[str]) -> bool:
    """Whether the question spells one of the relation names (at least two characters)."""
    q = normalize_text(question)
    return any(len(r) >= MIN_RELATION_CHARS and r in q for r in relations)


def _is_person(e: Salient) -> bool:
    return any(hint in t for t in e.types for hint in PERSON_TYPE_HINTS)


def _compatible(e: Salient, ref: _Reference) -> bool:
    if ref.wants == "person" and not _is_person(e):
        return False
    if ref.class_measure and not any(marker in e.name for marker in CLASS_MARKERS):
        return False
    if ref.wants == "thing" and _is_person(e):
        return False
    if ref.kind:
        return ref.kind in e.name or any(ref.kind in t for t in e.types)
    return True


def _references(question: str, linked: Sequence[tuple[int, int, str]]) -> list[_Reference]:
    """Referring words of the question outside linked names and outside non-referring words, in order."""
    blocked = [(s, e) for s, e, _ in linked]
    for word in NON_REFERRING:
        for m in re.finditer(re.escape(word), question):
            blocked.append((m.start(), m.end()))
    out: list[_Reference] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return not any(a < e and s < b for s, e in [*blocked, *taken])

    for word in sorted(DEMONSTRATIVES, key=len, reverse=True):
        for m in re.finditer(re.escape(word), question):
            a, b = m.start(), m.end()
            if not free(a, b):
                continue
            while b < len(question) and question[b] in DEMONSTRATIVE_MEASURES + MEASURE_WORDS:
                b += 1
            kind_end = b
            while kind_end < len(question) and kind_end - b < MAX_KIND_CHARS and _is_word_char(question[kind_end]):
                kind_end += 1
            if kind_end == a + len(word):  # a demonstrative refers only with a measure or kind word (`该舰`)
                continue
            measures = question[a + len(word) : b]
            ref = _Reference(
                a,
                kind_end,
                word,
                question[b:kind_end],
                "any",
                word in PLURAL_MARKERS,
                any(ch in CLASS_MEASURES for ch in measures),
            )
            out.append(ref)
            taken.append((a, kind_end))
    for word in sorted(PRONOUNS, key=len, reverse=True):
        for m in re.finditer(re.escape(word), question):
            if free(m.start(), m.end()):
                out.append(_Reference(m.start(), m.end(), word, "", PRONOUNS[word], word in PLURAL_MARKERS))
                taken.append((m.start(), m.end()))
    return sorted(out, key=lambda r: r.start)


def _is_word_char(ch: str) -> bool:
    """Characters a kind word is made of: CJK, not a particle that ends it (`的`, `是`, ...)."""
    return "\u4e00" <= ch <= "\u9fff" and ch not in KIND_STOP_CHARS


def _shorten_kind(ref: _Reference, candidates: Sequence[Salient]) -> _Reference:
    """The longest start of the kind word that some candidate is compatible with (`该舰服役` -> kind `舰`); the kind
    is dropped when none is."""
    for length in range(len(ref.kind), -1, -1):
        end = ref.end - (len(ref.kind) - length)
        trial = _Reference(ref.start, end, ref.word, ref.kind[:length], ref.wants, ref.plural, ref.class_measure)
        if length == 0 or any(_compatible(e, trial) for e in candidates):
            return trial
    raise AssertionError("unreachable")


class Resolver:
    """Resolves one question at a time against a `DialogueState`. `link` gives the question's strongly linked names
    (the corpus index); `relations` (optional) an entity's KG relation names, to keep the candidates the question
    asks something of; `llm` (optional) chooses when the state still leaves several entities."""

    def __init__(self, link: LinkFn, llm: LLM | None = None, relations: RelationsFn | None = None) -> None:
        self.link = link
        self.llm = llm
        self.relations = relations

    def resolve(self, question: str, state: DialogueState) -> Resolution:
        question = question.strip()
        linked = self.link(question)
        if state.last is None:
            unresolved = tuple(question[r.start : r.end] for r in _references(question, linked))
            return Resolution(question, (question,), unresolved=unresolved)
        bare = _TRAILING.sub("", question)
        topic = state.topic()
        if bare in CONTINUE_WORDS and topic is not None:
            return Resolution(question, (CONTINUE_QUESTION.format(entity=topic.name),), "continue", (topic.name,))
        refs = _references(question, linked)
        if refs:
            return self._resolve_references(question, refs, state)
        follow = _follow_up_body(bare)
        if follow is not None:
            return self._ellipsis(question, follow, linked, state)
        if not linked and topic is not None:
            # names nothing: the question is about the topic (`涉事的是哪艘舰？` after `黑海对峙事件…`)
            return Resolution(question, (topic.name + question,), "ellipsis", (topic.name,))
        return Resolution(question, (question,))

    # ------------------------------------------------------------------------------------------------------
    def _resolve_references(self, question: str, refs: list[_Reference], state: DialogueState) -> Resolution:
        texts = [question]
        referents: list[str] = []
        how: ResolutionHow = "pronoun"
        by: ResolvedBy = "program"
        unresolved: list[str] = []
        for ref in reversed(refs):  # from the end, so earlier offsets stay valid
            ref, pool = _pool(state, ref)
            if not pool:
                if ref.kind or ref.word in PRONOUNS:
                    unresolved.insert(0, question[ref.start : ref.end])
                continue
            if ref.word in DEMONSTRATIVES:
                how = "demonstrative"
            chosen, who = self._choose(question, ref, pool, state)
            by = who if who != "program" else by
            referents = [*[e.name for e in chosen], *referents]
            texts = [t[: ref.start] + e.name + t[ref.end :] for t in texts for e in chosen]
        if not referents:
            return Resolution(question, (question,), unresolved=tuple(unresolved))
        return Resolution(question, tuple(texts), how, tuple(dict.fromkeys(referents)), by, tuple(unresolved))

    def _choose(
        self, question: str, ref: _Reference, pool: list[Salient], state: DialogueState
    ) -> tuple[list[Salient], ResolvedBy]:
        if ref.plural:
            # the group the conversation is about continues (`它们` after asking of several entities), else the
            # several answers of the latest turn (`这些导弹` after `使用了哪些武器`)
            mentioned = [e for e in pool if e.role == "mentioned"]
            answered = [e for e in pool if e.role == "answered"]
            group = mentioned if len(mentioned) >= 2 else answered if len(answered) >= 2 else pool
            return group, "program"
        if len(pool) > 1 and self.relations is not None:
            # the question asks for a relation only some candidates have in the KG (`它的作战半径` -> the aircraft,
            # not the accident it was in)
            rest = question[: ref.start] + question[ref.end :]
            fitting = [e for e in pool if _asks_relation_of(rest, self.relations(e.name))]
            pool = fitting or pool
        if len(pool) == 1:
            return pool, "program"
        if self.llm is not None:
            picked = self._ask_llm(question, ref, pool, state)
            if picked is not None:
                return [picked], "llm"
        return [pool[0]], "default"

    def _ask_llm(self, question: str, ref: _Reference, pool: list[Salient], state: DialogueState) -> Salient | None:
        assert self.llm is not None
        names = [e.name for e in pool]
        history = "\n".join(f"用户：{t.resolution.text}\n系统：{t.answer.text[:120]}" for t in state.turns[-3:])
        prompt = (
            f"对话记录：\n{history}\n\n新问题：{question}\n"
            f"问题中的“{question[ref.start : ref.end]}”指的是哪一个实体？"
            f"只能从以下候选中选择：{json.dumps(names, ensure_ascii=False)}\n"
            '以JSON回答：{"referent": "候选名称"}'
        )
        schema = {
            "type": "object",
            "properties": {"referent": {"type": "string", "enum": names}},
            "required": ["referent"],
            "additionalProperties": False,
        }
        result = self.llm.complete_json(
            with_system([ChatMessage("user", prompt)]), schema, max_tokens=RESOLVE_MAX_TOKENS
        )
        if not result.ok:
            return None
        name = result.value.get("referent") if isinstance(result.value, dict) else None
        return next((e for e in pool if e.name == name), None)

    def _ellipsis(
        self, question: str, body: str, linked: list[tuple[int, int, str]], state: DialogueState
    ) -> Resolution:
        last = state.last
        assert last is not None
        previous = last.resolution.resolved[0]
        ordinal = _ORDINAL.match(body)
        if ordinal is not None:
            rewritten = _replace_ordinal(previous, ordinal.group(1))
            if rewritten is not None:
                return Resolution(question, (rewritten,), "ordinal")
        if linked:
            new = linked[0][2]
            old = _same_kind_in(previous, new, last.entities)
            if old is not None:
                return Resolution(question, (previous.replace(old, new, 1),), "ellipsis", (new,))
            return Resolution(question, (question,))
        topic = state.topic()
        if topic is None:
            return Resolution(question, (question,))
        return Resolution(question, (f"{topic.name}的{body}",), "ellipsis", (topic.name,))


def _follow_up_body(bare: str) -> str | None:
    """`F-35B呢` -> `F-35B`; None when the question is not an elliptical follow-up."""
    for suffix in FOLLOW_UP_SUFFIXES:
        if bare.endswith(suffix) and len(bare) > len(suffix):
            body = bare[: -len(suffix)]
            return body[1:] if body.startswith(FOLLOW_UP_PREFIXES) and len(body) > 1 else body
    return None


def _same_kind_in(previous: str, new: str, entities: Sequence[Salient]) -> str | None:
    """The previous question's spelling of an entity of the same kind as `new` (or its first mentioned entity)."""
    mentioned = [e for e in entities if e.role == "mentioned" and e.name != new]
    for e in mentioned:
        spelled = _spelling_in(previous, e.name)
        if spelled:
            return spelled
    return None


def _spelling_in(text: str, name: str) -> str | None:
    """How `text` spells `name`: in full, or the longest start of it (`伊丽莎白女王号` for the carrier)."""
    for length in range(len(name), 1, -1):
        if name[:length] in text:
            return name[:length]
    return None


def _replace_ordinal(previous: str, ordinal: str) -> str | None:
    """`伊丽莎白女王级的首舰何时服役` + `第二` -> `伊丽莎白女王级的二号舰何时服役`."""
    number = _ordinal_number(ordinal)
    if number is None:
        return None
    kinds = ORDINAL_KINDS + MEASURE_WORDS
    for m in _ORDINAL.finditer(previous):
        end = m.end()
        if end < len(previous) and previous[end] in kinds:
            word = m.group(1)
            style = ORDINAL_STYLES["第" if word.startswith("第") else "号" if word.endswith("号") else word]
            return previous[: m.start()] + style.format(n=CHINESE_NUMERALS[number - 1]) + previous[end:]
    return None


def _ordinal_number(word: str) -> int | None:
    if word in ORDINAL_FIRST:
        return 1
    digits = word.strip("第号")
    if len(digits) == 1 and digits in CHINESE_NUMERALS:
        return CHINESE_NUMERALS.index(digits) + 1
    return None


def _pool(state: DialogueState, ref: _Reference) -> tuple[_Reference, list[Salient]]:
    """The entities a reference may stand for: those of the latest turn that has one of the reference's kind (mentioned
    first, then answered), with the kind word cut to what matched. When no turn has that kind, the kind word was not
    one (`这是`): the latest turn's entities the pronoun allows, if the reference still has a measure word."""
    bare = _Reference(ref.start, ref.end, ref.word, "", ref.wants, ref.plural, ref.class_measure)
    turns = [[e for e in t.entities if _compatible(e, bare)] for t in reversed(state.turns)]
    for base in turns:
        if base and ref.kind:
            shortened = _shorten_kind(ref, base)
            if shortened.kind:
                return shortened, list(dict.fromkeys(e for e in base if _compatible(e, shortened)))
        elif base:
            return ref, list(dict.fromkeys(base))
    dropped = _shorten_kind(ref, [])
    if dropped.end == dropped.start + len(dropped.word):  # a bare demonstrative: not a reference after all
        return dropped, []
    return dropped, next((list(dict.fromkeys(b)) for b in turns if b), [])


__all__ = ["Resolver"]
