// The SVG board, drawn from a view(): terrain, numbers, harbours, pieces, the robber and the pirate, plus
// clickable overlays for exactly the legal placements of the current choice.
//
// renderBoard(svg, view, {legal, onAction, seatColors, chooseVictim, chooseBuild, onSelect, recent})
//   legal        the seat's legal actions; only board placements among them are drawn as spots
//   onAction     called with the exact legal action dict when a spot is clicked
//   chooseVictim called with the legal actions of one hex when a robber or pirate move has several victims
//   chooseBuild  called with [build_road, build_ship] when one edge takes either
//   onSelect     called when the player picks (or drops) the ship to move; see selectedShip()
//   recent       {vertices, edges, hexes}: ids to mark briefly (the pieces of the last move)
// highlightPlace(svg, {vertices, edges, hexes} | null) marks a place until called again (a hovered log line).
import { drawDefs, resourceIcon } from "./board_art.js";
import { APOTHEM, edgeEnds, edgeMiddle, el, hexCenter, hexCorners, inner, LAND, pointList, SIZE, terrainName, vertexPoint } from "./board_geometry.js";
import { drawLegal, focusSpot, selectedShip } from "./board_spots.js";
import { t } from "./i18n.js";

// What the page and other modules (the game page, a replay) take from the board.
export { hexCenter, resourceIcon, selectedShip };

export const SEAT_COLORS = ["#d32f2f", "#1e63d6", "#f08c00", "#7b3fa0", "#2e9e5b", "#8d5a3b"];
// The seats' colours told apart with any colour vision (Okabe and Ito's palette), chosen at the table.
export const SAFE_SEAT_COLORS = ["#d55e00", "#0072b2", "#e69f00", "#cc79a7", "#009e73", "#000000"];

// Each board's geometry and hover layer, for highlightPlace() between renders.
const drawn = new WeakMap();
let boardCount = 0;

// ---- the board ---------------------------------------------------------------------------------------------

// The smallest radius, in screen pixels, of a legal set-up or settlement spot.
const MIN_SPOT_PX = 7;
// The land hexes' outlines: a dark walnut, 3:1 or more against every terrain (forest 3.2, hills 4.3, the light ones
// 6 to 11; WCAG 1.4.11), where the cream of before was 1.2 to 1.4 against pasture, fields and desert.
const LAND_OUTLINE = "#2b1d0e";

export function renderBoard(svg, view, options = {}) {
  const {
    legal = [], onAction = () => {}, seatColors = SEAT_COLORS, chooseVictim = null, chooseBuild = null, onSelect = null,
    recent = null,
  } = options;
  if (!svg.dataset.boardPrefix) svg.dataset.boardPrefix = `b${++boardCount}-`;
  const prefix = svg.dataset.boardPrefix;
  // Drawing again must not drop a keyboard user's focus: it goes back to the same spot, or to the first of the new
  // choice (the road spots after a settlement), or to the board itself.
  let focusKey = focusedSpotKey(svg);
  while (svg.firstChild) svg.removeChild(svg.firstChild);

  const board = view.board;
  const vertices = new Map(board.vertices.map((v) => [v.id, v]));
  const edges = new Map(board.edges.map((e) => [e.id, e]));
  const hexes = new Map(board.hexes.map((h) => [h.id, h]));
  const byCoord = new Map(board.hexes.map((h) => [`${h.q},${h.r}`, h]));
  const frame = new Set(board.frame || []);
  const color = (seat) => seatColors[seat % seatColors.length];
  const ctx = { board, vertices, edges, hexes, prefix, color };

  const posts = harbourPosts(board, ctx);
  const box = viewBox(board, byCoord, posts);
  svg.setAttribute("viewBox", box);
  // Lets the page keep taps large on a small screen: it may scroll a wide board rather than shrink it.
  svg.style.setProperty("--board-units", box.split(" ")[2]);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.setAttribute("role", "group");
  // Focusable by script only (not by Tab): where the focus rests when the board has no spot left to choose.
  svg.setAttribute("tabindex", "-1");
  // Screen pixels per board unit: a set-up spot (6 units) on a wide map fitted to a phone's width was ~6 px
  // across, too small to tap. Legal spots keep a minimum size on screen; the page renders again on zoom.
  const [, , unitsWide, unitsHigh] = box.split(" ").map(Number);
  const shown = svg.getBoundingClientRect();
  const unitPx = Math.min(shown.width / unitsWide, shown.height / unitsHigh);
  ctx.spotScale = unitPx > 0 ? Math.min(4, Math.max(1, MIN_SPOT_PX / (6 * unitPx))) : 1;
  ctx.unitPx = unitPx;
  svg.dataset.unitPx = unitPx.toFixed(4);
  svg.dataset.spotScale = ctx.spotScale.toFixed(2);
  drawDefs(svg, prefix);

  const layer = (name) => el("g", { class: `layer-${name}` }, svg);
  const layers = {
    hexes: layer("hexes"), harbours: layer("harbours"), tokens: layer("tokens"), lines: layer("trade-lines"),
    edges: layer("edges"), vertices: layer("vertices"), markers: layer("markers"), recent: layer("recent"),
    hover: layer("hover"), legal: layer("legal"),
  };
  drawn.set(svg, { ctx, layer: layers.hover });

  drawHexes(layers, board, frame, ctx, view.dice);
  drawHarbours(layers.harbours, posts, ctx);
  drawTradeLines(layers.lines, view, ctx);
  for (const road of view.pieces.roads) drawRoad(layers.edges, edgeEnds(road.edge, ctx), color(road.seat), road);
  for (const ship of view.pieces.ships) drawShip(layers.edges, edgeMiddle(ship.edge, ctx), color(ship.seat), ship);
  for (const s of view.pieces.settlements) drawBuilding(layers.vertices, vertexPoint(vertices.get(s.vertex)), color(s.seat), false, s);
  for (const c of view.pieces.cities) drawBuilding(layers.vertices, vertexPoint(vertices.get(c.vertex)), color(c.seat), true, c);
  drawIslandBonuses(layers.vertices, view, ctx);
  if (board.robber !== null && board.robber !== undefined && hexes.has(board.robber)) drawRobber(layers.markers, hexes.get(board.robber));
  if (board.pirate !== null && board.pirate !== undefined && hexes.has(board.pirate)) drawPirate(layers.markers, hexes.get(board.pirate), posts);
  if (recent) drawMarks(layers.recent, recent, ctx, "recent-mark");

  const redrawLegal = () => {
    focusKey = focusKey ?? focusedSpotKey(svg);
    while (layers.legal.firstChild) layers.legal.removeChild(layers.legal.firstChild);
    drawLegal(layers.legal, legal, { ...ctx, onAction, chooseVictim, chooseBuild, onSelect, svg, redrawLegal });
    if (focusKey !== null) {
      const spots = [...layers.legal.querySelectorAll("[data-x]")];
      const same = spots.find((g) => spotKey(g) === focusKey) || layers.legal.querySelector("[data-x][tabindex='0']");
      if (same) focusSpot(layers.legal, same);
      else svg.focus({ preventScroll: true });
    }
    focusKey = null;
  };
  redrawLegal();
}

const spotKey = (g) => g.dataset.action || g.dataset.actions || `from:${g.dataset.from}`;

function focusedSpotKey(svg) {
  const active = document.activeElement;
  if (!active || !svg.contains(active)) return null;
  return active.dataset && active.dataset.x !== undefined ? spotKey(active) : "";
}

// Show the whole island (or archipelago) and its harbours; outer sea hexes (a neighbour missing) only up to their middle.
function viewBox(board, byCoord, posts) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const take = (x, y) => { minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); };
  const around = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
  for (const h of board.hexes) {
    const [cx, cy] = hexCenter(h.q, h.r);
    const outer = h.terrain === "sea" && around.some(([dq, dr]) => !byCoord.has(`${h.q + dq},${h.r + dr}`));
    if (outer) take(cx, cy);
    else for (const [x, y] of hexCorners(cx, cy)) take(x, y);
  }
  for (const { post: [x, y] } of posts) { take(x - 14, y - 14); take(x + 14, y + 14); }
  const pad = 6;
  return `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`;
}

function drawHexes(layers, board, frame, ctx, dice) {
  const rolled = dice ? dice[0] + dice[1] : null;
  for (const h of board.hexes) {
    const [cx, cy] = hexCenter(h.q, h.r);
    const land = LAND.has(h.terrain);
    const fill = h.terrain === "sea" && frame.has(h.id) ? "frame" : h.terrain;
    const label = h.token ? `${terrainName(h)} ${h.token}` : terrainName(h);
    const poly = el("polygon", {
      points: pointList(hexCorners(cx, cy, land || h.terrain === "fog" ? SIZE - 1.6 : SIZE)),
      fill: `url(#${ctx.prefix}${fill})`,
      stroke: land ? LAND_OUTLINE : h.terrain === "fog" ? "#262b34" : "#2a66a3",
      "stroke-width": land ? 3.2 : 0.8,
      "stroke-linejoin": "round",
      class: `hex terrain-${h.terrain}${frame.has(h.id) ? " frame" : ""}`,
      "data-hex": h.id,
    }, layers.hexes);
    el("title", {}, poly).textContent = label;
    if (h.terrain === "gold") {
      el("polygon", { points: pointList(hexCorners(cx, cy, SIZE - 3)), fill: `url(#${ctx.prefix}shine)`, "pointer-events": "none" },
        layers.hexes);
    }
    if (h.terrain === "fog") {
      el("text", { x: cx, y: cy + 10, "text-anchor": "middle", "font-size": 28, "font-weight": 700,
        fill: "#aeb8c6", class: "fog-mark", "font-family": "Georgia, serif" }, layers.tokens).textContent = "?";
    }
    if (h.token) drawToken(layers.tokens, cx, cy, h, rolled === h.token && h.id !== board.robber, ctx);
  }
}

function drawToken(layer, cx, cy, h, hot, ctx) {
  const red = h.token === 6 || h.token === 8;
  const ink = red ? "#c0281b" : "#2b2b2b";
  const g = el("g", { class: `token${hot ? " hot" : ""}`, "data-token": h.token }, layer);
  if (hot) el("circle", { cx, cy, r: 18, fill: "none", stroke: "#fff7b0", "stroke-width": 3, class: "token-glow" }, g);
  el("circle", { cx, cy, r: 14, fill: "#f7ecd0", stroke: "#a88b56", "stroke-width": 1.2, filter: `url(#${ctx.prefix}shadow)` }, g);
  el("text", {
    x: cx, y: cy + 3.6, "text-anchor": "middle", "font-size": red ? 14 : 13, "font-weight": 700, fill: ink,
    "font-family": "Georgia, 'Times New Roman', serif",
  }, g).textContent = String(h.token);
  const pips = h.pips || 0;
  for (let i = 0; i < pips; i++) el("circle", { cx: cx - (pips - 1) * 1.6 + i * 3.2, cy: cy + 8.3, r: 1.05, fill: ink }, g);
}

// Harbours stand in the sea: a post with the rate, and two piers to the two corners it serves.
function harbourPosts(board, ctx) {
  return board.harbours.map((harbour) => {
    const [a, b] = harbour.vertices.map((id) => vertexPoint(ctx.vertices.get(id)));
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    const sides = board.hexes
      .map((h) => ({ h, c: hexCenter(h.q, h.r) }))
      .filter(({ c }) => Math.abs(Math.hypot(c[0] - mx, c[1] - my) - APOTHEM) < 2);
    const sea = sides.find(({ h }) => !LAND.has(h.terrain));
    let dx, dy;
    if (sea) { dx = sea.c[0] - mx; dy = sea.c[1] - my; }
    else if (sides.length) { dx = mx - sides[0].c[0]; dy = my - sides[0].c[1]; }
    else { dx = 0; dy = APOTHEM; }
    return { harbour, ends: [a, b], post: [mx + dx * 0.62, my + dy * 0.62] };
  });
}

function drawHarbours(layer, posts, ctx) {
  for (const { harbour, ends: [a, b], post: [sx, sy] } of posts) {
    const g = el("g", { class: "harbour", "data-kind": harbour.kind, "data-edge": harbour.edge }, layer);
    for (const [vx, vy] of [a, b]) {
      const px = vx + (sx - vx) * 0.1, py = vy + (sy - vy) * 0.1;
      el("line", { x1: px, y1: py, x2: sx, y2: sy, stroke: "#6b4a2b", "stroke-width": 3.4, "stroke-linecap": "round" }, g);
      el("line", { x1: px, y1: py, x2: sx, y2: sy, stroke: "#a87b4f", "stroke-width": 1.6, "stroke-linecap": "round",
        "stroke-dasharray": "2 1.5" }, g);
    }
    const generic = harbour.kind === "generic";
    el("circle", { cx: sx, cy: sy, r: 12.5, fill: "#fbf3dc", stroke: "#6b4a2b", "stroke-width": 1.4,
      filter: `url(#${ctx.prefix}shadow)` }, g);
    const title = generic ? t("harbour_generic") : t("harbour_special", { resource: t(harbour.kind) });
    el("title", {}, g).textContent = title;
    if (generic) {
      el("text", { x: sx, y: sy + 3.4, "text-anchor": "middle", "font-size": 9.5, "font-weight": 700, fill: "#3e2a17" },
        g).textContent = "3:1";
    } else {
      el("text", { x: sx, y: sy - 2.4, "text-anchor": "middle", "font-size": 7.5, "font-weight": 700, fill: "#3e2a17" },
        g).textContent = "2:1";
      el("use", { href: `#${ctx.prefix}icon-${harbour.kind}`, x: sx - 5.5, y: sy - 1, width: 11, height: 11 }, g);
    }
  }
}

function drawTradeLines(layer, view, ctx) {
  const lines = view.seafarers && view.seafarers.trade_lines;
  if (!lines) return;
  for (const line of lines) {
    const [a, b] = line.vertices.map((id) => vertexPoint(ctx.vertices.get(id)));
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: ctx.color(line.seat), "stroke-width": 3,
      "stroke-dasharray": "6 5", opacity: 0.75, class: "trade-line" }, layer);
  }
}

function drawIslandBonuses(layer, view, ctx) {
  const sites = view.seafarers && view.seafarers.token_sites;
  if (!sites) return;
  for (const site of sites) {
    const [x, y] = vertexPoint(ctx.vertices.get(site.vertex));
    const g = el("g", { class: "island-bonus" }, layer);
    el("circle", { cx: x + 11, cy: y + 10, r: 6, fill: "#ffd54f", stroke: "#7a5a00", "stroke-width": 1 }, g);
    el("text", { x: x + 11, y: y + 12.8, "text-anchor": "middle", "font-size": 7.5, "font-weight": 700, fill: "#3b2a00" },
      g).textContent = `+${site.points}`;
    el("title", {}, g).textContent = t("island_bonus", { n: site.points });
  }
}

function drawRoad(layer, ends, fill, piece) {
  const [p, q] = inner(ends, 0.14);
  const g = el("g", { class: "road", "data-edge": piece.edge, "data-seat": piece.seat }, layer);
  el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: "#1a1a1a", "stroke-width": 9, "stroke-linecap": "round" }, g);
  el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], stroke: fill, "stroke-width": 6, "stroke-linecap": "round" }, g);
}

function drawShip(layer, [x, y], fill, piece) {
  const g = el("g", { class: "ship", transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`, "data-edge": piece.edge,
    "data-seat": piece.seat }, layer);
  const outline = { stroke: "#1a1a1a", "stroke-linejoin": "round" };
  el("path", { d: "M-12.5,0 H12.5 L8,7.5 H-8 Z", fill, ...outline, "stroke-width": 1.5 }, g);
  el("path", { d: "M0,0 V-14", stroke: "#1a1a1a", "stroke-width": 1.5 }, g);
  el("path", { d: "M1.4,-13.5 C7,-10 9.5,-5 10,-2 H1.4 Z", fill, ...outline, "stroke-width": 1.1 }, g);
  el("path", { d: "M-1.4,-11 L-8.5,-2 H-1.4 Z", fill: "#fbfbf5", ...outline, "stroke-width": 1.1 }, g);
}

function drawBuilding(layer, [x, y], fill, city, piece) {
  const g = el("g", { class: city ? "city" : "settlement", transform: `translate(${x.toFixed(2)},${y.toFixed(2)})`,
    "data-vertex": piece.vertex, "data-seat": piece.seat }, layer);
  const outline = { stroke: "#161616", "stroke-width": 1.6, "stroke-linejoin": "round" };
  if (city) {
    el("path", { d: "M-13,9 V-3 L-7,-10 L-1,-3 V-1 H13 V9 Z", fill, ...outline }, g);
    el("rect", { x: -9, y: 1, width: 4, height: 4, fill: "#1d1d1d", opacity: 0.55 }, g);
    el("rect", { x: 3, y: 3, width: 3.5, height: 6, fill: "#1d1d1d", opacity: 0.55 }, g);
    el("path", { d: "M-13,-3 L-7,-10 L-1,-3", fill: "none", stroke: "#fff", "stroke-opacity": 0.45, "stroke-width": 1 }, g);
  } else {
    el("path", { d: "M-8.5,7.5 V-2 L0,-9.5 L8.5,-2 V7.5 Z", fill, ...outline }, g);
    el("rect", { x: -2, y: 1.5, width: 4, height: 6, fill: "#1d1d1d", opacity: 0.55 }, g);
    el("path", { d: "M-8.5,-2 L0,-9.5 L8.5,-2", fill: "none", stroke: "#fff", "stroke-opacity": 0.45, "stroke-width": 1 }, g);
  }
}

function drawRobber(layer, h) {
  const [cx, cy] = hexCenter(h.q, h.r);
  el("polygon", { points: pointList(hexCorners(cx, cy, SIZE - 2)), fill: "#000", opacity: 0.22, class: "robbed" }, layer);
  const x = h.token ? cx - 21 : cx, y = cy + 1;
  const g = el("g", { class: "robber", transform: `translate(${x.toFixed(2)},${y.toFixed(2)})` }, layer);
  el("title", {}, g).textContent = t("robber");
  el("ellipse", { cx: 0, cy: 12, rx: 8, ry: 2.6, fill: "#000", opacity: 0.35 }, g);
  const body = { fill: "#34343c", stroke: "#d8d8de", "stroke-width": 1 };
  el("path", { d: "M-7,12 C-7.5,4 -5.5,0 -3,-2 L3,-2 C5.5,0 7.5,4 7,12 Z", ...body }, g);
  el("circle", { cx: 0, cy: -6.5, r: 5.2, ...body }, g);
}

function drawPirate(layer, h, posts) {
  let [cx, cy] = hexCenter(h.q, h.r);
  // A harbour post may stand in the pirate's hex: sail to the other side of it.
  const near = posts.filter(({ post: [x, y] }) => Math.hypot(x - cx, y - cy) < APOTHEM);
  let scale = 1.35;
  if (near.length) {
    const [px, py] = near[0].post;
    const d = Math.hypot(px - cx, py - cy) || 1;
    cx -= ((px - cx) / d) * 11;
    cy -= ((py - cy) / d) * 11;
    scale = 1.1;
  }
  const g = el("g", { class: "pirate", transform: `translate(${cx.toFixed(2)},${(cy + 2).toFixed(2)}) scale(${scale})` }, layer);
  el("title", {}, g).textContent = t("pirate");
  el("path", { d: "M-13,2 H13 L8,10 H-8 Z", fill: "#161616", stroke: "#cfcfcf", "stroke-width": 0.8 }, g);
  el("path", { d: "M0,2 V-15", stroke: "#161616", "stroke-width": 1.6 }, g);
  el("path", { d: "M-10,-12 H10 V-1 H-10 Z", fill: "#222", stroke: "#cfcfcf", "stroke-width": 0.8 }, g);
  el("circle", { cx: 0, cy: -7.5, r: 3, fill: "#f2f2f2" }, g);
  el("circle", { cx: -1.1, cy: -7.8, r: 0.8, fill: "#222" }, g);
  el("circle", { cx: 1.1, cy: -7.8, r: 0.8, fill: "#222" }, g);
  el("path", { d: "M-4,-2.5 L4,-5 M-4,-5 L4,-2.5", stroke: "#f2f2f2", "stroke-width": 1 }, g);
}

// Mark a place on the board while a log line about it is hovered (null clears it).
export function highlightPlace(svg, place) {
  const board = drawn.get(svg);
  if (!board) return;
  while (board.layer.firstChild) board.layer.removeChild(board.layer.firstChild);
  if (place) drawMarks(board.layer, place, board.ctx, "hover-mark");
}

function drawMarks(layer, recent, ctx, cls) {
  for (const id of recent.vertices || []) {
    if (!ctx.vertices.has(id)) continue;
    const [x, y] = vertexPoint(ctx.vertices.get(id));
    el("circle", { cx: x, cy: y, r: 15, class: cls }, layer);
  }
  for (const id of recent.edges || []) {
    if (!ctx.edges.has(id)) continue;
    const [p, q] = inner(edgeEnds(id, ctx), 0.1);
    el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: cls, "stroke-linecap": "round" }, layer);
  }
  for (const id of recent.hexes || []) {
    const h = ctx.hexes.get(id);
    if (!h) continue;
    const [cx, cy] = hexCenter(h.q, h.r);
    el("polygon", { points: pointList(hexCorners(cx, cy, SIZE - 3)), class: cls }, layer);
  }
}
