// The game page: one WebSocket, the board, panels, dialogs and the log. Every frame carries `seq`; a gap or a
// reconnect asks the server for a full state.
import { renderBoard, SEAT_COLORS } from "./board.js";
import { t } from "./i18n.js";

const RESOURCES = ["lumber", "brick", "wool", "grain", "ore"];
const root = document.getElementById("game-root");
const gameId = root.dataset.gameId;
const invite = root.dataset.invite || "";
const $ = (id) => document.getElementById(id);

const app = { seq: -1, view: null, legal: [], seats: [], yourSeat: null, pending: null, socket: null, retry: 0,
  status: "", seed: null };

function name(seat) {
  if (seat === app.yourSeat) return t("you");
  const s = app.seats.find((x) => x.index === seat);
  if (!s) return t("seat", { n: seat + 1 });
  return s.user || `${t("bot")} ${seat + 1}`;
}

function node(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") n.className = v; else if (k.startsWith("on")) n.addEventListener(k.slice(2), v); else n.setAttribute(k, v);
  }
  if (text !== null) n.textContent = text;
  return n;
}

function key() {
  return (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`).slice(0, 64);
}

// ---- socket -------------------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}/?invite=${encodeURIComponent(invite)}`);
  app.socket = socket;
  setConnection("connecting");
  socket.onopen = () => { app.retry = 0; setConnection("connected"); };
  socket.onclose = () => {
    setConnection("disconnected");
    app.retry = Math.min(app.retry + 1, 6);
    setTimeout(connect, 500 * 2 ** app.retry);
  };
  socket.onmessage = (event) => handle(JSON.parse(event.data));
}

function send(frame) {
  if (app.socket && app.socket.readyState === WebSocket.OPEN) app.socket.send(JSON.stringify(frame));
}

export function submit(action) {
  app.pending = null;
  send({ type: "move", action, seq: app.seq, key: key() });
}

function setConnection(state) {
  const c = $("connection");
  c.textContent = t(state);
  c.dataset.state = state;
}

function handle(frame) {
  switch (frame.type) {
    case "state":
      app.seq = frame.seq; app.view = frame.view; app.legal = frame.legal || []; app.seats = frame.seats;
      app.yourSeat = frame.your_seat; app.status = frame.status; app.seed = frame.seed;
      if (frame.status === "waiting") { location.reload(); return; }
      render();
      break;
    case "update":
      if (frame.seq !== app.seq + 1) { send({ type: "sync" }); return; }
      app.seq = frame.seq; app.view = frame.view; app.legal = frame.legal || [];
      for (const event of frame.events) logEvent(event);
      if (frame.view.phase === "game_over") { send({ type: "sync" }); }
      render();
      break;
    case "chat":
      addChat(frame);
      break;
    case "lobby":
      send({ type: "sync" });
      break;
    case "error":
      flash(t("error", { message: frame.message }));
      break;
    default:
      break;
  }
}

// ---- rendering ----------------------------------------------------------------------------------------

function render() {
  const view = app.view;
  if (!view) return;
  renderBoard($("board"), view, { legal: app.legal, onAction: onBoardAction, pending: app.pending });
  renderPrompt();
  renderButtons();
  renderHand();
  renderPlayers();
  renderDice();
  renderDialogs();
  if (view.phase === "game_over") renderGameOver();
}

function renderPrompt() {
  const view = app.view;
  const mine = view.to_move.includes(app.yourSeat);
  let text;
  if (view.phase === "game_over") text = t("prompt_game_over");
  else if (view.trade && app.yourSeat !== null && view.trade.to.includes(app.yourSeat) && mine) text = t("prompt_trade_reply", { who: name(view.trade.from) });
  else if (view.trade && view.trade.from === app.yourSeat) text = t("prompt_trade_wait");
  else if (!mine) text = t("prompt_wait", { who: view.to_move.map(name).join(", ") });
  else {
    const me = view.seats[app.yourSeat];
    text = t(`prompt_${view.phase}`, { n: view.phase === "gold" ? me.gold_owed : me.discards_owed });
  }
  $("prompt").textContent = text;
  $("prompt").dataset.mine = mine ? "yes" : "no";
}

function has(type) {
  return app.legal.some((a) => a.type === type);
}

function renderButtons() {
  const bar = $("actions");
  bar.replaceChildren();
  const button = (id, label, onclick) => bar.appendChild(node("button", { id, class: "button", onclick }, label));
  if (has("roll")) button("btn-roll", t("roll"), () => submit({ type: "roll" }));
  if (has("buy_development")) button("btn-buy-dev", t("buy_development"), () => submit({ type: "buy_development" }));
  if (has("trade_bank")) button("btn-trade-bank", t("trade_bank"), openBankTrade);
  if (has("end_turn")) button("btn-offer-trade", t("offer_trade"), openOfferTrade);
  for (const card of ["play_knight", "play_road_building"]) {
    if (has(card)) button(`btn-${card}`, `${t("play")}: ${t(card.replace("play_", ""))}`, () => submit({ type: card }));
  }
  if (has("play_year_of_plenty")) button("btn-play_year_of_plenty", `${t("play")}: ${t("year_of_plenty")}`, openPlenty);
  if (has("play_monopoly")) button("btn-play_monopoly", `${t("play")}: ${t("monopoly")}`, openMonopoly);
  if (has("end_turn")) button("btn-end-turn", t("end_turn"), () => submit({ type: "end_turn" }));
}

function renderHand() {
  const hand = $("hand");
  hand.replaceChildren();
  const me = app.yourSeat !== null ? app.view.seats[app.yourSeat] : null;
  if (!me) return;
  hand.appendChild(node("h3", {}, t("hand")));
  const row = node("div", { class: "cards" });
  for (const r of RESOURCES) {
    row.appendChild(node("span", { class: `card res-${r}`, "data-resource": r }, `${t(r)} ${me.resources[r]}`));
  }
  hand.appendChild(row);
  const devs = node("div", { class: "cards dev" });
  for (const [card, n] of Object.entries(me.development)) if (n) devs.appendChild(node("span", { class: "card dev-card" }, `${t(card)} ×${n}`));
  for (const [card, n] of Object.entries(me.development_new)) if (n) devs.appendChild(node("span", { class: "card dev-card new" }, `${t(card)} ×${n} (${t("new_card")})`));
  if (devs.childNodes.length) { hand.appendChild(node("h3", {}, t("cards"))); hand.appendChild(devs); }
}

function renderPlayers() {
  const list = $("players");
  list.replaceChildren();
  for (const s of app.view.seats) {
    const item = node("li", { class: `player${app.view.to_move.includes(s.seat) ? " active" : ""}`, "data-seat": s.seat });
    item.style.borderColor = SEAT_COLORS[s.seat];
    item.appendChild(node("strong", {}, name(s.seat)));
    const facts = [
      `${s.victory_points ?? s.public_victory_points} ${t("victory_points")}`,
      `${s.resource_count} ${t("resources")}`, `${s.development_count} ${t("dev_cards")}`,
      `${t("knights")} ${s.knights}`, `${t("road")} ${s.road_length}`,
    ];
    if (s.victory_point_tokens) facts.push(`${s.victory_point_tokens} ${t("tokens")}`);
    item.appendChild(node("span", { class: "facts" }, facts.join(" · ")));
    if (s.longest_road) item.appendChild(node("span", { class: "badge" }, t("longest_road")));
    if (s.largest_army) item.appendChild(node("span", { class: "badge" }, t("largest_army")));
    list.appendChild(item);
  }
}

function renderDice() {
  const dice = app.view.dice;
  $("dice").textContent = dice ? `${t("dice")}: ${dice[0]} + ${dice[1]} = ${dice[0] + dice[1]}` : `${t("dice")}: –`;
  $("bank").textContent = `${t("bank")}: ` + RESOURCES.map((r) => `${t(r)} ${app.view.bank[r]}`).join(" · ");
}

// ---- board clicks and dialogs ----------------------------------------------------------------------------

function onBoardAction(action) {
  if (action.type === "select_ship") { app.pending = { type: "move_ship", from: action.from }; render(); return; }
  if (action.type === "choose_victim") { openVictims(action.options); return; }
  submit(action);
}

function dialog(title, build) {
  const d = $("dialog");
  d.replaceChildren();
  const box = node("div", { class: "dialog-box", role: "dialog", "aria-modal": "true" });
  box.appendChild(node("h2", {}, title));
  build(box);
  box.appendChild(node("button", { class: "button secondary", id: "dialog-cancel", onclick: closeDialog }, t("cancel")));
  d.appendChild(box);
  d.hidden = false;
}

function closeDialog() {
  $("dialog").hidden = true;
  $("dialog").replaceChildren();
}

function counterRow(box, counts, limitFor) {
  for (const r of RESOURCES) {
    const row = node("div", { class: "counter", "data-resource": r });
    const value = node("span", { class: "count" }, "0");
    const change = (delta) => {
      const next = counts[r] + delta;
      if (next < 0 || next > limitFor(r)) return;
      counts[r] = next; value.textContent = String(next);
    };
    row.append(node("span", { class: "label" }, t(r)), node("button", { class: "button small", onclick: () => change(-1) }, "−"),
      value, node("button", { class: "button small", onclick: () => change(1), "data-plus": r }, "+"));
    box.appendChild(row);
  }
}

function openBundle(kind, owed) {
  const me = app.view.seats[app.yourSeat];
  const counts = Object.fromEntries(RESOURCES.map((r) => [r, 0]));
  const title = kind === "discard" ? t("discard_title", { n: owed }) : t("gold_title", { n: owed });
  dialog(title, (box) => {
    counterRow(box, counts, (r) => (kind === "discard" ? me.resources[r] : app.view.bank[r]));
    box.appendChild(node("button", { class: "button", id: "dialog-confirm", onclick: () => {
      const cards = Object.fromEntries(Object.entries(counts).filter(([, n]) => n));
      const total = Object.values(cards).reduce((a, b) => a + b, 0);
      if (total < 1 || total > owed) return;
      closeDialog(); submit({ type: kind === "discard" ? "discard" : "choose_gold", cards });
    } }, t("confirm")));
  });
}

function openVictims(options) {
  dialog(t("choose_victim"), (box) => {
    for (const action of options) {
      box.appendChild(node("button", { class: "button", onclick: () => { closeDialog(); submit(action); } },
        action.victim === undefined ? t("no_one") : name(action.victim)));
    }
  });
}

function openPlenty() {
  dialog(t("plenty_title"), (box) => {
    for (const action of app.legal.filter((a) => a.type === "play_year_of_plenty")) {
      box.appendChild(node("button", { class: "button", onclick: () => { closeDialog(); submit(action); } },
        action.resources.map(t).join(" + ")));
    }
  });
}

function openMonopoly() {
  dialog(t("monopoly_title"), (box) => {
    for (const action of app.legal.filter((a) => a.type === "play_monopoly")) {
      box.appendChild(node("button", { class: "button", onclick: () => { closeDialog(); submit(action); } }, t(action.resource)));
    }
  });
}

function openBankTrade() {
  const rates = app.view.seats[app.yourSeat].harbour_rates;
  dialog(t("bank_title"), (box) => {
    for (const action of app.legal.filter((a) => a.type === "trade_bank")) {
      box.appendChild(node("button", { class: "button small trade-option", onclick: () => { closeDialog(); submit(action); } },
        `${rates[action.give]} ${t(action.give)} → 1 ${t(action.get)}`));
    }
  });
}

function openOfferTrade() {
  const me = app.view.seats[app.yourSeat];
  const give = Object.fromEntries(RESOURCES.map((r) => [r, 0]));
  const get = Object.fromEntries(RESOURCES.map((r) => [r, 0]));
  dialog(t("trade_title"), (box) => {
    box.appendChild(node("h3", {}, t("give")));
    counterRow(box, give, (r) => me.resources[r]);
    box.appendChild(node("h3", {}, t("get")));
    counterRow(box, get, () => 19);
    box.appendChild(node("h3", {}, t("to")));
    const targets = [];
    for (const s of app.view.seats) {
      if (s.seat === app.yourSeat) continue;
      const label = node("label", {}, ` ${name(s.seat)}`);
      const box2 = node("input", { type: "checkbox", checked: "checked", value: String(s.seat) });
      label.prepend(box2); targets.push(box2); box.appendChild(label);
    }
    box.appendChild(node("button", { class: "button", id: "dialog-confirm", onclick: () => {
      const clean = (c) => Object.fromEntries(Object.entries(c).filter(([, n]) => n));
      const to = targets.filter((x) => x.checked).map((x) => Number(x.value));
      closeDialog(); submit({ type: "offer_trade", give: clean(give), get: clean(get), to });
    } }, t("send")));
  });
}

function describeTerms(terms) {
  const part = (c) => Object.entries(c).filter(([, n]) => n).map(([r, n]) => `${n} ${t(r)}`).join(", ") || "–";
  return `${part(terms.give)} → ${part(terms.get)}`;
}

function renderDialogs() {
  const view = app.view;
  const me = app.yourSeat;
  if (me === null) return;
  const mine = view.to_move.includes(me);
  const open = !$("dialog").hidden;
  if (mine && view.phase === "discard" && !open) openBundle("discard", view.seats[me].discards_owed);
  else if (mine && view.phase === "gold" && !open) openBundle("gold", view.seats[me].gold_owed);
  const panel = $("trade-panel");
  panel.replaceChildren();
  if (!view.trade) return;
  const trade = view.trade;
  panel.appendChild(node("h3", {}, t("offer_from", { who: name(trade.from) })));
  panel.appendChild(node("p", {}, describeTerms(trade)));
  if (has("accept_trade") || has("reject_trade")) {
    if (has("accept_trade")) panel.appendChild(node("button", { class: "button", id: "btn-accept-trade", onclick: () => submit({ type: "accept_trade" }) }, t("accept")));
    panel.appendChild(node("button", { class: "button secondary", id: "btn-reject-trade", onclick: () => submit({ type: "reject_trade" }) }, t("reject")));
  }
  if (trade.from === me) {
    for (const [seat, reply] of Object.entries(trade.replies)) {
      const line = node("div", {}, `${name(Number(seat))}: ${t(reply.reply === "counter" ? "counter" : reply.reply)}${reply.reply === "counter" ? ` (${describeTerms(reply)})` : ""}`);
      const confirm = app.legal.find((a) => a.type === "confirm_trade" && a.seat === Number(seat));
      if (confirm) line.appendChild(node("button", { class: "button small", onclick: () => submit(confirm) }, t("confirm_with", { who: name(Number(seat)) })));
      panel.appendChild(line);
    }
    panel.appendChild(node("button", { class: "button secondary", id: "btn-cancel-trade", onclick: () => submit({ type: "cancel_trade" }) }, t("cancel")));
  }
}

function renderGameOver() {
  const panel = $("game-over");
  panel.hidden = false;
  panel.replaceChildren();
  panel.appendChild(node("h2", {}, t("winner", { who: name(app.view.winner) })));
  panel.appendChild(node("h3", {}, t("final_scores")));
  const list = node("ol");
  const seats = [...app.view.seats].sort((a, b) => b.victory_points - a.victory_points);
  for (const s of seats) list.appendChild(node("li", {}, `${name(s.seat)}: ${s.victory_points} ${t("victory_points")} (${t("hidden_vp", { n: s.victory_point_cards })})`));
  panel.appendChild(list);
  panel.appendChild(node("h3", {}, t("histogram")));
  const history = app.view.dice_history;
  const max = Math.max(1, ...Object.values(history));
  const chart = node("div", { class: "histogram", id: "dice-histogram" });
  for (let n = 2; n <= 12; n++) {
    const bar = node("div", { class: "bar" });
    bar.appendChild(node("span", { class: "fill", style: `height:${(100 * history[String(n)]) / max}%` }));
    bar.appendChild(node("span", { class: "n" }, `${n}`));
    bar.title = `${n}: ${history[String(n)]}`;
    chart.appendChild(bar);
  }
  panel.appendChild(chart);
  if (app.seed !== null && app.seed !== undefined) panel.appendChild(node("p", { class: "muted" }, t("seed_revealed", { seed: app.seed })));
}

// ---- log and chat -----------------------------------------------------------------------------------------

function logEvent(event) {
  const who = name(event.seat);
  const params = { ...event, who };
  if (event.type === "rolled") Object.assign(params, { a: event.dice[0], b: event.dice[1], sum: event.dice[0] + event.dice[1] });
  if (event.type === "stole") params.victim = name(event.victim);
  if (event.type === "traded") params.partner = name(event.partner);
  if (event.type === "discarded") params.n = Object.values(event.cards).reduce((a, b) => a + b, 0);
  for (const field of ["resource", "give", "get", "card"]) if (typeof event[field] === "string") params[field] = t(event[field]);
  if (event.type === "produced") {
    params.detail = Object.entries(event.gains).map(([seat, gains]) => `${name(Number(seat))} +${Object.entries(gains).map(([r, n]) => `${n} ${t(r)}`).join(", ")}`).join("; ") || "–";
  }
  const text = t(`ev_${event.type}`, params);
  if (text === `ev_${event.type}`) return;
  const log = $("game-log");
  log.appendChild(node("li", { "data-type": event.type }, text));
  log.scrollTop = log.scrollHeight;
}

function addChat(message) {
  const item = node("li");
  item.appendChild(node("strong", {}, `${message.user}: `));
  item.appendChild(document.createTextNode(message.text));
  $("chat-log").appendChild(item);
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
}

function flash(text) {
  const f = $("flash");
  f.textContent = text;
  f.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { f.hidden = true; }, 4000);
}

async function loadChat() {
  const response = await fetch(`/api/games/${gameId}/chat/?invite=${encodeURIComponent(invite)}`);
  if (!response.ok) return;
  for (const message of await response.json()) addChat(message.hidden ? { ...message, text: "—" } : message);
}

$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("chat-input");
  if (!input.value.trim()) return;
  send({ type: "chat", text: input.value.slice(0, 500) });
  input.value = "";
});
document.addEventListener("keydown", (e) => { if (e.key === "Escape") { closeDialog(); app.pending = null; render(); } });

loadChat();
connect();
