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
    "ccks_ext_dev": ((0.8933, 1.0000, 0.8855, 0.7976), (0.9182, 1.0000, 0.9128, 0.8441)),
    "extract_holdout_a": ((0.8977, 0.9775, 0.9152, 0.7622), (0.8977, 0.9775, 0.9152, 0.7622)),
    "extract_holdout_b": ((0.9298, 1.0000, 0.9076, 0.8733), (0.9298, 1.0000, 0.9076, 0.8733)),
    "extract_holdout_c": ((0.7932, 0.9625, 0.7675, 0.6104), (0.7932, 0.9625, 0.7675, 0.6104)),
    "extract_holdout_d": ((0.8027, 0.9625, 0.8613, 0.4920), (0.8027, 0.9625, 0.8613, 0.4920)),
    "extract_holdout_e": ((0.8474, 1.0000, 0.7595, 0.7906), (0.8349, 1.0000, 0.7595, 0.7406)),
    "extract_holdout_f": ((0.7990, 1.0000, 0.7977, 0.5332), (0.8084, 1.0000, 0.8137, 0.5443)),
    "extract_holdout_g": ((0.8176, 0.9938, 0.8665, 0.5011), (0.8327, 0.9938, 0.8815, 0.5367)),
    "extract_holdout_h": ((0.7193, 0.9738, 0.7589, 0.3142), (0.7249, 0.9738, 0.7589, 0.3365)),
    "extract_holdout_i": ((0.7914, 1.0000, 0.8137, 0.4759), (0.7914, 1.0000, 0.8137, 0.4759)),
    "extract_holdout_j": ((0.7737, 0.7772, 0.8612, 0.6232), (0.7765, 0.7772, 0.8678, 0.6232)),
    "extract_holdout_k": ((0.7831, 0.8738, 0.8787, 0.5027), (0.7851, 0.8738, 0.8835, 0.5027)),
    "extract_holdout_l": ((0.7552, 0.9813, 0.8097, 0.3630), (0.7675, 0.9813, 0.8245, 0.3875)),
    "extract_holdout_m": ((0.7719, 0.9572, 0.8362, 0.4176), (0.7719, 0.9572, 0.8362, 0.4176)),
    "extract_holdout_n": ((0.6751, 0.7800, 0.7535, 0.4045), (0.6792, 0.7800, 0.7635, 0.4045)),
    "extract_holdout_o": ((0.6452, 0.7325, 0.6388, 0.5396), (0.6452, 0.7325, 0.6388, 0.5396)),
    "extract_holdout_p": ((0.7474, 0.8735, 0.7451, 0.5831), (0.7591, 0.8735, 0.7451, 0.6297)),
    "extract_holdout_q": ((0.7545, 0.9400, 0.7901, 0.4479), (0.7545, 0.9400, 0.7901, 0.4479)),
    "extract_holdout_r": ((0.7250, 0.9587, 0.6554, 0.5293), (0.7319, 0.9587, 0.6620, 0.5460)),
    "extract_holdout_s": ((0.6927, 0.7500, 0.7378, 0.5410), (0.6927, 0.7500, 0.7378, 0.5410)),
    "extract_holdout_t": ((0.7585, 0.9700, 0.7383, 0.5103), (0.7605, 0.9700, 0.7431, 0.5103)),
    "extract_holdout_u": ((0.7456, 0.9623, 0.7024, 0.5289), (0.7456, 0.9623, 0.7024, 0.5289)),
    "extract_holdout_v": ((0.6455, 0.6729, 0.7545, 0.4274), (0.6489, 0.6729, 0.7625, 0.4274)),
    "extract_holdout_w": ((0.6959, 0.8592, 0.6891, 0.4898), (0.6868, 0.8592, 0.6971, 0.4398)),
    "extract_holdout_x": ((0.7140, 0.9875, 0.6746, 0.4151), (0.7156, 0.9875, 0.6746, 0.4216)),
    "extract_holdout_y": ((0.5945, 0.6645, 0.5944, 0.5012), (0.5978, 0.6645, 0.6024, 0.5012)),
    "extract_holdout_z": ((0.7336, 0.8563, 0.6857, 0.6497), (0.7336, 0.8563, 0.6857, 0.6497)),
    "extract_holdout_aa": ((0.6363, 0.7653, 0.6994, 0.3592), (0.6363, 0.7653, 0.6994, 0.3592)),
    "extract_holdout_ab": ((0.6931, 0.8504, 0.7104, 0.4544), (0.6964, 0.8504, 0.7184, 0.4544)),
    "extract_holdout_ac": ((0.7009, 0.8762, 0.5896, 0.6526), (0.7022, 0.8762, 0.5896, 0.6578)),
    "extract_holdout_ad": ((0.8168, 0.9795, 0.8555, 0.5353), (0.8150, 0.9795, 0.8555, 0.5282)),
    "extract_holdout_ae": ((0.6806, 0.8173, 0.6662, 0.5224), (0.6848, 0.8173, 0.6662, 0.5391)),
    "extract_holdout_af": ((0.7464, 0.9825, 0.7809, 0.3739), (0.7464, 0.9825, 0.7809, 0.3739)),
    "extract_holdout_ag": ((0.8310, 0.8760, 0.8684, 0.7087), (0.8310, 0.8760, 0.8684, 0.7087)),
    "extract_holdout_ah": ((0.7056, 0.8383, 0.7699, 0.4213), (0.7111, 0.8383, 0.7699, 0.4435)),
    "extract_holdout_ai": ((0.7406, 0.8304, 0.8045, 0.5143), (0.7406, 0.8304, 0.8045, 0.5143)),
    "extract_holdout_aj": ((0.7998, 0.8000, 0.8220, 0.7774), (0.7998, 0.8000, 0.8220, 0.7774)),
    "extract_holdout_ak": ((0.8205, 0.8788, 0.8486, 0.7341), (0.8205, 0.8788, 0.8486, 0.7341)),
    "extract_holdout_al": ((0.7932, 0.9062, 0.8392, 0.6342), (0.7932, 0.9062, 0.8392, 0.6342)),
    "extract_holdout_am": ((0.8139, 0.8988, 0.8091, 0.7338), (0.8139, 0.8988, 0.8091, 0.7338)),
    "extract_holdout_an": ((0.8052, 0.9875, 0.8742, 0.5540), (0.8052, 0.9875, 0.8742, 0.5540)),
    "extract_holdout_ao": ((0.7580, 0.8862, 0.6894, 0.6983), (0.7580, 0.8862, 0.6894, 0.6983)),
    "extract_holdout_ap": ((0.7957, 0.9938, 0.7940, 0.5993), (0.7957, 0.9938, 0.7940, 0.5993)),
    "extract_holdout_aq": ((0.7296, 0.9875, 0.6799, 0.5213), (0.7296, 0.9875, 0.6799, 0.5213)),
    "extract_holdout_ar": ((0.8323, 0.9875, 0.8619, 0.6475), (0.8323, 0.9875, 0.8619, 0.6475)),
    "extract_holdout_as": ((0.8680, 1.0000, 0.9075, 0.6964), (0.8680, 1.0000, 0.9075, 0.6964)),
    "extract_holdout_at": ((0.8437, 1.0000, 0.8714, 0.6596), (0.8249, 1.0000, 0.8152, 0.6596)),
    "extract_holdout_au": ((0.8105, 0.8750, 0.9430, 0.6136), (0.8105, 0.8750, 0.9430, 0.6136)),
    "extract_holdout_av": ((0.7681, 0.7863, 0.8451, 0.6730), (0.7681, 0.7863, 0.8451, 0.6730)),
    "extract_holdout_aw": ((0.8386, 1.0000, 0.8845, 0.6313), (0.8386, 1.0000, 0.8845, 0.6313)),
    "extract_holdout_ax": ((0.7410, 0.8862, 0.7108, 0.6259), (0.7410, 0.8862, 0.7108, 0.6259)),
    "extract_holdout_ay": ((0.7911, 0.8485, 0.9102, 0.6146), (0.7911, 0.8485, 0.9102, 0.6146)),
    "extract_holdout_az": ((0.8673, 0.9530, 0.9529, 0.6959), (0.8673, 0.9530, 0.9529, 0.6959)),
    "extract_holdout_ba": ((0.7560, 0.8875, 0.8769, 0.5036), (0.7560, 0.8875, 0.8769, 0.5036)),
    "extract_holdout_bb": ((0.7578, 1.0000, 0.7933, 0.4801), (0.7578, 1.0000, 0.7933, 0.4801)),
    "extract_holdout_bc": ((0.7698, 0.9938, 0.6761, 0.6396), (0.7698, 0.9938, 0.6761, 0.6396)),
    "extract_holdout_bd": ((0.7396, 0.7625, 0.8324, 0.6240), (0.7396, 0.7625, 0.8324, 0.6240)),
    "extract_holdout_be": ((0.6629, 0.5708, 0.7437, 0.6742), (0.6629, 0.5708, 0.7437, 0.6742)),
    "extract_holdout_bf": ((0.7454, 1.0000, 0.6368, 0.5995), (0.7538, 1.0000, 0.6368, 0.6245)),
    "extract_holdout_bg": ((0.8682, 1.0000, 0.8912, 0.7133), (0.8557, 1.0000, 0.8912, 0.6758)),
    "extract_holdout_bh": ((0.7108, 0.8938, 0.5592, 0.6794), (0.7108, 0.8938, 0.5592, 0.6794)),
    "extract_holdout_bi": ((0.7439, 1.0000, 0.6474, 0.5842), (0.7439, 1.0000, 0.6474, 0.5842)),
    "extract_holdout_bj": ((0.7749, 0.8962, 0.7018, 0.7268), (0.7749, 0.8962, 0.7018, 0.7268)),
    "extract_holdout_bk": ((0.8123, 0.9875, 0.8722, 0.5772), (0.8123, 0.9875, 0.8722, 0.5772)),
    "extract_holdout_bl": ((0.7475, 0.8938, 0.7388, 0.6101), (0.7475, 0.8938, 0.7388, 0.6101)),
    "extract_holdout_bm": ((0.7626, 0.8862, 0.8301, 0.5713), (0.7626, 0.8862, 0.8301, 0.5713)),
    "extract_holdout_bn": ((0.7914, 1.0000, 0.7827, 0.5914), (0.7789, 1.0000, 0.7827, 0.5539)),
    "extract_holdout_bo": ((0.7230, 0.7950, 0.7820, 0.5920), (0.7230, 0.7950, 0.7820, 0.5920)),
    "extract_holdout_bp": ((0.6174, 0.5613, 0.7199, 0.5711), (0.6174, 0.5613, 0.7199, 0.5711)),
    "extract_holdout_bq": ((0.7902, 0.8925, 0.8911, 0.5869), (0.7902, 0.8925, 0.8911, 0.5869)),
    "extract_holdout_br": ((0.7783, 0.8456, 0.8064, 0.6828), (0.7783, 0.8456, 0.8064, 0.6828)),
    "extract_holdout_bs": ((0.7071, 0.8938, 0.7034, 0.5241), (0.6987, 0.8938, 0.7034, 0.4991)),
    "extract_holdout_bt": ((0.8702, 1.0000, 0.8722, 0.7384), (0.8702, 1.0000, 0.8722, 0.7384)),
    "extract_holdout_bu": ((0.7621, 0.9875, 0.8350, 0.4637), (0.7621, 0.9875, 0.8350, 0.4637)),
    "extract_holdout_bv": ((0.8140, 0.9900, 0.7878, 0.6642), (0.8181, 0.9900, 0.7878, 0.6767)),
    "extract_holdout_bw": ((0.7262, 0.8722, 0.6677, 0.6388), (0.7262, 0.8722, 0.6677, 0.6388)),
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
    *(f"b{c}" for c in "abcdefghijklmnopqrstuvw"),
]


@pytest.mark.parametrize("name", [f"extract_holdout_{x}" for x in HELD_OUT])
def test_held_out_scores_are_pinned(name: str) -> None:
    _check(name, ROOT / "benchmarks" / "data" / name)
