"""Locating a triple's source sentence when the text shortens names."""

from __future__ import annotations

from kgreason.corpus.sentences import locate
from kgreason.reason.trace import SentenceFinder

TEXT = (
    "打击群编有钻石号驱逐舰（舷号D34）和捍卫者号驱逐舰。"
    "2021年7月，钻石号在地中海出现技术故障，此事被称为钻石号技术故障。"
    "张海是海鹰号的舰长。"
)


def test_one_spelling_does_not_count_for_both_ends() -> None:
    # `钻石号` inside `钻石号驱逐舰` must not pass for the start of `钻石号技术故障`
    found = locate(SentenceFinder(TEXT), ("钻石号技术故障", "涉事舰艇", "钻石号驱逐舰"))
    assert found is not None and found.text.startswith("2021年7月")


def test_short_forms_count_and_nothing_is_none() -> None:
    found = locate(SentenceFinder(TEXT), ("张海", "隶属于", "海鹰号航空母舰"))
    assert found is not None and found.text == "张海是海鹰号的舰长。"
    assert locate(SentenceFinder(TEXT), ("大和号", "舷号", "Y1")) is None
