// Starts the analysis worker: the engine's own wasm (bin memdiag-engine), whose `main` answers
// the page's messages (web/src/engine/worker.rs). Messages that arrive while the wasm loads wait
// in `memdiagQueued`; a crash the wasm cannot report itself is posted as `crashed` (its
// kind's place in web/src/wire/messages.rs's `ToPage`).
import init from './memdiag-engine.js';

self.memdiagQueued = [];
self.onmessage = (event) => self.memdiagQueued.push(event);

const crashed = (message) => self.postMessage({ type: 0 /* ToPage::Crashed */, message: String(message) });
self.addEventListener('error', (event) => crashed(event.message || 'the worker stopped'));
self.addEventListener('unhandledrejection', (event) => {
  const reason = event.reason;
  crashed(reason && reason.message ? reason.message : reason);
});

// The wasm memory is kept where the page benchmark (tests/e2e/bench.mjs) reads its size.
init({ module_or_path: new URL('./memdiag-engine_bg.wasm', import.meta.url) })
  .then((exports) => { self.memdiagMemory = exports.memory; })
  .catch((error) =>
    crashed('the analysis could not start: ' + (error && error.message ? error.message : error)),
  );
