// The replay's game log: every move in the game page's own words (log.js describe()), one list for the whole
// game, the lines of the move shown highlighted and scrolled into view inside the list (never the page, so that
// a phone keeps the board in view). A line says where its move happened on the board when hovered or focused, and
// a click on it shows that move.
import { highlightPlace } from "./board.js";
import { node, swatch } from "./dom.js";
import { t, tParts } from "./i18n.js";
import { describe, resourceNode } from "./log.js";
import { app, seatName } from "./state.js";
import { TEXT } from "./replay_text.js";

// Lines by move: {seq: [{seat, parts, cls, place}]}, for the caption under the board.
const linesBySeq = new Map();

// One event in words. A finished game shows every seat's secrets, which the live log words for their own seat only
// ("you drew", "stole from you"): those two say who, in the third person.
function eventLines(event, revealed) {
  if (revealed && event.type === "stolen_card") {
    return [{ parts: tParts(TEXT.stolen_card, { who: seatName(event.seat), victim: seatName(event.victim),
      resource: resourceNode(event.resource) }) }];
  }
  if (revealed && event.type === "drew_development") {
    return [{ parts: tParts(TEXT.drew_development, { who: seatName(event.seat), card: t(event.card) }) }];
  }
  return describe(event);
}

// The lines of one move, as the live log writes them (log.js appendMove): the game's first line, and a theft said
// once when its card is known.
function moveLines(seq, events, revealed) {
  const known = new Set(events.filter((e) => e.type === "stolen_card").map((e) => `${e.seat}:${e.victim}`));
  const lines = [];
  if (seq === 1 && events.length && typeof events[0].seat === "number") {
    lines.push({ type: "game_started", seat: events[0].seat, parts: tParts("ev_starts", { who: seatName(events[0].seat) }),
      cls: "turn" });
  }
  for (const event of events) {
    if (event.type === "stole" && known.has(`${event.seat}:${event.victim}`)) continue;
    for (const line of eventLines(event, revealed)) lines.push({ type: event.type, ...line, seat: line.seat ?? event.seat });
  }
  return lines;
}

// Append the log entries of the API ({seq, seat, events}) to the list; `onPick(seq)` shows a move.
export function appendLog(list, entries, { revealed, board, onPick, restore }) {
  for (const entry of entries) {
    if (linesBySeq.has(entry.seq)) continue;
    const lines = moveLines(entry.seq, entry.events || [], revealed);
    linesBySeq.set(entry.seq, lines);
    for (const line of lines) {
      const item = node("li", { "data-seq": entry.seq, "data-type": line.type, class: line.cls || null, tabIndex: 0, role: "button",
        title: t(TEXT.step_button, { n: entry.seq }) });
      if (typeof line.seat === "number" && line.seat >= 0) item.append(swatch(line.seat));
      item.append(node("span", {}, ...(line.parts || [line.text])));
      item.addEventListener("click", () => onPick(entry.seq));
      item.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          onPick(entry.seq);
        }
      });
      if (line.place) {
        item.dataset.place = JSON.stringify(line.place);
        item.classList.add("has-place");
        const show = () => highlightPlace(board, line.place);
        item.addEventListener("mouseenter", show);
        item.addEventListener("focus", show);
        item.addEventListener("mouseleave", restore);
        item.addEventListener("blur", restore);
      }
      list.append(item);
    }
  }
}

// The places of a move's lines, together: marked on the board while the move is shown.
export function movePlace(seq) {
  const place = { vertices: [], edges: [], hexes: [] };
  for (const line of linesBySeq.get(seq) || []) {
    for (const key of Object.keys(place)) place[key].push(...((line.place && line.place[key]) || []));
  }
  return place.vertices.length + place.edges.length + place.hexes.length ? place : null;
}

// Highlight the lines of move `seq` (none for the start) and scroll the list, alone, to show the first of them.
export function markMove(list, seq) {
  for (const item of list.querySelectorAll("li.current")) {
    item.classList.remove("current");
    item.removeAttribute("aria-current");
  }
  const items = [...list.querySelectorAll(`li[data-seq="${seq}"]`)];
  for (const item of items) {
    item.classList.add("current");
    item.setAttribute("aria-current", "step");
  }
  if (items.length) {
    const first = items[0];
    const top = first.offsetTop - list.clientHeight / 3;
    list.scrollTop = Math.max(0, top);
  } else if (seq === 0) list.scrollTop = 0;
}

// The move's lines under the board (the first few; the log beside holds them all).
export function captionFor(seq, mover) {
  const lines = (linesBySeq.get(seq) || []).slice(0, 3);
  if (!lines.length) return [node("div", { class: "muted", text: seq === 0 ? TEXT.start : "" })];
  return lines.map((line) => {
    const seat = line.seat ?? mover;
    return node("div", {}, typeof seat === "number" && seat >= 0 ? swatch(seat) : null, " ", ...(line.parts || [line.text]));
  });
}

// Names come from the replay's seats (the API gives each its person's or its bot's name); log.js reads them here.
export function takeSeats(seats, viewer) {
  app.seats = seats.map((s) => ({ index: s.index, user: s.name, bot: s.bot }));
  app.yourSeat = viewer;
}
