// The waiting room: reload when someone joins or leaves, or when the game starts; copy the invite link.
const room = document.getElementById("waiting-room");
const proto = location.protocol === "https:" ? "wss" : "ws";
const invite = new URLSearchParams(location.search).get("invite") || "";
const socket = new WebSocket(`${proto}://${location.host}/ws/games/${room.dataset.gameId}/?invite=${encodeURIComponent(invite)}`);
// Not while one of this page's forms is posting (Start, say): reloading would cancel that request.
let leaving = false;
document.addEventListener("submit", (event) => { if (!event.defaultPrevented) leaving = true; });
socket.addEventListener("message", (event) => {
  const frame = JSON.parse(event.data);
  if (!leaving && (frame.type === "lobby" || frame.type === "update")) location.reload();
});

for (const copy of document.querySelectorAll("[data-copy]")) {
  copy.addEventListener("click", async () => {
    const field = document.querySelector(copy.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch (error) {
      // No clipboard access (an insecure origin): the text is selected for the person to copy.
      return;
    }
    copy.textContent = copy.dataset.copied;
  });
}
