// The board's art: resource icons (also used in the HTML around the board) and the SVG definitions (terrain
// patterns, shadows, the gold shine).
import { el } from "./board_geometry.js";

// Resource icons on a 20 × 20 box: harbours on the board, cards in the log, the hand and the cost card.
export const ICONS = {
  lumber: (s) => {
    el("path", { d: "M10,1 l7,12 h-14 z", fill: "#2f6b2a" }, s);
    el("rect", { x: 8.5, y: 13, width: 3, height: 5, fill: "#6d4c2f" }, s);
  },
  brick: (s) => {
    const b = { fill: "#b5532c", stroke: "#6f2c12", "stroke-width": 0.8 };
    el("rect", { x: 1, y: 11, width: 9, height: 6, ...b }, s);
    el("rect", { x: 10, y: 11, width: 9, height: 6, ...b }, s);
    el("rect", { x: 5.5, y: 5, width: 9, height: 6, ...b }, s);
  },
  wool: (s) => {
    el("path", { d: "M6,15 v3 M13,15 v3", stroke: "#333", "stroke-width": 1.4 }, s);
    el("ellipse", { cx: 9.5, cy: 11, rx: 7, ry: 5, fill: "#fff", stroke: "#777", "stroke-width": 0.8 }, s);
    el("ellipse", { cx: 16.5, cy: 8.5, rx: 2.6, ry: 2.1, fill: "#333" }, s);
  },
  grain: (s) => {
    el("path", { d: "M10,19 V4", stroke: "#a77a10", "stroke-width": 1.2 }, s);
    for (const y of [4, 7.5, 11]) {
      el("ellipse", { cx: 7.6, cy: y + 1, rx: 2.4, ry: 1.4, fill: "#e0a91f", transform: `rotate(-30 7.6 ${y + 1})` }, s);
      el("ellipse", { cx: 12.4, cy: y + 1, rx: 2.4, ry: 1.4, fill: "#e0a91f", transform: `rotate(30 12.4 ${y + 1})` }, s);
    }
  },
  ore: (s) => {
    el("path", { d: "M2,16 l4,-9 l6,-4 l6,7 l-1,6 z", fill: "#6f7a86", stroke: "#3f4750", "stroke-width": 0.8 }, s);
    el("path", { d: "M6,7 l6,-4 l1,6 z", fill: "#a9b3bd" }, s);
  },
};

// A small inline SVG of one resource, for HTML around the board.
export function resourceIcon(resource) {
  const svg = el("svg", { viewBox: "0 0 20 20", class: `res-icon res-icon-${resource}`, "aria-hidden": "true" });
  if (ICONS[resource]) ICONS[resource](svg);
  return svg;
}

export function terrainPattern(defs, id, base, draw, width, height) {
  const p = el("pattern", { id, patternUnits: "userSpaceOnUse", width, height }, defs);
  el("rect", { width, height, fill: base }, p);
  draw(p);
}

export function drawDefs(svg, prefix) {
  const defs = el("defs", {}, svg);
  const shadow = el("filter", { id: `${prefix}shadow`, x: "-30%", y: "-30%", width: "160%", height: "170%" }, defs);
  el("feDropShadow", { dx: 0.6, dy: 1.4, stdDeviation: 1.1, "flood-color": "#000", "flood-opacity": 0.45 }, shadow);

  terrainPattern(defs, `${prefix}forest`, "#3f7c37", (p) => {
    for (const [x, y] of [[6, 9], [17, 19]]) {
      el("path", { d: `M${x},${y - 7} l5,9 h-10 z`, fill: "#2a5d25" }, p);
      el("path", { d: `M${x},${y - 7} l5,9 h-5 z`, fill: "#24521f" }, p);
      el("rect", { x: x - 0.8, y: y + 2, width: 1.6, height: 2.2, fill: "#5b3d22" }, p);
    }
  }, 22, 22);
  terrainPattern(defs, `${prefix}pasture`, "#9fd266", (p) => {
    el("path", { d: "M3,6 q2,-3 4,0 M15,17 q2,-3 4,0 M22,7 q1.5,-2.5 3,0", stroke: "#7fb94a", fill: "none", "stroke-width": 1.1 }, p);
    el("ellipse", { cx: 12, cy: 9, rx: 3.6, ry: 2.5, fill: "#fbfbf5", stroke: "#b9c2a8", "stroke-width": 0.5 }, p);
    el("circle", { cx: 15.6, cy: 8.2, r: 1.3, fill: "#3a3a3a" }, p);
  }, 28, 22);
  terrainPattern(defs, `${prefix}fields`, "#ecc44a", (p) => {
    for (const x of [3, 10, 17]) {
      el("path", { d: `M${x},14 v-9`, stroke: "#c9991f", "stroke-width": 1 }, p);
      for (const y of [6, 8.5, 11]) {
        el("ellipse", { cx: x - 1.2, cy: y, rx: 1.1, ry: 0.7, fill: "#c9991f" }, p);
        el("ellipse", { cx: x + 1.2, cy: y, rx: 1.1, ry: 0.7, fill: "#c9991f" }, p);
      }
    }
  }, 21, 16);
  terrainPattern(defs, `${prefix}hills`, "#c66b3d", (p) => {
    const brick = { fill: "none", stroke: "#a4512a", "stroke-width": 0.9 };
    el("rect", { x: 0.5, y: 0.5, width: 9, height: 5, ...brick }, p);
    el("rect", { x: 10.5, y: 0.5, width: 9, height: 5, ...brick }, p);
    el("rect", { x: -4.5, y: 6.5, width: 9, height: 5, ...brick }, p);
    el("rect", { x: 5.5, y: 6.5, width: 9, height: 5, ...brick }, p);
    el("rect", { x: 15.5, y: 6.5, width: 9, height: 5, ...brick }, p);
  }, 20, 12);
  terrainPattern(defs, `${prefix}mountains`, "#939fab", (p) => {
    el("path", { d: "M1,19 l8,-13 l8,13 z", fill: "#74808c" }, p);
    el("path", { d: "M9,6 l3,5 l-2,-1 l-1,2 l-2,-2 l-1.5,1 z", fill: "#eef2f5" }, p);
    el("path", { d: "M15,10 l5,-8 l5,8 z", fill: "#7d8995" }, p);
    el("path", { d: "M20,2 l2,3.2 l-2,-0.8 l-2,0.8 z", fill: "#eef2f5" }, p);
  }, 26, 20);
  terrainPattern(defs, `${prefix}desert`, "#e8d29c", (p) => {
    el("path", { d: "M0,8 q6,-5 12,0 M12,18 q6,-5 12,0", stroke: "#d1b476", fill: "none", "stroke-width": 1.2 }, p);
  }, 24, 22);
  terrainPattern(defs, `${prefix}gold`, "#f3c433", (p) => {
    el("path", { d: "M6,3 l1.2,3 l3,1.2 l-3,1.2 l-1.2,3 l-1.2,-3 l-3,-1.2 l3,-1.2 z", fill: "#fff5c4" }, p);
    el("path", { d: "M15,13 l5,0 l2,3 l-6,1.5 l-3,-2 z", fill: "#c8930c" }, p);
    el("circle", { cx: 19, cy: 5, r: 1, fill: "#fff5c4" }, p);
  }, 24, 20);
  terrainPattern(defs, `${prefix}sea`, "#2d70b3", (p) => {
    el("path", { d: "M2,6 q3,-3 6,0 t6,0 M16,16 q3,-3 6,0 t6,0", stroke: "#4a8ccb", fill: "none", "stroke-width": 1.1 }, p);
  }, 30, 20);
  terrainPattern(defs, `${prefix}frame`, "#4f91cf", (p) => {
    el("path", { d: "M2,6 q3,-3 6,0 t6,0 M16,16 q3,-3 6,0 t6,0", stroke: "#6aa6dc", fill: "none", "stroke-width": 1.1 }, p);
  }, 30, 20);
  terrainPattern(defs, `${prefix}fog`, "#363d4a", (p) => {
    el("path", { d: "M0,10 l10,-10 M-2,2 l4,-4 M8,12 l4,-4", stroke: "#444c5b", "stroke-width": 2 }, p);
  }, 10, 10);

  const shine = el("radialGradient", { id: `${prefix}shine`, cx: "35%", cy: "30%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": "#fffbe0", "stop-opacity": 0.85 }, shine);
  el("stop", { offset: "55%", "stop-color": "#fff3b0", "stop-opacity": 0.15 }, shine);
  el("stop", { offset: "100%", "stop-color": "#b8860b", "stop-opacity": 0.35 }, shine);

  // Resource icons on a 20 × 20 box, for harbours.
  for (const [name, draw] of Object.entries(ICONS)) draw(el("symbol", { id: `${prefix}icon-${name}`, viewBox: "0 0 20 20" }, defs));
  return defs;
}
