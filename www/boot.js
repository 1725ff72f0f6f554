// Starts the wasm app (wasm-bindgen --target web output in ../pkg/, by relative paths, so any
// static host works), or says why it could not. A module loaded from the page's own origin, not
// inline: the Content-Security-Policy in index.html allows no inline script.
import init from "../pkg/coherency.js";

init().catch((e) => {
  const box = document.getElementById("app");
  box.textContent = "";
  const p = document.createElement("p");
  p.className = "load-error";
  p.textContent = "The analyzer could not start (" + e + "). It needs a browser with WebAssembly, served over http(s).";
  box.append(p);
});
