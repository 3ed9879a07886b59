// Building the page's HTML elements, and the flash message.
import { $, seatColor } from "./state.js";

export function node(tag, attrs = {}, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") n.className = v;
    else if (k === "text") n.textContent = v;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (k === "style") n.style.cssText = v;
    else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
    else n.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) n.append(child);
  return n;
}

export function button(label, onclick, attrs = {}) {
  return node("button", { type: "button", class: "button", onclick, ...attrs, text: label });
}

export function swatch(seat) {
  return node("span", { class: "swatch", style: `background:${seatColor(seat)}`, "aria-hidden": "true" });
}

export function flash(text) {
  const f = $("flash");
  f.textContent = text;
  f.hidden = false;
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => { f.hidden = true; }, 5000);
}
