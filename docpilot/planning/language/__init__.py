"""DocPilot's tool language: command sentences generated from the tool registry, read back into plans.

The registry carries the words (:mod:`pdftools.words`); :mod:`.forms` compiles each tool's sentence,
:mod:`.sentences` writes plans as sentences and reads sentences into plans, :mod:`.page` renders the
language on one page and :mod:`.grammar` as a llama.cpp grammar for the model's rewrites.
"""

from docpilot.planning.language.sentences import Reading, read_plan, split_sentences, write_plan

__all__ = ["Reading", "read_plan", "write_plan", "split_sentences"]
