// Keyboard shortcuts for the table, and the help overlay that lists them ("?"). A shortcut presses the action's
// button, wherever it is (the bar or its "more" menu), so it does exactly what the button does, and nothing when
// the button is greyed.
import { button, node } from "./dom.js";
import { t } from "./i18n.js";
import { $ } from "./state.js";

// [key, the button it presses, what the help says]
const SHORTCUTS = [
  ["r", "btn-roll", "key_roll"],
  ["e", "btn-end-turn", "key_end_turn"],
  ["1", "btn-build-road", "key_build_road"],
  ["2", "btn-build-settlement", "key_build_settlement"],
  ["3", "btn-build-city", "key_build_city"],
  ["4", "btn-build-ship", "key_build_ship"],
  ["d", "btn-buy-dev", "key_buy_development"],
  ["b", "btn-trade-bank", "key_trade_bank"],
  ["t", "btn-offer-trade", "key_offer_trade"],
];

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));
}

export function toggleHelp(open = undefined) {
  const help = $("help");
  if (!help) return;
  const show = open === undefined ? help.hidden : open;
  if (show && !help.childElementCount) {
    const list = node("dl");
    for (const [key, , label] of SHORTCUTS) list.append(node("dt", {}, node("kbd", { text: key.toUpperCase() })), node("dd", { text: t(label) }));
    list.append(node("dt", {}, node("kbd", { text: "?" })), node("dd", { text: t("key_help") }));
    list.append(node("dt", {}, node("kbd", { text: "Esc" })), node("dd", { text: t("key_escape") }));
    const box = node("div", { class: "help-box" }, node("h2", { id: "help-title", text: t("help_title") }), list,
      button(t("close"), () => toggleHelp(false), { id: "help-close", class: "button secondary" }));
    help.append(box);
  }
  help.hidden = !show;
  if (show) $("help-close").focus({ preventScroll: true });
}

// `blocked()` is true while a dialog is open (its own keys apply); `escape()` closes the table's other layers.
export function setUpKeys({ blocked, escape }) {
  const toggle = $("help-toggle");
  if (toggle) toggle.addEventListener("click", () => toggleHelp());
  const help = $("help");
  if (help) help.addEventListener("click", (event) => { if (event.target === help) toggleHelp(false); });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    if (event.key === "Escape") {
      if (help && !help.hidden) toggleHelp(false);
      else escape();
      return;
    }
    if (event.key === "?") {
      toggleHelp();
      event.preventDefault();
      return;
    }
    if (blocked() || (help && !help.hidden)) return;
    const shortcut = SHORTCUTS.find(([key]) => key === event.key.toLowerCase());
    if (!shortcut) return;
    const target = $(shortcut[1]);
    if (target && !target.disabled) {
      event.preventDefault();
      target.click();
    }
  });
}
