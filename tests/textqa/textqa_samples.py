"""Tiny items in the three sets' original formats, written by the tests (the shared data is not needed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HOTPOT: list[dict[str, Any]] = [
    {
        "_id": "h1",
        "question": "Which city is the birthplace of the director of Film X?",
        "answer": "Lyon",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["Film X", 0], ["Anne Dupont", 1]],
        "context": [
            ["Film X", ["Film X is a 1990 drama directed by Anne Dupont.", " It won a prize."]],
            ["Anne Dupont", ["Anne Dupont is a French director.", " She was born in Lyon."]],
            ["Lyon", ["Lyon is a city in France."]],
        ],
    },
    {
        "_id": "h2",
        "question": "Are Film X and Film Y both dramas?",
        "answer": "yes",
        "type": "comparison",
        "level": "easy",
        "supporting_facts": [["Film X", 0], ["Film Y", 0]],
        "context": [
            ["Film X", ["Film X is a 1990 drama directed by Anne Dupont."]],
            ["Film Y", ["Film Y is a 1995 drama."]],
        ],
    },
]

TWOWIKI: list[dict[str, Any]] = [
    {
        "_id": "w1",
        "type": "compositional",
        "question": "Who is the mother of the director of Film X?",
        "answer": "Marie Dupont",
        "supporting_facts": [["Film X", 0], ["Anne Dupont", 1]],
        "evidences": [["Film X", "director", "Anne Dupont"], ["Anne Dupont", "mother", "Marie Dupont"]],
        "context": [
            ["Film X", ["Film X is a 1990 drama directed by Anne Dupont."]],
            ["Anne Dupont", ["Anne Dupont is a French director.", "Her mother was Marie Dupont."]],
        ],
    }
]

MUSIQUE: list[dict[str, Any]] = [
    {
        "id": "2hop__1_2",
        "question": "Where was the director of Film X born?",
        "answer": "Lyon",
        "answer_aliases": ["Lyons"],
        "answerable": True,
        "paragraphs": [
            {
                "idx": 0,
                "title": "Film X",
                "paragraph_text": "Film X is a drama. Anne Dupont directed it.",
                "is_supporting": True,
            },
            {
                "idx": 1,
                "title": "Anne Dupont",
                "paragraph_text": "Anne Dupont was born in Lyon. She studied in Paris.",
                "is_supporting": True,
            },
            {"idx": 2, "title": "Paris", "paragraph_text": "Paris is the capital of France.", "is_supporting": False},
        ],
        "question_decomposition": [
            {"id": 1, "question": "Who directed Film X?", "answer": "Anne Dupont", "paragraph_support_idx": 0},
            {"id": 2, "question": "Where was #1 born?", "answer": "Lyon", "paragraph_support_idx": 1},
        ],
    }
]


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def write_jsonl(path: Path, values: list[Any]) -> Path:
    path.write_text("".join(json.dumps(v, ensure_ascii=False) + "\n" for v in values), encoding="utf-8")
    return path
