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
    // The key shown on an answer chooses it: 1–9, 0 for the tenth, then letters.
    if (!event.altKey && !event.shiftKey && /^[0-9a-z]$/.test(event.key)) {
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

  // Start page: the search field and the list it filters (#tree-list, whose data-query holds
  // the words it answers). The arrow keys move from the field through every result: the trees,
  // other editions, "Vrije arbitrage maken" ([data-pick]). Enter in the field with exactly one
  // tree found opens it. A list answering older words (typed, then ↓ and Enter at once, before
  // the list for the last letters arrived) is never acted on: the key asks for the list of what
  // is in the field now, and does its work when that list is there.
  const searchField = () => document.querySelector("[data-tree-search]");
  const picks = () => [...document.querySelectorAll("#tree-list [data-pick]")];
  const listIsCurrent = () => {
    const field = searchField();
    const list = document.getElementById("tree-list");
    return !!field && !!list && (list.dataset.query || "").trim() === field.value.trim();
  };
  // What a key pressed on an out-of-date list asked for: "focus" the first result (↓), "open"
  // a result (Enter after ↓, or on a result; `waitingFor` its address), or "enter" from the
  // field (open the one tree found, if one).
  let waiting = null;
  let waitingFor = null;
  const askNow = (what, href = null) => {
    waiting = what;
    waitingFor = href;
    const field = searchField();
    if (field && window.htmx) window.htmx.trigger(field, "search");
  };
  const onlyTree = () => {
    const trees = document.querySelectorAll("#tree-list .tree-choice");
    return trees.length === 1 ? trees[0] : null;
  };

  document.addEventListener("keydown", (event) => {
    const field = searchField();
    if (!field || event.ctrlKey || event.metaKey || event.altKey) return;
    const links = picks();
    const index = links.indexOf(document.activeElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (event.target === field && event.key === "ArrowDown") {
        event.preventDefault();
        if (!listIsCurrent()) askNow("focus");
        else if (links.length) links[0].focus();
      } else if (index >= 0) {
        event.preventDefault();
        const next = index + (event.key === "ArrowDown" ? 1 : -1);
        (next < 0 ? field : links[Math.min(next, links.length - 1)]).focus();
      }
      return;
    }
    if (event.key !== "Enter" || event.shiftKey) return;
    if (event.target === field) {
      if (waiting === "focus") {
        event.preventDefault();
        waiting = "open";
      } else if (!listIsCurrent()) {
        event.preventDefault();
        askNow("enter");
      } else if (onlyTree()) {
        event.preventDefault();
        onlyTree().click();
      } // else the form is sent, as without JavaScript
    } else if (index >= 0 && !listIsCurrent()) {
      event.preventDefault();
      askNow("open", links[index].getAttribute("href"));
    }
  });

  // A list refresh that lands while a result is focused (typed, then Tab before the short
  // delay ran out) keeps the focus on the same result, or the first one, not on the page.
  // Moved back right after the swap, in the same task: a key pressed a moment later (Enter)
  // must find the result focused, not the page (settling waits a few milliseconds).
  let focusedPick = null;
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail && event.detail.target;
    if (!(target instanceof HTMLElement) || target.id !== "tree-list") return;
    const active = document.activeElement;
    focusedPick =
      active instanceof HTMLElement && active.matches("#tree-list [data-pick]")
        ? active.getAttribute("href")
        : null;
  });
  document.addEventListener("htmx:afterSwap", () => {
    if (!document.getElementById("tree-list")) return;
    const links = picks();
    const same = (href) => links.find((link) => link.getAttribute("href") === href) || links[0];
    if (waiting && listIsCurrent()) {
      const what = waiting;
      const href = waitingFor;
      waiting = waitingFor = null;
      focusedPick = null;
      if (what === "focus" && links.length) links[0].focus();
      else if (what === "open" && same(href)) same(href).click();
      else if (what === "enter" && onlyTree()) onlyTree().click();
      return;
    }
    if (focusedPick === null) return;
    const link = same(focusedPick);
    focusedPick = null;
    if (link) link.focus();
  });

  document.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-print]")) window.print();
  });
})();

// "Uitstellen" asks table and board: opening it puts the cursor in the first empty field, so
// a director types "5", Tab, "12", Enter.
document.querySelectorAll("details[data-defer]").forEach((details) => {
  details.addEventListener("toggle", () => {
    if (!details.open) return;
    const fields = [...details.querySelectorAll("input[type=number]")];
    (fields.find((field) => !field.value) || fields[0])?.focus();
  });
});

// On a phone the path of answers folds into its one-line summary, so the question and its
// answer buttons stay on the first screen (also after an htmx step swap); tapping the line
// opens it. Larger screens and pages without JavaScript keep it open.
const foldPath = () => {
  if (!window.matchMedia("(max-width: 767.98px)").matches) return;
  document.querySelectorAll("details[data-path-fold]").forEach((details) => { details.open = false; });
};
foldPath();
document.addEventListener("htmx:afterSettle", foldPath);
