"""The Gradio web app: wiring only. What each button does lives in ui_logic / ui_panels (no gradio there).

Sessions: ``gr.State`` holds a session id; the :class:`~docpilot.ui.session.SessionStore`
holds the session (its private folder, files, plan, chat). A session ends on Reset,
when its tab closes (``demo.unload``) or after ``idle_timeout`` seconds without a
request (the State's time-to-live and the store's own sweep); its folder goes with it.
Session folders are never in gradio's ``allowed_paths``: downloads and pictures
reach the browser only as copies gradio makes in its cache for that response.

No ``from __future__ import annotations`` here: gradio reads the handlers' annotations
(``gr.Request``, ``gr.Progress``, ``gr.SelectData``) at run time to inject them.
"""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["build_app", "launch", "launch_options"]

DEFAULT_IDLE_TIMEOUT = 1800.0
DESCRIPTION = ("# DocPilot\nUpload PDFs, say what to do with them, read the plan, approve it, download the results. "
               "Everything stays on this machine.")


def _no_analytics() -> None:
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def _check_root(root: Path) -> None:
    """Gradio hands out files only from the temp dir or the working dir (not from allowed_paths, on purpose)."""
    resolved = root.expanduser().resolve()
    for base in (Path(tempfile.gettempdir()).resolve(), Path.cwd().resolve()):
        if resolved == base or base in resolved.parents:
            return
    raise ValueError(f"session_root {root} must be inside the temp folder ({tempfile.gettempdir()}) "
                     "or the working folder, so the app can hand out results without exposing the folder.")


def build_app(pilot_factory: Callable[[], Any] | None = None, backend: str | None = None,
              idle_timeout: float = DEFAULT_IDLE_TIMEOUT, session_root: str | Path | None = None,
              concurrency: int = 4) -> Any:
    """The app's Blocks. ``pilot_factory`` builds the DocPilot service (default: ``make_planner(backend)``)."""
    _no_analytics()
    import gradio as gr

    from pdftools import all_tools

    from docpilot import ui_logic as logic
    from docpilot.ui.session import SessionStore, default_root
    from docpilot.ui.panels import render, select_doc, select_page
    from docpilot.plans.edit import HEADERS

    if pilot_factory is None:
        def pilot_factory() -> Any:
            from docpilot.service import DocPilot
            from docpilot.planning.wiring import make_planner

            return DocPilot(make_planner(backend, os.environ))

    root = Path(session_root) if session_root else default_root()
    _check_root(root)
    store = SessionStore(root, idle_timeout)
    pilot = logic.SerialPilot(pilot_factory())
    tools = all_tools()

    def outputs(session: Any, clear_box: bool = False) -> tuple[Any, ...]:
        view = render(session, tools)
        buttons = [gr.update(interactive=view.pending) for _ in range(3)]
        return (session.id if session is not None else None, view.chat,
                gr.update(value="") if clear_box else gr.update(),
                gr.update(value=view.rows or None), view.plan_json, view.logs, view.downloads or None,
                view.files_md, gr.update(choices=view.docs, value=view.doc), view.thumbs or None, view.page,
                gr.update(value=view.before_after or None, visible=bool(view.before_after)), *buttons,
                gr.update(visible=bool(view.rows)))

    def act(sid: str | None, request: Any, work: Callable[[Any], None], clear_box: bool = False) -> tuple[Any, ...]:
        owner = getattr(request, "session_hash", None)
        with store.use(sid, owner) as (session, expired):
            if expired:
                session.say("assistant", "Your previous session expired after being idle, and its files were "
                                         "removed. Upload your files again.")
            logic.safely(session, lambda: work(session))
            return outputs(session, clear_box)

    def progress_of(progress: Any) -> logic.Report:
        return lambda fraction, text: progress(fraction, desc=text)

    def on_upload(files: list[str] | None, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return (*act(sid, request, lambda s: logic.handle_upload(s, files)), None)

    def on_send(text: str, sid: str | None, request: gr.Request,
                progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:  # noqa: B008 (gradio injects it)
        return act(sid, request, lambda s: logic.handle_message(pilot, s, text, progress_of(progress)), True)

    def on_revise(text: str, sid: str | None, request: gr.Request,
                  progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:  # noqa: B008 (gradio injects it)
        return act(sid, request, lambda s: logic.handle_revise(pilot, s, text, progress_of(progress)), True)

    def on_approve(rows: Any, sid: str | None, request: gr.Request,
                   progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:  # noqa: B008 (gradio injects it)
        return act(sid, request, lambda s: logic.approve(pilot, s, _rows(rows), progress_of(progress), tools))

    def on_cancel(sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, logic.cancel)

    def on_reset(sid: str | None) -> tuple[Any, ...]:
        store.remove(sid)
        return outputs(None, clear_box=True)

    def on_doc(label: str | None, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, lambda s: select_doc(s, label))

    def on_page(sid: str | None, evt: gr.SelectData, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, lambda s: select_page(s, evt.index if isinstance(evt.index, int) else None))

    def on_unload(request: gr.Request) -> None:
        store.remove_owner(getattr(request, "session_hash", None))

    sweep = max(10, min(600, int(idle_timeout / 2)))
    with gr.Blocks(title="DocPilot", analytics_enabled=False,
                   delete_cache=(sweep, int(max(idle_timeout, 300)))) as demo:
        state = gr.State(None, time_to_live=idle_timeout, delete_callback=store.remove)
        gr.Markdown(DESCRIPTION)
        with gr.Row(equal_height=False):
            with gr.Column(scale=5):
                upload = gr.File(label="Upload PDFs (and images)", file_count="multiple", type="filepath",
                                 file_types=[".pdf", "image"], elem_id="upload", height=120)
                files_md = gr.Markdown(elem_id="files")
                doc = gr.Dropdown(label="Show", choices=[], elem_id="viewer-doc", interactive=True)
                thumbs = gr.Gallery(label="Pages", columns=6, height=180, allow_preview=False, elem_id="thumbs",
                                    buttons=["fullscreen"])
                page = gr.Image(label="Page", type="filepath", interactive=False, height=480, elem_id="page-view",
                                buttons=["download", "fullscreen"])
                before_after = gr.Gallery(label="Before / after (changed pages)", columns=2, height=320,
                                          elem_id="before-after", visible=False, buttons=["fullscreen"])
            with gr.Column(scale=6):
                chat = gr.Chatbot(label="DocPilot", height=440, elem_id="chat", feedback_options=None,
                                  buttons=["copy", "copy_all"])
                request = gr.Textbox(show_label=False, elem_id="request", lines=1, max_lines=4,
                                     placeholder="What should I do? e.g. add a DRAFT watermark and encrypt it "
                                                 "with the password abc123")
                with gr.Row():
                    send = gr.Button("Send", variant="primary", elem_id="send", min_width=70)
                    approve = gr.Button("Approve", variant="primary", interactive=False, elem_id="approve",
                                        min_width=70)
                    revise = gr.Button("Revise", interactive=False, elem_id="revise", min_width=70)
                    cancel = gr.Button("Cancel", interactive=False, elem_id="cancel", min_width=70)
                    reset = gr.Button("Reset", variant="stop", elem_id="reset", min_width=70)
                with gr.Accordion("Plan editor: change a value, then Approve", open=True, visible=False,
                                  elem_id="plan-editor-box") as editor_box:
                    editor = gr.Dataframe(headers=HEADERS, datatype="str", type="array", interactive=True,
                                          static_columns=[0, 1, 2], column_count=4, wrap=True,
                                          elem_id="plan-editor", show_label=False, buttons=["fullscreen"])
                with gr.Accordion("Exact plan (JSON)", open=False):
                    plan_json = gr.Code(language="json", interactive=False, elem_id="plan-json",
                                        buttons=["copy"])
                downloads = gr.File(label="Results", file_count="multiple", interactive=False, elem_id="downloads",
                                    height=140)
                with gr.Accordion("Logs", open=False):
                    logs = gr.Textbox(show_label=False, lines=12, max_lines=40, interactive=False, elem_id="logs")

        out = [state, chat, request, editor, plan_json, logs, downloads, files_md, doc, thumbs, page,
               before_after, approve, revise, cancel, editor_box]
        upload.upload(on_upload, [upload, state], [*out, upload], api_name="upload")
        gr.on([send.click, request.submit], on_send, [request, state], out, api_name="send")
        revise.click(on_revise, [request, state], out, api_name="revise")
        approve.click(on_approve, [editor, state], out, api_name="approve")
        cancel.click(on_cancel, [state], out, api_name="cancel")
        reset.click(on_reset, [state], out, api_name="reset")
        doc.input(on_doc, [doc, state], out, api_name="view_doc")
        thumbs.select(on_page, [state], out, api_name="view_page")
        demo.unload(on_unload)
    demo.queue(default_concurrency_limit=concurrency)
    demo.session_store = store
    return demo


def _rows(value: Any) -> list[list[Any]] | None:
    """The editor's rows from whatever the Dataframe (or an API client) sent."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("data")
    if hasattr(value, "values") and hasattr(value, "columns"):  # a pandas DataFrame
        value = value.values.tolist()
    return [list(row) for row in value or []]


def launch_options(host: str = "127.0.0.1", port: int = 7860) -> dict[str, Any]:
    """The keyword arguments ``launch`` gives gradio: local only, no share link, no analytics."""
    return {"server_name": host, "server_port": port, "share": False, "show_error": False,
            "max_file_size": "200mb", "allowed_paths": []}


def launch(host: str = "127.0.0.1", port: int = 7860, backend: str | None = None, *,
           idle_timeout: float = DEFAULT_IDLE_TIMEOUT, session_root: str | Path | None = None,
           prevent_thread_lock: bool = False) -> Any:
    """Start the app locally: no analytics, no share link. Returns the running Blocks."""
    _no_analytics()
    demo = build_app(backend=backend, idle_timeout=idle_timeout, session_root=session_root)
    try:
        demo.launch(**launch_options(host, port), prevent_thread_lock=prevent_thread_lock)
    finally:
        if not prevent_thread_lock:  # the server has stopped: no session outlives it
            demo.session_store.close_all()
    return demo
