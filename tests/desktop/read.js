// Evaluated in the window until it answers: once the page has been drawn, its heading and its text.
(function () {
  const heading = document.querySelector('[role=heading][aria-level="1"]');
  const text = document.body.textContent.replace(/\s+/g, " ");
  if (!heading || !text.includes("Memories")) return "";
  return document.title + " | " + heading.textContent + " | " + text;
})()
