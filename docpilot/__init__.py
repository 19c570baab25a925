"""DocPilot: a copilot for PDF workflows (planning, verification, execution, QA, UI, CLI)."""

__all__ = ["__version__"]
__version__ = "0.1.0"
