"""The app server bench/load.py drives: started in its own process as ``make serve`` starts it, asked what
it has loaded, sampled for memory, stopped.

    python bench/load.py --serve PORT --root DIR     (what :class:`Server` runs; not for use by hand)

The server process answers on stdout, on lines starting with ``LOADBENCH ``: once when it is ready (its URL,
its backend, its pid), and to "report" on stdin with the models loaded in it
(``docpilot.llm.local_backend.loaded_models()``) and the calls holding or waiting for the model; "quit" stops it.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

__all__ = ["Server", "serve"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SAY = "LOADBENCH "  # the server's lines for the bench start with this


def _say(message: dict[str, Any]) -> None:
    print(SAY + json.dumps(message), flush=True)


def serve(port: int, root: Path) -> int:
    """The app as ``docpilot serve`` starts it; answers "report" on stdin with what is loaded, stops on "quit"."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    from docpilot.llm.local_backend import loaded_models, queued_calls
    from docpilot.ui import launch

    app = launch("127.0.0.1", port, session_root=root, prevent_thread_lock=True)
    _say({"ready": app.local_url, "backend": app.pilot.pilot.planner.llm_name, "pid": os.getpid()})
    for line in sys.stdin:
        if line.strip() == "report":
            models = [{"model": Path(path).name, "n_ctx": n_ctx} for path, n_ctx in loaded_models()]
            _say({"loaded_models": models, "queued_calls": queued_calls()})
        elif line.strip() == "quit":
            break
    app.close()
    return 0


class Server:
    """The server process: started, asked, sampled for memory, stopped."""

    def __init__(self, root: Path, log: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "load.py"), "--serve", str(port), "--root", str(root)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
            env={**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONPATH": str(ROOT)},
        )
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.peak_mb = self.peak_with_children_mb = 0.0
        self._sampling = threading.Event()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(SAY):
                self.messages.put(json.loads(line[len(SAY) :]))

    def next_message(self, timeout: float) -> dict[str, Any]:
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            tail = self.log.read_text()[-3000:]
            raise SystemExit(f"the server did not answer within {timeout:.0f} s; its log ends:\n{tail}") from None

    def ask(self, command: str, timeout: float = 60) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.next_message(timeout)

    def sample_memory(self, every: float = 0.25) -> None:
        """Sample the server's RSS (and with its children, the sandboxes) on a thread until :meth:`stop`."""
        import psutil

        process = psutil.Process(self.process.pid)

        def sample() -> None:
            while not self._sampling.wait(every):
                try:
                    own = process.memory_info().rss
                    children = 0
                    for child in process.children(recursive=True):
                        try:
                            children += child.memory_info().rss
                        except psutil.Error:
                            pass
                except psutil.Error:
                    return
                self.peak_mb = max(self.peak_mb, own / 2**20)
                self.peak_with_children_mb = max(self.peak_with_children_mb, (own + children) / 2**20)

        threading.Thread(target=sample, daemon=True).start()

    def high_water_mb(self) -> float:
        """The kernel's record of the process's peak RSS (VmHWM): no peak between samples is missed."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return -1.0

    def stop(self) -> None:
        self._sampling.set()
        try:
            self.ask("quit", timeout=1)
        except (SystemExit, OSError):
            pass
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
