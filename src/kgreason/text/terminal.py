"""Text from data files made safe to print: terminal control characters are shown escaped, never sent raw.

A field name, an id or a model's reply may hold ESC sequences (`\\x1b]0;title\\x07` retitles a terminal,
`\\x1b[2J` clears it), C1 controls (`\\x9b` is a CSI on some terminals), bidirectional overrides that reorder what
is displayed, or lone surrogates that cannot even be encoded. Every printer passes data through `safe_text` (or
`safe_json` for JSON printed to a terminal); both show such characters as `\\x1b`, `\\u202e`, `\\ud800`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

# C0 controls but tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates, line/paragraph separators,
# lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# In JSON text, C0 controls are already escaped by json.dumps; the rest are not.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str, *, newlines: bool = True) -> str:
    """`text` with every control character shown escaped; `newlines=False` escapes `\\n` too (one line)."""
    text = _UNSAFE.sub(_escaped, text)  # a carriage return too: it could overwrite the line shown
    return text if newlines else text.replace("\n", "\\n")


def safe_json(value: Any, *, indent: int | None = 2) -> str:
    """Readable JSON (Chinese kept) whose text is safe to print: unsafe characters as `\\uXXXX` escapes inside their
    strings, so the output is still valid JSON with the same value. `indent=None`: one line (JSON Lines)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # tab, newline and carriage return are text


def control_characters(text: str) -> list[str]:
    """The distinct control characters of `text` (not tab or line breaks), escaped: `["\\x1b"]`."""
    return sorted({safe_text(ch) for ch in _CONTROL.findall(text)})


def is_invisible(text: str) -> bool:
    """True when `text` shows nothing: only spaces, controls and format characters such as the zero-width space
    (matching drops all of these, so such a name would match as empty)."""
    return all(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in text)
