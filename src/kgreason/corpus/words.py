"""The language words of asking and conversing (the reasoner's own words live in `kgreason.reason.lexicon`).

Nothing here names an entity: account questions (`经过是什么`), referring words (pronouns, demonstratives with the
kind word that follows them), follow-up frames (`后来呢`, `X呢`) and ordinals.
"""

from __future__ import annotations

# A question asking how an event went: answered by an ordered account of the event's triples.
ACCOUNT_WORDS: tuple[str, ...] = (
    "经过",
    "过程",
    "来龙去脉",
    "时间线",
    "怎么发生",
    "如何发生",
    "发生了什么",
    "怎么回事",
    "始末",
    "进程",
    "后来怎么样",
    "后来怎样",
)

# Pronouns -> the kind of entity they may stand for ("person", "thing", "any"); longest first when matching.
PRONOUNS: dict[str, str] = {
    "它们": "thing",
    "他们": "any",
    "她们": "any",
    "它": "thing",
    "他": "person",
    "她": "any",  # Chinese writes ships as 她 as well as women
    "其": "any",
}

# Words that contain a pronoun or demonstrative but refer to nothing (`其中`, `应该`, `那么`).
NON_REFERRING: tuple[str, ...] = (
    "其中",
    "其他",
    "其它",
    "其余",
    "其实",
    "尤其",
    "极其",
    "应该",
    "那么",
    "这样",
    "那样",
    "这里",
    "那里",
    "这时",
    "那时",
    "这一年",
    "那一年",
)

# Demonstratives; the kind word after them (`该舰`, `这些导弹`, `那次演习`) narrows the choice.
DEMONSTRATIVES: tuple[str, ...] = (
    *("这些", "那些", "这个", "那个", "这次", "那次", "这位", "那位"),
    *("该", "此", "这", "那"),
)
# Plural referents: a demonstrative or pronoun with these refers to the answers of the previous turn when several.
PLURAL_MARKERS: tuple[str, ...] = ("这些", "那些", "它们", "他们", "她们")
# Measure words a demonstrative may carry before the kind word proper (`这艘`, `该型`, `这一事件`).
DEMONSTRATIVE_MEASURES = "一艘架位名次场型款个支件枚门级"
# A demonstrative with a class measure (`这型驱逐舰`, `该级航母`) refers to a class, whose name carries a class marker.
CLASS_MEASURES = "型级款"
CLASS_MARKERS: tuple[str, ...] = ("型", "级")

# Characters that end the kind word after a demonstrative (particles, question words): `该舰的` -> `舰`.
KIND_STOP_CHARS = "的是在于和与被把了呢吗有何哪谁多几什么怎如为"

# Elliptical follow-ups: the whole turn is one of these (after stripping punctuation).
CONTINUE_WORDS: tuple[str, ...] = ("后来呢", "然后呢", "接下来呢", "之后呢", "后来怎么样了", "后来怎样了", "结果呢")
FOLLOW_UP_SUFFIXES: tuple[str, ...] = ("呢", "又如何", "又怎样", "怎么样")
FOLLOW_UP_PREFIXES: tuple[str, ...] = ("那", "而")  # `那F-35B呢？`
# How "后来呢" is asked of the topic when the last answer was an account (continue the timeline).
CONTINUE_QUESTION = "{entity}后来怎么样了"

# Ordinals: a follow-up `第二艘呢` replaces the ordinal of the previous question (`首舰` -> `二号舰`); `第N` and `N号`
# with a Chinese numeral are ordinals too.
ORDINAL_FIRST: tuple[str, ...] = ("首", "头")  # `首舰`, `头一艘`: the first
# How an ordinal is written in the previous question's style: `首舰` -> `二号舰`, `第一艘` -> `第二艘`.
CHINESE_NUMERALS = "一二三四五六七八九十"
ORDINAL_STYLES: dict[str, str] = {"首": "{n}号", "头": "{n}号", "第": "第{n}", "号": "{n}号"}
# Kind characters an ordinal in the previous question must carry (besides measure words): `首舰` is an ordinal,
# `首飞` is not.
ORDINAL_KINDS = "舰机艇船弹车型"

# Shown when nothing in the corpus matches the question.
NOT_FOUND = "在语料中未找到与问题相关的实体"
NO_ANSWER = "在语料的知识图谱中未找到答案"
CLOSEST_PREFIX = "最接近的名称"
