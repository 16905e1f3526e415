// Browser timing harness for live folders (issue 14): how long the built page (dist/) takes
// from "Choose folder" to a settled report when the ~/.claude is opened live, through the
// browser's File System Access handles, and how much of the folder the page lists to get
// there. Not a test (no assertions on times) and not run by `node --test tests/e2e/` (its name
// matches none of the test-file patterns). The companion of bench.mjs (engineer D's), whose
// tree generator it reuses: `node tests/e2e/bench.mjs --trees-only DIR` writes the tree.
//
// Run by hand after a release build (`trunk build --release`):
//
//   node tests/e2e/bench-live.mjs [--files 3000,50000] [--runs 3] [--keep]
//
// It honours the environment of the end-to-end tests (MEMDIAG_DIST, MEMDIAG_PLAYWRIGHT,
// MEMDIAG_CHROMIUM, MEMDIAG_E2E_ARTIFACTS, MEMDIAG_BASE_URL).
//
// How: Playwright cannot drive the folder dialog of `showDirectoryPicker()`, so, as in
// live.test.mjs, the tree is copied into the origin-private file system (real
// FileSystemDirectoryHandle/FileSystemFileHandle objects behind the same interfaces a picked
// folder has) and an init script makes `showDirectoryPicker` return it. The copy is setup,
// not measured. Transcripts and bulk files are copied empty (bench.mjs writes them as sparse
// holes; the live walk never opens them, so their size does not matter, and the counts below
// prove it). The same init script counts every folder listed (`values()`), every entry those
// listings yielded, every size asked for (`getFile`) and every file read (`arrayBuffer`).
//
// For each run, in a fresh page (`?empty`): the time from the click on Choose folder to a
// settled report (performance.now() in the page: a capture-phase click listener and a
// MutationObserver on the app's data-busy/data-run), what the progress line last said, and the
// counts above against the tree's totals (files and folders), and when each run started and
// settled (the walk's run, then the analysis's after the guess of home and project). The
// table shows medians;
// artifacts/bench-live.json holds every run.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { artifacts, dist, serveDist, launchWithProfile, watch, chromiumPath } from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

const { values: options } = parseArgs({
  options: {
    files: { type: 'string', default: '3000,50000' },
    runs: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log('usage: node tests/e2e/bench-live.mjs [--files 3000,50000] [--runs 3] [--keep]');
  process.exit(0);
}
const sizes = options.files.split(',').map((s) => Number(s.replace(/[_\s]/g, ''))).filter((n) => n > 0);
const runs = Math.max(1, Number(options.runs) || 3);
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`no built page in ${dist}: run \`trunk build --release\` first`);
  process.exit(1);
}

/** The ~/.claude bench.mjs writes for `size` files, in `dir`. */
function generate(dir, size) {
  const done = spawnSync(process.execPath, [
    path.join(here, 'bench.mjs'), '--trees-only', dir, '--files', String(size), '--project-share', '0',
  ], { encoding: 'utf8', env: process.env });
  if (done.status !== 0) throw new Error(`bench.mjs --trees-only failed: ${done.stderr}`);
  const claude = path.join(dir, `tree-${size}`, 'home', 'bench', '.claude');
  if (!fs.existsSync(claude)) throw new Error(`bench.mjs wrote no ${claude}`);
  return claude;
}

/** True for what the copy leaves empty: transcripts and the bulk session folders. */
function bulk(rel) {
  if (rel.endsWith('.jsonl')) return true;
  const [top, project, next] = rel.split('/');
  if (['todos', 'file-history', 'shell-snapshots', 'debug', 'paste-cache', 'session-env', 'statsig'].includes(top)) return true;
  return top === 'projects' && project !== undefined && next !== undefined && next !== 'memory';
}

/** Every file and folder below `root`: `{ files: [[rel, text|null]], folders }`. */
function listTree(root) {
  const files = [];
  let folders = 0;
  const walk = (dir, rel) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders += 1;
        walk(path.join(dir, entry.name), child);
      } else {
        files.push([child, bulk(child) ? null : fs.readFileSync(path.join(dir, entry.name), 'utf8')]);
      }
    }
  };
  walk(root, '');
  return { files, folders };
}

/** Copies the files into `<opfs>/.claude` (emptied first), in batches. */
async function copyIntoOpfs(page, files) {
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('.claude', { recursive: true }).catch(() => {});
    window.__dirs = new Map([['', await root.getDirectoryHandle('.claude', { create: true })]]);
  });
  const batch = 2000;
  for (let i = 0; i < files.length; i += batch) {
    await page.evaluate(async (slice) => {
      const dirOf = async (rel) => {
        if (window.__dirs.has(rel)) return window.__dirs.get(rel);
        const cut = rel.lastIndexOf('/');
        const parent = await dirOf(cut < 0 ? '' : rel.slice(0, cut));
        const handle = await parent.getDirectoryHandle(cut < 0 ? rel : rel.slice(cut + 1), { create: true });
        window.__dirs.set(rel, handle);
        return handle;
      };
      await Promise.all(slice.map(async ([rel, text]) => {
        const cut = rel.lastIndexOf('/');
        const dir = await dirOf(cut < 0 ? '' : rel.slice(0, cut));
        const file = await dir.getFileHandle(cut < 0 ? rel : rel.slice(cut + 1), { create: true });
        if (text !== null && text.length > 0) {
          const writable = await file.createWritable();
          await writable.write(text);
          await writable.close();
        }
      }));
    }, files.slice(i, i + batch));
  }
  await page.evaluate(() => { delete window.__dirs; });
}

/** The init script: the picker hands over the origin-private `.claude`; every call counted. */
function instrument() {
  const counts = { foldersListed: 0, entriesListed: 0, sizesAsked: 0, filesRead: 0, listed: [] };
  window.__live = counts;
  const D = FileSystemDirectoryHandle.prototype;
  const F = FileSystemFileHandle.prototype;
  const values = D.values;
  D.values = function () {
    counts.foldersListed += 1;
    if (counts.listed.length < 200) counts.listed.push(this.name);
    const iterator = values.call(this);
    return {
      [Symbol.asyncIterator]() { return this; },
      async next() {
        const step = await iterator.next();
        if (!step.done) counts.entriesListed += 1;
        return step;
      },
    };
  };
  const getFile = F.getFile;
  F.getFile = async function () {
    counts.sizesAsked += 1;
    const file = await getFile.call(this);
    const arrayBuffer = file.arrayBuffer.bind(file);
    file.arrayBuffer = async () => { counts.filesRead += 1; return arrayBuffer(); };
    return file;
  };
  window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('.claude');
}

/** One measurement in a fresh page: Choose folder to a settled report. */
async function measure(context, baseUrl) {
  const page = await context.newPage();
  page.setDefaultTimeout(0);
  const { errors } = watch(page, baseUrl);
  await page.goto(`${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  const result = await page.evaluate(() => new Promise((resolve) => {
    const app = document.querySelector('[data-testid=app]');
    const startRun = Number(app.dataset.run);
    let clicked = null;
    let lastProgress = null;
    // When each run started and ended, after the click: the walk's run, then the analysis's.
    const timeline = [];
    let last = '';
    const check = () => {
      const p = document.querySelector('[data-testid=progress]');
      if (p) lastProgress = p.textContent;
      const now = `${app.dataset.run}/${app.dataset.busy}`;
      if (clicked !== null && now !== last) {
        timeline.push([Math.round(performance.now() - clicked), Number(app.dataset.run), app.dataset.busy === 'true' ? 'busy' : 'settled']);
        last = now;
      }
      if (clicked !== null && app.dataset.busy === 'false' && Number(app.dataset.run) > startRun) {
        const settled = performance.now();
        resolve({
          clickToSettledMs: settled - clicked,
          ready: app.dataset.ready === 'true',
          lastProgress,
          summary: document.querySelector('[data-testid=summary]')?.textContent ?? null,
          error: document.querySelector('[data-testid=error]')?.textContent ?? null,
          counts: structuredClone(window.__live),
          timeline,
          // Where the analysis run's time went inside the worker (worker_host.rs).
          phases: window.memdiagPhases ? structuredClone(window.memdiagPhases) : null,
        });
      }
    };
    new MutationObserver(check).observe(app, { attributes: true, attributeFilter: ['data-busy', 'data-run'], subtree: true, childList: true });
    const button = document.querySelector('[data-testid=choose-folder]');
    button.addEventListener('click', () => { if (clicked === null) clicked = performance.now(); }, true);
    button.click();
  }));
  const rows = await page.locator('[data-testid=tree-row]').count();
  await page.close();
  return { ...result, rows, errors };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  fs.mkdirSync(artifacts, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-bench-live-'));
  const { baseUrl, server } = await serveDist();
  const context = await launchWithProfile(path.join(scratch, 'profile'));
  await context.addInitScript(instrument);
  const results = [];
  try {
    for (const size of sizes) {
      let t0 = performance.now();
      const claude = generate(path.join(scratch, 'trees'), size);
      const tree = listTree(claude);
      console.error(`${size}: bench.mjs wrote ${tree.files.length} files in ${tree.folders} folders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      t0 = performance.now();
      const setup = await context.newPage();
      await setup.goto(`${baseUrl}?empty`);
      await copyIntoOpfs(setup, tree.files);
      await setup.close();
      console.error(`${size}: copied into the origin-private folder in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const measured = [];
      for (let r = 0; r < runs; r++) {
        const m = await measure(context, baseUrl);
        measured.push(m);
        console.error(`${size} run ${r + 1}: ${m.clickToSettledMs.toFixed(0)} ms to ${m.ready ? 'a report' : `no report (${m.error})`}; listed ${m.counts.foldersListed} folders, ${m.counts.entriesListed} entries; ${m.counts.sizesAsked} sizes asked, ${m.counts.filesRead} files read; runs ${JSON.stringify(m.timeline)}`);
      }
      results.push({ size, files: tree.files.length, folders: tree.folders, runs: measured });
    }
  } finally {
    await context.close();
    server?.close();
    if (!options.keep) fs.rmSync(scratch, { recursive: true, force: true });
    else console.error(`kept ${scratch}`);
  }
  console.log('| ~/.claude entries (files + folders) | click to settled report (median) | folders listed | entries listed | sizes asked | files read | rows |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const m = (f) => median(r.runs.map(f));
    console.log(`| ${r.files + r.folders} (${r.files} + ${r.folders}) | ${m((x) => x.clickToSettledMs).toFixed(0)} ms | ${m((x) => x.counts.foldersListed)} of ${r.folders + 1} | ${m((x) => x.counts.entriesListed)} of ${r.files + r.folders} | ${m((x) => x.counts.sizesAsked)} | ${m((x) => x.counts.filesRead)} | ${m((x) => x.rows)} |`);
  }
  const out = path.join(artifacts, 'bench-live.json');
  fs.writeFileSync(out, `${JSON.stringify({
    date: new Date().toISOString(), dist, chromium: chromiumPath, cores: os.cpus().length, loadavg: os.loadavg(), runs, results,
  }, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

await main();
