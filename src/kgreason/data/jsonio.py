"""Reading JSON / JSON Lines files with precise error locations, and atomic JSON writing.

The input policy every reader shares (docs/reliability.md):
- only regular files are read (a named pipe, a device such as `/dev/zero` or a socket is refused at once), and at
  most `max_input_bytes()` of them (`KGREASON_MAX_INPUT_MB`, default 512);
- UTF-8 (a leading BOM is dropped; the task's dataset files may also be GB18030/GBK or UTF-16 with a BOM
  throughout, read with a warning); JSON Lines are split on `\\n` only (`\\r\\n` too), never on U+2028, U+2029 or
  U+0085, which are ordinary characters inside JSON strings;
- JSON nested deeper than the parser allows, integers longer than `MAX_INT_DIGITS` digits and lone surrogate
  escapes (`"\\ud800"`, which no UTF-8 file can hold) are errors naming the file, the record and the field.
"""

from __future__ import annotations

import glob
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kgreason.errors import DataError, KgreasonError

ENV_MAX_INPUT_MB = "KGREASON_MAX_INPUT_MB"
DEFAULT_MAX_INPUT_MB = 512
MAX_INT_DIGITS = 100  # no field of the task needs more; Python refuses more than 4,300 anyway
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")  # cheap test before looking for lone ones
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_INT = re.compile(rf"-?\d{{{MAX_INT_DIGITS + 1},}}")


@dataclass(frozen=True, slots=True)
class RawRecord:
    """One top-level record of a JSON array or one line of a JSON Lines file."""

    index: int  # 0-based position among the file's records
    line: int  # 1-based line where the record starts (best effort for JSON arrays: 0 when unknown)
    value: Any


class _NumberTooLong(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def bounded_int(text: str) -> int:
    """`json.loads(parse_int=...)`: an integer of at most `MAX_INT_DIGITS` digits."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _NumberTooLong(digits)
    return int(text)


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def max_input_bytes(env: Mapping[str, str] | None = None) -> int:
    """The largest input file read: `$KGREASON_MAX_INPUT_MB` MiB (default 512)."""
    env = os.environ if env is None else env
    raw = env.get(ENV_MAX_INPUT_MB, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_MB * 1024 * 1024
    try:
        mb = float(raw)
    except ValueError:
        raise KgreasonError(f"{ENV_MAX_INPUT_MB}={raw!r} is not a number of megabytes") from None
    if mb <= 0:
        raise KgreasonError(f"{ENV_MAX_INPUT_MB} must be positive, got {raw}")
    return int(mb * 1024 * 1024)


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes_checked(path: Path, *, what: str = "a JSON file") -> bytes:
    """A regular file's bytes, refusing pipes, devices and files over `max_input_bytes()` without reading them."""
    name = str(path)
    limit = max_input_bytes()
    try:
        info = path.stat()
    except FileNotFoundError:
        raise DataError.single(name, "file not found") from None
    except OSError as exc:
        raise DataError.single(name, f"cannot read file: {exc.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise DataError.single(name, f"is a directory, expected {what}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataError.single(name, f"is {_kind_of(info.st_mode)}, not a regular file; expected {what}")
    too_big = f"is larger than the input limit of {limit / 1024 / 1024:g} MB (set {ENV_MAX_INPUT_MB} to raise it)"
    if info.st_size > limit:
        raise DataError.single(name, too_big)
    try:
        # O_NONBLOCK: should the path be swapped for a pipe after the check, opening it must not wait for a writer.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise DataError.single(name, f"is not a regular file; expected {what}")
            data = fh.read(limit + 1)
    except IsADirectoryError:
        raise DataError.single(name, f"is a directory, expected {what}") from None
    except OSError as exc:
        raise DataError.single(name, f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise DataError.single(name, too_big)
    return data


def read_text(path: Path, *, notes: list[str] | None = None) -> str:
    """UTF-8 text of a regular file (a leading BOM is dropped); errors name the file and the bad byte's line.

    With `notes`, a file that is not UTF-8 at all but reads whole as GB18030 (GBK, GB2312: what Chinese Windows
    tools save) or as UTF-16 with a BOM is read so, and a note saying so is appended. A UTF-8 file with some bad
    bytes stays an error: it would also decode as GB18030, into nonsense."""
    data = read_bytes_checked(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if notes is not None:
            other = _other_encoding(data)
            if other is not None:
                notes.append(f"not UTF-8: read as {other[1]}")
                return other[0]
        line = data.count(b"\n", 0, exc.start) + 1
        where = f"byte 0x{data[exc.start]:02x} at offset {exc.start}, line {line}"
        if exc.end == len(data) and exc.reason == "unexpected end of data":
            raise DataError.single(str(path), f"ends inside a UTF-8 character (cut short?): {where}") from None
        raise DataError.single(str(path), f"not valid UTF-8 ({where})") from None


def _other_encoding(data: bytes) -> tuple[str, str] | None:
    """(text, encoding name) of bytes that are UTF-16 with a BOM, or GB18030 throughout; None otherwise."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            return None
    lossy = data.decode("utf-8", errors="replace")
    bad = lossy.count("\ufffd")
    if bad * 2 < sum(1 for ch in lossy if ord(ch) > 127):
        return None  # mostly UTF-8: a damaged UTF-8 file, not another encoding
    try:
        return data.decode("gb18030"), "GB18030 (GBK)"
    except UnicodeDecodeError:
        return None


def split_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line) of a JSON Lines text, split on `\\n` only (a trailing `\\r` is dropped).

    `str.splitlines` also splits on U+2028, U+2029, U+0085 and other characters a JSON string may hold raw."""
    for lineno, line in enumerate(text.split("\n"), start=1):
        yield lineno, line[:-1] if line.endswith("\r") else line


def parse_json(name: str, text: str, *, record: str | None = None) -> Any:
    """`json.loads` with the policy's limits; `json.JSONDecodeError` is left to the caller (it knows the lines)."""
    try:
        return json.loads(text, parse_int=bounded_int)
    except RecursionError:
        raise DataError.single(
            name, "invalid JSON: nested too deeply for the parser (about 1,000 levels; task files need 6)", record
        ) from None
    except _NumberTooLong as exc:
        where = ""
        found = _LONG_INT.search(text)
        if found is not None:
            line, col = _line_col(text, found.start())
            where = f" at line {line}, column {col}" if record is None else f" at column {col}"
        raise DataError.single(
            name, f"a number of {exc.digits} digits{where}: at most {MAX_INT_DIGITS} are accepted", record
        ) from None


def lone_surrogate_at(value: Any) -> str | None:
    """Where in `value` a string (or key) holds a lone surrogate: `'a' > [2]`; "" for the value itself; None."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                return where
        elif isinstance(item, list):
            stack.extend((v, f"{where} > [{i}]" if where else f"[{i}]") for i, v in enumerate(item))
        elif isinstance(item, dict):
            for k, v in item.items():
                key = json.dumps(k)  # escaped: the key itself may be the bad string
                if _LONE_SURROGATE.search(k):
                    return f"{where} > {key}" if where else key
                stack.append((v, f"{where} > {key}" if where else key))
    return None


def _check_surrogates(name: str, records: list[RawRecord], text: str) -> None:
    if _SURROGATE_ESCAPE.search(text) is None:  # pairs and lone surrogates both need a \uD8xx-\uDFxx escape
        return
    for raw in records:
        where = lone_surrogate_at(raw.value)
        if where is not None:
            field = where.split(" > ")[0].strip('"') if where else None
            inside = f" (at {where})" if " > " in where else ""
            raise DataError.single(
                name,
                f"holds a lone surrogate escape such as \\ud800{inside}: not a character, cannot be written as "
                "UTF-8; remove it or write the character itself",
                f"#{raw.index}" + (f" (line {raw.line})" if raw.line > 1 else ""),
                field,
            )


def read_records(path: Path, *, notes: list[str] | None = None) -> list[RawRecord]:
    """Records of a JSON array, a single JSON object (one record) or a JSON Lines file.

    Raises `DataError` for an unreadable or irregular file, non-UTF-8 bytes, an empty file, invalid JSON (with line
    and column) or a value outside the input policy (module docstring). With `notes`, another encoding is read
    where `read_text` can (the note says which).
    """
    name = str(path)
    text = read_text(path, notes=notes)
    if not text.strip():
        raise DataError.single(name, "file is empty")
    try:
        value = parse_json(name, text)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Extra data"):
            records = _read_json_lines(name, text)
            _check_surrogates(name, records, text)
            return records
        line, col = _line_col(text, exc.pos)
        raise DataError.single(name, f"invalid JSON at line {line}, column {col}: {exc.msg}") from None
    if isinstance(value, list):
        records = [RawRecord(index=i, line=0, value=v) for i, v in enumerate(value)]
    elif isinstance(value, dict):
        records = [RawRecord(index=0, line=1, value=value)]
    else:
        raise DataError.single(name, f"expected a JSON array of objects, got a {type(value).__name__}")
    _check_surrogates(name, records, text)
    return records


def _read_json_lines(name: str, text: str) -> list[RawRecord]:
    records: list[RawRecord] = []
    for lineno, line in split_lines(text):
        if not line.strip():
            continue
        label = f"#{len(records)} (line {lineno})"
        try:
            value = parse_json(name, line, record=label)
        except json.JSONDecodeError as exc:
            raise DataError.single(
                name,
                f"invalid JSON Lines at line {lineno}, column {exc.colno}: {exc.msg}",
                record=f"#{len(records)}",
            ) from None
        records.append(RawRecord(index=len(records), line=lineno, value=value))
    return records


def temp_prefix(path: Path) -> str:
    """How `write_json_atomic` names its temporary files beside `path` (`.result.json.<random>.tmp`)."""
    return f".{path.name}."


def remove_stray_temporaries(path: Path) -> list[Path]:
    """Delete temporaries of `path` left by a writer killed mid-write. Call only while holding the output's lock
    (`kgreason.data.outlock`): then no live writer owns them."""
    removed: list[Path] = []
    if path.parent.is_dir():
        for tmp in path.parent.glob(f"{glob.escape(temp_prefix(path))}*.tmp"):
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed


def current_umask() -> int:
    """The process umask, read without changing it (Linux reports it in /proc; elsewhere set-and-restore)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_json_atomic(path: Path, value: Any) -> None:
    """Write JSON (UTF-8, Chinese kept readable) via a temporary file and a rename, so readers never see half
    a file and an interrupted write leaves the old file intact."""

    def dump(fh: IO[str]) -> None:
        json.dump(value, fh, ensure_ascii=False, indent=2)
        fh.write("\n")

    _write_atomic(path, dump)


def write_text_atomic(path: Path, text: str) -> None:
    """`text` written like `write_json_atomic`: all or nothing, under the final name only when whole."""
    _write_atomic(path, lambda fh: fh.write(text))


def _write_atomic(path: Path, write: Callable[[IO[str]], object]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=temp_prefix(path), suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(
            fd, 0o666 & ~current_umask()
        )  # mkstemp makes 0600; the result should read like any file the user writes
        # backslashreplace: a lone surrogate (only a model's reply can bring one) is written as the JSON escape
        # `\\udXXX` inside its string, so the file stays valid JSON and valid UTF-8 instead of the write failing.
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
