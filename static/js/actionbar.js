// The action bar: one set of buttons for a seated player; those that cannot be used now are greyed and say why.
import { submit } from "./connection.js";
import { openBundle, openMonopoly, openPlenty } from "./dialogs.js";
import { button, node } from "./dom.js";
import { t } from "./i18n.js";
import { $, app, cardsText, COSTS, has, hooks, me, total } from "./state.js";
import { openBankTrade, openOffer } from "./trade.js";

export const PLAY_BUTTONS = {
  play_knight: "btn-play-knight",
  play_road_building: "btn-play-road-building",
  play_year_of_plenty: "btn-play-year-of-plenty",
  play_monopoly: "btn-play-monopoly",
};

// [piece, the legal action that builds it, its key in the seat's supply]
export const BUILDS = [["road", "build_road", "roads"], ["ship", "build_ship", "ships"],
  ["settlement", "build_settlement", "settlements"], ["city", "build_city", "cities"]];

export function missingCards(cost) {
  const mine = me();
  const missing = {};
  for (const [r, n] of Object.entries(cost)) if (mine.resources[r] < n) missing[r] = n - mine.resources[r];
  return missing;
}

// Why the seat cannot take a main-phase action now (null when it can): the reason a greyed button shows.
export function mainReason(cost = null) {
  const view = app.view;
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

export function buildReason(piece, type, supplyKey) {
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
export function renderActions() {
  const bar = $("actions");
  const view = app.view;
  bar.replaceChildren();
  const mine = me();
  if (!mine || view.phase === "game_over") return;
  const add = (id, label, onclick, extra = "", reason = null, attrs = {}) => {
    // A move on its way: every button waits with it (the page sends one move at a time; a click now would be lost).
    if (app.awaiting) reason = t("prompt_sending");
    const b = button(label, onclick, { id, class: `button ${extra}`, disabled: Boolean(reason), title: reason, ...attrs });
    if (reason) b.dataset.reason = reason;
    bar.append(b);
    return b;
  };
  const phaseReason = (type) => (has(type) ? null : mainReason() || t("why_finish_step"));
  if (view.phase === "discard" && mine.discards_owed) add("btn-discard", t("discard_open", { n: mine.discards_owed }), () => openBundle("discard"), "primary");
  if (view.phase === "gold" && mine.gold_owed) add("btn-gold", t("gold_open", { n: mine.gold_owed }), () => openBundle("gold"), "primary");
  add("btn-roll", t("roll"), () => submit({ type: "roll" }), has("roll") ? "primary" : "",
    has("roll") ? null : view.phase === "roll" && view.current === app.yourSeat ? t("why_finish_step") : t("why_rolled"));
  if (!app.build || !has(app.build)) app.build = null;
  for (const [piece, type, supplyKey] of BUILDS) {
    if (piece === "ship" && !view.seafarers) continue;
    const reason = buildReason(piece, type, supplyKey);
    add(`btn-build-${piece}`, t(`build_${piece}`), () => {
      app.build = app.build === type ? null : type;
      hooks.render();
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
  fitActions(bar);
}

// What is kept in the bar when it is too narrow for every button: the step the game asks for (a primary button),
// then ending the turn, then the other usable buttons; greyed ones go to the "more" menu first.
function keepRank(b) {
  if (b.disabled) return b.id === "btn-end-turn" ? 3 : 4;
  if (b.classList.contains("primary")) return 0;
  return b.id === "btn-end-turn" ? 1 : 2;
}

// One row that never scrolls or overlaps itself: the buttons that do not fit move, least needed first, into a
// menu opened by a "more" button at the bar's end (the menu keeps the bar's order).
function fitActions(bar) {
  const old = $("actions-more-menu");
  if (old) old.remove();
  const fits = () => bar.scrollWidth <= bar.clientWidth + 1;
  if (!bar.childElementCount || fits()) return;
  const buttons = [...bar.children];
  const menu = node("div", { id: "actions-more-menu", class: "more-menu", role: "menu", hidden: true });
  const more = button("", () => toggleMore(), { id: "btn-more", class: "button more", "aria-haspopup": "menu",
    "aria-expanded": "false", "aria-controls": "actions-more-menu" });
  bar.append(more);
  const order = buttons.map((b, i) => [keepRank(b), i, b]).sort((p, q) => q[0] - p[0] || q[1] - p[1]);
  const moved = [];
  for (const [, , b] of order) {
    more.textContent = t("more_actions", { n: moved.length + 1 });
    if (fits()) break;
    b.remove();
    moved.push(b);
  }
  more.textContent = t("more_actions", { n: moved.length });
  moved.sort((p, q) => buttons.indexOf(p) - buttons.indexOf(q));
  for (const b of moved) b.setAttribute("role", "menuitem");
  menu.append(...moved);
  // Choosing an item closes the menu (its own click handler runs first).
  menu.addEventListener("click", () => toggleMore(false));
  document.body.append(menu);
  if (app.moreOpen) toggleMore(true);
}

// Open (or close) the "more" menu, just above the bar's right end.
export function toggleMore(open = undefined) {
  const menu = $("actions-more-menu");
  const more = $("btn-more");
  if (!menu || !more) {
    app.moreOpen = false;
    return;
  }
  app.moreOpen = open === undefined ? menu.hidden : open;
  menu.hidden = !app.moreOpen;
  more.setAttribute("aria-expanded", String(app.moreOpen));
  if (!app.moreOpen) return;
  const bar = $("actions").getBoundingClientRect();
  menu.style.right = `${Math.max(4, window.innerWidth - bar.right)}px`;
  menu.style.bottom = `${Math.max(4, window.innerHeight - bar.top + 4)}px`;
}

// The spots on the board: in the main phase, building spots only for the piece whose Build button is pressed.
export function boardLegal() {
  if (app.awaiting) return [];
  if (app.view.phase !== "main") return app.legal;
  return app.legal.filter((a) => !a.type.startsWith("build_") || a.type === app.build);
}
