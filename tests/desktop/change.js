// Evaluated in the window (MEMORY_REVIEW_DESKTOP_TEST_JS) until it answers: the page heading, then it adds a
// memory the way a person would: Add memory, type the content, pick the type, Save.
(function () {
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const find = (selector, text) => [...document.querySelectorAll(selector)].find((e) => e.textContent.includes(text));
  const heading = document.querySelector('[role=heading][aria-level="1"]');
  if (!heading || !find("button", "Add memory")) return ""; // not drawn yet: asked again
  (async () => {
    find("button", "Add memory").click();
    await sleep(1000);
    const area = document.querySelector(".q-dialog textarea");
    area.value = "Prefers trail runs on Sundays";
    area.dispatchEvent(new Event("input", { bubbles: true }));
    document.querySelector(".q-dialog .q-select .q-field__control").click();
    await sleep(1000);
    find(".q-menu .q-item", "Preference").click();
    await sleep(600);
    find(".q-dialog button", "Save").click();
  })();
  return document.title + " | " + heading.textContent;
})()
