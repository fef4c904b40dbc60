// The running-count drill dealt at the player's pace (templates/trainer/counting/run.html).
// The page holds the whole deck in order, laid out, with a field for the count after each
// checkpoint's card: that is the drill without JavaScript. Here the deck is hidden and its
// groups shown one after another on a stage, each for the seconds the pace gives; at a
// checkpoint the deal waits for the count (Enter or "Go on"), and at the end the field
// for the final count appears with the focus in it. The fields stay in the one form.
(() => {
  const form = document.querySelector("[data-counting]");
  if (!form || form.dataset.laidOut === "true") return;
  const deck = form.querySelector("[data-counting-deck]");
  const stage = form.querySelector("[data-counting-stage]");
  const ask = form.querySelector("[data-counting-ask]");
  const status = form.querySelector("[data-counting-status]");
  const answer = form.querySelector("[data-counting-answer]");
  const milliseconds = parseFloat(form.dataset.seconds) * 1000;
  const items = [...deck.children];
  let next = 0;

  const finish = () => {
    stage.hidden = true;
    answer.hidden = false;
    status.textContent = form.dataset.done;
    answer.querySelector("input").focus();
  };

  const waitForCount = (item) => {
    stage.replaceChildren();
    ask.replaceChildren(item);
    ask.hidden = false;
    const input = item.querySelector("input");
    const goOn = item.querySelector("[data-go-on]");
    goOn.hidden = false;
    const resume = (event) => {
      event.preventDefault();
      input.removeEventListener("keydown", onKey);
      goOn.removeEventListener("click", resume);
      goOn.hidden = true;
      ask.hidden = true;
      deck.append(item); // back in the form's order, its count kept
      deal();
    };
    const onKey = (event) => {
      if (event.key === "Enter") resume(event); // the count given: deal on, not submit
    };
    input.addEventListener("keydown", onKey);
    goOn.addEventListener("click", resume);
    input.focus();
  };

  const deal = () => {
    if (next === 0) status.textContent = form.dataset.dealing;
    if (next >= items.length) {
      finish();
      return;
    }
    const item = items[next++];
    if (item.hasAttribute("data-checkpoint")) {
      waitForCount(item);
      return;
    }
    stage.replaceChildren(...[...item.children].map((card) => card.cloneNode(true)));
    setTimeout(deal, milliseconds);
  };

  deck.hidden = true;
  answer.hidden = true;
  stage.hidden = false;
  status.textContent = form.dataset.ready;
  setTimeout(deal, 1500);
})();
