"""Fixtures of the retrieve tests: a deterministic bag-of-characters embedder, so no model is needed."""

from __future__ import annotations

import pytest
from mecha_fakes import CharEmbedder


@pytest.fixture
def char_embedder() -> CharEmbedder:
    return CharEmbedder()
