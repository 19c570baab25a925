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

# Positions of the outputs in a client's result (the session State and the buttons are not returned).
CHAT, REQUEST, EDITOR, PLAN_JSON, LOGS, DOWNLOADS, FILES, DOC, THUMBS, PAGE, BEFORE_AFTER = range(11)
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


def rows_of(result: tuple) -> dict:
    return value_of(result[EDITOR])


def session_dirs(root: Path) -> list[Path]:
    return sorted(p for p in root.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("ui-sessions")
    with pytest.MonkeyPatch.context() as patch:  # run records go to a temp cache, not the user's
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        demo = launch("127.0.0.1", free_port(), backend="rules", idle_timeout=600, session_root=root,
                      prevent_thread_lock=True)
    yield demo, root
    demo.close()
    demo.session_store.close_all()


def client_for(demo) -> Client:
    return Client(demo.local_url, verbose=False, download_files=os.environ.get("TMPDIR", "/tmp"))


def test_launch_is_local_with_no_share_link_and_no_analytics(app):
    demo, root = app
    assert os.environ["GRADIO_ANALYTICS_ENABLED"] == "False"
    assert demo.analytics_enabled is False
    assert demo.share is False and demo.share_url is None
    assert demo.local_url.startswith("http://127.0.0.1:")
    options = launch_options()
    assert options["share"] is False and options["server_name"] == "127.0.0.1"
    assert not any(str(root).startswith(str(p)) for p in demo.allowed_paths)


def test_upload_plan_edit_approve_download(app, make_pdf):
    demo, _ = app
    client = client_for(demo)
    result = client.predict([handle_file(make_pdf(PAGES, name="contract.pdf"))], api_name="/upload")
    assert "Added contract.pdf (3 pages)" in text_of(result[CHAT][-1])
    assert len(result[THUMBS]) == 3 and result[PAGE]

    result = client.predict("what does section 3 say?", api_name="/send")
    assert "not available yet" in text_of(result[CHAT][-1])
    result = client.predict("rotate page 9 by 90 degrees", api_name="/send")
    assert "out of range" in text_of(result[CHAT][-1])

    result = client.predict("rotate page 2 by 90 degrees", api_name="/send")
    assert "Rotate page 2" in " ".join(text_of(m) for m in result[CHAT][-2:])
    assert '"rotate_pages"' in result[PLAN_JSON]
    rows = rows_of(result)
    for row in rows["data"]:
        if row[2] == "pages":
            row[3] = "1-2"
    result = client.predict(rows, api_name="/approve")
    assert "contract_rotated.pdf" in text_of(result[CHAT][-1])
    downloads = [Path(p) for p in result[DOWNLOADS]]
    assert [p.name for p in downloads] == ["contract_rotated.pdf", "docpilot-results-1.zip"]
    with pymupdf.open(downloads[0]) as doc:
        assert [p.rotation for p in doc] == [90, 90, 0]
    with zipfile.ZipFile(downloads[1]) as archive:
        assert archive.namelist() == ["contract_rotated.pdf"]
    assert len(value_of(result[BEFORE_AFTER])) == 4
    assert "edited: step 1 rotate_pages: pages 2 → 1-2" in result[LOGS]


def test_revise_and_cancel_through_the_api(app, make_pdf):
    demo, _ = app
    client = client_for(demo)
    client.predict([handle_file(make_pdf(PAGES, name="memo.pdf"))], api_name="/upload")
    client.predict("add a DRAFT watermark", api_name="/send")
    result = client.predict("also encrypt with password abc123", api_name="/revise")
    assert "Here is the revised plan" in " ".join(text_of(m) for m in result[CHAT][-2:])
    assert '"add_password"' in result[PLAN_JSON] and "abc123" not in result[PLAN_JSON]
    assert "abc123" not in str(result[CHAT]) and "abc123" not in str(rows_of(result))
    result = client.predict(api_name="/cancel")
    assert "Cancelled" in text_of(result[CHAT][-1]) and rows_of(result)["data"] == [] and not result[PLAN_JSON]


def _one_session(demo, path: str, mark: str) -> dict:
    client = client_for(demo)
    client.predict([handle_file(path)], api_name="/upload")
    planned = client.predict(f"add a {mark} watermark", api_name="/send")
    result = client.predict(rows_of(planned), api_name="/approve")
    return {"client": client, "mark": mark, "downloads": result[DOWNLOADS], "chat": result[CHAT]}


def test_ten_parallel_sessions_get_only_their_own_results(app, make_pdf):
    demo, root = app
    before = set(session_dirs(root))
    marks = [f"S{i}KIWI" for i in range(10)]
    paths = [make_pdf([f"Document of session {i}."] * 2, name=f"doc{i}.pdf") for i in range(10)]
    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(lambda args: _one_session(demo, *args), zip(paths, marks)))
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
        own = results[0]["client"].predict(None, api_name="/cancel")[DOWNLOADS][0]
        assert Path(own).name == "doc0_watermarked.pdf"


def test_reset_and_idle_timeout_remove_session_files(tmp_path, make_pdf, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "short"
    demo = build_app(backend="rules", idle_timeout=2, session_root=root)
    demo.launch(**launch_options("127.0.0.1", free_port()), prevent_thread_lock=True, quiet=True)
    try:
        client = client_for(demo)
        pdf = make_pdf(PAGES, name="reset.pdf")
        client.predict([handle_file(pdf)], api_name="/upload")
        [folder] = session_dirs(root)
        assert (folder / "inputs" / "reset.pdf").is_file()
        result = client.predict(api_name="/reset")
        assert result[CHAT] == [] and not folder.exists() and session_dirs(root) == []
        assert result[DOWNLOADS] is None and result[THUMBS] in (None, []) and not value_of(result[BEFORE_AFTER])

        client.predict([handle_file(pdf)], api_name="/upload")
        [folder] = session_dirs(root)
        deadline = time.monotonic() + 10
        while folder.exists() and time.monotonic() < deadline:
            time.sleep(0.25)
        assert not folder.exists(), "an idle session's folder is removed after the timeout"
        assert len(demo.session_store) == 0
        result = client.predict("rotate page 1 by 90 degrees", api_name="/send")
        assert "Upload a PDF first" in text_of(result[CHAT][-1]), "the expired session starts afresh"
    finally:
        demo.close()
        demo.session_store.close_all()
