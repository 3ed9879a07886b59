// The new-game form shows the clock's own fields only: hours per move for play by email, the turn time for live.
const form = document.getElementById("new-game-form");
const clock = form.querySelector("[name=clock]");
const FIELDS = { async: ["move_hours"], live: ["turn_seconds"] };

function showClockFields() {
  for (const [value, names] of Object.entries(FIELDS)) {
    for (const name of names) {
      const field = form.querySelector(`[data-field="${name}"]`);
      if (field) field.hidden = clock.value !== value;
    }
  }
}

if (clock) {
  clock.addEventListener("change", showClockFields);
  showClockFields();
}
