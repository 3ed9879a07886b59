"""A board as a standalone SVG picture: pure, deterministic, no dependencies (docs, e-mails, previews).

`board_svg(board, pieces)` takes the `board` and `pieces` parts of `rules.view(state, seat)`. Hexes are
pointy-top: hex (q, r) is centred at (√3·(q + r/2), 1.5·r) hex sizes, and a vertex (x, y) of the view's
lattice (where a hex centre is (2q + r, 3r)) at (x·√3/2, y/2). Only plain fills and strokes are used (no
patterns, filters, gradients or references), so the picture survives e-mail clients and converters alike.
Hexes are the only polygons, one each.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

SIZE = 40.0  # hex circumradius in SVG units
SQRT3 = math.sqrt(3.0)
APOTHEM = SIZE * SQRT3 / 2

TERRAIN_FILL = {
    "forest": "#2f6b2a",
    "pasture": "#9fd266",
    "fields": "#efd36a",
    "hills": "#b9532c",
    "mountains": "#8d98a4",
    "desert": "#e8d29c",
    "gold": "#f5a800",
    "sea": "#2d70b3",
    "fog": "#363d4a",
    "pool": "#cdbf9a",  # terrain drawn at game start (a map drawn before any game exists)
}
FRAME_FILL = "#4f91cf"
UNKNOWN_FILL = "#b0b0b0"
LAND = frozenset({"forest", "pasture", "fields", "hills", "mountains", "desert", "gold", "pool"})
# The web board's seat colours (static/js/board.js), so a picture matches the live game.
SEAT_COLOURS = ("#d32f2f", "#1e63d6", "#f08c00", "#7b3fa0", "#2e9e5b", "#8d5a3b")
RESOURCE_FILL = {
    "lumber": "#2f6b2a",
    "brick": "#b9532c",
    "wool": "#6fae3a",
    "grain": "#c99614",
    "ore": "#5f6a76",
}
HARBOUR_INITIAL = {"lumber": "L", "brick": "B", "wool": "W", "grain": "G", "ore": "O"}
SERIF = "Georgia, 'Times New Roman', serif"
SANS = "Helvetica, Arial, sans-serif"

Point = tuple[float, float]


def _n(value: float) -> str:
    """A number with at most two decimals and no trailing zeros, so the output is stable and compact."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _el(name: str, text: str | None = None, /, **attrs: Any) -> str:
    """One element; attribute names use _ for - (stroke_width → stroke-width), class_ for class."""
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        key = key.rstrip("_").replace("_", "-")
        shown = _n(value) if isinstance(value, float) else str(value)
        parts.append(f'{key}="{escape(shown, {chr(34): "&quot;"})}"')
    inner = " ".join(parts)
    return f"<{name} {inner}/>" if text is None else f"<{name} {inner}>{escape(text)}</{name}>"


def _text(x: float, y: float, text: str, size: float, fill: str, font: str = SANS) -> str:
    return _el(
        "text",
        text,
        x=x,
        y=y,
        text_anchor="middle",
        font_size=size,
        font_weight=700,
        font_family=font,
        fill=fill,
    )


def _open(name: str, **attrs: Any) -> str:
    """An opening tag, for elements with children."""
    return _el(name, "", **attrs)[: -len(f"</{name}>")]


def _group(css: str, **attrs: Any) -> str:
    return _open("g", class_=css, **attrs)


def hex_centre(q: int, r: int) -> Point:
    return SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r


def lattice_point(x: int, y: int) -> Point:
    return x * APOTHEM, y * SIZE / 2


def _corners(cx: float, cy: float, size: float) -> list[Point]:
    angles = [math.radians(60 * k - 90) for k in range(6)]
    return [(cx + size * math.cos(a), cy + size * math.sin(a)) for a in angles]


def _path(points: list[Point]) -> str:
    return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in points) + " Z"


def _sparkle(x: float, y: float, r: float) -> str:
    """A four-pointed star: gold fields glitter."""
    k = r * 0.28
    return _path(
        [
            (x, y - r),
            (x + k, y - k),
            (x + r, y),
            (x + k, y + k),
            (x, y + r),
            (x - k, y + k),
            (x - r, y),
            (x - k, y - k),
        ]
    )


def _hex(out: list[str], h: dict[str, Any], frame: bool) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    terrain = str(h.get("terrain"))
    land = terrain in LAND
    fill = FRAME_FILL if frame and terrain == "sea" else TERRAIN_FILL.get(terrain, UNKNOWN_FILL)
    points = " ".join(
        f"{_n(x)},{_n(y)}" for x, y in _corners(cx, cy, SIZE - 1.5 if land or terrain == "fog" else SIZE)
    )
    polygon = _open(
        "polygon",
        class_=f"hex terrain-{terrain}" + (" frame" if frame else ""),
        points=points,
        fill=fill,
        stroke="#f1e2b8" if land else "#262b34" if terrain == "fog" else "#2a66a3",
        stroke_width=3.0 if land else 0.8,
        stroke_linejoin="round",
        data_hex=h.get("id"),
    )
    label = terrain + (f" {h['token']}" if h.get("token") else "")
    out.append(polygon + _el("title", label) + "</polygon>")  # the label as a tooltip
    if terrain == "gold":
        for dx, dy, r in ((-20.0, -12.0, 6.0), (19.0, -9.0, 4.8), (-4.0, 22.0, 5.4)):
            out.append(
                _el(
                    "path",
                    d=_sparkle(cx + dx, cy + dy, r),
                    fill="#fff4c2",
                    stroke="#a86e00",
                    stroke_width=0.6,
                )
            )
    if terrain in ("fog", "pool"):
        out.append(_text(cx, cy + 10.0, "?", 28, "#aeb8c6" if terrain == "fog" else "#6f6247", SERIF))


def _token(out: list[str], h: dict[str, Any]) -> None:
    token = h.get("token")
    if not token:
        return
    cx, cy = hex_centre(h["q"], h["r"])
    red = token in (6, 8)
    ink = "#c0281b" if red else "#2b2b2b"
    out.append(_el("circle", cx=cx, cy=cy, r=14, fill="#f7ecd0", stroke="#a88b56", stroke_width=1.2))
    out.append(_text(cx, cy + 3.6, str(token), 14 if red else 13, ink, SERIF))
    pips = int(h.get("pips") or 0)
    for i in range(pips):
        out.append(_el("circle", cx=cx - (pips - 1) * 1.6 + i * 3.2, cy=cy + 8.3, r=1.05, fill=ink))


def _harbour(out: list[str], harbour: dict[str, Any], points: dict[int, Point], hexes: list[dict]) -> None:
    """A post in the sea with the rate, and two piers to the corners it serves."""
    a, b = (points[v] for v in harbour["vertices"])
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    sides = [(h, *hex_centre(h["q"], h["r"])) for h in hexes]
    sides = [s for s in sides if abs(math.hypot(s[1] - mx, s[2] - my) - APOTHEM) < 1.0]
    sea = [s for s in sides if str(s[0].get("terrain")) not in LAND]
    if sea:
        dx, dy = sea[0][1] - mx, sea[0][2] - my
    elif sides:
        dx, dy = mx - sides[0][1], my - sides[0][2]
    else:
        dx, dy = 0.0, APOTHEM
    sx, sy = mx + dx * 0.62, my + dy * 0.62
    kind = str(harbour.get("kind"))
    generic = kind not in HARBOUR_INITIAL
    out.append(_group("harbour", data_kind=kind, data_edge=harbour.get("edge")))
    out.append(_el("title", "3:1 harbour" if generic else f"2:1 {kind} harbour"))
    for vx, vy in (a, b):
        px, py = vx + (sx - vx) * 0.2, vy + (sy - vy) * 0.2
        out.append(
            _el(
                "line", x1=px, y1=py, x2=sx, y2=sy, stroke="#6b4a2b", stroke_width=3.4, stroke_linecap="round"
            )
        )
    ring = "#6b4a2b" if generic else RESOURCE_FILL[kind]
    out.append(_el("circle", cx=sx, cy=sy, r=12.5, fill="#fbf3dc", stroke=ring, stroke_width=2.2))
    if generic:
        out.append(_text(sx, sy + 3.4, "3:1", 9.5, "#3e2a17"))
    else:
        out.append(_text(sx, sy - 1.2, "2:1", 7.5, "#3e2a17"))
        out.append(_text(sx, sy + 8.2, HARBOUR_INITIAL[kind], 8.5, RESOURCE_FILL[kind]))
    out.append("</g>")


def _robber(out: list[str], h: dict[str, Any]) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    x = cx - 21 if h.get("token") else cx
    out.append(_group("robber", transform=f"translate({_n(x)},{_n(cy + 1)})") + "<title>robber</title>")
    out.append(_el("ellipse", cx=0, cy=12, rx=8, ry=2.6, fill="#000", opacity=0.35))
    body = {"fill": "#34343c", "stroke": "#d8d8de", "stroke_width": 1}
    out.append(_el("path", d="M-7,12 C-7.5,4 -5.5,0 -3,-2 L3,-2 C5.5,0 7.5,4 7,12 Z", **body))
    out.append(_el("circle", cx=0, cy=-6.5, r=5.2, **body))
    out.append("</g>")


def _pirate(out: list[str], h: dict[str, Any]) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    out.append(
        _group("pirate", transform=f"translate({_n(cx)},{_n(cy + 2)}) scale(1.35)") + "<title>pirate</title>"
    )
    out.append(_el("path", d="M-13,2 H13 L8,10 H-8 Z", fill="#161616", stroke="#cfcfcf", stroke_width=0.8))
    out.append(_el("path", d="M0,2 V-15", stroke="#161616", stroke_width=1.6))
    out.append(_el("path", d="M-10,-12 H10 V-1 H-10 Z", fill="#222", stroke="#cfcfcf", stroke_width=0.8))
    out.append(_el("circle", cx=0, cy=-7.5, r=3, fill="#f2f2f2"))
    out.append(_el("path", d="M-4,-2.5 L4,-5 M-4,-5 L4,-2.5", stroke="#f2f2f2", stroke_width=1))
    out.append("</g>")


def seat_colour(seat: Any) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)] if isinstance(seat, int) else "#888888"


def _pieces(
    out: list[str], pieces: dict[str, Any], points: dict[int, Point], edges: dict[int, tuple]
) -> None:
    for road in pieces.get("roads", []):
        if road.get("edge") not in edges:
            continue
        a, b = (points[v] for v in edges[road["edge"]])
        f = 0.14
        line = {"x1": a[0] + (b[0] - a[0]) * f, "y1": a[1] + (b[1] - a[1]) * f}
        line |= {"x2": b[0] + (a[0] - b[0]) * f, "y2": b[1] + (a[1] - b[1]) * f, "stroke_linecap": "round"}
        out.append(_group("road", data_seat=road.get("seat")))
        out.append(_el("line", stroke="#1a1a1a", stroke_width=9, **line))
        out.append(_el("line", stroke=seat_colour(road.get("seat")), stroke_width=6, **line))
        out.append("</g>")
    for ship in pieces.get("ships", []):
        if ship.get("edge") not in edges:
            continue
        a, b = (points[v] for v in edges[ship["edge"]])
        move = f"translate({_n((a[0] + b[0]) / 2)},{_n((a[1] + b[1]) / 2)})"
        ink = {"stroke": "#1a1a1a", "stroke_linejoin": "round"}
        out.append(_group("ship", data_seat=ship.get("seat"), transform=move))
        out.append(
            _el(
                "path",
                d="M-12,1 H12 L7.5,8 H-7.5 Z",
                fill=seat_colour(ship.get("seat")),
                stroke_width=1.4,
                **ink,
            )
        )
        out.append(_el("path", d="M0,1 V-13", stroke_width=1.4, **ink))
        out.append(
            _el(
                "path",
                d="M1.2,-12 L10,-1.5 H1.2 Z M-1.2,-10 L-7.5,-1.5 H-1.2 Z",
                fill="#fbfbf5",
                stroke_width=1,
                **ink,
            )
        )
        out.append("</g>")
    shapes = {
        "settlements": "M-8.5,7.5 V-2 L0,-9.5 L8.5,-2 V7.5 Z",
        "cities": "M-13,9 V-3 L-7,-10 L-1,-3 V-1 H13 V9 Z",
    }
    for kind, shape in shapes.items():
        for piece in pieces.get(kind, []):
            if piece.get("vertex") not in points:
                continue
            x, y = points[piece["vertex"]]
            css = "city" if kind == "cities" else "settlement"
            out.append(_group(css, data_seat=piece.get("seat"), transform=f"translate({_n(x)},{_n(y)})"))
            out.append(
                _el("path", d=shape, fill=seat_colour(piece.get("seat")), stroke="#161616", stroke_width=1.6)
            )
            out.append("</g>")


def _view_box(hexes: list[dict], frame: set[int]) -> tuple[float, float, float, float]:
    """Fit the hexes; outer sea hexes (the frame, or sea with a missing neighbour) show up to their middle."""
    present = {(h["q"], h["r"]) for h in hexes}
    around = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        cx, cy = hex_centre(h["q"], h["r"])
        edge = h.get("id") in frame or any((h["q"] + dq, h["r"] + dr) not in present for dq, dr in around)
        for x, y in [(cx, cy)] if str(h.get("terrain")) == "sea" and edge else _corners(cx, cy, SIZE):
            xs.append(x)
            ys.append(y)
    if not xs:
        return 0.0, 0.0, 1.0, 1.0
    pad = 6.0
    return min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad


def board_svg(board: dict[str, Any], pieces: dict[str, Any] | None = None, width: int = 640) -> str:
    """The board (the `board` of a view, or an equivalent dict) and optional pieces as an SVG document."""
    hexes = list(board.get("hexes", []))
    frame = set(board.get("frame") or [])
    points = {v["id"]: lattice_point(v["x"], v["y"]) for v in board.get("vertices", [])}
    edges = {e["id"]: tuple(e["vertices"]) for e in board.get("edges", [])}
    by_id = {h.get("id"): h for h in hexes}
    x0, y0, w, h = _view_box(hexes, frame)
    height = max(1, round(width * h / w))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{int(width)}" height="{height}" '
        f'viewBox="{_n(x0)} {_n(y0)} {_n(w)} {_n(h)}">',
        _el("rect", x=x0, y=y0, width=w, height=h, fill=FRAME_FILL),
        '<g class="hexes">',
    ]
    for hx in hexes:
        _hex(out, hx, hx.get("id") in frame)
    out.append('</g>\n<g class="harbours">')
    for harbour in board.get("harbours", []):
        if len(harbour.get("vertices", [])) == 2 and all(v in points for v in harbour["vertices"]):
            _harbour(out, harbour, points, hexes)
    out.append('</g>\n<g class="tokens">')
    for hx in hexes:
        _token(out, hx)
    out.append('</g>\n<g class="markers">')
    if board.get("robber") in by_id:
        _robber(out, by_id[board["robber"]])
    if board.get("pirate") in by_id:
        _pirate(out, by_id[board["pirate"]])
    out.append("</g>")
    if pieces:
        out.append('<g class="pieces">')
        _pieces(out, pieces, points, edges)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
