"""The README's figures are the ones the benches wrote (bench/results/*.json), each naming its source."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_readme", ROOT / "bench" / "check_readme.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_readme_figure_is_its_bench_result() -> None:
    checker = _checker()
    readme = (ROOT / "README.md").read_text()
    assert checker.LINK.findall(readme), "the README states its figures as links to bench/results"
    assert checker.problems(readme) == []


def test_a_changed_figure_is_caught() -> None:
    checker = _checker()
    readme = (ROOT / "README.md").read_text()
    shown, path, key = checker.LINK.findall(readme)[0]
    changed = re.sub(r"\d", lambda m: str((int(m.group()) + 1) % 10), shown, count=1)
    edited = readme.replace(f"[{shown}]({path}#{key})", f"[{changed}]({path}#{key})", 1)
    assert any(key in line for line in checker.problems(edited))


def test_a_figure_without_its_source_is_caught() -> None:
    checker = _checker()
    readme = (ROOT / "README.md").read_text()
    heading_end = readme.index("\n", readme.index(checker.SECTION))
    edited = readme[:heading_end] + "\n\nIt is **99% faster** than anything.\n" + readme[heading_end:]
    assert any("no results link" in line for line in checker.problems(edited))


def test_a_blind_first_measurement_is_never_written_again(tmp_path: Path, monkeypatch) -> None:
    spec = importlib.util.spec_from_file_location("results", ROOT / "bench" / "results.py")
    assert spec is not None and spec.loader is not None
    results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(results)
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    first = results.write_result("blind-z9", {"answers": "5/9"}, "python x", label="blind", load=0.0)
    try:
        results.write_result("blind-z9", {"answers": "9/9"}, "python x", label="blind", load=0.0)
    except SystemExit as exc:
        assert "first measurement" in str(exc)
    else:
        raise AssertionError("a second blind figure replaced the first")
    assert '"5/9"' in first.read_text()
    assert results.write_result("blind-z9-tuning", {"answers": "9/9"}, "python x", label="tuning", load=0.0).exists()
