// Evaluated in the window until it answers: opens the account page from the header, runs the audit
// check there like a person would, and answers with what the page then says.
(function () {
  const text = () => document.body.textContent.replace(/\s+/g, " ");
  if (location.pathname !== "/account") {
    const link = document.querySelector('button[aria-label="Your account"]');
    if (link) link.click();
    return "";
  }
  const check = [...document.querySelectorAll("button")].find((b) => b.textContent.includes("Check now"));
  if (!check) return "";
  if (!window.__checked) {
    window.__checked = true;
    check.click();
    return "";
  }
  if (!text().includes("Audit chain verified")) return "";
  return document.title + " | " + text();
})()
