// End-to-end test of live folders in the built page (dist/), in headless Chromium driven by
// playwright-core, through the browser's real File System Access handles.
//
// What the automation allows: Playwright cannot drive the native folder dialog that
// `showDirectoryPicker()` opens (its file-chooser event covers `<input type=file>` only), and
// a real folder on disk cannot be handed to the page as a handle without that dialog. What it
// can do is give the page a real `FileSystemDirectoryHandle` another way: the origin-private
// file system (`navigator.storage.getDirectory()`) holds real folders and files behind the
// same interfaces (`values`, `getDirectoryHandle`, `getFileHandle`, `getFile`,
// `createWritable`, `removeEntry`, `queryPermission`). The test writes a `~/.claude` into it,
// replaces `window.showDirectoryPicker` by a function that returns that folder's handle
// (`addInitScript`, before the page starts), and then uses the page as a person would:
// Choose folder, an edit made outside the page, `r`, a clean-up with its diff, confirmation
// and undo; and the file view's Delete of the file it shows, its review driven by keyboard
// (focus on the diff, Tab kept inside, Escape closing it with focus back on Delete), the
// rescan after it settling and the undo bringing the file back. The permission prompt is not exercised: the origin-private folder is always
// writable (`queryPermission` says granted), so `requestPermission` is never reached.
//
// The handles' methods are wrapped to log every folder listed and every file read, which
// proves that the walk never lists a transcript or bulk folder and that Refresh reads only
// the changed file.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/live.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  dist, artifacts, serveDist, launchWithProfile, openWatchedPage, currentRun, ready, shot,
} from './support.mjs';

const MEMORY = 'projects/-home-alice-app/memory';

/** The config directory written into the origin-private file system. */
const FILES = {
  'CLAUDE.md': '# Me\n\nShort answers.\n',
  'settings.json': '{}\n',
  'rules/style.md': 'Small diffs.\n',
  [`${MEMORY}/MEMORY.md`]: '- [Build](build.md) — how the build runs\n- [Old](old.md) — removed long ago\n',
  [`${MEMORY}/build.md`]: '---\ntype: project\n---\npnpm build\n',
  [`${MEMORY}/payments.md`]: '---\ndescription: refunds retry\ntype: project\n---\nthree times\n',
  // Bulk the walk must never enter, transcripts it must never open.
  'projects/-home-alice-app/0b7e.jsonl': '{"secret": "transcript"}\n',
  'projects/-home-alice-app/0b7e/subagents/agent-1.jsonl': '{}\n',
  'projects/-home-alice-app/0b7e/tool-results/out.txt': 'x\n',
  'projects/-home-alice-other/1c2d.jsonl': '{}\n',
  'projects/-home-alice-other/1c2d/tool-results/r.txt': 'r\n',
  'todos/t.json': '[]\n',
  'file-history/a/CLAUDE.md': 'old\n',
  'debug/latest': 'log\n',
};

let server;
let baseUrl;
let context;
let scratch;

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-e2e-live-'));
  ({ baseUrl, server } = await serveDist());
  context = await launchWithProfile(path.join(scratch, 'profile'));
  await context.addInitScript(() => {
    // Every folder listed (`values`) and every file read (`arrayBuffer` of its File), by path
    // below the picked folder.
    window.__live = { listed: [], read: [], written: [] };
    const paths = new WeakMap();
    const pathOf = (handle) => paths.get(handle) ?? handle.name;
    const D = FileSystemDirectoryHandle.prototype;
    const F = FileSystemFileHandle.prototype;
    const wrapChild = (method) => {
      const original = D[method];
      D[method] = async function (name, options) {
        const child = await original.call(this, name, options);
        const parent = pathOf(this);
        paths.set(child, parent === '' ? name : `${parent}/${name}`);
        return child;
      };
    };
    wrapChild('getDirectoryHandle');
    wrapChild('getFileHandle');
    const values = D.values;
    D.values = function () {
      window.__live.listed.push(pathOf(this));
      const parent = pathOf(this);
      const iterator = values.call(this);
      return {
        [Symbol.asyncIterator]() { return this; },
        async next() {
          const step = await iterator.next();
          if (!step.done) paths.set(step.value, parent === '' ? step.value.name : `${parent}/${step.value.name}`);
          return step;
        },
      };
    };
    const getFile = F.getFile;
    F.getFile = async function () {
      const file = await getFile.call(this);
      const where = pathOf(this);
      const arrayBuffer = file.arrayBuffer.bind(file);
      file.arrayBuffer = async () => { window.__live.read.push(where); return arrayBuffer(); };
      return file;
    };
    const createWritable = F.createWritable;
    F.createWritable = async function (...args) {
      window.__live.written.push(pathOf(this));
      return createWritable.apply(this, args);
    };
    window.showDirectoryPicker = async () => {
      const root = await navigator.storage.getDirectory();
      const claude = await root.getDirectoryHandle('.claude');
      paths.set(claude, '');
      return claude;
    };
  });
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Writes files (path below `.claude` to text) into the origin-private file system. */
async function writeOpfs(page, files) {
  await page.evaluate(async (files) => {
    const root = await navigator.storage.getDirectory();
    for (const [rel, text] of Object.entries(files)) {
      let dir = await root.getDirectoryHandle('.claude', { create: true });
      const parts = rel.split('/');
      const name = parts.pop();
      for (const part of parts) dir = await dir.getDirectoryHandle(part, { create: true });
      const file = await dir.getFileHandle(name, { create: true });
      const writable = await file.createWritable();
      await writable.write(text);
      await writable.close();
    }
  }, files);
}

/** A file's text in the origin-private file system, or null when it is gone. */
async function readOpfs(page, rel) {
  return page.evaluate(async (rel) => {
    try {
      let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('.claude');
      const parts = rel.split('/');
      const name = parts.pop();
      for (const part of parts) dir = await dir.getDirectoryHandle(part);
      return await (await (await dir.getFileHandle(name)).getFile()).text();
    } catch { return null; }
  }, rel);
}

const log = (page) => page.evaluate(() => structuredClone(window.__live));

function assertNoBulkTouched(entries) {
  for (const where of [...entries.listed, ...entries.read]) {
    assert.ok(!/^(todos|file-history|debug|shell-snapshots)(\/|$)/.test(where), `bulk touched: ${where}`);
    const parts = where.split('/');
    assert.ok(!(parts[0] === 'projects' && parts.length > 2 && parts[2] !== 'memory'), `transcript folder touched: ${where}`);
  }
  for (const where of entries.read) assert.ok(!where.endsWith('.jsonl'), `transcript read: ${where}`);
}

test('a live folder: opened once, an outside edit seen on r, a clean-up with a diff, a confirmation and an undo', async () => {
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  await writeOpfs(page, FILES);
  await page.evaluate(() => { window.__live.written = []; });
  assert.equal(await page.evaluate(() => typeof window.showDirectoryPicker), 'function');

  let run = await currentRun(page);
  await page.click('[data-testid=choose-folder]');
  await ready(page, run);
  // The project the memory folder belongs to (the page may have guessed it already).
  if (await page.inputValue('[data-testid=input-project]') !== '/home/alice/app') {
    run = await currentRun(page);
    await page.fill('[data-testid=input-project]', '/home/alice/app');
    await page.press('[data-testid=input-project]', 'Enter');
    await ready(page, run);
  }
  const sources = await page.textContent('[data-testid=sources]');
  assert.match(sources, /\.claude/);

  let entries = await log(page);
  assertNoBulkTouched(entries);
  assert.ok(entries.listed.includes(MEMORY), JSON.stringify(entries.listed));
  assert.ok(!entries.listed.includes('projects/-home-alice-app'), JSON.stringify(entries.listed));
  assert.ok(entries.read.includes('CLAUDE.md'), JSON.stringify(entries.read));

  // An edit in the person's editor; `r` re-reads the folder and reads only that file again.
  const user = '/home/alice/.claude/CLAUDE.md';
  await writeOpfs(page, { 'CLAUDE.md': '# Me\n\nShort answers, and kind ones.\n' });
  await page.evaluate(() => { window.__live = { listed: [], read: [], written: [] }; });
  run = await currentRun(page);
  await page.click('[data-testid=tree]');
  await page.keyboard.press('r');
  await ready(page, run);
  entries = await log(page);
  assert.deepEqual(entries.read, ['CLAUDE.md']);
  assertNoBulkTouched(entries);
  await page.click(`[data-testid=tree-row][data-path="${user}"]`);
  await page.waitForSelector(`[data-testid=file-view][data-path="${user}"]`);
  assert.match(await page.textContent('[data-testid=file-view]'), /and kind ones/);

  // The dead index line, removed from the page.
  await page.click('[data-testid=view-health]');
  await page.waitForSelector('[data-testid=cleanup-folder]');
  assert.match(await page.textContent('[data-testid=cleanup-mode]'), /Changes are made in your folder/);
  assert.equal(await page.locator('[data-testid=dead-line]').count(), 1);
  await page.click('[data-testid=cleanup-remove-lines]');
  await page.waitForSelector('[data-testid=cleanup-review]');
  assert.match(await page.textContent('[data-testid=cleanup-diff]'), /-- \[Old\]\(old\.md\) — removed long ago/);
  await shot(page, '40-live-cleanup-review');
  assert.deepEqual((await log(page)).written, []);
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-confirm]');
  await page.waitForSelector('[data-testid=cleanup-undo]');
  await ready(page, run);
  assert.equal(await readOpfs(page, `${MEMORY}/MEMORY.md`), '- [Build](build.md) — how the build runs\n');
  // The analysis worker made it (the page handed it the folder's handle): of the person's
  // files only the index changed, and a backup of its text as it was is kept in the page's
  // own storage, beside (not in) the folder opened, and listed.
  for (const [rel, text] of Object.entries(FILES)) {
    // CLAUDE.md was edited above, as the person's editor would.
    if (rel !== `${MEMORY}/MEMORY.md` && rel !== 'CLAUDE.md') assert.equal(await readOpfs(page, rel), text, rel);
  }
  const backups = await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('memdiag-backups');
    const out = [];
    for await (const [name, handle] of dir.entries()) out.push([name, await (await handle.getFile()).text()]);
    return out;
  });
  assert.equal(backups.length, 1, JSON.stringify(backups.map(([n]) => n)));
  assert.match(backups[0][0], /^\d{8}T\d+Z-1\.backup$/);
  assert.ok(backups[0][1].includes(FILES[`${MEMORY}/MEMORY.md`]), 'the backup holds the index as it was');
  await page.waitForSelector('[data-testid=cleanup-backup]', { state: 'attached' });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=dead-line]').length === 0);
  await shot(page, '41-live-cleanup-done');

  // Undo puts the line back.
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-undo-button]');
  await ready(page, run);
  assert.equal(await readOpfs(page, `${MEMORY}/MEMORY.md`), FILES[`${MEMORY}/MEMORY.md`]);

  // The orphaned topic file, deleted and restored.
  await page.waitForSelector('[data-testid=cleanup-delete-orphans]');
  await page.click('[data-testid=cleanup-delete-orphans]');
  await page.waitForSelector('[data-testid=cleanup-review]');
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-confirm]');
  await ready(page, run);
  assert.equal(await readOpfs(page, `${MEMORY}/payments.md`), null);
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-undo-button]');
  await ready(page, run);
  assert.equal(await readOpfs(page, `${MEMORY}/payments.md`), FILES[`${MEMORY}/payments.md`]);

  entries = await log(page);
  assertNoBulkTouched(entries);
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
});

test('a live folder: the file open in the file view deleted from its Delete button (the review by keyboard first), the rescan settles, and undo brings it back', async () => {
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  await writeOpfs(page, FILES);
  let run = await currentRun(page);
  await page.click('[data-testid=choose-folder]');
  await ready(page, run);
  if (await page.inputValue('[data-testid=input-project]') !== '/home/alice/app') {
    run = await currentRun(page);
    await page.fill('[data-testid=input-project]', '/home/alice/app');
    await page.press('[data-testid=input-project]', 'Enter');
    await ready(page, run);
  }
  // The orphaned topic file: once deleted, no row of the report names it.
  const rel = `${MEMORY}/payments.md`;
  const topic = `/home/alice/.claude/${rel}`;
  const row = `[data-testid=tree-row][data-path="${topic}"]`;
  await page.click(row);
  await page.waitForSelector(`[data-testid=file-view][data-path="${topic}"]`);
  assert.match(await page.textContent('[data-testid=file-view]'), /three times/);
  // The review by keyboard: Enter on Delete opens it with focus on the diff, Tab and
  // Shift+Tab stay inside, Escape closes it with nothing done and focus back on Delete.
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
  await page.focus('[data-testid=cleanup-delete-file]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=cleanup-review]');
  assert.equal(await focused(), 'cleanup-diff');
  const stops = [];
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    stops.push(await focused());
  }
  assert.deepEqual(stops, ['cleanup-confirm', 'cleanup-script', 'cleanup-cancel', 'cleanup-diff']);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'cleanup-cancel');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=cleanup-review]', { state: 'detached' });
  assert.equal(await focused(), 'cleanup-delete-file');
  assert.notEqual(await readOpfs(page, rel), null);
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=cleanup-review]');
  assert.match(await page.textContent('[data-testid=cleanup-diff]'), /-three times/);
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-confirm]');
  // The rescan that follows ends with a report, the file gone from the folder and the tree.
  await ready(page, run);
  assert.equal(await readOpfs(page, rel), null);
  await page.waitForSelector('[data-testid=cleanup-undo]');
  assert.equal(await page.locator(row).count(), 0);
  await page.waitForSelector('[data-testid=file-view]');
  assert.notEqual(await page.getAttribute('[data-testid=file-view]', 'data-path'), topic);
  await shot(page, '42-live-file-view-deleted');
  // Undo writes it back, and the rescan settles again.
  run = await currentRun(page);
  await page.click('[data-testid=cleanup-undo-button]');
  await ready(page, run);
  assert.equal(await readOpfs(page, rel), FILES[rel]);
  await page.waitForSelector(row);
  assertNoBulkTouched(await log(page));
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
});

// Issue 33, fix 9: after a live-folder session, the next visit offers to reopen the folders
// (their handles kept in IndexedDB), says what it keeps, asks permission again on the click
// (stubbed here: the origin-private folder needs no prompt, so `requestPermission` is
// wrapped to record that it was asked and answer "granted"), and Forget drops them.
test('the next visit offers to reopen the live folders of last time, and says what it keeps', async () => {
  const first = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  await first.page.waitForSelector('[data-testid=empty-state]');
  await writeOpfs(first.page, FILES);
  let run = await currentRun(first.page);
  await first.page.click('[data-testid=choose-folder]');
  await ready(first.page, run);
  // The offer is not shown while a live folder is open.
  assert.equal(await first.page.locator('[data-testid=reopen-offer]').count(), 0);
  assert.deepEqual(first.errors, []);
  await first.page.close();

  for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
    const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`, { viewport });
    await page.evaluate(() => {
      window.__asked = [];
      const H = FileSystemHandle.prototype;
      H.requestPermission = async function (options) { window.__asked.push([this.name, options?.mode]); return 'granted'; };
    });
    const offer = page.locator('[data-testid=reopen-offer]');
    await offer.waitFor();
    const text = await offer.textContent();
    assert.match(text, /Last time you opened \.claude in place/);
    assert.match(text, /keeps only these folders' handles \(no file, no text\), in this browser on this device/);
    await shot(page, `live-reopen-offer-${name}`);
    if (name === 'phone') {
      // Forget drops them: the next visit offers nothing.
      await page.click('[data-testid=reopen-forget]');
      assert.equal(await offer.count(), 0);
      await page.reload();
      await page.waitForSelector('[data-testid=empty-state]');
      await page.waitForTimeout(300);
      assert.equal(await page.locator('[data-testid=reopen-offer]').count(), 0);
    } else {
      run = await currentRun(page);
      await page.click('[data-testid=reopen]');
      await ready(page, run);
      assert.deepEqual(await page.evaluate(() => window.__asked), [['.claude', 'read']]);
      assert.match(await page.textContent('[data-testid=sources]'), /\.claude/);
      assert.equal(await offer.count(), 0);
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});
