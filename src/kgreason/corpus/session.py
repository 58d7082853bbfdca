"""A conversation over a corpus: resolve the question against the dialogue state, answer it, update the state.

session = ChatSession(Corpus.load(Path("examples/sample")), llm=None)
turn = session.ask("伊丽莎白女王号航空母舰是哪一天服役的？")
turn = session.ask("它的舷号是什么？")       # turn.resolution.resolved == ("伊丽莎白女王号航空母舰的舷号是什么？",)
session.reset(); session.state.to_json()
"""

from __future__ import annotations

from dataclasses import replace

from kgreason.corpus.answer import Corpus, CorpusAnswer
from kgreason.corpus.dialogue import DialogueState, Resolution, Role, Salient, Turn
from kgreason.corpus.resolve import Resolver
from kgreason.llm.types import LLM


class ChatSession:
    def __init__(self, corpus: Corpus, *, llm: LLM | None = None) -> None:
        self.corpus = corpus
        self.state = DialogueState()
        self.resolver = Resolver(self._entity_spans, llm, corpus.relations_of)

    def _entity_spans(self, question: str) -> list[tuple[int, int, str]]:
        """The question's names of entities the KG says something about (`舰长`, a value, does not make a question
        self-contained: `舰长是谁？` is still about the topic)."""
        return [span for span in self.corpus.index.spans(question) if self.corpus.describe(span[2]) is not None]

    def resolve(self, question: str) -> Resolution:
        return self.resolver.resolve(question, self.state)

    def ask(self, question: str, resolution: Resolution | None = None) -> Turn:
        """Answer one turn (resolving it first unless `resolution` is given) and remember its entities."""
        resolution = resolution or self.resolve(question)
        answers = [self.corpus.answer(q) for q in resolution.resolved]
        return self.record(resolution, merge_answers(resolution.text, answers))

    def record(self, resolution: Resolution, answer: CorpusAnswer) -> Turn:
        """Remember a turn answered elsewhere (`kgreason serve` answers with the explaining reasoner)."""
        return self.state.add(resolution, answer, self._entities(resolution, answer))

    def reset(self) -> None:
        self.state.reset()

    def _entities(self, resolution: Resolution, answer: CorpusAnswer) -> tuple[Salient, ...]:
        names = [*resolution.referents]
        for question in resolution.resolved:
            names += [name for _, _, name in self.corpus.index.spans(question)]
        out: list[Salient] = []
        seen: set[str] = set()
        roles: tuple[tuple[Role, list[str]], ...] = (("mentioned", names), ("answered", list(answer.answers)))
        for role, group in roles:
            for name in group:
                described = self.corpus.describe(name)
                if described is None or described[0] in seen:
                    continue
                seen.add(described[0])
                out.append(Salient(described[0], described[1], role))
        return tuple(out)


def merge_answers(question: str, answers: list[CorpusAnswer]) -> CorpusAnswer:
    """One answer for a turn asked of several entities (`那些导弹是谁研制的？`): each found answer's text in turn,
    the answers, evidence and documents together."""
    if len(answers) == 1:
        return answers[0]
    found = [a for a in answers if a.found] or answers[:1]
    first = found[0]
    constraints: dict[str, str] = {}
    for a in found:
        constraints.update(a.constraints)
    return replace(
        first,
        question=question,
        text="；".join(a.text for a in found),
        answers=tuple(dict.fromkeys(x for a in found for x in a.answers)),
        doc_ids=tuple(dict.fromkeys(d for a in found for d in a.doc_ids)),
        evidence=tuple(s for a in found for s in a.evidence),
        constraints=constraints,
        links=tuple(lk for a in found for lk in a.links),
        llm_asked=any(a.llm_asked for a in found),
        seconds=sum(a.seconds for a in answers),
    )
