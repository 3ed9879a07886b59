// The panels around the board: the prompt, your hand, the building costs, the players, the dice and the bank.
import { resourceIcon, selectedShip } from "./board.js";
import { node, swatch } from "./dom.js";
import { localTime } from "./clock.js";
import { t } from "./i18n.js";
import { $, app, COSTS, DEVELOPMENT_CARDS, has, me, RESOURCES, seatColor, seatName } from "./state.js";

export function isMyMove() {
  return Boolean(app.view && app.view.phase !== "game_over" && app.legal.length && !app.awaiting);
}

export function promptText() {
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

export function renderPrompt() {
  const prompt = $("prompt");
  const mine = isMyMove();
  $("prompt-text").textContent = promptText();
  prompt.dataset.mine = mine ? "yes" : "no";
  document.title = `${mine ? "● " : ""}${document.title.replace(/^● /, "")}`;
}

export function renderCosts() {
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

export function drawCosts(list) {
  for (const [piece, cost] of Object.entries(COSTS)) {
    if (piece === "ship" && !app.view.seafarers) continue;
    const chips = Object.entries(cost).flatMap(([r, n]) => Array.from({ length: n }, () =>
      node("span", { class: `cost-chip res-${r}`, "data-resource": r, title: t(r), "aria-hidden": "true" }, resourceIcon(r))));
    // The chips are pictures: a screen reader reads the cost as words instead ("1 Lumber, 1 Brick").
    const words = Object.entries(cost).map(([r, n]) => `${n} ${t(r)}`).join(", ");
    list.append(node("li", { "data-piece": piece },
      node("span", { class: "cost-name", text: t(piece === "development" ? "development_card" : `build_${piece}`) }),
      node("span", { class: "cost-cards" }, ...chips, node("span", { class: "visually-hidden", text: `: ${words}.` })),
      node("span", { class: "cost-gain muted small", text: t(`gain_${piece}`) })));
  }
}

export function renderHand() {
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

export function stat(value, label, cls = "") {
  return node("span", { class: `stat ${cls}`, title: label }, node("b", { text: String(value) }), node("small", { text: label }));
}

export function renderPlayers() {
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

export const PIP_LAYOUT = {
  1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

export function die(value) {
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

export function renderDice() {
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
  delete box.dataset.sum;
  if (!dice) {
    box.append(node("span", { class: "muted", text: t("no_roll_yet") }));
    return;
  }
  const sum = dice[0] + dice[1];
  box.dataset.sum = sum;
  // The dice are pictures (aria-hidden); the roll is read as one sentence of text.
  box.append(die(dice[0]), die(dice[1]),
    node("span", { class: `dice-sum${sum === 7 ? " seven" : ""}`, text: `= ${sum}`, "aria-hidden": "true" }),
    node("span", { class: "visually-hidden", text: t("last_roll", { a: dice[0], b: dice[1], sum }) }));
}

export function renderBank() {
  const bank = $("bank");
  bank.replaceChildren();
  for (const r of RESOURCES) {
    bank.append(node("span", { class: `chip res-${r}`, title: t(r), "data-resource": r },
      node("span", { class: "chip-name", text: t(r) }), node("b", { text: String(app.view.bank[r]) })));
  }
  bank.append(node("span", { class: "chip dev", title: t("development_cards") },
    node("span", { class: "chip-name", text: t("deck") }), node("b", { text: String(app.view.deck_count) })));
}

// Phones: the hand as a compact strip by the action bar (a tap opens the whole hand); hidden by CSS on wider screens,
// where the hand panel is in view beside the board.
export function renderHandStrip() {
  const strip = $("hand-strip");
  if (!strip) return;
  strip.replaceChildren();
  const mine = me();
  strip.hidden = !mine;
  if (!mine) return;
  // Its accessible name is its text: "Your hand" and each card's name beside its count (WCAG 2.5.3).
  strip.append(node("span", { class: "visually-hidden", text: strip.dataset.label }));
  for (const r of RESOURCES) {
    const n = mine.resources[r];
    strip.append(node("span", { class: `strip-card res-${r}${n ? "" : " empty"}`, "data-resource": r, title: t(r) },
      resourceIcon(r), node("span", { class: "visually-hidden", text: t(r) }), node("span", { text: String(n) })));
  }
  const cards = DEVELOPMENT_CARDS.reduce((sum, card) => sum + (mine.development[card] || 0) + (mine.development_new[card] || 0), 0);
  strip.append(node("span", { class: "strip-card dev", title: t("development_cards"), "data-resource": "development" },
    node("span", { text: t("dev_short_count", { n: cards }) })));
}
