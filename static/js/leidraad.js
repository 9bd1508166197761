// Progressive enhancement only: every form here also works without JavaScript.
document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-autosubmit]");
  if (form) form.requestSubmit();
});
document.querySelectorAll("[data-autosubmit-button]").forEach((button) => {
  button.classList.add("visually-hidden");
});

// A search field with autofocus gets the focus as soon as it is drawn, which on a busy machine
// is before htmx (whose script runs first) has read the page and listens. Letters typed in
// that moment asked for nothing; ask once now for what is in the field. The live searches
// (new ruling, laws) all answer the "search" event.
document.addEventListener("DOMContentLoaded", () => {
  const field = document.querySelector("input[type=search][autofocus]");
  if (field && window.htmx && field.value !== field.defaultValue) {
    window.htmx.trigger(field, "search");
  }
});

// A copy button beside a text to hand on (the password link): hidden without JavaScript, where
// the text itself is selected and copied by hand. Says "Gekopieerd" once copied.
document.querySelectorAll("[data-copy]").forEach((button) => {
  const source = document.querySelector(button.dataset.copy);
  if (!source) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    const label = button.innerHTML;
    try {
      await navigator.clipboard.writeText(source.value || source.textContent);
    } catch {
      source.select();
      document.execCommand("copy");
    }
    button.textContent = button.dataset.copied;
    setTimeout(() => { button.innerHTML = label; }, 2000);
  });
});
