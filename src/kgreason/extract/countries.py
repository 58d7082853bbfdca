"""Country names: typed `国家`, and stripped as a prefix of a name the document also writes alone."""

from __future__ import annotations

_COUNTRY_LIST = (
    "中国 美国 日本 俄罗斯 英国 法国 德国 意大利 韩国 朝鲜 印度 澳大利亚 加拿大 以色列 乌克兰 伊朗 荷兰 西班牙 "
    "土耳其 巴基斯坦 新西兰 新加坡 菲律宾 越南 泰国 马来西亚 印度尼西亚 巴西 智利 秘鲁 墨西哥 苏联 挪威 瑞典 "
    "波兰 希腊 埃及 沙特阿拉伯 阿联酋 伊拉克 叙利亚 阿富汗 也门"
)
COUNTRIES = frozenset(_COUNTRY_LIST.split())
