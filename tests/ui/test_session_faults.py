"""Session folders outlive no server (issue L item 4), with real servers killed by SIGKILL.

Each session folder carries a lock its server holds; the kernel drops it when the server dies. A server
starting on a session root removes the folders no live server holds: a killed server's folders are gone
after the next start, and a live server sharing the root keeps its own.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from docpilot.folders import hold_new_folder, is_held
from docpilot.ui.session import SessionStore

ROOT = Path(__file__).resolve().parents[2]
SERVER = """
import sys, threading
from docpilot.ui import launch
app = launch("127.0.0.1", 0 if sys.argv[2] == "0" else int(sys.argv[2]), backend="rules",
             session_root=sys.argv[1], prevent_thread_lock=True, warm=False)
print("URL", app.local_url, flush=True)
threading.Event().wait()
"""


def serve(root: Path, tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """A real `docpilot serve` process on session root ``root``; (process, its URL) once it listens."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(root), str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # gradio says where it runs too; our line comes once it listens
        if line.startswith("URL "):
            return proc, line.split()[1]
    proc.kill()
    proc.wait()
    pytest.fail("the server did not start")


def open_session(url: str) -> Any:
    """What a browser's first message does: the server makes a session (and its folder). The client is
    returned: while it is kept, its web session stays open (a closed one ends its sessions)."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    client.predict("hello", None, api_name="/send")
    return client


def sessions(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")}


def test_a_killed_servers_folders_go_at_the_next_start_and_a_live_servers_stay(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    doomed, doomed_url = serve(root, tmp_path)
    live, live_url = serve(root, tmp_path)
    try:
        clients = [open_session(doomed_url)]
        doomed_folders = sessions(root)
        clients.append(open_session(live_url))
        live_folders = sessions(root) - doomed_folders
        assert len(doomed_folders) == 1 and len(live_folders) == 1
        assert all(is_held(root / name) for name in doomed_folders | live_folders)

        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        assert sessions(root) == doomed_folders | live_folders, "SIGKILL leaves the folders behind"
        assert not any(is_held(root / name) for name in doomed_folders), "but their locks went with the server"

        after, _ = serve(root, tmp_path)  # the next start sweeps the root
        try:
            assert sessions(root) == live_folders, "the killed server's folder is gone, the live one's kept"
        finally:
            after.kill()
            after.wait()
    finally:
        for proc in (doomed, live):
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def test_a_store_sweeps_only_unheld_folders(tmp_path: Path) -> None:
    """The same rule inside one process: a store starting on a root keeps another store's live sessions."""
    root = tmp_path / "root"
    first = SessionStore(root)
    kept = first.create()
    stale = root / "left-by-a-killed-server"  # an unlocked session folder (its lock file remains)
    stale.mkdir()
    (stale / ".lock").touch()
    (stale / "inputs").mkdir()
    half_made = hold_new_folder(root, ".new-")  # a folder another server is making right now
    second = SessionStore(root)
    assert [p.name for p in second.swept] == [stale.name]
    assert kept.folder.is_dir() and half_made.path.is_dir()
    kept_id = kept.id
    first.remove(kept_id)
    assert not kept.folder.exists() and not is_held(root / kept_id)
    half_made.remove()
