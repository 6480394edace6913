"""The score chart: one line per seat over the decisions of a game, drawn as SVG by the template."""

from __future__ import annotations

WIDTH, HEIGHT, PAD = 600, 240, 30
COLOURS = ("#1f5fa8", "#b8432f", "#2e7d32", "#7b1fa2")


def score_chart(series: list[list[int]], names: list[str]) -> dict:
    """Polyline points for each seat, and the axes' marks, in a WIDTH x HEIGHT box."""
    top = max([20] + [max(scores) for scores in series])
    steps = max(1, len(series) - 1)
    x = lambda i: PAD + (WIDTH - 2 * PAD) * i / steps          # noqa: E731
    y = lambda v: HEIGHT - PAD - (HEIGHT - 2 * PAD) * v / top    # noqa: E731
    lines = []
    for seat, name in enumerate(names):
        points = " ".join(f"{x(i):.1f},{y(scores[seat]):.1f}" for i, scores in enumerate(series))
        lines.append({"name": name, "colour": COLOURS[seat % len(COLOURS)], "points": points,
                      "last": series[-1][seat]})
    marks = [{"value": v, "y": round(y(v), 1)} for v in range(0, top + 1, 5)]
    return {"width": WIDTH, "height": HEIGHT, "pad": PAD, "lines": lines, "marks": marks,
            "turns": steps}
