"""A board as a standalone SVG picture: pure, deterministic, no dependencies (docs, e-mails, previews).

`board_svg(board, pieces)` takes the `board` and `pieces` parts of `rules.view(state, seat)`. Hexes are drawn
pointy-top: a hex (q, r) is centred at (√3·(q + r/2), 1.5·r) hex sizes; a vertex (x, y) on the view's lattice
(where a hex centre is (2q + r, 3r)) sits at (x·√3/2, y/2) hex sizes. Only plain fills and strokes are used
(no patterns, filters or references), so the picture survives e-mail clients and converters alike.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape

SIZE = 40.0  # hex circumradius in SVG units
SQRT3 = math.sqrt(3.0)

TERRAIN_FILL = {
    "forest": "#2f6b2a",
    "pasture": "#9fd266",
    "fields": "#ecc44a",
    "hills": "#b9532c",
    "mountains": "#8d98a4",
    "desert": "#e8d29c",
    "sea": "#2d70b3",
    "gold": "#f2b705",
    "fog": "#363d4a",
    "pool": "#cdbf9a",  # a hex whose terrain is drawn at game start (maps shown before a game exists)
}
FRAME_FILL = "#4f91cf"
UNKNOWN_FILL = "#b0b0b0"
LAND = frozenset({"forest", "pasture", "fields", "hills", "mountains", "desert", "gold", "pool"})
SEAT_COLOURS = ("#d32f2f", "#1e63d6", "#f08c00", "#7b3fa0", "#2e9e5b", "#8d5a3b")
HARBOUR_LABEL = {"lumber": "L", "brick": "B", "wool": "W", "grain": "G", "ore": "O"}
HARBOUR_TITLE = {"lumber": "lumber", "brick": "brick", "wool": "wool", "grain": "grain", "ore": "ore"}
RESOURCE_FILL = {"lumber": "#2f6b2a", "brick": "#b9532c", "wool": "#8fcf5a", "grain": "#e0a91f", "ore": "#6f7a86"}
CORNERS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))  # lattice offsets, clockwise from the top


def _n(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros, so output is stable and compact."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _attrs(attrs: dict[str, Any]) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        text = _n(value) if isinstance(value, float) else str(value)
        parts.append(f'{key}="{escape(text, {chr(34): "&quot;"})}"')
    return " ".join(parts)


def _el(name: str, attrs: dict[str, Any], text: str | None = None) -> str:
    if text is None:
        return f"<{name} {_attrs(attrs)}/>"
    return f"<{name} {_attrs(attrs)}>{escape(text)}</{name}>"


def hex_centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r


def lattice_point(x: int, y: int) -> tuple[float, float]:
    return x * SIZE * SQRT3 / 2, y * SIZE / 2


def _corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    return [(cx + size * math.cos(math.radians(60 * k - 90)), cy + size * math.sin(math.radians(60 * k - 90))) for k in range(6)]


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _path(points: list[tuple[float, float]]) -> str:
    return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in points) + " Z"


def _hex(out: list[str], h: dict[str, Any], frame: bool) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    terrain = str(h.get("terrain"))
    land = terrain in LAND
    fill = FRAME_FILL if frame and terrain == "sea" else TERRAIN_FILL.get(terrain, UNKNOWN_FILL)
    stroke = "#f1e2b8" if land else "#262b34" if terrain == "fog" else "#2a66a3"
    label = terrain + (f" {h['token']}" if h.get("token") else "")
    classes = f"hex terrain-{terrain}" + (" frame" if frame else "")
    attrs = {
        "class": classes,
        "points": _points(_corners(cx, cy, SIZE - 1.5 if land or terrain == "fog" else SIZE)),
        "fill": fill,
        "stroke": stroke,
        "stroke-width": 3.0 if land else 0.8,
        "stroke-linejoin": "round",
        "data-hex": h.get("id"),
    }
    out.append(f"<polygon {_attrs(attrs)}><title>{escape(label)}</title></polygon>")
    if terrain in ("fog", "pool"):
        ink = "#aeb8c6" if terrain == "fog" else "#6f6247"
        out.append(
            _el(
                "text",
                {"x": cx, "y": cy + 10.0, "text-anchor": "middle", "font-size": 28, "font-weight": 700,
                 "font-family": "Georgia, serif", "fill": ink},
                "?",
            )
        )


def _token(out: list[str], h: dict[str, Any]) -> None:
    token = h.get("token")
    if not token:
        return
    cx, cy = hex_centre(h["q"], h["r"])
    red = token in (6, 8)
    ink = "#c0281b" if red else "#2b2b2b"
    out.append(_el("circle", {"cx": cx, "cy": cy, "r": 14, "fill": "#f7ecd0", "stroke": "#a88b56", "stroke-width": 1.2}))
    out.append(
        _el(
            "text",
            {"x": cx, "y": cy + 3.6, "text-anchor": "middle", "font-size": 14 if red else 13, "font-weight": 700,
             "font-family": "Georgia, 'Times New Roman', serif", "fill": ink},
            str(token),
        )
    )
    pips = int(h.get("pips") or 0)
    for i in range(pips):
        out.append(_el("circle", {"cx": cx - (pips - 1) * 1.6 + i * 3.2, "cy": cy + 8.3, "r": 1.05, "fill": ink}))


def _harbour(out: list[str], harbour: dict[str, Any], points: dict[int, tuple[float, float]], hexes: list[dict]) -> None:
    a, b = (points[v] for v in harbour["vertices"])
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    apothem = SIZE * SQRT3 / 2
    sides = []
    for h in hexes:
        cx, cy = hex_centre(h["q"], h["r"])
        if abs(math.hypot(cx - mx, cy - my) - apothem) < 1.0:
            sides.append((h, cx, cy))
    sea = [s for s in sides if str(s[0].get("terrain")) not in LAND]
    if sea:
        dx, dy = sea[0][1] - mx, sea[0][2] - my
    elif sides:
        dx, dy = mx - sides[0][1], my - sides[0][2]
    else:
        dx, dy = 0.0, apothem
    sx, sy = mx + dx * 0.62, my + dy * 0.62
    kind = str(harbour.get("kind"))
    generic = kind not in HARBOUR_LABEL
    title = "3:1 harbour" if generic else f"2:1 {HARBOUR_TITLE[kind]} harbour"
    out.append(f'<g class="harbour" data-kind="{escape(kind)}" data-edge="{escape(str(harbour.get("edge")))}">')
    out.append(f"<title>{escape(title)}</title>")
    for vx, vy in (a, b):
        px, py = vx + (sx - vx) * 0.2, vy + (sy - vy) * 0.2
        out.append(_el("line", {"x1": px, "y1": py, "x2": sx, "y2": sy, "stroke": "#6b4a2b", "stroke-width": 3.4,
                                "stroke-linecap": "round"}))
    ring = "#6b4a2b" if generic else RESOURCE_FILL[kind]
    out.append(_el("circle", {"cx": sx, "cy": sy, "r": 12.5, "fill": "#fbf3dc", "stroke": ring, "stroke-width": 2.2}))
    if generic:
        out.append(_el("text", {"x": sx, "y": sy + 3.4, "text-anchor": "middle", "font-size": 9.5, "font-weight": 700,
                                "font-family": "Helvetica, Arial, sans-serif", "fill": "#3e2a17"}, "3:1"))
    else:
        out.append(_el("text", {"x": sx, "y": sy - 1.2, "text-anchor": "middle", "font-size": 7.5, "font-weight": 700,
                                "font-family": "Helvetica, Arial, sans-serif", "fill": "#3e2a17"}, "2:1"))
        out.append(_el("text", {"x": sx, "y": sy + 8.2, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700,
                                "font-family": "Helvetica, Arial, sans-serif", "fill": RESOURCE_FILL[kind]},
                       HARBOUR_LABEL[kind]))
    out.append("</g>")


def _robber(out: list[str], h: dict[str, Any]) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    x, y = (cx - 21 if h.get("token") else cx), cy + 1
    out.append(f'<g class="robber" transform="translate({_n(x)},{_n(y)})"><title>robber</title>')
    out.append(_el("ellipse", {"cx": 0, "cy": 12, "rx": 8, "ry": 2.6, "fill": "#000", "opacity": 0.35}))
    body = {"fill": "#34343c", "stroke": "#d8d8de", "stroke-width": 1}
    out.append(_el("path", {"d": "M-7,12 C-7.5,4 -5.5,0 -3,-2 L3,-2 C5.5,0 7.5,4 7,12 Z", **body}))
    out.append(_el("circle", {"cx": 0, "cy": -6.5, "r": 5.2, **body}))
    out.append("</g>")


def _pirate(out: list[str], h: dict[str, Any]) -> None:
    cx, cy = hex_centre(h["q"], h["r"])
    out.append(f'<g class="pirate" transform="translate({_n(cx)},{_n(cy + 2)}) scale(1.35)"><title>pirate</title>')
    out.append(_el("path", {"d": "M-13,2 H13 L8,10 H-8 Z", "fill": "#161616", "stroke": "#cfcfcf", "stroke-width": 0.8}))
    out.append(_el("path", {"d": "M0,2 V-15", "stroke": "#161616", "stroke-width": 1.6}))
    out.append(_el("path", {"d": "M-10,-12 H10 V-1 H-10 Z", "fill": "#222", "stroke": "#cfcfcf", "stroke-width": 0.8}))
    out.append(_el("circle", {"cx": 0, "cy": -7.5, "r": 3, "fill": "#f2f2f2"}))
    out.append(_el("path", {"d": "M-4,-2.5 L4,-5 M-4,-5 L4,-2.5", "stroke": "#f2f2f2", "stroke-width": 1}))
    out.append("</g>")


def _colour(seat: Any) -> str:
    return SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)] if isinstance(seat, int) else "#888888"


def _pieces(out: list[str], pieces: dict[str, Any], points: dict[int, tuple[float, float]], edges: dict) -> None:
    def ends(edge: int) -> tuple[tuple[float, float], tuple[float, float]]:
        a, b = (points[v] for v in edges[edge])
        return a, b

    for road in pieces.get("roads", []):
        if road.get("edge") not in edges:
            continue
        a, b = ends(road["edge"])
        f = 0.14
        p = (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        q = (b[0] + (a[0] - b[0]) * f, b[1] + (a[1] - b[1]) * f)
        line = {"x1": p[0], "y1": p[1], "x2": q[0], "y2": q[1], "stroke-linecap": "round"}
        out.append(f'<g class="road" data-seat="{escape(str(road.get("seat")))}">')
        out.append(_el("line", {**line, "stroke": "#1a1a1a", "stroke-width": 9}))
        out.append(_el("line", {**line, "stroke": _colour(road.get("seat")), "stroke-width": 6}))
        out.append("</g>")
    for ship in pieces.get("ships", []):
        if ship.get("edge") not in edges:
            continue
        a, b = ends(ship["edge"])
        x, y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        fill = _colour(ship.get("seat"))
        out.append(f'<g class="ship" data-seat="{escape(str(ship.get("seat")))}" transform="translate({_n(x)},{_n(y)})">')
        out.append(_el("path", {"d": "M-12,1 H12 L7.5,8 H-7.5 Z", "fill": fill, "stroke": "#1a1a1a", "stroke-width": 1.4,
                                "stroke-linejoin": "round"}))
        out.append(_el("path", {"d": "M0,1 V-13", "stroke": "#1a1a1a", "stroke-width": 1.4}))
        out.append(_el("path", {"d": "M1.2,-12 L10,-1.5 H1.2 Z", "fill": "#fbfbf5", "stroke": "#1a1a1a", "stroke-width": 1}))
        out.append(_el("path", {"d": "M-1.2,-10 L-7.5,-1.5 H-1.2 Z", "fill": "#fbfbf5", "stroke": "#1a1a1a",
                                "stroke-width": 1}))
        out.append("</g>")
    outline = {"stroke": "#161616", "stroke-width": 1.6, "stroke-linejoin": "round"}
    for kind, shape in (("settlements", "M-8.5,7.5 V-2 L0,-9.5 L8.5,-2 V7.5 Z"),
                        ("cities", "M-13,9 V-3 L-7,-10 L-1,-3 V-1 H13 V9 Z")):
        for piece in pieces.get(kind, []):
            if piece.get("vertex") not in points:
                continue
            x, y = points[piece["vertex"]]
            css = "city" if kind == "cities" else "settlement"
            seat = escape(str(piece.get("seat")))
            out.append(f'<g class="{css}" data-seat="{seat}" transform="translate({_n(x)},{_n(y)})">')
            out.append(_el("path", {"d": shape, "fill": _colour(piece.get("seat")), **outline}))
            out.append("</g>")


def _view_box(hexes: list[dict], frame: set[int]) -> tuple[float, float, float, float]:
    """Fit the hexes; outer sea hexes (the frame, or sea with a missing neighbour) show up to their middle."""
    present = {(h["q"], h["r"]) for h in hexes}
    xs: list[float] = []
    ys: list[float] = []
    around = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    for h in hexes:
        cx, cy = hex_centre(h["q"], h["r"])
        outer = str(h.get("terrain")) == "sea" and (
            h.get("id") in frame or any((h["q"] + dq, h["r"] + dr) not in present for dq, dr in around)
        )
        if outer:
            xs.append(cx)
            ys.append(cy)
        else:
            for x, y in _corners(cx, cy, SIZE):
                xs.append(x)
                ys.append(y)
    if not xs:
        return 0.0, 0.0, 1.0, 1.0
    pad = 6.0
    return min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad


def _vertex_points(board: dict[str, Any]) -> dict[int, tuple[float, float]]:
    return {v["id"]: lattice_point(v["x"], v["y"]) for v in board.get("vertices", [])}


def board_svg(board: dict[str, Any], pieces: dict[str, Any] | None = None, width: int = 640) -> str:
    """The board (the `board` of a view, or an equivalent dict) as a standalone SVG document."""
    hexes = list(board.get("hexes", []))
    frame = set(board.get("frame") or [])
    points = _vertex_points(board)
    edges = {e["id"]: tuple(e["vertices"]) for e in board.get("edges", [])}
    by_id = {h.get("id"): h for h in hexes}
    x0, y0, w, h = _view_box(hexes, frame)
    height = max(1, round(width * h / w))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{int(width)}" height="{height}" '
        f'viewBox="{_n(x0)} {_n(y0)} {_n(w)} {_n(h)}">',
        _el("rect", {"x": x0, "y": y0, "width": w, "height": h, "fill": FRAME_FILL}),
        '<g class="hexes">',
    ]
    for hx in hexes:
        _hex(out, hx, hx.get("id") in frame)
    out.append('</g><g class="harbours">')
    for harbour in board.get("harbours", []):
        if all(v in points for v in harbour.get("vertices", [])) and len(harbour.get("vertices", [])) == 2:
            _harbour(out, harbour, points, hexes)
    out.append('</g><g class="tokens">')
    for hx in hexes:
        _token(out, hx)
    out.append('</g><g class="markers">')
    if board.get("robber") is not None and board["robber"] in by_id:
        _robber(out, by_id[board["robber"]])
    if board.get("pirate") is not None and board["pirate"] in by_id:
        _pirate(out, by_id[board["pirate"]])
    out.append("</g>")
    if pieces:
        out.append('<g class="pieces">')
        _pieces(out, pieces, points, edges)
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
