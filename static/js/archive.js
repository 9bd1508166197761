// Archive and ruling pages. Progressive enhancement only: everything works without it.

// A print button (hidden without JavaScript, where the browser's own print command serves).
// The record prints one page; "Afdrukken met audit" adds the law texts and the audit trail
// (static/css/print.css: body.print-with-audit) for this one print. Without JavaScript that
// link opens the page with ?afdruk=audit, which sets the class itself.
const printWithAudit = (audit) => {
  const body = document.body;
  const before = body.classList.contains("print-with-audit");
  body.classList.toggle("print-with-audit", audit);
  window.addEventListener("afterprint", () => body.classList.toggle("print-with-audit", before), { once: true });
  window.print();
};
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => printWithAudit(false));
});
document.querySelectorAll("[data-print-audit]").forEach((link) => {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    printWithAudit(true);
  });
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
