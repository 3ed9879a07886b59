// Behaviour every page may ask for with a data attribute, so that no template needs an inline handler (the
// Content-Security-Policy allows scripts from the site's files only):
//   <select data-autosubmit>             submits its form when changed
//   <button data-confirm="Sure?">        asks before the click goes on (also on a <form>: before it submits)
//   <input data-select-on-click>         selects its whole text when clicked (a link to copy)
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-autosubmit]");
  if (field && field.form) field.form.submit();
});

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-confirm], input[type=submit][data-confirm], a[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  const field = event.target.closest("[data-select-on-click]");
  if (field) field.select();
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// The site menu folds away on phones (site.css, under 600 px): a button opens and closes it; Escape closes it and
// gives the focus back to the button, and so does a click elsewhere. Wider windows show the links as always.
(function siteMenu() {
  const header = document.querySelector(".site-header");
  const toggle = document.getElementById("menu-toggle");
  if (!header || !toggle) return;
  const setOpen = (open) => {
    header.dataset.menu = open ? "open" : "closed";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  };
  toggle.hidden = false;
  setOpen(false);
  toggle.addEventListener("click", () => setOpen(header.dataset.menu !== "open"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && header.dataset.menu === "open") {
      setOpen(false);
      toggle.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (header.dataset.menu === "open" && !header.contains(event.target)) setOpen(false);
  });
})();
