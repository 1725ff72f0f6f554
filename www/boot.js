// Starts the wasm app (wasm-bindgen --target web output in ../pkg/, by relative paths, so any
// static host works), or says why it could not. A module loaded from the page's own origin, not
// inline: the Content-Security-Policy in index.html allows no inline script.
//
// The analysis worker's wasm (built for speed, pkg/coherency_analysis_bg.wasm) is fetched and
// compiled beside the page's, never before it: the first paint does not wait for it. Once
// compiled it is handed to every analysis worker (`globalThis.coherencyWorker.module`, read by
// src/file_load/loader.rs, which waits for `ready` when a job comes sooner), so no worker fetches
// or compiles it again.
import init from "../pkg/coherency.js";

init().catch((e) => {
  const box = document.getElementById("app");
  box.textContent = "";
  const p = document.createElement("p");
  p.className = "load-error";
  p.textContent = "The analyzer could not start (" + e + "). It needs a browser with WebAssembly, served over http(s).";
  box.append(p);
});

const analysis = new URL("../pkg/coherency_analysis_bg.wasm", import.meta.url);
const worker = (globalThis.coherencyWorker = {});
worker.ready = WebAssembly.compileStreaming(fetch(analysis))
  .catch(() => fetch(analysis).then((r) => r.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes)))
  .then((module) => (worker.module = module))
  .catch(() => undefined); // Then each worker fetches the module itself, and says so if it cannot.
