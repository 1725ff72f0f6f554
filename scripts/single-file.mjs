// Writes dist/coherency-analyzer.html: the whole page (wasm, its JavaScript, the worker, styles,
// icon, the built-in samples) in one HTML file that runs opened from disk (file://), offline.
// Run by scripts/build-page after dist/ is built: node scripts/single-file.mjs dist
//
// A browser refuses from file:// what the served page does: fetching the wasm, and a worker
// loaded from a file URL. So the wasm travels gzipped and base64-encoded in the file, is
// inflated with DecompressionStream and compiled once; the app starts from the compiled
// module, and the file worker is a classic Worker made from a Blob URL, handed the same module
// with each file (the Rust loader reads `globalThis.coherencyWorker`). The wasm-bindgen glue is
// inlined as module code with its `export`s taken out.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { join } from "node:path";

const dist = process.argv[2] ?? "dist";
const read = (p) => readFileSync(join(dist, p), "utf8");

// The glue as plain module code: `export function f` → `function f`; the export list goes.
const glue = read("pkg/coherency.js")
  .replace(/^export (function|class|const|let) /gm, "$1 ")
  .replace(/^export \{[^}]*\};?\s*$/gm, "");
if (/^export /m.test(glue)) throw new Error("single-file: the glue still exports something");

// A classic worker (a module worker from a Blob URL does not start on a file:// page): no
// import.meta there — the worker is always handed the compiled module, so the default path the
// glue would build from it is never used.
const workerGlue = glue.replaceAll("import.meta.url", "self.location.href");
if (/\bimport\s*[.(]|^import /m.test(workerGlue)) throw new Error("single-file: the worker's glue imports");
// The worker's own code is www/worker.js, its import taken out and `init` being the glue's.
const workerImport = /^import init, \{[^}]*\} from "\.\.\/pkg\/coherency\.js";$/m;
const workerCode = read("www/worker.js");
if (!workerImport.test(workerCode) || !workerCode.includes("init({")) throw new Error("single-file: www/worker.js changed shape");
const worker = `${workerGlue}
${workerCode.replace(workerImport, "").replaceAll("init({", "__wbg_init({")}`;

const wasm = gzipSync(readFileSync(join(dist, "pkg/coherency_bg.wasm")), { level: 9 }).toString("base64");
const css = read("www/app.css");
const theme = read("www/theme.js");
const icon = Buffer.from(read("www/icon.svg")).toString("base64");

for (const [name, text] of [["glue", glue], ["worker", worker], ["styles", css], ["theme", theme]]) {
  if (/<\/(script|style)/i.test(text)) throw new Error(`single-file: the ${name} holds a closing tag`);
}

const boot = `${glue}
const fail = (e) => {
  const box = document.getElementById("app");
  box.textContent = "";
  const p = document.createElement("p");
  p.className = "load-error";
  p.textContent = "The analyzer could not start (" + e + "). It needs a browser with WebAssembly and DecompressionStream (Chromium 80, Firefox 113, Safari 16.4 or later).";
  box.append(p);
};
try {
  const base64 = document.getElementById("coherency-wasm").textContent.trim();
  const gz = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bytes = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  const module = await WebAssembly.compile(bytes);
  const workerSource = document.getElementById("coherency-worker").textContent;
  const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
  globalThis.coherencyWorker = { url, module, classic: true };
  await __wbg_init({ module_or_path: module });
} catch (e) {
  fail(e);
}
`;

// The served page's Content-Security-Policy (index.html), made to fit one file: its
// three inline blocks (the theme script, the boot module, the styles) allowed by their hashes,
// the icon as a data: URL, the worker from a Blob URL. Nothing else is loosened.
const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const served = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(read("index.html"));
if (!served) throw new Error("single-file: index.html has no Content-Security-Policy meta tag");
const policy = new Map(served[1].split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...v]) => [name, v]));
const changes = {
  "script-src": [sha256(theme), sha256(boot), "'wasm-unsafe-eval'"],
  "style-src": [sha256(css)],
  "img-src": ["data:"],
  "worker-src": ["blob:"],
};
for (const [name, values] of Object.entries(changes)) {
  if (!policy.has(name)) throw new Error(`single-file: the served policy has no ${name}`);
  policy.set(name, values);
}
const csp = [...policy].map(([name, values]) => [name, ...values].join(" ")).join("; ");

const page = `<!doctype html>
<!-- Coherency Analyzer, the whole page in one file: open it from disk, no server or network needed. Built by scripts/single-file.mjs. -->
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>Coherency Analyzer</title>
  <meta name="description" content="Catch repetition collapse (loops) in LLM output, in your browser.">
  <link rel="icon" href="data:image/svg+xml;base64,${icon}">
  <style>${css}</style>
  <script>${theme}</script>
  <script type="text/plain" id="coherency-worker">${worker}</script>
  <script type="application/octet-stream" id="coherency-wasm">${wasm}</script>
  <script type="module">${boot}</script>
</head>
<body>
  <a class="skip-link" href="#input">Skip to the text box</a>
  <div id="app">
    <p class="loading">Loading the analyzer…</p>
    <noscript><p class="load-error">Coherency Analyzer runs in your browser and needs JavaScript and WebAssembly.</p></noscript>
  </div>
</body>
</html>
`;
writeFileSync(join(dist, "coherency-analyzer.html"), page);
const gzipped = gzipSync(Buffer.from(page), { level: 9 }).length;
console.log(`single-file: ${join(dist, "coherency-analyzer.html")} is ${page.length} bytes (${gzipped} gzipped)`);
