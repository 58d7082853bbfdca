"""Which sentence of a document states a triple, when the text shortens the KG's names.

The reasoner's `SentenceFinder` (`kgreason.reason.trace`) splits the document and wants both ends spelled in full;
texts often write the short form (`捍卫者号` for `捍卫者号驱逐舰`, `加贺号` for `加贺号航空母舰`). Here each end counts
by the longest start of its name the sentence spells (at least two characters; one spelling never counts for both
ends), the relation by its longest part, and a sentence naming both ends beats one naming one end in full.
"""

from __future__ import annotations

from kgreason.data.records import PathTriple
from kgreason.reason.trace import Sentence, SentenceFinder
from kgreason.text.normalize import normalize_text

MIN_PART_CHARS = 2


def _spelled_start(name: str, sentence: str) -> str:
    """The longest start of `name` (at least two characters) the sentence spells ('' when none)."""
    for length in range(len(name), MIN_PART_CHARS - 1, -1):
        if name[:length] in sentence:
            return name[:length]
    return ""


def _end_shares(head: str, tail: str, sentence: str) -> tuple[float, float]:
    """How much of each end the sentence spells. One spelling cannot serve both ends: `钻石号` inside `钻石号驱逐舰`
    is the tail, not also the start of the head `钻石号技术故障`."""
    h, t = _spelled_start(head, sentence), _spelled_start(tail, sentence)
    h_share = len(h) / len(head) if head else 0.0
    t_share = len(t) / len(tail) if tail else 0.0
    if h and t and (h in t or t in h):
        shorter, longer = (h, t) if len(h) <= len(t) else (t, h)
        if sentence.count(shorter) <= sentence.count(longer):  # every spelling of the shorter is inside the longer
            if shorter is h and h_share <= t_share:
                h_share = 0.0
            else:
                t_share = 0.0
    return h_share, t_share


def _part_share(word: str, sentence: str) -> float:
    """The share of `word` covered by its longest substring in the sentence."""
    for length in range(len(word), MIN_PART_CHARS - 1, -1):
        if any(word[i : i + length] in sentence for i in range(len(word) - length + 1)):
            return length / len(word)
    return 0.0


def locate(finder: SentenceFinder, triple: PathTriple) -> Sentence | None:
    """The sentence that best states `triple`, or None when no sentence names either end."""
    head, relation, tail = (normalize_text(x) for x in triple)
    best: tuple[float, Sentence] | None = None
    for s in finder.sentences:
        h, t = _end_shares(head, tail, s.norm)
        if h == 0.0 and t == 0.0:
            continue
        score = h + t + (1.0 if h and t else 0.0) + 0.5 * _part_share(relation, s.norm)
        if best is None or score > best[0]:
            best = (score, s)
    return best[1] if best is not None and best[0] >= 1.0 else None
