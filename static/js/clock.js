// The turn clock: the live turn's countdown and each seat's deadline and vacation (email games).
import { t } from "./i18n.js";
import { node } from "./dom.js";
import { $, app, root, seatName } from "./state.js";

// Email games' update frames carry each seat's deadline and vacation: the seat badges follow them.
export function takeSeatClocks(clocks) {
  for (const c of clocks || []) {
    const seat = app.seats.find((x) => x.index === c.index);
    if (seat) Object.assign(seat, { deadline: c.deadline, vacation_until: c.vacation_until, bank_seconds: c.bank_seconds });
  }
}

// State and update frames carry the turn's deadline (ISO time, or null) and the game's time per turn.
export function takeClock(frame) {
  if ("deadline" in frame) app.deadline = frame.deadline ? Date.parse(frame.deadline) : null;
  if ("turn_seconds" in frame) app.turnSeconds = frame.turn_seconds || null;
  renderClock();
}

// Shown to everyone while a live turn runs against the clock; a warning in its last fifth (and last 10 s).
export function renderClock() {
  const clock = $("turn-clock");
  const view = app.view;
  const running = app.deadline && app.turnSeconds && view && view.phase !== "game_over" && app.status === "active";
  clock.hidden = !running;
  renderClockBadge();
  if (!running) return;
  const left = Math.max(0, Math.ceil((app.deadline - Date.now()) / 1000));
  const warn = left <= Math.max(10, app.turnSeconds / 5);
  clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  clock.dataset.left = left;
  clock.dataset.warn = warn ? "yes" : "no";
  clock.title = t(warn ? "clock_warning" : "clock_title", { who: view.to_move.map(seatName).join(", ") });
}

export function localTime(iso) {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

// "3 h 20 min", "12 min", "40 s": the time left, in the page's language.
export function timeLeft(seconds) {
  const lang = document.documentElement.lang || undefined;
  const unit = (n, name) => new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "short" }).format(n);
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400) return `${unit(Math.floor(s / 86400), "day")} ${unit(Math.floor((s % 86400) / 3600), "hour")}`;
  if (s >= 3600) return `${unit(Math.floor(s / 3600), "hour")} ${unit(Math.floor((s % 3600) / 60), "minute")}`;
  if (s >= 60) return unit(Math.floor(s / 60), "minute");
  return unit(s, "second");
}

// Beside the prompt, on an email game or a timed live one: each seat that owes a decision, its deadline in the
// viewer's time zone and the time left in its bank (by email, a seat's deadline is its time bank's end).
function renderClockBadge() {
  const badge = $("clock-badge");
  if (!badge) return;
  const view = app.view;
  const entries = [];
  const banks = [];
  if (view && view.phase !== "game_over" && app.status === "active") {
    const email = root.dataset.clock === "async";
    for (const seat of view.to_move) {
      const info = app.seats.find((x) => x.index === seat);
      const due = email ? info && info.deadline && Date.parse(info.deadline) : app.turnSeconds && app.deadline;
      if (due) entries.push({ seat, due });
    }
    // By email, the others' time banks too: what each keeps for its next decisions.
    for (const info of email ? app.seats : []) {
      if (!view.to_move.includes(info.index) && info.bank_seconds != null) banks.push(info);
    }
  }
  badge.hidden = !entries.length && !banks.length;
  badge.replaceChildren(
    ...entries.map(({ seat, due }) => node("span", {
      class: `seat-clock${seat === app.yourSeat ? " due" : ""}`, "data-seat": seat, "data-deadline": new Date(due).toISOString(),
      text: t("clock_badge_seat", { who: seatName(seat), when: localTime(due), left: timeLeft((due - Date.now()) / 1000) }),
    })),
    ...banks.map((info) => node("span", {
      class: "seat-clock bank", "data-seat": info.index, "data-bank": info.bank_seconds,
      text: t("clock_badge_bank", { who: seatName(info.index), left: timeLeft(info.bank_seconds) }),
    })),
  );
}
