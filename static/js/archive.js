// Archive and ruling pages. Progressive enhancement only: everything works without it.

// A print button (hidden without JavaScript, where the browser's own print command serves).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});

// The review form asks for a corrected ruling only when the verdict is amended or overturned.
document.querySelectorAll(".review-form").forEach((form) => {
  const corrections = ["corrected_ruling", "corrected_citations"]
    .map((name) => form.querySelector(`[name="${name}"]`))
    .filter(Boolean)
    .map((field) => field.closest(".mb-3") || field.parentElement);
  const update = () => {
    const verdict = form.querySelector('[name="verdict"]:checked');
    const show = !verdict || verdict.value !== "confirmed";
    corrections.forEach((block) => { block.hidden = !show; });
  };
  form.addEventListener("change", update);
  update();
});

// The archive's filters fold away on a phone, so the results are on the first screen; they
// stay open on a larger screen and without JavaScript (details starts open).
const narrow = window.matchMedia("(max-width: 767.98px)");
document.querySelectorAll("details[data-fold-narrow]").forEach((details) => {
  if (narrow.matches) details.open = false;
});
