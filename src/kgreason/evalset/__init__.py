"""Evaluation sets in the convention of spec 002 (factual / relation / event tracking / multi-turn JSON sets,
keyword auto-scoring, a 1-5 rubric, results kept in `results/`): reading them, running kgreason on them, scoring."""
