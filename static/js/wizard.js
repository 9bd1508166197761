// Wizard keyboard shortcuts and focus. Progressive enhancement only: every action here is also
// a plain button or link that works without JavaScript.
(() => {
  const typing = (element) =>
    element instanceof HTMLElement &&
    (element.isContentEditable || element.closest("input, textarea, select") !== null);

  document.addEventListener("keydown", (event) => {
    const wizard = document.querySelector("[data-wizard]");
    if (!wizard || event.defaultPrevented || event.ctrlKey || event.metaKey || typing(event.target)) {
      return;
    }
    // 1–9 choose an answer.
    if (!event.altKey && !event.shiftKey && /^[1-9]$/.test(event.key)) {
      const button = wizard.querySelector(`[data-choice="${event.key}"]`);
      if (button && !button.disabled) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    // Backspace or Alt+← go back one question (the browser's own Alt+← would leave the step
    // history of htmx; the link does the same and keeps focus management).
    const back =
      (event.key === "Backspace" && !event.altKey && !event.shiftKey) ||
      (event.key === "ArrowLeft" && event.altKey);
    if (back) {
      const link = wizard.querySelector("[data-wizard-back]");
      if (link) {
        event.preventDefault();
        link.click();
      }
    }
  });

  // After a step swaps in, continue from the new question: its pre-selected answer if there is
  // one (Enter confirms it), else the heading, so screen readers read the new question.
  const focusStep = () => {
    const wizard = document.querySelector("[data-wizard]");
    if (!wizard) return;
    const target =
      wizard.querySelector("[data-wizard-error]") ? wizard.querySelector("[data-wizard-focus]") :
      wizard.querySelector("[data-wizard-selected]") || wizard.querySelector("[data-wizard-focus]");
    if (target) target.focus({ preventScroll: false });
  };
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target instanceof HTMLElement && event.target.id === "wizard") focusStep();
  });
  document.addEventListener("DOMContentLoaded", () => {
    if (!document.querySelector("[data-form-errors]")) focusStep();
  });

  // Form errors swapped in place: move focus to the summary.
  document.addEventListener("htmx:afterSettle", () => {
    const summary = document.querySelector("#context-form [data-form-errors]");
    if (summary) summary.focus();
  });

  // Start page: arrow keys move from the search field through the list of trees.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const search = document.querySelector("[data-tree-search]");
    if (!search) return;
    const links = [...document.querySelectorAll("#tree-list .tree-choice")];
    const index = links.indexOf(document.activeElement);
    if (event.target === search && event.key === "ArrowDown" && links.length) {
      event.preventDefault();
      links[0].focus();
    } else if (index >= 0) {
      event.preventDefault();
      const next = index + (event.key === "ArrowDown" ? 1 : -1);
      (next < 0 ? search : links[Math.min(next, links.length - 1)]).focus();
    }
  });

  // A list refresh that lands while a tree is focused (typed, then ArrowDown or Tab before the
  // short delay ran out) keeps the focus on the same tree, or the first one, not on the page.
  // Moved back right after the swap, in the same task: a key pressed a moment later (Enter)
  // must find the tree focused, not the page (settling waits a few milliseconds).
  let focusedTree = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail && event.detail.target;
    if (!(target instanceof HTMLElement) || target.id !== "tree-list") return;
    const active = document.activeElement;
    focusedTree =
      active instanceof HTMLElement && active.matches("#tree-list .tree-choice")
        ? active.getAttribute("href")
        : null;
  });
  document.addEventListener("htmx:afterSwap", () => {
    if (focusedTree === null) return;
    const links = [...document.querySelectorAll("#tree-list .tree-choice")];
    const same = links.find((link) => link.getAttribute("href") === focusedTree) || links[0];
    focusedTree = null;
    if (same) same.focus();
  });

  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-print]")) window.print();
  });
})();
