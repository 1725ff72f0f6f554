// Applies a remembered theme before the first paint (the app's toggle writes it). A classic
// script loaded from the page's own origin, not inline: the Content-Security-Policy in
// index.html allows no inline script.
try {
  const t = localStorage.getItem("coherency-theme");
  if (t === "light" || t === "dark") document.documentElement.dataset.theme = t;
} catch (e) {
  /* storage disabled (as on some file:// pages): follow the system */
}
