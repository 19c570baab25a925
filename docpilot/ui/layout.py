"""The app's layout: every component built once into a :class:`Components` object (no events here).

``build_layout()`` must run inside a ``gr.Blocks`` context; :mod:`docpilot.ui.events` wires the events.
No ``from __future__ import annotations``: gradio reads annotations at run time elsewhere in the app.
"""

from dataclasses import dataclass
from typing import Any

__all__ = ["Components", "HEADERS", "build_layout"]

DESCRIPTION = (
    "# DocPilot\nUpload PDFs, say what to do with them, read the plan, approve it, download the results. "
    "Everything stays on this machine."
)
HEADERS = ["Step", "Tool", "Parameter", "Value"]


@dataclass
class Components:
    """Every component of the app, by role."""

    state: Any
    upload: Any
    files_md: Any
    doc: Any
    thumbs: Any
    page: Any
    before_after: Any
    chat: Any
    request: Any
    send: Any
    approve: Any
    revise: Any
    cancel: Any
    reset: Any
    editor_box: Any
    editor: Any
    plan_json: Any
    downloads: Any
    logs: Any
    sources: Any


def build_layout(idle_timeout: float, on_expire: Any) -> Components:
    """The panels: files and viewer on the left; chat, buttons, plan editor, results and logs on the right."""
    import gradio as gr

    state = gr.State(None, time_to_live=idle_timeout, delete_callback=on_expire)
    gr.Markdown(DESCRIPTION)
    with gr.Row(equal_height=False):
        with gr.Column(scale=5):
            upload = gr.File(
                label="Upload PDFs (and images)",
                file_count="multiple",
                type="filepath",
                file_types=[".pdf", "image"],
                elem_id="upload",
                height=120,
            )
            files_md = gr.Markdown(elem_id="files")
            doc = gr.Dropdown(label="Show", choices=[], elem_id="viewer-doc", interactive=True)
            thumbs = gr.Gallery(
                label="Pages", columns=6, height=180, allow_preview=False, elem_id="thumbs", buttons=["fullscreen"]
            )
            page = gr.Image(
                label="Page",
                type="filepath",
                interactive=False,
                height=480,
                elem_id="page-view",
                buttons=["download", "fullscreen"],
            )
            before_after = gr.Gallery(
                label="Before / after (changed pages)",
                columns=2,
                height=320,
                elem_id="before-after",
                visible=False,
                buttons=["fullscreen"],
            )
        with gr.Column(scale=6):
            chat = gr.Chatbot(
                label="DocPilot", height=440, elem_id="chat", feedback_options=None, buttons=["copy", "copy_all"]
            )
            sources = gr.Radio(
                label="Sources of the answer: open one to see its page with the quote highlighted",
                choices=[],
                visible=False,
                elem_id="sources",
            )
            request = gr.Textbox(
                show_label=False,
                elem_id="request",
                lines=1,
                max_lines=4,
                placeholder="What should I do? e.g. add a DRAFT watermark and encrypt it with the password abc123",
            )
            with gr.Row():
                send = gr.Button("Send", variant="primary", elem_id="send", min_width=70)
                approve = gr.Button("Approve", variant="primary", interactive=False, elem_id="approve", min_width=70)
                revise = gr.Button("Revise", interactive=False, elem_id="revise", min_width=70)
                cancel = gr.Button("Cancel", interactive=False, elem_id="cancel", min_width=70)
                reset = gr.Button("Reset", variant="stop", elem_id="reset", min_width=70)
            with gr.Accordion(
                "Plan editor: change a value, then Approve", open=True, visible=False, elem_id="plan-editor-box"
            ) as editor_box:
                editor = gr.Dataframe(
                    headers=HEADERS,
                    datatype="str",
                    type="array",
                    interactive=True,
                    static_columns=[0, 1, 2],
                    column_count=4,
                    wrap=True,
                    elem_id="plan-editor",
                    show_label=False,
                    buttons=["fullscreen"],
                )
            with gr.Accordion("Exact plan (JSON)", open=False):
                plan_json = gr.Code(language="json", interactive=False, elem_id="plan-json", buttons=["copy"])
            downloads = gr.File(
                label="Results", file_count="multiple", interactive=False, elem_id="downloads", height=140
            )
            with gr.Accordion("Logs", open=False):
                logs = gr.Textbox(show_label=False, lines=12, max_lines=40, interactive=False, elem_id="logs")
    return Components(
        state,
        upload,
        files_md,
        doc,
        thumbs,
        page,
        before_after,
        chat,
        request,
        send,
        approve,
        revise,
        cancel,
        reset,
        editor_box,
        editor,
        plan_json,
        downloads,
        logs,
        sources,
    )
