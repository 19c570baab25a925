"""Planning: a request and files in, a verified plan (or an LLM-written program) out.

Owns: the deterministic fast path (``fastpath/``), the LLM planner with few-shot retrieval
(``retrieval``), LLM-written programs for requests with logic (``codegen``), the bounded repair
loop they share (``repair``), and the outcome of planning (``outcome``).
May import: ``docpilot.plans``, ``docpilot.llm``, ``docpilot.files``, ``docpilot.errors``, ``pdftools``
(the registry), ``sandbox.checks`` (static checks of written programs).
"""
