"""Several server processes on one PostgreSQL, to try the scale-out locally: `python -m tools.cluster -n 2`.

Each process is a plain `python -m app` on its own port (WODI_PORT, WODI_PORT+1, …); put any HTTP load
balancer in front, no sticky sessions needed. With WODI_METRICS_PORT set, each serves `/metrics` on its own metrics
port too (WODI_METRICS_PORT, WODI_METRICS_PORT+1, …), for Prometheus to scrape each process. Ctrl-C or SIGTERM
stops them all. A process that exits is reported and the others keep serving, so `kill -9` of one shows another
taking over its timers and the bots.

A local tool: in production, run one `python -m app` per port under a supervisor that restarts it
(docs/operate/production.md).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

from app.settings import get_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--processes", type=int, default=2)
    args = parser.parse_args()
    settings = get_settings()
    if settings.is_sqlite:
        raise SystemExit("a cluster needs PostgreSQL: set WODI_DATABASE_URL=postgresql+asyncpg://…")
    processes = []
    for index in range(args.processes):
        env = {**os.environ, "WODI_PORT": str(settings.port + index)}
        if settings.metrics_port is not None:
            env["WODI_METRICS_PORT"] = str(settings.metrics_port + index)
        processes.append(subprocess.Popen([sys.executable, "-m", "app"], env=env))
        print(f"process {index + 1}: http://{settings.host}:{settings.port + index}", flush=True)
    signal.signal(signal.SIGTERM, _stop)
    running = dict(enumerate(processes, start=1))
    try:
        while running:
            time.sleep(0.5)
            for index, process in list(running.items()):
                if process.poll() is not None:
                    print(f"process {index} exited with code {process.returncode}; "
                          f"{len(running) - 1} still serving", flush=True)
                    del running[index]
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(15)


def _stop(_signal: int, _frame: object) -> None:
    raise SystemExit(0)  # the `finally` above passes SIGTERM on to every process still running


if __name__ == "__main__":
    main()
