"""Golden scores: the official mean per level on the bundled sample, on ccks_ext_dev (an independent annotator's
set, beside the repository in ../shared) and on the forty-one held-out sets helpers wrote without reading the
code (`benchmarks/data/extract_holdout_a` to `_z`, `_aa` to `_ao`; each set's first run is in
`benchmarks/bench_holdouts.py`'s FIRST_RUNS), with `--llm none`. A change that moves any of them fails here: update
the figures (and README Results) only with a change that explains the move.
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
    "extract_holdout_a": ((0.8976, 0.9775, 0.9150, 0.7622), (0.8976, 0.9775, 0.9150, 0.7622)),
    "extract_holdout_b": ((0.9366, 1.0000, 0.9181, 0.8830), (0.9366, 1.0000, 0.9181, 0.8830)),
    "extract_holdout_c": ((0.7793, 0.9625, 0.7475, 0.5882), (0.7793, 0.9625, 0.7475, 0.5882)),
    "extract_holdout_d": ((0.8030, 0.9625, 0.8613, 0.4934), (0.8030, 0.9625, 0.8613, 0.4934)),
    "extract_holdout_e": ((0.8522, 1.0000, 0.7745, 0.7849), (0.8397, 1.0000, 0.7745, 0.7349)),
    "extract_holdout_f": ((0.8009, 1.0000, 0.8077, 0.5242), (0.8159, 1.0000, 0.8237, 0.5575)),
    "extract_holdout_g": ((0.7950, 0.9938, 0.8180, 0.4918), (0.8102, 0.9938, 0.8330, 0.5273)),
    "extract_holdout_h": ((0.7026, 0.9738, 0.7489, 0.2641), (0.7082, 0.9738, 0.7489, 0.2863)),
    "extract_holdout_i": ((0.7889, 1.0000, 0.8083, 0.4751), (0.7889, 1.0000, 0.8083, 0.4751)),
    "extract_holdout_j": ((0.7498, 0.7772, 0.8038, 0.6232), (0.7526, 0.7772, 0.8104, 0.6232)),
    "extract_holdout_k": ((0.7570, 0.8738, 0.8687, 0.4152), (0.7674, 0.8738, 0.8735, 0.4486)),
    "extract_holdout_l": ((0.7003, 0.9813, 0.6984, 0.3291), (0.7126, 0.9813, 0.7132, 0.3535)),
    "extract_holdout_m": ((0.6653, 0.9617, 0.6312, 0.3268), (0.6653, 0.9617, 0.6312, 0.3268)),
    "extract_holdout_n": ((0.6396, 0.7800, 0.6053, 0.5096), (0.6472, 0.7800, 0.6236, 0.5096)),
    "extract_holdout_o": ((0.6455, 0.7325, 0.6376, 0.5429), (0.6475, 0.7325, 0.6442, 0.5396)),
    "extract_holdout_p": ((0.7178, 0.8735, 0.6891, 0.5581), (0.7295, 0.8735, 0.6891, 0.6048)),
    "extract_holdout_q": ((0.6896, 0.8429, 0.7566, 0.3737), (0.6896, 0.8429, 0.7566, 0.3737)),
    "extract_holdout_r": ((0.6705, 0.9587, 0.5475, 0.4912), (0.6775, 0.9587, 0.5542, 0.5079)),
    "extract_holdout_s": ((0.6813, 0.7500, 0.7325, 0.5043), (0.6902, 0.7500, 0.7325, 0.5398)),
    "extract_holdout_t": ((0.7622, 0.9575, 0.7234, 0.5665), (0.7675, 0.9575, 0.7282, 0.5798)),
    "extract_holdout_u": ((0.7130, 0.9623, 0.6279, 0.5224), (0.7130, 0.9623, 0.6279, 0.5224)),
    "extract_holdout_v": ((0.6253, 0.6729, 0.7442, 0.3635), (0.6286, 0.6729, 0.7522, 0.3635)),
    "extract_holdout_w": ((0.6719, 0.8592, 0.6786, 0.4113), (0.6628, 0.8592, 0.6866, 0.3613)),
    "extract_holdout_x": ((0.7071, 0.9875, 0.6579, 0.4151), (0.7087, 0.9875, 0.6579, 0.4216)),
    "extract_holdout_y": ((0.5839, 0.6645, 0.5744, 0.4922), (0.5872, 0.6645, 0.5824, 0.4922)),
    "extract_holdout_z": ((0.7009, 0.8563, 0.6174, 0.6330), (0.7051, 0.8563, 0.6174, 0.6497)),
    "extract_holdout_aa": ((0.6453, 0.7653, 0.7124, 0.3736), (0.6453, 0.7653, 0.7124, 0.3736)),
    "extract_holdout_ab": ((0.6586, 0.8504, 0.6274, 0.4549), (0.6586, 0.8504, 0.6274, 0.4549)),
    "extract_holdout_ac": ((0.6925, 0.8762, 0.5655, 0.6591), (0.6938, 0.8762, 0.5655, 0.6643)),
    "extract_holdout_ad": ((0.8108, 0.9795, 0.8490, 0.5219), (0.8123, 0.9795, 0.8490, 0.5282)),
    "extract_holdout_ae": ((0.6625, 0.8173, 0.6626, 0.4558), (0.6661, 0.8173, 0.6626, 0.4703)),
    "extract_holdout_af": ((0.7737, 0.9825, 0.8069, 0.4400), (0.7737, 0.9825, 0.8069, 0.4400)),
    "extract_holdout_ag": ((0.8163, 0.8760, 0.8463, 0.6865), (0.8218, 0.8760, 0.8463, 0.7087)),
    "extract_holdout_ah": ((0.7062, 0.8375, 0.7743, 0.4175), (0.7117, 0.8375, 0.7743, 0.4397)),
    "extract_holdout_ai": ((0.7338, 0.8317, 0.8038, 0.4864), (0.7393, 0.8317, 0.8038, 0.5087)),
    "extract_holdout_aj": ((0.7649, 0.8000, 0.7270, 0.7676), (0.7649, 0.8000, 0.7270, 0.7676)),
    "extract_holdout_ak": ((0.7910, 0.8788, 0.8486, 0.6457), (0.7910, 0.8788, 0.8486, 0.6457)),
    "extract_holdout_al": ((0.7540, 0.9062, 0.7589, 0.5967), (0.7540, 0.9062, 0.7589, 0.5967)),
    "extract_holdout_am": ((0.7839, 0.8988, 0.7992, 0.6539), (0.7839, 0.8988, 0.7992, 0.6539)),
    "extract_holdout_an": ((0.7170, 0.9875, 0.7438, 0.4198), (0.7170, 0.9875, 0.7438, 0.4198)),
    "extract_holdout_ao": ((0.7076, 0.7925, 0.6769, 0.6532), (0.7076, 0.7925, 0.6769, 0.6532)),
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


HELD_OUT = [*"abcdefghijklmnopqrstuvwxyz", *(f"a{c}" for c in "abcdefghijklmno")]


@pytest.mark.parametrize("name", [f"extract_holdout_{x}" for x in HELD_OUT])
def test_held_out_scores_are_pinned(name: str) -> None:
    _check(name, ROOT / "benchmarks" / "data" / name)
