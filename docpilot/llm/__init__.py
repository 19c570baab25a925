"""Language-model backends: the embedded local model, any OpenAI-compatible server, a scripted stand-in.

Importing this package is cheap: llama_cpp and openai are imported only when a backend first needs them.
"""

from __future__ import annotations

from ..errors import LLMError
from .base import LLM, Metered, Reply, Usage, metered
from .local_backend import LocalBackend, LocalConfig, local_available
from .openai_backend import OpenAIBackend, OpenAIConfig
from .scripted import ScriptedLLM
from .select import BACKENDS, backend_name, choose_backend

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
    "ScriptedLLM",
    "Usage",
    "backend_name",
    "choose_backend",
    "local_available",
    "metered",
]
