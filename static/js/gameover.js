// The end of the game: the winner, the final scores, the dice histogram and the revealed seed.
import { node, swatch } from "./dom.js";
import { t } from "./i18n.js";
import { $, app, gameId, seatName } from "./state.js";

export function histogram(history) {
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
export function gameOverActions(section, body) {
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

export function renderGameOver() {
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
  // The buttons stay in the page across renders: a render (a resize, a chat line) between the press and the release
  // of Rematch took the button out and put it back, and the click was lost.
  for (const child of [...body.children]) if (child !== actions) child.remove();
  if (actions.parentNode !== body) body.append(actions);
  body.insertBefore(node("h2", { id: "winner", text: t("winner", { who: seatName(view.winner) }) }), actions);
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
