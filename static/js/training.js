// Explore page: number keys choose an answer, Backspace or Alt+Left goes one step back.
// Progressive enhancement only: every choice is a normal link.
document.addEventListener("keydown", (event) => {
  if (!document.querySelector(".explore")) return;
  const target = event.target;
  if (target.closest("input, textarea, select, [contenteditable]")) return;
  if (event.ctrlKey || event.metaKey) return;
  let link = null;
  if (/^[1-9]$/.test(event.key) && !event.altKey) {
    link = document.querySelector(`.explore [data-choice-number="${event.key}"]`);
  } else if (event.key === "Backspace" || (event.altKey && event.key === "ArrowLeft")) {
    link = document.querySelector(".explore [data-explore-back]");
  }
  if (link) {
    event.preventDefault();
    link.click();
  }
});

// Keep the current node of the explore diagram in view inside its scroll box.
const centreDiagram = () => {
  const box = document.querySelector("[data-explore-diagram]");
  const node = box && box.querySelector(".highlight");
  if (!node) return;
  const outer = box.getBoundingClientRect();
  const inner = node.getBoundingClientRect();
  box.scrollLeft += inner.left - outer.left - (outer.width - inner.width) / 2;
  box.scrollTop += inner.top - outer.top - (outer.height - inner.height) / 2;
};
document.addEventListener("DOMContentLoaded", centreDiagram);
document.addEventListener("htmx:afterSettle", centreDiagram);
