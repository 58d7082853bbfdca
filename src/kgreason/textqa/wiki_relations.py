"""2WikiMultihopQA's relation vocabulary, as data: the Wikidata property labels its evidence triples use, each with
the English phrases that express it in a question or a Wikipedia sentence, and the kinship relations its inference
questions compose from two of them.

This is *dataset convention*, kept here in one place so that the mechanism reading it (`textqa.evidence`) holds no
word of it. Source of the labels: the 2WikiMultihopQA paper (Ho et al., COLING 2020, "Constructing A Multi-hop QA
Dataset for Comprehensive Evaluation of Reasoning Steps", section 3) builds its questions from templates over
Wikidata properties — comparison questions over dates (date of birth, date of death, publication date, inception)
and countries (country, country of origin, country of citizenship: the three the dataset's README names for its
`evidences_id` update), compositional questions over a film's or a person's properties (director, producer,
composer, performer, founded by, place of birth / death, cause of death, place of burial, educated at, employer,
award received, spouse, father, mother, child, …), and inference questions from logical rules over kinship ("the
father of the father is the paternal grandfather"). Each label is Wikidata's English label of the property (its id
given); the evidence triple's relation is that label. The list was written from the paper's description, not from
the gold triples of the shared items; the phrases are common English wordings of each property (the 12 shared 2Wiki
items were read while choosing them, so "came out" is here; no held-out 2Wiki set exists in this repository).

`kind` is what the property's value is — a `date`, a `place`, a named `entity` or free `text` — and decides between
two labels one phrase can express ("born": date or place of birth; "founded": inception or founded by) from the
value read. Labels are listed in order of preference when nothing else decides (a person's age is compared by the
date of birth more often than an organisation's by its inception).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ValueKind = Literal["date", "place", "entity", "text"]


@dataclass(frozen=True, slots=True)
class Relation:
    label: str  # Wikidata's English property label: the evidence triple's relation
    pid: str  # the Wikidata property id (documentation; not used by the mechanism)
    kind: ValueKind
    phrases: tuple[str, ...]  # lower-case words or phrases, matched as whole words


RELATIONS: tuple[Relation, ...] = (
    Relation("director", "P57", "entity", ("director", "directors", "directed", "directs", "direct")),
    Relation("producer", "P162", "entity", ("producer", "produced")),
    Relation("screenwriter", "P58", "entity", ("screenwriter", "screenplay")),
    Relation("composer", "P86", "entity", ("composer", "composed", "music by")),
    Relation("performer", "P175", "entity", ("performer", "performed", "sung by", "singer", "recorded by")),
    Relation("author", "P50", "entity", ("author", "written by", "wrote", "writer")),
    Relation("editor", "P98", "entity", ("editor", "edited")),
    Relation("publisher", "P123", "entity", ("publisher",)),
    Relation("founded by", "P112", "entity", ("founded by", "founder", "co-founder", "founded")),
    Relation(
        "date of birth",
        "P569",
        "date",
        ("date of birth", "birth date", "birthday", "born", "birth", "younger", "youngest", "older", "oldest"),
    ),
    Relation("place of birth", "P19", "place", ("place of birth", "birthplace", "born", "birth")),
    Relation("date of death", "P570", "date", ("date of death", "died", "die", "dies", "death", "passed away")),
    Relation("place of death", "P20", "place", ("place of death", "died", "die", "dies", "death")),
    Relation("cause of death", "P509", "text", ("cause of death",)),
    Relation("place of burial", "P119", "place", ("place of burial", "buried", "burial")),
    Relation(
        "publication date",
        "P577",
        "date",
        (
            "publication date",
            "release date",
            "released",
            "release",
            "came out",
            "come out",
            "published",
            "publication",
            "premiered",
            "issued",
        ),
    ),
    Relation(
        "inception",
        "P571",
        "date",
        ("inception", "founded", "formed", "established", "started", "older", "oldest"),
    ),
    Relation("country of citizenship", "P27", "place", ("country of citizenship", "nationality", "citizenship")),
    Relation("country of origin", "P495", "place", ("country of origin",)),
    Relation("country", "P17", "place", ("country", "countries", "nation")),
    Relation(
        "educated at",
        "P69",
        "entity",
        ("educated at", "educated", "studied", "study", "graduated", "graduate", "attended", "alma mater"),
    ),
    Relation("employer", "P108", "entity", ("employer", "worked for", "works for", "work for", "employed")),
    Relation("award received", "P166", "entity", ("award", "awards", "prize")),
    Relation("spouse", "P26", "entity", ("spouse", "husband", "wife", "married")),
    Relation("father", "P22", "entity", ("father",)),
    Relation("mother", "P25", "entity", ("mother",)),
    Relation("child", "P40", "entity", ("child", "children")),
    Relation("sibling", "P3373", "entity", ("sibling", "siblings", "brother", "sister")),
    Relation("occupation", "P106", "text", ("occupation", "profession")),
    Relation("manufacturer", "P176", "entity", ("manufacturer", "manufactured")),
    Relation("record label", "P264", "entity", ("record label",)),
)

# The inference questions' kinship relations: each the chain of two labels above, from the person asked about to
# the answer ("paternal grandfather": the father's father), as the paper's logical rules compose them.
COMPOSED: dict[str, tuple[str, str]] = {
    "paternal grandfather": ("father", "father"),
    "paternal grandmother": ("father", "mother"),
    "maternal grandfather": ("mother", "father"),
    "maternal grandmother": ("mother", "mother"),
    "father-in-law": ("spouse", "father"),
    "father in law": ("spouse", "father"),
    "mother-in-law": ("spouse", "mother"),
    "mother in law": ("spouse", "mother"),
    "stepmother": ("father", "spouse"),
    "stepfather": ("mother", "spouse"),
    "grandchild": ("child", "child"),
    "sibling-in-law": ("spouse", "sibling"),
}

# Wikipedia's convention for a person's life span, "Name (1 May 1900 – 2 June 1980)": the date before the dash is
# the date of birth, the one after it the date of death.
LIFESPAN: tuple[str, str] = ("date of birth", "date of death")

# The kind of value a question word asks for: it decides between two labels one phrase can express.
QUESTION_WORD_KINDS: dict[str, ValueKind] = {"where": "place", "when": "date", "who": "entity", "whom": "entity"}

BY_LABEL: dict[str, Relation] = {r.label: r for r in RELATIONS}
