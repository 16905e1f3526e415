// End-to-end test of the built page (dist/) against hostile input, in headless Chromium.
//
// The analysis runs in a Web Worker; a panic in the core (or a stack overflow) must end only
// that worker, with a message on the page, the previous report kept and the next drop
// working. Each case uploads real files through the page's inputs (`setInputFiles`):
// - a ~/.claude whose `projects/` folder holds `a-é` (the home guess once sliced that name
//   across a character boundary and panicked): either the report shows, or the failure
//   message does, and then the page still analyses the next folder;
// - a project whose CLAUDE.md nests `>` 5,000 deep: the file view renders it (flat past a
//   depth limit) instead of overflowing the wasm stack;
// - a share link whose rule nests `[` thousands deep in `paths:`: it opens, or it fails with
//   a message, and the page stays usable;
// and the page never requests anything outside its origin, nor throws on the main thread.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/hostile.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  root, serveDist, launchWithProfile, openWatchedPage, currentRun, settled, shot,
} from './support.mjs';

const demoTree = path.join(root, 'fixtures', 'demo', 'tree');
const projectDir = path.join(demoTree, 'home', 'alice', 'work', 'shop');

let server;
let baseUrl;
let context;
let scratch;

before(async () => {
  ({ baseUrl, server } = await serveDist());
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-hostile-'));
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

function write(base, files) {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(base, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return base;
}

/** What the page shows once a run settled: a report (its file count) or the error. */
async function outcome(page) {
  return page.evaluate(() => ({
    ready: document.querySelector('[data-testid=app]').dataset.ready === 'true',
    error: document.querySelector('[data-testid=error]')?.textContent ?? null,
    files: document.querySelector('[data-testid=card-files]')?.dataset.value ?? null,
  }));
}

/** Uploads a folder through the folder input and waits for the run to settle. */
async function upload(page, dir) {
  const run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', dir);
  await settled(page, run);
  return outcome(page);
}

test('a panic-class folder name ends only the worker, and the page goes on', async () => {
  const claude = write(path.join(scratch, 'accent', '.claude'), {
    'CLAUDE.md': '# Me\n',
    'projects/a-é/notes.jsonl': '{}\n',
    'projects/-home-erin-app/memory/MEMORY.md': '- [Topic](topic.md)\n',
  });
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');

  // A good project first, so that there is a report to keep.
  let seen = await upload(page, projectDir);
  assert.ok(seen.ready, `the project analyses: ${JSON.stringify(seen)}`);
  const before = seen.files;

  seen = await upload(page, claude);
  await shot(page, 'hostile-01-accented-project-folder');
  if (seen.error !== null) {
    // The core panicked: the worker died, the page says so and keeps what it showed.
    assert.match(seen.error, /^The analysis failed on this input: /);
    assert.match(seen.error, /panicked|char boundary|unreachable/);
    assert.equal(await page.getAttribute('[data-testid=card-files]', 'data-value'), before);
  } else {
    assert.ok(seen.ready, 'without a panic the folder analyses');
    assert.equal(await page.inputValue('[data-testid=input-home]'), '/home/erin');
  }

  // Whatever the core does with that name today, the page must survive the worker dying
  // mid-run as a panic kills it (the wasm traps with `unreachable`): here the worker's
  // handler is made to trap on the next run, from inside the worker.
  const shown = await page.getAttribute('[data-testid=card-files]', 'data-value');
  assert.equal(page.workers().length, 1, 'the analysis runs in one worker');
  await page.workers()[0].evaluate(() => {
    const handler = self.onmessage;
    // ToWorker::Run's place in web/src/wire/messages.rs (a test there keeps it in step).
    const RUN = 4; // ToWorker::Run
    self.onmessage = (event) => {
      if (event.data && event.data.type === RUN) throw new WebAssembly.RuntimeError('unreachable');
      handler.call(self, event);
    };
  });
  const other = write(path.join(scratch, 'other', '.claude'), {
    'CLAUDE.md': '# Other\n',
    'projects/-home-dana-site/memory/MEMORY.md': '- one\n',
  });
  seen = await upload(page, other);
  await shot(page, 'hostile-01b-worker-died');
  assert.match(seen.error ?? '', /^The analysis failed on this input: .*unreachable/);
  assert.equal(await page.getAttribute('[data-testid=card-files]', 'data-value'), shown, 'the report shown before is kept');
  assert.equal(await page.isEnabled('[data-testid=choose-folder]'), true);

  // The page still works: the same folder analyses in a fresh worker.
  seen = await upload(page, other);
  assert.ok(seen.ready, `a later drop analyses: ${JSON.stringify(seen)}`);
  assert.equal(seen.error, null);
  assert.equal(await page.inputValue('[data-testid=input-home]'), '/home/dana');
  assert.equal(page.workers().length, 1, 'the dead worker is gone, one new one runs');
  assert.deepEqual(foreign, []);
  // A worker's death is reported on the page, never thrown on its main thread.
  assert.deepEqual(errors.filter((e) => !/worker/i.test(e)), []);
});

test('Markdown nested 5,000 deep renders, flat past the depth limit', async () => {
  const depth = 5000;
  const deep = `${'>'.repeat(depth)} deepest words\n`;
  const project = write(path.join(scratch, 'deep-md', 'deep'), {
    'CLAUDE.md': `# Deep\n\n${deep}\n- ${'['.repeat(2000)}x\n`,
  });
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  const seen = await upload(page, project);
  assert.ok(seen.ready, JSON.stringify(seen));
  await page.click('[data-testid=tree-row][data-path$="/deep/CLAUDE.md"]');
  await page.waitForSelector('[data-testid=file-view][data-path$="/deep/CLAUDE.md"]');
  // The rendered view (not the raw text) holds the deepest words, shown flat.
  await page.click('[data-testid=tab-preview]');
  await page.waitForSelector('[data-testid=markdown-preview]');
  const text = await page.textContent('[data-testid=markdown-preview]');
  assert.match(text, /deepest words/);
  assert.equal(await page.locator('[data-testid=markdown-flat]').count() > 0, true);
  const nesting = await page.$eval('[data-testid=markdown-preview]', (el) => {
    let max = 0;
    const walk = (node, d) => {
      max = Math.max(max, d);
      for (const child of node.children) walk(child, d + (child.tagName === 'BLOCKQUOTE' ? 1 : 0));
    };
    walk(el, 0);
    return max;
  });
  assert.ok(nesting > 0 && nesting <= 64, `blockquotes nest ${nesting} deep`);
  await shot(page, 'hostile-02-deep-markdown');
  // The page is still alive: the tree answers.
  assert.ok(await page.isVisible('[data-testid=tree]'));
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
});

/**
 * A share link (format 1: `1.` and the base64url of the raw-deflated JSON payload, as
 * core/src/share.rs writes it) whose project rule nests `[` `depth` deep in `paths:`.
 */
function nestedPathsLink(depth) {
  const home = '/home/ahaaa';
  const project = `${home}/work/shop`;
  const file = (rel, text) => ({ path: rel, size: Buffer.byteLength(text), text });
  const rule = `---\npaths: ${'['.repeat(depth)}"src/**"${']'.repeat(depth)}\n---\n# Rule\n`;
  const payload = {
    format: 1, made: '2026-12-01T12:00:00Z', home, project, config_dir: null, os: 'linux',
    version: null, today: null, mounts: [`${home}/.claude`, project], dirs: [],
    files: [
      file(`${project}/CLAUDE.md`, '# Shop\n'),
      file(`${project}/.claude/rules/deep.md`, rule),
    ],
    findings: [],
  };
  const deflated = zlib.deflateRawSync(Buffer.from(JSON.stringify(payload)), { level: 9 });
  return `1.${deflated.toString('base64url')}`;
}

test('a share link with deeply nested paths opens or fails with a message', async () => {
  const link = nestedPathsLink(20_000);
  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}#s=${link}`);
  await settled(page, 0);
  const seen = await outcome(page);
  await shot(page, 'hostile-03-nested-link');
  assert.ok(seen.ready || seen.error !== null, JSON.stringify(seen));
  if (seen.ready) {
    // It opened: the rule is in the report.
    assert.ok(await page.locator('[data-testid=tree-row][data-path$="/rules/deep.md"]').count() > 0);
  }
  // Either way the page works: Start fresh, and a folder analyses.
  if (await page.isVisible('[data-testid=start-fresh]')) await page.click('[data-testid=start-fresh]');
  const after = await upload(page, projectDir);
  assert.ok(after.ready, JSON.stringify(after));
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors.filter((e) => !/worker/i.test(e)), []);
});
