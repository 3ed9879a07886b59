// Sounds for your turn, a trade offer to you and the end of the game: short tones made with the Web Audio API
// (no sound files). Off by default on a touch screen, on elsewhere; the person's choice is remembered in this
// browser (localStorage, per account).
import { t } from "./i18n.js";
import { $, app, root } from "./state.js";

const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.18]],
  offer: [[740, 0, 0.08], [740, 0.11, 0.08], [988, 0.22, 0.14]],
  end: [[523, 0, 0.16], [659, 0.16, 0.16], [784, 0.32, 0.16], [1047, 0.48, 0.4]],
};

let context = null;
const storageKey = () => `catan.sound.${root.dataset.user || "anonymous"}`;

export function soundOn() {
  let stored = null;
  try {
    stored = window.localStorage.getItem(storageKey());
  } catch (error) {
    // Storage refused (a private window): the default holds.
  }
  if (stored === "on" || stored === "off") return stored === "on";
  return !window.matchMedia("(pointer: coarse)").matches;
}

function setSound(on) {
  try {
    window.localStorage.setItem(storageKey(), on ? "on" : "off");
  } catch (error) {
    // Not remembered; this page still follows the switch.
  }
  showSwitch();
}

function showSwitch() {
  const toggle = $("sound-toggle");
  if (!toggle) return;
  const on = soundOn();
  toggle.setAttribute("aria-pressed", String(on));
  toggle.textContent = t(on ? "sound_on" : "sound_off");
  toggle.title = t(on ? "sound_mute" : "sound_unmute");
}

export function setUpSounds() {
  const toggle = $("sound-toggle");
  if (toggle) toggle.addEventListener("click", () => setSound(!soundOn()));
  showSwitch();
}

// Play one of TUNES (when sounds are on); the page notes the last one played (data-sound) for the curious.
export function play(name) {
  if (!soundOn() || !TUNES[name]) return;
  root.dataset.sound = name;
  root.dataset.sounds = String(Number(root.dataset.sounds || 0) + 1);
  try {
    context = context || new (window.AudioContext || window.webkitAudioContext)();
    if (context.state === "suspended") context.resume();
    const start = context.currentTime + 0.02;
    for (const [frequency, at, length] of TUNES[name]) {
      const tone = context.createOscillator();
      const gain = context.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.2, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
      tone.connect(gain).connect(context.destination);
      tone.start(start + at);
      tone.stop(start + at + length + 0.05);
    }
  } catch (error) {
    // No audio on this device: the game goes on silently.
  }
}

// After each new view: your turn began, an offer was made to you, or the game ended under your eyes.
export function soundsFor(previous, view) {
  if (!previous || !view || app.yourSeat === null) return;
  if (view.phase === "game_over") {
    if (previous.phase !== "game_over") play("end");
    return;
  }
  const mine = (v) => v.current === app.yourSeat && v.to_move.includes(app.yourSeat);
  const turnOf = (v) => `${v.turn}:${v.current}`;
  if (mine(view) && (!mine(previous) || turnOf(previous) !== turnOf(view))) play("turn");
  const offered = (v) => Boolean(v.trade && v.trade.from !== app.yourSeat && v.trade.to.includes(app.yourSeat));
  const terms = (v) => JSON.stringify([v.trade.from, v.trade.give, v.trade.get]);
  if (offered(view) && (!offered(previous) || terms(previous) !== terms(view))) play("offer");
}
