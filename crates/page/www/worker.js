// The page's Web Worker (src/file_load/worker.rs). It loads the same wasm module as the page
// (which does not mount the app here: there is no window) and does one of two jobs, as the
// page's first message says (src/file_load/loader.rs starts a worker per job, ends it when done):
// - {file, format, module}: readFileInWorker reads the file piece by piece, parses and analyses
//   it, and posts progress and the result. For a long plain text it asks the page for the
//   text's gzip size ({kind: "gzip-needed", start, end}) and goes on with the rest of the
//   analysis; the page posts the answer back ({kind: "gzip-size", size}).
// - {kind: "gzip", file, start, end, module}: counts the gzip size of those bytes of the file
//   (gzipSizeInWorker) and posts {kind: "gzip-size", size}.
// Errors are posted as {kind: "error", message}. scripts/single-file.mjs builds the single
// file's classic worker from this file: keep the import on the first code line and `init(`.
import init, { readFileInWorker, gzipSizeInWorker } from "../pkg/coherency.js";

let ready = null;
let answerGzip = null;

onmessage = async ({ data }) => {
  if (data.kind === "gzip-size") {
    if (answerGzip) answerGzip(data.size);
    answerGzip = null;
    return;
  }
  try {
    ready ??= init({ module_or_path: data.module });
    await ready;
    if (data.kind === "gzip") {
      postMessage({ kind: "gzip-size", size: await gzipSizeInWorker(data.file, data.start, data.end) });
      return;
    }
    const askGzip = (start, end) =>
      new Promise((resolve) => {
        answerGzip = resolve;
        postMessage({ kind: "gzip-needed", start, end });
      });
    await readFileInWorker(data.file, data.format, (message, transfer) => postMessage(message, transfer), askGzip);
  } catch (e) {
    postMessage({ kind: "error", message: String((e && e.message) || e) });
  }
};
