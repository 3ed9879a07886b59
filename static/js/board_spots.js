// The board's legal placements: a clickable spot for exactly each legal action of the current choice, with a
// tap area of at least MIN_TAP_PX on screen around every one; the two-click ship move.
import { t } from "./i18n.js";
import { edgeEnds, edgeMiddle, el, hexCenter, hexCorners, inner, pointList, SIZE, terrainName, vertexPoint } from "./board_geometry.js";
import { edgeName, hexName, vertexName } from "./board_names.js";

// The move_ship choice is two clicks (a ship, then where it goes): remember the first per board.
const shipSelection = new WeakMap();

// The ship this board's player picked to move, if any.
export function selectedShip(svg) {
  return shipSelection.get(svg);
}

export // Every legal spot is a target at least 44 px across on screen (MIN_TAP_PX, a finger's width), whatever the map's
// scale: 16 board units was ~13 px on a phone. Neighbouring spots may overlap at the edges of their targets, never
// over each other's centres (corners 40 units apart, edge middles 35).
const MIN_TAP_PX = 44;

// The cap on an edge's tap half-width, in board units (edge middles are ~35 apart): the tightest of the caps.
const EDGE_TAP_CAP = 32;

// Screen pixels a board unit must be for every spot to reach MIN_TAP_PX.
export const TAP_UNITS_PX = MIN_TAP_PX / 2 / EDGE_TAP_CAP;

// In board units, capped below the distance between neighbouring spots (a wide map on a phone asks for zooming,
// which zoom.js does by itself while the person has a spot to choose).
function tapRadius(ctx, cap) {
  return Math.min(cap, ctx.unitPx > 0 ? MIN_TAP_PX / 2 / ctx.unitPx : 16);
}

// "Corner of Forest 6, Hills 8 and the sea: Build a settlement here": the place first, then what the spot does.
function named(place, action) {
  return place ? t("spot_named", { place: place.charAt(0).toUpperCase() + place.slice(1), action }) : action;
}

// The arrow keys move the focus to the nearest legal spot that way (straight ahead counts more than aside).
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

function nextSpot(layer, from, [dx, dy]) {
  const fx = Number(from.dataset.x), fy = Number(from.dataset.y);
  let best = null, bestCost = Infinity;
  for (const other of layer.querySelectorAll("[data-x]")) {
    const vx = Number(other.dataset.x) - fx, vy = Number(other.dataset.y) - fy;
    const along = vx * dx + vy * dy, aside = Math.abs(vx * dy - vy * dx);
    if (other === from || along <= 0.5) continue;
    const cost = along + 2 * aside;
    if (cost < bestCost) [best, bestCost] = [other, cost];
  }
  return best;
}

// One spot of the board is in the Tab order at a time (a roving tabindex): Tab goes on to the panels, the arrow
// keys, Home and End go from spot to spot.
export function focusSpot(layer, target) {
  for (const other of layer.querySelectorAll("[data-x]")) other.setAttribute("tabindex", other === target ? "0" : "-1");
  target.focus({ preventScroll: false });
}

function spotKeys(layer, g, event, run) {
  if (event.key === "Enter" || event.key === " ") return run(event);
  const spots = spotsInOrder(layer);
  let target = null;
  if (ARROWS[event.key]) target = nextSpot(layer, g, ARROWS[event.key]);
  else if (event.key === "Home") target = spots[0];
  else if (event.key === "End") target = spots[spots.length - 1];
  else return undefined;
  event.preventDefault();
  if (target) focusSpot(layer, target);
  return undefined;
}

function spot(layer, kind, attrs, label, fire, [x, y]) {
  const base = kind.includes("legal-source") ? "" : "legal-spot ";
  const g = el("g", { class: `${base}${kind}`, tabindex: -1, role: "button", "aria-label": label, "data-x": x.toFixed(1),
    "data-y": y.toFixed(1), ...attrs }, layer);
  el("title", {}, g).textContent = label;
  const run = (event) => { event.preventDefault(); event.stopPropagation(); fire(); };
  g.addEventListener("click", run);
  g.addEventListener("keydown", (event) => spotKeys(layer, g, event, run));
  return g;
}

// The spots in reading order (top to bottom, then left to right). The drawing order stays as it is (corners over
// edges, for taps): only the keys follow this one.
function spotsInOrder(layer) {
  const row = (g) => Math.round(Number(g.dataset.y) / 10);
  return [...layer.querySelectorAll("[data-x]")].sort((a, b) => row(a) - row(b) || Number(a.dataset.x) - Number(b.dataset.x));
}

export function vertexSpot(layer, action, ctx, label) {
  const [x, y] = vertexPoint(ctx.vertices.get(action.vertex));
  const city = action.type === "build_city";
  const g = spot(layer, city ? "vertex-spot city-spot" : "vertex-spot", { "data-action": JSON.stringify(action) },
    named(ctx.board ? vertexName(ctx.board, action.vertex) : "", label), () => ctx.onAction(action), [x, y]);
  const scale = ctx.spotScale || 1;
  el("circle", { cx: x, cy: y, r: Math.max(16 * Math.min(scale, 1.6), tapRadius(ctx, 36)), class: "hit" }, g);
  el("circle", { cx: x, cy: y, r: city ? 15 : 6 * scale, class: "mark" }, g);
}

export function edgeSpot(layer, edgeId, kind, attrs, label, fire, ctx) {
  const g = spot(layer, `edge-spot ${kind}`, attrs, named(ctx.board ? edgeName(ctx.board, edgeId) : "", label), fire,
    edgeMiddle(edgeId, ctx));
  // The tap area is a band along the edge (a polygon: a vertical line alone would have no width).
  const [hp, hq] = inner(edgeEnds(edgeId, ctx), 0.15);
  const length = Math.hypot(hq[0] - hp[0], hq[1] - hp[1]);
  const half = Math.max(15, tapRadius(ctx, EDGE_TAP_CAP));
  const nx = ((hp[1] - hq[1]) / length) * half, ny = ((hq[0] - hp[0]) / length) * half;
  const band = [[hp[0] + nx, hp[1] + ny], [hq[0] + nx, hq[1] + ny], [hq[0] - nx, hq[1] - ny], [hp[0] - nx, hp[1] - ny]];
  // One shape (so one `.hit`): the band, and a disc at the edge's middle, so that the target is as long as wide.
  const [mx, my] = edgeMiddle(edgeId, ctx);
  const disc = Array.from({ length: 16 }, (_, k) => [mx + half * Math.cos(k * Math.PI / 8), my + half * Math.sin(k * Math.PI / 8)]);
  // Both rings wound the same way, so that the nonzero fill joins them rather than cutting their overlap out.
  const area = (ring) => ring.reduce((sum, [x, y], k) => sum + x * ring[(k + 1) % ring.length][1] - ring[(k + 1) % ring.length][0] * y, 0);
  if (Math.sign(area(disc)) !== Math.sign(area(band))) disc.reverse();
  const ring = (points) => `M${points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" L")} Z`;
  el("path", { d: `${ring(band)} ${ring(disc)}`, class: "hit" }, g);
  if (kind.includes("ship-source")) {
    const [x, y] = edgeMiddle(edgeId, ctx);
    el("circle", { cx: x, cy: y - 3, r: 16, class: "mark" }, g);
  } else {
    const [p, q] = inner(edgeEnds(edgeId, ctx), 0.28);
    el("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "mark", "stroke-linecap": "round" }, g);
  }
  return g;
}

export function hexSpot(layer, hexId, kind, attrs, label, fire, ctx) {
  const h = ctx.hexes.get(hexId);
  const [cx, cy] = hexCenter(h.q, h.r);
  const g = spot(layer, `hex-spot ${kind}`, attrs, label, fire, [cx, cy]);
  el("polygon", { points: pointList(hexCorners(cx, cy, SIZE - 3)), class: "hit" }, g);
  el("circle", { cx, cy, r: 20, class: "mark" }, g);
  return g;
}

export function drawLegal(layer, legal, ctx) {
  const byHex = new Map();
  const shipMoves = legal.filter((a) => a.type === "move_ship");
  let selected = shipSelection.get(ctx.svg);
  if (selected !== undefined && !shipMoves.some((a) => a.from === selected)) {
    shipSelection.delete(ctx.svg);
    selected = undefined;
  }
  const edgeActions = [], vertexActions = [];
  for (const action of legal) {
    switch (action.type) {
      case "build_settlement":
      case "build_city":
        vertexActions.push(action);
        break;
      case "build_road":
      case "build_ship":
        edgeActions.push(action);
        break;
      case "move_robber":
      case "move_pirate":
      case "move_token": {
        const key = `${action.type}:${action.hex}`;
        if (!byHex.has(key)) byHex.set(key, []);
        byHex.get(key).push(action);
        break;
      }
      default:
        break;
    }
  }

  for (const actions of byHex.values()) {
    const first = actions[0];
    const h = ctx.hexes.get(first.hex);
    const place = ctx.board ? hexName(ctx.board, first.hex) : h.token ? `${terrainName(h)} ${h.token}` : terrainName(h);
    const label = t(`spot_${first.type}`, { place });
    const victims = actions.filter((a) => a.victim !== undefined).map((a) => a.victim);
    const attrs = { "data-action": JSON.stringify(actions.length === 1 ? first : { type: first.type, hex: first.hex }) };
    if (actions.length > 1) attrs["data-victims"] = JSON.stringify(victims);
    const fire = () => {
      if (actions.length === 1) ctx.onAction(first);
      else if (ctx.chooseVictim) ctx.chooseVictim(actions);
      else ctx.onAction(first);
    };
    hexSpot(layer, first.hex, first.type === "move_pirate" ? "sea-spot" : "land-spot", attrs, label, fire, ctx);
  }

  // A coastal edge may take a road or a ship: one spot that asks which (two spots there would hide one another).
  const byEdge = new Map();
  for (const action of edgeActions) {
    if (!byEdge.has(action.edge)) byEdge.set(action.edge, []);
    byEdge.get(action.edge).push(action);
  }
  for (const [edge, actions] of byEdge) {
    if (actions.length > 1 && ctx.chooseBuild) {
      edgeSpot(layer, edge, "road-ship-spot", { "data-actions": JSON.stringify(actions) }, t("spot_road_or_ship"),
        () => ctx.chooseBuild(actions), ctx);
      continue;
    }
    for (const action of actions) {
      const ship = action.type === "build_ship";
      edgeSpot(layer, edge, ship ? "ship-spot" : "road-spot", { "data-action": JSON.stringify(action) },
        t(ship ? "spot_build_ship" : "spot_build_road"), () => ctx.onAction(action), ctx);
    }
  }

  if (shipMoves.length) {
    const sources = [...new Set(shipMoves.map((a) => a.from))];
    for (const from of sources) {
      edgeSpot(layer, from, `legal-source ship-source${from === selected ? " selected" : ""}`,
        { "data-from": from }, t(from === selected ? "spot_ship_selected" : "spot_ship_source"), () => {
          if (shipSelection.get(ctx.svg) === from) shipSelection.delete(ctx.svg);
          else shipSelection.set(ctx.svg, from);
          ctx.redrawLegal();
          if (ctx.onSelect) ctx.onSelect();
        }, ctx);
    }
    if (selected !== undefined) {
      for (const action of shipMoves.filter((a) => a.from === selected)) {
        edgeSpot(layer, action.to, "ship-spot move-ship-spot", { "data-action": JSON.stringify(action) },
          t("spot_move_ship"), () => { shipSelection.delete(ctx.svg); ctx.onAction(action); }, ctx);
      }
    }
  }

  // Corners last, so that where a corner and an edge spot overlap, the corner wins the tap.
  for (const action of vertexActions) {
    vertexSpot(layer, action, ctx, t(action.type === "build_city" ? "spot_build_city" : "spot_build_settlement"));
  }
  const first = spotsInOrder(layer)[0];
  if (first) first.setAttribute("tabindex", "0");
}
