"""The garbage collector's share of the server's time: `python -m tools.gc_pauses [--database URL] [--defaults]`.

Spawns the server (`python -m app`) wrapped so that every collection is timed (`gc.callbacks`), plays
`--tables` undercover tables over HTTP (`tools.bench`), stops the server and prints, per generation, how many
collections ran while the tables played, their total and longest time, then one SUMMARY line. `--defaults` runs the
server with Python's own collector settings (thresholds 700/10/10, nothing frozen) instead of the server's
(`app.main`), for the comparison.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.bench import report, run_workers, spawn

REPORT = "WODI_GC_REPORT"  # where the wrapped server writes its figures
MARK = "WODI_GC_MARK"  # a file whose existence means the tables are playing: collections before it are start-up


def serve(defaults: bool) -> None:
    """Run the server with every collection timed; on exit write the ones made while the mark file existed."""
    import app.__main__ as server
    import app.main as settings_of_the_collector

    mark, out = Path(os.environ[MARK]), Path(os.environ[REPORT])
    timed: list[tuple[int, float]] = []
    began = [0.0]

    def timing(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        elif mark.exists():
            timed.append((int(info["generation"]), time.perf_counter() - began[0]))

    def report_when_done() -> None:  # uvicorn ends the process by its signal: report before it is sent
        while not mark.exists():
            time.sleep(0.05)
        while mark.exists():
            time.sleep(0.05)
        out.write_text(json.dumps(timed))

    gc.callbacks.append(timing)
    threading.Thread(target=report_when_done, daemon=True).start()
    if defaults:
        settings_of_the_collector.GC_THRESHOLDS = (700, 10, 10)
        gc.freeze = lambda: None  # type: ignore[method-assign]  # what start-up built stays in view
    server.main()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--database", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--defaults", action="store_true", help="Python's collector settings, not the server's")
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)  # the wrapped server itself
    args = parser.parse_args()
    if args.serve:
        serve(args.defaults)
        return
    folder = Path(tempfile.mkdtemp())
    database = args.database or f"sqlite+aiosqlite:///{folder}/gc.db"
    mark, out = folder / "playing", folder / "gc.json"
    os.environ[MARK], os.environ[REPORT] = str(mark), str(out)
    server = spawn(database, args.port, module=("tools.gc_pauses", "--serve", *(["--defaults"] * args.defaults)))
    try:
        mark.touch()
        figures = run_workers([f"http://127.0.0.1:{args.port}"], args.tables, args.batches, 4)
        mark.unlink()  # the server writes its figures now
        for _ in range(100):
            if out.exists():
                break
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(30)
    timed = [(int(g), float(s)) for g, s in json.loads(out.read_text())]
    print(report(figures, database.split(":", 1)[0], args.tables))
    for generation in range(3):
        times = [s for g, s in timed if g == generation]
        print(f"generation {generation}: {len(times)} collections, {sum(times) * 1000:.0f} ms in all, longest "
              f"{max(times, default=0) * 1000:.1f} ms")
    total = sum(s for _g, s in timed)
    longest = max((s for _g, s in timed), default=0.0)
    settings = "Python's defaults" if args.defaults else "the server's settings"
    print(f"SUMMARY gc {database.split(':', 1)[0]} T={args.tables} x{args.batches} with {settings}: {len(timed)} "
          f"collections, {total * 1000:.0f} ms in all, longest {longest * 1000:.1f} ms, {figures.games} games")
    sys.exit(1 if figures.errors else 0)


if __name__ == "__main__":
    main()
