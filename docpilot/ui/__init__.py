"""The Gradio web app: the layout (:mod:`.layout`) and the events (:mod:`.events`) over plain functions
(:mod:`.actions`, :mod:`.approve`, :mod:`.panels`) that call the service; no gradio outside those two.

Sessions: ``gr.State`` holds a session id; the :class:`~docpilot.ui.session.SessionStore` holds the
session (its private folder, files, conversation, chat). A session ends on Reset, when its tab closes
(``demo.unload``) or after ``idle_timeout`` seconds without a request (the State's time-to-live and the
store's own sweep); its folder goes with it. Session folders are never in gradio's ``allowed_paths``:
downloads and pictures reach the browser only as copies gradio makes in its cache for that response.
"""

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["App", "build_app", "launch", "launch_options"]

DEFAULT_IDLE_TIMEOUT = 1800.0


@dataclass
class App:
    """The running parts of the app: gradio's Blocks, the store of live sessions, and the service."""

    demo: Any
    store: Any
    pilot: Any = None

    @property
    def local_url(self) -> str | None:
        return getattr(self.demo, "local_url", None)

    def close(self) -> None:
        """Stop the server and remove every session's folder."""
        self.demo.close()
        self.store.close_all()


def _no_analytics() -> None:
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def _check_root(root: Path) -> None:
    """Gradio hands out files only from the temp dir or the working dir (not from allowed_paths, on purpose)."""
    resolved = root.expanduser().resolve()
    for base in (Path(tempfile.gettempdir()).resolve(), Path.cwd().resolve()):
        if resolved == base or base in resolved.parents:
            return
    raise ValueError(
        f"session_root {root} must be inside the temp folder ({tempfile.gettempdir()}) "
        "or the working folder, so the app can hand out results without exposing the folder."
    )


def build_app(
    pilot_factory: Callable[[], Any] | None = None,
    backend: str | None = None,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    session_root: str | Path | None = None,
    concurrency: int = 4,
    limits: Any = None,
) -> App:
    """The app: its Blocks and session store. ``pilot_factory`` builds the service (default: from ``backend``);
    ``limits``: the uploads' size and page limits (default: from ``DOCPILOT_MAX_UPLOAD_MB``/``_PAGES``)."""
    from docpilot.files import UploadLimits

    limits = limits or UploadLimits.from_env()  # a bad setting is reported before anything starts
    _no_analytics()
    import gradio as gr

    from docpilot import service
    from docpilot.settings import Settings
    from docpilot.ui.actions import SharedPilot
    from docpilot.ui.events import wire
    from docpilot.ui.layout import build_layout
    from docpilot.ui.session import SessionStore, default_root

    if pilot_factory is None:

        def pilot_factory() -> Any:
            return service.make_pilot(Settings.from_env(backend))

    root = Path(session_root) if session_root else default_root()
    _check_root(root)
    store = SessionStore(root, idle_timeout, limits=limits)
    pilot = SharedPilot(pilot_factory())
    sweep = max(10, min(600, int(idle_timeout / 2)))
    with gr.Blocks(
        title="DocPilot", analytics_enabled=False, delete_cache=(sweep, int(max(idle_timeout, 300)))
    ) as demo:
        components = build_layout(idle_timeout, store.remove)
        wire(demo, components, store, pilot)
    demo.queue(default_concurrency_limit=concurrency)
    return App(demo, store, pilot)


def launch_options(host: str = "127.0.0.1", port: int = 7860, max_mb: float = 200) -> dict[str, Any]:
    """The keyword arguments ``launch`` gives gradio: local only, no share link, no analytics; gradio itself
    refuses uploads over ``max_mb`` (the session's own limit, which says what to do, applies below it)."""
    return {
        "server_name": host,
        "server_port": port,
        "share": False,
        "show_error": False,
        "max_file_size": f"{max_mb:g}mb",
        "allowed_paths": [],
    }


def _warm(app: App) -> None:
    import logging
    import time

    from docpilot.errors import DocPilotError

    log = logging.getLogger("docpilot.ui")
    started = time.perf_counter()
    try:
        done = app.pilot.warm()
    except DocPilotError as exc:  # the first request reports it to the person
        log.warning("could not prepare the model: %s", exc)
        return
    if done:
        print(f"docpilot: ready in {time.perf_counter() - started:.0f} s ({'; '.join(done)})", flush=True)


def launch(
    host: str = "127.0.0.1",
    port: int = 7860,
    backend: str | None = None,
    *,
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    session_root: str | Path | None = None,
    prevent_thread_lock: bool = False,
    warm: bool = True,
) -> App:
    """Start the app locally: no analytics, no share link. Returns the running app.

    With ``warm`` the model and the example index are made ready before the server takes requests:
    the static prompt prefix is read once (or restored from the disk cache in about a second), so a
    person's first request does not pay for it, and Cancel never waits behind it.
    """
    _no_analytics()
    app = build_app(backend=backend, idle_timeout=idle_timeout, session_root=session_root)
    if warm:
        _warm(app)
    try:
        options = launch_options(host, port, max(200, 2 * app.store.limits.max_mb))
        app.demo.launch(**options, prevent_thread_lock=prevent_thread_lock)
    finally:
        if not prevent_thread_lock:  # the server has stopped: no session outlives it
            app.store.close_all()
    return app
