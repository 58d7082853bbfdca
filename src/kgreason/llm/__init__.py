"""One interface for every model call: embedded llama.cpp models, OpenAI-compatible servers, ensembles, a fake."""

from kgreason.llm.types import LLM, ChatMessage, LLMFailure, LLMResult, LLMSuccess, Usage

__all__ = ["LLM", "ChatMessage", "LLMFailure", "LLMResult", "LLMSuccess", "Usage"]
