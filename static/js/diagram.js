// Tree diagram zoom and "show this node" (progressive enhancement). Without JavaScript the
// diagram fits its box by CSS and the highlighted node is marked by the server.
(() => {
  const STEP = 1.25;
  const MAX_SCALE = 2;

  const setUp = (box) => {
    const svg = box.querySelector("svg.tree-diagram");
    if (!svg) return;
    const natural = svg.viewBox.baseVal.width;
    const controls = document.querySelector("[data-diagram-zoom]");
    const level = document.querySelector("[data-zoom-level]");
    const scale = () => svg.getBoundingClientRect().width / natural;
    // Smaller than the box is never useful: "fit" is as far out as one can zoom.
    const fitScale = () => Math.min(1, box.clientWidth / natural);

    // Zoom around the point at the centre of the box, so what one looks at stays in view.
    const zoom = (next) => {
      const before = scale();
      const centreX = (box.scrollLeft + box.clientWidth / 2) / before;
      const centreY = (box.scrollTop + box.clientHeight / 2) / before;
      if (next === null) {
        svg.style.removeProperty("width");
        svg.style.removeProperty("max-width");
      } else {
        svg.style.maxWidth = "none";
        svg.style.width = `${Math.round(natural * next)}px`;
      }
      const now = scale();
      box.scrollLeft = centreX * now - box.clientWidth / 2;
      box.scrollTop = centreY * now - box.clientHeight / 2;
      svg.dataset.scale = now.toFixed(3);
      if (level) level.textContent = `${Math.round(now * 100)}%`;
    };

    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", (event) => {
        const button = event.target.closest("[data-zoom]");
        if (!button) return;
        const action = button.dataset.zoom;
        if (action === "fit") zoom(null);
        else if (action === "in") zoom(Math.min(MAX_SCALE, scale() * STEP));
        else zoom(Math.max(fitScale(), scale() / STEP));
      });
    }

    // A node to show (?node=): at natural size, centred in the box and on the screen.
    const marked = svg.querySelector(".node.highlight");
    if (marked) {
      zoom(1);
      marked.scrollIntoView({ block: "center", inline: "center" });
    } else {
      zoom(null);
    }
  };

  document.querySelectorAll("[data-diagram]").forEach(setUp);
  document.querySelectorAll("[data-print-diagram]").forEach((button) => {
    button.hidden = false;
    button.addEventListener("click", () => window.print());
  });
})();
