// The new-game form shows the clock's own fields only: hours per move for play by email, the turn time for live,
// and what happens when time runs out only when there is a clock to run out (never with "No turn clock").
const form = document.getElementById("new-game-form");
const clock = form.querySelector("[name=clock]");
const turnSeconds = form.querySelector("[name=turn_seconds]");
const FIELDS = { async: ["move_hours"], live: ["turn_seconds"] };

function showField(name, shown) {
  const field = form.querySelector(`[data-field="${name}"]`);
  if (field) field.hidden = !shown;
}

function showClockFields() {
  for (const [value, names] of Object.entries(FIELDS)) {
    for (const name of names) showField(name, clock.value === value);
  }
  const timed = clock.value !== "live" || Boolean(turnSeconds && turnSeconds.value);
  showField("timeout_policy", timed);
}

if (clock) {
  clock.addEventListener("change", showClockFields);
  if (turnSeconds) turnSeconds.addEventListener("change", showClockFields);
  showClockFields();
}
