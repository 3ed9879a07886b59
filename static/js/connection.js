// The connection: one WebSocket, with reconnects, resync requests, a heartbeat, and the REST API as a fallback
// for reading the state and sending moves. Frames go to hooks.handle (game.js).
import { flash } from "./dom.js";
import { t } from "./i18n.js";
import { $, apiUrl, app, gameId, HEARTBEAT_MS, hooks, invite, MOVE_TIMEOUT_MS, randomKey } from "./state.js";

export function connect() {
  clearTimeout(app.reconnectTimer);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  let socket;
  try {
    socket = new WebSocket(`${proto}://${location.host}/ws/games/${gameId}/${query}`);
  } catch (error) {
    scheduleReconnect();
    return;
  }
  app.socket = socket;
  setConnection(app.retries ? "reconnecting" : "connecting");
  socket.addEventListener("open", () => {
    app.retries = 0;
    app.lastFrameAt = Date.now();
    setConnection(app.view && app.view.phase === "game_over" ? "ended" : "connected");
    // The server sends the full state on connect; ask for it only if it does not come.
    clearTimeout(app.syncTimer);
    app.syncRequested = 0;
    app.syncTimer = setTimeout(requestSync, 3000);
    hooks.opened();
  });
  socket.addEventListener("message", (event) => {
    app.lastFrameAt = Date.now();
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (frame && frame.type === "restarting") {
      // The node drains (a deploy): it closes this socket with 1012 next, and the table moves to another node.
      app.restarting = true;
      setConnection("reconnecting");
      return;
    }
    if (frame && typeof frame.type === "string") hooks.handle(frame);
  });
  socket.addEventListener("close", (event) => {
    if (app.socket !== socket) return;
    app.socket = null;
    if (event.code === 4403 || event.code === 4404) {
      setConnection("refused");
      return;
    }
    if (event.code === 1012 || app.restarting) {
      // Service restart: reconnect at once (spread over a quarter second, so that a node's tables do not all
      // arrive in the same millisecond); the new socket's first frame is the whole state.
      app.restarting = false;
      setConnection("reconnecting");
      clearTimeout(app.reconnectTimer);
      app.reconnectTimer = setTimeout(connect, Math.random() * 250);
      return;
    }
    scheduleReconnect();
  });
}

// Without a socket (Redis down, a proxy that refuses WebSockets) the page still shows the game: its state comes
// over HTTP on every reconnect attempt, and moves go by the REST API.
export async function loadOverHttp() {
  try {
    const response = await fetch(apiUrl(""), { headers: { Accept: "application/json" }, credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    if (!app.socket) hooks.handle({ ...data, type: "state" });
    hooks.opened(); // the socket would have brought it: the chat follows the state while the page reads over HTTP
  } catch (error) {
    // Offline altogether: the next attempt tries again.
  }
}

export function csrfToken() {
  const cookie = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  if (cookie) return decodeURIComponent(cookie.slice("csrftoken=".length));
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

export async function submitOverHttp(action, key) {
  try {
    const response = await fetch(apiUrl("moves/"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ action, expected_seq: app.seq, idempotency_key: key }),
    });
    const data = await response.json();
    if (response.ok) hooks.handle({ ...data.game, type: "state" });
    else {
      flash(data.message || t("offline"));
      loadOverHttp();
    }
  } catch (error) {
    flash(t("offline"));
  }
}

export function scheduleReconnect() {
  loadOverHttp();
  clearTimeout(app.reconnectTimer);
  const delay = Math.min(15000, 500 * 2 ** app.retries) * (0.75 + Math.random() * 0.5);
  app.retries += 1;
  setConnection("reconnecting");
  app.reconnectTimer = setTimeout(connect, delay);
}

export function send(frame) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) return false;
  app.socket.send(JSON.stringify(frame));
  return true;
}

// Ask for the full state, once until it arrives (a burst of updates after a gap needs a single answer); ask
// again if no answer came within two seconds.
export function requestSync() {
  if (app.syncRequested && Date.now() - app.syncRequested < 2000) return;
  if (send({ type: "sync" })) app.syncRequested = Date.now();
}

export function heartbeat() {
  const socket = app.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  if (Date.now() - app.lastFrameAt > HEARTBEAT_MS * 2.5) socket.close();
  else send({ type: "ping" });
}

export function setConnection(state) {
  const c = $("connection");
  if (!c) return;
  c.textContent = t(`connection_${state}`);
  c.title = c.textContent;
  c.dataset.state = state;
}

export function submit(action) {
  if (app.awaiting) return;
  app.build = null;
  const key = randomKey();
  if (!send({ type: "move", action, seq: app.seq, key })) {
    hooks.closeDialog();
    submitOverHttp(action, key);
    return;
  }
  app.awaiting = {
    key,
    timer: setTimeout(() => {
      app.awaiting = null;
      requestSync();
      hooks.render();
    }, MOVE_TIMEOUT_MS),
  };
  hooks.closeDialog();
  hooks.render();
}

export function settle() {
  if (!app.awaiting) return;
  clearTimeout(app.awaiting.timer);
  app.awaiting = null;
}
