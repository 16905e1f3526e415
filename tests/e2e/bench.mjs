// Browser timing harness for the built page (dist/): how long the page takes from a folder or
// a zip being handed over to a settled report, for synthetic ~/.claude folders of a given
// size. Not a test (no assertions on times: speed is measured here, never in timed tests), and
// not run by `node --test tests/e2e/` (its name matches none of the test-file patterns).
//
// Run by hand after a release build (`bash scripts/serve.sh` builds dist/, or
// `trunk build --release`):
//
//   node tests/e2e/bench.mjs [--files 3000,30000,300000] [--runs 3] [--sparse-kb 64]
//                            [--project-share 0.43] [--keep] [--trees-only DIR]
//                            [--baseline OTHER_DIST] [--one-folder 100000]
//
// It honours the environment of the end-to-end tests (MEMDIAG_DIST, MEMDIAG_PLAYWRIGHT,
// MEMDIAG_CHROMIUM, MEMDIAG_E2E_ARTIFACTS, MEMDIAG_BASE_URL; see scripts/test.sh).
//
// For each total file count it writes, in a temp dir, a ~/.claude shaped like a real one: ~50
// project folders under projects/ holding many small `.jsonl` transcripts (where a real
// ~/.claude's file count comes from), three of them with a memory/ folder (MEMORY.md and
// topic files: one heavy, 150 topics and an index past its 200-line cap, two small); todos/, file-history/ and shell-snapshots/
// with small files; CLAUDE.md, settings.json, agents/, rules/, skills/, agent-memory/; and
// beside it a project folder of --project-share times as many entries (0.43: the 30,000 +
// 13,000 of issue 13), most of them in node_modules/ and dist/. Then, each time in a fresh page (`?empty`):
//
//   folder  the ~/.claude through the folder input. `setInputFiles` wall time (includes
//           Chromium's own enumeration of the folder, ~0.55 ms a file here, which the page
//           cannot change, and the page's synchronous change handler), and the page-owned
//           time: from the input's `change` event to a settled report, both timestamps taken
//           in the page with performance.now() (a capture-phase listener and a
//           MutationObserver on the app's data-busy/data-run). Then the project folder on top
//           (the second run, with the whole ~/.claude listed), change to settled.
//   zip     a zip of the same ~/.claude (stored) through the zip input, change to settled;
//           then a zip of the project on top (the second run, as with folders).
//
// It also records what the page's progress line (data-testid=progress) last said while busy:
// files listed, files read and bytes read, and the long tasks (main thread busy > 50 ms) in
// the page-owned window. Each measurement runs --runs times (default 3); the table shows
// medians, and tests/e2e/artifacts/bench.json holds every run.
//
// Transcripts are sparse files of --sparse-kb KB each (default 64; 0 writes small real ones),
// so a 300,000-entry tree holds gigabytes of transcripts and almost nothing on disk. The zip
// leaves them out, as the README's zip command does (past 65,535 entries the support zip writer
// writes zip64 end records). For every drop it also prints the bytes the page read from
// `File`s (counted by wrapping Blob.arrayBuffer/text/stream in the page and in its worker)
// against the bytes of the files that matter (what the analysis was handed), the main
// thread's JS heap and the wasm memory of the page and of its analysis worker, and between
// consecutive sizes the ratio of page time to the ratio of entries.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { artifacts, dist, serve, serveDist, launchWithProfile, watch, zipFolder, chromiumPath } from './support.mjs';

const { values: options } = parseArgs({
  options: {
    files: { type: 'string', default: '3000,30000,300000' },
    runs: { type: 'string', default: '3' },
    'sparse-kb': { type: 'string', default: '64' },
    'project-share': { type: 'string', default: '0.43' },
    keep: { type: 'boolean', default: false },
    // Only write the trees into this folder (tree-<size>/) and stop: for the native
    // benchmark, scripts/bench-native.sh.
    'trees-only': { type: 'string' },
    // Another build of the page (main's dist/, say) to time in the same runs, each of its
    // drops just before the same drop on this one, so that both see the same load.
    baseline: { type: 'string' },
    // Trace the first run of this build's drops with Chromium's sampling profiler (page and
    // worker threads), write each trace to artifacts/, and print where the page-owned time
    // went. Build the page with names for a readable profile (see the README's benchmarks).
    profile: { type: 'boolean', default: false },
    // Issue 32's hostile folder: this many more rules in the project's one .claude/rules/
    // folder (`--files 3000 --one-folder 100000`), a tenth of them conditional.
    'one-folder': { type: 'string', default: '0' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log('usage: node tests/e2e/bench.mjs [--files 3000,30000,300000] [--runs 3] [--sparse-kb 64] [--project-share 0.43] [--keep] [--baseline DIST] [--profile]');
  process.exit(0);
}
const sizes = options.files.split(',').map((s) => Number(s.replace(/[_\s]/g, ''))).filter((n) => n > 0);
const runs = Math.max(1, Number(options.runs) || 3);
const sparseBytes = Math.max(0, Number(options['sparse-kb']) || 0) * 1024;
// The project's entries as a share of the ~/.claude's (30,000 + 13,000 in issue 13).
const projectShare = Math.max(0, Number(options['project-share']) || 0);
if (sizes.length === 0) throw new Error(`--files: no sizes in "${options.files}"`);
if (!options['trees-only'] && !fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`no built page in ${dist}: run \`trunk build --release\` (or bash scripts/serve.sh) first`);
  process.exit(1);
}

// ---- a synthetic ~/.claude -------------------------------------------------------------------

const HOME = '/home/bench';
const USER_DIR = HOME.slice(1);
/** Projects with an auto memory folder: topic files, and lines in its MEMORY.md. */
const MEMORY_PROJECTS = [['app', 150, 210], ['api', 12, 25], ['site', 4, 6]];

/** A small deterministic generator, so that every run writes the same bytes. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function writer(root) {
  let count = 0;
  const made = new Set();
  const dir = (folder) => {
    if (!made.has(folder)) { fs.mkdirSync(folder, { recursive: true }); made.add(folder); }
  };
  const write = (rel, body) => {
    const file = path.join(root, rel);
    dir(path.dirname(file));
    fs.writeFileSync(file, body);
    count += 1;
  };
  /** A file of `size` bytes that takes no disk: a hole. */
  const sparse = (rel, size) => {
    const file = path.join(root, rel);
    dir(path.dirname(file));
    const fd = fs.openSync(file, 'w');
    fs.ftruncateSync(fd, size);
    fs.closeSync(fd);
    count += 1;
  };
  return { write, sparse, count: () => count };
}

/**
 * Writes `<base>/home/bench/.claude` holding exactly `total` files (or the fixed ones, when
 * `total` is smaller) and a project folder `<base>/home/bench/work/app`.
 */
function generate(base, total) {
  const random = rng(total);
  const hex = (n) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  const filler = (bytes) => {
    const words = ['the', 'build', 'test', 'fixed', 'review', 'module', 'error', 'config', 'deploy', 'cache'];
    let s = '';
    while (s.length < bytes) s += `${words[Math.floor(random() * words.length)]} `;
    return s.slice(0, bytes);
  };

  const claude = path.join(base, USER_DIR, '.claude');
  const project = path.join(base, USER_DIR, 'work', 'app');
  const c = writer(claude);

  // What is always loaded or may be: the user files.
  c.write('CLAUDE.md', `# Me\n\n${Array.from({ length: 40 }, (_, i) => `- preference ${i}: ${filler(60)}`).join('\n')}\n`);
  c.write('settings.json', `${JSON.stringify({ model: 'opus', permissions: { allow: ['Bash(npm test)'] } }, null, 2)}\n`);
  c.write('agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews diffs\n---\nReview carefully.\n');
  for (const name of ['python', 'commits', 'testing', 'security']) {
    c.write(`rules/${name}.md`, `# ${name}\n\n${filler(400)}\n`);
  }
  for (const name of ['deploy', 'standup', 'release']) {
    c.write(`skills/${name}/SKILL.md`, `---\nname: ${name}\ndescription: How to ${name}\n---\n${filler(600)}\n`);
    c.write(`skills/${name}/reference.md`, `# ${name} reference\n\n${filler(900)}\n`);
  }
  c.write('agent-memory/reviewer/MEMORY.md', '- [Checklist](notes.md) what to look at first\n');
  c.write('agent-memory/reviewer/notes.md', `${filler(300)}\n`);
  c.write('agent-memory/planner/MEMORY.md', '- plans start from the issue, not the code\n');

  // The auto memories: a heavy one whose MEMORY.md is past its 200-line cap, two small ones.
  for (const [name, topics, lines] of MEMORY_PROJECTS) {
    const folder = `projects/-${USER_DIR.replace(/\//g, '-')}-work-${name}/memory`;
    const index = Array.from({ length: lines }, (_, i) => `- [Note ${i}](topic-${i % topics}.md) what was learned, entry ${i}`);
    c.write(`${folder}/MEMORY.md`, `${index.join('\n')}\n`);
    for (let t = 0; t < topics; t++) {
      c.write(`${folder}/topic-${t}.md`, `---\nname: topic ${t}\ndescription: notes on topic ${t}\ntype: project\n---\n${filler(500)}\n`);
    }
  }

  // The bulk: transcripts in ~50 project folders, then file history, todos, shell snapshots.
  const bulk = Math.max(0, total - c.count());
  const counts = {
    transcripts: Math.round(bulk * 0.75),
    fileHistory: Math.round(bulk * 0.15),
    todos: Math.round(bulk * 0.07),
  };
  counts.shellSnapshots = bulk - counts.transcripts - counts.fileHistory - counts.todos;
  const projects = [
    ...MEMORY_PROJECTS.map(([name]) => `-${USER_DIR.replace(/\//g, '-')}-work-${name}`),
    ...Array.from({ length: 44 }, (_, i) => `-${USER_DIR.replace(/\//g, '-')}-work-repo-${String(i).padStart(2, '0')}`),
    '-tmp', '-home-bench', `-${USER_DIR.replace(/\//g, '-')}-Downloads-scratch`,
  ];
  for (let i = 0; i < counts.transcripts; i++) {
    // Skewed: the first projects hold most sessions, as a real history does.
    const p = projects[Math.min(projects.length - 1, Math.floor(projects.length * random() ** 2))];
    if (sparseBytes > 0) {
      c.sparse(`projects/${p}/${uuid()}.jsonl`, sparseBytes);
      continue;
    }
    const lines = 2 + Math.floor(random() * 6);
    const body = Array.from({ length: lines }, (_, n) => JSON.stringify({
      type: n % 2 ? 'assistant' : 'user',
      uuid: uuid(),
      timestamp: '2026-10-01T10:00:00.000Z',
      message: { role: n % 2 ? 'assistant' : 'user', content: filler(100 + Math.floor(random() * 400)) },
    })).join('\n');
    c.write(`projects/${p}/${uuid()}.jsonl`, `${body}\n`);
  }
  let session = uuid();
  for (let i = 0; i < counts.fileHistory; i++) {
    if (i % 8 === 0) session = uuid();
    c.write(`file-history/${session}/${hex(16)}@v${1 + (i % 3)}`, `${filler(200 + Math.floor(random() * 800))}\n`);
  }
  for (let i = 0; i < counts.todos; i++) {
    const id = uuid();
    c.write(`todos/${id}-agent-${id}.json`, i % 3 ? '[]' : JSON.stringify([{ content: filler(40), status: 'completed' }]));
  }
  for (let i = 0; i < counts.shellSnapshots; i++) {
    c.write(`shell-snapshots/snapshot-bash-${1760000000000 + i * 1000}-${hex(6)}.sh`, `# snapshot\nexport PATH=/usr/bin\n${filler(300)}\n`);
  }

  // The project, beside the ~/.claude.
  const p = writer(project);
  p.write('.git/HEAD', 'ref: refs/heads/main\n');
  p.write('CLAUDE.md', `# App\n\nSee @docs/architecture.md\n\n${filler(800)}\n`);
  p.write('CLAUDE.local.md', `# Local\n\n${filler(200)}\n`);
  p.write('.claude/settings.json', '{}\n');
  p.write('.claude/rules/testing.md', `---\npaths:\n  - "src/**/*.ts"\n---\n${filler(300)}\n`);
  for (const doc of ['architecture', 'runbook', 'errors']) p.write(`docs/${doc}.md`, `# ${doc}\n\n${filler(1500)}\n`);
  for (let i = 0; i < 10; i++) p.write(`src/module-${i}.ts`, `export const value${i} = ${i};\n`);
  p.write('package.json', '{ "name": "app" }\n');
  const oneFolder = Math.max(0, Number(options['one-folder']) || 0);
  for (let i = 0; i < oneFolder; i++) {
    p.write(`.claude/rules/r${i}.md`, i % 10 === 9 ? `---\npaths: src/m${i}/**/*.ts\n---\nrule ${i}\n` : `rule ${i}\n`);
  }
  // The bulk of a real project: dependencies and build output, in folders of ~40 files (the
  // analysis walks them for nested CLAUDE.md files and matches rule globs against them).
  const projectBulk = Math.max(0, Math.round(total * projectShare) - p.count());
  for (let i = 0; i < projectBulk; i++) {
    const pkg = `pkg-${String(Math.floor(i / 40)).padStart(4, '0')}`;
    const top = i % 5 === 4 ? 'dist' : 'node_modules';
    const name = i % 7 === 0 ? `README.md` : `lib/file-${i % 40}.js`;
    p.write(`${top}/${pkg}/${i % 7 === 0 ? `${i}-${name}` : name}`, `// ${i}\n`);
  }

  return { claude, project, files: c.count(), projectFiles: p.count(), counts };
}

// ---- measuring in the page ---------------------------------------------------------------------

/**
 * Installs the probe: a capture-phase `change` listener on the document (it runs before the
 * page's own handler) and MutationObservers on the app's data-busy/data-run and on the status
 * line, all stamping performance.now(). `window.__bench.arm()` starts a measurement.
 */
function installProbe() {
  const app = document.querySelector('[data-testid=app]');
  const status = document.querySelector('[data-testid=status]');
  const fresh = () => ({
    armed: false, startRun: 0, change: null, busy: null, busyFrame: null, settled: null, settledRun: null, painted: null,
    progress: [], summary: null, error: null,
  });
  const b = Object.assign(fresh(), { longTasks: [] });
  window.__bench = b;
  b.arm = () => Object.assign(b, fresh(), { armed: true, startRun: Number(app.dataset.run) });
  document.addEventListener('change', (e) => {
    if (b.armed && b.change === null && e.target instanceof HTMLInputElement && e.target.type === 'file') {
      b.change = performance.now();
      performance.mark('bench-change');
    }
  }, true);
  const check = () => {
    if (!b.armed || b.change === null) return;
    const now = performance.now();
    const p = document.querySelector('[data-testid=progress]');
    if (p) {
      const seen = {
        t: now - b.change,
        entries: Number(p.dataset.entries),
        filesRead: Number(p.dataset.filesRead),
        bytesRead: Number(p.dataset.bytesRead),
      };
      const last = b.progress.at(-1);
      if (!last || last.entries !== seen.entries || last.filesRead !== seen.filesRead || last.bytesRead !== seen.bytesRead) {
        b.progress.push(seen);
      }
    }
    const busy = app.dataset.busy === 'true';
    if (busy) {
      if (b.busy === null) {
        b.busy = now;
        // The frame that shows it: an animation frame's callback runs just before its paint.
        // (A task after it would wait behind Chromium's tasks for the chosen files.)
        requestAnimationFrame(() => { if (b.busyFrame === null) b.busyFrame = performance.now(); });
      }
      b.settled = null; // a run that starts again after a settle has not settled yet
      b.painted = null;
    } else if (Number(app.dataset.run) > b.startRun && b.settled === null) {
      b.settled = now;
      performance.mark('bench-settled');
      b.settledRun = Number(app.dataset.run);
      b.summary = document.querySelector('[data-testid=summary]')?.textContent ?? null;
      b.error = document.querySelector('[data-testid=error]')?.textContent ?? null;
      // The frame that shows it: after the next animation frame's work.
      requestAnimationFrame(() => setTimeout(() => { if (b.settled !== null) b.painted = performance.now(); }, 0));
    }
  };
  new MutationObserver(check).observe(app, { attributes: true, attributeFilter: ['data-busy', 'data-run'] });
  new MutationObserver(check).observe(status, { attributes: true, childList: true, subtree: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask' });
  } catch {
    // no long task timing in this browser
  }
}

/**
 * Counts the bytes read from `Blob`s (a dropped `File` is one) in the page and in its workers:
 * installed before any script runs, as an init script.
 */
function countBlobReads() {
  const scope = globalThis;
  scope.__blobBytes = 0;
  for (const name of ['arrayBuffer', 'text', 'stream']) {
    const original = Blob.prototype[name];
    Blob.prototype[name] = function read(...args) {
      scope.__blobBytes += this.size;
      return original.apply(this, args);
    };
  }
}

/** The main thread's JS heap and the wasm memory of the page and its workers, in bytes. */
async function memory(page) {
  const main = await page.evaluate(() => ({
    jsHeap: performance.memory ? performance.memory.usedJSHeapSize : null,
    wasm: globalThis.memdiagMemory ? globalThis.memdiagMemory.buffer.byteLength : null,
    blobBytes: globalThis.__blobBytes ?? 0,
  }));
  let workerWasm = null;
  let workerBlobBytes = 0;
  for (const worker of page.workers()) {
    const w = await worker.evaluate(() => ({
      wasm: globalThis.memdiagMemory ? globalThis.memdiagMemory.buffer.byteLength : null,
      blobBytes: globalThis.__blobBytes ?? 0,
    })).catch(() => null);
    if (w) { workerWasm = (workerWasm ?? 0) + (w.wasm ?? 0); workerBlobBytes += w.blobBytes; }
  }
  return { ...main, workerWasm, blobBytes: main.blobBytes + workerBlobBytes };
}

/**
 * Starts tracing `page`'s renderer with V8's sampling profiler (every thread: the page's and
 * its worker's); `stop()` ends it and resolves to the trace events.
 */
async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      // MEMDIAG_TRACE_CATEGORIES adds categories for a look by hand (e.g. `devtools.timeline`
      // for style, layout and the tasks around the samples).
      includedCategories: ['disabled-by-default-v8.cpu_profiler', 'blink.user_timing', '__metadata',
        ...(process.env.MEMDIAG_TRACE_CATEGORIES ?? '').split(',').filter(Boolean)],
      excludedCategories: ['*'],
    },
  });
  return {
    stop: async () => {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => {});
      return events;
    },
  };
}

/**
 * Where the sampled time between the page's `bench-change` and last `bench-settled` marks
 * went, per thread: the functions with the most self time, and what kind of code they are
 * (wasm, JS, garbage collection, idle).
 */
function profileSummary(events) {
  const threads = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const mark = (name) => events.filter((e) => e.name === name && e.cat?.includes('user_timing')).map((e) => e.ts);
  const from = Math.min(...mark('bench-change'));
  const until = Math.max(...mark('bench-settled'));
  // Chunks belong to a profile by id; the `Profile` event says which thread it samples.
  const profiles = new Map();
  for (const e of events) {
    if (e.name === 'Profile') {
      profiles.set(`${e.pid}:${e.id}`, { thread: threads.get(`${e.pid}:${e.tid}`) ?? `tid ${e.tid}`, t: e.args.data.startTime, nodes: new Map(), self: new Map() });
    }
  }
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p) continue;
    const data = e.args.data;
    for (const node of data.cpuProfile?.nodes ?? []) p.nodes.set(node.id, node.callFrame);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      p.t += deltas[i] ?? 0;
      const weight = deltas[i + 1] ?? 0;
      if (p.t < from || p.t > until || weight <= 0) continue;
      p.self.set(samples[i], (p.self.get(samples[i]) ?? 0) + weight);
    }
  }
  const out = [];
  for (const p of profiles.values()) {
    const byName = new Map();
    const kinds = new Map();
    let total = 0;
    for (const [id, us] of p.self) {
      const frame = p.nodes.get(id) ?? { functionName: '?' };
      const name = frame.functionName || `(anonymous ${path.basename(frame.url || '?')}:${frame.lineNumber})`;
      const kind = name.startsWith('(') ? name.replace(/^\((anonymous).*/, '(js)')
        : frame.url?.endsWith('.wasm') || /^\$|wasm-function/.test(name) || (frame.url ?? '').includes('wasm://') ? 'wasm' : 'js';
      byName.set(name, (byName.get(name) ?? 0) + us);
      kinds.set(kind, (kinds.get(kind) ?? 0) + us);
      total += us;
    }
    if (total === 0) continue;
    out.push({
      thread: p.thread,
      totalMs: total / 1000,
      kinds: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000])),
      top: [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([name, us]) => [name, us / 1000]),
    });
  }
  return { windowMs: (until - from) / 1000, threads: out };
}

/** Hands `target` to the input `selector` and waits for the page to settle. */
async function upload(page, selector, target, traceAs = null) {
  const trace = traceAs ? await startTrace(page) : null;
  await page.evaluate(() => window.__bench.arm());
  const readBefore = (await memory(page)).blobBytes;
  // Epoch milliseconds on both sides (same machine), for the wait as a person sees it.
  const startEpoch = performance.timeOrigin + performance.now();
  const start = performance.now();
  await page.setInputFiles(selector, target);
  const wallMs = performance.now() - start;
  // Settled, and still settled a moment later (no run started again).
  let settledRun = null;
  for (;;) {
    await page.waitForFunction(() => window.__bench.settled !== null && window.__bench.painted !== null, null, { timeout: 0, polling: 50 });
    const now = await page.evaluate(() => window.__bench.settledRun);
    if (now === settledRun) break;
    settledRun = now;
    await page.waitForTimeout(500);
  }
  const b = await page.evaluate(() => {
    const x = window.__bench;
    const longTaskMs = x.longTasks
      .filter(([start, duration]) => start + duration > x.change && start < x.settled)
      .reduce((sum, [start, duration]) => sum + Math.min(start + duration, x.settled) - Math.max(start, x.change), 0);
    return {
      settledEpoch: performance.timeOrigin + x.settled,
      changeToBusyMs: x.busy === null ? null : x.busy - x.change,
      changeToBusyFrameMs: x.busyFrame === null ? null : x.busyFrame - x.change,
      changeToSettledMs: x.settled - x.change,
      changeToPaintedMs: x.painted - x.change,
      longTaskMs,
      progress: x.progress,
      summary: x.summary,
      error: x.error,
    };
  });
  const last = b.progress.at(-1) ?? {};
  const { settledEpoch, ...rest } = b;
  // Where the worker's run went (web/src/engine/worker.rs): taking in the listings, mounting,
  // the core's turns, waiting for reads, the share basis; and the page's posting and
  // taking in the answer.
  const workerPhases = await page.evaluate(() => {
    const p = globalThis.memdiagPhases;
    globalThis.memdiagPhases = undefined;
    return p ? { ...p } : null;
  });
  const after = await memory(page);
  let profile = null;
  if (trace) {
    const events = await trace.stop();
    fs.mkdirSync(artifacts, { recursive: true });
    fs.writeFileSync(path.join(artifacts, `trace-${traceAs}.json`), JSON.stringify({ traceEvents: events }));
    profile = profileSummary(events);
    console.error(`  profile ${traceAs}: ${profile.windowMs.toFixed(0)} ms from change to settled`);
    for (const t of profile.threads) {
      console.error(`    ${t.thread}: ${t.totalMs.toFixed(0)} ms sampled; ${Object.entries(t.kinds).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
      for (const [name, v] of t.top.slice(0, 15)) console.error(`      ${v.toFixed(1).padStart(7)} ms  ${name.slice(0, 110)}`);
    }
  }
  return {
    profile,
    blobBytesRead: after.blobBytes - readBefore,
    jsHeapBytes: after.jsHeap,
    wasmBytes: after.wasm,
    workerWasmBytes: after.workerWasm,
    wallMs,
    totalMs: settledEpoch - startEpoch,
    ...rest,
    workerPhases,
    filesListed: last.entries ?? null,
    filesRead: last.filesRead ?? null,
    bytesRead: last.bytesRead ?? null,
    firstProgressMs: b.progress[0]?.t ?? null,
    lastProgressMs: last.t ?? null,
  };
}

/** A fresh empty page with the probe installed. */
async function freshPage(context, baseUrl) {
  const page = await context.newPage();
  page.setDefaultTimeout(0);
  await page.addInitScript(countBlobReads);
  page.on('worker', (worker) => worker.evaluate(countBlobReads).catch(() => {}));
  const watched = watch(page, baseUrl);
  await page.goto(`${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  await page.evaluate(installProbe);
  return { page, ...watched };
}

async function measureFolder(context, baseUrl, tree, traceAs = null) {
  const { page, errors } = await freshPage(context, baseUrl);
  const claude = await upload(page, '[data-testid=folder-input]', tree.claude, traceAs && `${traceAs}-folder`);
  const project = await upload(page, '[data-testid=folder-input]', tree.project, traceAs && `${traceAs}-project`);
  const inferred = {
    home: await page.inputValue('[data-testid=input-home]'),
    project: await page.inputValue('[data-testid=input-project]'),
  };
  await page.close();
  return { claude, project, inferred, errors };
}

async function measureZip(context, baseUrl, zip, projectZip, traceAs = null) {
  const { page, errors } = await freshPage(context, baseUrl);
  const claude = await upload(page, '[data-testid=zip-input]', zip, traceAs && `${traceAs}-zip`);
  const project = await upload(page, '[data-testid=zip-input]', projectZip, traceAs && `${traceAs}-zip-project`);
  const inferred = {
    home: await page.inputValue('[data-testid=input-home]'),
    project: await page.inputValue('[data-testid=input-project]'),
  };
  await page.close();
  return { claude, project, inferred, errors };
}

// ---- the run -----------------------------------------------------------------------------------

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (x === null || x === undefined ? '-' : x.toFixed(0));

async function main() {
  if (options['trees-only']) {
    for (const size of sizes) {
      const base = path.join(options['trees-only'], `tree-${size}`);
      fs.rmSync(base, { recursive: true, force: true });
      const tree = generate(base, size);
      console.log(`${base}: ${tree.files} files in ~/.claude, ${tree.projectFiles} in the project`);
    }
    return;
  }
  fs.mkdirSync(artifacts, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-bench-'));
  const { baseUrl, server } = await serveDist();
  const baseline = options.baseline ? await serve(options.baseline) : null;
  const baselineUrl = baseline ? `http://127.0.0.1:${baseline.address().port}/` : null;
  const context = await launchWithProfile(path.join(scratch, 'profile'));
  const results = [];
  const compared = [];
  try {
    for (const size of sizes) {
      const base = path.join(scratch, `tree-${size}`);
      const t0 = performance.now();
      const tree = generate(base, size);
      const zip = path.join(scratch, `claude-${size}.zip`);
      zipFolder(tree.claude, '.claude', zip, sparseBytes > 0 ? (rel) => !rel.endsWith('.jsonl') : undefined);
      const projectZip = path.join(scratch, `project-${size}.zip`);
      zipFolder(tree.project, path.basename(tree.project), projectZip);
      const zipBytes = fs.statSync(zip).size;
      const zipDirectoryBytes = centralDirectoryBytes(zip);
      const projectZipBytes = fs.statSync(projectZip).size;
      console.error(`${size}: wrote ${tree.files} files in ~/.claude (+${tree.projectFiles} in the project) and zips of ${(zipBytes / 1e6).toFixed(1)} MB (+${(projectZipBytes / 1e6).toFixed(1)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const folder = [];
      const zipped = [];
      const before = { folder: [], zip: [] };
      const traced = options.profile ? 1 : 0;
      for (let r = 0; r < runs + traced; r++) {
        // Traced runs are slower: only the first is traced, and it is left out of the medians.
        const traceAs = r < traced ? String(tree.files) : null;
        if (baselineUrl && !traceAs) {
          const f = await measureFolder(context, baselineUrl, tree);
          const z = await measureZip(context, baselineUrl, zip, projectZip);
          before.folder.push(f);
          before.zip.push(z);
          console.error(
            `  run ${r + 1}, baseline: folder change→settled ${ms(f.claude.changeToSettledMs)} ms`
            + ` (+project ${ms(f.project.changeToSettledMs)} ms); zip ${ms(z.claude.changeToSettledMs)} ms`
            + ` (+project ${ms(z.project.changeToSettledMs)} ms)`
            + `; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
          );
        }
        const f = await measureFolder(context, baseUrl, tree, traceAs);
        const z = await measureZip(context, baseUrl, zip, projectZip, traceAs);
        if (!traceAs) folder.push(f);
        if (!traceAs) zipped.push(z);
        console.error(
          `  run ${r + 1}${traceAs ? ' (traced)' : ''}: folder setInputFiles ${ms(f.claude.wallMs)} ms, change→settled ${ms(f.claude.changeToSettledMs)} ms`
          + ` (+project ${ms(f.project.changeToSettledMs)} ms); zip change→settled ${ms(z.claude.changeToSettledMs)} ms`
          + ` (+project ${ms(z.project.changeToSettledMs)} ms)`
          + `; read ${f.claude.filesRead ?? '?'} files / ${z.claude.filesRead ?? '?'} from the zip`
          // The machine may be shared: say how busy it was beside every run.
          + `; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
        );
        for (const e of [...f.errors, ...z.errors]) console.error(`  page error: ${e}`);
        for (const x of [f.claude, f.project, z.claude, z.project]) if (x.error) console.error(`  the page says: ${x.error}`);
      }
      const med = (list, pick) => median(list.map(pick));
      if (baselineUrl) {
        const times = (f, z) => ({
          folder: med(f, (x) => x.claude.changeToSettledMs),
          project: med(f, (x) => x.project.changeToSettledMs),
          zip: med(z, (x) => x.claude.changeToSettledMs),
          zipProject: med(z, (x) => x.project.changeToSettledMs),
          together: med(f, (x) => x.claude.changeToSettledMs + x.project.changeToSettledMs),
          zipTogether: med(z, (x) => x.claude.changeToSettledMs + x.project.changeToSettledMs),
          phases: Object.fromEntries(['claude', 'project'].map((k) => [k, Object.fromEntries(
            ['mount_ms', 'analyze_ms', 'read_ms', 'basis_ms', 'listing_ms', 'page_post_ms', 'page_receive_ms']
              .map((key) => [key, median(f.map((x) => x[k].workerPhases?.[key]))]),
          )])),
          summaries: f.map((x) => JSON.stringify(x.project.summary)),
          zipSummaries: z.map((x) => JSON.stringify(x.project.summary)),
        });
        compared.push({ files: tree.files, baseline: times(before.folder, before.zip), build: times(folder, zipped) });
      }
      const phases = (list) => ({
        // The change handler and the first render that shows the page is busy: until then
        // nothing on screen moves.
        changeToBusyMs: med(list, (x) => x.changeToBusyMs),
        // The first frame after that: when the busy state is on screen.
        changeToBusyFrameMs: med(list, (x) => x.changeToBusyFrameMs),
        // Listing, mounting, analysing and reading the files the core asks for.
        busyToLastProgressMs: med(list, (x) => (x.lastProgressMs === null || x.changeToBusyMs === null ? null : x.lastProgressMs - x.changeToBusyMs)),
        // The last analysis turn and the render of the report.
        lastProgressToSettledMs: med(list, (x) => (x.lastProgressMs === null ? null : x.changeToSettledMs - x.lastProgressMs)),
        longTaskMs: med(list, (x) => x.longTaskMs),
      });
      const row = {
        files: tree.files,
        requested: size,
        projectFiles: tree.projectFiles,
        zipBytes,
        folderSetInputFilesMs: med(folder, (f) => f.claude.wallMs),
        folderChangeToSettledMs: med(folder, (f) => f.claude.changeToSettledMs),
        folderTotalMs: med(folder, (f) => f.claude.totalMs),
        folderThenProjectChangeToSettledMs: med(folder, (f) => f.project.changeToSettledMs),
        zipChangeToSettledMs: med(zipped, (z) => z.claude.changeToSettledMs),
        zipTotalMs: med(zipped, (z) => z.claude.totalMs),
        zipThenProjectChangeToSettledMs: med(zipped, (z) => z.project.changeToSettledMs),
        // Issue 13's goal: the ~/.claude and the project together, each run's sum.
        folderTogetherMs: med(folder, (f) => f.claude.changeToSettledMs + f.project.changeToSettledMs),
        zipTogetherMs: med(zipped, (z) => z.claude.changeToSettledMs + z.project.changeToSettledMs),
      };
      row.folderMsPer1000Files = row.folderChangeToSettledMs / (tree.files / 1000);
      row.zipMsPer1000Files = row.zipChangeToSettledMs / (tree.files / 1000);
      row.phases = { folder: phases(folder.map((f) => f.claude)), project: phases(folder.map((f) => f.project)), zip: phases(zipped.map((z) => z.claude)), 'zip project': phases(zipped.map((z) => z.project)) };
      row.filesRead = { folder: folder[0].claude.filesRead, folderThenProject: folder[0].project.filesRead, zip: zipped[0].claude.filesRead, zipThenProject: zipped[0].project.filesRead };
      row.bytesRead = { folder: folder[0].claude.bytesRead, folderThenProject: folder[0].project.bytesRead, zip: zipped[0].claude.bytesRead, zipThenProject: zipped[0].project.bytesRead };
      // Bytes taken from `File`s, against the bytes of the files that matter (what the
      // analysis was handed): 1.00 is the floor.
      row.blobBytesRead = { folder: folder[0].claude.blobBytesRead, zip: zipped[0].claude.blobBytesRead ?? null };
      // Issue 13's floor for a zip: its central directory and the entries the analysis asks for.
      row.zipDirectoryBytes = zipDirectoryBytes;
      row.memory = {
        folder: { jsHeap: folder[0].project.jsHeapBytes, wasm: folder[0].project.wasmBytes, workerWasm: folder[0].project.workerWasmBytes },
        zip: { jsHeap: zipped[0].claude.jsHeapBytes ?? null, wasm: zipped[0].claude.wasmBytes ?? null, workerWasm: zipped[0].claude.workerWasmBytes ?? null },
      };
      row.inferred = folder[0].inferred;
      row.summary = { folder: folder[0].project.summary, zip: zipped[0].claude.summary, zipThenProject: zipped[0].project.summary };
      row.inferredZip = zipped[0].inferred;
      row.shape = tree.counts;
      row.runs = { folder, zip: zipped };
      results.push(row);
      if (!options.keep) fs.rmSync(base, { recursive: true, force: true });
    }
  } finally {
    await context.close();
    server?.close();
    baseline?.close();
    if (!options.keep) fs.rmSync(scratch, { recursive: true, force: true });
    else console.error(`kept ${scratch}`);
  }

  const table = (header, lines) => {
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
    const fmt = (cells) => `| ${cells.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
    console.log(fmt(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const l of lines) console.log(fmt(l));
  };
  console.log(`\nmedians of ${runs} runs, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${chromiumPath}`);
  console.log('page-owned = from the input\'s change event to a settled report; total = from the start of setInputFiles\n');
  table(
    ['files', 'folder setInputFiles ms', 'folder change→settled ms', 'then project ms', 'together ms', 'zip change→settled ms',
      'then project zip ms', 'zips together ms', 'folder ms/1k files', 'zip ms/1k files', 'folder total ms', 'files read (folder/zip)'],
    results.map((r) => [
      String(r.files), ms(r.folderSetInputFilesMs), ms(r.folderChangeToSettledMs), ms(r.folderThenProjectChangeToSettledMs),
      ms(r.folderTogetherMs), ms(r.zipChangeToSettledMs), ms(r.zipThenProjectChangeToSettledMs), ms(r.zipTogetherMs),
      r.folderMsPer1000Files.toFixed(1), r.zipMsPer1000Files.toFixed(1), ms(r.folderTotalMs),
      `${r.filesRead.folder ?? '?'}+${r.filesRead.folderThenProject ?? '?'}/${r.filesRead.zip ?? '?'}+${r.filesRead.zipThenProject ?? '?'}`,
    ]),
  );
  console.log('\nwhere the page-owned time goes (medians, ms): change→busy in the page | its frame | busy→last progress | →settled | long tasks\n');
  table(
    ['files', 'input', 'change→busy', 'busy frame', 'busy→last progress', 'last progress→settled', 'long tasks'],
    results.flatMap((r) => ['folder', 'project', 'zip', 'zip project'].map((kind) => {
      const p = r.phases[kind];
      return [String(r.files), kind, ms(p.changeToBusyMs), ms(p.changeToBusyFrameMs), ms(p.busyToLastProgressMs), ms(p.lastProgressToSettledMs), ms(p.longTaskMs)];
    })),
  );
  console.log('\ninside the run (medians, ms): the page posting listings | the worker taking them in | mounting | the core\'s turns | waiting for reads | share basis | the page taking the answer | the sizes and dates the core asked for, and looking them up\n');
  const phaseKeys = ['page_post_ms', 'listing_ms', 'mount_ms', 'analyze_ms', 'read_ms', 'basis_ms', 'page_receive_ms', 'stat_ms'];
  table(
    ['files', 'input', 'post', 'take in', 'mount', 'turns', 'core', 'reads', 'basis', 'receive', 'basis/tree files', 'sizes asked', 'size look-ups'],
    results.flatMap((r) => [['folder', r.runs.folder.map((f) => f.claude)], ['then project', r.runs.folder.map((f) => f.project)], ['zip', r.runs.zip.map((z) => z.claude)], ['then project zip', r.runs.zip.map((z) => z.project)]]
      .map(([kind, list]) => {
        const phases = list.map((x) => x.workerPhases).filter(Boolean);
        const pick = (key) => ms(median(phases.map((p) => p[key])));
        const first = phases[0] ?? {};
        return [String(r.files), kind, pick(phaseKeys[0]), pick(phaseKeys[1]), pick(phaseKeys[2]), String(first.turns ?? '-'),
          pick(phaseKeys[3]), pick(phaseKeys[4]), pick(phaseKeys[5]), pick(phaseKeys[6]), `${first.basis_files ?? '-'}/${first.tree_files ?? '-'}`,
          String(first.statted ?? '-'), pick(phaseKeys[7])];
      })),
  );
  const mb = (x) => (typeof x === 'number' ? (x / 1e6).toFixed(1) : '-');
  const kb = (x) => (typeof x === 'number' ? (x / 1e3).toFixed(1) : '-');
  const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? (a / b).toFixed(2) : '-');
  console.log('\nbytes read from Files against the files that matter (kB), and memory after the drop (MB)\n');
  table(
    ['files', 'folder read/matter', 'zip read/matter', 'zip read/(directory + matter)', 'JS heap', 'page wasm', 'worker wasm', 'zip: JS heap', 'zip: page wasm', 'zip: worker wasm'],
    results.map((r) => [
      String(r.files),
      `${kb(r.blobBytesRead.folder)}/${kb(r.bytesRead.folder)} = ${ratio(r.blobBytesRead.folder, r.bytesRead.folder)}×`,
      `${kb(r.blobBytesRead.zip)}/${kb(r.bytesRead.zip)} = ${ratio(r.blobBytesRead.zip, r.bytesRead.zip)}×`,
      `${kb(r.blobBytesRead.zip)}/${kb(r.zipDirectoryBytes + r.bytesRead.zip)} = ${ratio(r.blobBytesRead.zip, r.zipDirectoryBytes + r.bytesRead.zip)}×`,
      mb(r.memory.folder.jsHeap), mb(r.memory.folder.wasm), mb(r.memory.folder.workerWasm),
      mb(r.memory.zip.jsHeap), mb(r.memory.zip.wasm), mb(r.memory.zip.workerWasm),
    ]),
  );
  if (results.length > 1) {
    console.log('\nlinearity: page time ratio against entries ratio between consecutive sizes (1.0 = linear)\n');
    table(
      ['sizes', 'entries ×', 'folder time ×', 'then project ×', 'together ×', 'zip time ×', 'then project zip ×', 'zips together ×', 'setInputFiles ×'],
      results.slice(1).map((r, i) => {
        const q = results[i];
        const k = r.files / q.files;
        const rel = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? `${(a / b).toFixed(1)} (${(a / b / k).toFixed(2)})` : '-');
        return [`${q.files}→${r.files}`, k.toFixed(1), rel(r.folderChangeToSettledMs, q.folderChangeToSettledMs),
          rel(r.folderThenProjectChangeToSettledMs, q.folderThenProjectChangeToSettledMs), rel(r.folderTogetherMs, q.folderTogetherMs),
          rel(r.zipChangeToSettledMs, q.zipChangeToSettledMs), rel(r.zipThenProjectChangeToSettledMs, q.zipThenProjectChangeToSettledMs),
          rel(r.zipTogetherMs, q.zipTogetherMs), rel(r.folderSetInputFilesMs, q.folderSetInputFilesMs)];
      }),
    );
  }

  if (compared.length > 0) {
    console.log(`\nthis build against the baseline (${options.baseline}), runs interleaved, medians, ms: change→settled, and inside the worker: mounting | the core's turns | waiting for reads | share basis\n`);
    const phase = (t, k) => ['mount_ms', 'analyze_ms', 'read_ms', 'basis_ms'].map((key) => ms(t.phases[k][key])).join(' / ');
    table(
      ['files', 'folder base', 'folder this', 'project base', 'project this', 'together base', 'together this', 'zip base', 'zip this',
        'zip project base', 'zip project this', 'zips together base', 'zips together this',
        'folder phases base', 'folder phases this', 'project phases base', 'project phases this', 'same summary', 'same zip summary'],
      compared.map(({ files, baseline: b, build: t }) => [
        String(files), ms(b.folder), ms(t.folder), ms(b.project), ms(t.project), ms(b.together), ms(t.together), ms(b.zip), ms(t.zip),
        ms(b.zipProject), ms(t.zipProject), ms(b.zipTogether), ms(t.zipTogether),
        phase(b, 'claude'), phase(t, 'claude'), phase(b, 'project'), phase(t, 'project'),
        [...b.summaries, ...t.summaries].every((x) => x === b.summaries[0]) ? 'yes' : 'NO',
        [...b.zipSummaries, ...t.zipSummaries].every((x) => x === b.zipSummaries[0]) ? 'yes' : 'NO',
      ]),
    );
  }
  const out = path.join(artifacts, 'bench.json');
  fs.writeFileSync(out, `${JSON.stringify({
    date: new Date().toISOString(),
    dist,
    chromium: chromiumPath,
    cores: os.cpus().length,
    loadavg: os.loadavg(),
    runs,
    results,
    compared,
  }, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

await main();

/** The size of a zip's central directory (zip64 too), from its end records. */
function centralDirectoryBytes(file) {
  const size = fs.statSync(file).size;
  const tailLength = Math.min(size, 65_557);
  const tail = Buffer.alloc(tailLength);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, tail, 0, tailLength, size - tailLength);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0) return 0;
    const directory = tail.readUInt32LE(end + 12);
    if (directory !== 0xffffffff || end < 20 || tail.readUInt32LE(end - 20) !== 0x07064b50) return directory;
    // Zip64: the locator before the end record says where the zip64 end record is.
    const record = Buffer.alloc(56);
    fs.readSync(fd, record, 0, 56, Number(tail.readBigUInt64LE(end - 20 + 8)));
    return Number(record.readBigUInt64LE(40));
  } finally {
    fs.closeSync(fd);
  }
}
