"""Reading JSON / JSON Lines files with precise error locations, and atomic JSON writing."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgreason.errors import DataError


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One top-level record of a JSON array or one line of a JSON Lines file."""

    index: int  # 0-based position among the file's records
    line: int  # 1-based line where the record starts (best effort for JSON arrays: 0 when unknown)
    value: Any


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def read_text(path: Path) -> str:
    """UTF-8 text of a file (a leading BOM is dropped); errors name the file and the bad byte's line."""
    name = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataError.single(name, "file not found") from None
    except IsADirectoryError:
        raise DataError.single(name, "is a directory, expected a JSON file") from None
    except OSError as exc:
        raise DataError.single(name, f"cannot read file: {exc.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError.single(
            name, f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}, line {line})"
        ) from None


def read_records(path: Path) -> list[RawRecord]:
    """Records of a JSON array, a single JSON object (one record) or a JSON Lines file.

    Raises `DataError` for an unreadable file, non-UTF-8 bytes, an empty file or invalid JSON (with line and
    column).
    """
    name = str(path)
    text = read_text(path)
    if not text.strip():
        raise DataError.single(name, "file is empty")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Extra data"):
            return _read_json_lines(name, text)
        line, col = _line_col(text, exc.pos)
        raise DataError.single(name, f"invalid JSON at line {line}, column {col}: {exc.msg}") from None
    if isinstance(value, list):
        return [RawRecord(index=i, line=0, value=v) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return [RawRecord(index=0, line=1, value=value)]
    raise DataError.single(name, f"expected a JSON array of objects, got a {type(value).__name__}")


def _read_json_lines(name: str, text: str) -> list[RawRecord]:
    records: list[RawRecord] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError.single(
                name,
                f"invalid JSON Lines at line {lineno}, column {exc.colno}: {exc.msg}",
                record=f"#{len(records)}",
            ) from None
        records.append(RawRecord(index=len(records), line=lineno, value=value))
    return records


def _new_file_mode() -> int:
    mask = os.umask(0o022)  # the only way to read the umask: set it and put it back at once
    os.umask(mask)
    return 0o666 & ~mask


def write_json_atomic(path: Path, value: Any) -> None:
    """Write JSON (UTF-8, Chinese kept readable) via a temporary file and a rename, so readers never see half
    a file and an interrupted write leaves the old file intact."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); an output file gets the mode any new file gets (0644 under the
        # usual umask), like the trace written beside it.
        os.fchmod(fd, _new_file_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(value, fh, ensure_ascii=False, indent=2)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
