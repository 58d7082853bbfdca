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
    "ccks_ext_dev": ((0.8834, 1.0000, 0.8870, 0.7617), (0.9084, 1.0000, 0.9143, 0.8082)),
    "extract_holdout_a": ((0.8977, 0.9775, 0.9152, 0.7622), (0.8977, 0.9775, 0.9152, 0.7622)),
    "extract_holdout_b": ((0.9298, 1.0000, 0.9076, 0.8733), (0.9298, 1.0000, 0.9076, 0.8733)),
    "extract_holdout_c": ((0.7932, 0.9625, 0.7675, 0.6104), (0.7932, 0.9625, 0.7675, 0.6104)),
    "extract_holdout_d": ((0.8027, 0.9625, 0.8613, 0.4920), (0.8027, 0.9625, 0.8613, 0.4920)),
    "extract_holdout_e": ((0.8460, 1.0000, 0.7595, 0.7849), (0.8335, 1.0000, 0.7595, 0.7349)),
    "extract_holdout_f": ((0.7990, 1.0000, 0.7977, 0.5332), (0.8084, 1.0000, 0.8137, 0.5443)),
    "extract_holdout_g": ((0.7950, 0.9938, 0.8180, 0.4918), (0.8102, 0.9938, 0.8330, 0.5273)),
    "extract_holdout_h": ((0.7193, 0.9738, 0.7589, 0.3142), (0.7249, 0.9738, 0.7589, 0.3365)),
    "extract_holdout_i": ((0.7984, 1.0000, 0.8183, 0.4967), (0.7984, 1.0000, 0.8183, 0.4967)),
    "extract_holdout_j": ((0.7498, 0.7772, 0.8038, 0.6232), (0.7526, 0.7772, 0.8104, 0.6232)),
    "extract_holdout_k": ((0.7695, 0.8738, 0.8787, 0.4486), (0.7715, 0.8738, 0.8835, 0.4486)),
    "extract_holdout_l": ((0.7003, 0.9813, 0.6984, 0.3291), (0.7126, 0.9813, 0.7132, 0.3535)),
    "extract_holdout_m": ((0.7043, 0.9617, 0.6779, 0.4052), (0.7043, 0.9617, 0.6779, 0.4052)),
    "extract_holdout_n": ((0.6531, 0.7800, 0.7007, 0.4045), (0.6572, 0.7800, 0.7107, 0.4045)),
    "extract_holdout_o": ((0.6475, 0.7325, 0.6442, 0.5396), (0.6517, 0.7325, 0.6542, 0.5396)),
    "extract_holdout_p": ((0.7242, 0.8735, 0.6971, 0.5705), (0.7359, 0.8735, 0.6971, 0.6171)),
    "extract_holdout_q": ((0.7545, 0.9400, 0.7901, 0.4479), (0.7545, 0.9400, 0.7901, 0.4479)),
    "extract_holdout_r": ((0.6899, 0.9587, 0.5941, 0.4912), (0.6969, 0.9587, 0.6007, 0.5079)),
    "extract_holdout_s": ((0.6924, 0.7500, 0.7378, 0.5398), (0.6924, 0.7500, 0.7378, 0.5398)),
    "extract_holdout_t": ((0.7728, 0.9575, 0.7433, 0.5758), (0.7781, 0.9575, 0.7481, 0.5891)),
    "extract_holdout_u": ((0.7435, 0.9623, 0.7011, 0.5224), (0.7435, 0.9623, 0.7011, 0.5224)),
    "extract_holdout_v": ((0.6309, 0.6729, 0.7577, 0.3635), (0.6342, 0.6729, 0.7657, 0.3635)),
    "extract_holdout_w": ((0.6768, 0.8592, 0.6916, 0.4091), (0.6676, 0.8592, 0.6996, 0.3591)),
    "extract_holdout_x": ((0.7140, 0.9875, 0.6746, 0.4151), (0.7156, 0.9875, 0.6746, 0.4216)),
    "extract_holdout_y": ((0.5922, 0.6645, 0.5944, 0.4922), (0.5955, 0.6645, 0.6024, 0.4922)),
    "extract_holdout_z": ((0.6774, 0.8563, 0.5510, 0.6497), (0.6774, 0.8563, 0.5510, 0.6497)),
    "extract_holdout_aa": ((0.6399, 0.7653, 0.6994, 0.3736), (0.6399, 0.7653, 0.6994, 0.3736)),
    "extract_holdout_ab": ((0.6669, 0.8504, 0.6474, 0.4549), (0.6669, 0.8504, 0.6474, 0.4549)),
    "extract_holdout_ac": ((0.6715, 0.8762, 0.5655, 0.5752), (0.6728, 0.8762, 0.5655, 0.5805)),
    "extract_holdout_ad": ((0.8141, 0.9795, 0.8490, 0.5353), (0.8123, 0.9795, 0.8490, 0.5282)),
    "extract_holdout_ae": ((0.6634, 0.8173, 0.6662, 0.4536), (0.6676, 0.8173, 0.6662, 0.4703)),
    "extract_holdout_af": ((0.7841, 0.9825, 0.8319, 0.4400), (0.7841, 0.9825, 0.8319, 0.4400)),
    "extract_holdout_ag": ((0.8317, 0.8760, 0.8700, 0.7087), (0.8317, 0.8760, 0.8700, 0.7087)),
    "extract_holdout_ah": ((0.7086, 0.8375, 0.7801, 0.4175), (0.7141, 0.8375, 0.7801, 0.4397)),
    "extract_holdout_ai": ((0.7405, 0.8304, 0.8077, 0.5087), (0.7405, 0.8304, 0.8077, 0.5087)),
    "extract_holdout_aj": ((0.7965, 0.8000, 0.8220, 0.7676), (0.7965, 0.8000, 0.8220, 0.7676)),
    "extract_holdout_ak": ((0.7910, 0.8788, 0.8486, 0.6457), (0.7910, 0.8788, 0.8486, 0.6457)),
    "extract_holdout_al": ((0.7807, 0.9062, 0.8392, 0.5967), (0.7807, 0.9062, 0.8392, 0.5967)),
    "extract_holdout_am": ((0.7817, 0.8988, 0.8091, 0.6372), (0.7817, 0.8988, 0.8091, 0.6372)),
    "extract_holdout_an": ((0.7574, 0.9875, 0.7807, 0.5040), (0.7574, 0.9875, 0.7807, 0.5040)),
    "extract_holdout_ao": ((0.7430, 0.8862, 0.6894, 0.6532), (0.7430, 0.8862, 0.6894, 0.6532)),
    "extract_holdout_ap": ((0.7493, 0.9938, 0.7406, 0.5135), (0.7493, 0.9938, 0.7406, 0.5135)),
    "extract_holdout_aq": ((0.7115, 0.9875, 0.7054, 0.4416), (0.7115, 0.9875, 0.7054, 0.4416)),
    "extract_holdout_ar": ((0.7830, 0.9875, 0.7746, 0.5870), (0.7830, 0.9875, 0.7746, 0.5870)),
    "extract_holdout_as": ((0.8349, 1.0000, 0.9075, 0.5973), (0.8349, 1.0000, 0.9075, 0.5973)),
    "extract_holdout_at": ((0.8455, 1.0000, 0.8714, 0.6651), (0.8268, 1.0000, 0.8152, 0.6651)),
    "extract_holdout_au": ((0.7921, 0.8750, 0.9550, 0.5464), (0.7921, 0.8750, 0.9550, 0.5464)),
    "extract_holdout_av": ((0.7489, 0.7863, 0.8451, 0.6155), (0.7489, 0.7863, 0.8451, 0.6155)),
    "extract_holdout_aw": ((0.7922, 1.0000, 0.8641, 0.5126), (0.7922, 1.0000, 0.8641, 0.5126)),
    "extract_holdout_ax": ((0.7478, 0.8862, 0.7312, 0.6259), (0.7478, 0.8862, 0.7312, 0.6259)),
    "extract_holdout_ay": ((0.7911, 0.8485, 0.9102, 0.6146), (0.7911, 0.8485, 0.9102, 0.6146)),
    "extract_holdout_az": ((0.8623, 0.9575, 0.9471, 0.6824), (0.8623, 0.9575, 0.9471, 0.6824)),
    "extract_holdout_ba": ((0.7433, 0.8875, 0.8413, 0.5010), (0.7433, 0.8875, 0.8413, 0.5010)),
    "extract_holdout_bb": ((0.7055, 1.0000, 0.6431, 0.4733), (0.7055, 1.0000, 0.6431, 0.4733)),
    "extract_holdout_bc": ((0.7468, 0.9938, 0.6772, 0.5696), (0.7468, 0.9938, 0.6772, 0.5696)),
    "extract_holdout_bd": ((0.6743, 0.6613, 0.8351, 0.5267), (0.6743, 0.6613, 0.8351, 0.5267)),
    "extract_holdout_be": ((0.5855, 0.4696, 0.7382, 0.5487), (0.5855, 0.4696, 0.7382, 0.5487)),
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
    *(f"b{c}" for c in "abcde"),
]


@pytest.mark.parametrize("name", [f"extract_holdout_{x}" for x in HELD_OUT])
def test_held_out_scores_are_pinned(name: str) -> None:
    _check(name, ROOT / "benchmarks" / "data" / name)
