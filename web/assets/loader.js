// Starts the page. Trunk's own loader is an inline script, which the Content-Security-Policy
// in index.html blocks, so Trunk injects nothing and this module does the same job.
// Paths are relative to this file, so the page works from any folder it is served from.
import init from './memdiag-web.js';

const wasm = new URL('./memdiag-web_bg.wasm', import.meta.url);
// The analysis runs in a worker with a wasm of its own, memdiag-engine (web/assets/worker.js).
globalThis.memdiagWorker = new URL('./worker.js', import.meta.url).href;

// Installable and offline: the service worker keeps the page's own files (web/assets/sw.js).
navigator.serviceWorker?.register('./sw.js').catch(() => {});

// The wasm memory is kept where the page benchmark (tests/e2e/bench.mjs) reads its size.
init({ module_or_path: wasm }).then((exports) => {
  globalThis.memdiagMemory = exports.memory;
}).catch((error) => {
  const message = document.getElementById('boot-message');
  if (message) {
    message.textContent =
      'The page could not start: ' + (error && error.message ? error.message : String(error)) +
      '. It needs a browser with WebAssembly (a current Chrome, Edge, Firefox or Safari).';
  }
  console.error(error);
});
