// What a screen reader hears of the game: every event once, in one polite live region (#announcer). This seat's
// own moves are said as they land; another seat's turn is said in one sentence when it ends (or when this seat
// must answer meanwhile: a 7, an offer), not move by move.
import { describe } from "./log.js";
import { t } from "./i18n.js";
import { $, app, seatName } from "./state.js";

// The most lines of another seat's turn read out; the rest are in the game log.
const SUMMARY_LINES = 6;

const pending = { seat: null, lines: [] };

function text(line) {
  if (line.text) return line.text;
  return (line.parts || []).map((part) => (typeof part === "string" ? part : part.textContent)).join("").trim();
}

function say(words) {
  const region = $("announcer");
  if (!region || !words) return;
  // A new node each time: the same words twice in a row (two rolls of 8) are still read.
  region.replaceChildren(document.createElement("p"));
  region.firstChild.textContent = words;
}

// "Bob: rolled 8; built a road at …." and how many lines were left out; the pending turn is emptied.
function summarise() {
  const shown = pending.lines.slice(0, SUMMARY_LINES);
  const more = pending.lines.length - shown.length;
  const summary = t("announce_turn", { who: seatName(pending.seat), moves: shown.join("; ") });
  pending.seat = null;
  pending.lines = [];
  return more > 0 ? `${summary} ${t("announce_more", { n: more })}` : summary;
}

function flushTurn() {
  if (pending.seat !== null && pending.lines.length) say(summarise());
}

// `mustAnswer`: this seat has a decision to make now (its turn, a discard, an offer), so it hears at once.
export function announceMove(events, mustAnswer) {
  const mover = events.length ? events[0].seat : null;
  const lines = events.filter((e) => e.type !== "turn_ended").flatMap(describe).map(text).filter(Boolean);
  const next = events.filter((e) => e.type === "turn_ended").flatMap(describe).map(text).filter(Boolean);
  if (typeof mover !== "number" || mover === app.yourSeat) {
    flushTurn();
    say([...lines, ...next].join(". "));
    return;
  }
  if (pending.seat !== mover) flushTurn();
  pending.seat = mover;
  pending.lines.push(...lines);
  if (next.length || mustAnswer) {
    const summary = pending.lines.length ? summarise() : "";
    say([summary, ...next].filter(Boolean).join(" "));
  }
}
