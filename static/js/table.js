// The table's frame: one screen high while the game runs (below the site's header, measured here), the phone's
// drawer that opens a panel (log, players, bank, cards, chat) from its tab, and the bots' pace control.
import { send } from "./connection.js";
import { flash } from "./dom.js";
import { t } from "./i18n.js";
import { $, hooks, PALETTE_KEY, root, safePalette } from "./state.js";

export function measureTop() {
  const top = root.getBoundingClientRect().top + window.scrollY;
  root.style.setProperty("--game-top", `${Math.round(top)}px`);
}

// Open one panel's drawer (phones), or close it with null.
export function openDrawer(tab) {
  if (tab) root.dataset.drawer = tab;
  else delete root.dataset.drawer;
  for (const button of document.querySelectorAll("#panel-tabs [data-tab]")) {
    button.setAttribute("aria-pressed", String(button.dataset.tab === tab));
  }
}

export function setUpTable() {
  measureTop();
  for (const tab of document.querySelectorAll("#panel-tabs [data-tab]")) {
    tab.addEventListener("click", () => openDrawer(root.dataset.drawer === tab.dataset.tab ? null : tab.dataset.tab));
  }
  const close = $("drawer-close");
  if (close) close.addEventListener("click", () => openDrawer(null));
  const strip = $("hand-strip");
  if (strip) {
    strip.addEventListener("click", () => openDrawer("hand"));
    strip.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") openDrawer("hand");
    });
  }
  // The colour-blind-safe palette for the seats, on or off in this browser; the table is drawn again at once.
  const palette = $("palette-toggle");
  if (palette) {
    palette.setAttribute("aria-pressed", String(safePalette()));
    palette.addEventListener("click", () => {
      try {
        window.localStorage.setItem(PALETTE_KEY, safePalette() ? "default" : "safe");
      } catch (error) {
        return; // not remembered: nothing changes
      }
      palette.setAttribute("aria-pressed", String(safePalette()));
      hooks.render();
    });
  }
  // The person's choice for this game: the server paces its bots' moves by it (games/live/pace.py).
  const pace = $("bot-pace");
  if (pace) {
    pace.addEventListener("change", () => {
      if (!send({ type: "bot_pace", pace: pace.value })) flash(t("offline"));
    });
  }
}

// The server's answer to a pace change: the control shows what is stored.
export function showPace(value) {
  const pace = $("bot-pace");
  if (pace && value) pace.value = value;
}
