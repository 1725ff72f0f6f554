// Writes dist/coherency-analyzer.html: the whole page (wasm, its JavaScript, the worker, styles,
// icon, the built-in samples) in one HTML file that runs opened from disk (file://), offline.
// Run by scripts/build-page after dist/ is built: node scripts/single-file.mjs dist
//
// A browser refuses from file:// what the served page does: fetching the wasm, and a worker
// loaded from a file URL. So both wasm modules (the page's and the analysis worker's) travel
// gzipped and base64-encoded in the file, are inflated with DecompressionStream and compiled
// side by side; the app starts from the page's compiled module as soon as it is ready (the
// analysis module never delays it), and the analysis worker is a classic Worker made from a Blob
// URL, handed the analysis module with each job (the Rust loader reads
// `globalThis.coherencyWorker`). The page's wasm-bindgen glue is inlined as module code with its
// `export`s taken out; the analysis glue goes into the worker's source.
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { createHash } from "node:crypto";
import { join } from "node:path";

const dist = process.argv[2] ?? "dist";
const read = (p) => readFileSync(join(dist, p), "utf8");

// A glue as plain module code: `export function f` → `function f`; the export list goes.
const unexported = (path) => {
  const code = read(path)
    .replace(/^export (function|class|const|let) /gm, "$1 ")
    .replace(/^export \{[^}]*\};?\s*$/gm, "");
  if (/^export /m.test(code)) throw new Error(`single-file: ${path} still exports something`);
  return code;
};
const glue = unexported("pkg/coherency.js");

// A classic worker (a module worker from a Blob URL does not start on a file:// page): no
// import.meta there — the worker is always handed the compiled module, so the default path the
// glue would build from it is never used.
const workerGlue = unexported("pkg/coherency_analysis.js").replaceAll("import.meta.url", "self.location.href");
if (/\bimport\s*[.(]|^import /m.test(workerGlue)) throw new Error("single-file: the worker's glue imports");
// The worker's own code is www/worker.js, its import taken out and `init` being the glue's.
const workerImport = /^import init, \{[^}]*\} from "\.\.\/pkg\/coherency_analysis\.js";$/m;
const workerCode = read("www/worker.js");
if (!workerImport.test(workerCode) || !workerCode.includes("init({")) throw new Error("single-file: www/worker.js changed shape");
const worker = `${workerGlue}
${workerCode.replace(workerImport, "").replaceAll("init({", "__wbg_init({")}`;

const packed = (path) => gzipSync(readFileSync(join(dist, path)), { level: 9 }).toString("base64");
const wasm = packed("pkg/coherency_bg.wasm");
const analysisWasm = packed("pkg/coherency_analysis_bg.wasm");
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
const compile = async (id) => {
  const base64 = document.getElementById(id).textContent.trim();
  const gz = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bytes = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  return WebAssembly.compile(bytes);
};
try {
  const workerSource = document.getElementById("coherency-worker").textContent;
  const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
  const worker = (globalThis.coherencyWorker = { url, classic: true });
  const page = compile("coherency-wasm");
  worker.ready = compile("coherency-analysis-wasm").then((module) => (worker.module = module), () => undefined);
  await __wbg_init({ module_or_path: await page });
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
  <meta name="description" content="Catch repetition collapse and incoherence in LLM output, in your browser.">
  <link rel="icon" href="data:image/svg+xml;base64,${icon}">
  <style>${css}</style>
  <script>${theme}</script>
  <script type="text/plain" id="coherency-worker">${worker}</script>
  <script type="application/octet-stream" id="coherency-wasm">${wasm}</script>
  <script type="application/octet-stream" id="coherency-analysis-wasm">${analysisWasm}</script>
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
