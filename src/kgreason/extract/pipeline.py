"""One document's text to its KG with provenance: sentences → windows → LLM lines → grounded, canonical, typed
triples. No I/O here (the command writes; `kgreason.extract.output`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kgreason.data.provenance import Sentence, SourcedTriple
from kgreason.data.records import Document, KGTriple
from kgreason.extract.canonical import Renaming, canonicalise, without_shifted_slots
from kgreason.extract.enumerations import split_enumerations
from kgreason.extract.events import event_nodes
from kgreason.extract.grounding import Grounded, ground
from kgreason.extract.lines import RawTriple, read_reply
from kgreason.extract.node_types import UNKNOWN_TYPE, llm_types, object_type_by_relation, rule_type
from kgreason.extract.open_values import attributed, name_candidates, open_values, topic_before
from kgreason.extract.parentheses import parenthetical_facts
from kgreason.extract.prompt import MAX_TRIPLES_PER_SENTENCE, Window, reply_schema, window_messages
from kgreason.extract.sentences import split_sentences
from kgreason.extract.values import ValueMention, find_values, grounding_values, value_type
from kgreason.llm.types import LLM, ChatMessage, LLMResult

DEFAULT_WINDOW = 2
DEFAULT_MAX_TOKENS = 320  # per window: ~6 lines of ~16 tokens per sentence and the JSON around them
MIN_REASK_CHARS = 12  # a silent sentence shorter than this (a heading, a fragment) is not asked again


@dataclass(frozen=True, slots=True)
class ExtractSettings:
    window: int = DEFAULT_WINDOW  # sentences per LLM call
    max_tokens: int = DEFAULT_MAX_TOKENS
    reask_silent: bool = True  # a sentence of a window that gave no triple is asked again alone
    max_lines: int = MAX_TRIPLES_PER_SENTENCE  # triples the reply may list per sentence
    open_values: bool = True  # a sentence's dates and quantities no triple holds are attributed by the program


@dataclass(slots=True)
class ExtractStats:
    """Counts for the progress line, the run record and the benchmark."""

    sentences: int = 0
    windows: int = 0
    retried_windows: int = 0  # the first reply was unusable; asked again with the short prompt
    skipped_windows: int = 0  # the retry failed too: the window's sentences gave no triples
    malformed_lines: int = 0  # a listed triple that did not split into three parts
    ungrounded: int = 0  # a triple whose subject or object no sentence of its window contains
    recited: int = 0  # listed under one sentence, found (and cited) in another of the window
    duplicates: int = 0
    enumerations: int = 0  # triples whose subject or object was a list, split into one triple per member
    reasked: int = 0  # sentences no triple of their window cited, asked again alone
    value_triples: int = 0  # values no reply held, attributed by the program (`extract/open_values.py`)
    events: int = 0  # event nodes made from a sentence's naming phrase (`这一事件被称为“X”`)
    parenthetical: int = 0  # facts read by the program from a parenthesis after a name (`X（舷号D36）`)
    shifted: int = 0  # triples dropped because the model wrote a name in the relation slot (canonical rule 7)
    typing_failures: int = 0
    # Every call's tokens, cached replies included (their original counts): the cost of extracting from scratch.
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    warnings: list[str] = field(default_factory=list)

    def add(self, other: ExtractStats) -> None:
        for name in ("sentences", "windows", "retried_windows", "skipped_windows", "malformed_lines",
                     "ungrounded", "recited", "duplicates", "enumerations", "reasked",
                     "value_triples", "events", "parenthetical", "shifted", "typing_failures",
                     "llm_calls", "prompt_tokens", "completion_tokens"):  # fmt: skip
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.warnings.extend(other.warnings)

    def to_json(self) -> dict[str, Any]:
        return {
            "sentences": self.sentences,
            "windows": self.windows,
            "retried_windows": self.retried_windows,
            "skipped_windows": self.skipped_windows,
            "malformed_lines": self.malformed_lines,
            "ungrounded": self.ungrounded,
            "recited": self.recited,
            "duplicates": self.duplicates,
            "enumerations": self.enumerations,
            "reasked": self.reasked,
            "value_triples": self.value_triples,
            "events": self.events,
            "parenthetical": self.parenthetical,
            "shifted": self.shifted,
            "typing_failures": self.typing_failures,
            "llm_calls": self.llm_calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass(frozen=True, slots=True)
class Provenance:
    """A sourced triple with what the provenance file shows beside it: the mentions the sentence holds."""

    sourced: SourcedTriple
    sentence_text: str
    sub_mention: str
    obj_mention: str
    how: tuple[str, str]  # how each end was found: exact | value | part | pronoun


@dataclass(frozen=True, slots=True)
class DocumentKG:
    doc_id: str
    sentences: list[Sentence]
    triples: list[Provenance]
    renamings: list[Renaming]
    stats: ExtractStats

    @property
    def kg(self) -> list[KGTriple]:
        return [p.sourced.triple for p in self.triples]


class _CountingLLM:
    """Adds every call's tokens to the document's stats (cached replies with their original counts)."""

    def __init__(self, inner: LLM, stats: ExtractStats) -> None:
        self._inner = inner
        self._stats = stats

    @property
    def name(self) -> str:
        return self._inner.name

    def complete_json(self, messages: list[ChatMessage], schema: dict[str, Any], *, max_tokens: int = 256) -> LLMResult:
        result = self._inner.complete_json(messages, schema, max_tokens=max_tokens)
        self._stats.llm_calls += 1
        self._stats.prompt_tokens += result.usage.prompt_tokens
        self._stats.completion_tokens += result.usage.completion_tokens
        return result


WindowDone = Callable[[Window, int], None]  # (window, triples read from it)


def window_of(doc_id: str, title: str, group: tuple[Sentence, ...]) -> Window:
    """A window over `group` with the values the program found in its sentences."""
    values = tuple(dict.fromkeys(v.text for s in group for v in find_values(s.text)))
    return Window(doc_id, title, group, values)


def make_windows(sentences: list[Sentence], size: int, title: str | None = None) -> list[Window]:
    """Consecutive groups of `size` sentences, each with a title (default: the document's first sentence) and the
    values the program found in it."""
    if not sentences:
        return []
    title = sentences[0].text if title is None else title
    doc_id = sentences[0].doc_id
    return [window_of(doc_id, title, tuple(sentences[k : k + size])) for k in range(0, len(sentences), size)]


def silent_sentences(window: Window, grounded: list[Grounded]) -> list[Sentence]:
    """The sentences of a window of several that no grounded triple cites (the model listed nothing of theirs, often
    because it copied the neighbour's list under their key), apart from the title line, which has no facts of its
    own; sentences shorter than MIN_REASK_CHARS are left too."""
    if len(window.sentences) < 2:
        return []
    cited = {g.sentence.index for g in grounded}
    return [
        s
        for s in window.sentences
        if s.index not in cited and s.text != window.title and len(s.text.strip()) >= MIN_REASK_CHARS
    ]


def _read_window(
    llm: LLM,
    window: Window,
    settings: ExtractSettings,
    values: dict[int, list[ValueMention]],
    content: str,
    stats: ExtractStats,
) -> tuple[list[Grounded], int]:
    """The grounded triples of one window's reply, and how many lines it listed (-1: no usable reply, skipped)."""
    reply = _ask(llm, window, settings, stats)
    if reply is None:
        return [], -1
    raw, malformed = read_reply(window, reply)
    stats.malformed_lines += malformed
    out = []
    for r in raw:
        g = _ground_in_window(r, window, values, content, stats)
        if g is None:
            stats.ungrounded += 1
        else:
            out.append(g)
    return out, len(raw)


def _ask(llm: LLM, window: Window, settings: ExtractSettings, stats: ExtractStats) -> Any | None:
    """The reply's value; one retry with the short prompt after a failure; None (counted, warned) after two."""
    schema = reply_schema(window, settings.max_lines)
    first: LLMResult = llm.complete_json(window_messages(window), schema, max_tokens=settings.max_tokens)
    if first.ok:
        return first.value
    stats.retried_windows += 1
    second = llm.complete_json(window_messages(window, short=True), schema, max_tokens=settings.max_tokens)
    if second.ok:
        return second.value
    stats.skipped_windows += 1
    stats.warnings.append(
        f"{window.doc_id}: sentences {window.indices[0]}–{window.indices[-1]} skipped: "
        f"{first.kind} ({first.message[:80]}), then {second.kind} on the retry"
    )
    return None


def _attribute_open_values(
    window: Window,
    found: list[Grounded],
    earlier: list[Grounded],
    values: dict[int, list[ValueMention]],
    content: str,
    stats: ExtractStats,
) -> list[Grounded]:
    """The triples of the window's dates and quantities that no triple holds, attributed by the program
    (`extract/open_values.py`), grounded like the model's."""
    out: list[Grounded] = []
    known = [*earlier, *found]
    for s in window.sentences:
        cited = [g for g in found if g.sentence.index == s.index]
        still_open = open_values(s.text, values.get(s.index, []), cited)
        if not still_open:
            continue
        alone = window_of(window.doc_id, window.title, (s,))
        for raw in attributed(s, still_open, name_candidates(s, cited, known), topic_before(s, known)):
            g = _ground_in_window(raw, alone, values, content, stats)
            if g is not None:
                out.append(g)
    stats.value_triples += len(out)
    return out


def _type_names(llm: LLM | None, title: str, grounded: list[Grounded], stats: ExtractStats) -> dict[str, str]:
    types: dict[str, str] = {}
    for g in grounded:  # objects whose relation says what they are (`简称` → 名称) come first
        by_relation = object_type_by_relation(g.relation)
        if by_relation is not None and value_type(g.obj.name) is None:
            types.setdefault(g.obj.name, by_relation)
    names = list(dict.fromkeys(n for g in grounded for n in (g.sub.name, g.obj.name)))
    for n in names:
        if n not in types and (t := rule_type(n)) is not None:
            types[n] = t
    asked, failed = llm_types(llm, title, [n for n in names if n not in types])
    stats.typing_failures += failed
    types.update(asked)
    return types


def _sourced(doc_id: str, grounded: list[Grounded], types: dict[str, str]) -> list[Provenance]:
    out = []
    for k, g in enumerate(grounded, start=1):
        triple = KGTriple(
            triple_id=f"t{k:03d}",
            sub=g.sub.name,
            sub_type=types.get(g.sub.name, UNKNOWN_TYPE),
            relation=g.relation,
            obj=g.obj.name,
            obj_type=types.get(g.obj.name, UNKNOWN_TYPE),
        )
        sourced = SourcedTriple(triple, doc_id, g.sentence.index, g.doc_span)
        sub_text = g.sentence.text[g.sub.start : g.sub.end]
        obj_text = g.sentence.text[g.obj.start : g.obj.end]
        out.append(Provenance(sourced, g.sentence.text, sub_text, obj_text, (g.sub.how, g.obj.how)))
    return out


def _ground_in_window(
    raw: RawTriple, window: Window, values: dict[int, list[ValueMention]], text: str, stats: ExtractStats
) -> Grounded | None:
    """`raw` grounded in the sentence it was listed under, else in another sentence of the window that holds both
    ends (the model often lists a fact under its neighbour), which then is the one cited. A sentence that spells
    both ends wins over one where an end is only a part of the name (the model copies one sentence's list under
    the other's key too: `韩国空军` listed under a sentence naming `美国空军` must not become its part `国空军`)."""
    order = sorted(window.sentences, key=lambda s: s.index != raw.sentence)
    found = [g for s in order if (g := ground(raw, s, values[s.index], text[: s.start])) is not None]
    if not found:
        return None
    best = min(found, key=lambda g: (g.sub.how == "part") + (g.obj.how == "part"))  # the listed sentence on ties
    if best.sentence.index != raw.sentence:
        stats.recited += 1
    return best


def extract_document(
    llm: LLM, doc: Document, settings: ExtractSettings, on_window: WindowDone | None = None
) -> DocumentKG:
    """A whole document: split into sentences, read in windows, canonicalised, typed."""
    sentences = split_sentences(doc.doc_id, doc.content)
    return extract_sentences(llm, doc.doc_id, sentences, doc.content, settings, on_window=on_window)


def extract_sentences(
    llm: LLM,
    doc_id: str,
    sentences: list[Sentence],
    content: str,
    settings: ExtractSettings,
    *,
    on_window: WindowDone | None = None,
    title: str | None = None,
    typed: bool = True,
) -> DocumentKG:
    """Triples of some sentences of one document (`content`: its text, which the sentences' offsets index). `title`
    heads every window (default: the first sentence); `typed=False` types nodes by the rules only, without the
    LLM's typing call (callers that rank triples by their text do not need more)."""
    stats = ExtractStats(sentences=len(sentences))
    llm = _CountingLLM(llm, stats)
    values: dict[int, list[ValueMention]] = {s.index: grounding_values(s.text) for s in sentences}
    grounded: list[Grounded] = []
    for window in make_windows(sentences, settings.window, title):
        stats.windows += 1
        found, listed = _read_window(llm, window, settings, values, content, stats)
        if settings.reask_silent and listed >= 0:  # a skipped window (two bad replies) is not asked about again
            for s in silent_sentences(window, found):  # asked again alone: one more call per silent sentence
                stats.reasked += 1
                more, n = _read_window(llm, window_of(doc_id, window.title, (s,)), settings, values, content, stats)
                found += more
                listed += max(n, 0)
        if settings.open_values and listed >= 0:
            found += _attribute_open_values(window, found, grounded, values, content, stats)
        grounded += found
        if on_window is not None:
            on_window(window, max(listed, 0))
    stated = parenthetical_facts(sentences, grounded)
    stats.parenthetical = len(stated)
    grounded += stated
    grounded, stats.enumerations = split_enumerations(grounded)
    grounded, stats.events = event_nodes(grounded)
    canonical, renamings = canonicalise(grounded, content)
    kept_slots = without_shifted_slots(canonical)
    stats.shifted = len(canonical) - len(kept_slots)
    canonical = kept_slots
    unique: dict[tuple[str, str, str], Grounded] = {}
    for g in canonical:
        key = (g.sub.name, g.relation, g.obj.name)
        if key in unique:
            stats.duplicates += 1
        else:
            unique[key] = g
    kept = list(unique.values())
    heading = title if title is not None else sentences[0].text if sentences else doc_id
    types = _type_names(llm if typed else None, heading, kept, stats)
    return DocumentKG(doc_id, sentences, _sourced(doc_id, kept, types), renamings, stats)
