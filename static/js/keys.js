// Keyboard shortcuts for the table, and the help overlay that lists them ("?"). A shortcut presses the action's
// button, wherever it is (the bar or its "more" menu), so it does exactly what the button does, and nothing when
// the button is greyed.
import { button, node } from "./dom.js";
import { t } from "./i18n.js";
import { toggleMapText } from "./map_text.js";
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
    list.append(node("dt", {}, node("kbd", { text: "S" })), node("dd", { text: t("key_spots") }));
    list.append(node("dt", {}, node("kbd", { text: "M" })), node("dd", { text: t("key_map") }));
    list.append(node("dt", {}, node("kbd", { text: "?" })), node("dd", { text: t("key_help") }));
    list.append(node("dt", {}, node("kbd", { text: "Esc" })), node("dd", { text: t("key_escape") }));
    const box = node("div", { class: "help-box" }, node("h2", { id: "help-title", text: t("help_title") }), list,
      button(t("close"), () => toggleHelp(false), { id: "help-close", class: "button secondary" }));
    help.append(box);
  }
  // The focus goes into the overlay, and back where it was when it closes.
  if (show && help.hidden) toggleHelp.returnFocus = document.activeElement;
  help.hidden = !show;
  if (show) $("help-close").focus({ preventScroll: true });
  else if (toggleHelp.returnFocus && document.contains(toggleHelp.returnFocus)) {
    toggleHelp.returnFocus.focus({ preventScroll: true });
    toggleHelp.returnFocus = null;
  }
}

// "S": the focus to the board's lit spot in the Tab order (the arrow keys then go from spot to spot).
function focusBoardSpots() {
  const spot = document.querySelector("#board .layer-legal [data-x][tabindex='0']");
  if (spot) spot.focus();
  return Boolean(spot);
}

// `blocked()` is true while a dialog is open (its own keys apply); `escape()` closes the table's other layers.
export function setUpKeys({ blocked, escape }) {
  const toggle = $("help-toggle");
  if (toggle) toggle.addEventListener("click", () => toggleHelp());
  const help = $("help");
  if (help) help.addEventListener("click", (event) => { if (event.target === help) toggleHelp(false); });
  const mapText = $("map-text");
  if (mapText) mapText.addEventListener("click", (event) => { if (event.target === mapText) toggleMapText(false); });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const mapText = $("map-text");
    if (event.key === "Escape") {
      if (help && !help.hidden) toggleHelp(false);
      else if (mapText && !mapText.hidden) toggleMapText(false);
      else escape();
      return;
    }
    if (event.key === "?") {
      toggleHelp();
      event.preventDefault();
      return;
    }
    if (blocked() || (help && !help.hidden)) return;
    if (event.key.toLowerCase() === "m") {
      event.preventDefault();
      toggleMapText();
      return;
    }
    if (mapText && !mapText.hidden) return;
    if (event.key.toLowerCase() === "s") {
      if (focusBoardSpots()) event.preventDefault();
      return;
    }
    const shortcut = SHORTCUTS.find(([key]) => key === event.key.toLowerCase());
    if (!shortcut) return;
    const target = $(shortcut[1]);
    if (target && !target.disabled) {
      event.preventDefault();
      target.click();
    }
  });
}
