"""Question analysis, candidate search, constraint checking and answer assembly.

from kgreason.reason import Reasoner, ReasonerConfig, run_dataset
reasoner = Reasoner(dataset, ReasonerConfig(), llm=None)     # llm: any `kgreason.llm.types.LLM`
result = reasoner.answer(dataset.questions[0])                 # QuestionResult(record, trace)
summary = run_dataset(dataset, reasoner, Path("result.json"))  # resumable, with a JSONL trace
"""

from kgreason.reason.config import ReasonerConfig
from kgreason.reason.reasoner import EvidenceError, QuestionResult, Reasoner, verify_path
from kgreason.reason.runner import RunSummary, run_dataset

__all__ = ["EvidenceError", "QuestionResult", "Reasoner", "ReasonerConfig", "RunSummary", "run_dataset", "verify_path"]
