"""One name per thing in a document: pronouns, declared aliases, short forms."""

from __future__ import annotations

from kgreason.data.provenance import Sentence
from kgreason.extract.canonical import canonicalise
from kgreason.extract.grounding import Grounded, Mention

S = Sentence("d", 0, "x", 0, 1)


def g(sub: str, rel: str, obj: str) -> Grounded:
    return Grounded(S, Mention(sub, 0, 1, "exact"), rel, Mention(obj, 0, 1, "exact"))


def spo(triples: list[Grounded]) -> list[tuple[str, str, str]]:
    return [(t.sub.name, t.relation, t.obj.name) for t in triples]


def test_declared_alias_stands_for_the_full_name_elsewhere_but_the_alias_triple_stays() -> None:
    out, renamings = canonicalise(
        [g("洛克希德·马丁公司", "简称", "洛马"), g("F-35", "研制单位", "洛马"), g("洛马", "总部", "贝塞斯达")]
    )
    assert spo(out) == [
        ("洛克希德·马丁公司", "简称", "洛马"),
        ("F-35", "研制单位", "洛克希德·马丁公司"),
        ("洛克希德·马丁公司", "总部", "贝塞斯达"),
    ]
    assert {(r.original, r.name, r.rule) for r in renamings} == {("洛马", "洛克希德·马丁公司", "alias")}


def test_short_form_goes_to_the_only_longer_name_with_a_head_noun() -> None:
    out, _ = canonicalise([g("捍卫者号驱逐舰", "舷号", "D36"), g("捍卫者号", "参加", "环太平洋演习")])
    assert spo(out)[1] == ("捍卫者号驱逐舰", "参加", "环太平洋演习")


def test_a_surname_goes_to_the_only_full_transliterated_name() -> None:
    out, _ = canonicalise([g("弗兰克·杰克·弗莱彻", "军衔", "少将"), g("弗莱彻", "指挥", "第17特混舰队")])
    assert spo(out)[1] == ("弗兰克·杰克·弗莱彻", "指挥", "第17特混舰队")
    two = [g("约翰·史密斯", "职务", "舰长"), g("彼得·史密斯", "职务", "司令"), g("史密斯", "指挥", "舰队")]
    assert spo(canonicalise(two)[0])[2][0] == "史密斯"  # two people share the surname: left alone


def test_model_names_are_not_short_forms_of_their_variants() -> None:
    out, renamings = canonicalise([g("F-35", "研制国家", "美国"), g("F-35A", "首飞时间", "2006年12月15日")])
    assert spo(out)[0][0] == "F-35" and not renamings


def test_pronoun_names_resolve_to_the_previous_topic_or_are_dropped() -> None:
    out, _ = canonicalise([g("该舰", "舷号", "D36"), g("捍卫者号驱逐舰", "舷号", "D36"), g("它", "参加", "演习")])
    assert spo(out) == [("捍卫者号驱逐舰", "舷号", "D36"), ("捍卫者号驱逐舰", "参加", "演习")]


def test_a_demonstrative_with_its_noun_is_a_pronoun_but_a_name_starting_so_is_not() -> None:
    out, _ = canonicalise(
        [
            g("M142火箭炮系统", "研制单位", "洛克希德·马丁公司"),
            g("该系统", "乘员", "3人"),
            g("美国陆军", "装备", "该系统"),
        ]
    )
    assert spo(out) == [
        ("M142火箭炮系统", "研制单位", "洛克希德·马丁公司"),
        ("M142火箭炮系统", "乘员", "3人"),
        ("美国陆军", "装备", "M142火箭炮系统"),
    ]
    from kgreason.extract.canonical import is_pronoun

    assert is_pronoun("本届演习") and is_pronoun("此战")
    assert not is_pronoun("该国际空间站计划") and not is_pronoun("应该")


def test_country_prefix_is_dropped_when_the_text_also_writes_the_name_alone() -> None:
    text = "该系列由美国洛克希德·马丁公司研制，洛克希德·马丁公司简称洛马。美国海军使用它。"
    out, renamings = canonicalise(
        [g("F-35", "研制单位", "美国洛克希德·马丁公司"), g("F-35", "使用方", "美国海军")], text
    )
    assert spo(out) == [("F-35", "研制单位", "洛克希德·马丁公司"), ("F-35", "使用方", "美国海军")]
    assert [r.rule for r in renamings] == ["country_prefix"]


def test_country_prefix_stays_when_the_rest_is_only_written_inside_other_names() -> None:
    # `空军` occurs without `美国` only inside `澳大利亚皇家空军` and after other countries: no thing called `空军`
    text = "除美国空军外，澳大利亚皇家空军和韩国空军也装备了F-35A。以色列空军使用F-35I。"
    triples = [g("美国空军", "装备", "F-35A"), g("韩国空军", "装备", "F-35A"), g("以色列空军", "使用", "F-35I")]
    out, renamings = canonicalise(triples, text)
    assert [t[0] for t in spo(out)] == ["美国空军", "韩国空军", "以色列空军"] and not renamings


def test_country_prefix_is_dropped_when_the_rest_is_a_name_of_its_own_mid_clause() -> None:
    text = "F-35由美国洛克希德·马丁公司研制，X-35由洛克希德·马丁公司研制。"
    triples = [g("F-35", "研制单位", "美国洛克希德·马丁公司"), g("X-35", "研制单位", "洛克希德·马丁公司")]
    out, _ = canonicalise(triples, text)
    assert [t[2] for t in spo(out)] == ["洛克希德·马丁公司", "洛克希德·马丁公司"]
    # the same text without the second triple: the rest follows `由`, not a clause start, and is no name of its own
    out, _ = canonicalise(triples[:1], text)
    assert spo(out)[0][2] == "美国洛克希德·马丁公司"


def test_relations_lose_a_copied_subject_or_pronoun_prefix() -> None:
    from kgreason.extract.canonical import relation_proper

    out, _ = canonicalise([g("F-35A", "该炮口径", "25毫米"), g("F-35A", "F-35A的首飞时间", "2006年12月15日")])
    assert [t[1] for t in spo(out)] == ["口径", "首飞时间"]
    assert relation_proper("its length", "Nimitz") == "length"
    # ordinary relations, and prefixes that would leave less than two characters, stay
    assert relation_proper("其他型号", "F-35") == "其他型号"
    assert relation_proper("该舰长", "辽宁舰") == "该舰长"
    assert relation_proper("首飞时间", "") == "首飞时间"
    assert relation_proper("F-35A", "F-35A") == "F-35A"


def test_a_type_designation_is_a_short_form_not_a_quantity() -> None:
    from kgreason.extract.values import value_type

    assert value_type("45型") is None and value_type("12式") is None and value_type("8500吨") == "数值"
    out, _ = canonicalise([g("45型驱逐舰", "类型", "驱逐舰"), g("45型", "满载排水量", "8500吨")])
    assert spo(out)[1] == ("45型驱逐舰", "满载排水量", "8500吨")


def test_a_relation_ending_in_another_takes_that_head() -> None:
    from kgreason.extract.canonical import relation_heads

    out, _ = canonicalise(
        [g("F-35A", "内油作战半径", "1093公里"), g("F-35", "中文别名", "闪电II"), g("F-35C", "作战半径", "1111公里")]
    )
    assert [t[1] for t in spo(out)] == ["作战半径", "别名", "作战半径"]
    # the head must be at least half the relation: `首次垂直着陆时间` does not become `时间`
    assert relation_heads(["首次垂直着陆时间", "时间"], ()) == {}
    assert relation_heads(["最大满载排水量"], ["满载排水量", "排水量"]) == {"最大满载排水量": "满载排水量"}
    assert relation_heads([], ()) == {}


def test_triples_with_a_name_in_the_relation_slot_are_dropped() -> None:
    from kgreason.extract.canonical import without_shifted_slots

    triples = [
        g("F-35I", "绰号", "阿迪尔"),
        g("以色列空军", "F-35I", "F-35A"),  # a subject of the document as the relation
        g("美国方面", "情报部门", "情报部门"),  # the relation is the object
        g("企业号", "航空母舰", "绰号"),  # a relation of the document as the object
        g("企业号", "服役时间", "1938年5月12日"),
    ]
    assert spo(without_shifted_slots(triples)) == [
        ("F-35I", "绰号", "阿迪尔"),
        ("企业号", "服役时间", "1938年5月12日"),
    ]


def test_a_relative_clause_leaves_the_name_and_states_what_the_modifier_said() -> None:
    out, renamings = canonicalise(
        [
            g("普惠公司", "类型", "公司"),
            g("F-35", "动力装置", "普惠公司研制的F135涡扇发动机"),
            g("海波站", "破译", "日本海军使用的JN-25密码"),
            g("美国国防部", "撤销", "撤销对中国海军的邀请"),  # an event: its head `邀请` is no name of its own
        ]
    )
    assert spo(out) == [
        ("普惠公司", "类型", "公司"),
        ("普惠公司", "研制", "F135涡扇发动机"),
        ("F-35", "动力装置", "F135涡扇发动机"),
        ("海波站", "破译", "JN-25密码"),  # `日本海军` is no name of the document: nothing is added
        ("美国国防部", "撤销", "撤销对中国海军的邀请"),
    ]
    assert {r.rule for r in renamings} == {"relative_clause"}


def in_sentence(index: int, text: str, sub: str, rel: str, obj: str) -> Grounded:
    s = Sentence("d", index, text, 0, len(text))
    at_sub, at_obj = text.find(sub), text.find(obj)
    sub_mention = Mention(sub, at_sub, at_sub + len(sub), "exact")
    return Grounded(s, sub_mention, rel, Mention(obj, at_obj, at_obj + len(obj), "exact"))


def test_a_sentence_opening_with_a_pronoun_is_about_the_earlier_topic_not_a_name_in_its_predicate() -> None:
    first = "打击群的核心舰艇是长风号航空母舰。"
    second = "该舰舷号R08，是长风级航空母舰的首舰，于2017年12月7日正式服役。"
    out, _ = canonicalise(
        [
            in_sentence(0, first, "长风号航空母舰", "类型", "航空母舰"),
            in_sentence(1, second, "长风级航空母舰", "舷号", "R08"),
            in_sentence(1, second, "长风级航空母舰", "服役时间", "2017年12月7日"),
        ]
    )
    assert [t[0] for t in spo(out)] == ["长风号航空母舰"] * 3
    assert out[1].sub.how == "pronoun" and second[out[1].sub.start : out[1].sub.end] == "该舰"


def test_a_clause_with_its_own_subject_or_a_possessive_opening_keeps_the_model_s_subject() -> None:
    first = "F-35是一型战斗机。"
    own = "该系列由美国洛克希德·马丁公司研制，洛克希德·马丁公司简称“洛马”。"
    possessive = "这次演练的靶船是拉辛号坦克登陆舰。"
    setting = "此次部署中，拉辛号坦克登陆舰被击沉。"
    out, _ = canonicalise(
        [
            in_sentence(0, first, "F-35", "类型", "战斗机"),
            in_sentence(1, own, "美国洛克希德·马丁公司", "简称", "洛马"),
            in_sentence(2, possessive, "拉辛号坦克登陆舰", "类型", "坦克登陆舰"),
            in_sentence(3, setting, "拉辛号坦克登陆舰", "结局", "击沉"),
        ]
    )
    assert [t[0] for t in spo(out)][1:] == ["美国洛克希德·马丁公司", "拉辛号坦克登陆舰", "拉辛号坦克登陆舰"]
