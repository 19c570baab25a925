"""Plans: the Plan model, its verification (with page counts), and its explanation in plain language.

Owns: ``Plan``/``Step`` (the flat plan of tool calls), the verifier that collects every problem of
a plan, the page count of each step's result, the plain-language explanation of plans and of
LLM-written programs, and applying a person's edits to a plan's arguments.
May import: ``pdftools`` (the registry: tool facts), ``docpilot.files``, ``docpilot.errors``.
Never imports LLM code (``docpilot.llm``) or the stages that use plans (planning, running).
"""
