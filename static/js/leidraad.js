// Progressive enhancement only: every form here also works without JavaScript.
document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-autosubmit]");
  if (form) form.requestSubmit();
});
document.querySelectorAll("[data-autosubmit-button]").forEach((button) => {
  button.classList.add("visually-hidden");
});
