"""The deterministic fast path: requests it fully understands become plans with zero LLM calls."""

from docpilot.planning.fastpath.build import LOGIC, NeedInfo, Reading, fast_plan, fast_reading, hint_tools, partial_plan

__all__ = ["fast_plan", "fast_reading", "Reading", "partial_plan", "hint_tools", "NeedInfo", "LOGIC"]
