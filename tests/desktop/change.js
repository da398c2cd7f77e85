// Evaluated in the window (MEMORY_REVIEW_DESKTOP_TEST_JS) until it answers: the page heading, then it adds a
// memory the way a person would: Add memory, type the content, make sure the type is Preference, Save.
// Each step waits for what the one before it shows (the dialog, the type in its field), however long the
// server takes: under CI load the fixed pauses this had were sometimes too short, and the change never came.
(function () {
  const find = (selector, text) => [...document.querySelectorAll(selector)].find((e) => e.textContent.includes(text));
  const until = (step) =>
    new Promise((done) => {
      const look = () => {
        const found = step();
        if (found) done(found);
        else setTimeout(look, 250);
      };
      look();
    });
  const heading = document.querySelector('[role=heading][aria-level="1"]');
  if (!heading || !find("button", "Add memory")) return ""; // not drawn yet: asked again
  if (window.__changing) return document.title + " | " + heading.textContent;
  window.__changing = true;
  (async () => {
    await until(() => window.did_handshake); // a person's click comes after the page is connected
    find("button", "Add memory").click();
    const area = await until(() => document.querySelector(".q-dialog textarea"));
    area.value = "Prefers trail runs on Sundays";
    area.dispatchEvent(new Event("input", { bubbles: true }));
    // The type: suggested from the text a moment later, or chosen from its list (which the suggestion's
    // arrival may close again: then it is opened again).
    await until(() => {
      const type = document.querySelector(".q-dialog .q-select");
      if (!type) return false;
      const menu = document.querySelector(".q-menu");
      if (type.textContent.includes("Preference") && !menu) return true;
      const option = find(".q-menu .q-item", "Preference");
      if (option) option.click();
      else if (!menu) type.querySelector(".q-field__control").click();
      return false;
    });
    find(".q-dialog button", "Save").click();
  })();
  return document.title + " | " + heading.textContent;
})()
