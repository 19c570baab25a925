"""Runs generated programs over pdftools in a guarded subprocess.

``run_program(code, files)`` → :class:`RunResult`; :func:`check_program` for the static checks alone;
a :class:`Sandbox` keeps the guarded process warm across runs.
"""

from .checks import ALLOWED_IMPORTS, Problem, check_program, format_problems
from .runner import Limits, RunResult, Sandbox, SandboxStartError, run_program

__all__ = [
    "ALLOWED_IMPORTS",
    "Limits",
    "Problem",
    "RunResult",
    "Sandbox",
    "SandboxStartError",
    "check_program",
    "format_problems",
    "run_program",
]
