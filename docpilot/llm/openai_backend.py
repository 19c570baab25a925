"""Any OpenAI-compatible chat server (api.openai.com, llama.cpp's server, vLLM, Ollama …) via ``openai``.

Structured output is negotiated once per backend: ``json_schema`` (OpenAI's structured outputs), else
``json_object`` with a ``schema`` (llama.cpp's server: it answers HTTP 500 to ``json_schema`` in
llama-cpp-python 0.3.36), else plain ``json_object``. The first mode the server accepts is kept for
the rest of the process.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

from docpilot.errors import LLMError, Stopped
from docpilot.llm.base import Reply, Usage

__all__ = ["SCHEMA_MODES", "OpenAIBackend", "OpenAIConfig"]

# Ways to ask for JSON, best first.
SCHEMA_MODES = ("json_schema", "json_object_schema", "json_object")
# HTTP answers that mean "this response_format is not understood here" rather than "the server broke".
_REJECTED = {400, 404, 415, 422, 500, 501}
_OPENAI_HOST = "api.openai.com"
_DUMMY_KEY = "sk-local"


@dataclass(frozen=True)
class OpenAIConfig:
    """Where the server is and what to ask it for; built in ``main()`` from the environment."""

    base_url: str | None = None
    api_key: str = _DUMMY_KEY
    model: str = "gpt-4o-mini"
    timeout: float = 180.0
    max_retries: int = 2

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, timeout: float = 180.0) -> OpenAIConfig:
        """``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` (``sk-local`` when only a base URL is set), ``DOCPILOT_MODEL``.

        The model defaults to ``gpt-4o-mini`` on api.openai.com and to ``local`` on any other server.
        """
        base_url = (env.get("OPENAI_BASE_URL") or "").strip() or None
        api_key = (env.get("OPENAI_API_KEY") or "").strip() or _DUMMY_KEY
        official = base_url is None or urlparse(base_url).hostname == _OPENAI_HOST
        model = (env.get("DOCPILOT_MODEL") or "").strip() or ("gpt-4o-mini" if official else "local")
        return cls(base_url=base_url, api_key=api_key, model=model, timeout=timeout)

    @property
    def where(self) -> str:
        """The server, for messages."""
        return self.base_url or f"https://{_OPENAI_HOST}/v1"


def _response_format(mode: str, schema: dict) -> dict[str, Any]:
    if mode == "json_schema":
        title = str(schema.get("title") or "plan")
        name = title if re.fullmatch(r"[A-Za-z0-9_-]{1,64}", title) else "plan"
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


class OpenAIBackend:
    """Chat through an OpenAI-compatible server."""

    name = "openai"

    def __init__(self, config: OpenAIConfig) -> None:
        self.config = config
        self.usage = Usage()
        self.schema_mode: str | None = None  # the structured-output mode the server accepted
        self._client: Any = None
        self._lock = threading.Lock()

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                import openai

                # Retries are ours: the client's own would retry the HTTP 500 of an unsupported mode.
                self._client = openai.OpenAI(
                    api_key=self.config.api_key,
                    base_url=self.config.base_url,
                    timeout=self.config.timeout,
                    max_retries=0,
                )
            return self._client

    def chat(
        self,
        messages: list[dict],
        *,
        schema: dict | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        should_stop: Callable[[], bool] | None = None,
        on_text: Callable[[str], None] | None = None,
        grammar: str | None = None,  # a server does not take llama.cpp grammars: the caller checks the reply
        on_wait: Callable[[int], bool] | None = None,  # a server keeps its own line and says nothing of it
    ) -> Reply:
        start = time.perf_counter()
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if on_text is not None:
            request["stream"] = True
        if schema is None:
            send: Callable[[], Any] = lambda: self._send(request)  # noqa: E731
        else:
            send = lambda: self._send_with_schema(request, schema)  # noqa: E731
        if on_text is not None:
            opened = send
            send = lambda: self._gathered(opened(), on_text, should_stop)  # noqa: E731
        response = send() if should_stop is None else _watched(send, should_stop)
        seconds = time.perf_counter() - start
        if isinstance(response, Reply):  # a stream, read
            reply = Reply(response.text, response.prompt_tokens, response.completion_tokens, seconds)
        else:
            reply = self._reply(response, seconds)
        self.usage.add(reply)
        return reply

    def _send_with_schema(self, request: dict[str, Any], schema: dict) -> Any:
        import openai

        modes = SCHEMA_MODES if self.schema_mode is None else (self.schema_mode,)
        last: openai.APIStatusError | None = None
        for index, mode in enumerate(modes):
            try:
                response = self._send({**request, "response_format": _response_format(mode, schema)})
            except openai.APIStatusError as exc:
                if exc.status_code in _REJECTED and index + 1 < len(modes):
                    last = exc
                    continue
                raise self._error(exc) from None
            self.schema_mode = mode
            return response
        raise self._error(last) from None  # pragma: no cover - the loop returns or raises

    def _send(self, request: dict[str, Any]) -> Any:
        """One request, retried at most ``max_retries`` times on connection failures and rate limits."""
        import openai

        client = self._get_client()
        attempt = 0
        while True:
            try:
                return client.chat.completions.create(**request)
            except openai.APITimeoutError:
                raise LLMError(
                    f"The LLM server at {self.config.where} did not answer within {self.config.timeout:g} s. "
                    "Try again, use a faster model, or choose --backend rules."
                ) from None
            except (openai.APIConnectionError, openai.RateLimitError) as exc:
                if attempt >= self.config.max_retries:
                    raise self._error(exc) from None
                attempt += 1
                time.sleep(0.5 * 2**attempt)
            except openai.APIStatusError as exc:
                if "response_format" in request:
                    raise  # the caller decides whether to try another mode
                raise self._error(exc) from None

    def _error(self, exc: Exception | None) -> LLMError:
        import openai

        where, model = self.config.where, self.config.model
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc
            return LLMError(
                f"Cannot reach the LLM server at {where} ({cause}). Is it running? "
                "Check OPENAI_BASE_URL, or choose --backend local or --backend rules."
            )
        if isinstance(exc, openai.AuthenticationError):
            return LLMError(f"The LLM server at {where} rejected the API key (HTTP 401). Check OPENAI_API_KEY.")
        if isinstance(exc, openai.NotFoundError):
            return LLMError(
                f"The LLM server at {where} answered HTTP 404 for model {model!r}. Check DOCPILOT_MODEL "
                "(the server's /v1/models lists its models) and that OPENAI_BASE_URL ends in /v1."
            )
        if isinstance(exc, openai.RateLimitError):
            return LLMError(f"The LLM server at {where} keeps refusing with HTTP 429 (rate limit or quota).")
        if isinstance(exc, openai.APIStatusError):
            detail = _short(exc.message)
            return LLMError(f"The LLM server at {where} answered HTTP {exc.status_code}: {detail}")
        return LLMError(f"The LLM server at {where} failed: {exc}")

    def _gathered(self, stream: Any, on_text: Callable[[str], None], should_stop: Callable[[], bool] | None) -> Reply:
        """A streamed reply read piece by piece, ``on_text`` told the text so far at each one."""
        import openai

        text, pieces, prompt, completion = "", 0, 0, 0
        try:
            for chunk in stream:
                if should_stop is not None and should_stop():
                    stream.close()
                    raise Stopped("The model was stopped.", cancelled=False)
                usage = getattr(chunk, "usage", None)
                if usage is not None:
                    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
                    completion = int(getattr(usage, "completion_tokens", 0) or 0)
                piece = chunk.choices[0].delta.content if chunk.choices else None
                if piece:
                    text, pieces = text + piece, pieces + 1
                    on_text(text)
        except (openai.APIError, AttributeError, IndexError, TypeError) as exc:
            raise LLMError(f"The LLM server at {self.config.where} broke off its streamed reply: {exc}") from None
        return Reply(text, prompt, completion or pieces)

    @staticmethod
    def _reply(response: Any, seconds: float) -> Reply:
        try:
            text = response.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError):
            raise LLMError("The LLM server sent a reply without a message.") from None
        usage = getattr(response, "usage", None)
        prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
        completion = int(getattr(usage, "completion_tokens", 0) or 0)
        return Reply(text, prompt, completion, seconds)


def _watched(send: Callable[[], Any], should_stop: Callable[[], bool], poll: float = 0.1) -> Any:
    """``send()`` on a helper thread, given up as soon as ``should_stop()`` says so.

    The HTTP request is left to finish (or time out) on its daemon thread; its answer is dropped.
    """
    box: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = send()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="docpilot-llm-request", daemon=True).start()
    while not done.wait(poll):
        if should_stop():
            raise Stopped("The model was stopped.", cancelled=False)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
