"""Running: an approved plan or program executed in the sandbox, and its results delivered.

Owns: compiling a plan into a program over the PDFTools API (``compile``), the executor and its
run records, choosing and delivering the result files (``deliverables``), the one-line message
for the user (``messages``), and direct one-tool calls (``direct``, for ``docpilot call``).
May import: ``docpilot.plans``, ``docpilot.files``, ``docpilot.errors``, ``docpilot.settings``,
``pdftools``, ``sandbox``. Never imports planning or LLM code.
"""
