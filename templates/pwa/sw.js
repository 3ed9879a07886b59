{% autoescape off %}// The site's service worker (games/pwa.py): the static shell cached for offline use, the offline page when a
// page cannot be fetched, and Web Push notices (games/mail/push.py) shown as notifications.
const CACHE = "catan-shell-{{ version }}";
const SHELL = {{ shell_json }};
const OFFLINE = "/offline/";
const HASHED = {{ hashed }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Pages are always fresh from the network (a game moves on); without a network, the offline page.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    const fetchAndKeep = () => fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    });
    // Static files carry their content's hash in their names (not with DEBUG): a cached copy is never stale.
    // Without the hash, the network first and the cache only when it is gone.
    event.respondWith(
      HASHED
        ? caches.match(request).then((hit) => hit || fetchAndKeep())
        : fetchAndKeep().catch(() => caches.match(request)),
    );
  }
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = {title: event.data ? event.data.text() : "Catan"};
  }
  const options = {
    body: notice.body || "",
    tag: notice.tag,
    renotify: true,
    icon: "{{ icon }}",
    data: {url: notice.url || "/games/", action: notice.action || null},
    actions: notice.action ? [{action: notice.action.verb, title: notice.action.title}] : [],
  };
  event.waitUntil(self.registration.showNotification(notice.title || "Catan", options));
});

self.addEventListener("notificationclick", (event) => {
  const data = event.notification.data || {};
  event.notification.close();
  // The action opens the email's one-click page for this decision (one use; its button's POST plays), the body
  // the game's page: a window of the site already open is reused.
  const target = event.action && data.action ? data.action.url : data.url;
  event.waitUntil(
    self.clients.matchAll({type: "window", includeUncontrolled: true}).then((windows) => {
      for (const client of windows) {
        if (client.url === target && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(target);
    }),
  );
});
{% endautoescape %}
