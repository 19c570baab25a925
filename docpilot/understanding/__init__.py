"""Document understanding (issue G): structure, retrieval, answers with page citations, workflows over records.

- :mod:`.structure` reads pages, sections, label/value pairs and passages; :mod:`.tables` reads tables on
  demand; :mod:`.cache` keeps both on disk by file hash (private folder, capped);
- :mod:`.retrieve` ranks units lexically (TF-IDF) and by MiniLM embeddings (FAISS), fused by rank;
- :mod:`.records` and :mod:`.workflow` answer lookups and computations over records by code (FlowMind);
- :mod:`.answer` puts it together: ``answer_question`` / ``ask_files``;
- :mod:`.frames` (issue K): tables as pandas frames with provenance per cell, and answers computed by a short
  checked program run in the sandbox (``answer_with_program``), citing the cells that decided them.
May import: ``pdftools``, ``sandbox`` (frames programs run there), ``docpilot.llm`` (prompts and the data rule),
``docpilot.planning.retrieval`` (the one embedder of the process), ``docpilot.errors``, ``docpilot.settings``.
"""
