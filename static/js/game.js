// The game page: one WebSocket, the board, the panels, the dialogs, the log and the chat.
//
// Every server frame that changes the game carries `seq`. An update whose seq is not the next one, a reconnect,
// or a "lobby" frame makes the client ask for the full state ({"type": "sync"}); the game log is filled from
// the moves API for whatever the socket did not deliver.
import { highlightPlace, renderBoard, resourceIcon, selectedShip, SEAT_COLORS } from "./board.js";
import { t, tParts } from "./i18n.js";

const RESOURCES = ["lumber", "brick", "wool", "grain", "ore"];
const DEVELOPMENT_CARDS = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];
const PLAY_BUTTONS = {
  play_knight: "btn-play-knight",
  play_road_building: "btn-play-road-building",
  play_year_of_plenty: "btn-play-year-of-plenty",
  play_monopoly: "btn-play-monopoly",
};
const LOG_LIMIT = 400;
const MOVE_TIMEOUT_MS = 10000;
const HEARTBEAT_MS = 25000;
const CAPTION_MS = 2600;

const root = document.getElementById("game-root") || document.body;
const gameId = root.dataset.gameId || document.body.dataset.gameId;
const invite = root.dataset.invite || "";
const $ = (id) => document.getElementById(id);

const app = {
  seq: null,
  view: null,
  legal: [],
  seats: [],
  yourSeat: root.dataset.yourSeat === undefined || root.dataset.yourSeat === "" ? null : Number(root.dataset.yourSeat),
  status: null,
  seed: null,
  seedCommitment: null,
  socket: null,
  retries: 0,
  reconnectTimer: null,
  lastFrameAt: 0,
  syncTimer: null,
  syncRequested: 0,
  awaiting: null,
  recent: null,
  loggedSeq: 0,
  logLoading: false,
  logBuffer: [],
  chat: new Map(),
  dialog: null,
  autoOpened: new Set(),
  playing: false,
  zoom: 1,
  build: null,
  deadline: null,
  turnSeconds: null,
};

// ---- small helpers ------------------------------------------------------------------------------------------

function node(tag, attrs = {}, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") n.className = v;
    else if (k === "text") n.textContent = v;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (k === "style") n.style.cssText = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) n.append(child);
  return n;
}

function button(label, onclick, attrs = {}) {
  return node("button", { type: "button", class: "button", onclick, ...attrs, text: label });
}

function randomKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

const total = (cards) => Object.values(cards || {}).reduce((a, b) => a + b, 0);
const nonZero = (cards) => Object.fromEntries(Object.entries(cards).filter(([, n]) => n > 0));
const has = (type) => app.legal.some((a) => a.type === type);
const me = () => (app.yourSeat !== null && app.view ? app.view.seats[app.yourSeat] : null);
const seatColor = (seat) => SEAT_COLORS[seat % SEAT_COLORS.length];

function seatName(seat) {
  if (seat === null || seat === undefined || seat < 0) return t("nobody");
  const s = app.seats.find((x) => x.index === seat);
  if (s && s.user) return s.user;
  return t("bot_name", { n: seat + 1 });
}

function cardsText(cards) {
  const parts = RESOURCES.filter((r) => cards && cards[r]).map((r) => `${cards[r]} ${t(r)}`);
  return parts.length ? parts.join(", ") : t("nothing");
}

function swatch(seat) {
  return node("span", { class: "swatch", style: `background:${seatColor(seat)}`, "aria-hidden": "true" });
}

function apiUrl(path) {
  const sep = path.includes("?") ? "&" : "?";
  return `/api/games/${gameId}/${path}${invite ? `${sep}invite=${encodeURIComponent(invite)}` : ""}`;
}

// ---- the socket ---------------------------------------------------------------------------------------------

function connect() {
  clearTimeout(app.reconnectTimer);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let socket;
  try {
    socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}/${query}`);
  } catch (error) {
    scheduleReconnect();
    return;
  }
  app.socket = socket;
  setConnection(app.retries ? "reconnecting" : "connecting");
  socket.addEventListener("open", () => {
    app.retries = 0;
    app.lastFrameAt = Date.now();
    setConnection(app.view && app.view.phase === "game_over" ? "ended" : "connected");
    // The server sends the full state on connect; ask for it only if it does not come.
    clearTimeout(app.syncTimer);
    app.syncRequested = 0;
    app.syncTimer = setTimeout(requestSync, 3000);
    loadChat();
  });
  socket.addEventListener("message", (event) => {
    app.lastFrameAt = Date.now();
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (frame && typeof frame.type === "string") handle(frame);
  });
  socket.addEventListener("close", (event) => {
    if (app.socket !== socket) return;
    app.socket = null;
    if (event.code === 4403 || event.code === 4404) {
      setConnection("refused");
      return;
    }
    scheduleReconnect();
  });
}

// Without a socket (Redis down, a proxy that refuses WebSockets) the page still shows the game: its state comes
// over HTTP on every reconnect attempt, and moves go by the REST API.
async function loadOverHttp() {
  try {
    const response = await fetch(apiUrl(""), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    if (!app.socket) handle({ ...data, type: "state" });
    loadChat(); // the socket would have brought it: the chat follows the state while the page reads over HTTP
  } catch (error) {
    // Offline altogether: the next attempt tries again.
  }
}

function csrfToken() {
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

async function submitOverHttp(action, key) {
  try {
    const response = await fetch(apiUrl("moves/"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ action, expected_seq: app.seq, idempotency_key: key }),
    });
    const data = await response.json();
    if (response.ok) handle({ ...data.game, type: "state" });
    else {
      flash(data.message || t("offline"));
      loadOverHttp();
    }
  } catch (error) {
    flash(t("offline"));
  }
}

function scheduleReconnect() {
  loadOverHttp();
  clearTimeout(app.reconnectTimer);
  const delay = Math.min(15000, 500 * 2 ** app.retries) * (0.75 + Math.random() * 0.5);
  app.retries += 1;
  setConnection("reconnecting");
  app.reconnectTimer = setTimeout(connect, delay);
}

function send(frame) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) return false;
  app.socket.send(JSON.stringify(frame));
  return true;
}

// Ask for the full state, once until it arrives (a burst of updates after a gap needs a single answer); ask
// again if no answer came within two seconds.
function requestSync() {
  if (app.syncRequested && Date.now() - app.syncRequested < 2000) return;
  if (send({ type: "sync" })) app.syncRequested = Date.now();
}

function heartbeat() {
  const socket = app.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - app.lastFrameAt > HEARTBEAT_MS * 2.5) socket.close();
  else send({ type: "ping" });
}

function setConnection(state) {
  const c = $("connection");
  if (!c) return;
  c.textContent = t(`connection_${state}`);
  c.dataset.state = state;
}

function submit(action) {
  if (app.awaiting) return;
  app.build = null;
  const key = randomKey();
  if (!send({ type: "move", action, seq: app.seq, key })) {
    closeDialog();
    submitOverHttp(action, key);
    return;
  }
  app.awaiting = {
    key,
    timer: setTimeout(() => {
      app.awaiting = null;
      requestSync();
      render();
    }, MOVE_TIMEOUT_MS),
  };
  closeDialog();
  render();
}

function settle() {
  if (!app.awaiting) return;
  clearTimeout(app.awaiting.timer);
  app.awaiting = null;
}

function handle(frame) {
  switch (frame.type) {
    case "state":
      clearTimeout(app.syncTimer);
      app.syncRequested = 0;
      if (frame.status === "waiting") {
        location.reload();
        return;
      }
      settle();
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
      app.seq = frame.seq;
      app.view = frame.view;
      app.legal = frame.legal || [];
      app.recent = recentPieces(frame.events || []);
      takeSeatClocks(frame.seat_clocks);
      takeClock(frame);
      logMove(frame.seq, frame.events || []);
      showCaption(frame.seq, frame.events || []);
      render();
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
      flash(gettext("Thank you: a moderator will look at your report."));
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

// ---- the live turn clock ------------------------------------------------------------------------------------

// Email games' update frames carry each seat's deadline and vacation: the seat badges follow them.
function takeSeatClocks(clocks) {
  for (const c of clocks || []) {
    const seat = app.seats.find((x) => x.index === c.index);
    if (seat) Object.assign(seat, { deadline: c.deadline, vacation_until: c.vacation_until });
  }
}

// State and update frames carry the turn's deadline (ISO time, or null) and the game's time per turn.
function takeClock(frame) {
  if ("deadline" in frame) app.deadline = frame.deadline ? Date.parse(frame.deadline) : null;
  if ("turn_seconds" in frame) app.turnSeconds = frame.turn_seconds || null;
  renderClock();
}

// Shown to everyone while a live turn runs against the clock; a warning in its last fifth (and last 10 s).
function renderClock() {
  const clock = $("turn-clock");
  const view = app.view;
  const running = app.deadline && app.turnSeconds && view && view.phase !== "game_over" && app.status === "active";
  clock.hidden = !running;
  if (!running) return;
  const left = Math.max(0, Math.ceil((app.deadline - Date.now()) / 1000));
  const warn = left <= Math.max(10, app.turnSeconds / 5);
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.dataset.left = left;
  clock.dataset.warn = warn ? "yes" : "no";
  clock.title = t(warn ? "clock_warning" : "clock_title", { who: view.to_move.map(seatName).join(", ") });
}

// ---- rendering ----------------------------------------------------------------------------------------------

function render() {
  const view = app.view;
  if (!view) return;
  root.dataset.phase = view.phase;
  renderBoard($("board"), view, {
    legal: boardLegal(),
    onAction: submit,
    seatColors: SEAT_COLORS,
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
  renderCosts();
  renderPlayers();
  renderDice();
  renderBank();
  renderGameOver();
  syncDialogs();
}

function isMyMove() {
  return Boolean(app.view && app.view.phase !== "game_over" && app.legal.length && !app.awaiting);
}

function promptText() {
  const view = app.view;
  if (view.phase === "game_over") return t("prompt_game_over", { who: seatName(view.winner) });
  if (app.status === "paused") return app.pauseNote ? t("status_paused_because", { why: app.pauseNote }) : t("status_paused");
  if (app.status === "cancelled") return t("status_cancelled");
  if (app.awaiting) return t("prompt_sending");
  const mine = me();
  const trade = view.trade;
  if (mine && app.legal.length) {
    if (trade && trade.from === app.yourSeat) {
      const pending = trade.to.filter((s) => !(String(s) in trade.replies));
      return pending.length ? t("prompt_trade_wait", { who: pending.map(seatName).join(", ") }) : t("prompt_trade_decide");
    }
    if (trade) return t("prompt_trade_answer", { who: seatName(trade.from) });
    if (selectedShip($("board")) !== undefined) return t("prompt_move_ship_to");
    switch (view.phase) {
      case "setup_settlement": {
        const placed = view.pieces.settlements.filter((s) => s.seat === app.yourSeat).length;
        return t(placed ? "prompt_setup_settlement_second" : "prompt_setup_settlement_first");
      }
      case "setup_road":
        if (has("build_ship") && has("build_road")) return t("prompt_setup_road_or_ship");
        return t(has("build_ship") ? "prompt_setup_ship" : "prompt_setup_road");
      case "roll":
        return t(app.legal.length > 1 ? "prompt_roll_or_card" : "prompt_roll");
      case "main":
        return t("prompt_main");
      case "discard":
        return t("prompt_discard", { n: mine.discards_owed });
      case "robber":
        if (has("move_pirate") && has("move_robber")) return t("prompt_robber_or_pirate");
        return t(has("move_pirate") ? "prompt_pirate" : "prompt_robber");
      case "road_building":
        return t("prompt_road_building", { n: view.free_roads });
      case "gold":
        return t("prompt_gold", { n: mine.gold_owed });
      case "place_token":
        return t("prompt_place_token");
      default:
        break;
    }
  }
  const who = view.to_move.map(seatName).join(", ");
  if (trade) return t("wait_trade", { who });
  return t(`wait_${view.phase}`, { who });
}

function renderPrompt() {
  const prompt = $("prompt");
  const mine = isMyMove();
  $("prompt-text").textContent = promptText();
  prompt.dataset.mine = mine ? "yes" : "no";
  document.title = `${mine ? "● " : ""}${document.title.replace(/^● /, "")}`;
}

const COSTS = {
  road: { lumber: 1, brick: 1 },
  ship: { lumber: 1, wool: 1 },
  settlement: { lumber: 1, brick: 1, wool: 1, grain: 1 },
  city: { grain: 2, ore: 3 },
  development: { wool: 1, grain: 1, ore: 1 },
};
// [piece, the legal action that builds it, its key in the seat's supply]
const BUILDS = [["road", "build_road", "roads"], ["ship", "build_ship", "ships"],
  ["settlement", "build_settlement", "settlements"], ["city", "build_city", "cities"]];

function missingCards(cost) {
  const mine = me();
  const missing = {};
  for (const [r, n] of Object.entries(cost)) if (mine.resources[r] < n) missing[r] = n - mine.resources[r];
  return missing;
}

// Why the seat cannot take a main-phase action now (null when it can): the reason a greyed button shows.
function mainReason(cost = null) {
  const view = app.view;
  if (app.awaiting) return t("prompt_sending");
  if (view.current !== app.yourSeat || !view.to_move.includes(app.yourSeat)) return t("why_not_your_turn");
  if (view.phase === "roll") return t("why_roll_first");
  if (view.phase !== "main") return t("why_finish_step");
  if (view.trade) return t("why_trade_open");
  if (cost) {
    const missing = missingCards(cost);
    if (total(missing)) return t("why_missing", { cards: cardsText(missing) });
  }
  return null;
}

function buildReason(piece, type, supplyKey) {
  // Outside the main phase (setup, free roads) the lit spots are the only choice: the buttons do not filter them.
  if (has(type) && app.view.phase !== "main") return t("why_use_spots");
  if (has(type)) return null;
  const reason = mainReason(COSTS[piece]);
  if (reason) return reason;
  if (!me().supply[supplyKey]) return t("why_no_pieces", { pieces: t(supplyKey) });
  return t("why_no_place");
}

// The action bar keeps one set of buttons for a seated player; those that cannot be used now are greyed and
// say why (title and a visually hidden note), rather than appearing and vanishing.
function renderActions() {
  const bar = $("actions");
  const view = app.view;
  bar.replaceChildren();
  const mine = me();
  if (!mine || view.phase === "game_over") return;
  const add = (id, label, onclick, extra = "", reason = null, attrs = {}) => {
    const b = button(label, onclick, { id, class: `button ${extra}`, disabled: Boolean(reason), title: reason, ...attrs });
    if (reason) b.dataset.reason = reason;
    bar.append(b);
    return b;
  };
  const phaseReason = (type) => (has(type) ? null : mainReason() || t("why_finish_step"));
  if (view.phase === "discard" && mine.discards_owed) add("btn-discard", t("discard_open", { n: mine.discards_owed }), () => openBundle("discard"), "primary");
  if (view.phase === "gold" && mine.gold_owed) add("btn-gold", t("gold_open", { n: mine.gold_owed }), () => openBundle("gold"), "primary");
  add("btn-roll", t("roll"), () => submit({ type: "roll" }), has("roll") ? "primary" : "",
    has("roll") ? null : app.awaiting ? t("prompt_sending") : view.phase === "roll" && view.current === app.yourSeat ? t("why_finish_step") : t("why_rolled"));
  if (!app.build || !has(app.build)) app.build = null;
  for (const [piece, type, supplyKey] of BUILDS) {
    if (piece === "ship" && !view.seafarers) continue;
    const reason = buildReason(piece, type, supplyKey);
    add(`btn-build-${piece}`, t(`build_${piece}`), () => {
      app.build = app.build === type ? null : type;
      render();
    }, "build", reason, { "aria-pressed": String(app.build === type), "data-cost": cardsText(COSTS[piece]) });
  }
  let devReason = has("buy_development") ? null : mainReason(COSTS.development);
  if (!devReason && !has("buy_development")) devReason = t("why_deck_empty");
  add("btn-buy-dev", t("buy_development"), () => submit({ type: "buy_development" }), "build", devReason);
  add("btn-trade-bank", t("trade_bank"), openBankTrade, "", has("trade_bank") ? null : mainReason() || t("why_bank"));
  const canOffer = view.phase === "main" && has("end_turn") && !view.trade && mine.resource_count;
  add("btn-offer-trade", t("offer_trade"), () => openOffer("offer"), "",
    canOffer ? null : mainReason() || t("why_no_cards"));
  for (const [type, id] of Object.entries(PLAY_BUTTONS)) {
    if (!has(type)) continue;
    const card = type.replace("play_", "");
    const open = { play_year_of_plenty: openPlenty, play_monopoly: openMonopoly }[type];
    add(id, t("play_card", { card: t(card) }), open || (() => submit({ type })), "card-action");
  }
  add("btn-end-turn", t("end_turn"), () => submit({ type: "end_turn" }), "end-turn", phaseReason("end_turn"));
}

// The spots on the board: in the main phase, building spots only for the piece whose Build button is pressed.
function boardLegal() {
  if (app.awaiting) return [];
  if (app.view.phase !== "main") return app.legal;
  return app.legal.filter((a) => !a.type.startsWith("build_") || a.type === app.build);
}

function renderCosts() {
  const list = $("costs");
  if (!list) return;
  if (!list.childElementCount) drawCosts(list);
  // Each piece the hand cannot pay for is greyed, with what is missing; its chips missing from the hand too.
  const mine = me();
  for (const li of list.children) {
    const cost = COSTS[li.dataset.piece];
    const missing = mine ? Object.fromEntries(Object.entries(cost)
      .map(([r, n]) => [r, Math.max(0, n - (mine.resources[r] || 0))]).filter(([, n]) => n > 0)) : {};
    const short = Object.keys(missing).length > 0;
    li.classList.toggle("short", short);
    li.title = short ? t("cost_missing", { cards: Object.entries(missing).map(([r, n]) => `${n} ${t(r)}`).join(", ") }) : "";
    const left = { ...missing };
    for (const chip of [...li.querySelectorAll(".cost-chip")].reverse()) {
      const r = chip.dataset.resource;
      chip.classList.toggle("missing", left[r] > 0);
      if (left[r] > 0) left[r] -= 1;
    }
  }
}

function drawCosts(list) {
  for (const [piece, cost] of Object.entries(COSTS)) {
    if (piece === "ship" && !app.view.seafarers) continue;
    const chips = Object.entries(cost).flatMap(([r, n]) => Array.from({ length: n }, () =>
      node("span", { class: `cost-chip res-${r}`, "data-resource": r, title: t(r), "aria-label": t(r) }, resourceIcon(r))));
    list.append(node("li", { "data-piece": piece },
      node("span", { class: "cost-name", text: t(piece === "development" ? "development_card" : `build_${piece}`) }),
      node("span", { class: "cost-cards" }, ...chips),
      node("span", { class: "cost-gain muted small", text: t(`gain_${piece}`) })));
  }
}

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const mine = me();
  if (!mine) {
    hand.append(node("p", { class: "muted", text: t("spectating") }));
    return;
  }
  const cards = node("div", { class: "resource-cards" });
  for (const r of RESOURCES) {
    const n = mine.resources[r];
    cards.append(node("div", { class: `res-card res-${r}${n ? "" : " empty"}`, "data-resource": r, title: t(r) },
      node("span", { class: "res-count", text: String(n) }),
      node("span", { class: "res-name", text: t(r) })));
  }
  hand.append(cards);

  const devs = node("ul", { class: "dev-cards", id: "dev-cards" });
  for (const card of DEVELOPMENT_CARDS) {
    const ready = mine.development[card] || 0;
    const fresh = mine.development_new[card] || 0;
    if (ready) {
      const note = card === "victory_point" ? t("dev_secret") : t("dev_playable");
      devs.append(node("li", { class: `dev-card dev-${card}`, "data-card": card },
        node("strong", { text: `${t(card)} ×${ready}` }), node("span", { class: "note", text: note })));
    }
    if (fresh) {
      const note = card === "victory_point" ? t("dev_secret") : t("dev_new");
      devs.append(node("li", { class: `dev-card dev-${card} new`, "data-card": card },
        node("strong", { text: `${t(card)} ×${fresh}` }), node("span", { class: "note", text: note })));
    }
  }
  if (devs.childElementCount) hand.append(node("h3", { text: t("development_cards") }), devs);

  const supply = mine.supply;
  const pieces = [`${t("roads")} ${supply.roads}`, `${t("settlements")} ${supply.settlements}`, `${t("cities")} ${supply.cities}`];
  if (app.view.seafarers) pieces.push(`${t("ships")} ${supply.ships}`);
  hand.append(node("p", { class: "muted small", text: `${t("pieces_left")}: ${pieces.join(" · ")}` }));
}

function stat(value, label, cls = "") {
  return node("span", { class: `stat ${cls}`, title: label }, node("b", { text: String(value) }), node("small", { text: label }));
}

function renderPlayers() {
  const list = $("players");
  const view = app.view;
  list.replaceChildren();
  for (const s of view.seats) {
    const you = s.seat === app.yourSeat;
    const classes = ["player"];
    if (s.seat === view.current && view.phase !== "game_over") classes.push("current");
    if (view.to_move.includes(s.seat)) classes.push("to-move");
    if (you) classes.push("you");
    const item = node("li", { class: classes.join(" "), "data-seat": s.seat, style: `--seat:${seatColor(s.seat)}` });
    const seatInfo = app.seats.find((x) => x.index === s.seat);
    const head = node("div", { class: "player-head" }, swatch(s.seat),
      node("span", { class: "player-name", text: seatName(s.seat) }));
    if (you) head.append(node("span", { class: "tag", text: t("you") }));
    if (seatInfo && seatInfo.bot) head.append(node("span", { class: "tag bot", text: t("bot") }));
    if (view.to_move.includes(s.seat)) head.append(node("span", { class: "tag turn", text: t("to_move") }));
    item.append(head);
    const points = s.victory_points ?? s.public_victory_points;
    const stats = node("div", { class: "stats" },
      stat(points, t("victory_points"), "vp"),
      stat(s.resource_count, t("resource_cards")),
      stat(s.development_count, t("development_short")),
      stat(s.knights, t("knights")),
      stat(s.road_length, t("road_length")));
    item.append(stats);
    const badges = node("div", { class: "badges" });
    if (s.longest_road) badges.append(node("span", { class: "badge longest-road", text: t("longest_road") }));
    if (s.largest_army) badges.append(node("span", { class: "badge largest-army", text: t("largest_army") }));
    if (s.victory_point_tokens) badges.append(node("span", { class: "badge tokens", text: t("vp_tokens", { n: s.victory_point_tokens }) }));
    if (s.discards_owed) badges.append(node("span", { class: "badge warn", text: t("owes_discard", { n: s.discards_owed }) }));
    if (s.gold_owed) badges.append(node("span", { class: "badge gold", text: t("owes_gold", { n: s.gold_owed }) }));
    // Play by email: each seat's own deadline and vacation, in the viewer's time zone.
    const away = seatInfo && seatInfo.vacation_until && Date.parse(seatInfo.vacation_until) > Date.now();
    if (away) badges.append(node("span", { class: "badge away", text: t("away_until", { when: localTime(seatInfo.vacation_until) }) }));
    if (seatInfo && seatInfo.deadline && view.to_move.includes(s.seat)) {
      badges.append(node("span", { class: "badge deadline", text: t("plays_before", { when: localTime(seatInfo.deadline) }) }));
    }
    if (badges.childElementCount) item.append(badges);
    list.append(item);
  }
}

function localTime(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

const PIP_LAYOUT = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

function die(value) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 40 40");
  svg.setAttribute("class", "die");
  svg.setAttribute("aria-hidden", "true");
  const face = document.createElementNS(ns, "rect");
  for (const [k, v] of Object.entries({ x: 2, y: 2, width: 36, height: 36, rx: 7, class: "die-face" })) face.setAttribute(k, v);
  svg.append(face);
  for (const [cx, cy] of PIP_LAYOUT[value] || []) {
    const pip = document.createElementNS(ns, "circle");
    for (const [k, v] of Object.entries({ cx: cx * 10, cy: cy * 10, r: 3.6, class: "die-pip" })) pip.setAttribute(k, v);
    svg.append(pip);
  }
  return svg;
}

function renderDice() {
  const box = $("dice");
  const dice = app.view.dice;
  const chip = $("last-roll");
  chip.hidden = !dice;
  if (dice) {
    chip.replaceChildren(die(dice[0]), die(dice[1]), node("span", { text: String(dice[0] + dice[1]) }));
    chip.classList.toggle("seven", dice[0] + dice[1] === 7);
    chip.title = t("last_roll", { a: dice[0], b: dice[1], sum: dice[0] + dice[1] });
  }
  box.replaceChildren();
  if (!dice) {
    box.append(node("span", { class: "muted", text: t("no_roll_yet") }));
    return;
  }
  const sum = dice[0] + dice[1];
  box.dataset.sum = sum;
  box.append(die(dice[0]), die(dice[1]), node("span", { class: `dice-sum${sum === 7 ? " seven" : ""}`, text: `= ${sum}` }));
  box.setAttribute("aria-label", t("last_roll", { a: dice[0], b: dice[1], sum }));
}

function renderBank() {
  const bank = $("bank");
  bank.replaceChildren();
  for (const r of RESOURCES) {
    bank.append(node("span", { class: `chip res-${r}`, title: t(r), "data-resource": r },
      node("span", { class: "chip-name", text: t(r) }), node("b", { text: String(app.view.bank[r]) })));
  }
  bank.append(node("span", { class: "chip dev", title: t("development_cards") },
    node("span", { class: "chip-name", text: t("deck") }), node("b", { text: String(app.view.deck_count) })));
}

// ---- domestic trade -----------------------------------------------------------------------------------------

function termsLine(label, cards) {
  return node("div", { class: "terms-line" }, node("span", { class: "terms-label", text: label }),
    node("span", { class: "terms-cards", text: cardsText(cards) }));
}

function renderTrade() {
  const panel = $("trade-panel");
  panel.replaceChildren();
  const trade = app.view.trade;
  panel.hidden = !trade;
  if (!trade) return;
  const you = app.yourSeat;
  if (trade.from === you) {
    panel.append(node("h3", { text: t("your_offer") }),
      termsLine(t("you_give"), trade.give), termsLine(t("you_get"), trade.get));
    const replies = node("ul", { class: "replies" });
    for (const seat of trade.to) {
      const reply = trade.replies[String(seat)];
      const line = node("li", { "data-seat": seat }, swatch(seat), node("span", { text: seatName(seat) }));
      if (!reply) line.append(node("span", { class: "reply pending", text: t("reply_pending") }));
      else if (reply.reply === "counter") {
        line.append(node("span", { class: "reply counter", text: t("reply_counter") }),
          node("span", { class: "terms-cards", text: t("counter_terms", { give: cardsText(reply.give), get: cardsText(reply.get) }) }));
      } else line.append(node("span", { class: `reply ${reply.reply}`, text: t(`reply_${reply.reply}`) }));
      const confirm = app.legal.find((a) => a.type === "confirm_trade" && a.seat === seat);
      if (confirm && !app.awaiting) {
        line.append(button(t("confirm_with", { who: seatName(seat) }), () => submit(confirm),
          { id: `btn-confirm-trade-${seat}`, class: "button small primary" }));
      }
      replies.append(line);
    }
    panel.append(replies);
    if (has("cancel_trade") && !app.awaiting) {
      panel.append(button(t("cancel_offer"), () => submit({ type: "cancel_trade" }), { id: "btn-cancel-trade", class: "button secondary" }));
    }
    return;
  }
  panel.append(node("h3", { text: t("offer_from", { who: seatName(trade.from) }) }));
  const involved = you !== null && trade.to.includes(you);
  if (involved) {
    // The terms are stored from the offering player's side; show them from this player's side.
    panel.append(termsLine(t("you_give"), trade.get), termsLine(t("you_get"), trade.give));
  } else {
    panel.append(termsLine(t("they_give", { who: seatName(trade.from) }), trade.give),
      termsLine(t("they_get", { who: seatName(trade.from) }), trade.get));
  }
  const mine = involved ? trade.replies[String(you)] : null;
  if (mine) panel.append(node("p", { class: "muted", text: t(`you_replied_${mine.reply}`) }));
  if (has("reject_trade") && !app.awaiting) {
    const row = node("div", { class: "button-row" });
    if (has("accept_trade")) row.append(button(t("accept"), () => submit({ type: "accept_trade" }), { id: "btn-accept-trade", class: "button primary" }));
    else row.append(node("span", { class: "muted small", text: t("cannot_accept") }));
    row.append(button(t("counter"), () => openOffer("counter"), { id: "btn-counter-trade", class: "button" }));
    row.append(button(t("reject"), () => submit({ type: "reject_trade" }), { id: "btn-reject-trade", class: "button secondary" }));
    panel.append(row);
  }
}

// ---- dialogs ------------------------------------------------------------------------------------------------

function openDialog({ kind, title, intro = null, build, valid = () => true, closable = true }) {
  const d = $("dialog");
  d.replaceChildren();
  const box = node("div", { class: `dialog-box dialog-${kind}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" });
  box.append(node("h2", { id: "dialog-title", text: title }));
  if (intro) box.append(node("p", { class: "muted", text: intro }));
  const footer = node("div", { class: "dialog-footer" });
  build(box, footer);
  if (closable) footer.append(button(t("close"), closeDialog, { id: "dialog-cancel", class: "button secondary" }));
  box.append(footer);
  d.append(box);
  d.hidden = false;
  d.dataset.kind = kind;
  app.dialog = { kind, valid, closable };
  const first = box.querySelector("button:not([disabled])");
  if (first) first.focus({ preventScroll: true });
}

function closeDialog() {
  const d = $("dialog");
  d.hidden = true;
  d.replaceChildren();
  delete d.dataset.kind;
  app.dialog = null;
}

// After each render: close a dialog whose choice is gone, and open the ones the game now requires.
function syncDialogs() {
  if (app.dialog && !app.dialog.valid()) closeDialog();
  const mine = me();
  if (!mine || app.awaiting) return;
  const view = app.view;
  for (const kind of ["discard", "gold"]) {
    const owed = kind === "discard" ? mine.discards_owed : mine.gold_owed;
    const key = `${kind}:${view.turn}:${view.phase}`;
    if (view.phase === kind && owed && !app.dialog && !app.autoOpened.has(key)) {
      app.autoOpened.add(key);
      openBundle(kind);
    }
  }
}

// One row per resource, with a − / + counter per column (one column for discards, two for give and get).
// Each column is {counts, limit(r), idPrefix, label}; `onChange` runs after every change.
function counters(columns, onChange, { note = null } = {}) {
  const list = node("div", { class: `counters columns-${columns.length}` });
  if (columns.length > 1) {
    list.append(node("div", { class: "counter counter-head" }, node("span"),
      ...columns.map((c) => node("span", { class: "counter-label", text: c.label }))));
  }
  const refreshers = [];
  for (const r of RESOURCES) {
    const row = node("div", { class: `counter res-${r}`, "data-resource": r }, node("span", { class: "counter-name", text: t(r) }));
    for (const { counts, limit, idPrefix } of columns) {
      const value = node("output", { class: "count", text: String(counts[r]) });
      const change = (delta) => {
        const next = counts[r] + delta;
        if (next < 0 || next > limit(r)) return;
        counts[r] = next;
        onChange();
      };
      const minus = button("−", () => change(-1), { class: "button small step", "aria-label": t("less", { resource: t(r) }), "data-minus": r });
      const plus = button("+", () => change(1), { class: "button small step", "aria-label": t("more", { resource: t(r) }), "data-plus": r });
      row.append(node("span", { class: "stepper", id: `${idPrefix}-${r}` }, minus, value, plus));
      refreshers.push(() => {
        value.textContent = String(counts[r]);
        minus.disabled = counts[r] <= 0;
        plus.disabled = counts[r] >= limit(r);
      });
    }
    if (note) row.append(node("span", { class: "counter-note muted", text: note(r) }));
    list.append(row);
  }
  list.refresh = () => refreshers.forEach((refresh) => refresh());
  list.refresh();
  return list;
}

const zeroCards = () => Object.fromEntries(RESOURCES.map((r) => [r, 0]));

// Discards and gold choices: exactly the owed number of cards, sent as one bundle.
function openBundle(kind) {
  const mine = me();
  if (!mine) return;
  const owed = kind === "discard" ? mine.discards_owed : mine.gold_owed;
  if (!owed) return;
  const counts = zeroCards();
  const available = (r) => (kind === "discard" ? mine.resources[r] : app.view.bank[r]);
  let list, confirm, summary;
  const update = () => {
    const n = total(counts);
    list.refresh();
    RESOURCES.forEach((r) => {
      if (n >= owed && counts[r] === 0) list.querySelector(`[data-plus=${r}]`).disabled = true;
    });
    summary.textContent = t("chosen_of", { n, owed });
    confirm.disabled = n !== owed;
  };
  openDialog({
    kind,
    title: kind === "discard" ? t("discard_title", { n: owed }) : t("gold_title", { n: owed }),
    intro: kind === "discard" ? t("discard_intro", { held: mine.resource_count, n: owed }) : t("gold_intro", { n: owed }),
    valid: () => {
      const now = me();
      return Boolean(now && app.view.phase === kind && (kind === "discard" ? now.discards_owed : now.gold_owed));
    },
    build: (box, footer) => {
      list = counters([{ counts, limit: (r) => Math.min(available(r), owed), idPrefix: kind }], update, {
        note: (r) => (kind === "discard" ? t("of_held", { n: available(r) }) : t("in_bank", { n: available(r) })),
      });
      summary = node("p", { class: "summary" });
      confirm = button(kind === "discard" ? t("discard_confirm") : t("gold_confirm"), () => {
        if (total(counts) !== owed) return;
        submit({ type: kind === "discard" ? "discard" : "choose_gold", cards: nonZero(counts) });
      }, { id: "dialog-confirm", class: "button primary" });
      box.append(list, summary);
      footer.append(confirm);
    },
  });
  update();
}

function openVictims(actions) {
  const kind = actions[0].type === "move_pirate" ? "pirate" : "robber";
  openDialog({
    kind: "victim",
    title: t(kind === "pirate" ? "victim_title_pirate" : "victim_title"),
    valid: () => actions.every((a) => app.legal.some((b) => JSON.stringify(a) === JSON.stringify(b))),
    build: (box) => {
      const list = node("div", { class: "choice-list" });
      for (const action of actions) {
        const seat = app.view.seats[action.victim];
        const choice = button("", () => submit(action), { class: "button choice victim", "data-victim": action.victim });
        choice.append(swatch(action.victim), node("span", { text: seatName(action.victim) }),
          node("small", { text: t("cards_held", { n: seat.resource_count }) }));
        list.append(choice);
      }
      box.append(list);
    },
  });
}

// One coastal edge, a road or a ship: the player says which.
function openBuildChoice(actions) {
  openDialog({
    kind: "road-or-ship",
    title: t("road_or_ship_title"),
    valid: () => actions.every((a) => app.legal.some((b) => JSON.stringify(a) === JSON.stringify(b))),
    build: (box) => {
      const list = node("div", { class: "choice-list" });
      for (const action of actions) {
        const kind = action.type === "build_ship" ? "ship" : "road";
        list.append(button(t(`build_${kind}_here`), () => submit(action), { class: "button choice", id: `choose-${kind}` }));
      }
      box.append(list);
    },
  });
}

function openPlenty() {
  const options = app.legal.filter((a) => a.type === "play_year_of_plenty");
  if (!options.length) return;
  const size = Math.max(...options.map((a) => a.resources.length));
  const counts = zeroCards();
  let list, confirm;
  const chosen = () => RESOURCES.flatMap((r) => Array(counts[r]).fill(r));
  const match = () => options.find((a) => JSON.stringify(a.resources) === JSON.stringify(chosen()));
  const update = () => {
    list.refresh();
    if (total(counts) >= size) list.querySelectorAll("[data-plus]").forEach((b) => { b.disabled = true; });
    confirm.disabled = !match();
  };
  openDialog({
    kind: "plenty",
    title: t("plenty_title"),
    intro: t("plenty_intro", { n: size }),
    valid: () => has("play_year_of_plenty"),
    build: (box, footer) => {
      list = counters([{ counts, limit: (r) => Math.min(size, app.view.bank[r]), idPrefix: "plenty" }], update);
      confirm = button(t("play_card", { card: t("year_of_plenty") }), () => {
        const action = match();
        if (action) submit(action);
      }, { id: "dialog-confirm", class: "button primary" });
      box.append(list);
      footer.append(confirm);
    },
  });
  update();
}

function openMonopoly() {
  openDialog({
    kind: "monopoly",
    title: t("monopoly_title"),
    intro: t("monopoly_intro"),
    valid: () => has("play_monopoly"),
    build: (box) => {
      const list = node("div", { class: "choice-list resources" });
      for (const action of app.legal.filter((a) => a.type === "play_monopoly")) {
        list.append(button(t(action.resource), () => submit(action),
          { class: `button choice res-${action.resource}`, "data-resource": action.resource }));
      }
      box.append(list);
    },
  });
}

function openBankTrade() {
  const trades = app.legal.filter((a) => a.type === "trade_bank");
  if (!trades.length) return;
  const rates = me().harbour_rates;
  const choice = { give: null, get: null };
  let giveRow, getRow, summary, confirm;
  const action = () => trades.find((a) => a.give === choice.give && a.get === choice.get);
  const update = () => {
    for (const b of giveRow.children) b.setAttribute("aria-pressed", String(b.dataset.resource === choice.give));
    for (const b of getRow.children) {
      const r = b.dataset.resource;
      b.disabled = !trades.some((a) => a.get === r && (choice.give === null || a.give === choice.give));
      b.setAttribute("aria-pressed", String(r === choice.get));
    }
    const chosen = action();
    summary.textContent = chosen
      ? t("bank_summary", { n: rates[chosen.give], give: t(chosen.give), get: t(chosen.get) })
      : t("bank_pick");
    confirm.disabled = !chosen;
  };
  openDialog({
    kind: "bank",
    title: t("bank_title"),
    valid: () => has("trade_bank"),
    build: (box, footer) => {
      const rateList = node("div", { class: "rates" });
      for (const r of RESOURCES) {
        rateList.append(node("span", { class: `chip res-${r}${rates[r] < 4 ? " better" : ""}`, "data-resource": r },
          node("span", { class: "chip-name", text: t(r) }), node("b", { text: `${rates[r]}:1` })));
      }
      box.append(node("h3", { text: t("your_rates") }), rateList);
      giveRow = node("div", { class: "choice-list resources", id: "bank-give" });
      for (const r of RESOURCES.filter((x) => trades.some((a) => a.give === x))) {
        giveRow.append(button(`${rates[r]} ${t(r)}`, () => {
          choice.give = r;
          if (choice.get === r || !action()) choice.get = null;
          update();
        }, { class: `button choice res-${r}`, "data-resource": r }));
      }
      getRow = node("div", { class: "choice-list resources", id: "bank-get" });
      for (const r of RESOURCES) {
        getRow.append(button(`1 ${t(r)}`, () => {
          choice.get = r;
          if (!action()) choice.give = trades.find((a) => a.get === r)?.give ?? choice.give;
          update();
        }, { class: `button choice res-${r}`, "data-resource": r }));
      }
      summary = node("p", { class: "summary" });
      confirm = button(t("trade"), () => { const a = action(); if (a) submit(a); }, { id: "dialog-confirm", class: "button primary" });
      box.append(node("h3", { text: t("you_give") }), giveRow, node("h3", { text: t("you_get") }), getRow, summary);
      footer.append(confirm);
    },
  });
  update();
}

// A new offer (the active player) or a counter-offer (a player the offer was made to). Both are edited from
// this player's own side; the engine wants the active player's side, so a counter swaps give and get.
function openOffer(mode) {
  const mine = me();
  const trade = app.view.trade;
  if (!mine || (mode === "counter" && !trade)) return;
  const give = zeroCards();
  const get = zeroCards();
  if (mode === "counter") {
    Object.assign(give, trade.get);
    Object.assign(get, trade.give);
    for (const r of RESOURCES) give[r] = Math.min(give[r], mine.resources[r]);
  }
  const others = app.view.seats.map((s) => s.seat).filter((s) => s !== app.yourSeat);
  const targets = new Set(others);
  let list, confirm, summary;
  const update = () => {
    list.refresh();
    const overlap = RESOURCES.some((r) => give[r] && get[r]);
    const ok = total(give) > 0 && total(get) > 0 && !overlap && (mode === "counter" || targets.size > 0);
    // Never "you give nothing and get nothing": an empty side asks for cards instead.
    if (overlap) summary.textContent = t("offer_overlap");
    else if (!total(give) || !total(get)) summary.textContent = t("offer_pick");
    else summary.textContent = t("offer_summary", { give: cardsText(give), get: cardsText(get) });
    confirm.disabled = !ok;
  };
  openDialog({
    kind: mode,
    title: mode === "counter" ? t("counter_title", { who: seatName(trade.from) }) : t("offer_title"),
    valid: () => (mode === "counter" ? has("reject_trade") : has("end_turn") && !app.view.trade),
    build: (box, footer) => {
      list = counters([
        { counts: give, limit: (r) => mine.resources[r], idPrefix: "offer-give", label: t("you_give") },
        { counts: get, limit: () => 19, idPrefix: "offer-get", label: t("you_get") },
      ], update);
      box.append(list);
      if (mode === "offer") {
        const to = node("fieldset", { class: "recipients", id: "offer-to" }, node("legend", { text: t("offer_to") }));
        for (const seat of others) {
          const check = node("input", { type: "checkbox", value: String(seat), checked: true, onchange: (e) => {
            if (e.target.checked) targets.add(seat); else targets.delete(seat);
            update();
          } });
          to.append(node("label", { class: "recipient" }, check, swatch(seat), node("span", { text: seatName(seat) })));
        }
        box.append(to);
      }
      summary = node("p", { class: "summary" });
      box.append(summary);
      confirm = button(mode === "counter" ? t("send_counter") : t("send_offer"), () => {
        if (mode === "counter") submit({ type: "counter_trade", give: nonZero(get), get: nonZero(give) });
        else submit({ type: "offer_trade", give: nonZero(give), get: nonZero(get), to: others.filter((s) => targets.has(s)) });
      }, { id: "dialog-confirm", class: "button primary" });
      footer.append(confirm);
    },
  });
  update();
}

// ---- the end of the game ------------------------------------------------------------------------------------

function histogram(history) {
  const ns = "http://www.w3.org/2000/svg";
  const rolls = Object.values(history).reduce((a, b) => a + b, 0);
  const expected = (n) => (rolls * (6 - Math.abs(7 - n))) / 36;
  let max = 1;
  for (let n = 2; n <= 12; n++) max = Math.max(max, history[String(n)] || 0, expected(n));
  const width = 11 * 30, height = 140, base = 120;
  const svg = document.createElementNS(ns, "svg");
  const set = (elNode, attrs) => { for (const [k, v] of Object.entries(attrs)) elNode.setAttribute(k, v); return elNode; };
  set(svg, { viewBox: `0 0 ${width} ${height}`, class: "histogram", id: "dice-histogram", role: "img", "aria-label": t("histogram") });
  for (let n = 2; n <= 12; n++) {
    const count = history[String(n)] || 0;
    const x = (n - 2) * 30 + 4;
    const h = (count / max) * (base - 16);
    const bar = set(document.createElementNS(ns, "rect"), { x, y: base - h, width: 22, height: h, rx: 3, class: n === 7 ? "bar seven" : "bar", "data-number": n });
    const title = document.createElementNS(ns, "title");
    title.textContent = t("histogram_bar", { n, count, expected: expected(n).toFixed(1) });
    bar.append(title);
    const eh = (expected(n) / max) * (base - 16);
    const mark = set(document.createElementNS(ns, "line"), { x1: x - 2, x2: x + 24, y1: base - eh, y2: base - eh, class: "expected" });
    const label = set(document.createElementNS(ns, "text"), { x: x + 11, y: base + 14, "text-anchor": "middle", class: "axis" });
    label.textContent = String(n);
    const value = set(document.createElementNS(ns, "text"), { x: x + 11, y: base - h - 3, "text-anchor": "middle", class: "count" });
    value.textContent = String(count);
    svg.append(bar, mark, label, value);
  }
  return svg;
}

// Rematch and "back to my games" (the page's own buttons, after the results in its HTML) go right under the winner,
// in view without scrolling, the results below. The parser already split the template's <p> around the rematch
// <form> (a form closes an open p), so the buttons are gathered into one row of their own, once.
function gameOverActions(section, body) {
  const found = section.querySelector(".game-over-actions");
  if (found) return found;
  const row = node("div", { class: "button-row game-over-actions", id: "game-over-actions" });
  for (const child of [...section.children]) {
    if (child === body) continue;
    if (child.tagName === "P") {
      row.append(...child.children);
      child.remove();
    } else row.append(child);
  }
  return row;
}

function renderGameOver() {
  const section = $("game-over");
  const body = $("game-over-body");
  const view = app.view;
  if (view.phase !== "game_over") {
    section.hidden = true;
    app.playing = true;
    return;
  }
  // Bring the results into view when the game ends under the player's eyes, not when a finished game is opened.
  const justEnded = section.hidden && app.playing;
  section.hidden = false;
  const actions = gameOverActions(section, body);
  body.replaceChildren();
  body.append(node("h2", { id: "winner", text: t("winner", { who: seatName(view.winner) }) }), actions);
  const table = node("table", { class: "final-scores", id: "final-scores" });
  table.append(node("thead", {}, node("tr", {},
    node("th", { text: t("player") }), node("th", { class: "num", text: t("victory_points") }),
    node("th", { class: "num", text: t("vp_cards") }), node("th", { text: t("awards") }))));
  const tbody = node("tbody");
  const seats = [...view.seats].sort((a, b) => (b.victory_points ?? 0) - (a.victory_points ?? 0));
  for (const s of seats) {
    const awards = [];
    if (s.longest_road) awards.push(t("longest_road"));
    if (s.largest_army) awards.push(t("largest_army"));
    if (s.victory_point_tokens) awards.push(t("vp_tokens", { n: s.victory_point_tokens }));
    tbody.append(node("tr", { class: s.seat === view.winner ? "winner" : null, "data-seat": s.seat },
      node("td", {}, swatch(s.seat), node("span", { text: ` ${seatName(s.seat)}` })),
      node("td", { class: "num", text: String(s.victory_points ?? s.public_victory_points) }),
      node("td", { class: "num", text: String(s.victory_point_cards ?? 0) }),
      node("td", { text: awards.join(", ") || "–" })));
  }
  table.append(tbody);
  body.append(table, node("h3", { text: t("histogram") }), histogram(view.dice_history),
    node("p", { class: "muted small", text: t("histogram_legend") }));
  if (app.seed !== null && app.seed !== undefined) {
    // The seed arrives as a string (62 bits do not fit a JavaScript number) and is shown exactly as sent.
    body.append(node("p", { class: "muted small", id: "seed" , text: app.seedSalt
      ? t("seed_revealed_salted", { seed: String(app.seed), salt: app.seedSalt, commitment: app.seedCommitment || "–" })
      : t("seed_revealed", { seed: String(app.seed), commitment: app.seedCommitment || "–" }) }),
      node("p", { class: "small" }, node("a", { href: `/games/${gameId}/verify/`, text: t("check_dice") })));
  }
  if (justEnded) section.scrollIntoView({ behavior: "smooth", block: "start" });
}

// ---- the game log -------------------------------------------------------------------------------------------

async function fetchLog() {
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

function logMove(seq, events) {
  if (app.logLoading) app.logBuffer.push({ seq, events });
  else if (seq > app.loggedSeq + 1) {
    app.logBuffer.push({ seq, events });
    fetchLog();
  } else appendMove(seq, events);
}

function appendMove(seq, events) {
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

// Another seat's move, said in a short caption over the board as it lands (its pieces are marked meanwhile).
function showCaption(seq, events) {
  const caption = $("caption");
  const mover = events.length ? events[0].seat : null;
  if (!caption || typeof mover !== "number" || mover === app.yourSeat) return;
  const lines = events.filter((e) => e.type !== "stolen_card").flatMap(describe).slice(0, 3);
  if (!lines.length) return;
  caption.replaceChildren(...lines.map((line) => node("div", {}, swatch(line.seat ?? mover), ...(line.parts || [line.text]))));
  caption.hidden = false;
  caption.dataset.seat = mover;
  caption.dataset.seq = seq;
  caption.classList.remove("fade");
  clearTimeout(showCaption.timer);
  showCaption.timer = setTimeout(() => caption.classList.add("fade"), CAPTION_MS);
}

// ---- places: hexes, corners and edges named from the land around them ---------------------------------------

// A corner of a hex on the vertex lattice, relative to the hex's centre (2q + r, 3r).
const CORNERS = new Set(["0,-2", "1,-1", "1,1", "0,2", "-1,1", "-1,-1"]);

function hexesAtVertex(vertexId) {
  const board = app.view.board;
  const v = board.vertices[vertexId];
  if (!v) return [];
  return board.hexes.filter((h) => CORNERS.has(`${v.x - (2 * h.q + h.r)},${v.y - 3 * h.r}`)).map((h) => h.id);
}

function placeName(hexId) {
  const hexes = app.view ? app.view.board.hexes : [];
  const h = hexes.find((x) => x.id === hexId);
  if (!h) return "";
  const base = h.token ? `${t(`terrain_${h.terrain}`)} ${h.token}` : t(`terrain_${h.terrain}`);
  if (h.terrain === "sea") return base;
  // Two hexes may share terrain and number: number them in board order so that every name is one place.
  const twins = hexes.filter((x) => x.terrain === h.terrain && x.token === h.token);
  return twins.length > 1 ? `${base} (${twins.indexOf(h) + 1})` : base;
}

function landNames(hexIds) {
  const land = hexIds.filter((id) => {
    const h = app.view.board.hexes.find((x) => x.id === id);
    return h && h.terrain !== "sea" && h.terrain !== "fog";
  });
  return land.map(placeName).join(" / ");
}

function vertexPlace(vertexId) {
  return landNames(hexesAtVertex(vertexId)) || t("place_sea");
}

function edgePlace(edgeId) {
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
function cardsNodes(cards) {
  const parts = RESOURCES.filter((r) => cards && cards[r]);
  if (!parts.length) return document.createTextNode(t("nothing"));
  const span = node("span", { class: "cards" });
  parts.forEach((r, i) => {
    if (i) span.append(", ");
    span.append(node("span", { class: `card-count res-${r}` }, `${cards[r]} `, resourceIcon(r), ` ${t(r)}`));
  });
  return span;
}

function resourceNode(r) {
  return node("span", { class: `card-count res-${r}` }, resourceIcon(r), ` ${t(r)}`);
}

// One event → zero or more log lines, each {parts (strings and nodes) or text, seat?, cls?, place?}; a place is
// {vertices, edges, hexes} to show on the board when the line is hovered.
function describe(e) {
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

// ---- chat ---------------------------------------------------------------------------------------------------

async function loadChat() {
  try {
    const response = await fetch(apiUrl("chat/"), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return;
    const messages = await response.json();
    for (const message of messages) app.chat.set(message.id, message);
    renderChat();
  } catch (error) {
    // Chat history is optional; live messages still arrive over the socket.
  }
}

function addChat(message) {
  if (app.chat.has(message.id)) return;
  app.chat.set(message.id, message);
  renderChat();
}

function renderChat() {
  const list = $("chat-log");
  const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  const messages = [...app.chat.values()].sort((a, b) => a.id - b.id).slice(-200);
  for (const message of messages) {
    const at = message.at ? new Date(message.at) : null;
    const item = node("li", { "data-id": message.id });
    if (at && !Number.isNaN(at.getTime())) {
      item.append(node("time", { datetime: message.at, text: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }));
    }
    item.append(node("strong", { text: message.user || t("someone") }));
    // textContent, never innerHTML: chat text is whatever a player typed.
    item.append(node("span", { class: message.hidden ? "chat-text muted" : "chat-text", text: message.hidden ? t("chat_hidden") : message.text }));
    // No Report button on one's own lines (the server refuses a report of oneself): the author is the name of our seat.
    const mine = app.seats.some((seat) => seat.index === app.yourSeat && seat.user === message.user);
    if (app.yourSeat !== null && !message.hidden && !mine) item.append(reportButton(message));
    list.append(item);
  }
  if (stick) list.scrollTop = list.scrollHeight;
}

// The moderation strings live here, beside the chat code that uses them (extracted by `make messages`).
const gettext = window.gettext || ((text) => text);

// A moderator hid or showed a message again: every open page follows at once.
function chatHidden(frame) {
  const message = app.chat.get(frame.id);
  if (!message) return;
  message.hidden = frame.hidden;
  if (!frame.hidden) message.text = frame.text;
  renderChat();
}

// Players report a message from the chat itself; the server keeps the message, the chat around it and the move.
function reportButton(message) {
  const button = node("button", { type: "button", class: "chat-report link", text: gettext("Report"), "data-testid": "chat-report" });
  button.addEventListener("click", () => {
    const reason = window.prompt(gettext("What is wrong with this message?"));
    if (!reason || !reason.trim()) return;
    if (!send({ type: "report", message_id: message.id, reason: reason.trim().slice(0, 500) })) flash(t("offline"));
  });
  return button;
}

// ---- flash messages -----------------------------------------------------------------------------------------

function flash(text) {
  const f = $("flash");
  f.textContent = text;
  f.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { f.hidden = true; }, 5000);
}

// ---- start --------------------------------------------------------------------------------------------------

// Phones: the board fits the screen's width; zooming enlarges it inside its frame, centred on what was in view.
const ZOOMS = [1, 1.5, 2, 3];

function setZoom(step) {
  const index = Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(app.zoom) + step));
  const wrap = $("board-wrap");
  const middleX = (wrap.scrollLeft + wrap.clientWidth / 2) / wrap.scrollWidth;
  const middleY = (wrap.scrollTop + wrap.clientHeight / 2) / wrap.scrollHeight;
  app.zoom = ZOOMS[index];
  $("board").style.setProperty("--zoom", String(app.zoom));
  wrap.scrollLeft = middleX * wrap.scrollWidth - wrap.clientWidth / 2;
  wrap.scrollTop = middleY * wrap.scrollHeight - wrap.clientHeight / 2;
  $("zoom-in").disabled = index === ZOOMS.length - 1;
  $("zoom-out").disabled = index === 0;
  root.dataset.zoom = String(app.zoom);
  render();  // legal spots keep their minimum size on screen at the new scale (board.js)
}

function start() {
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(render, 150);  // the board's size on screen sets its legal spots' size
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
