// The replay page (templates/replays/replay.html): a game's move log stepped through on the game page's own board
// client, from the replay API (GET /api/games/<id>/replay/?move=N&since=M, replays/api.py). The page shows only
// what the API gives: every seat's cards once the game is over; while it runs, the viewer's own seat's view.
//
// The whole log is fetched once (with the last position), then each step's position alone (`since` = the step:
// no log lines), kept for stepping back and forth. The step shown is in the address (?move=N, replaced as one
// steps, never pushed), so that the address is a link to the move; opening it shows that move.
import { highlightPlace, renderBoard } from "./board.js";
import { app, seatColors } from "./state.js";
import { appendLog, captionFor, markMove, movePlace, takeSeats } from "./replay_log.js";
import { renderSeats, statusParts } from "./replay_panels.js";
import { TEXT } from "./replay_text.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const board = $("replay-board");
const scrubber = $("replay-scrubber");
const log = $("replay-log");

// Positions kept for stepping back and forth without asking again (a long game's views are large).
const KEPT = 150;

const replay = {
  gameId: root.dataset.gameId,
  invite: root.dataset.invite || "",
  revealed: root.dataset.revealed === "yes",
  moves: 0, // the steps after the start: the scrubber runs from 0 to this
  move: 0, // the step asked for
  shown: null, // the step on the board
  views: new Map(),
  loading: false,
};

function apiUrl(params) {
  const query = new URLSearchParams(params);
  if (replay.invite) query.set("invite", replay.invite);
  return `/api/games/${encodeURIComponent(replay.gameId)}/replay/?${query}`;
}

async function fetchStep(params) {
  const response = await fetch(apiUrl(params), { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body && body.error && body.error.message) || TEXT.failed);
  return body;
}

function keep(step) {
  replay.views.delete(step.move);
  replay.views.set(step.move, step.view);
  while (replay.views.size > KEPT) replay.views.delete(replay.views.keys().next().value);
}

function addLog(entries) {
  const restore = () => highlightPlace(board, replay.shown === null ? null : movePlace(replay.shown));
  appendLog(log, entries, { revealed: replay.revealed, board, onPick: go, restore });
}

// A step's answer; a running game may have moved on meanwhile: the log and the scrubber grow to its new end.
async function take(step) {
  keep(step);
  if (step.moves > replay.moves) {
    const since = replay.moves;
    const last = await fetchStep({ move: step.moves, since });
    keep(last);
    addLog(last.log);
    replay.moves = last.moves;
    syncControls();
  }
}

function syncControls() {
  scrubber.max = String(replay.moves);
  scrubber.value = String(replay.move);
  scrubber.setAttribute("aria-valuetext", replay.move === 0
    ? TEXT.start_of.replace("{total}", replay.moves) : TEXT.step.replace("{n}", replay.move).replace("{total}", replay.moves));
  $("replay-first").disabled = $("replay-back-step").disabled = replay.move === 0;
  $("replay-forward").disabled = $("replay-last").disabled = replay.move >= replay.moves;
}

function linkTo(move) {
  const url = new URL(location.href);
  url.searchParams.set("move", String(move));
  return url;
}

function go(target) {
  if (!Number.isFinite(target)) return;
  replay.move = Math.max(0, Math.min(replay.moves, Math.round(target)));
  syncControls();
  markMove(log, replay.move);
  const url = linkTo(replay.move);
  history.replaceState(history.state, "", url);
  $("replay-share").href = url.toString();
  show();
}

function fail(message) {
  const box = $("replay-error");
  box.textContent = message;
  box.hidden = false;
  root.dataset.error = "yes";
}

// Draw the step asked for, once its position is here: one request at a time, the latest step asked wins.
async function show() {
  const move = replay.move;
  // The last step of a running game is asked again: it is the live position, which may have moved on.
  const fresh = replay.revealed || move < replay.moves;
  if (fresh && replay.views.has(move)) {
    draw(move, replay.views.get(move));
    return;
  }
  if (replay.loading) return;
  replay.loading = true;
  root.dataset.loading = "yes";
  try {
    await take(await fetchStep({ move, since: move }));
  } catch (error) {
    fail(error.message || TEXT.failed);
    return;
  } finally {
    replay.loading = false;
    delete root.dataset.loading;
  }
  if (replay.move === move) draw(move, replay.views.get(move));
  else show();
}

function draw(move, view) {
  $("replay-error").hidden = true;
  delete root.dataset.error;
  renderBoard(board, view, { seatColors: seatColors() });
  highlightPlace(board, movePlace(move));
  renderSeats($("replay-seats"), view);
  $("replay-status").replaceChildren(...statusParts(move, replay.moves, view));
  $("replay-caption").replaceChildren(...captionFor(move, null));
  replay.shown = move;
  root.dataset.phase = view.phase;
  root.dataset.shown = String(move);
}

function askedMove() {
  const asked = new URLSearchParams(location.search).get("move");
  return asked !== null && /^\d{1,9}$/.test(asked) ? Number(asked) : null;
}

function setUpControls() {
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back-step").addEventListener("click", () => go(replay.move - 1));
  $("replay-forward").addEventListener("click", () => go(replay.move + 1));
  $("replay-last").addEventListener("click", () => go(replay.moves));
  scrubber.addEventListener("input", () => go(Number(scrubber.value)));
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    // The scrubber steps with the arrows, Home and End itself; fields and menus keep their keys.
    const target = event.target;
    if (target === scrubber || (target.closest && target.closest("input, select, textarea, [contenteditable]"))) return;
    const to = { ArrowLeft: replay.move - 1, ArrowRight: replay.move + 1, Home: 0, End: replay.moves }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  });
}

async function start() {
  setUpControls();
  let last;
  try {
    last = await fetchStep({});
  } catch (error) {
    fail(error.message || TEXT.failed);
    return;
  }
  takeSeats(last.seats, last.viewer);
  // The log names places from the board; the layout is the same at every step.
  app.view = last.view;
  replay.moves = last.moves;
  keep(last);
  addLog(last.log);
  root.dataset.ready = "yes";
  // A finished game starts from the beginning; a running one from now, to step back from.
  const asked = askedMove();
  go(asked !== null ? asked : replay.revealed ? 0 : replay.moves);
}

start();
