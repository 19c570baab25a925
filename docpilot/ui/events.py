"""The app's events: each one updates only the components it changes.

A message is shown in the chat at once and planned in a second step (``send`` then ``plan``, chained
with ``.then()``), so the person sees it while the planner works. Sending also turns the plan buttons
off (the plan they would act on is being replaced); the planning step shows "Planning…" in the chat
only, with no progress overlay, and the viewer is never touched. While the request waits for the model
(other sessions' requests are ahead of it) the chat shows its place in the model's line as it moves.
Cancel stops a planning under way, even one still waiting for the model (the model stops within a
moment, see :mod:`docpilot.llm.stopping`), or a run (its sandbox is killed) without waiting for the
session's lock, which the planning or run holds. Handlers lock the person's session for one request
(:meth:`~docpilot.ui.session.SessionStore.use`) and call the plain functions of :mod:`docpilot.ui.actions`.

No ``from __future__ import annotations`` here: gradio reads the handlers' annotations (``gr.Request``,
``gr.Progress``, ``gr.SelectData``) at run time to inject them.
"""

import threading
from collections.abc import Callable, Iterator
from typing import Any

from docpilot.ui import actions
from docpilot.ui.layout import Components
from docpilot.ui.panels import chat_of, render, select_doc, select_page, select_source
from docpilot.ui.session import SessionStore

__all__ = ["wire"]

DRAFT_POLL = 0.2  # seconds between looks at the request under way (its place in the model's line, its draft)

# Planning (and answering) events that may run at once. They wait for the model in its own line, where the chat
# shows each one's place; gradio's default limit (4) would instead hold a fast-path plan, which needs no model,
# in gradio's queue behind four requests waiting for the model. Runs keep the default: each starts a sandbox.
PLANNING_CONCURRENCY = 32

EXPIRED = "Your previous session expired after being idle, and its files were removed. Upload your files again."


def _rows(value: Any) -> list[list[Any]] | None:
    """The editor's rows from whatever the Dataframe (or an API client) sent."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = value.get("data")
    if hasattr(value, "values") and hasattr(value, "columns"):  # a pandas DataFrame
        value = value.values.tolist()
    return [list(row) for row in value or []]


def wire(demo: Any, c: Components, store: SessionStore, pilot: Any) -> None:
    """Connect every event of the app (inside the Blocks context ``demo`` that built ``c``)."""
    import gradio as gr

    chat = [c.state, c.chat]
    plan = [c.editor, c.editor_box, c.plan_json, c.approve, c.revise, c.cancel]
    viewer = [c.files_md, c.doc, c.thumbs, c.page, c.before_after]
    results = [c.downloads]
    logs = [c.logs]

    def values(session: Any, outputs: list[Any], clear_box: bool = False) -> tuple[Any, ...]:
        """The values of ``outputs`` for ``session`` (None: a reset app), in their order."""
        view = render(session, pilot, pictures=any(o in outputs for o in viewer)) if session else render(None, pilot)
        pending = bool(view.pending)
        planning = session is not None and session.waiting is not None  # Cancel stops the planning
        table = {
            c.state: session.id if session is not None else None,
            c.chat: view.chat,
            c.request: gr.update(value="") if clear_box else gr.update(),
            c.editor: gr.update(value=view.rows or None),
            c.editor_box: gr.update(visible=bool(view.rows)),
            c.plan_json: view.plan_json,
            c.approve: gr.update(interactive=pending),
            c.revise: gr.update(interactive=pending),
            c.cancel: gr.update(interactive=pending or planning),
            c.files_md: view.files_md,
            c.doc: gr.update(choices=view.docs, value=view.doc),
            c.thumbs: view.thumbs or None,
            c.page: view.page,
            c.before_after: gr.update(value=view.before_after or None, visible=bool(view.before_after)),
            c.downloads: view.downloads or None,
            c.logs: view.logs,
            c.sources: gr.update(choices=view.sources, value=view.source, visible=bool(view.sources)),
        }
        return tuple(table[o] for o in outputs)

    def act(
        sid: str | None, request: Any, work: Callable[[Any], object], outputs: list[Any], clear_box: bool = False
    ) -> tuple[Any, ...]:
        owner = getattr(request, "session_hash", None)
        with store.use(sid, owner) as (session, expired):
            if expired:
                session.say("assistant", EXPIRED)
            actions.safely(session, lambda: work(session))
            return values(session, outputs, clear_box)

    def on_upload(files: list[str] | None, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return (*act(sid, request, lambda s: actions.handle_upload(s, files), [*chat, *viewer, *logs]), None)

    buttons = [c.approve, c.revise, c.cancel]

    def on_send(text: str, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, lambda s: actions.add_message(s, text), [*chat, c.request, *buttons], clear_box=True)

    def streamed(
        sid: str | None, request: Any, work: Callable[[Any], object], outputs: list[Any], clear_box: bool = False
    ) -> Iterator[tuple[Any, ...]]:
        """``act`` on a worker thread (the session's lock stays on that one thread), the chat shown again each
        time the request's place in the model's line moves or the answer being written grows; then every
        output once it is done."""
        box: dict[str, Any] = {}

        def run() -> None:
            def tracked(session: Any) -> object:
                box["session"] = session
                return work(session)

            try:
                box["values"] = act(sid, request, tracked, outputs, clear_box)
            except BaseException as exc:  # noqa: BLE001 - raised again on the event's own thread
                box["error"] = exc

        worker = threading.Thread(target=run, name="docpilot-respond", daemon=True)
        worker.start()
        shown: tuple[Any, Any] = (None, None)
        while worker.is_alive():
            worker.join(DRAFT_POLL)
            session = box.get("session")
            live = (session.queued, session.draft) if session is not None else (None, None)
            if session is not None and live != shown and worker.is_alive():
                shown = live
                yield tuple(chat_of(session) if o is c.chat else gr.skip() for o in outputs)
        if "error" in box:
            raise box["error"]
        yield box["values"]

    def on_plan(sid: str | None, request: gr.Request) -> Iterator[tuple[Any, ...]]:
        yield from streamed(sid, request, lambda s: actions.respond(pilot, s), [*chat, *plan, *logs, c.sources])

    def on_revise(text: str, sid: str | None, request: gr.Request) -> Iterator[tuple[Any, ...]]:
        yield from streamed(
            sid,
            request,
            lambda s: actions.handle_revise(pilot, s, text),
            [*chat, c.request, *plan, *logs],
            clear_box=True,
        )

    def on_approve(
        rows: Any,
        sid: str | None,
        request: gr.Request,
        progress: gr.Progress = gr.Progress(),  # noqa: B008 (gradio injects it)
    ) -> tuple[Any, ...]:
        report = lambda fraction, text: progress(fraction, desc=text)  # noqa: E731
        return act(
            sid,
            request,
            lambda s: actions.approve(pilot, s, _rows(rows), report),
            [*chat, *plan, *viewer, *results, *logs],
        )

    def on_cancel(sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        outputs = [*chat, *plan, *results, *logs]
        # Planning and runs hold the session's lock: stop them without the lock; their own event then says so.
        if actions.stop_planning(store.get(sid)):
            return tuple(gr.skip() for _ in outputs)
        return act(sid, request, actions.cancel, outputs)

    everything = [*chat, c.request, *plan, *viewer, *results, *logs, c.sources]

    def on_reset(sid: str | None) -> tuple[Any, ...]:
        store.remove(sid)
        return values(None, everything, clear_box=True)

    def on_doc(label: str | None, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, lambda s: select_doc(s, label), [c.state, *viewer])

    def on_page(sid: str | None, evt: gr.SelectData, request: gr.Request) -> tuple[Any, ...]:
        index = evt.index if isinstance(evt.index, int) else None
        return act(sid, request, lambda s: select_page(s, index), [c.state, c.page])

    def on_source(label: str | None, sid: str | None, request: gr.Request) -> tuple[Any, ...]:
        return act(sid, request, lambda s: select_source(s, label), [c.state, *viewer, c.sources])

    def on_unload(request: gr.Request) -> None:
        store.remove_owner(getattr(request, "session_hash", None))

    c.upload.upload(on_upload, [c.upload, c.state], [*chat, *viewer, *logs, c.upload], api_name="upload")
    gr.on(
        [c.send.click, c.request.submit],
        on_send,
        [c.request, c.state],
        [*chat, c.request, *buttons],
        api_name="send",
        queue=False,
    ).then(
        on_plan,
        [c.state],
        [*chat, *plan, *logs, c.sources],
        api_name="plan",
        show_progress="hidden",
        concurrency_limit=PLANNING_CONCURRENCY,
    )
    c.revise.click(
        on_revise,
        [c.request, c.state],
        [*chat, c.request, *plan, *logs],
        api_name="revise",
        concurrency_limit=PLANNING_CONCURRENCY,
    )
    c.approve.click(on_approve, [c.editor, c.state], [*chat, *plan, *viewer, *results, *logs], api_name="approve")
    c.cancel.click(on_cancel, [c.state], [*chat, *plan, *results, *logs], api_name="cancel")
    c.reset.click(on_reset, [c.state], everything, api_name="reset")
    c.doc.input(on_doc, [c.doc, c.state], [c.state, *viewer], api_name="view_doc")
    c.thumbs.select(on_page, [c.state], [c.state, c.page], api_name="view_page")
    c.sources.input(on_source, [c.sources, c.state], [c.state, *viewer, c.sources], api_name="view_source")
    demo.unload(on_unload)
