// The board's zoom on a phone: the board fits the screen's width; zooming enlarges it inside its frame (which
// then scrolls both ways). A wide map fitted to a phone leaves its legal spots closer than a finger's width: while
// the person has a spot to choose, the board zooms in by itself to the smallest step that gives every spot a
// 44 px target, centred on the spots, and goes back to the person's own zoom once the choice is made.
import { TAP_UNITS_PX } from "./board_spots.js";
import { $, app, hooks, root } from "./state.js";

const ZOOMS = [1, 1.5, 2, 3];
const PHONE = window.matchMedia("(max-width: 860px)");

function apply(zoom, centre = null) {
  const wrap = $("board-wrap");
  const middleX = (wrap.scrollLeft + wrap.clientWidth / 2) / wrap.scrollWidth;
  const middleY = (wrap.scrollTop + wrap.clientHeight / 2) / wrap.scrollHeight;
  app.zoom = zoom;
  const index = ZOOMS.indexOf(zoom);
  $("board").style.setProperty("--zoom", String(zoom));
  wrap.scrollLeft = middleX * wrap.scrollWidth - wrap.clientWidth / 2;
  wrap.scrollTop = middleY * wrap.scrollHeight - wrap.clientHeight / 2;
  $("zoom-in").disabled = index === ZOOMS.length - 1;
  $("zoom-out").disabled = index === 0;
  root.dataset.zoom = String(zoom);
  hooks.render(); // legal spots keep their minimum size on screen at the new scale (board.js)
  if (centre) centre();
}

// The person's own step (+1, −1; 0 to set up): it also ends an automatic zoom, which the person has taken over.
export function setZoom(step) {
  const index = Math.min(ZOOMS.length - 1, Math.max(0, ZOOMS.indexOf(app.zoom) + step));
  if (step) app.zoomByHand = true;
  app.zoomBefore = null;
  apply(ZOOMS[index]);
}

// Scroll the board's frame so that the middle of the legal spots is in the middle of the frame.
function centreOnSpots() {
  const wrap = $("board-wrap");
  const marks = [...$("board").querySelectorAll(".legal-spot .mark")].map((m) => m.getBoundingClientRect());
  if (!marks.length) return;
  const frame = wrap.getBoundingClientRect();
  const x = (Math.min(...marks.map((r) => r.left)) + Math.max(...marks.map((r) => r.right))) / 2;
  const y = (Math.min(...marks.map((r) => r.top)) + Math.max(...marks.map((r) => r.bottom))) / 2;
  wrap.scrollLeft += x - (frame.left + frame.width / 2);
  wrap.scrollTop += y - (frame.top + frame.height / 2);
}

// After each render of the board: zoom in for a choice of spots too tight to tap, back out after it.
export function fitSpots() {
  if (!PHONE.matches || app.awaiting) return; // while a move is on its way, the next choice may follow at once
  const svg = $("board");
  const choosing = Boolean(svg.querySelector(".legal-spot"));
  if (!choosing) {
    app.zoomByHand = false;
    if (app.zoomBefore !== null && app.zoomBefore !== undefined) {
      const before = app.zoomBefore;
      app.zoomBefore = null;
      apply(before);
    }
    return;
  }
  if (app.zoomByHand) return;
  const unitPx = Number(svg.dataset.unitPx) / app.zoom; // at zoom 1
  if (!(unitPx > 0)) return;
  const need = ZOOMS.find((zoom) => unitPx * zoom >= TAP_UNITS_PX) || ZOOMS[ZOOMS.length - 1];
  if (need <= app.zoom) return;
  if (app.zoomBefore === null || app.zoomBefore === undefined) app.zoomBefore = app.zoom;
  apply(need, centreOnSpots);
}
