// The game page's entry module: it dispatches the server's frames, renders every part of the page, and starts.
//
// Every server frame that changes the game carries `seq`. An update whose seq is not the next one, a reconnect,
// or a "lobby" frame makes the client ask for the full state ({"type": "sync"}); the game log is filled from
// the moves API for whatever the socket did not deliver.
//
// Modules, by concern: state.js (app state, constants, helpers), dom.js (elements, flash), connection.js (socket,
// resync, HTTP fallback, submit), clock.js, panels.js (prompt, hand, costs, players, dice, bank), actionbar.js,
// dialogs.js, trade.js, log.js, notices.js, chat.js, gameover.js; the board itself is board.js.
import { boardLegal, renderActions, toggleMore } from "./actionbar.js";
import { announceMove } from "./announce.js";
import { renderBoard } from "./board.js";
import { addChat, chatHidden, loadChat, renderChat, reported } from "./chat.js";
import { renderClock, takeClock, takeSeatClocks } from "./clock.js";
import { connect, heartbeat, requestSync, send, setConnection, settle, submit } from "./connection.js";
import { closeDialog, openBuildChoice, openVictims, syncDialogs } from "./dialogs.js";
import { flash } from "./dom.js";
import { renderGameOver } from "./gameover.js";
import { t } from "./i18n.js";
import { setUpKeys } from "./keys.js";
import { fetchLog, logMove } from "./log.js";
import { showCaption } from "./notices.js";
import { renderBank, renderCosts, renderDice, renderHand, renderHandStrip, renderPlayers, renderPrompt } from "./panels.js";
import { setUpSounds, soundsFor } from "./sounds.js";
import { $, app, HEARTBEAT_MS, hooks, root, seatColors } from "./state.js";
import { fitSpots, setZoom } from "./zoom.js";
import { measureTop, openDrawer, setUpTable, showPace } from "./table.js";
import { renderTrade } from "./trade.js";

function handle(frame) {
  let previous = null; // the view before this frame, for the sounds
  switch (frame.type) {
    case "state":
      clearTimeout(app.syncTimer);
      app.syncRequested = 0;
      if (frame.status === "waiting") {
        location.reload();
        return;
      }
      settle();
      previous = app.view;
      app.seq = frame.seq;
      app.view = frame.view;
      app.legal = frame.legal || [];
      app.seats = frame.seats || app.seats;
      app.yourSeat = frame.your_seat ?? null;
      app.status = frame.status;
      app.pauseNote = frame.pause_note || "";
      app.seed = frame.seed ?? null;
      app.seedCommitment = frame.seed_commitment ?? null;
      app.seedSalt = frame.seed_salt ?? "";
      takeClock(frame);
      render();
      soundsFor(previous, app.view);
      if (app.chat.size) renderChat(); // the seats (whose lines are ours) may have changed
      if (app.view && app.view.phase === "game_over") setConnection("ended");
      if (app.loggedSeq < app.seq) fetchLog();
      break;
    case "update":
      if (app.seq === null || frame.seq <= app.seq) return;
      if (frame.seq !== app.seq + 1) {
        requestSync();
        return;
      }
      if (!frame.view.board.hexes) {
        // Updates leave out the board's layout; ours is still right unless its fingerprint changed.
        const held = app.view && app.view.board;
        if (!held || held.layout !== frame.view.board.layout) {
          requestSync();
          return;
        }
        frame.view.board = { ...held, robber: frame.view.board.robber, pirate: frame.view.board.pirate };
      }
      settle();
      previous = app.view;
      app.seq = frame.seq;
      app.view = frame.view;
      app.legal = frame.legal || [];
      app.recent = recentPieces(frame.events || []);
      takeSeatClocks(frame.seat_clocks);
      takeClock(frame);
      logMove(frame.seq, frame.events || []);
      showCaption(frame.seq, frame.events || []);
      announceMove(frame.events || [], app.legal.length > 0);
      render();
      soundsFor(previous, app.view);
      if (app.view.phase === "game_over" && app.status !== "finished") requestSync();
      if (app.view.phase === "game_over") setConnection("ended");
      break;
    case "ack":
      if (app.awaiting && frame.key === app.awaiting.key && (frame.duplicate || frame.seq <= app.seq)) {
        settle();
        render();
      }
      break;
    case "pong":
      // A move we never heard of: fetch the state (see the heartbeat in consumers.py).
      if (app.seq !== null && typeof frame.seq === "number" && frame.seq > app.seq) requestSync();
      break;
    case "chat":
      addChat(frame);
      break;
    case "chat_hidden":
      chatHidden(frame);
      break;
    case "reported":
      reported();
      break;
    case "bot_pace":
      showPace(frame.pace);
      break;
    case "lobby":
      requestSync();
      break;
    case "error":
      settle();
      flash(frame.message || t("error_generic"));
      if (app.view) render();
      break;
    default:
      break;
  }
}

// The pieces of the last move, marked briefly on the board so that others' moves are easy to follow.
function recentPieces(events) {
  const recent = { vertices: [], edges: [], hexes: [] };
  for (const e of events) {
    if (e.type === "built_settlement" || e.type === "built_city") recent.vertices.push(e.vertex);
    else if (e.type === "built_road" || e.type === "built_ship") recent.edges.push(e.edge);
    else if (e.type === "moved_ship") recent.edges.push(e.to);
    else if (e.type === "moved_robber" || e.type === "moved_pirate" || e.type === "revealed") recent.hexes.push(e.hex);
  }
  return recent;
}

// ---- rendering ----------------------------------------------------------------------------------------------

function render() {
  const view = app.view;
  if (!view) return;
  root.dataset.phase = view.phase;
  renderBoard($("board"), view, {
    legal: boardLegal(),
    onAction: submit,
    seatColors: seatColors(),
    chooseVictim: openVictims,
    chooseBuild: openBuildChoice,
    onSelect: renderPrompt,
    recent: app.recent,
  });
  app.recent = null;
  renderPrompt();
  renderActions();
  renderTrade();
  renderHand();
  renderHandStrip();
  renderCosts();
  renderPlayers();
  renderDice();
  renderBank();
  renderGameOver();
  syncDialogs();
  fitSpots();
  // The window size this render was made for: a layout check (or a person's rotated phone) knows it is current.
  root.dataset.renderedFor = `${window.innerWidth}x${window.innerHeight}`;
}

// ---- start --------------------------------------------------------------------------------------------------

function start() {
  Object.assign(hooks, { handle, render, closeDialog, opened: loadChat });
  setUpTable();
  setUpSounds();
  setUpKeys({
    blocked: () => Boolean(app.dialog),
    escape: () => {
      if (app.dialog) return;
      toggleMore(false);
      openDrawer(null);
    },
  });
  let resized = null;
  window.addEventListener("resize", () => {
    // The bar at once (what fits in it changes with the width); the board, heavier, once the resizing stops.
    measureTop();
    if (app.view) renderActions();
    clearTimeout(resized);
    resized = setTimeout(() => {
      measureTop();
      render();  // the board's size on screen sets its legal spots' size, and the bar what fits in it
    }, 150);
  });
  // The bar's own width can change without a window resize (the grid settling after a rotation, a scroll bar
  // appearing): what fits in it is measured again whenever it does.
  let barWidth = 0;
  new ResizeObserver(() => {
    const width = $("actions").clientWidth;
    if (width === barWidth) return;
    barWidth = width;
    if (app.view) requestAnimationFrame(renderActions);
  }).observe($("actions"));
  document.addEventListener("click", (event) => {
    if (app.moreOpen && !event.target.closest("#actions-more-menu, #btn-more")) toggleMore(false);
  });
  $("zoom-in").addEventListener("click", () => setZoom(1));
  $("zoom-out").addEventListener("click", () => setZoom(-1));
  setZoom(0);
  const form = $("chat-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-input");
      const text = input.value.trim();
      if (!text) return;
      if (!send({ type: "chat", text: text.slice(0, 500) })) {
        flash(t("offline"));
        return;
      }
      input.value = "";
    });
  }
  $("dialog").addEventListener("click", (event) => {
    if (event.target === $("dialog") && app.dialog && app.dialog.closable) closeDialog();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && app.dialog && app.dialog.closable) closeDialog();
  });
  window.addEventListener("online", () => { if (!app.socket) connect(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !app.socket) connect();
  });
  setInterval(heartbeat, HEARTBEAT_MS);
  setInterval(renderClock, 500);
  setConnection("connecting");
  connect();
}

start();
