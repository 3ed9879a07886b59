// The game log: every move in words, filled from the moves API for whatever the socket did not deliver; places
// on the board are named from the land around them, and hovering a line shows its place.
import { highlightPlace, resourceIcon } from "./board.js";
import { hexesAtVertex as boardHexesAtVertex, hexName } from "./board_names.js";
import { node, swatch } from "./dom.js";
import { t, tParts } from "./i18n.js";
import { $, apiUrl, app, LOG_LIMIT, RESOURCES, seatName } from "./state.js";

export async function fetchLog() {
  if (app.logLoading) return;
  app.logLoading = true;
  try {
    const response = await fetch(apiUrl(`moves/?since=${app.loggedSeq}`), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (response.ok) {
      const data = await response.json();
      for (const move of data.moves || []) appendMove(move.seq, move.events || []);
    }
  } catch (error) {
    // The log is a convenience; the game itself goes on without it.
  } finally {
    app.logLoading = false;
    const buffered = app.logBuffer.splice(0).sort((a, b) => a.seq - b.seq);
    for (const move of buffered) appendMove(move.seq, move.events);
  }
}

export function logMove(seq, events) {
  if (app.logLoading) app.logBuffer.push({ seq, events });
  else if (seq > app.loggedSeq + 1) {
    app.logBuffer.push({ seq, events });
    fetchLog();
  } else appendMove(seq, events);
}

export function appendMove(seq, events) {
  if (seq <= app.loggedSeq) return;
  app.loggedSeq = seq;
  const log = $("game-log");
  const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const private_ = new Set(events.filter((e) => e.type === "stolen_card").map((e) => `${e.seat}:${e.victim}`));
  const lines = [];
  // The first move is the starting player's first settlement.
  if (seq === 1 && events.length && typeof events[0].seat === "number") {
    // Its own line type: the first event may be a timeout, whose line must stay the one saying so.
    const started = { type: "game_started", seat: events[0].seat };
    lines.push({ event: started, line: { parts: tParts("ev_starts", { who: seatName(started.seat) }), cls: "turn" } });
  }
  for (const event of events) {
    if (event.type === "stole" && private_.has(`${event.seat}:${event.victim}`)) continue;
    for (const line of describe(event)) lines.push({ event, line });
  }
  const items = [];
  for (const { event, line } of lines) {
    const seat = line.seat ?? event.seat;
    const item = node("li", { "data-type": event.type, "data-seq": seq, class: line.cls || null });
    if (typeof seat === "number" && seat >= 0) item.append(swatch(seat));
    item.append(node("span", {}, ...(line.parts || [line.text])));
    if (line.place) {
      // Hovering (or focusing) the line shows its place on the board.
      item.dataset.place = JSON.stringify(line.place);
      item.tabIndex = 0;
      item.classList.add("has-place");
      const show = () => highlightPlace($("board"), line.place);
      const hide = () => highlightPlace($("board"), null);
      item.addEventListener("mouseenter", show);
      item.addEventListener("focus", show);
      item.addEventListener("mouseleave", hide);
      item.addEventListener("blur", hide);
    }
    log.append(item);
    items.push(item);
  }
  while (log.childElementCount > LOG_LIMIT) log.firstElementChild.remove();
  if (stick) log.scrollTop = log.scrollHeight;
  return items;
}

export function hexesAtVertex(vertexId) {
  return boardHexesAtVertex(app.view.board, vertexId);
}

export function placeName(hexId) {
  return app.view ? hexName(app.view.board, hexId) : "";
}

export function landNames(hexIds) {
  const land = hexIds.filter((id) => {
    const h = app.view.board.hexes.find((x) => x.id === id);
    return h && h.terrain !== "sea" && h.terrain !== "fog";
  });
  return land.map(placeName).join(" / ");
}

export function vertexPlace(vertexId) {
  return landNames(hexesAtVertex(vertexId)) || t("place_sea");
}

export function edgePlace(edgeId) {
  const edge = app.view.board.edges[edgeId];
  if (!edge) return "";
  const [a, b] = edge.vertices.map(hexesAtVertex);
  const shared = a.filter((id) => b.includes(id));
  const land = landNames(shared);
  if (land) return land;
  const near = landNames([...new Set([...a, ...b])]);
  return near ? t("place_near", { place: near }) : t("place_sea");
}

// "2 [icon] Lumber, 1 [icon] Ore" with the resources' icons, for log lines.
export function cardsNodes(cards) {
  const parts = RESOURCES.filter((r) => cards && cards[r]);
  if (!parts.length) return document.createTextNode(t("nothing"));
  const span = node("span", { class: "cards" });
  parts.forEach((r, i) => {
    if (i) span.append(", ");
    span.append(node("span", { class: `card-count res-${r}` }, `${cards[r]} `, resourceIcon(r), ` ${t(r)}`));
  });
  return span;
}

export function resourceNode(r) {
  return node("span", { class: `card-count res-${r}` }, resourceIcon(r), ` ${t(r)}`);
}

// One event → zero or more log lines, each {parts (strings and nodes) or text, seat?, cls?, place?}; a place is
// {vertices, edges, hexes} to show on the board when the line is hovered.
export function describe(e) {
  const who = seatName(e.seat);
  const line = (key, params = {}, extra = {}) => [{ parts: tParts(key, { who, ...params }), ...extra }];
  const seatLine = (seat, key, params) => ({ seat: Number(seat), parts: tParts(key, { who: seatName(Number(seat)), ...params }) });
  switch (e.type) {
    case "rolled":
      return line("ev_rolled", { sum: e.dice[0] + e.dice[1], a: e.dice[0], b: e.dice[1] }, { cls: "roll" });
    case "produced": {
      const entries = Object.entries(e.gains || {});
      if (!entries.length) return [{ text: t("ev_produced_none"), cls: "muted" }];
      return entries.map(([seat, gains]) => seatLine(seat, "ev_produced", { cards: cardsNodes(gains) }));
    }
    case "starting_resources":
      return line("ev_starting_resources", { cards: cardsNodes(e.resources) });
    case "must_discard":
      return Object.entries(e.counts).map(([seat, n]) => seatLine(seat, "ev_must_discard", { n }));
    case "discarded":
      return line("ev_discarded", { cards: cardsNodes(e.cards) });
    case "built_settlement":
    case "built_city":
      return line(`ev_${e.type}`, { place: vertexPlace(e.vertex) }, { place: { vertices: [e.vertex] } });
    case "built_road":
    case "built_ship":
      return line(`ev_${e.type}`, { place: edgePlace(e.edge) }, { place: { edges: [e.edge] } });
    case "moved_ship":
      return line("ev_moved_ship", { place: edgePlace(e.to) }, { place: { edges: [e.to] } });
    case "moved_robber":
    case "moved_pirate":
      return line(`ev_${e.type}`, { place: placeName(e.hex) }, { place: { hexes: [e.hex] } });
    case "stole":
      return line("ev_stole", { victim: seatName(e.victim) });
    case "stolen_card":
      if (e.seat === app.yourSeat) return line("ev_stolen_card_thief", { victim: seatName(e.victim), resource: resourceNode(e.resource) });
      return line("ev_stolen_card_victim", { resource: resourceNode(e.resource) });
    case "longest_road":
    case "largest_army":
      if (e.seat === null || e.seat === undefined || e.seat < 0) return [{ text: t(`ev_${e.type}_none`) }];
      return line(`ev_${e.type}`, { n: e.length ?? e.knights });
    case "drew_development":
      return line("ev_drew_development", { card: t(e.card) });
    case "played_year_of_plenty":
      return line("ev_played_year_of_plenty", { cards: cardsNodes(Object.fromEntries(RESOURCES.map((r) => [r, e.resources.filter((x) => x === r).length]))) });
    case "played_monopoly": {
      // `taken` maps each victim's seat to how many cards of the resource they gave up.
      const taken = Object.entries(e.taken || {}).filter(([, n]) => n > 0);
      if (!taken.length) return line("ev_played_monopoly_none", { resource: resourceNode(e.resource) });
      const n = taken.reduce((sum, [, k]) => sum + k, 0);
      const from = taken.map(([seat, k]) => t("victim_count", { who: seatName(Number(seat)), n: k })).join(", ");
      return line("ev_played_monopoly", { resource: resourceNode(e.resource), n, from });
    }
    case "traded_bank":
      return line("ev_traded_bank", { n: e.count, give: resourceNode(e.give), get: resourceNode(e.get) });
    case "trade_offered":
      return line("ev_trade_offered", { give: cardsNodes(e.give), get: cardsNodes(e.get), to: (e.to || []).map(seatName).join(", ") });
    case "trade_reply":
      // Counter terms are stored from the offering player's side: the one who counters gives `get`.
      if (e.reply === "counter") return line("ev_trade_counter", { give: cardsNodes(e.get), get: cardsNodes(e.give) });
      // The offering player turns down a counter-offer (`partner` made it).
      if (e.partner !== undefined) return line("ev_counter_declined", { partner: seatName(e.partner) });
      return line(`ev_trade_${e.reply}`);
    case "traded":
      return line("ev_traded", { partner: seatName(e.partner), give: cardsNodes(e.give), get: cardsNodes(e.get) });
    case "turn_ended":
      return [{ seat: e.next, text: t("ev_turn", { who: seatName(e.next) }), cls: "turn" }];
    case "game_won":
      return line("ev_game_won", { n: (e.victory_points || {})[String(e.seat)] ?? "" }, { cls: "won" });
    case "gold_owed":
      return Object.entries(e.counts).map(([seat, n]) => seatLine(seat, "ev_gold_owed", { n }));
    case "chose_gold":
      return line("ev_chose_gold", { cards: cardsNodes(e.cards) });
    case "revealed":
      return line(e.token ? "ev_revealed_token" : "ev_revealed", { terrain: t(`terrain_${e.terrain}`), n: e.token }, { place: { hexes: [e.hex] } });
    case "token_drawn":
      return line("ev_token_drawn", { n: e.token });
    case "moved_token":
      return line("ev_moved_token", { n: e.token });
    case "island_bonus":
      return line("ev_island_bonus", { n: e.points });
    case "timeout": {
      // The policy played for a person whose clock ran out (or who left): tell everyone, and them above all.
      const policy = ["bot", "skip", "replace"].includes(e.policy) ? e.policy : "bot";
      return line(e.seat === app.yourSeat ? `ev_timeout_you_${policy}` : `ev_timeout_${policy}`, {}, { cls: "timeout" });
    }
    case "seat_replaced":
      return line(e.seat === app.yourSeat ? "ev_seat_replaced_you" : "ev_seat_replaced", {}, { cls: "timeout" });
    default: {
      const key = `ev_${e.type}`;
      const text = t(key, { who });
      return text === key ? [] : [{ text }];
    }
  }
}
