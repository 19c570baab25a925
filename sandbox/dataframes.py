"""Programs over data: tables handed to a run as pandas DataFrames, and what the program computed handed back.

A run may carry ``frames`` ({name: :func:`pack_frame` output}, plain JSON): the worker rebuilds them as
DataFrames under those names in the program's namespace, beside ``tools`` and ``FILES``. A program may be
instrumented by its caller with calls to :data:`WATCH` (``_watch(k, expression)``): each returns its value
unchanged and records a JSON summary of it under ``k`` — for a DataFrame its row labels and columns, for a
Series its row labels and values, for anything else the value — so the caller can tell which rows and
columns a result came from without running anything itself. ``k = 0`` marks the program's answer, kept in
full (up to :data:`MAX_VALUES` rows). Nothing here knows what the tables mean.

pandas is imported in the serving process before a worker forks (:func:`warm_pandas`), with the lazy imports
of the operations programs use done once there, so a worker that may not read Python's folders never needs to.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["WATCH", "MAX_LABELS", "MAX_VALUES", "pack_frame", "unpack_frames", "Watch", "warm_pandas"]

WATCH = "_watch"  # the name the watch has in the program's namespace
MAX_LABELS = 5000  # row labels recorded per watched value
MAX_VALUES = 500  # values recorded per watched Series, and rows of the answer


def pack_frame(frame: Any) -> dict[str, Any]:
    """A DataFrame as plain JSON: its columns (as text), which are numeric, and its rows (NaN as None)."""
    columns = [str(c) for c in frame.columns]
    numeric = [str(dtype).startswith(("float", "int")) for dtype in frame.dtypes]
    rows = [[_plain(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    return {"columns": columns, "numeric": numeric, "rows": rows}


def unpack_frames(packed: Mapping[str, Any]) -> dict[str, Any]:
    """The DataFrames of a run's ``frames`` (row labels 0..n-1; numeric columns as float64, the others as text)."""
    import pandas as pd

    frames = {}
    for name, data in packed.items():
        frame = pd.DataFrame(data["rows"], columns=data["columns"])
        for column, numeric in zip(data["columns"], data["numeric"], strict=True):
            frame[column] = frame[column].astype("float64" if numeric else object)
        frames[str(name)] = frame
    return frames


class Watch:
    """``watch(k, value)`` → value, recording a summary of it under ``k`` (see the module doc)."""

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    def __call__(self, key: int, value: Any) -> Any:
        try:
            self.seen[str(key)] = summary(value, full=key == 0)
        except Exception as exc:  # noqa: BLE001 - a value that cannot be summarised is reported, never fatal
            self.seen[str(key)] = {"type": "other", "kind": type(value).__name__, "error": str(exc)[:200]}
        return value

    def report(self) -> dict[str, Any]:
        return self.seen


def summary(value: Any, full: bool = False) -> dict[str, Any]:
    """What a watched value was: a frame's row labels and columns, a Series' labels and values, a list, a scalar."""
    import numpy as np
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        out: dict[str, Any] = {
            "type": "frame",
            "rows": [_plain(v) for v in value.index[:MAX_LABELS]],
            "count": len(value),
            "columns": [str(c) for c in value.columns],
        }
        if full:
            out["values"] = [[_plain(v) for v in row] for row in value.head(MAX_VALUES).itertuples(index=False)]
        return out
    if isinstance(value, pd.Series):
        return {
            "type": "series",
            "rows": [_plain(v) for v in value.index[:MAX_LABELS]],
            "count": len(value),
            "name": None if value.name is None else str(value.name),
            "bool": str(value.dtype) == "bool",
            "values": [_plain(v) for v in value.head(MAX_VALUES if full else MAX_LABELS).tolist()],
        }
    if isinstance(value, (pd.Index, np.ndarray, list, tuple)):
        items = list(value)
        return {"type": "list", "count": len(items), "values": [_plain(v) for v in items[:MAX_VALUES]]}
    if value is None or isinstance(value, (bool, int, float, str, np.generic)):
        return {"type": "scalar", "value": _plain(value)}
    return {"type": "other", "kind": type(value).__name__}


def _plain(value: Any) -> Any:
    """A JSON value: numpy scalars as Python numbers, NaN as None, anything else as its text."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (ValueError, TypeError):
            return str(value)
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def warm_pandas() -> None:
    """Import pandas and run the operations programs use once, so every lazy import happens here, before a
    worker that may not read Python's folders is forked."""
    import pandas as pd

    frame = pd.DataFrame({"a": ["x", "y", "z"], "b": [1.0, float("nan"), 3.0], "c": [4.0, 5.0, 6.0]})
    watch = Watch()
    mask = frame["a"].str.contains("x", case=False, na=False) | frame["a"].str.startswith("y") & ~frame["b"].isna()
    results = [
        frame[mask],
        frame.loc[frame["b"].idxmax(), "a"],
        frame.iloc[0, 1],
        frame.at[0, "a"],
        frame.iat[0, 0],
        frame.sort_values("b", ascending=False).head(2),
        frame.nlargest(2, "c"),
        frame["c"].nsmallest(1),
        frame[["b", "c"]].sum(),
        frame["b"].mean() + frame["c"].median() - frame["c"].min() * frame["c"].max() / frame["c"].count(),
        frame["c"].round(1).abs().tolist(),
        frame["a"].unique(),
        frame["a"].nunique(),
        frame["a"].isin(["x"]).sum(),
        frame["b"].notna(),
        frame.tail(1),
        (frame["c"] - frame["b"]).idxmin(),
        frame["c"] ** 2 // 2 % 3,
        frame.sum(axis=1, numeric_only=True),
    ]
    for index, value in enumerate(results):
        watch(index, value)
        repr(value)
