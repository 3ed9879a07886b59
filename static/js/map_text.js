// The map in words, one key away ("M"): every tile with its number, the harbours, the buildings and the roads, each
// place named as the board's spots name it (board_names.js). Closing it gives the focus back where it was.
import { edgeName, harbourName, hexName, vertexName } from "./board_names.js";
import { button, node } from "./dom.js";
import { t } from "./i18n.js";
import { $, app, seatName } from "./state.js";

let returnFocus = null;

function section(title, items) {
  return [node("h3", { text: title }), node("ul", {}, ...(items.length ? items : [t("map_none")]).map((text) => node("li", { text })))];
}

function describeMap(view) {
  const board = view.board;
  const tiles = board.hexes.filter((h) => h.terrain !== "sea").map((h) => {
    const name = hexName(board, h.id);
    return h.id === board.robber ? t("map_robber_here", { place: name }) : name;
  });
  const harbours = (board.harbours || []).map((harbour) => t("map_harbour_at", { harbour: harbourName(harbour),
    places: harbour.vertices.map((v) => vertexName(board, v)).join(" / ") }));
  const pieces = view.pieces;
  const buildings = [
    ...pieces.settlements.map((s) => [s, "piece_settlement"]),
    ...pieces.cities.map((c) => [c, "piece_city"]),
  ].map(([p, piece]) => t("map_building", { who: seatName(p.seat), piece: t(piece), place: vertexName(board, p.vertex) }));
  const roads = [...pieces.roads.map((r) => [r, "piece_road"]), ...(pieces.ships || []).map((s) => [s, "piece_ship"])]
    .map(([p, piece]) => t("map_road", { who: seatName(p.seat), place: `${t(piece)}, ${edgeName(board, p.edge)}` }));
  return [
    ...section(t("map_tiles"), tiles), ...section(t("map_harbours"), harbours),
    ...section(t("map_buildings"), buildings), ...section(t("map_roads"), roads),
  ];
}

export function toggleMapText(open = undefined) {
  const box = $("map-text");
  if (!box || !app.view) return;
  const show = open === undefined ? box.hidden : open;
  if (show) {
    returnFocus = document.activeElement;
    box.replaceChildren(node("div", { class: "help-box map-text-box" },
      node("h2", { id: "map-text-title", text: t("map_title") }), ...describeMap(app.view),
      button(t("close"), () => toggleMapText(false), { id: "map-text-close", class: "button secondary" })));
    box.hidden = false;
    $("map-text-close").focus({ preventScroll: true });
    return;
  }
  box.hidden = true;
  if (returnFocus && document.contains(returnFocus)) returnFocus.focus({ preventScroll: true });
  returnFocus = null;
}
