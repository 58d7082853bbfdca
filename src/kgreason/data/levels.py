"""The task's difficulty levels (spec 000: L1 事实查询, L2 标准多跳推理, L3 多约束复合推理)."""

from __future__ import annotations

from typing import Literal

Level = Literal["L1", "L2", "L3"]
LEVELS: tuple[Level, ...] = ("L1", "L2", "L3")
