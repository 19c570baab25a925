"""Document understanding (issue G): structure, retrieval, answers with page citations, workflows over records.

- :mod:`.structure` reads pages, sections, label/value pairs and passages; :mod:`.tables` reads tables on
  demand; :mod:`.cache` keeps both on disk by file hash (private folder, capped);
- :mod:`.retrieve` ranks units lexically (TF-IDF) and by MiniLM embeddings (FAISS), fused by rank;
- :mod:`.records` and :mod:`.workflow` answer lookups and computations over records by code (FlowMind);
- :mod:`.answer` puts it together: ``answer_question`` / ``ask_files``.
May import: ``pdftools``, ``docpilot.llm`` (prompts and the data rule), ``docpilot.planning.retrieval`` (the
one embedder of the process), ``docpilot.errors``, ``docpilot.settings``.
"""
