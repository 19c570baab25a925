"""Fuzzed files (issue L): seeded mutants of corpus PDFs through the upload path, five tools and ``docpilot run``.

    .venv/bin/python bench/fuzz.py [--count 500] [--seed 1] [--run-every 1] [--corpus ../shared/corpus]
    .venv/bin/python bench/fuzz.py --sample          # the fixed sample tests/test_fuzz_sample.py runs
    .venv/bin/python bench/fuzz.py --only 17 --keep /tmp/m   # one mutant again, kept for a look

Mutants (``bench/fuzz_mutate.py``) are made from corpus PDFs of at most 30 pages: byte flips, random bursts,
truncation, xref damage, huge object counts, deep nesting, broken streams, decompression bombs and a 50,000 x
50,000 pixel image. Each goes through what the app does with a file: the upload path (``inspect_files``, the
checked open), then ``count_pages``, ``extract_text``, ``redact_text``, ``compress`` and ``convert_to_png`` on page
1 as ``docpilot call`` runs them (``service.call_tool``: a scratch folder in the output folder, outputs delivered
by renaming), in a worker process with the sandbox's memory limit (3 GB address space) that is restarted after a
crash or a hang; and one ``docpilot run`` (rules backend) as a new process.

Every outcome must be a result or a ``PdfToolError`` (a ``DocPilotError`` for ``run``) with a message; anything
else is an unexpected exception. A hang is an operation taking more than 5x its time on the unmutated file plus
10 s; a crash is the worker or the run process dying. Each operation gets a fresh output folder, and the whole
temporary root (input folder, working folder, TMPDIR, HOME, cache) is listed before and after: a file that
appears outside that output folder is an outside write (run records in the cache's ``docpilot/runs`` are where
the contract puts them and are not counted). A mutant PyMuPDF or qpdf can repair (opens, page 1's text reads) is
counted as repairable, and tools that refuse it are reported. Counts go to ``bench/results/fuzz.json``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import hashlib
import json
import os
import random
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = Path(os.environ.get("DOCPILOT_SHARED", ROOT.parent / "shared"))

OPS: list[tuple[str, dict[str, Any]]] = [
    ("inspect", {}),
    ("count_pages", {}),
    ("extract_text", {}),
    ("redact_text", {"terms": ["the"]}),
    ("compress", {}),
    ("convert_to_png", {"pages": "1"}),
]
RUN_REQUEST = "Add page numbers and a DRAFT watermark"
MEMORY_MB = 3072  # the sandbox's own limit (sandbox/runner.py Limits.memory_mb)
HANG_FACTOR, HANG_SLACK = 5.0, 10.0
SAMPLE_SOURCES = ["unstructured__fake-memo.pdf", "docling__bookmark_sample.pdf"]


# ---------------------------------------------------------------- the worker (one process, many operations)


def worker() -> None:
    """Read one job a line on stdin, run it, answer one JSON line on the reply pipe (the original stdout)."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the replies
    sys.stdout = sys.stderr
    from docpilot import service
    from docpilot.errors import DocPilotError
    from docpilot.files import inspect_files
    from pdftools.errors import PdfToolError

    for line in sys.stdin:
        job = json.loads(line)
        started = time.perf_counter()
        reply: dict[str, Any] = {"outcome": "result"}
        try:
            if job["op"] == "probe":
                reply["repairable"] = _probe(job["file"], job["scratch"])
            elif job["op"] == "inspect":
                info = inspect_files([job["file"]])[Path(job["file"]).name]
                if info.problem:
                    reply.update(outcome="error", type="FileInfo.problem", message=info.problem)
                else:
                    reply["value"] = {"pages": info.pages, "encrypted": info.encrypted}
            else:
                result = service.call_tool(job["op"], job["args"], [job["file"]], job["out"])
                reply["value"] = len(result["outputs"]) if result["outputs"] else str(result["value"])[:80]
        except (PdfToolError, DocPilotError) as exc:
            reply.update(outcome="error", type=type(exc).__name__, message=str(exc))
        except Exception as exc:  # noqa: BLE001 - what the bench looks for
            reply.update(
                outcome="unexpected",
                type=f"{type(exc).__module__}.{type(exc).__name__}",
                message=str(exc)[:300],
                traceback=traceback.format_exc()[-1500:],
            )
        reply["seconds"] = round(time.perf_counter() - started, 3)
        replies.write(json.dumps(reply, default=str) + "\n")
        replies.flush()


def _probe(file: str, scratch: str) -> str | None:
    """'pymupdf' or 'qpdf' when that library can repair the file (it opens and page 1's text reads), else None."""
    import pymupdf

    def readable(path: str) -> bool:
        try:
            with pymupdf.open(path, filetype="pdf") as doc:
                if doc.needs_pass or doc.page_count == 0:
                    return False
                doc[0].get_text()
                return True
        except Exception:  # noqa: BLE001 - any failure means "not repairable by it"
            return False

    if readable(file):
        return "pymupdf"
    target = str(Path(scratch) / "qpdf-repaired.pdf")
    try:
        done = subprocess.run(["qpdf", file, target], capture_output=True, timeout=30)
        return "qpdf" if done.returncode in (0, 3) and readable(target) else None
    except (OSError, subprocess.TimeoutExpired):
        return None
    finally:
        Path(target).unlink(missing_ok=True)


# ---------------------------------------------------------------- the parent: worker control, snapshots


def _limit_memory(mb: int) -> Any:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


class Worker:
    """The worker process: restarted after it dies or hangs."""

    def __init__(self, env: dict[str, str], cwd: Path, log: Path, memory_mb: int) -> None:
        self.env, self.cwd, self.log, self.memory_mb = env, cwd, log, memory_mb
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.restarts = 0

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None:
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.log.open("ab"),
                cwd=self.cwd,
                env=self.env,
                preexec_fn=_limit_memory(self.memory_mb),
            )
            self.buffer = b""
        return self.proc

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            self.restarts += 1

    def ask(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        proc = self._start()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps(job) + "\n").encode())
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                return {"outcome": "hang", "seconds": round(timeout, 1)}
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = proc.wait()
                    self.proc = None
                    self.restarts += 1
                    return {"outcome": "crash", "type": f"exit {code}", "message": _died(code)}
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def _died(code: int) -> str:
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exited with {code}"


def _snapshot(root: Path, skip: list[Path]) -> set[str]:
    found = set()
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = [d for d in dirs if here / d not in skip]
        found.update(str(here / f) for f in files)
    return found


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- sources and the bench


def sources(corpus: Path, max_pages: int, only: list[str] | None, max_bytes: int = 0) -> list[tuple[Path, bool]]:
    """(path, encrypted) of the corpus PDFs of at most ``max_pages`` pages (and ``max_bytes`` bytes, if given)."""
    out = []
    manifest = corpus / "real" / "MANIFEST.tsv"
    with manifest.open(newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if int(row["pages"]) <= max_pages:
                out.append((corpus / "real" / row["filename"], row["encrypted"] == "y"))
    import pymupdf

    for path in sorted((corpus / "synthetic").glob("*.pdf")):
        with pymupdf.open(path) as doc:
            if doc.page_count <= max_pages:
                out.append((path, bool(doc.needs_pass)))
    if only:
        out = [s for s in out if s[0].name in only]
    if max_bytes:
        out = [s for s in out if s[0].stat().st_size <= max_bytes]
    return out


def _run_docpilot(file: Path, out: Path, env: dict[str, str], cwd: Path, timeout: float) -> dict[str, Any]:
    command = [sys.executable, "-m", "docpilot", "run", RUN_REQUEST, str(file), "--out", str(out), "--yes", "--json"]
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            timeout=timeout,
            preexec_fn=_limit_memory(MEMORY_MB + 1024),
        )
    except subprocess.TimeoutExpired:
        return {"outcome": "hang", "seconds": round(timeout, 1)}
    seconds = round(time.perf_counter() - started, 3)
    try:
        result = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        result = None
    if proc.returncode < 0:
        return {"outcome": "crash", "type": f"exit {proc.returncode}", "message": _died(proc.returncode)}
    if "Traceback" in proc.stderr or result is None or proc.returncode not in (0, 1, 3):
        return {
            "outcome": "unexpected",
            "type": f"exit {proc.returncode}",
            "message": (proc.stderr or proc.stdout)[-300:],
            "seconds": seconds,
        }
    if result.get("ok"):
        return {"outcome": "result", "value": len(result.get("outputs") or []), "seconds": seconds}
    if result.get("question"):
        return {"outcome": "question", "message": result["question"].get("text"), "seconds": seconds}
    error = result.get("error") or ""
    return {"outcome": "error" if error else "unexpected", "type": "run", "message": error, "seconds": seconds}


def _baseline(worker: Worker, src: Path, root: Path, run: bool, env: dict[str, str]) -> dict[str, float]:
    """Seconds each operation takes on the unmutated file (the hang bound is 5x this plus 10 s)."""
    copy = root / "in" / f"base_{src.name}"
    shutil.copyfile(src, copy)
    times = {}
    for op, op_args in OPS:
        out = root / "out" / f"base-{op}"
        reply = worker.ask({"op": op, "args": op_args, "file": str(copy), "out": str(out)}, 600)
        times[op] = float(reply.get("seconds", 60))
        shutil.rmtree(out, ignore_errors=True)
    if run:
        out = root / "out" / "base-run"
        times["run"] = float(_run_docpilot(copy, out, env, root / "cwd", 600).get("seconds", 60))
        shutil.rmtree(out, ignore_errors=True)
    copy.unlink()
    return times


def bench(args: argparse.Namespace) -> dict[str, Any]:
    from fuzz_mutate import MUTATORS, STRUCTURAL, flip, mutate

    started = time.perf_counter()
    root = Path(tempfile.mkdtemp(prefix="docpilot-fuzz-"))
    root.chmod(0o755)  # the sandbox's worker runs as nobody and reads its copies under TMPDIR
    for name in ("in", "out", "cwd", "tmp", "home", "cache", "scratch"):
        (root / name).mkdir()
    (root / "tmp").chmod(0o1777)
    records_dir = root / "cache" / "docpilot" / "runs"  # run records: the contract puts them here
    env = dict(os.environ)
    env.update(
        TMPDIR=str(root / "tmp"),
        HOME=str(root / "home"),
        XDG_CACHE_HOME=str(root / "cache"),
        DOCPILOT_BACKEND="rules",
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    )
    worker = Worker(env, root / "cwd", root / "worker.log", args.memory_mb)
    pool = sources(args.corpus, args.max_pages, SAMPLE_SOURCES if args.sample else None, args.max_bytes)
    plain = [s for s in pool if not s[1]]
    baselines: dict[Path, dict[str, float]] = {}
    records = []
    indices = [args.only] if args.only is not None else range(args.count)
    try:
        for i in indices:
            kind = MUTATORS[i % len(MUTATORS)]
            rng = random.Random(f"{args.seed}:{i}")
            src = rng.choice(plain if kind in STRUCTURAL else pool)[0]
            try:
                data, what = mutate(kind, src, rng)
            except Exception as exc:  # noqa: BLE001 - a mutator that cannot apply falls back to flips
                data, what = flip(src.read_bytes(), rng)[0], f"flips ({kind} failed: {exc})"
            with_run = args.run_every > 0 and i % args.run_every == 0
            if src not in baselines or (with_run and "run" not in baselines[src]):
                baselines[src] = _baseline(worker, src, root, with_run, env)
            mutant = root / "in" / f"m{i:04d}_{src.stem[:40]}.pdf"
            mutant.write_bytes(data)
            if args.keep:
                Path(args.keep).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(mutant, Path(args.keep) / mutant.name)
            digest = _sha(mutant)
            record: dict[str, Any] = {"i": i, "source": src.name, "mutator": kind, "what": what, "bytes": len(data)}
            probe = worker.ask({"op": "probe", "file": str(mutant), "scratch": str(root / "scratch")}, 120)
            record["repairable"] = probe.get("repairable")
            if probe["outcome"] != "result":
                record["probe"] = probe["outcome"]
            ops: dict[str, dict[str, Any]] = {}
            for op, op_args in [*OPS, *([("run", {})] if with_run else [])]:
                out = root / "out" / f"{i}-{op}"
                skip = [out, records_dir]
                before = _snapshot(root, skip)
                bound = HANG_FACTOR * baselines[src][op] + HANG_SLACK
                if op == "run":
                    reply = _run_docpilot(mutant, out, env, root / "cwd", bound)
                else:
                    reply = worker.ask({"op": op, "args": op_args, "file": str(mutant), "out": str(out)}, bound)
                reply["outside"] = sorted(str(Path(p).relative_to(root)) for p in _snapshot(root, skip) - before)
                shutil.rmtree(out, ignore_errors=True)
                ops[op] = reply
            record["ops"] = ops
            record["input_modified"] = _sha(mutant) != digest
            mutant.unlink()
            records.append(record)
            bad = [f"{op}:{r['outcome']}" for op, r in ops.items() if r["outcome"] in ("unexpected", "hang", "crash")]
            print(f"[{i}] {kind:<13} {src.name[:38]:<38} {what[:40]:<40} {' '.join(bad)}", file=sys.stderr, flush=True)
    finally:
        worker.stop()
        shutil.rmtree(root, ignore_errors=True)
    summary = summarise(records, worker.restarts - 1, time.perf_counter() - started)
    summary["settings"] = {
        "seed": args.seed,
        "count": len(records),
        "run_every": args.run_every,
        "max_pages": args.max_pages,
        "max_bytes": args.max_bytes or None,
        "sources": len(pool),
        "memory_mb": args.memory_mb,
        "hang_bound": f"{HANG_FACTOR:g}x the unmutated file's time + {HANG_SLACK:g} s",
        "run_request": RUN_REQUEST,
        "tool_args": {op: a for op, a in OPS if op != "inspect"},
    }
    return summary


def summarise(records: list[dict[str, Any]], restarts: int, wall: float) -> dict[str, Any]:
    outcomes: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    error_types: collections.Counter[str] = collections.Counter()
    messages: collections.Counter[str] = collections.Counter()
    problems: dict[str, list[dict[str, Any]]] = {"unexpected": [], "hang": [], "crash": []}
    outside, refused, no_message = [], collections.Counter(), 0
    for record in records:
        name = f"m{record['i']:04d}_{Path(record['source']).stem[:40]}.pdf"
        for op, reply in record["ops"].items():
            outcome = reply["outcome"]
            outcomes[op][outcome] += 1
            where = {"i": record["i"], "op": op, "mutator": record["mutator"], "what": record["what"]}
            if outcome in problems:
                problems[outcome].append(
                    {**where, "type": reply.get("type"), "message": reply.get("message"), "at": _where(reply)}
                )
            if outcome == "error":
                error_types[f"{op}: {reply.get('type')}"] += 1
                message = str(reply.get("message") or "")
                no_message += not message.strip()
                messages[message.replace(name, "FILE")[:140]] += 1
                if record["repairable"] and reply.get("type") in ("NotAPdfError", "FileInfo.problem"):
                    refused[op] += 1
            if reply.get("outside"):
                outside.append({**where, "files": reply["outside"][:5]})
    mutators = collections.Counter(r["mutator"] for r in records)
    repairable = collections.Counter(str(r["repairable"]) for r in records)
    return {
        "mutants": len(records),
        "unexpected_exceptions": len(problems["unexpected"]),
        "hangs": len(problems["hang"]),
        "crashes": len(problems["crash"]),
        "outside_writes": len(outside),
        "inputs_modified": sum(r["input_modified"] for r in records),
        "errors_without_message": no_message,
        "operations": sum(len(r["ops"]) for r in records),
        "outcomes": {op: dict(c) for op, c in outcomes.items()},
        "mutators": dict(mutators),
        "repairable": {"pymupdf": repairable["pymupdf"], "qpdf": repairable["qpdf"], "no": repairable["None"]},
        "repairable_refused_at_open": dict(refused),
        "error_types": dict(error_types.most_common()),
        "common_messages": dict(messages.most_common(25)),
        "problems": problems,
        "outside_write_examples": outside[:20],
        "worker_restarts": restarts,
        "wall_seconds": round(wall, 1),
    }


def _where(reply: dict[str, Any]) -> str:
    """The innermost project frame of an unexpected exception's traceback."""
    lines = [line.strip() for line in str(reply.get("traceback", "")).splitlines() if line.strip().startswith("File")]
    ours = [line for line in lines if "site-packages" not in line and "/lib/python3" not in line]
    return (ours or lines or [""])[-1][-160:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=500, help="how many mutants (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run-every", type=int, default=1, help="`docpilot run` on every Nth mutant (0: none)")
    parser.add_argument("--corpus", type=Path, default=SHARED / "corpus")
    parser.add_argument("--max-pages", type=int, default=30)
    parser.add_argument("--max-bytes", type=int, default=0, help="only sources of at most this size (0: any)")
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB)
    parser.add_argument("--only", type=int, help="run mutant number N alone")
    parser.add_argument("--keep", help="copy the mutants into this folder")
    parser.add_argument("--sample", action="store_true", help="the fixed sample of make test (18 mutants)")
    parser.add_argument("--no-write", action="store_true", help="print the figures only (no bench/results file)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if args.sample:
        args.count, args.run_every, args.no_write = 18, 9, True
    sys.path.insert(0, str(HERE))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped bench still removes its folder
    summary = bench(args)
    if not args.no_write and args.only is None:
        sys.path.insert(0, str(HERE))
        from results import write_result

        path = write_result("fuzz", summary, " ".join(["python", "bench/fuzz.py", *sys.argv[1:]]))
        print(f"results: {path}", file=sys.stderr)
    short = {k: summary[k] for k in ("mutants", "unexpected_exceptions", "hangs", "crashes", "outside_writes")}
    print(json.dumps(short), file=sys.stderr)
    print(json.dumps(summary, default=str))
    bad = summary["unexpected_exceptions"] + summary["hangs"] + summary["crashes"] + summary["outside_writes"]
    return 1 if bad or summary["inputs_modified"] else 0


if __name__ == "__main__":
    sys.exit(main())
