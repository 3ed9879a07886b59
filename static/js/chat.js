// The chat: history over HTTP, live lines over the socket, moderation (hidden lines, reports).
import { send } from "./connection.js";
import { flash, node } from "./dom.js";
import { t } from "./i18n.js";
import { $, apiUrl, app } from "./state.js";

export async function loadChat() {
  try {
    const response = await fetch(apiUrl("chat/"), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return;
    const messages = await response.json();
    for (const message of messages) app.chat.set(message.id, message);
    renderChat();
  } catch (error) {
    // Chat history is optional; live messages still arrive over the socket.
  }
}

export function addChat(message) {
  if (app.chat.has(message.id)) return;
  app.chat.set(message.id, message);
  renderChat();
}

export function renderChat() {
  const list = $("chat-log");
  const stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  list.replaceChildren();
  const messages = [...app.chat.values()].sort((a, b) => a.id - b.id).slice(-200);
  for (const message of messages) {
    const at = message.at ? new Date(message.at) : null;
    const item = node("li", { "data-id": message.id });
    if (at && !Number.isNaN(at.getTime())) {
      item.append(node("time", { datetime: message.at, text: at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) }));
    }
    item.append(node("strong", { text: message.user || t("someone") }));
    // textContent, never innerHTML: chat text is whatever a player typed.
    item.append(node("span", { class: message.hidden ? "chat-text muted" : "chat-text", text: message.hidden ? t("chat_hidden") : message.text }));
    // No Report button on one's own lines (the server refuses a report of oneself): the author is the name of our seat.
    const mine = app.seats.some((seat) => seat.index === app.yourSeat && seat.user === message.user);
    if (app.yourSeat !== null && !message.hidden && !mine) item.append(reportButton(message));
    list.append(item);
  }
  if (stick) list.scrollTop = list.scrollHeight;
}

// The moderation strings live here, beside the chat code that uses them (extracted by `make messages`).
const gettext = window.gettext || ((text) => text);

// A moderator hid or showed a message again: every open page follows at once.
export function chatHidden(frame) {
  const message = app.chat.get(frame.id);
  if (!message) return;
  message.hidden = frame.hidden;
  if (!frame.hidden) message.text = frame.text;
  renderChat();
}

// Players report a message from the chat itself; the server keeps the message, the chat around it and the move.
export function reportButton(message) {
  const button = node("button", { type: "button", class: "chat-report link", text: gettext("Report"), "data-testid": "chat-report" });
  button.addEventListener("click", () => {
    const reason = window.prompt(gettext("What is wrong with this message?"));
    if (!reason || !reason.trim()) return;
    if (!send({ type: "report", message_id: message.id, reason: reason.trim().slice(0, 500) })) flash(t("offline"));
  });
  return button;
}

// The server took this person's report of a chat line.
export function reported() {
  flash(gettext("Thank you: a moderator will look at your report."));
}
