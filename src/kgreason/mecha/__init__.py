"""Mecha-QA, the benchmark of the relevance-prompting paper (spec 001), as one package.

- `data`: the loader (real files as published), question subgraphs, the answer entity, the converter to the task's
  layout;
- `training`: training the relevance model on train.jsonl (`kgreason mecha train`);
- `prompts`: the paper's relevance prompt and the schema-bound choice request;
- `answering`, `need`, `cues`, `verdict`: from scored candidates to the triples a question needs and the answer
  the program states (comparisons and yes/no included);
- `bench`, `report`: `kgreason mecha bench` / `report`;
- `paper_metrics`: the paper's Accuracy and LLM-Score.

The generic relevance library (embedder, features, the relevance model and scorers, lexical matching, ranking
metrics) stays in `kgreason.retrieve`. See docs/mecha_qa.md.
"""
