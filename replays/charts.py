"""Charts as SVG, drawn on the server: no script, no library, no CDN.

Every chart is 360 units wide, the width of a phone's screen, and scales with its box (CSS gives it 100% of its
column), so its 11-unit labels read at 11 px on a 390 px phone and larger on a laptop. Colours are presentation
attributes (the site's content security policy allows no inline style). Names are escaped; each chart carries
a title for screen readers. Labels come translated from the caller.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rules.svg import SEAT_COLOURS

WIDTH = 360
LEFT = 30  # room for the y axis' numbers
RIGHT = 8
FONT = 11
INK = "#1d2430"
MUTED = "#6b7280"
GRID = "#e5e7eb"
# Sources, purposes and causes of cards, and anything else drawn by category: distinct under common colour blindness
# (Okabe and Ito's palette), then greys.
CATEGORY_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000", "#999999")


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else "#d6d3d1"


def _svg(height: float, title: str, body: list[str], test_id: str) -> SafeString:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height:.0f}" role="img" '
        f'aria-label="{escape(title)}" data-testid="{escape(test_id)}" font-size="{FONT}" '
        f'font-family="system-ui, sans-serif"><title>{escape(title)}</title>'
    )
    return mark_safe(head + "".join(body) + "</svg>")  # noqa: S308 (built here, every text escaped)


def _text(x: float, y: float, text: Any, anchor: str = "start", fill: str = INK, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{extra}>{escape(str(text))}</text>'


def _legend(y: float, entries: Sequence[tuple[str, str]]) -> tuple[list[str], float]:
    """Two entries a row (one when a label is long), a swatch before each: returns the parts and the new bottom."""
    parts = []
    columns = 1 if any(len(label) > 22 for label, _ in entries) else 2
    column_width = (WIDTH - LEFT) / columns
    for i, (label, colour) in enumerate(entries):
        x = LEFT + (i % columns) * column_width
        row_y = y + (i // columns) * 16
        parts.append(f'<rect x="{x:.1f}" y="{row_y - 9:.1f}" width="10" height="10" rx="2" fill="{colour}"/>')
        parts.append(_text(x + 14, row_y, label))
    rows = (len(entries) + columns - 1) // columns
    return parts, y + rows * 16


def _scale(low: float, high: float) -> tuple[float, float, float]:
    """Round bounds and a round step between them, at most 6 steps: (bottom, top, step)."""
    span = max(high - low, 1e-9)
    for step in (0.5, 1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 2000, 5000):
        bottom, top = math.floor(low / step) * step, math.ceil(high / step) * step
        if (top - bottom) / step <= 6 and top > bottom:
            return bottom, top, step
    return low, low + span, span


def _nice_top(value: float) -> float:
    return _scale(0, max(value, 1))[1]


def _y_axis(bottom: float, top: float, step: float, plot_top: float, plot_bottom: float) -> list[str]:
    parts = []
    count = round((top - bottom) / step)
    for i in range(count + 1):
        value = bottom + step * i
        y = plot_bottom - (plot_bottom - plot_top) * i / count
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        label = f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"
        parts.append(_text(LEFT - 4, y + 4, label, "end", MUTED))
    return parts


def line_chart(
    title: str,
    series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]],
    x_label: str,
    test_id: str,
) -> SafeString:
    """Lines over a common x axis: `series` is (label, colour, [(x, y), ...]) each."""
    plot_top, plot_bottom = 8, 170
    xs = [x for _, _, points in series for x, _ in points] or [0, 1]
    ys = [y for _, _, points in series for _, y in points] or [0]
    x_min, x_max = min(xs), max(xs)
    x_span = (x_max - x_min) or 1
    y_min, top, y_step = _scale(min(0, min(ys)), max(max(ys), 1))
    span = top - y_min
    body = _y_axis(y_min, top, y_step, plot_top, plot_bottom)

    def at(x: float, y: float) -> str:
        px = LEFT + (WIDTH - LEFT - RIGHT) * (x - x_min) / x_span
        py = plot_bottom - (plot_bottom - plot_top) * (y - y_min) / span
        return f"{px:.1f},{py:.1f}"

    for index, (label, colour, points) in enumerate(series):
        if not points:
            continue
        dash = ' stroke-dasharray="5 3"' if index >= len(SEAT_COLOURS) else ""
        path = " ".join(at(x, y) for x, y in points)
        body.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
            f'stroke-linejoin="round"{dash}><title>{escape(label)}</title></polyline>'
        )
        last_x, last_y = points[-1]
        cx, cy = at(last_x, last_y).split(",")
        body.append(f'<circle cx="{cx}" cy="{cy}" r="3.5" fill="{colour}"/>')
    body.append(_text(LEFT, plot_bottom + 15, f"{x_min:g}", "start", MUTED))
    body.append(_text(WIDTH - RIGHT, plot_bottom + 15, f"{x_max:g}", "end", MUTED))
    body.append(_text((LEFT + WIDTH) / 2, plot_bottom + 15, x_label, "middle", MUTED))
    legend, bottom = _legend(plot_bottom + 36, [(label, colour) for label, colour, _ in series])
    return _svg(bottom, title, body + legend, test_id)


def stacked_bars(
    title: str,
    rows: Sequence[tuple[str, Sequence[int]]],
    categories: Sequence[str],
    test_id: str,
) -> SafeString:
    """One horizontal bar per row (a player), cut into its categories' counts, the total at its end."""
    bar, gap = 16, 24
    label_height = 14
    top = _nice_top(max((sum(counts) for _, counts in rows), default=1) or 1)
    inner = WIDTH - LEFT - RIGHT - 24  # room for the total after the longest bar
    body = []
    y = 4
    for label, counts in rows:
        body.append(_text(LEFT, y + 11, label))
        x = float(LEFT)
        y_bar = y + label_height
        for index, count in enumerate(counts):
            if not count:
                continue
            width = inner * count / top
            colour = CATEGORY_COLOURS[index % len(CATEGORY_COLOURS)]
            body.append(
                f'<rect x="{x:.1f}" y="{y_bar}" width="{width:.1f}" height="{bar}" fill="{colour}">'
                f"<title>{escape(categories[index])}: {count}</title></rect>"
            )
            x += width
        body.append(_text(x + 4, y_bar + 12, sum(counts), "start", INK, ' font-weight="700"'))
        y += label_height + bar + gap - label_height
    shown = [(name, CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)]) for i, name in enumerate(categories)]
    used = [entry for i, entry in enumerate(shown) if any(counts[i] for _, counts in rows)]
    legend, bottom = _legend(y + 14, used or shown[:1])
    return _svg(bottom, title, body + legend, test_id)


def dice_chart(title: str, counts: dict[str, int], expected_label: str, test_id: str) -> SafeString:
    """Rolls of each sum from 2 to 12, with the expected count (36ths of all rolls) marked over each bar."""
    rolls = sum(counts.values())
    expected = {n: rolls * (6 - abs(7 - n)) / 36 for n in range(2, 13)}
    _bottom, top, y_step = _scale(0, max([*counts.values(), *expected.values(), 1]))
    plot_top, plot_bottom = 8, 150
    step = (WIDTH - LEFT - RIGHT) / 11
    body = _y_axis(0, top, y_step, plot_top, plot_bottom)
    for n in range(2, 13):
        count = counts.get(str(n), 0)
        x = LEFT + (n - 2) * step + 3
        height = (plot_bottom - plot_top) * count / top
        colour = "#b91c1c" if n == 7 else "#2f6fa3"
        body.append(
            f'<rect x="{x:.1f}" y="{plot_bottom - height:.1f}" width="{step - 6:.1f}" height="{height:.1f}" '
            f'fill="{colour}" data-number="{n}"><title>{n}: {count}</title></rect>'
        )
        mark = plot_bottom - (plot_bottom - plot_top) * expected[n] / top
        body.append(
            f'<line x1="{x - 2:.1f}" x2="{x + step - 4:.1f}" y1="{mark:.1f}" y2="{mark:.1f}" stroke="#f59e0b" '
            'stroke-width="2" stroke-dasharray="3 2"/>'
        )
        body.append(_text(x + (step - 6) / 2, plot_bottom + 14, n, "middle", MUTED))
    legend = [
        '<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="#f59e0b" stroke-width="2" stroke-dasharray="3 2"/>'.format(
            LEFT, LEFT + 14, plot_bottom + 32
        ),
        _text(LEFT + 18, plot_bottom + 36, expected_label),
    ]
    return _svg(plot_bottom + 44, title, body + legend, test_id)


def holders_chart(
    title: str,
    bands: Sequence[tuple[str, Sequence[dict[str, int]]]],
    turns: int,
    names: dict[int, str],
    turn_label: str,
    nobody: str,
    test_id: str,
) -> SafeString:
    """Who held each award over the turns: one band per award, coloured by its holder from each change on."""
    band = 18
    body = []
    y = 4
    inner = WIDTH - LEFT - RIGHT
    span = max(turns, 1)
    holders: set[int] = set()
    for label, changes in bands:
        body.append(_text(LEFT, y + 11, label))
        y_band = y + 16
        body.append(f'<rect x="{LEFT}" y="{y_band}" width="{inner}" height="{band}" fill="#f5f5f4"/>')
        for index, change in enumerate(changes):
            end = changes[index + 1]["turn"] if index + 1 < len(changes) else span
            x = LEFT + inner * change["turn"] / span
            width = max(inner * (end - change["turn"]) / span, 1.5)
            seat = change["seat"]
            holders.add(seat)
            who = names.get(seat, nobody)
            body.append(
                f'<rect x="{x:.1f}" y="{y_band}" width="{width:.1f}" height="{band}" fill="{seat_colour(seat)}">'
                f"<title>{escape(who)}: {change['turn']}–{end}</title></rect>"
            )
        y = y_band + band + 10
    body.append(_text(LEFT, y + 4, "0", "start", MUTED))
    body.append(_text(WIDTH - RIGHT, y + 4, turns, "end", MUTED))
    body.append(_text((LEFT + WIDTH) / 2, y + 4, turn_label, "middle", MUTED))
    entries = [(names.get(seat, nobody), seat_colour(seat)) for seat in sorted(holders)]
    legend, bottom = _legend(y + 24, entries or [(nobody, seat_colour(-1))])
    return _svg(bottom, title, body + legend, test_id)
