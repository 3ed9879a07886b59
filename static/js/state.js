// The game page's shared state: the one `app` record every module reads and writes, the game's constants, and
// small pure helpers over the current view. `hooks` are filled by game.js so that lower modules can ask for a
// render or close a dialog without importing the modules above them (no import cycles).
import { SAFE_SEAT_COLORS, SEAT_COLORS } from "./board.js";
import { t } from "./i18n.js";

export const RESOURCES = ["lumber", "brick", "wool", "grain", "ore"];
export const DEVELOPMENT_CARDS = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];

export const LOG_LIMIT = 400;
export const MOVE_TIMEOUT_MS = 10000;
export const HEARTBEAT_MS = 25000;
export const CAPTION_MS = 2600;

export const root = document.getElementById("game-root") || document.body;
export const gameId = root.dataset.gameId || document.body.dataset.gameId;
export const invite = root.dataset.invite || "";
export const $ = (id) => document.getElementById(id);

export const app = {
  seq: null,
  view: null,
  legal: [],
  seats: [],
  yourSeat: root.dataset.yourSeat === undefined || root.dataset.yourSeat === "" ? null : Number(root.dataset.yourSeat),
  status: null,
  seed: null,
  seedCommitment: null,
  socket: null,
  retries: 0,
  restarting: false, // the node said it drains: the next close reconnects at once
  reconnectTimer: null,
  lastFrameAt: 0,
  syncTimer: null,
  syncRequested: 0,
  awaiting: null,
  recent: null,
  loggedSeq: 0,
  logLoading: false,
  logBuffer: [],
  chat: new Map(),
  dialog: null,
  autoOpened: new Set(),
  playing: false,
  zoom: 1,
  zoomBefore: null, // the person's zoom before the board zoomed in by itself for a choice of spots (zoom.js)
  zoomByHand: false, // the person zoomed during this choice: the board leaves the zoom to them
  build: null,
  deadline: null,
  turnSeconds: null,
};

export const hooks = { render: () => {}, closeDialog: () => {}, handle: () => {}, opened: () => {} };

export function randomKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export const total = (cards) => Object.values(cards || {}).reduce((a, b) => a + b, 0);
export const nonZero = (cards) => Object.fromEntries(Object.entries(cards).filter(([, n]) => n > 0));
export const has = (type) => app.legal.some((a) => a.type === type);
export const me = () => (app.yourSeat !== null && app.view ? app.view.seats[app.yourSeat] : null);
// The colour-blind-safe palette, when the person chose it (remembered in this browser).
export const PALETTE_KEY = "catan-palette";
export function safePalette() {
  try {
    return window.localStorage.getItem(PALETTE_KEY) === "safe";
  } catch (error) {
    return false;
  }
}
export const seatColors = () => (safePalette() ? SAFE_SEAT_COLORS : SEAT_COLORS);
export const seatColor = (seat) => seatColors()[seat % seatColors().length];

export function seatName(seat) {
  if (seat === null || seat === undefined || seat < 0) return t("nobody");
  const s = app.seats.find((x) => x.index === seat);
  if (s && s.user) return s.user;
  return t("bot_name", { n: seat + 1 });
}

export function cardsText(cards) {
  const parts = RESOURCES.filter((r) => cards && cards[r]).map((r) => `${cards[r]} ${t(r)}`);
  return parts.length ? parts.join(", ") : t("nothing");
}

export function apiUrl(path) {
  const sep = path.includes("?") ? "&" : "?";
  return `/api/games/${gameId}/${path}${invite ? `${sep}invite=${encodeURIComponent(invite)}` : ""}`;
}

export const COSTS = {
  road: { lumber: 1, brick: 1 },
  ship: { lumber: 1, wool: 1 },
  settlement: { lumber: 1, brick: 1, wool: 1, grain: 1 },
  city: { grain: 2, ore: 3 },
  development: { wool: 1, grain: 1, ore: 1 },
};

export const zeroCards = () => Object.fromEntries(RESOURCES.map((r) => [r, 0]));
