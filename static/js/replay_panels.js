// The replay's players: each seat's points, knights, road and awards, and its hand where the step's view holds it
// (every seat once the game is over; during a running game the viewer's own seat only, the others as counts).
import { node, swatch } from "./dom.js";
import { t } from "./i18n.js";
import { die, stat } from "./panels.js";
import { DEVELOPMENT_CARDS, RESOURCES, seatColor, seatName } from "./state.js";
import { plural, TEXT } from "./replay_text.js";

function hand(seat) {
  const cards = node("div", { class: "resource-cards replay-hand", "data-seat": seat.seat,
    "aria-label": t(TEXT.hand_of, { who: seatName(seat.seat) }) });
  for (const r of RESOURCES) {
    const n = seat.resources[r] || 0;
    cards.append(node("div", { class: `res-card res-${r}${n ? "" : " empty"}`, "data-resource": r, title: t(r) },
      node("span", { class: "res-count", text: String(n) }),
      node("span", { class: "res-name", text: t(r) })));
  }
  const held = [];
  for (const card of DEVELOPMENT_CARDS) {
    const ready = (seat.development || {})[card] || 0;
    const fresh = (seat.development_new || {})[card] || 0;
    if (ready) held.push(node("li", { class: `dev-card dev-${card}`, "data-card": card, text: `${t(card)} ×${ready}` }));
    if (fresh) {
      held.push(node("li", { class: `dev-card dev-${card} new`, "data-card": card,
        text: `${t(TEXT.development_new, { card: t(card) })} ×${fresh}` }));
    }
  }
  const development = held.length
    ? node("ul", { class: "dev-cards replay-development", "aria-label": TEXT.development_held }, ...held)
    : node("p", { class: "muted small replay-development", text: TEXT.development_none });
  return [cards, development];
}

function hiddenHand(seat) {
  return node("p", { class: "muted small replay-hidden-hand", "data-seat": seat.seat },
    `${plural(TEXT.cards_hidden, seat.resource_count)} · ${plural(TEXT.development_hidden, seat.development_count)}`);
}

function played(seat) {
  const used = Object.entries(seat.development_used || {}).filter(([, n]) => n > 0);
  if (!used.length) return null;
  const cards = used.map(([card, n]) => `${t(card)} ×${n}`).join(", ");
  return node("p", { class: "muted small", text: t(TEXT.played, { cards }) });
}

export function renderSeats(list, view) {
  list.replaceChildren();
  for (const s of view.seats) {
    const classes = ["player", "replay-seat"];
    if (view.phase !== "game_over" && s.seat === view.current) classes.push("current");
    const item = node("li", { class: classes.join(" "), "data-seat": s.seat, style: `--seat:${seatColor(s.seat)}` });
    const head = node("div", { class: "player-head" }, swatch(s.seat),
      node("span", { class: "player-name", text: seatName(s.seat) }));
    if (view.winner === s.seat) head.append(node("span", { class: "tag turn", text: TEXT.winner_tag }));
    else if (view.phase !== "game_over" && view.to_move.includes(s.seat)) head.append(node("span", { class: "tag turn", text: t("to_move") }));
    item.append(head);
    const points = s.victory_points ?? s.public_victory_points;
    item.append(node("div", { class: "stats" },
      stat(points, t("victory_points"), "vp"),
      stat(s.resource_count, t("resource_cards")),
      stat(s.development_count, t("development_short")),
      stat(s.knights, t("knights")),
      stat(s.road_length, t("road_length"))));
    const badges = [];
    if (s.longest_road) badges.push(node("span", { class: "badge longest-road", text: t("longest_road") }));
    if (s.largest_army) badges.push(node("span", { class: "badge largest-army", text: t("largest_army") }));
    if (s.victory_point_tokens) badges.push(node("span", { class: "badge tokens", text: t("vp_tokens", { n: s.victory_point_tokens }) }));
    if (badges.length) item.append(node("div", { class: "badges" }, ...badges));
    if ("resources" in s) item.append(...hand(s));
    else item.append(hiddenHand(s));
    const used = played(s);
    if (used) item.append(used);
    list.append(item);
  }
}

// "Move 12 of 140 · turn 4 · Ann to move · [dice]": where the step stands.
export function statusParts(step, total, view) {
  const parts = [step === 0 ? t(TEXT.start_of, { total }) : t(TEXT.step, { n: step, total })];
  if (view.turn) parts.push(t(TEXT.turn, { n: view.turn }));
  if (view.phase === "game_over" && view.winner !== null && view.winner !== undefined) {
    parts.push(t(TEXT.winner, { who: seatName(view.winner) }));
  } else if (view.to_move && view.to_move.length) {
    parts.push(t(TEXT.to_move, { who: view.to_move.map(seatName).join(", ") }));
  }
  const text = node("span", { class: "replay-where", text: parts.join(" · ") });
  if (!view.dice) return [text];
  const [a, b] = view.dice;
  const dice = node("span", { class: `replay-dice${a + b === 7 ? " seven" : ""}`, title: t(TEXT.dice, { a, b, sum: a + b }),
    "aria-label": t(TEXT.dice, { a, b, sum: a + b }) }, die(a), die(b), node("b", { text: String(a + b) }));
  return [text, " ", dice];
}
