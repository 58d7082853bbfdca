"""Fixtures of the corpus tests: the invented two-document corpus of `corpus_support`, written to a temporary folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus_support import write_corpus


@pytest.fixture
def corpus_dir(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus")
