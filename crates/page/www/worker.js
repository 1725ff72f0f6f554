// The page's Web Worker: reads a dropped or chosen file off the main thread. It loads the same
// wasm module as the page (which does not mount the app here: there is no window) and calls
// readFileInWorker (src/app/worker.rs), which reads the file piece by piece, parses and analyses it,
// and posts progress and the result. The page starts one worker per file and ends it when done
// or cancelled (src/app/loader.rs).
import init, { readFileInWorker } from "../pkg/coherency.js";

const ready = init();

onmessage = async ({ data }) => {
  try {
    await ready;
    await readFileInWorker(data.file, data.format, (message, transfer) => postMessage(message, transfer));
  } catch (e) {
    postMessage({ kind: "error", message: String((e && e.message) || e) });
  }
};
