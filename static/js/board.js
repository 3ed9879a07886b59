// The SVG board: terrain, numbers, harbours, pieces, robber and pirate, drawn from a view(), plus clickable
// overlays for exactly the legal placements of the current choice.

const NS = "http://www.w3.org/2000/svg";
const SIZE = 40;
const SQRT3 = Math.sqrt(3);

export const TERRAIN_COLORS = {
  forest: "#2e7d32", pasture: "#9ccc65", fields: "#f9d84a", hills: "#c8643b", mountains: "#9e9e9e",
  desert: "#e8d6a0", sea: "#3a7bbf", gold: "#f2b705", fog: "#4a4f5a",
};
export const SEAT_COLORS = ["#d32f2f", "#1976d2", "#f57c00", "#2e7d32", "#7b1fa2", "#5d4037"];
const RESOURCE_LETTER = { lumber: "L", brick: "B", wool: "W", grain: "G", ore: "O", generic: "?" };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function hexCenter(q, r) {
  return [SIZE * SQRT3 * (q + r / 2), SIZE * 1.5 * r];
}

function vertexPoint(v) {
  // Lattice: a hex centre is (2q + r, 3r); one x step is √3/2 · SIZE, one y step SIZE / 2.
  return [v.x * SIZE * SQRT3 / 2, v.y * SIZE / 2];
}

function hexPoints(cx, cy, size = SIZE) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const angle = Math.PI / 180 * (60 * k - 90);
    pts.push(`${(cx + size * Math.cos(angle)).toFixed(1)},${(cy + size * Math.sin(angle)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function drawSettlement(g, x, y, color, city) {
  const s = city ? 11 : 8;
  const path = city
    ? `M${x - s},${y + s * 0.7} v${-s} l${s * 0.5},${-s * 0.5} l${s * 0.5},${s * 0.5} h${s} v${s} z`
    : `M${x - s},${y + s * 0.7} v${-s} l${s},${-s * 0.7} l${s},${s * 0.7} v${s} z`;
  el("path", { d: path, fill: color, stroke: "#111", "stroke-width": 1.5, class: city ? "city" : "settlement" }, g);
}

export function renderBoard(svg, view, { legal = [], onAction = () => {}, pending = null } = {}) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const board = view.board;
  const vertices = new Map(board.vertices.map((v) => [v.id, v]));
  const edges = new Map(board.edges.map((e) => [e.id, e]));
  const hexes = new Map(board.hexes.map((h) => [h.id, h]));
  const frame = new Set(board.frame || []);

  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const h of board.hexes) {
    const [x, y] = hexCenter(h.q, h.r);
    minX = Math.min(minX, x - SIZE); maxX = Math.max(maxX, x + SIZE);
    minY = Math.min(minY, y - SIZE); maxY = Math.max(maxY, y + SIZE);
  }
  svg.setAttribute("viewBox", `${minX - 4} ${minY - 4} ${maxX - minX + 8} ${maxY - minY + 8}`);
  svg.setAttribute("role", "img");

  const layers = {};
  for (const name of ["hexes", "harbours", "tokens", "edges", "vertices", "markers", "legal"]) {
    layers[name] = el("g", { class: `layer-${name}` }, svg);
  }

  for (const h of board.hexes) {
    const [cx, cy] = hexCenter(h.q, h.r);
    const poly = el("polygon", {
      points: hexPoints(cx, cy, SIZE - 0.5),
      fill: TERRAIN_COLORS[h.terrain] || "#ccc",
      stroke: h.terrain === "sea" ? "#356fa8" : "#6b5a3a",
      "stroke-width": h.terrain === "sea" ? 0.6 : 1.5,
      class: `hex terrain-${h.terrain}${frame.has(h.id) ? " frame" : ""}`,
      "data-hex": h.id,
    }, layers.hexes);
    if (frame.has(h.id)) poly.setAttribute("opacity", "0.75");
    if (h.terrain === "fog") {
      el("text", { x: cx, y: cy + 9, "text-anchor": "middle", "font-size": 26, fill: "#ddd", "font-weight": 700 },
        layers.tokens).textContent = "?";
    }
    if (h.token) {
      el("circle", { cx, cy, r: 14, fill: "#fdf6e3", stroke: "#6b5a3a", "stroke-width": 1 }, layers.tokens);
      const red = h.token === 6 || h.token === 8;
      el("text", {
        x: cx, y: cy + 4, "text-anchor": "middle", "font-size": 13, "font-weight": 700,
        fill: red ? "#c62828" : "#222", class: "token",
      }, layers.tokens).textContent = String(h.token);
      for (let i = 0; i < h.pips; i++) {
        el("circle", { cx: cx - (h.pips - 1) * 2 + i * 4, cy: cy + 9, r: 1.2, fill: red ? "#c62828" : "#222" },
          layers.tokens);
      }
    }
  }

  for (const harbour of board.harbours) {
    const [a, b] = harbour.vertices.map((id) => vertexPoint(vertices.get(id)));
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    // Push the marker toward the sea hex of this edge.
    const edge = edges.get(harbour.edge);
    let sx = mx, sy = my;
    for (const h of board.hexes) {
      if (h.terrain !== "sea") continue;
      const [cx, cy] = hexCenter(h.q, h.r);
      if (Math.hypot(cx - mx, cy - my) < SIZE * 0.9) { sx = mx + (cx - mx) * 0.55; sy = my + (cy - my) * 0.55; break; }
    }
    el("line", { x1: a[0], y1: a[1], x2: sx, y2: sy, stroke: "#5d4037", "stroke-width": 2 }, layers.harbours);
    el("line", { x1: b[0], y1: b[1], x2: sx, y2: sy, stroke: "#5d4037", "stroke-width": 2 }, layers.harbours);
    el("circle", { cx: sx, cy: sy, r: 10, fill: "#fff8e1", stroke: "#5d4037" }, layers.harbours);
    const label = harbour.kind === "generic" ? "3:1" : `2${RESOURCE_LETTER[harbour.kind]}`;
    el("text", { x: sx, y: sy + 3.5, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: "#3e2723" },
      layers.harbours).textContent = label;
    if (edge) edge.harbour = harbour.kind;
  }

  const edgeLine = (e) => {
    const edge = edges.get(e);
    const [a, b] = edge.vertices.map((id) => vertexPoint(vertices.get(id)));
    return [a, b];
  };
  for (const road of view.pieces.roads) {
    const [a, b] = edgeLine(road.edge);
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#111", "stroke-width": 8, "stroke-linecap": "round" },
      layers.edges);
    el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: SEAT_COLORS[road.seat], "stroke-width": 5.5,
      "stroke-linecap": "round", class: "road", "data-edge": road.edge }, layers.edges);
  }
  for (const ship of view.pieces.ships) {
    const [a, b] = edgeLine(ship.edge);
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    const angle = Math.atan2(b[1] - a[1], b[0] - a[0]) * 180 / Math.PI;
    const g = el("g", { transform: `translate(${mx},${my}) rotate(${angle})`, class: "ship", "data-edge": ship.edge },
      layers.edges);
    el("path", { d: "M-12,0 L12,0 L8,6 L-8,6 Z", fill: SEAT_COLORS[ship.seat], stroke: "#111", "stroke-width": 1 }, g);
    el("path", { d: "M0,0 L0,-12 L8,-2 Z", fill: "#fafafa", stroke: "#111", "stroke-width": 0.8 }, g);
  }
  for (const s of view.pieces.settlements) {
    const [x, y] = vertexPoint(vertices.get(s.vertex));
    drawSettlement(layers.vertices, x, y, SEAT_COLORS[s.seat], false);
  }
  for (const c of view.pieces.cities) {
    const [x, y] = vertexPoint(vertices.get(c.vertex));
    drawSettlement(layers.vertices, x, y, SEAT_COLORS[c.seat], true);
  }

  if (board.robber !== null && board.robber !== undefined) {
    const h = hexes.get(board.robber);
    const [cx, cy] = hexCenter(h.q, h.r);
    const g = el("g", { class: "robber", transform: `translate(${cx - 16},${cy - 4})` }, layers.markers);
    el("ellipse", { cx: 0, cy: 8, rx: 6, ry: 9, fill: "#263238" }, g);
    el("circle", { cx: 0, cy: -4, r: 5, fill: "#263238" }, g);
  }
  if (board.pirate !== null && board.pirate !== undefined) {
    const h = hexes.get(board.pirate);
    const [cx, cy] = hexCenter(h.q, h.r);
    const g = el("g", { class: "pirate", transform: `translate(${cx},${cy})` }, layers.markers);
    el("path", { d: "M-16,2 L16,2 L10,12 L-10,12 Z", fill: "#111" }, g);
    el("path", { d: "M0,2 L0,-16 L12,-4 Z", fill: "#111" }, g);
    el("text", { x: 0, y: 10, "text-anchor": "middle", "font-size": 8, fill: "#fff" }, g).textContent = "☠";
  }

  drawLegal(layers.legal, legal, { vertices, edges, hexes, edgeLine, onAction, pending });
}

function spot(layer, shape, attrs, action, onAction, label) {
  const node = el(shape, { ...attrs, class: "legal-spot", tabindex: 0, role: "button",
    "data-action": JSON.stringify(action), "aria-label": label }, layer);
  const fire = (event) => { event.preventDefault(); event.stopPropagation(); onAction(action); };
  node.addEventListener("click", fire);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") fire(e); });
  return node;
}

function drawLegal(layer, legal, ctx) {
  const { vertices, hexes, edgeLine, onAction, pending } = ctx;
  const byHex = new Map();
  for (const action of legal) {
    switch (action.type) {
      case "build_settlement":
      case "build_city": {
        const [x, y] = vertexPoint(vertices.get(action.vertex));
        spot(layer, "circle", { cx: x, cy: y, r: 12 }, action, onAction, action.type);
        break;
      }
      case "build_road":
      case "build_ship": {
        const [a, b] = edgeLine(action.edge);
        const x = (a[0] + b[0]) / 2, y = (a[1] + b[1]) / 2;
        const node = spot(layer, "circle", { cx: x, cy: y, r: 11 }, action, onAction, action.type);
        if (action.type === "build_ship") node.classList.add("ship-spot");
        break;
      }
      case "move_robber":
      case "move_pirate":
      case "move_token": {
        const key = `${action.type}:${action.hex}`;
        if (!byHex.has(key)) byHex.set(key, []);
        byHex.get(key).push(action);
        break;
      }
      case "move_ship": {
        if (pending && pending.type === "move_ship" && pending.from === action.from) {
          const [a, b] = edgeLine(action.to);
          spot(layer, "circle", { cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2, r: 11 }, action, onAction, "move ship here");
        }
        break;
      }
      default:
        break;
    }
  }
  if (!pending) {
    const sources = new Set(legal.filter((a) => a.type === "move_ship").map((a) => a.from));
    for (const from of sources) {
      const [a, b] = edgeLine(from);
      spot(layer, "circle", { cx: (a[0] + b[0]) / 2, cy: (a[1] + b[1]) / 2, r: 13 },
        { type: "select_ship", from }, onAction, "move this ship").classList.add("ship-source");
    }
  }
  for (const [key, actions] of byHex) {
    const h = hexes.get(actions[0].hex);
    const [cx, cy] = hexCenter(h.q, h.r);
    const action = actions.length === 1 ? actions[0] : { type: "choose_victim", options: actions };
    const node = spot(layer, "circle", { cx, cy, r: 20 }, action, onAction, key);
    node.classList.add("hex-spot");
  }
}
