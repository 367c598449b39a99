"""The page of a benchmark run (`/benchmark/<id>`): its report drawn as inline SVG, server-side (no script, no
network), in the page's languages; `?format=json` answers what `GET /api/benchmarks/{id}` does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.api.deps import RuntimeDep
from app.api.pages import _not_found, _page
from app.protocol.errors import ApiError
from app.services.platform import benchmark_reads as reads

router = APIRouter(include_in_schema=False)
W, ROW, PAD, LABEL = 320.0, 34.0, 16.0, 92.0


def _x(value: float, low: float, high: float) -> float:
    """A value's x on the plot's axis from `low` to `high`."""
    return round(LABEL + (value - low) / (high - low) * (W - LABEL - PAD), 1)


def rate_rows(rows: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Win rates with their intervals, one row each, on a 0–100 % axis."""
    drawn = []
    for i, (name, rate) in enumerate(rows):
        y = PAD + i * ROW + ROW / 2
        interval = rate.get("interval")
        drawn.append({"name": name, "y": round(y, 1), "games": rate["games"], "wins": rate["wins"],
                      "rate": rate["win_rate"], "bar": _x(rate["win_rate"] or 0.0, 0, 1) - LABEL,
                      "low": _x(interval[0], 0, 1) if interval else None,
                      "high": _x(interval[1], 0, 1) if interval else None})
    return {"width": W, "height": PAD * 2 + ROW * len(rows), "left": LABEL, "rows": drawn,
            "ticks": [{"x": _x(v, 0, 1), "label": f"{int(v * 100)}%"} for v in (0, 0.5, 1)]}


def delta_plot(duplicate: dict[str, Any]) -> dict[str, Any]:
    """The duplicate delta and its interval on a −1…+1 axis."""
    interval, delta = duplicate.get("interval"), duplicate.get("delta")
    return {"width": W, "height": 48.0, "zero": _x(0, -1, 1), "left": LABEL,
            "point": _x(delta, -1, 1) if delta is not None else None,
            "low": _x(interval[0], -1, 1) if interval else None, "high": _x(interval[1], -1, 1) if interval else None,
            "ticks": [{"x": _x(v, -1, 1), "label": f"{v:+.0f}" if v else "0"} for v in (-1, 0, 1)]}


def cost_plot(view: dict[str, Any]) -> dict[str, Any] | None:
    """Tokens per game of the agent's played games, as bars (None when it reported no usage)."""
    games = [p for p in view["report"].get("per_game", []) if p.get("tokens")]
    if not games:
        return None
    most = max(p["tokens"] for p in games)
    step = (W - LABEL - PAD) / len(games)
    return {"width": W, "height": 90.0, "left": LABEL, "most": most,
            "bars": [{"x": round(LABEL + i * step, 1), "w": round(max(step - 2, 1), 1),
                      "h": round(70 * p["tokens"] / most, 1), "y": round(80 - 70 * p["tokens"] / most, 1),
                      "won": p["won"]} for i, p in enumerate(games)]}


@router.get("/benchmark/{benchmark_id}", response_class=HTMLResponse)
async def benchmark_page(benchmark_id: str, request: Request, runtime: RuntimeDep) -> Response:
    try:
        view = await reads.view(runtime, benchmark_id)
    except ApiError as exc:
        if exc.code != "benchmark_not_found" or request.query_params.get("format") == "json":
            raise
        return _not_found(request, "not_found_benchmark", id=benchmark_id)
    if request.query_params.get("format") == "json":
        return JSONResponse(view)
    report = view["report"]
    sides = rate_rows([(side, rate) for side, rate in report["sides"].items()])
    overall = rate_rows([("agent", report["overall"]), ("reference", report["reference"])])
    return _page(request, "benchmark.html", game=view["game"], bench=view, report=report, sides=sides,
                 overall=overall, delta=delta_plot(report["duplicate"]), cost=cost_plot(view))
