// Dialogs: the modal box, the resource counters, and the choices the game asks for (discards, gold, the
// robber's victim, a road or a ship, Year of Plenty, Monopoly).
import { submit } from "./connection.js";
import { button, node, swatch } from "./dom.js";
import { t } from "./i18n.js";
import { $, app, has, me, nonZero, RESOURCES, seatName, total, zeroCards } from "./state.js";

// Where the focus was before a dialog opened: it goes back there when the dialog closes.
let returnFocus = null;

export function openDialog({ kind, title, intro = null, build, valid = () => true, closable = true }) {
  const d = $("dialog");
  if (d.hidden) returnFocus = document.activeElement;
  d.replaceChildren();
  const box = node("div", { class: `dialog-box dialog-${kind}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "dialog-title" });
  box.append(node("h2", { id: "dialog-title", text: title }));
  if (intro) box.append(node("p", { class: "muted", text: intro }));
  const footer = node("div", { class: "dialog-footer" });
  build(box, footer);
  if (closable) footer.append(button(t("close"), closeDialog, { id: "dialog-cancel", class: "button secondary" }));
  box.append(footer);
  d.append(box);
  // A modal box: Tab and Shift+Tab go round its own controls (Esc, or its Close button, leaves it).
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const controls = [...box.querySelectorAll("button:not([disabled]), input:not([disabled]), select:not([disabled])")];
    if (!controls.length) return;
    const [first, last] = [controls[0], controls[controls.length - 1]];
    if (event.shiftKey && document.activeElement === first) last.focus();
    else if (!event.shiftKey && document.activeElement === last) first.focus();
    else return;
    event.preventDefault();
  });
  d.hidden = false;
  d.dataset.kind = kind;
  app.dialog = { kind, valid, closable };
  const first = box.querySelector("button:not([disabled])");
  if (first) first.focus({ preventScroll: true });
}

export function closeDialog() {
  const d = $("dialog");
  const hadFocus = d.contains(document.activeElement) || document.activeElement === document.body;
  d.hidden = true;
  d.replaceChildren();
  delete d.dataset.kind;
  app.dialog = null;
  // The button that opened it may be gone (the bar was drawn again): then the board takes the focus.
  if (hadFocus) {
    const back = returnFocus && document.contains(returnFocus) && !returnFocus.disabled ? returnFocus : $("board");
    if (back) back.focus({ preventScroll: true });
  }
  returnFocus = null;
}

// After each render: close a dialog whose choice is gone, and open the ones the game now requires.
export function syncDialogs() {
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
export function counters(columns, onChange, { note = null } = {}) {
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

// Discards and gold choices: exactly the owed number of cards, sent as one bundle.
export function openBundle(kind) {
  const mine = me();
  if (!mine) return;
  const owed = kind === "discard" ? mine.discards_owed : mine.gold_owed;
  if (!owed) return;
  const counts = zeroCards();
  const available = (r) => (kind === "discard" ? mine.resources[r] : app.view.bank[r]);
  let list, confirm, summary;
  const update = () => {
    const focused = document.activeElement;
    const n = total(counts);
    list.refresh();
    // Once the cards owed are chosen, no + adds another (one more would only grey the confirm button).
    RESOURCES.forEach((r) => {
      if (n >= owed) list.querySelector(`[data-plus=${r}]`).disabled = true;
    });
    summary.textContent = t("chosen_of", { n, owed });
    confirm.disabled = n !== owed;
    // A + greyed under the keyboard's focus would drop it: it moves on to the confirm button or the next +.
    if (focused && focused.disabled && list.contains(focused)) {
      const next = confirm.disabled ? list.querySelector("[data-plus]:not(:disabled)") : confirm;
      if (next) next.focus({ preventScroll: true });
    }
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

export function openVictims(actions) {
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
export function openBuildChoice(actions) {
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

export function openPlenty() {
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

export function openMonopoly() {
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
