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
    "sample": ((0.9854, 1.0000, 0.9895, 0.9653), (0.9875, 1.0000, 0.9947, 0.9653)),
    "ccks_ext_dev": ((0.8926, 1.0000, 0.8855, 0.7953), (0.9175, 1.0000, 0.9128, 0.8418)),
    "extract_holdout_a": ((0.8977, 0.9775, 0.9152, 0.7622), (0.8977, 0.9775, 0.9152, 0.7622)),
    "extract_holdout_b": ((0.9298, 1.0000, 0.9076, 0.8733), (0.9298, 1.0000, 0.9076, 0.8733)),
    "extract_holdout_c": ((0.7932, 0.9625, 0.7675, 0.6104), (0.7932, 0.9625, 0.7675, 0.6104)),
    "extract_holdout_d": ((0.8027, 0.9625, 0.8613, 0.4920), (0.8027, 0.9625, 0.8613, 0.4920)),
    "extract_holdout_e": ((0.8460, 1.0000, 0.7595, 0.7849), (0.8335, 1.0000, 0.7595, 0.7349)),
    "extract_holdout_f": ((0.7990, 1.0000, 0.7977, 0.5332), (0.8084, 1.0000, 0.8137, 0.5443)),
    "extract_holdout_g": ((0.7974, 0.9938, 0.8180, 0.5011), (0.8125, 0.9938, 0.8330, 0.5367)),
    "extract_holdout_h": ((0.7193, 0.9738, 0.7589, 0.3142), (0.7249, 0.9738, 0.7589, 0.3365)),
    "extract_holdout_i": ((0.7965, 1.0000, 0.8137, 0.4967), (0.7965, 1.0000, 0.8137, 0.4967)),
    "extract_holdout_j": ((0.7498, 0.7772, 0.8038, 0.6232), (0.7526, 0.7772, 0.8104, 0.6232)),
    "extract_holdout_k": ((0.7831, 0.8738, 0.8787, 0.5027), (0.7851, 0.8738, 0.8835, 0.5027)),
    "extract_holdout_l": ((0.7552, 0.9813, 0.8097, 0.3630), (0.7675, 0.9813, 0.8245, 0.3875)),
    "extract_holdout_m": ((0.7256, 0.9572, 0.7324, 0.4052), (0.7256, 0.9572, 0.7324, 0.4052)),
    "extract_holdout_n": ((0.6751, 0.7800, 0.7535, 0.4045), (0.6792, 0.7800, 0.7635, 0.4045)),
    "extract_holdout_o": ((0.6452, 0.7325, 0.6388, 0.5396), (0.6452, 0.7325, 0.6388, 0.5396)),
    "extract_holdout_p": ((0.7282, 0.8735, 0.7001, 0.5814), (0.7399, 0.8735, 0.7001, 0.6280)),
    "extract_holdout_q": ((0.7545, 0.9400, 0.7901, 0.4479), (0.7545, 0.9400, 0.7901, 0.4479)),
    "extract_holdout_r": ((0.7330, 0.9587, 0.6747, 0.5293), (0.7399, 0.9587, 0.6813, 0.5460)),
    "extract_holdout_s": ((0.6927, 0.7500, 0.7378, 0.5410), (0.6927, 0.7500, 0.7378, 0.5410)),
    "extract_holdout_t": ((0.7585, 0.9700, 0.7383, 0.5103), (0.7605, 0.9700, 0.7431, 0.5103)),
    "extract_holdout_u": ((0.7427, 0.9623, 0.6953, 0.5289), (0.7427, 0.9623, 0.6953, 0.5289)),
    "extract_holdout_v": ((0.6439, 0.6729, 0.7545, 0.4209), (0.6472, 0.6729, 0.7625, 0.4209)),
    "extract_holdout_w": ((0.6952, 0.8592, 0.6872, 0.4898), (0.6860, 0.8592, 0.6952, 0.4398)),
    "extract_holdout_x": ((0.7140, 0.9875, 0.6746, 0.4151), (0.7156, 0.9875, 0.6746, 0.4216)),
    "extract_holdout_y": ((0.5922, 0.6645, 0.5944, 0.4922), (0.5955, 0.6645, 0.6024, 0.4922)),
    "extract_holdout_z": ((0.7059, 0.8563, 0.6193, 0.6497), (0.7059, 0.8563, 0.6193, 0.6497)),
    "extract_holdout_aa": ((0.6363, 0.7653, 0.6994, 0.3592), (0.6363, 0.7653, 0.6994, 0.3592)),
    "extract_holdout_ab": ((0.6931, 0.8504, 0.7104, 0.4544), (0.6964, 0.8504, 0.7184, 0.4544)),
    "extract_holdout_ac": ((0.7009, 0.8762, 0.5896, 0.6526), (0.7022, 0.8762, 0.5896, 0.6578)),
    "extract_holdout_ad": ((0.8128, 0.9795, 0.8459, 0.5353), (0.8110, 0.9795, 0.8459, 0.5282)),
    "extract_holdout_ae": ((0.6806, 0.8173, 0.6662, 0.5224), (0.6848, 0.8173, 0.6662, 0.5391)),
    "extract_holdout_af": ((0.7841, 0.9825, 0.8319, 0.4400), (0.7841, 0.9825, 0.8319, 0.4400)),
    "extract_holdout_ag": ((0.8310, 0.8760, 0.8684, 0.7087), (0.8310, 0.8760, 0.8684, 0.7087)),
    "extract_holdout_ah": ((0.6769, 0.8375, 0.7017, 0.4213), (0.6824, 0.8375, 0.7017, 0.4435)),
    "extract_holdout_ai": ((0.7406, 0.8304, 0.8045, 0.5143), (0.7406, 0.8304, 0.8045, 0.5143)),
    "extract_holdout_aj": ((0.7833, 0.8000, 0.8220, 0.7278), (0.7833, 0.8000, 0.8220, 0.7278)),
    "extract_holdout_ak": ((0.8205, 0.8788, 0.8486, 0.7341), (0.8205, 0.8788, 0.8486, 0.7341)),
    "extract_holdout_al": ((0.7932, 0.9062, 0.8392, 0.6342), (0.7932, 0.9062, 0.8392, 0.6342)),
    "extract_holdout_am": ((0.8139, 0.8988, 0.8091, 0.7338), (0.8139, 0.8988, 0.8091, 0.7338)),
    "extract_holdout_an": ((0.7961, 0.9875, 0.8469, 0.5540), (0.7961, 0.9875, 0.8469, 0.5540)),
    "extract_holdout_ao": ((0.7580, 0.8862, 0.6894, 0.6983), (0.7580, 0.8862, 0.6894, 0.6983)),
    "extract_holdout_ap": ((0.7733, 0.9938, 0.7268, 0.5993), (0.7733, 0.9938, 0.7268, 0.5993)),
    "extract_holdout_aq": ((0.7058, 0.9875, 0.6799, 0.4498), (0.7058, 0.9875, 0.6799, 0.4498)),
    "extract_holdout_ar": ((0.7851, 0.9875, 0.7746, 0.5932), (0.7851, 0.9875, 0.7746, 0.5932)),
    "extract_holdout_as": ((0.8680, 1.0000, 0.9075, 0.6964), (0.8680, 1.0000, 0.9075, 0.6964)),
    "extract_holdout_at": ((0.8453, 1.0000, 0.8714, 0.6645), (0.8265, 1.0000, 0.8152, 0.6645)),
    "extract_holdout_au": ((0.8105, 0.8750, 0.9430, 0.6136), (0.8105, 0.8750, 0.9430, 0.6136)),
    "extract_holdout_av": ((0.7656, 0.7863, 0.8451, 0.6653), (0.7656, 0.7863, 0.8451, 0.6653)),
    "extract_holdout_aw": ((0.8386, 1.0000, 0.8845, 0.6313), (0.8386, 1.0000, 0.8845, 0.6313)),
    "extract_holdout_ax": ((0.7478, 0.8862, 0.7312, 0.6259), (0.7478, 0.8862, 0.7312, 0.6259)),
    "extract_holdout_ay": ((0.7911, 0.8485, 0.9102, 0.6146), (0.7911, 0.8485, 0.9102, 0.6146)),
    "extract_holdout_az": ((0.8673, 0.9530, 0.9529, 0.6959), (0.8673, 0.9530, 0.9529, 0.6959)),
    "extract_holdout_ba": ((0.7552, 0.8875, 0.8769, 0.5010), (0.7552, 0.8875, 0.8769, 0.5010)),
    "extract_holdout_bb": ((0.7077, 1.0000, 0.6431, 0.4801), (0.7077, 1.0000, 0.6431, 0.4801)),
    "extract_holdout_bc": ((0.7713, 0.9938, 0.6804, 0.6396), (0.7713, 0.9938, 0.6804, 0.6396)),
    "extract_holdout_bd": ((0.7282, 0.7625, 0.8324, 0.5896), (0.7282, 0.7625, 0.8324, 0.5896)),
    "extract_holdout_be": ((0.6416, 0.5708, 0.7437, 0.6103), (0.6416, 0.5708, 0.7437, 0.6103)),
    "extract_holdout_bf": ((0.7454, 1.0000, 0.6368, 0.5995), (0.7538, 1.0000, 0.6368, 0.6245)),
    "extract_holdout_bg": ((0.8682, 1.0000, 0.8912, 0.7133), (0.8557, 1.0000, 0.8912, 0.6758)),
    "extract_holdout_bh": ((0.6733, 0.8938, 0.5592, 0.5671), (0.6733, 0.8938, 0.5592, 0.5671)),
    "extract_holdout_bi": ((0.7417, 1.0000, 0.6408, 0.5842), (0.7417, 1.0000, 0.6408, 0.5842)),
    "extract_holdout_bj": ((0.7620, 0.8962, 0.7018, 0.6879), (0.7620, 0.8962, 0.7018, 0.6879)),
    "extract_holdout_bk": ((0.8131, 0.9875, 0.8748, 0.5772), (0.8131, 0.9875, 0.8748, 0.5772)),
    "extract_holdout_bl": ((0.6933, 0.8938, 0.6659, 0.5202), (0.6933, 0.8938, 0.6659, 0.5202)),
    "extract_holdout_bm": ((0.7630, 0.8862, 0.8301, 0.5726), (0.7630, 0.8862, 0.8301, 0.5726)),
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


HELD_OUT = [
    *"abcdefghijklmnopqrstuvwxyz",
    *(f"a{c}" for c in "abcdefghijklmnopqrstuvwxyz"),
    *(f"b{c}" for c in "abcdefghijklm"),
]


@pytest.mark.parametrize("name", [f"extract_holdout_{x}" for x in HELD_OUT])
def test_held_out_scores_are_pinned(name: str) -> None:
    _check(name, ROOT / "benchmarks" / "data" / name)
