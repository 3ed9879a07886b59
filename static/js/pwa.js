// The installable app and push notices (issue 42): registers the site's service worker (served at /sw.js,
// games/pwa.py) on every page, and turns a button with data-push-subscribe into "notify me on this device":
// it asks for permission, subscribes with the site's VAPID key (/api/push/key/) and gives the subscription to
// the site (/api/push/subscriptions/). Without service workers or push (an old browser, http), nothing shows.

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

export async function subscribe(registration) {
  const key = await (await fetch("/api/push/key/", {credentials: "same-origin"})).json();
  if (!key.enabled) throw new Error("push_unavailable");
  if ((await Notification.requestPermission()) !== "granted") throw new Error("permission_denied");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key.public_key),
  });
  const response = await fetch("/api/push/subscriptions/", {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
    body: JSON.stringify(subscription.toJSON()),
  });
  if (!response.ok) throw new Error((await response.json()).error.code);
  return subscription;
}

async function start() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register("/sw.js", {scope: "/"});
  const button = document.querySelector("[data-push-subscribe]");
  if (!button || !("PushManager" in window)) return;
  const status = document.querySelector("[data-push-status]");
  button.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await subscribe(await navigator.serviceWorker.ready);
      if (status) status.textContent = button.dataset.done;
    } catch (error) {
      if (status) status.textContent = `${button.dataset.failed} (${error.message})`;
      button.disabled = false;
    }
  });
  window.catanPush = {registration, subscribe: () => subscribe(registration)};
}

// A browser that refuses the worker (private windows of some, a blocked origin) keeps the site as it was.
start().catch((error) => console.warn("service worker not registered:", error.message));
