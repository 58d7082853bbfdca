"""A fake model that reads the prompt like the real one should: lists `A|关系|B` for known names in each sentence."""

from __future__ import annotations

import re
from typing import Any

from kgreason.llm.types import ChatMessage

NAMES = ("洛克希德·马丁公司", "洛马", "F-35A", "F-35", "美国", "2006年12月15日", "1093公里", "X-35验证机")


def scripted_reply(messages: list[ChatMessage], schema: dict[str, Any]) -> Any:
    """Window calls: per sentence, the first known name with each later one (relation `相关`); typing calls: the
        first type of the list for every name. Sentences without two known names give their first three and last three
    characters before the ender."""
    props = schema["properties"]
    if list(props) == ["types"]:
        n = props["types"]["minItems"]
        return {"types": [props["types"]["items"]["enum"][0]] * n}
    user = messages[-1].content
    out: dict[str, list[str]] = {}
    for key in props:
        line = re.search(rf"^\[{key[1:]}\] (.*)$", user, re.M)
        text = line.group(1) if line else ""
        found = sorted({n for n in NAMES if n in text}, key=text.index)
        if len(found) < 2 and len(text) >= 8:  # any other sentence: its first and last words, roughly
            found = [text[:3], text[-4:-1]]
        out[key] = [f"{found[0]}|相关|{n}" for n in found[1:]]
    return out
