"""Question words that say how many triples a relevance-prompted question needs (data only; `mecha.need` reads
them). General words shared with the reasoner (comparatives, superlatives, "same") come from `reason.lexicon`, so
each word has one home; what is listed here is what that lexicon does not say.
"""

from __future__ import annotations

from kgreason.reason.lexicon import BOOL_WORDS, COMPARATIVE_WORDS, ORDER_WORDS, SAME_WORDS

# Several asked properties or a set of values: `A的激活源和供料方式分别是什么`, `X的特性有哪些`, `化学成分包括哪些`.
SEVERAL_WORDS: tuple[str, ...] = ("分别", "各自", "各是", "哪些", "包括", "包含", "都有", "有什么", "哪几")
# Words joining two asked properties (`抗拉强度和屈服强度`); they count only between two property words, not next
# to a question entity (`A和B哪个更高` names two entities, one property).
CONJUNCTIONS: tuple[str, ...] = ("以及", "还有", "和", "与", "及", "、", "并且")
# Question words; two of them in one question ask two things (`热处理方式是什么，它的齿面硬度值是多少`).
ASK_WORDS: tuple[str, ...] = ("什么", "多少", "哪种", "哪个", "哪一", "哪些", "如何", "怎样", "几")
# Words asking whether two values agree (`A与B的工艺类型是否相同`), beside the lexicon's `SAME_WORDS`.
SAME_QUESTION_WORDS: tuple[str, ...] = (*SAME_WORDS, "差异", "区别", "不同", "共同", "一致")
# Words asking which of several (a comparison or a superlative over the entities or over one entity's conditions).
WHICH_WORDS: tuple[str, ...] = ("哪种", "哪个", "哪一", "哪组", "哪类", "哪台", "哪款", "谁")
# Comparative and superlative words -> the winner's direction ("max" / "min"), quantities only.
DIRECTION_WORDS: dict[str, str] = {
    word: direction
    for table in (ORDER_WORDS, COMPARATIVE_WORDS)
    for word, (aspect, direction) in table.items()
    if aspect == "quantity" and len(word) >= 2  # one-character words (`高`, `大`) sit inside property names
}
YES_NO_WORDS: tuple[str, ...] = BOOL_WORDS
# A relation's condition in brackets: `布氏硬度(铸造方法: S)` is the property `布氏硬度` under one condition.
QUALIFIER_OPENERS: tuple[str, ...] = ("(", "（")
