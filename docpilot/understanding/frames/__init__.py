"""A document's tables as data, and answers computed by short programs over them (issue K).

- :mod:`.values` reads numbers as tables print them, once; :mod:`.model` makes a table a :class:`Frame`
  (a pandas DataFrame with provenance per cell) and combines frames of several files;
- :mod:`.finding` finds frames lazily, on the pages asked for, cached per (file, page);
- :mod:`.schema` describes candidate frames for a model's prompt (≤ 500 tokens);
- :mod:`.checking` holds the allow-list a program must keep to; :mod:`.tracing` finds the cells that decided
  a result; :mod:`.reading` reads a program in plain language;
- :mod:`.composing` writes the program a question means when every word of it is read against a frame;
- :mod:`.running` puts it together: ``answer_with_program(program, frames)``.

Nothing here calls a model: the job loop that asks one for a program calls :func:`schema_text` and
:func:`answer_with_program`. May import: ``pdftools``, ``sandbox``, ``docpilot.errors``, ``docpilot.understanding``.
"""

from docpilot.understanding.frames.checking import check_frame_program, refuse_unless_allowed
from docpilot.understanding.frames.composing import answer_column, compose_program, named_in
from docpilot.understanding.frames.finding import FrameStore, candidate_frames
from docpilot.understanding.frames.model import CellRef, Frame, RawTable, combine_files, frame_of, name_frames
from docpilot.understanding.frames.reading import read_program
from docpilot.understanding.frames.running import ProgramResult, answer_with_program
from docpilot.understanding.frames.schema import schema_text, tokens
from docpilot.understanding.frames.values import Number, read_number, read_scale

__all__ = [
    "CellRef",
    "Frame",
    "FrameStore",
    "Number",
    "ProgramResult",
    "RawTable",
    "answer_column",
    "answer_with_program",
    "candidate_frames",
    "check_frame_program",
    "combine_files",
    "compose_program",
    "named_in",
    "frame_of",
    "name_frames",
    "read_number",
    "read_program",
    "read_scale",
    "refuse_unless_allowed",
    "schema_text",
    "tokens",
]
