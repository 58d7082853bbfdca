"""Small, general Chinese word lists the question analysis and the relevance score use.

Nothing here names an entity: these are relation words of military-equipment texts in general (who commands,
develops, belongs to, is deployed where, entered service when), question words, and comparison words.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from kgreason.kg.quantities import ANY_COUNTER

# Words of giving a name (`在正式定名之前`: before it was named, so its former name is asked).
NAMING_EVENT_WORDS: tuple[str, ...] = ("定名", "命名", "更名", "改名", "改称", "易名")

# Groups of words that name the same kind of relation. A relation name containing one of a group's words also
# matches the question's use of any other word of that group (`指挥官` ~ `统帅`, `研制单位` ~ `研发`).
RELATION_SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(g)
    for g in (
        {"指挥", "指挥官", "统帅", "司令", "司令官", "率领", "领导", "统率", "指挥员", "主帅", "带领", "执掌"},
        {"研制", "研发", "开发", "设计", "制造", "生产", "制造商", "研制方", "研发方", "承包商", "造", "出自"},
        {"隶属", "所属", "属于", "归属", "隶属于", "编入", "建制", "上级", "管辖"},
        {"下辖", "辖有", "编有", "下属", "统辖", "包括", "包含", "编成", "组成", "麾下"},
        {"部署", "驻扎", "驻地", "驻守", "基地", "部署地", "母港", "驻泊"},
        {"服役", "入役", "列装", "交付", "装备", "入列", "服役时间", "入役时间"},
        {"退役", "除役", "退出现役"},
        {"首飞", "首次飞行", "试飞"},
        {"下水", "下水时间"},
        {"参加", "参与", "参战", "投入", "参演"},
        {"首次", "第一次", "首个", "首度"},
        {"发生", "爆发", "开始", "发起", "打响", "开幕", "启动", "揭幕"},
        {"结束", "终止", "停战", "闭幕", "落幕"},
        {"位于", "地点", "所在地", "位置", "坐落", "地址"},
        {"国籍", "国家", "所属国", "产国", "生产国", "来自"},
        {"阵营", "一方", "同盟", "联盟"},
        {"搭载", "装载", "携带", "配备", "装备有", "载有", "挂载", "舰载"},
        {"武器", "武备", "火力", "武装"},
        {"射程", "作战半径", "航程", "打击距离"},
        {"速度", "航速", "时速", "飞行速度", "最大速度"},
        {"排水量", "吨位", "满载排水量"},
        {"型号", "型别", "类型", "种类", "类别", "级别", "舰级"},
        {"出生", "生于", "诞生"},
        {"死亡", "逝世", "去世", "阵亡"},
        {"成立", "组建", "建立", "创建", "成军"},
        {"命名", "名称", "名字", "得名"},
        {"击沉", "击毁", "摧毁", "击落"},
        {"攻击", "袭击", "空袭", "进攻", "攻打", "突袭", "打击"},
        {"取消", "撕毁", "废除", "废止", "撤销", "中止"},
        {"执行", "实施", "承担", "负责"},
        {"使用", "运用", "采用", "动用", "用"},
        {"继任", "接替", "继任者", "接任", "接手", "接掌"},
        {"称号", "封号", "荣誉称号", "头衔", "名号", "荣誉"},
        {"任务", "使命"},
        {
            *("别名", "又称", "别称", "简称", "绰号", "代号", "称作", "称为", "叫", "俗称", "外号", "昵称", "名称"),
            *("被称", "称呼", "称谓"),
        },
        # a name given later, and the one it replaced (`后来改名叫什么`, `原先定下的舰名`, `以前叫什么`)
        {"更名", "改名", "改称", "易名", "改叫"},
        {
            "曾用名",
            "旧称",
            "原名",
            "原定名称",
            "旧名",
            "原称",
            "以前叫",
            "之前叫",
            "原来叫",
            *(w + "叫" for w in ("最初", "起初", "当初", "初期", "早期", "起先", "一开始")),
            *(w + "之前" for w in NAMING_EVENT_WORDS),
        },
    )
)

# The interrogatives themselves: a name the question spells never spans one
# (`歼-20的国产发动机是在哪次航展上首次公开展示` is no fuzzy spelling of the event `歼-20国产发动机首次公开展示`).
INTERROGATIVES: tuple[str, ...] = ("哪", "什么", "谁", "多少", "几", "何")
WHO = "谁"  # the person question word: the verb phrase after it names the relation asked (`由谁担任总指挥`)
HOW_MANY_WORDS = ("几", "多少")  # the question words of a count
# the light words between a name and the question word its predicate starts with (`X由谁指挥`, `X是哪一年`; not
# `在`: `X在哪次作战中…` asks what a phrase describes)
SUBJECT_LINKS = ("由", "是", "被", "为")
WHICH = "哪"  # the which-word: what it asks is the answer, whatever number words describe it

# Particles a user drops when rewording a descriptive name (`击沉贝尔格拉诺将军号` for `…将军号被击沉事件`).
NAME_PARTICLES = "被的之了"
POSSESSIVE = "的"  # `A的B`: A modifies B, the question is about B

# Question words and function words: they say what is asked, not which relation (removed before relation
# matching). One-character words are only those that rarely sit inside a name or term (`中` is in `中队`).
QUESTION_WORDS: tuple[str, ...] = (
    "是什么",
    "是哪些",
    "是哪个",
    "是哪位",
    "是谁",
    "有哪些",
    "有多少",
    "是多少",
    "分别是",
    "哪一个",
    "哪一方",
    "哪一位",
    "哪一年",
    "哪一天",
    "什么时候",
    "什么时间",
    "何时",
    "何地",
    "哪里",
    "哪儿",
    "哪个",
    "哪些",
    "哪位",
    "哪名",
    "哪艘",
    "哪架",
    "哪款",
    "哪型",
    "哪种",
    "哪支",
    "哪国",
    "哪年",
    "多少",
    "几个",
    "几艘",
    "几架",
    "几种",
    "几次",
    "什么",
    "是否",
    "是不是",
    "有没有",
    "谁",
    "哪",
    "吗",
    "呢",
    "请问",
    "的",
    "了",
    "是",
    "在",
    "和",
    "与",
    "及",
    "且",
    "并",
    "被",
    "由",
)

# Words that introduce a side / alliance / owner constraint right before an entity.
# Words after a side's name that mark it as the side (`同盟国一方的舰艇`, `轴心国阵营`).
CAMP_SUFFIXES: tuple[str, ...] = ("一方", "阵营")
# Relations named for a side begin with its character and this word (`日方参战兵力`, `美方指挥官`); a question names
# the side by its character and one of SIDE_NAME_SUFFIXES (`日军`, `美方`).
SIDE_WORD = "方"
# Which of the sides (`交战双方哪一方的伤亡更多`): a superlative over the sides' values
SIDE_QUESTION_WORDS: tuple[str, ...] = ("哪一方", "哪方")
CAMP_MARKERS: tuple[str, ...] = (
    "隶属于",
    "隶属",
    "属于",
    "所属",
    "来自",
    "归属",
    "阵营",
    "一方",
    "国籍为",
    "国籍是",
    "效力于",
    "加入",
)
# Words that introduce a place constraint right before a place.
PLACE_MARKERS: tuple[str, ...] = (
    "部署在",
    "部署于",
    "部署到",
    "驻扎在",
    "驻扎于",
    "位于",
    "在",
    "于",
    "到",
    "前往",
    "抵达",
    "停靠",
    "进驻",
)

# Words that compare ages (`谁更年轻`, `最年长`): what is compared is a date of birth (BIRTH_WORD); the youngest was
# born last.
_AGE_ADJECTIVES: dict[str, tuple[str, str]] = {"年轻": ("time", "max"), "年长": ("time", "min")}
# Order / superlative words -> (aspect, direction). aspect "time" compares dates; "quantity" compares numbers.
ORDER_WORDS: dict[str, tuple[str, str]] = {
    "最早": ("time", "min"),
    "最先": ("time", "min"),
    "首次": ("time", "min"),
    "第一次": ("time", "min"),
    "首先": ("time", "min"),
    "第一个": ("time", "min"),
    "首个": ("time", "min"),
    "最晚": ("time", "max"),
    "最迟": ("time", "max"),
    "最后": ("time", "max"),
    "最近": ("time", "max"),
    "最新": ("time", "max"),
    "最大": ("quantity", "max"),
    "最多": ("quantity", "max"),
    "最高": ("quantity", "max"),
    "最远": ("quantity", "max"),
    "最快": ("quantity", "max"),
    "最重": ("quantity", "max"),
    "最长": ("quantity", "max"),
    "最强": ("quantity", "max"),
    "最小": ("quantity", "min"),
    "最少": ("quantity", "min"),
    "最低": ("quantity", "min"),
    "最近距离": ("quantity", "min"),
    "最慢": ("quantity", "min"),
    "最轻": ("quantity", "min"),
    "最短": ("quantity", "min"),
    **{"最" + word: v for word, v in _AGE_ADJECTIVES.items()},
}
AGE_WORDS: tuple[str, ...] = tuple(_AGE_ADJECTIVES)
# Words that make a length superlative one of time (`持续的时间最长`, `历时最短`): the members' spans compared, from
# their start and end dates when the KG states no duration
DURATION_ORDER_WORDS: tuple[str, ...] = ("持续", "历时", "时长", "时间", "多久")
BIRTH_WORD = "出生"
# Comparative words of which-of-two questions (`A和B哪个更早`) -> (aspect, direction of the winner): each adjective
# alone and after the degree adverbs 更 / 较 (`远`, `更远`, `较远`), plus 先 / 后.
_COMPARATIVE_ADJECTIVES: dict[str, tuple[str, str]] = {
    "早": ("time", "min"),
    "晚": ("time", "max"),
    "大": ("quantity", "max"),
    "多": ("quantity", "max"),  # never inside 多少 (analysis skips it there)
    "高": ("quantity", "max"),
    "远": ("quantity", "max"),
    "快": ("quantity", "max"),
    "重": ("quantity", "max"),
    "长": ("quantity", "max"),
    "强": ("quantity", "max"),
    "小": ("quantity", "min"),
    "少": ("quantity", "min"),
    "低": ("quantity", "min"),
    "近": ("quantity", "min"),
    "慢": ("quantity", "min"),
    "轻": ("quantity", "min"),
    "短": ("quantity", "min"),
}
COMPARATIVE_WORDS: dict[str, tuple[str, str]] = {
    "先": ("time", "min"),
    "后": ("time", "max"),
    **{adverb + word: v for word, v in _AGE_ADJECTIVES.items() for adverb in ("", "更", "较")},
    **{adverb + word: v for word, v in _COMPARATIVE_ADJECTIVES.items() for adverb in ("更", "较")},
    **{word: v for word, v in _COMPARATIVE_ADJECTIVES.items() if word != "强"},
}

QUESTION_PARTICLES = "吗呢吧"  # sentence-final particles of a question
ASPECT_PARTICLE = "了"  # a completed action (`超过了1300马力`): between a comparison word and its number
# What may follow a bare one-character comparative and end its phrase (`谁的航程长一些`, `射程远的`, `大得多`, `远吗`);
# any other character continues a word (`司令长官`, `远征军`)
PHRASE_END_CHARACTERS = "的一些得点了" + QUESTION_PARTICLES
NOUN_ASKING_WORD = "什么"  # the question word a noun follows (`什么别称`); after `哪一艘` a predicate follows
# Words between two compared names of a yes/no comparison (`A的射程比B远吗`, `A是否较B更早服役`).
THAN_WORDS: tuple[str, ...] = ("比", "较")
# Adverbs between what is compared with and the comparative (`比25公里还远`, `比B更早`), longest first
DEGREE_ADVERBS_AFTER_THAN: tuple[str, ...] = ("还要", "更加", "还", "更", "要")
# `和B比起来，A的…是不是更少` / `与B相比，A…`: the name compared with opens the question, between these words
COMPARED_WITH_OPENERS: tuple[str, ...] = ("和", "与", "跟", "同")
COMPARED_WITH_CLOSERS: tuple[str, ...] = ("比起来", "相比较", "相比", "比较")

# Numeric comparison words -> the derived relation that must hold between the KG value and the threshold.
NUMERIC_COMPARATORS: dict[str, str] = {
    "超过": "数值大于",
    "大于": "数值大于",
    "高于": "数值大于",
    "多于": "数值大于",
    "超出": "数值大于",
    "突破": "数值大于",
    "远于": "数值大于",
    "快于": "数值大于",
    "不少于": "数值不小于",
    "不低于": "数值不小于",
    "不小于": "数值不小于",
    "至少": "数值不小于",
    "达到": "数值不小于",
    "达": "数值不小于",
    "以上": "数值不小于",
    "不超过": "数值不大于",
    "不高于": "数值不大于",
    "不大于": "数值不大于",
    "不多于": "数值不大于",
    "至多": "数值不大于",
    "以下": "数值不大于",
    "以内": "数值不大于",
    "小于": "数值小于",
    "低于": "数值小于",
    "少于": "数值小于",
    "不到": "数值小于",
    "不足": "数值小于",
    "等于": "数值等于",
    "为": "数值等于",
}

# Time-window words after a date or period (the constraint value keeps them: `2010年以后`, `二战期间`).
# (`X或之后`, `X及以前`: the bound's own period counts too)
INCLUSIVE_AFTER_WORDS: tuple[str, ...] = ("或之后", "或以后", "及之后", "及以后", "或此后", "或更晚", "或更迟")
INCLUSIVE_BEFORE_WORDS: tuple[str, ...] = ("或之前", "或以前", "及之前", "及以前", "或更早")
# Adverbs between a time window and the verb it dates (`2019年以前就签约`, `2021年内第一次与…签约`)
VERB_ADVERBS: tuple[str, ...] = ("就", "已", "已经", "才", "曾", "便", "都", "首次", "第一次", "正式", "又", "再")
TIME_AFTER_WORDS: tuple[str, ...] = ("以后", "之后", "以来", "后", "起", "开始", *INCLUSIVE_AFTER_WORDS)
TIME_BEFORE_WORDS: tuple[str, ...] = ("以前", "之前", "前", "为止", *INCLUSIVE_BEFORE_WORDS)
SPAN_CLOSING_WORDS: tuple[str, ...] = ("期间", "之间", "间")  # after a span's end (`1854年10月至12月间`): the span's
FROM_WORDS: tuple[str, ...] = ("从", "自")  # before the first end of a span said with words between (`从X…到Y`)
# Words that make an after-bound count from the bound's start (`进入21世纪以后`, `2010年以来`, `自1990年起`): a date
# inside the bound holds too (said `处于时期内`)
TIME_FROM_START_BEFORE: tuple[str, ...] = ("进入", "自从", *FROM_WORDS)
TIME_FROM_START_AFTER: tuple[str, ...] = ("以来", "起", "开始")
START_VERBS: tuple[str, ...] = ("开始",)  # … which is also the verb of beginning (`1980年开始交付`)
# Words that begin with the one-character bounds `后`/`前` and are no bound after a name (`X后来改名`: later).
NOT_BOUND_WORDS: tuple[str, ...] = ("后来", "后续", "后勤", "后继", "前往", "前身", "前线", "前任", "前沿")
TIME_UNIT_CHARS = "年月日天周"  # after a number, a duration or a date (`超过10年`), not a bare number
# The same comparisons said before the bound (`是否早于X的首飞`), with the derived relation each asks.
TIME_COMPARISON_PREPOSITIONS: dict[str, str] = {
    "早于": "早于",
    "先于": "早于",
    "晚于": "晚于",
    "迟于": "晚于",
    "后于": "晚于",
}
# `X时，Y是否已经…`: the asked event had happened by X's date; `时` / `的时候` close the clause naming X's event.
ALREADY_WORDS: tuple[str, ...] = ("已经", "已", "了没有")  # `V了没有`: has it happened yet
WHEN_WORDS: tuple[str, ...] = ("的时候", "时")
# Words after an event that bound a time to its very day (`X解除的当天`, `与X同一天`): the relation they write.
SAME_DAY_WORDS: tuple[str, ...] = ("同一天", "那一天", "这一天", "当天", "当日", "同日")
SAME_DAY_RELATION = "同时"
# The day or year after (or before) another node's dated event (`孙中山逝世的第二天`, `宣布列装后的第二年`): the
# offset and its unit
RELATIVE_DAY_WORDS: dict[str, tuple[int, Literal["day", "year"]]] = {
    "第二天": (1, "day"),
    "次日": (1, "day"),
    "翌日": (1, "day"),
    "前一天": (-1, "day"),
    "第二年": (1, "year"),
    "次年": (1, "year"),
    "翌年": (1, "year"),
    "前一年": (-1, "year"),
}
# Copulas between a question word and the noun it asks (`哪些是防空导弹`).
COPULAS: tuple[str, ...] = ("是", "为")
# Degree adverbs that open a comparison (`首飞时间最晚`, `射程更远`, `较早`).
DEGREE_MARKERS: tuple[str, ...] = ("最", "更", "较")
# Questions that ask for a category itself (`哪一类导弹` -> the category, not a member of it).
CATEGORY_QUESTION_PATTERNS: tuple[str, ...] = (
    r"哪一?类",
    r"什么类",
    r"何类",
    r"哪种类",
    r"哪一?级",
    r"什么级",
)
# A one-character noun then 种 after a question word (`什么舰种`; not `哪一种`, a measure word): a category question
# when the KG states categories whose names end in that noun (`类型 巡洋舰`); `哪个军种` asks a service (an
# organisation) where the KG has no such categories.
SORT_OF_NOUN_PATTERN = r"(?:什么|何|哪一?个?)(?![一个些几])(?P<noun>[\u4e00-\u9fff])种"
CLASSIFYING_COPULA = "属于"  # `X属于哪一级舰`: before a kind question it classifies X, naming no relation
TIME_WITHIN_WORDS: tuple[str, ...] = (
    *("期间", "时期", "年间", "内", "中", "里", "时", "当年", "间"),
    *("这一天", "那一天", "当天", "这天", "那天"),  # after a day: on it (`1937年10月16日这一天，…`)
)

# Words of the questions' answer forms.
BOOL_WORDS: tuple[str, ...] = ("是否", "是不是", "有没有", "能否", "可否", "有无", "是否曾")
# a verb, 不/没, the verb again: a yes/no question of any verb (`算不算`, `属不属于`, `参没参加`)
A_NOT_A = r"([\u4e00-\u9fff])[不没]\1"
# a question that ends in a negation asks yes or no (`日内瓦会议开幕了没有`, `成功与否`), when no question word asks
# something else
YES_NO_ENDING = r"(?:没有|与否)$"
# Pronouns that open a sentence asking about what the previous one picked out (`哪一艘先下水？它是在哪座城市…`).
RESTART_PRONOUNS: tuple[str, ...] = ("它们", "它", "其", "该")
# Requests wrapped round a question (`你知道…吗`, `能否告诉我…`): they ask the question inside, not yes or no.
REQUEST_FRAMES: tuple[str, ...] = (
    "你知道",
    "您知道",
    "请问你知道",
    "能告诉我",
    "能否告诉我",
    "可以告诉我",
    "可否告诉我",
    "请告诉我",
    "告诉我",
    "我想知道",
    "想知道",
)
# Words that quantify a whole group (`各型别中`, `所有舰艇`): a set question, unless a superlative picks one member.
GROUP_QUANTIFIERS: tuple[str, ...] = ("所有", "全部", "各")
# ask for several, whatever else (`哪两个机场`: a number after 哪 asks that many)
SET_QUESTION_WORDS: tuple[str, ...] = ("哪些", "有哪些", "都有", "分别", "哪几", "哪两", "哪三", "哪四", "哪五")
SET_WORDS: tuple[str, ...] = (*SET_QUESTION_WORDS, *GROUP_QUANTIFIERS)
# Words of a relation name and the word that names the same link read the other way (`055型 前序型号 052D型`:
# 052D型's 后继型号 is 055型): a reverse hop is named by the relation name with its word swapped.
CONVERSE_WORDS: tuple[tuple[str, str], ...] = (
    ("前序", "后继"),
    ("前序", "后续"),
    ("前身", "后继"),
    ("简称", "全称"),
    ("缩写", "全称"),
    ("上级", "下级"),
)
# Measure words (classifiers) after 几 / 多少 / 哪一 / 那一: `几艘`, `多少名`, `哪一型`, `那一次`.
MEASURE_WORDS = "个艘架种次支位名型款辆枚项场门座类处家台套发部条批届级起片颗根张篇挺具轮波层段所份组笔任"
# Numerals that count before a measure word (`三架原型机`, `两艘`, `几个`).
COUNT_NUMERALS = "两二三四五六七八九十几"
# an ordinal word with its measure word (`第一次`, `第二艘`): a number said as a word, never the start of a name
# (`第一次世界大战`); a bare `第12` may be one (`第12、第13兵团`)
ORDINAL_WORD = rf"第[一{COUNT_NUMERALS}百零〇\d]+[{MEASURE_WORDS}]"
PERSON_COUNTERS = "人名位"  # the counters of people (`多少人`, `几名`, `几位`): they count no ships or events
PERSON_NOUN = "人"  # … and the noun after a counter of anything that makes it count people (`几个人`)
GENERIC_MEASURE_WORDS = ANY_COUNTER  # counts anything (`几个中队`, `几个国家`), unlike `艘`, `架`, `届`
EVENT_MEASURE_WORDS = "次场起届"  # the measure words that count events (`哪一次`, `哪一场`)
# the measure words that ask for a kind (`哪一型`, `哪一级`), not one thing (`哪一艘`)
KIND_MEASURE_WORDS = "种型款类级"
# Nouns that ask for a sort of the thing named before `是` (`主炮是什么型号`: a 主炮's model name is asked)
SORT_NOUNS: tuple[str, ...] = ("型号", "型别", "类型", "种类")
# One-character heads of nouns that name the same kind of thing (`哪些船` asks for a `补给舰` too).
SAME_KIND_HEADS: tuple[str, ...] = ("船舰艇",)
THING_MEASURE_WORDS = "艘架辆枚门"  # the measure words that count vessels, aircraft, vehicles, munitions, guns
# … and the heads of the names or KG types of what each counts (`哪一艘` is a ship, not a launcher it carries)
COUNTER_HEADS: dict[str, tuple[str, ...]] = {
    "艘": ("舰", "艇", "船", "号"),
    "架": ("机", "号"),
    "辆": ("车",),
    "枚": ("弹",),
    "门": ("炮",),
}
THING_TYPE_HINTS = ("装备", "武器", "舰", "艇", "飞机", "车", "导弹")  # KG node types of such things
# What a question asks when it asks only the name of the thing it picked out (`射程较近的那种叫什么`): the verb
# before the question word.
NAMING_VERBS: tuple[str, ...] = ("叫做", "叫", "名叫", "称为", "名字是", "名称是", "是")
# The verbs of `…叫什么`: a name is asked (not `是什么`, which asks anything).
NAME_ASKING_VERBS: tuple[str, ...] = ("叫做", "叫", "名叫", "称为", "称作")
# Demonstratives before a measure word (`那次阅兵`, `这一艘`): the question points with them.
DEMONSTRATIVES = "那这"
# Demonstratives and measure words that point at the document's own thing of a kind (`这场海战`, `该型坦克`); `该`
# and `此` only with the measure word (they also end words: `应该`, `因此`)
TOPIC_DEMONSTRATIVE = "这"
TOPIC_MEASURED_DEMONSTRATIVES = "该此"
TOPIC_MEASURE_WORDS = "场次型款"
# Words that begin what is asked of a thing described by `…的那艘X` without a comma (`…的那艘英国军舰属于什么舰种`).
DESCRIBED_REST_STARTS: tuple[str, ...] = ("是", "为", "属于", "隶属于", "由")
# ... and verbs that begin it and ask something themselves (`…的那场战役发生在哪一天`)
DESCRIBED_REST_VERBS: tuple[str, ...] = ("发生",)
# Endings of a `…的Y，` clause that make it a time or a group rather than one thing to go on about (`X的时候，…`).
NOT_A_THING_ENDINGS: tuple[str, ...] = (
    "时候",
    "时",
    "期间",
    "之后",
    "以后",
    "之前",
    "以前",
    "后",
    "前",
    "中",
    "里",
    "以外",
    "之外",
)
# Function characters that end a noun phrase (`“飞鱼”导弹击中的…`: the noun after a quoted name stops at `的`).
PHRASE_END_CHARS = "的是在了和与及或"
COUNT_PATTERNS: tuple[str, ...] = (
    # `哪几种` asks which ones and `那几架`, `这几艘` point at some, not how many; `几人` counts people like `多少人`
    rf"(?<![哪那这])几[{MEASURE_WORDS}人]",
    rf"多少[{MEASURE_WORDS}人]",
    r"数量",
    r"总数",
    r"共有多少",
)
TIME_QUESTION_PATTERNS: tuple[str, ...] = (
    r"什么时候",
    r"什么时间",
    r"何时",
    r"哪一?年",
    r"哪一?天",
    r"哪一?月",
    r"何年",
    r"(?:时间|日期|年份)(?:是|为)?(?:什么|何|多少|哪)",
    # an elliptical question ending on the noun (`…访问横须贺的时间是？`), not a duration (`多长时间`)
    r"(?<!多长)(?<!多少)(?<!长)(?:时间|日期|年份)(?:是|为)?$",
    r"(?:于|在)何(?![处地方])",  # `于何时`, `在何年`; not `位于何处` (a place)
    r"什么日期",
    # the hour or the day (`在几点失守`, `几时几分`, `几月几日`); not `几点意见` (a count of points)
    r"(?:在|于|是|约)几点|几点钟|几时几分|几月几[日号]",
)
PLACE_QUESTION_PATTERNS: tuple[str, ...] = (
    r"哪里",
    r"哪儿",
    r"何地",
    r"何处",
    r"什么地方",
    r"哪一带",  # `在哪一带被全歼`: which area
    rf"哪一?[{MEASURE_WORDS}]?(?:地方|城市|港口|基地|地区|海域|省)",
    r"(?:地点|位置|地址)(?:是|为)?(?:什么|何|哪)",
)
NUMBER_QUESTION_PATTERNS: tuple[str, ...] = (
    rf"多少(?![{MEASURE_WORDS}人])",
    r"多大",
    r"多高",
    r"多远",
    r"多长",
    r"多久",  # how long: a duration (HOW_LONG_PATTERNS)
    r"多重",
    r"多快",
    r"多深",
    r"多宽",
    r"多厚",
    r"多粗",
    r"几节",
    r"几马赫",
    r"几吨",
    r"几公里",
)
# How long something lasted or can last (`飞多久`, `持续了多长时间`): a duration is asked, in any unit of time.
HOW_LONG_PATTERNS: tuple[str, ...] = (r"多久", r"多长(?:的)?时间", r"多少时间")
DURATION_UNIT = "天"  # a unit of that dimension, for comparing dimensions
# How far, high, heavy, fast… (`能打多远`, `飞多高`): a unit of the dimension each asks (`多长`, `多大` say none surely:
# a length or a duration, an area or a displacement)
HOW_ADJECTIVE_UNITS: dict[str, str] = {
    "多远": "千米",
    "多高": "米",
    "多深": "米",
    "多宽": "米",
    "多厚": "毫米",
    "多粗": "毫米",
    "多重": "吨",
    "多快": "千米/小时",
}
# … and the words a relation naming that attribute has (`多高` -> `实用升限`, `机高`; `多远` -> `射程`, `航程`): of
# several values of the dimension, the one such a relation states is asked (not the 机长 for `多高`)
HOW_ADJECTIVE_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "多远": ("程", "距"),
    "多高": ("高", "升限"),
    "多深": ("深",),
    "多宽": ("宽", "翼展"),
    "多厚": ("厚",),
    "多重": ("重", "质量"),
    "多快": ("速",),
    "多长": ("长",),
    "多粗": ("径", "直径"),
}
# A yes/no on a ratio of two values (`A的阵亡人数是否超过了B阵亡人数的两倍`): the comparison words, the relation each
# makes hold between the first value and the multiple of the second (reason/arithmetic.py), and the word after the
# multiple
RATIO_COMPARATORS: dict[str, str] = {
    "超过": "数值大于",
    "多于": "数值大于",
    "高于": "数值大于",
    "大于": "数值大于",
    "达到": "数值不小于",
    "不到": "数值小于",
    "少于": "数值小于",
    "低于": "数值小于",
}
TIMES_WORD = "倍"
# How much two values differ: a comparison word then how-many (`比B多出几架`, `提高了多少马力`), or a span
# (`相隔多少年`, `过了几天`) — the answer is a difference computed in code (reason/arithmetic.py).
DIFFERENCE_PATTERNS: tuple[str, ...] = (
    r"比.{1,16}?(?:多|少|早|晚|高|低|大|小|长|短|重|轻|远|近)(?:出|了)?(?:多少|几)",
    r"(?:相隔|相差|间隔|前后相隔|差了|过了|过去了)(?:多少|几)",
    r"(?:提高|增加|减少|降低|增长|下降|延长|缩短)了?(?:多少|几)",
    # the time one thing took between two of its dates (`从安放龙骨到正式服役，前后一共花了几个月`)
    SPAN_PATTERN := (
        r"从(.{1,12}?)到(.{1,12}?)(?:前后)?(?:一共|总共|共)?(?:花了|用了|历时|耗时|经历了|经过了|过了)(?:多少|几)"
    ),
)
# Units of time a difference of dates is asked in (`几天`, `多少年`, `几个月`): the unit, and the name it is read as
TIME_SPAN_UNITS: tuple[tuple[str, str], ...] = (
    ("天", "day"),
    ("日", "day"),
    ("个月", "month"),
    ("月", "month"),
    ("年", "year"),
)
# A value that states an absence (`无`, `取消对地攻击能力`): a yes/no question reaching it is answered no.
NEGATIVE_VALUE_STARTS: tuple[str, ...] = ("无", "没有", "未", "不", "取消", "否")
UNKNOWN_VALUES: tuple[str, ...] = ("不详", "未知", "不明")  # begun like an absence, they state none
# A value that states a presence (`超音速巡航能力 具备`): a yes/no question reaching it alone is answered yes.
AFFIRMATIVE_VALUES: frozenset[str] = frozenset({"具备", "具有", "拥有", "有", "是", "能", "可以", "支持"})
# Negation right before a name (`不是北约成员国`) and the frame `除…以外` around one: the answer must not connect to it.
NEGATION_MARKERS: tuple[str, ...] = ("不属于", "不隶属于", "不是", "并非", "不为", "非", "不在", "未", "没有")
# Negation before a predicate the question names in words, not as a name (`哪一艘最终没有沉没`, `尚未退役的`,
# `不是驱逐舰的那艘`): the answer must not have it. `非` alone is left out: it starts words (`非洲`).
PREDICATE_NEGATIONS: tuple[str, ...] = ("没有", "尚未", "从未", "未曾", "未", "不曾", "不是", "并非", "不属于", "不再")
CLAUSE_STOPS = "吗呢，。,；;？?、"  # where a clause's words end
NEGATED_WORD_STOPS = "的" + CLAUSE_STOPS  # where the negated words end
NEGATED_TAIL_PARTICLES = "过了着"  # aspect particles after a negated verb (`没有参加过`)
# words around negated ones that say nothing of what is negated (`所属国家不是中国的有哪些`, `不是由X研制的`)
NEGATION_LINKING = "的是有由被在为"
GROUP_NEGATIONS: tuple[str, ...] = tuple(sorted({*NEGATION_MARKERS, *PREDICATE_NEGATIONS} - {"非", "不为"}))
SEVERAL_WORD = "几"  # `几款机型` in a clause that describes a group: several, not how many
GROUP_QUESTION = "有哪些"  # a clause that describes a group, asked for its members
EXCLUDE_FRAMES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("除了", ("以外", "之外", "外")),
    ("除", ("以外", "之外", "外")),
    ("不算", ("本身", "在内")),
    ("不包括", ("本身", "在内")),
)
# Words of a bracketed remark that leaves something out (`有几个（支队不算）`): an aside the question reads on without
# (reason/remarks.py); remarks that take something in (`（含外贸型）`) or restate (`（10月23日至11月11日）`) stay
EXCLUDING_REMARK_WORDS: tuple[str, ...] = ("不算", "不包括", "不含", "不计", "除外", "而不是", "而非")
# Words saying a question asks for several things, each on its own (`X的A和B分别是什么`, reason/respectively.py),
# and the words that join listed things (`A、B和C`; also which-of lists, `A和B哪个更早`).
RESPECTIVELY_WORDS: tuple[str, ...] = ("分别", "各自", "各是", "各为")
# Words saying that listed names share what is asked (`A和B都参加的演习`, `共同`): an intersection, not a union.
TOGETHER_WORDS: tuple[str, ...] = ("都", "共同", "同时", "一起", "一同", "均", "皆", "共有")
COORDINATORS: tuple[str, ...] = ("以及", "还是", "和", "与", "及", "或", "跟", "同", "、")
# Those that also join the relation words of "respectively" parts (`下水时间和建造单位`): `同`, `跟`, `或` join names
# but sit inside relation words (`合同金额`).
PART_JOINERS: tuple[str, ...] = ("以及", "和", "与", "及", "、")
# Words after a list of names saying the answer is one of them (`A、B和C中，哪个…`).
AMONG_WORDS: tuple[str, ...] = ("之中", "当中", "中", "里面", "里")
# A part of such a question ending in one of these asks for a date, whatever the question word (`下水时间和建造单位`).
TIME_PART_ENDINGS: tuple[str, ...] = ("时间", "日期", "年份", "时候", "年代")
# KG node types that mark a country (a side of that kind: some annotators key it `country`, not `camp`).
COUNTRY_TYPE_WORDS: tuple[str, ...] = ("国家", "国")
# After a country's first character, words that make a relation name speak for that country's side (`日方损失航母`,
# `美军伤亡`): the relation says the side of what it reaches
SIDE_NAME_SUFFIXES = "方军"
# Words of a yes/no question asking whether two things share a value (`是否出自同一家船厂`).
SAME_WORDS: tuple[str, ...] = ("同一", "相同", "一样", "同样", "同一个", "同一家")
# What a `同一X` compares when X names a date (`同一天`, `同一年`); place words are PLACE_TYPE_WORDS.
DATE_NOUNS: tuple[str, ...] = ("天", "日", "年", "月", "时间", "日期", "年份")
PERSON_WORDS: tuple[str, ...] = ("谁", "哪位", "哪名", "哪个人", "什么人", "哪一位", "何人")


@lru_cache(maxsize=16384)
def relation_variants(relation: str) -> tuple[str, ...]:
    """The relation name plus the words of every synonym group one of whose words it contains (sorted, so that
    ties are broken the same way in every process)."""
    out = {relation}
    for group in RELATION_SYNONYMS:
        if any(w in relation for w in group if len(w) >= 2 or w == relation):
            out.update(group)
    return (relation, *sorted(out - {relation}))


# Words of KG relation names and node types that mark a kind of relation or node (time, side, event, place,
# category, person): hints read off the KG's own vocabulary, kept here with the other language words.
GENERIC_TIME_RELATIONS = frozenset({"时间", "发生时间", "日期", "发生日期", "开始时间", "爆发时间"})

CAMP_RELATION_HINTS = ("隶属", "属于", "所属", "阵营", "国籍", "国家", "加入", "归属", "一方", "成员", "盟")

EVENT_TYPE_HINTS = ("行动", "事件", "演习", "战役", "战争", "会议", "活动", "项目", "计划")
# `孟良崮一役`, `塔拉瓦一战`, `威海卫之战`: a place and one of these words name the battle fought there
BATTLE_SHORT_SUFFIXES = ("一役", "之役", "一战", "之战")


@lru_cache(maxsize=4096)
def names_event_type(types_text: str) -> bool:
    """Whether a node's KG types (`KGIndex.types_text`) name a kind of event (`事件`, `作战行动`, `演习`, ...);
    cached: a KG has few distinct type texts, and the chain scorer asks per hop."""
    return any(h in types_text for h in EVENT_TYPE_HINTS)


def names_person_type(types_text: str) -> bool:
    """Whether a node's KG types (`KGIndex.types_text`) name a person (`人物`, `将领`, `飞行员`, ...)."""
    return any(h in types_text for h in PERSON_TYPE_HINTS)


CAMP_TYPE_HINTS = ("国家", "组织", "联盟", "阵营", "集团", "同盟", "政府", "政权", "军队")

PLACE_TYPE_WORDS = ("地点", "地区", "位置", "城市", "港", "基地", "海域", "岛", "地名", "省", "州")

# KG node types of a kind (`远程防空导弹`, typed 类别), as opposed to a thing of that kind.
CATEGORY_TYPE_WORDS: tuple[str, ...] = ("类别", "类型", "种类")

TYPE_RELATION_HINTS = ("类型", "种类", "类别", "型号", "舰种", "级别", "舰级", "型别", "机种", "类")
# characters of the relations among those that state a kind, not a model (`类型`, `舰种`, `舰级`; not `主要型号`)
CATEGORY_RELATION_CHARS = "类种级"

PERSON_TYPE_HINTS = ("人物", "人", "将领", "军官", "指挥官", "司令", "元帅", "将军", "总统", "首相", "士兵", "飞行员")
# `谁` asks for a person and answers an organisation too (`由谁供应` -> a company): not preferred, not wrong.
ORGANISATION_TYPE_HINTS = ("组织", "公司", "机构", "单位", "集团", "企业", "部队", "政府")

PLACE_TYPE_HINTS = (*PLACE_TYPE_WORDS, "国家")  # a place answer may be a country

# Asked nouns whose coarse kind the language says when the KG uses them nowhere (`哪家企业生产的` over a KG that types
# makers 组织机构 and names none 企业): kinds.MacroKind values
COARSE_KIND_NOUNS: dict[str, str] = {
    "企业": "organisation",
    "公司": "organisation",
    "单位": "organisation",
    "机构": "organisation",
    "厂商": "organisation",
    "厂家": "organisation",
    "城市": "place",
    "地方": "place",
    "地区": "place",
}

PLACE_RELATION_HINTS = ("地", "港", "位置", "位于", "基地", "驻", "部署", "所在", "海域", "国")
