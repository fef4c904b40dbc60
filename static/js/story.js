// A round told in order at the practice table ([data-story] regions): what a response
// adds appears step by step as its log tells it — each [data-step] element at its step,
// and each [data-before] element shows its old text (in its <strong>, if it has one) until
// its [data-until] step: the result and the new balance come when the story reaches them.
// With reduced motion, or without this script, everything shows at once.

// The pause between two steps, shortened so that no story takes longer than LONGEST_MS.
const PACE_MS = 350;
const LONGEST_MS = 6000;

function stepOf(element, name) {
  return Number(element.dataset[name]);
}

function tell(region) {
  region.dataset.told = "";
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const later = [...region.querySelectorAll("[data-step]")].filter((el) => stepOf(el, "step") > 0);
  const changing = [...region.querySelectorAll("[data-before][data-until]")];
  const last = Math.max(0, ...later.map((el) => stepOf(el, "step")),
    ...changing.map((el) => stepOf(el, "until")));
  if (last === 0) return;
  const pace = Math.min(PACE_MS, LONGEST_MS / last);
  for (const element of later) {
    element.classList.add("story-later");
    setTimeout(() => {
      element.classList.remove("story-later");
      element.classList.add("story-now");
    }, stepOf(element, "step") * pace);
  }
  for (const element of changing) {
    const target = element.querySelector("strong") ?? element;
    const after = target.textContent;
    target.textContent = element.dataset.before;
    setTimeout(() => {
      target.textContent = after;
    }, stepOf(element, "until") * pace);
  }
}

function tellNew() {
  document.querySelectorAll("[data-story]:not([data-told])").forEach(tell);
}

document.addEventListener("DOMContentLoaded", tellNew);
document.addEventListener("htmx:afterSwap", tellNew);
