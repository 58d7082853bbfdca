"""Golden scores: the official mean per level on the bundled sample, on ccks_ext_dev (an independent annotator's
set, beside the repository in ../shared) and on the twenty-three held-out sets helpers wrote without reading the
code (`benchmarks/data/extract_holdout_a` to `_w`; each set's first run is in `benchmarks/bench_holdouts.py`'s
FIRST_RUNS), with `--llm none`. A change that moves any of them fails here: update the figures (and README Results)
only with a change that explains the move.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kgreason.conventions.learn import learn
from kgreason.data.loader import load_dataset
from kgreason.eval.official import score_records
from kgreason.reason.reasoner import Reasoner

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = Path(os.environ.get("KGREASON_SHARED_DATA", ROOT.parent / "shared" / "data"))
TOLERANCE = 5e-4  # the reasoner is deterministic; this only absorbs rounding of the pinned figures

# (overall, L1, L2, L3) with the packaged conventions, and with conventions learned from the set's own gold
PINNED = {
    "sample": ((0.9875, 1.0000, 0.9947, 0.9653), (0.9875, 1.0000, 0.9947, 0.9653)),
    "ccks_ext_dev": ((0.8755, 1.0000, 0.8965, 0.7208), (0.9036, 1.0000, 0.9151, 0.7907)),
    "extract_holdout_a": ((0.9021, 0.9775, 0.9150, 0.7799), (0.9021, 0.9775, 0.9150, 0.7799)),
    "extract_holdout_b": ((0.9415, 1.0000, 0.9122, 0.9122), (0.9415, 1.0000, 0.9122, 0.9122)),
    "extract_holdout_c": ((0.7800, 0.9625, 0.7475, 0.5908), (0.7800, 0.9625, 0.7475, 0.5908)),
    "extract_holdout_d": ((0.8030, 0.9625, 0.8613, 0.4934), (0.8030, 0.9625, 0.8613, 0.4934)),
    "extract_holdout_e": ((0.8522, 1.0000, 0.7745, 0.7849), (0.8397, 1.0000, 0.7745, 0.7349)),
    "extract_holdout_f": ((0.8231, 1.0000, 0.8608, 0.5242), (0.8381, 1.0000, 0.8768, 0.5575)),
    "extract_holdout_g": ((0.7950, 0.9938, 0.8180, 0.4918), (0.8102, 0.9938, 0.8330, 0.5273)),
    "extract_holdout_h": ((0.7100, 0.9738, 0.7489, 0.2935), (0.7155, 0.9738, 0.7489, 0.3157)),
    "extract_holdout_i": ((0.7551, 0.8988, 0.8083, 0.4751), (0.7551, 0.8988, 0.8083, 0.4751)),
    "extract_holdout_j": ((0.7498, 0.7772, 0.8038, 0.6232), (0.7526, 0.7772, 0.8104, 0.6232)),
    "extract_holdout_k": ((0.7337, 0.8738, 0.8072, 0.4243), (0.7440, 0.8738, 0.8120, 0.4577)),
    "extract_holdout_l": ((0.6998, 0.9813, 0.6994, 0.3253), (0.7121, 0.9813, 0.7142, 0.3498)),
    "extract_holdout_n": ((0.6391, 0.7800, 0.6041, 0.5096), (0.6467, 0.7800, 0.6224, 0.5096)),
    "extract_holdout_o": ((0.6069, 0.7375, 0.5761, 0.4842), (0.6089, 0.7375, 0.5828, 0.4808)),
    "extract_holdout_m": ((0.6737, 0.9617, 0.6521, 0.3256), (0.6737, 0.9617, 0.6521, 0.3256)),
    "extract_holdout_p": ((0.6824, 0.7672, 0.6891, 0.5581), (0.6941, 0.7672, 0.6891, 0.6048)),
    "extract_holdout_q": ((0.6635, 0.8547, 0.6942, 0.3576), (0.6635, 0.8547, 0.6942, 0.3576)),
    "extract_holdout_r": ((0.6165, 0.8575, 0.4875, 0.5100), (0.6234, 0.8575, 0.4942, 0.5266)),
    "extract_holdout_s": ((0.6524, 0.6663, 0.7352, 0.4960), (0.6884, 0.7475, 0.7352, 0.5315)),
    "extract_holdout_t": ((0.7074, 0.8563, 0.6788, 0.5567), (0.7128, 0.8563, 0.6836, 0.5701)),
    "extract_holdout_u": ((0.6542, 0.8582, 0.5700, 0.5224), (0.6542, 0.8582, 0.5700, 0.5224)),
    "extract_holdout_v": ((0.5315, 0.5717, 0.6001, 0.3635), (0.5348, 0.5717, 0.6081, 0.3635)),
    "extract_holdout_w": ((0.6006, 0.8592, 0.5093, 0.4080), (0.5881, 0.8592, 0.5093, 0.3580)),
}


def _scores(root: Path, *, learned: bool) -> tuple[float, ...]:
    dataset, _ = load_dataset(root, check_gold=False)
    assert dataset.gold is not None
    conventions = learn(list(dataset.gold.values()), kgs=dataset.kgs)[0] if learned else None
    reasoner = Reasoner(dataset, conventions=conventions)
    report = score_records({q.query_id: reasoner.answer(q).record for q in dataset.questions}, dataset.gold)
    return (report.mean, *(report.by_level[lvl].mean for lvl in ("L1", "L2", "L3")))


def _check(name: str, root: Path) -> None:
    for learned, pinned in zip((False, True), PINNED[name], strict=True):
        got = _scores(root, learned=learned)
        label = "learned conventions" if learned else "packaged conventions"
        assert got == pytest.approx(pinned, abs=TOLERANCE), f"{name}, {label}: {tuple(round(x, 4) for x in got)}"


def test_sample_scores_are_pinned() -> None:
    _check("sample", ROOT / "examples" / "sample")


def test_ccks_ext_dev_scores_are_pinned() -> None:
    root = SHARED_DATA / "ccks_ext_dev"
    if not root.is_dir():
        pytest.skip(f"ccks_ext_dev not found in {SHARED_DATA}")
    _check("ccks_ext_dev", root)


@pytest.mark.parametrize("name", [f"extract_holdout_{x}" for x in "abcdefghijklmnopqrstuvw"])
def test_held_out_scores_are_pinned(name: str) -> None:
    _check(name, ROOT / "benchmarks" / "data" / name)
