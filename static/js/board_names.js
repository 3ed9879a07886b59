// Places on the board named by what they are, from a view's board alone (the log, the legal spots and the map's
// text description share them): "Forest 6", "corner of Forest 6, Hills 8 and the sea, wool harbour 2:1",
// "road between Forest 6 and Hills 8". A screen reader's user tells one corner from another by these names.
import { t } from "./i18n.js";

// A vertex's offsets from the centres of the (up to three) hexes around it, on the vertex lattice, with the side of
// the hex each one is on (the hexes' points are up).
const CORNER_SIDES = { "0,-2": "n", "1,-1": "ne", "1,1": "se", "0,2": "s", "-1,1": "sw", "-1,-1": "nw" };
const CORNERS = new Set(Object.keys(CORNER_SIDES));
// An edge's side of the hex: the sum of its two corners' offsets.
const EDGE_SIDES = { "1,-3": "ne", "2,0": "e", "1,3": "se", "-1,3": "sw", "-2,0": "w", "-1,-3": "nw" };

function offset(board, vertexId, h) {
  const v = board.vertices[vertexId];
  return [v.x - (2 * h.q + h.r), v.y - 3 * h.r];
}

const landish = (h) => h && h.terrain !== "sea" && h.terrain !== "fog";

export function hexesAtVertex(board, vertexId) {
  const v = board.vertices[vertexId];
  if (!v) return [];
  return board.hexes.filter((h) => CORNERS.has(`${v.x - (2 * h.q + h.r)},${v.y - 3 * h.r}`)).map((h) => h.id);
}

// "Forest 6"; two hexes with the same terrain and number are numbered in board order, so every name is one place.
export function hexName(board, hexId) {
  const h = board.hexes.find((x) => x.id === hexId);
  if (!h) return "";
  const base = h.token ? `${t(`terrain_${h.terrain}`)} ${h.token}` : t(`terrain_${h.terrain}`);
  if (h.terrain === "sea") return base;
  const twins = board.hexes.filter((x) => x.terrain === h.terrain && x.token === h.token);
  return twins.length > 1 ? `${base} (${twins.indexOf(h) + 1})` : base;
}

// "Forest 6, Hills 8 and the sea" in the page's language.
function listed(names) {
  const lang = document.documentElement.lang || "en";
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(names);
}

function landOf(board, hexIds) {
  return hexIds.filter((id) => landish(board.hexes.find((x) => x.id === id)));
}

export function harbourAt(board, vertexId) {
  return (board.harbours || []).find((harbour) => harbour.vertices.includes(vertexId)) || null;
}

export function harbourName(harbour) {
  return harbour.kind === "generic" ? t("name_harbour_generic") : t("name_harbour_special", { resource: t(harbour.kind) });
}

// "corner of Forest 6, Hills 8 and the sea, wool harbour 2:1"
export function vertexName(board, vertexId) {
  const around = hexesAtVertex(board, vertexId);
  const land = landOf(board, around);
  const names = land.map((id) => hexName(board, id));
  if (land.length < 3) names.push(t("name_the_sea"));
  const harbour = harbourAt(board, vertexId);
  // A coast corner by one land hex only: which of its six corners ("north corner of Forest 4 and the sea").
  const side = land.length === 1 ? CORNER_SIDES[offset(board, vertexId, board.hexes.find((x) => x.id === land[0])).join(",")] : null;
  const name = side ? t("name_corner_side", { side: t(`side_${side}`), places: listed(names) })
    : t("name_corner", { places: listed(names) });
  return harbour ? `${name}, ${harbourName(harbour)}` : name;
}

// "edge between Forest 6 and Hills 8", "coast of Forest 6", "sea by Forest 6 and Hills 8"
export function edgeName(board, edgeId) {
  const edge = board.edges[edgeId];
  if (!edge) return "";
  const [a, b] = edge.vertices.map((id) => hexesAtVertex(board, id));
  const shared = landOf(board, a.filter((id) => b.includes(id)));
  const names = (ids) => listed(ids.map((id) => hexName(board, id)));
  if (shared.length === 2) return t("name_edge_between", { places: names(shared) });
  if (shared.length === 1) {
    // Which of the hex's six sides ("north-east coast of Forest 4").
    const h = board.hexes.find((x) => x.id === shared[0]);
    const [p, q] = edge.vertices.map((id) => offset(board, id, h));
    const side = EDGE_SIDES[`${p[0] + q[0]},${p[1] + q[1]}`];
    return side ? t("name_edge_coast_side", { side: t(`side_${side}`), place: names(shared) })
      : t("name_edge_coast", { place: names(shared) });
  }
  const near = landOf(board, [...new Set([...a, ...b])]);
  return near.length ? t("name_edge_sea_by", { places: names(near) }) : t("place_sea");
}
