"""What the spelling of a name says about its parts."""

from __future__ import annotations

import re

_NAME_PARTS = re.compile(r"[·・•‧]")  # between the parts of a transliterated name (`弗兰克·杰克·弗莱彻`)


def surname(name: str) -> str:
    """The last part of a transliterated name (its family name: `弗莱彻` of `弗兰克·杰克·弗莱彻`), "" for a name
    of one part."""
    parts = _NAME_PARTS.split(name)
    return parts[-1] if len(parts) > 1 else ""
