"""The deterministic fast path: requests it fully understands become plans with zero LLM calls."""

from docpilot.planning.fastpath.build import LOGIC, NeedInfo, fast_plan, hint_tools, partial_plan

__all__ = ["fast_plan", "partial_plan", "hint_tools", "NeedInfo", "LOGIC"]
