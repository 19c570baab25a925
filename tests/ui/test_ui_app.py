"""The running web app driven through gradio_client: the flow, parallel sessions, isolation, cleanup."""

from __future__ import annotations

import os
import socket
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pymupdf
import pytest

pytest.importorskip("gradio")
from gradio_client import Client, handle_file

from docpilot.ui import build_app, launch, launch_options

pytestmark = [  # gradio's queue calls pandas in ways pandas 3 deprecates; not ours to fix
    pytest.mark.filterwarnings("ignore:'future.no_silent_downcasting' is deprecated"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
]

# What each endpoint returns, in order: each event updates only what it changes (the session State,
# the buttons and the editor's accordion are not returned to a client).
OUT = {
    "/upload": ["chat", "files", "doc", "thumbs", "page", "before_after", "logs", "upload"],
    "/send": ["chat", "request"],
    "/plan": ["chat", "editor", "plan_json", "logs", "sources"],
    "/revise": ["chat", "request", "editor", "plan_json", "logs"],
    "/approve": ["chat", "editor", "plan_json", "files", "doc", "thumbs", "page", "before_after", "downloads", "logs"],
    "/cancel": ["chat", "editor", "plan_json", "downloads", "logs"],
    "/reset": [
        "chat",
        "request",
        "editor",
        "plan_json",
        "files",
        "doc",
        "thumbs",
        "page",
        "before_after",
        "downloads",
        "logs",
        "sources",
    ],
}
PAGES = ["Page one: the parties.", "Page two: the terms.", "Page three: signatures."]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def text_of(message: dict) -> str:
    content = message["content"]
    if isinstance(content, list):
        return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def value_of(output):
    """An output's value, whether the app sent a plain value or an update (value plus properties)."""
    return output.get("value") if isinstance(output, dict) and output.get("__type__") == "update" else output


def rows_of(result: dict) -> dict:
    return value_of(result["editor"])


def call(client: Client, api: str, *args) -> dict:
    """One endpoint's outputs by name."""
    return dict(zip(OUT[api], client.predict(*args, api_name=api), strict=True))


def ask(client: Client, text: str) -> dict:
    """What the browser does on Send: show the message, then plan it."""
    shown = call(client, "/send", text)
    assert text_of(shown["chat"][-2]) == text, "the message shows before planning"
    return call(client, "/plan")


def session_dirs(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("ui-sessions")
    with pytest.MonkeyPatch.context() as patch:  # run records go to a temp cache, not the user's
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        app = launch(
            "127.0.0.1", free_port(), backend="rules", idle_timeout=600, session_root=root, prevent_thread_lock=True
        )
    yield app, root
    app.close()


def client_for(demo) -> Client:
    return Client(demo.local_url, verbose=False, download_files=os.environ.get("TMPDIR", "/tmp"))


def test_launch_is_local_with_no_share_link_and_no_analytics(app):
    running, root = app
    demo = running.demo
    assert os.environ["GRADIO_ANALYTICS_ENABLED"] == "False"
    assert demo.analytics_enabled is False
    assert demo.share is False and demo.share_url is None
    assert demo.local_url.startswith("http://127.0.0.1:")
    options = launch_options()
    assert options["share"] is False and options["server_name"] == "127.0.0.1"
    assert not any(str(root).startswith(str(p)) for p in demo.allowed_paths)


def test_each_event_updates_only_what_it_changes(app):
    """Send shows the message (no planning), the chained plan step shows no overlay and neither touches
    the viewer; choosing a page updates the page view only."""
    running, _ = app
    config = running.demo.get_config_file()
    names = {c["id"]: c.get("props", {}).get("elem_id") for c in config["components"]}
    events = {d["api_name"]: (i, d) for i, d in enumerate(config["dependencies"]) if d.get("api_name")}

    def outputs(api: str) -> set:
        return {names[o] for o in events[api][1]["outputs"]} - {None}  # None: the session State

    viewer = {"files", "viewer-doc", "thumbs", "page-view", "before-after"}
    send, plan = events["send"], events["plan"]
    assert plan[1]["trigger_after"] == send[0], "planning is chained after the message is shown"
    assert plan[1]["show_progress"] == "hidden" and send[1]["queue"] is False
    assert outputs("send") == {"chat", "request", "approve", "revise", "cancel"}
    assert not outputs("plan") & viewer and "chat" in outputs("plan")
    assert outputs("view_page") == {"page-view"}


def test_upload_plan_edit_approve_download(app, make_pdf):
    demo, _ = app
    client = client_for(demo)
    result = call(client, "/upload", [handle_file(make_pdf(PAGES, name="contract.pdf"))])
    assert "Added contract.pdf (3 pages)" in text_of(result["chat"][-1])
    assert len(result["thumbs"]) == 3 and result["page"]

    result = ask(client, "what does page three say about signatures?")
    answer = text_of(result["chat"][-1])
    assert "Sources:" in answer and "contract.pdf, page 3" in answer, answer
    result = ask(client, "rotate page 9 by 90 degrees")
    assert "out of range" in text_of(result["chat"][-1])

    result = ask(client, "rotate page 2 by 90 degrees")
    assert "Rotate page 2" in " ".join(text_of(m) for m in result["chat"][-2:])
    assert '"rotate_pages"' in result["plan_json"]
    rows = rows_of(result)
    for row in rows["data"]:
        if row[2] == "pages":
            row[3] = "1-2"
    result = call(client, "/approve", rows)
    assert "contract_rotated.pdf" in text_of(result["chat"][-1])
    downloads = [Path(p) for p in result["downloads"]]
    assert [p.name for p in downloads] == ["contract_rotated.pdf", "docpilot-results-1.zip"]
    with pymupdf.open(downloads[0]) as doc:
        assert [p.rotation for p in doc] == [90, 90, 0]
    with zipfile.ZipFile(downloads[1]) as archive:
        assert archive.namelist() == ["contract_rotated.pdf"]
    assert len(value_of(result["before_after"])) == 4
    assert "edited: step 1 rotate_pages: pages 2 → 1-2" in result["logs"]


def test_revise_and_cancel_through_the_api(app, make_pdf):
    demo, _ = app
    client = client_for(demo)
    call(client, "/upload", [handle_file(make_pdf(PAGES, name="memo.pdf"))])
    ask(client, "add a DRAFT watermark")
    result = call(client, "/revise", "also encrypt with password abc123")
    assert "Here is the revised plan" in " ".join(text_of(m) for m in result["chat"][-2:])
    assert '"add_password"' in result["plan_json"] and "abc123" not in result["plan_json"]
    assert "abc123" not in str(result["chat"]) and "abc123" not in str(rows_of(result))
    result = call(client, "/cancel")
    assert "Cancelled" in text_of(result["chat"][-1]) and rows_of(result)["data"] == [] and not result["plan_json"]


def _one_session(demo, path: str, mark: str) -> dict:
    client = client_for(demo)
    call(client, "/upload", [handle_file(path)])
    planned = ask(client, f"add a {mark} watermark")
    result = call(client, "/approve", rows_of(planned))
    return {"client": client, "mark": mark, "downloads": result["downloads"], "chat": result["chat"]}


def test_ten_parallel_sessions_get_only_their_own_results(app, make_pdf):
    demo, root = app
    before = set(session_dirs(root))
    marks = [f"S{i}KIWI" for i in range(10)]
    paths = [make_pdf([f"Document of session {i}."] * 2, name=f"doc{i}.pdf") for i in range(10)]
    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(lambda args: _one_session(demo, *args), zip(paths, marks, strict=False)))
    new_dirs = set(session_dirs(root)) - before
    assert len(new_dirs) == 10, "one private folder per session"
    for i, result in enumerate(results):
        pdf, archive = result["downloads"]
        assert Path(archive).name == "docpilot-results-1.zip"
        assert Path(pdf).name == f"doc{i}_watermarked.pdf", result["chat"][-1]
        with pymupdf.open(pdf) as doc:
            text = doc[0].get_text()
        assert result["mark"] in text and f"session {i}." in text
        assert not any(m in text for m in marks if m != result["mark"])

    # No session can fetch another's files by path, even knowing the exact server path.
    outputs = sorted(str(p) for d in new_dirs for p in (d / "outputs").rglob("*.pdf"))
    inputs = sorted(str(p) for d in new_dirs for p in (d / "inputs").iterdir())
    assert len(outputs) == 10 and len(inputs) == 10
    base = demo.local_url.rstrip("/")
    with httpx.Client() as http:
        for path in outputs[:3] + inputs[:3] + [str(root), "/etc/passwd"]:
            for url in (f"{base}/gradio_api/file={path}", f"{base}/gradio_api/file={path.replace('/', '%2F')}"):
                response = http.get(url)
                assert response.status_code in (403, 404), (url, response.status_code)
                assert b"KIWI" not in response.content
        # the route does serve what the app handed to a session (the positive control)
        own = call(results[0]["client"], "/cancel")["downloads"][0]
        assert Path(own).name == "doc0_watermarked.pdf"


def test_reset_and_idle_timeout_remove_session_files(tmp_path, make_pdf, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "short"
    app = build_app(backend="rules", idle_timeout=2, session_root=root)
    app.demo.launch(**launch_options("127.0.0.1", free_port()), prevent_thread_lock=True, quiet=True)
    try:
        client = client_for(app)
        pdf = make_pdf(PAGES, name="reset.pdf")
        call(client, "/upload", [handle_file(pdf)])
        [folder] = session_dirs(root)
        assert (folder / "inputs" / "reset.pdf").is_file()
        result = call(client, "/reset")
        assert result["chat"] == [] and not folder.exists() and session_dirs(root) == []
        assert result["downloads"] is None and result["thumbs"] in (None, []) and not value_of(result["before_after"])

        call(client, "/upload", [handle_file(pdf)])
        [folder] = session_dirs(root)
        deadline = time.monotonic() + 10
        while folder.exists() and time.monotonic() < deadline:
            time.sleep(0.25)
        assert not folder.exists(), "an idle session's folder is removed after the timeout"
        assert len(app.store) == 0
        result = ask(client, "rotate page 1 by 90 degrees")
        assert "Upload a PDF first" in text_of(result["chat"][-1]), "the expired session starts afresh"
    finally:
        app.close()
