"""The web app. For now: run one tool on uploaded files (the chat arrives with issue D)."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

__all__ = ["build_app", "launch"]


def _run_tool(tool: str, args_json: str, files: list[str] | None) -> tuple[list[str], str]:
    import gradio as gr

    from pdftools.errors import PdfToolError

    from .direct import call_tool_on_files

    if not files:
        raise gr.Error("Upload a file first.")
    try:
        args = json.loads(args_json or "{}")
    except json.JSONDecodeError as exc:
        raise gr.Error(f"The arguments are not valid JSON: {exc}") from None
    out_dir = tempfile.mkdtemp(prefix="docpilot-ui-")
    try:
        result = call_tool_on_files(tool, args, list(files), out_dir)
    except PdfToolError as exc:
        raise gr.Error(str(exc)) from None
    value = json.dumps(result["value"], indent=2, ensure_ascii=False) if result["value"] is not None else ""
    return result["outputs"], value


def build_app() -> Any:
    import gradio as gr

    from pdftools import all_tools

    tools = all_tools()
    with gr.Blocks(title="DocPilot") as app:
        gr.Markdown("# DocPilot\nRun a PDF tool on your files. Everything stays on this machine.")
        files = gr.File(label="Files", file_count="multiple", type="filepath")
        tool = gr.Dropdown(choices=list(tools), value="count_pages", label="Tool")
        doc = gr.Markdown(tools["count_pages"].doc_text().replace("\n", "  \n"))
        args = gr.Textbox(label="Arguments (JSON)", value="{}")
        run = gr.Button("Run", variant="primary")
        outputs = gr.File(label="Results", file_count="multiple")
        value = gr.Code(label="Value", language="json")
        tool.change(lambda name: tools[name].doc_text().replace("\n", "  \n"), tool, doc)
        run.click(_run_tool, [tool, args, files], [outputs, value])
    return app


def launch(host: str = "127.0.0.1", port: int = 7860) -> None:
    """Start the app locally: no analytics, no share link."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    build_app().launch(server_name=host, server_port=port, share=False)
