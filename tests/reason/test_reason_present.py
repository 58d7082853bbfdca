"""The assemble stage's writing step: constraints under the conventions' keys, values without deixis."""

from __future__ import annotations

from kgreason.conventions import default_conventions, parse_conventions
from kgreason.reason.present import written_constraints


def test_demonstrative_is_left_out_of_a_constraint_value() -> None:
    conv = default_conventions()
    got = written_constraints({"exclude": "在朱日和举行的那次阅兵", "type": "那艘055型驱逐舰"}, conv)
    assert got == {"exclude": "在朱日和举行的阅兵", "type": "055型驱逐舰"}


def test_a_value_that_is_only_a_demonstrative_word_is_kept() -> None:
    # `那次` at the end points at nothing after it: nothing to leave out
    assert written_constraints({"time": "那次"}, default_conventions()) == {"time": "那次"}


def test_constraint_kind_written_under_the_learned_key() -> None:
    data = default_conventions().to_json()
    data["constraint_keys"] = {**data["constraint_keys"], "exclude": "exclude", "order": "compare"}
    conv = parse_conventions(data, "test", default_conventions())
    got = written_constraints({"exclude": "北约成员国", "order": "射程更远"}, conv)
    assert got == {"exclude": "北约成员国", "compare": "射程更远"}


def test_a_negation_without_a_key_of_its_own_is_written_under_the_sides_key() -> None:
    # conventions that give `exclude` no key (this project's sample: `"camp": "英国以外"`)
    data = default_conventions().to_json()
    data["constraint_keys"] = {**data["constraint_keys"], "exclude": None}
    conv = parse_conventions(data, "test", default_conventions())
    assert written_constraints({"exclude": "英国以外"}, conv) == {"camp": "英国以外"}


def test_a_kind_is_written_at_the_levels_the_conventions_give_it() -> None:
    found = {"camp": "英国", "time": "1940年", "type": "驱逐舰"}
    conv = default_conventions()
    assert written_constraints(found, conv, "L2") == {"time": "1940年"}
    assert written_constraints(found, conv, "L3") == found
    assert written_constraints(found, conv) == found  # no level given: every kind
