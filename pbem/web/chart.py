"""The score chart: one line per seat over the decisions of a game, drawn as SVG by the template.

The plot has axes (scores up the left, decisions along the bottom, with their marks and
titles); the legend is not in the plot at all but a list beside it, in playing order, so it
can never hide a line (issue 17, B5).
"""

from __future__ import annotations

WIDTH, HEIGHT = 600, 250
LEFT, RIGHT, TOP, BOTTOM = 54, 16, 14, 52     # margins around the plot: marks and axis titles
COLOURS = ("#1f5fa8", "#b8432f", "#2e7d32", "#7b1fa2")


def nice_step(span: int, most: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 … putting at most `most` marks on 0..span."""
    step, factor = 1, 1
    while True:
        for base in (1, 2, 5):
            step = base * factor
            if span // step + 1 <= most:
                return step
        factor *= 10


def score_chart(series: list[list[int]], names: list[str], order: list[int] | None = None) -> dict:
    """Polyline points for each seat, the axes and their marks, in a WIDTH x HEIGHT box; the
    legend in `order` (playing order; seat order when not given)."""
    order = list(range(len(names))) if order is None else order
    y_step = nice_step(max([1] + [max(scores) for scores in series]), 6)
    top = max(y_step, -(-max([1] + [max(scores) for scores in series]) // y_step) * y_step)
    steps = max(1, len(series) - 1)
    x_step = nice_step(steps, 11)
    plot = {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM}
    x = lambda i: LEFT + (WIDTH - LEFT - RIGHT) * i / steps          # noqa: E731
    y = lambda v: HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * v / top   # noqa: E731
    lines = []
    for seat in order:
        points = " ".join(f"{x(i):.1f},{y(scores[seat]):.1f}" for i, scores in enumerate(series))
        lines.append({"seat": seat, "name": names[seat], "colour": COLOURS[seat % len(COLOURS)],
                      "points": points, "last": series[-1][seat]})
    marks = [{"value": v, "y": round(y(v), 1)} for v in range(0, top + 1, y_step)]
    ticks = [{"value": i, "x": round(x(i), 1)} for i in range(0, steps + 1, x_step)]
    return {"width": WIDTH, "height": HEIGHT, "plot": plot, "lines": lines, "marks": marks,
            "ticks": ticks, "turns": steps, "pad": LEFT}
