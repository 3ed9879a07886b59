// The board's geometry in SVG units: hex centres and corners, vertices and edges on the lattice, and `el`, which
// makes an SVG element. Shared by the board's drawing (board.js), its art and its legal spots.
import { t } from "./i18n.js";

export const NS = "http://www.w3.org/2000/svg";
export const SIZE = 40;
export const SQRT3 = Math.sqrt(3);
export const APOTHEM = SIZE * SQRT3 / 2;

export const LAND = new Set(["forest", "hills", "pasture", "fields", "mountains", "desert", "gold"]);

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function hexCenter(q, r) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

// A hex centre is (2q + r, 3r) on the vertex lattice; one x step is √3/2 · SIZE, one y step SIZE / 2.
export function vertexPoint(v) {
  return [v.x * APOTHEM, v.y * SIZE / 2];
}

export function hexCorners(cx, cy, size = SIZE) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const angle = Math.PI / 180 * (60 * k - 90);
    pts.push([cx + size * Math.cos(angle), cy + size * Math.sin(angle)]);
  }
  return pts;
}

export const pointList = (pts) => pts.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

export function terrainName(h) {
  return t(`terrain_${h.terrain}`);
}

export function edgeEnds(edgeId, ctx) {
  const edge = ctx.edges.get(edgeId);
  return edge.vertices.map((id) => vertexPoint(ctx.vertices.get(id)));
}

export function edgeMiddle(edgeId, ctx) {
  const [a, b] = edgeEnds(edgeId, ctx);
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
}

// A segment of the edge between fractions f and 1 - f of its length.
export function inner([a, b], f) {
  return [[a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], [b[0] + (a[0] - b[0]) * f, b[1] + (a[1] - b[1]) * f]];
}
