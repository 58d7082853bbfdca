"""`kgreason ask` and `kgreason chat` run as a user runs them: subprocesses, piped stdin, and a real pseudo-terminal."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def kgreason(*args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgreason.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        timeout=120,
        check=False,
    )


def test_ask_prints_answer_evidence_sentence_and_constraints(corpus_dir: Path) -> None:
    out = kgreason("ask", corpus_dir, "第5中队装备的雷霆-9是哪一天首飞的？")
    assert out.returncode == 0, out.stderr
    assert "答案：2001年3月5日" in out.stdout
    assert "(雷霆-9, 首飞时间, 2001年3月5日)  [d1]" in out.stdout
    assert "原文：雷霆-9于2001年3月5日首飞。" in out.stdout
    assert "约束：" in out.stdout


def test_ask_json_and_doc_option(corpus_dir: Path) -> None:
    out = kgreason("ask", corpus_dir, "海鹰号航空母舰的舷号是什么？", "--doc", "d2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["answers"] == ["H01"]
    assert data["evidence"][0]["doc_id"] == "d2"
    assert data["kind"] == "fact"


def test_ask_not_found_is_an_answer_and_bad_input_exits_2(corpus_dir: Path, tmp_path: Path) -> None:
    out = kgreason("ask", corpus_dir, "大和号的舷号？")
    assert out.returncode == 0
    assert "在语料中未找到" in out.stdout and "海鹰号航空母舰" in out.stdout
    bad = kgreason("ask", corpus_dir, "x", "--doc", "nope")
    assert bad.returncode == 2 and "no document 'nope'" in bad.stderr and "Traceback" not in bad.stderr
    missing = kgreason("ask", tmp_path / "absent", "x")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_chat_piped_resolves_and_supports_commands(corpus_dir: Path, tmp_path: Path) -> None:
    saved = tmp_path / "dialogue.json"
    lines = [
        "谁是海鹰号航空母舰的舰长？",
        "他的职务是什么？",
        "该舰何时服役？",
        "/history",
        f"/save {saved}",
        "/reset",
        "它的舷号是什么？",
    ]
    out = kgreason("chat", corpus_dir, stdin="\n".join(lines) + "\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "答案：张海" in text
    assert "（理解为：张海的职务是什么？）" in text and "答案：舰长" in text
    assert "（理解为：海鹰号航空母舰何时服役？）" in text and "答案：2010年5月1日" in text
    assert "2. 问：他的职务是什么？ → 张海的职务是什么？" in text
    turns = json.loads(saved.read_text(encoding="utf-8"))
    assert [t["turn"] for t in turns] == [1, 2, 3]
    assert turns[1]["resolution"]["referents"] == ["张海"]
    assert "（“它”指代不明" in text  # after /reset nothing is left to refer to


def test_chat_json_lines(corpus_dir: Path) -> None:
    out = kgreason("chat", corpus_dir, "--json", stdin="海鹰号航空母舰的舷号是什么？\n它何时服役？\n")
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["answer"]["answers"] for r in rows] == [["H01"], ["2010年5月1日"]]
    assert rows[1]["resolution"]["resolved"] == ["海鹰号航空母舰何时服役？"]


def _read_until(fd: int, marker: str, timeout: float = 90.0) -> str:
    buf = b""
    deadline = time.monotonic() + timeout
    while marker.encode() not in buf:
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {marker!r}; got {buf.decode(errors='replace')!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf.decode("utf-8", errors="replace")


def test_chat_on_a_real_pseudo_terminal(corpus_dir: Path) -> None:
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kgreason.cli", "chat", str(corpus_dir)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=REPO,
        close_fds=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    os.close(slave)
    try:
        assert "2 篇文档" in _read_until(master, "问> ")
        os.write(master, "海鹰号航空母舰的舷号是什么？\n".encode())
        assert "答案：H01" in _read_until(master, "问> ")
        os.write(master, "它何时服役？\n".encode())
        reply = _read_until(master, "问> ")
        assert "（理解为：海鹰号航空母舰何时服役？）" in reply
        assert "答案：2010年5月1日" in reply
        os.write(master, b"/quit\n")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
