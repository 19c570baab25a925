"""Which files a run delivers and under which names; delivery never overwrites and is all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from docpilot.running.deliverables import choose_deliverables, deliver


def _step(i: int, task: str, file: str | list[str], result: str | list[str], **args: str) -> dict:
    key = "files" if isinstance(file, list) else "file"
    return {"id": i, "task": task, "args": {key: file, **args}, "result": result}


def test_intermediate_pdfs_are_not_delivered_and_names_follow_the_upload() -> None:
    steps = [
        _step(1, "redact_text", "/in/contract.pdf", "contract_redacted.pdf"),
        _step(2, "add_watermark", "contract_redacted.pdf", "contract_redacted_watermarked.pdf"),
        _step(3, "convert_to_pptx", "contract_redacted_watermarked.pdf", ["contract_redacted_watermarked.pptx"]),
    ]
    outputs = [
        "/s/contract_redacted.pdf",
        "/s/contract_redacted_watermarked.pdf",
        "/s/contract_redacted_watermarked.pptx",
    ]
    assert choose_deliverables(steps, outputs, ["contract.pdf"]) == [
        ("/s/contract_redacted_watermarked.pdf", "contract_watermarked.pdf"),  # the final document
        ("/s/contract_redacted_watermarked.pptx", "contract_watermarked.pptx"),  # a conversion is a product
    ]


def test_a_named_output_is_delivered_under_its_name_even_when_edited_later() -> None:
    steps = [
        _step(1, "extract_pages", "/in/report.pdf", "summary.pdf", output="summary.pdf"),
        _step(2, "compress", "summary.pdf", "summary_compressed.pdf"),
    ]
    chosen = choose_deliverables(steps, ["/s/summary.pdf", "/s/summary_compressed.pdf"], ["report.pdf"])
    assert chosen == [("/s/summary.pdf", "summary.pdf"), ("/s/summary_compressed.pdf", "report_compressed.pdf")]


def test_two_results_with_one_name_get_a_suffix() -> None:
    steps = [
        _step(1, "rotate_pages", "/in/a.pdf", "a_rotated.pdf"),
        _step(2, "rotate_pages", "/in/a.pdf", "a_rotated.pdf"),
    ]
    chosen = choose_deliverables(steps, ["/s1/a_rotated.pdf", "/s2/a_rotated.pdf"], ["a.pdf"])
    assert [name for _, name in chosen] == ["a_rotated.pdf", "a_rotated-2.pdf"]


def test_deliver_never_overwrites(tmp_path: Path) -> None:
    source = tmp_path / "made.pdf"
    source.write_bytes(b"new")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.pdf").write_bytes(b"the user's own file")
    delivered = deliver([(source, "report.pdf"), (source, "report.pdf")], out)
    assert [Path(p).name for p in delivered] == ["report-2.pdf", "report-3.pdf"]
    assert (out / "report.pdf").read_bytes() == b"the user's own file"


def test_deliver_is_all_or_nothing(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(b"ok")
    out = tmp_path / "new-folder"
    with pytest.raises(FileNotFoundError):
        deliver([good, tmp_path / "missing.pdf"], out)
    assert not out.exists(), "the folder it created is removed with what was already copied"


def test_deliveries_at_the_same_moment_never_overwrite_each_other(tmp_path: Path) -> None:
    """Four deliveries of the same 100 names into one folder at once (threads switching as often as the
    interpreter allows): every file arrives whole under its own name, none replaced by another."""
    import sys
    import threading

    sources = []
    for i in range(4):
        source = tmp_path / f"run{i}.pdf"
        source.write_bytes(f"run {i}".encode())
        sources.append(source)
    out = tmp_path / "out"
    out.mkdir()
    barrier = threading.Barrier(len(sources))
    delivered: list[list[str]] = [[] for _ in sources]

    def run(i: int) -> None:
        barrier.wait()
        delivered[i] = deliver([(sources[i], f"page{n}.pdf") for n in range(100)], out)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(sources))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    names = [Path(p).name for paths in delivered for p in paths]
    assert len(names) == len(set(names)) == 400
    assert sorted(p.name for p in out.iterdir()) == sorted(names)
    for i, paths in enumerate(delivered):
        assert all(Path(p).read_bytes() == f"run {i}".encode() for p in paths), "a file was replaced by another run's"
