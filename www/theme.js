// Before the app starts: applies a remembered theme before the first paint (the app's toggle
// writes it), and makes the skip link take the focus to the text box (a fragment link alone
// only moves where Tab starts, and would replace a result link in the address). A classic
// script loaded from the page's own origin, not inline: the Content-Security-Policy in
// index.html allows no inline script.
try {
  const t = localStorage.getItem("coherency-theme");
  if (t === "light" || t === "dark") document.documentElement.dataset.theme = t;
} catch (e) {
  /* storage disabled (as on some file:// pages): follow the system */
}
document.addEventListener("click", (e) => {
  const link = e.target instanceof Element && e.target.closest("a.skip-link");
  const to = link && document.getElementById(link.hash.slice(1));
  if (to) {
    e.preventDefault();
    to.focus();
  }
});
