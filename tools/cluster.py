"""Several server processes on one PostgreSQL, to try the scale-out locally: `python -m tools.cluster -n 2`.

Each process is a plain `python -m app` on its own port (WODI_PORT, WODI_PORT+1, …); put any HTTP load
balancer in front, no sticky sessions needed. With WODI_METRICS_PORT set, each serves `/metrics` on its own metrics
port too (WODI_METRICS_PORT, WODI_METRICS_PORT+1, …), for Prometheus to scrape each process. Ctrl-C stops them all.
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
    try:
        while all(p.poll() is None for p in processes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(15)


if __name__ == "__main__":
    main()
