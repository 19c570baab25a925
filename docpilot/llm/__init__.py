"""Language-model backends: the embedded local model and any OpenAI-compatible server.

Importing this package is cheap: llama_cpp and openai are imported only when a backend first needs them.
"""

from __future__ import annotations

from docpilot.errors import LLMError
from docpilot.llm.base import LLM, Metered, Reply, Usage, metered
from docpilot.llm.local_backend import LocalBackend, LocalConfig, local_available
from docpilot.llm.openai_backend import OpenAIBackend, OpenAIConfig
from docpilot.llm.select import BACKENDS, backend_name, choose_backend

__all__ = [
    "BACKENDS",
    "LLM",
    "LLMError",
    "LocalBackend",
    "LocalConfig",
    "Metered",
    "OpenAIBackend",
    "OpenAIConfig",
    "Reply",
    "Usage",
    "backend_name",
    "choose_backend",
    "local_available",
    "metered",
]
