// Notices: another seat's move said in words as it lands, in a lane of its own under the board (never over it),
// while its lines in the game log are highlighted and its pieces marked on the board.
import { node, swatch } from "./dom.js";
import { describe } from "./log.js";
import { $, app, CAPTION_MS } from "./state.js";

const LANE_LINES = 2;

export function showCaption(seq, events) {
  const caption = $("caption");
  const mover = events.length ? events[0].seat : null;
  if (!caption || typeof mover !== "number" || mover === app.yourSeat) return;
  const lines = events.filter((e) => e.type !== "stolen_card").flatMap(describe).slice(0, LANE_LINES);
  if (!lines.length) return;
  caption.replaceChildren(...lines.map((line) => node("div", {}, swatch(line.seat ?? mover), ...(line.parts || [line.text]))));
  caption.hidden = false;
  caption.dataset.seat = mover;
  caption.dataset.seq = seq;
  caption.classList.remove("fade");
  clearTimeout(showCaption.timer);
  showCaption.timer = setTimeout(() => caption.classList.add("fade"), CAPTION_MS);
  highlightLog(seq);
}

// The move's lines in the log stand out while its caption is fresh.
function highlightLog(seq) {
  const log = $("game-log");
  if (!log) return;
  for (const item of log.querySelectorAll("li.fresh")) item.classList.remove("fresh");
  const items = log.querySelectorAll(`li[data-seq="${seq}"]`);
  for (const item of items) item.classList.add("fresh");
  setTimeout(() => items.forEach((item) => item.classList.remove("fresh")), CAPTION_MS);
}
