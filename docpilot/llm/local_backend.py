"""The embedded default: Qwen2.5-Coder-1.5B-Instruct (GGUF) run in-process by llama-cpp-python.

The model is loaded once per process (a lock-protected cache keyed by path and context size) and its
calls take turns in a :class:`~docpilot.llm.queue.FairQueue` (first come, first served), so the Gradio
app shares one instance between sessions and each waiting call is told how many are ahead of it.
Replies with a schema use llama.cpp's grammar-constrained decoding. Two prompt caches make repeated
static prefixes cheap:

* in a process, llama.cpp keeps the KV cache of the last prompt and reuses the common prefix;
* across processes, the KV state of the first ``system`` message (the static prefix) is saved under
  ``$XDG_CACHE_HOME/docpilot/llm-cache`` with ``llama_state_save_file`` and restored on the next
  cold start, instead of ingesting the prefix again (~80 tokens/s on two cores).

``llama_cpp.LlamaDiskCache`` is not used: it pickles the full logits buffer (n_batch x 151,936 floats,
about 311 MB) per entry, pops entries when read, and prints to stderr.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from docpilot.errors import DocPilotError, LLMError, Stopped
from docpilot.llm.base import Reply, Usage
from docpilot.llm.queue import FairQueue, WaitListener
from docpilot.settings import cache_dir

__all__ = ["LocalBackend", "LocalConfig", "loaded_models", "local_available", "queued_calls"]

_MAX_THREADS = 8


def _default_threads() -> int:
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, min(count, _MAX_THREADS))


@dataclass(frozen=True)
class LocalConfig:
    """How to run the embedded model; built in ``main()``.

    Attributes:
        model_path: a GGUF file; ``None`` joins the embedded one (:func:`docpilot.llm.weights.model_path`).
        n_ctx: context window in tokens.
        n_threads: CPU threads; ``None`` uses the available cores, at most 8.
        prefix_cache_dir: where static-prefix KV states are kept; ``None`` turns the disk cache off.
        prefix_min_tokens: shorter system prompts are not worth a file.
        prefix_keep: how many prefix states to keep (least recently used go first).
    """

    model_path: Path | None = None
    n_ctx: int = 8192
    n_threads: int | None = None
    prefix_cache_dir: Path | None = None
    prefix_min_tokens: int = 96
    prefix_keep: int = 8

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LocalConfig:
        """Defaults, with the prefix cache under ``$XDG_CACHE_HOME/docpilot/llm-cache``.

        ``DOCPILOT_PREFIX_CACHE=0`` turns the disk cache off; ``DOCPILOT_THREADS`` sets the thread count.
        """
        cache = None if env.get("DOCPILOT_PREFIX_CACHE", "1") == "0" else cache_dir(env) / "llm-cache"
        threads = env.get("DOCPILOT_THREADS")
        return cls(n_threads=int(threads) if threads and threads.isdigit() else None, prefix_cache_dir=cache)


def local_available() -> bool:
    """Whether llama-cpp-python and the 22 weight packages are installed (no heavy import)."""
    import importlib.util

    from docpilot.llm import weights

    if importlib.util.find_spec("llama_cpp") is None:
        return False
    try:
        weights.part_paths()
    except DocPilotError:
        return False
    return True


class _Loaded:
    """One Llama object, the line of calls taking turns on it, its prefix store, and the stop check of the
    call running on it.

    llama.cpp calls the abort callback between the nodes of every graph it computes (prompt batches
    and generated tokens alike), so a call stops within a fraction of a second of ``should_stop``
    turning True, even in the middle of a long prompt.
    """

    def __init__(self, llama: Any, path: Path, load_seconds: float) -> None:
        self.llama = llama
        self.path = path
        self.load_seconds = load_seconds
        self.queue = FairQueue()
        self.grammars: dict[str, bool] = {}
        self.compiled: dict[str, Any] = {}  # GBNF text → its LlamaGrammar
        self.prefixes: dict[str, list[int]] = {}  # system message → its static-prefix tokens
        self.should_stop: Callable[[], bool] | None = None
        self.stopped = False
        self._abort = self._install_abort()

    def _install_abort(self) -> Any:
        import llama_cpp

        def abort(_data: Any) -> bool:
            check = self.should_stop
            if check is None or self.stopped:
                return self.stopped
            self.stopped = bool(check())
            return self.stopped

        callback = llama_cpp.ggml_abort_callback(abort)  # kept referenced: llama.cpp holds the pointer
        llama_cpp.llama_set_abort_callback(self.llama.ctx, callback, None)
        return callback

    def forget_state(self) -> None:
        """Start the next call clean: after an aborted decode (the KV cache holds part of a batch) or a
        prefix state that did not load."""
        self.llama.reset()
        self.llama._ctx.kv_cache_clear()


_MODELS: dict[tuple[str, int], _Loaded] = {}
_MODELS_LOCK = threading.Lock()


def loaded_models() -> dict[tuple[str, int], float]:
    """The models loaded in this process and their load times in seconds (for diagnostics and tests)."""
    with _MODELS_LOCK:
        return {key: value.load_seconds for key, value in _MODELS.items()}


def queued_calls() -> int:
    """Calls holding or waiting for a loaded model, all models together (0: every model is free)."""
    with _MODELS_LOCK:
        models = list(_MODELS.values())
    return sum(len(model.queue) for model in models)


def _load(path: Path, n_ctx: int, n_threads: int) -> _Loaded:
    key = (str(path), n_ctx)
    with _MODELS_LOCK:
        if key in _MODELS:
            return _MODELS[key]
        try:
            import llama_cpp
        except ImportError:
            raise LLMError(
                "The local model needs llama-cpp-python. Run `make install`, or pip install '.[local]'."
            ) from None
        start = time.perf_counter()
        try:
            llama = llama_cpp.Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                seed=0,
                verbose=False,
            )
        except (ValueError, OSError, RuntimeError) as exc:
            raise LLMError(f"Could not load the model {path.name}: {exc}") from None
        loaded = _Loaded(llama, path, time.perf_counter() - start)
        _MODELS[key] = loaded
        return loaded


class LocalBackend:
    """Chat with the embedded GGUF model in this process."""

    name = "local"

    def __init__(self, config: LocalConfig | None = None) -> None:
        self.config = config or LocalConfig()
        self.usage = Usage()
        # What the last call did, for measurements: how the static prefix was found ("live" in the KV
        # cache, "restored" from disk, "saved" after ingesting it, None) and how many tokens it decoded
        # (prompt tokens not reused + generated tokens).
        self.last_prefix_event: str | None = None
        self.last_decoded_tokens = 0

    def _model(self) -> _Loaded:
        path = self.config.model_path
        if path is None:
            from docpilot.llm import weights

            try:
                path = weights.model_path()
            except DocPilotError as exc:
                raise LLMError(str(exc)) from None
        if not Path(path).is_file():
            raise LLMError(f"The model file {path} does not exist.")
        return _load(Path(path), self.config.n_ctx, self.config.n_threads or _default_threads())

    def load(self) -> float:
        """Load the model now (the app does this at start); returns the load time in seconds."""
        return self._model().load_seconds

    def prime(self, system: str) -> str | None:
        """Read the static prefix ``system`` now and keep its state on disk, so a person's first request
        does not pay for it; returns how the prefix was found ("live", "restored", "saved"; None: no
        prefix cache)."""
        loaded = self._model()
        if self.config.prefix_cache_dir is None:
            return None
        with loaded.queue.turn():
            return _PrefixStore(loaded, self.config).prepare([{"role": "system", "content": system}])

    def chat(
        self,
        messages: list[dict],
        *,
        schema: dict | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
        should_stop: Callable[[], bool] | None = None,
        on_text: Callable[[str], None] | None = None,
        grammar: str | None = None,
        on_wait: WaitListener | None = None,
    ) -> Reply:
        loaded = self._model()
        request: dict[str, Any] = {
            "messages": messages,
            "temperature": temperature,
            "max_tokens": max_tokens,
            "seed": 0,
        }
        if schema is not None:
            _check_schema(loaded, schema)
            request["response_format"] = {"type": "json_object", "schema": schema}
        elif grammar is not None:
            request["grammar"] = _grammar(loaded, grammar)
        with loaded.queue.turn(on_wait):  # raises Stopped when on_wait gives the place up
            start = time.perf_counter()
            decoded = _decoded(loaded.llama)
            loaded.should_stop, loaded.stopped = should_stop, False
            try:
                if self.config.prefix_cache_dir is not None:
                    store = _PrefixStore(loaded, self.config)
                    self.last_prefix_event = store.prepare(messages)
                if on_text is None:
                    response = loaded.llama.create_chat_completion(**request)
                else:
                    response = _streamed(loaded.llama.create_chat_completion(**request, stream=True), on_text)
            except ValueError as exc:  # e.g. "Requested tokens (9000) exceed context window of 8192"
                raise LLMError(f"The local model could not answer: {exc}") from None
            except RuntimeError as exc:  # "llama_decode returned 2": the abort callback stopped it
                if not loaded.stopped:
                    raise LLMError(f"The local model failed: {exc}") from None
                loaded.forget_state()
                raise Stopped("The model was stopped.", cancelled=False) from None
            finally:
                loaded.should_stop, loaded.stopped = None, False
            seconds = time.perf_counter() - start
            self.last_decoded_tokens = _decoded(loaded.llama) - decoded
        text = response["choices"][0]["message"].get("content") or ""
        usage = response.get("usage") or {}
        if on_text is not None:  # a stream reports no usage: the decoded tokens less the written ones
            written = int(usage.get("completion_tokens", 0))
            usage = {"prompt_tokens": max(0, self.last_decoded_tokens - written), "completion_tokens": written}
        reply = Reply(text, int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)), seconds)
        self.usage.add(reply)
        return reply


def _streamed(chunks: Any, on_text: Callable[[str], None]) -> dict[str, Any]:
    """A streamed completion put together as a whole one, ``on_text`` told the text so far at each piece."""
    text, pieces = "", 0
    for chunk in chunks:
        piece = (chunk["choices"][0].get("delta") or {}).get("content") or ""
        if piece:
            text, pieces = text + piece, pieces + 1
            on_text(text)
    return {"choices": [{"message": {"content": text}}], "usage": {"completion_tokens": pieces}}


def _decoded(llama: Any) -> int:
    """Tokens this context has run through the model so far (llama.cpp's performance counters)."""
    import llama_cpp

    perf = llama_cpp.llama_perf_context(llama.ctx)
    return int(perf.n_p_eval) + int(perf.n_eval)


def _check_schema(loaded: _Loaded, schema: dict) -> None:
    """Fail clearly when llama.cpp cannot turn ``schema`` into a grammar (it would silently fall back)."""
    text = json.dumps(schema, sort_keys=True)
    if text in loaded.grammars:
        return
    from llama_cpp import llama_grammar

    try:
        llama_grammar.json_schema_to_gbnf(json.dumps(schema))
    except Exception as exc:  # noqa: BLE001 - the converter raises AssertionError, ValueError, KeyError …
        raise LLMError(f"The JSON schema cannot be used for constrained decoding: {exc}") from None
    loaded.grammars[text] = True


def _grammar(loaded: _Loaded, text: str) -> Any:
    """The compiled grammar for ``text`` (kept: a request's grammar is asked for again on its retry)."""
    grammar = loaded.compiled.get(text)
    if grammar is None:
        from llama_cpp import LlamaGrammar

        try:
            grammar = LlamaGrammar.from_string(text, verbose=False)
        except ValueError as exc:
            raise LLMError(f"The grammar cannot be used for constrained decoding: {exc}") from None
        if len(loaded.compiled) >= 32:
            loaded.compiled.clear()
        loaded.compiled[text] = grammar
    return grammar


class _PrefixStore:
    """Saves and restores the KV state of the static prefix (the first ``system`` message) on disk."""

    def __init__(self, loaded: _Loaded, config: LocalConfig) -> None:
        self.loaded = loaded
        self.llama = loaded.llama
        self.config = config
        assert config.prefix_cache_dir is not None
        self.directory = Path(config.prefix_cache_dir)

    def prefix_tokens(self, messages: list[dict]) -> list[int]:
        """The tokens every prompt with this system message starts with (chat template included)."""
        from llama_cpp import llama_chat_format

        llama = self.llama
        template = llama.metadata.get("tokenizer.chat_template")
        if not template:
            return []
        special = {
            "eos_token": llama.detokenize([llama.token_eos()], special=True).decode("utf-8", "ignore"),
            "bos_token": llama.detokenize([llama.token_bos()], special=True).decode("utf-8", "ignore")
            if llama.token_bos() >= 0
            else "",
        }
        formatter = llama_chat_format.Jinja2ChatFormatter(template=template, **special)
        system = messages[0]
        one = formatter(messages=cast(Any, [system, {"role": "user", "content": "A"}])).prompt
        two = formatter(messages=cast(Any, [system, {"role": "user", "content": "Z"}])).prompt
        tokens_one = llama.tokenize(one.encode("utf-8"), add_bos=False, special=True)
        tokens_two = llama.tokenize(two.encode("utf-8"), add_bos=False, special=True)
        common = 0
        for a, b in zip(tokens_one, tokens_two, strict=False):
            if a != b:
                break
            common += 1
        return list(tokens_one[:common])

    def _file(self, tokens: list[int]) -> Path:
        import llama_cpp

        digest = hashlib.sha256()
        digest.update(f"{llama_cpp.__version__}|{self.llama.model_path}|{self.config.n_ctx}|".encode())
        digest.update(json.dumps(tokens).encode())
        return self.directory / f"prefix-{digest.hexdigest()[:32]}.state"

    def prepare(self, messages: list[dict]) -> str | None:
        """Make sure the model's KV cache holds the static prefix; returns what was done."""
        if not messages or messages[0].get("role") != "system":
            return None
        system = str(messages[0].get("content") or "")
        tokens = self.loaded.prefixes.get(system)
        if tokens is None:
            tokens = self.prefix_tokens(messages)
            if len(self.loaded.prefixes) >= 64:
                self.loaded.prefixes.clear()
            self.loaded.prefixes[system] = tokens
        if len(tokens) < self.config.prefix_min_tokens or len(tokens) >= self.config.n_ctx:
            return None
        llama = self.llama
        live = llama.n_tokens >= len(tokens) and list(llama.input_ids[: len(tokens)]) == tokens
        if live:
            return "live"
        path = self._file(tokens)
        if path.is_file() and self._restore(path, tokens):
            return "restored"
        llama.reset()
        llama.eval(tokens)
        self._save(path, tokens)
        return "saved"

    def _restore(self, path: Path, tokens: list[int]) -> bool:
        import llama_cpp

        llama = self.llama
        capacity = len(tokens) + 1
        out = (llama_cpp.llama_token * capacity)()
        count = ctypes.c_size_t(0)
        llama.reset()
        ok = llama_cpp.llama_state_load_file(llama.ctx, str(path).encode(), out, capacity, ctypes.byref(count))
        if not ok or list(out[: count.value]) != tokens:
            self.loaded.forget_state()
            path.unlink(missing_ok=True)
            return False
        llama.input_ids[: len(tokens)] = tokens
        llama.n_tokens = len(tokens)
        llama._requires_eval = True
        os.utime(path)
        return True

    def _save(self, path: Path, tokens: list[int]) -> None:
        import llama_cpp

        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".tmp-{os.getpid()}")
            array = (llama_cpp.llama_token * len(tokens))(*tokens)
            if llama_cpp.llama_state_save_file(self.llama.ctx, str(tmp).encode(), array, len(tokens)):
                os.replace(tmp, path)
            tmp.unlink(missing_ok=True)
            states = sorted(self.directory.glob("prefix-*.state"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in states[self.config.prefix_keep :]:
                old.unlink(missing_ok=True)
        except OSError:
            pass  # a cache that cannot be written only costs time
