"""Assembling GGUF files from part packages: atomic, sha256-verified once, re-checked when size/mtime change."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from pathlib import Path

import pytest

from kgreason.errors import KgreasonError
from kgreason.llm import models
from kgreason.llm.models import QWEN_CODER_0_5B, ModelAsset, ensure_model_file, sha256_file


def make_fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks: list[bytes], prefix: str) -> None:
    """Write importable modules `{prefix}{i}` shaped like the real part packages."""
    root = tmp_path / "site"
    for i, chunk in enumerate(chunks, start=1):
        pkg = root / f"{prefix}{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(chunk)
        (pkg / "__init__.py").write_text(
            "import os\n"
            "def get_part_path():\n"
            f"    return os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'part{i:02d}.bin')\n"
        )
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()


@pytest.fixture
def fake_asset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModelAsset:
    chunks = ["歼-20 ".encode() * 1000, b"\x00\x01" * 777, "成都飞机工业集团".encode() * 50]
    prefix = f"kgr_fake_part_{abs(hash(tmp_path)) % 10**8}_"
    make_fake_parts(tmp_path, monkeypatch, chunks, prefix)
    whole = b"".join(chunks)
    return ModelAsset(
        spec="embedded-test",
        label="fake-model",
        file_name="fake.gguf",
        module_prefix=prefix,
        package_prefix="fake-part",
        version="0.0.1",
        parts=len(chunks),
        size=len(whole),
        sha256=hashlib.sha256(whole).hexdigest(),
    )


def test_assembles_verifies_and_writes_a_marker(tmp_path: Path, fake_asset: ModelAsset) -> None:
    messages: list[str] = []
    path = ensure_model_file(fake_asset, tmp_path / "models", progress=messages.append)
    assert path == tmp_path / "models" / "fake.gguf"
    assert sha256_file(path) == fake_asset.sha256 and path.stat().st_size == fake_asset.size
    assert (tmp_path / "models" / "fake.gguf.verified.json").exists()
    assert any("assembling" in m for m in messages)
    n = fake_asset.parts
    assert messages[-1].strip().startswith(f"{n}/{n} parts")  # progress through the parts, the last one included
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["fake.gguf", "fake.gguf.verified.json"]


def test_second_load_does_not_rehash(tmp_path: Path, fake_asset: ModelAsset, monkeypatch: pytest.MonkeyPatch) -> None:
    ensure_model_file(fake_asset, tmp_path / "models")

    def no_hashing(path: Path) -> str:
        raise AssertionError("re-hashed a file whose marker matches")

    monkeypatch.setattr(models, "sha256_file", no_hashing)
    monkeypatch.setattr(models, "_assemble", lambda *a: (_ for _ in ()).throw(AssertionError("re-assembled")))
    assert ensure_model_file(fake_asset, tmp_path / "models").exists()


def test_truncated_file_is_detected_and_rebuilt(tmp_path: Path, fake_asset: ModelAsset) -> None:
    path = ensure_model_file(fake_asset, tmp_path / "models")
    with path.open("r+b") as f:
        f.truncate(fake_asset.size - 10)
    messages: list[str] = []
    ensure_model_file(fake_asset, tmp_path / "models", progress=messages.append)
    assert sha256_file(path) == fake_asset.sha256
    assert any("assembling" in m for m in messages)


def test_same_size_but_changed_file_is_rehashed(tmp_path: Path, fake_asset: ModelAsset) -> None:
    path = ensure_model_file(fake_asset, tmp_path / "models")
    data = bytearray(path.read_bytes())
    data[5] ^= 0xFF
    before = path.stat().st_mtime_ns
    path.write_bytes(bytes(data))  # same size
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a new mtime even on coarse-timestamp filesystems
    messages: list[str] = []
    ensure_model_file(fake_asset, tmp_path / "models", progress=messages.append)
    assert messages[0].startswith("verifying") and any("assembling" in m for m in messages)
    assert sha256_file(path) == fake_asset.sha256


def test_existing_good_file_without_marker_is_verified_not_rebuilt(tmp_path: Path, fake_asset: ModelAsset) -> None:
    path = ensure_model_file(fake_asset, tmp_path / "models")
    (tmp_path / "models" / "fake.gguf.verified.json").unlink()
    messages: list[str] = []
    ensure_model_file(fake_asset, tmp_path / "models", progress=messages.append)
    assert messages == [f"verifying {path} ..."]


def test_wrong_hash_leaves_no_file(tmp_path: Path, fake_asset: ModelAsset) -> None:
    wrong = ModelAsset(**{**{f: getattr(fake_asset, f) for f in fake_asset.__slots__}, "sha256": "0" * 64})
    with pytest.raises(KgreasonError, match="sha256"):
        ensure_model_file(wrong, tmp_path / "models")
    assert list((tmp_path / "models").iterdir()) == []  # the temp file is gone, nothing half-written remains


def test_unwritable_cache_dir_is_a_clear_error(tmp_path: Path, fake_asset: ModelAsset) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(KgreasonError, match="KGREASON_CACHE_DIR"):
        ensure_model_file(fake_asset, blocker / "models")


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec(QWEN_CODER_0_5B.modules()[0]) is None,
    reason="the model part packages are not installed (KGREASON_NO_LLM set-up)",
)
def test_real_small_model_assembles_with_the_pinned_sha256(tmp_path: Path) -> None:
    path = ensure_model_file(QWEN_CODER_0_5B, tmp_path / "models")
    assert path.stat().st_size == QWEN_CODER_0_5B.size == 491_400_064
    assert sha256_file(path) == QWEN_CODER_0_5B.sha256
    with path.open("rb") as f:
        assert f.read(4) == b"GGUF"
    os.remove(path)  # half a gigabyte: do not leave it in the test's temp dir
