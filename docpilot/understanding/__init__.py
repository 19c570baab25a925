"""Document understanding (issue G; empty for now).

Will own: document structure (sections, tables, figures, label/value pairs) cached per file,
retrieval over it, answers with page citations, entities as targets, and summaries.
May import: ``pdftools``, ``docpilot.llm`` (through the narrow backend interface), ``docpilot.files``,
``docpilot.errors``, ``docpilot.settings``.
"""
