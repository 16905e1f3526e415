// Accessibility audit of the built page (dist/) with axe-core, in headless Chromium through
// playwright-core, in light and dark mode.
//
// Every view a person reaches is audited: the demo's main view, a file view, the Health view,
// the Share dialog, the project picker, a simulated release, the empty page and a shared
// (read-only) view. The test fails on any serious or critical violation and prints every
// violation it saw, so that a minor one is visible too. It also checks the page's landmarks and that every scrollable
// region can be reached by keyboard, which axe checks only for regions it sees scrolled.
//
// axe-core is pinned in scripts/npm/package.json and installed into .tools/ by
// scripts/tools.sh; the test injects it through the DevTools protocol (page.evaluate), which
// the page's Content-Security-Policy does not govern, so the page's own policy stays as it is.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/a11y.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import {
  root, serveDist, launchBrowser, openWatchedPage, ready, shot,
} from './support.mjs';

const axePath = process.env.MEMDIAG_AXE
  ?? path.join(root, '.tools', 'node_modules', 'axe-core', 'axe.min.js');
const axeSource = fs.readFileSync(axePath, 'utf8');

let server;
let baseUrl;
let browser;

before(async () => {
  ({ server, baseUrl } = await serveDist());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Runs axe on the page as it is now; returns its violations. */
async function audit(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
    }));
  });
}

/** Fails on serious or critical violations; reports the rest. */
function assertClean(violations, where) {
  for (const v of violations) {
    console.log(`# ${where}: ${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n#   ${v.nodes.slice(0, 3).join('\n#   ')}`);
  }
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    blocking.map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 5).join(' | ')}`),
    [],
    `${where}: serious or critical accessibility violations`,
  );
}

/** Every element that scrolls its overflow can take keyboard focus, or holds something that can. */
async function assertScrollablesReachable(page, where) {
  const unreachable = await page.evaluate(() => {
    const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';
    const out = [];
    for (const el of document.querySelectorAll('body *')) {
      const style = getComputedStyle(el);
      const scrolls = ['auto', 'scroll'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1
        || ['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
      if (!scrolls) continue;
      if (el.matches(focusable) || el.querySelector(focusable)) continue;
      out.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')}[data-testid=${el.dataset.testid ?? ''}]`);
    }
    return out;
  });
  assert.deepEqual(unreachable, [], `${where}: scrollable regions no keyboard can reach`);
}

for (const colorScheme of ['light', 'dark']) {
  test(`every view passes an axe-core audit (${colorScheme})`, async () => {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?demo`, { colorScheme });
    await ready(page);

    // The main view of the demo, with its one main landmark.
    assert.equal(await page.locator('main').count(), 1, 'one main landmark');
    assertClean(await audit(page), `demo (${colorScheme})`);
    await assertScrollablesReachable(page, `demo (${colorScheme})`);

    // A file view: the demo's MEMORY.md, the file with the most on it (cut line, notes).
    const memory = page.locator('[data-testid=tree-row][data-path$="/memory/MEMORY.md"]').first();
    await memory.click();
    await page.waitForSelector('[data-testid=file-view][data-path$="/MEMORY.md"]');
    assertClean(await audit(page), `file view (${colorScheme})`);
    await assertScrollablesReachable(page, `file view (${colorScheme})`);
    await page.click('[data-testid=tab-preview]');
    await page.waitForSelector('[data-testid=markdown-preview]');
    assertClean(await audit(page), `file preview (${colorScheme})`);

    // The Health view.
    await page.click('[data-testid=view-health]');
    await page.waitForSelector('[data-testid=health-view]');
    assertClean(await audit(page), `health view (${colorScheme})`);
    await assertScrollablesReachable(page, `health view (${colorScheme})`);
    await shot(page, `a11y-health-${colorScheme}`);

    // The Reads view, with an answer: a read of a file in a folder with its own CLAUDE.md.
    await page.click('[data-testid=view-reads]');
    await page.waitForSelector('[data-testid=reads-view]');
    assertClean(await audit(page), `reads view (${colorScheme})`);
    {
      const before = Number(await page.getAttribute('[data-testid=app]', 'data-run'));
      await page.fill('[data-testid=reads-filter]', 'adapter');
      await page.click('[data-testid=read-file]');
      await ready(page, before);
      await page.waitForSelector('[data-testid=read-answer]');
    }
    assertClean(await audit(page), `reads answer (${colorScheme})`);
    await assertScrollablesReachable(page, `reads view (${colorScheme})`);
    await shot(page, `a11y-reads-${colorScheme}`);

    // The Icons legend, a dialog.
    await page.click('[data-testid=legend-open]');
    await page.waitForSelector('[data-testid=legend-dialog]');
    assertClean(await audit(page), `icons legend (${colorScheme})`);
    await shot(page, `a11y-legend-${colorScheme}`);
    await page.keyboard.press('Escape');

    // The Share dialog; its link opens the shared view below.
    await page.click('[data-testid=share]');
    await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
    assertClean(await audit(page), `share dialog (${colorScheme})`);
    const link = await page.inputValue('[data-testid=share-link]');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=share-dialog]', { state: 'detached' });

    // The project picker.
    await page.click('[data-testid=tree]');
    await page.keyboard.press('Shift+P');
    await page.waitForSelector('[data-testid=project-picker]');
    assertClean(await audit(page), `project picker (${colorScheme})`);
    await shot(page, `a11y-picker-${colorScheme}`);
    await page.keyboard.press('Escape');

    // A simulated release: the panel of what it changes, opened, and the marked rows.
    const run = Number(await page.getAttribute('[data-testid=app]', 'data-run'));
    await page.fill('[data-testid=input-version]', '2.1.83');
    await page.press('[data-testid=input-version]', 'Enter');
    await ready(page, run);
    await page.click('[data-testid=release-panel] summary');
    assertClean(await audit(page), `simulated release (${colorScheme})`);
    await page.fill('[data-testid=input-version]', '2.1.20');
    await page.press('[data-testid=input-version]', 'Enter');
    await page.waitForSelector('[data-testid=version-error]');
    assertClean(await audit(page), `refused release (${colorScheme})`);
    await shot(page, `a11y-release-${colorScheme}`);

    // The empty page.
    await page.goto(`${baseUrl}?empty`);
    await page.waitForSelector('[data-testid=empty-state]');
    assertClean(await audit(page), `empty page (${colorScheme})`);
    await shot(page, `a11y-empty-${colorScheme}`);

    // The wrong-input banner, over the empty page: a folder of photos.
    {
      const photos = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-a11y-photos-'));
      fs.writeFileSync(path.join(photos, 'IMG_0001.jpg'), 'not a photo');
      await page.setInputFiles('[data-testid=folder-input]', photos);
      await page.waitForSelector('[data-testid=input-banner]');
      assertClean(await audit(page), `wrong-input banner (${colorScheme})`);
      await shot(page, `a11y-banner-${colorScheme}`);
      fs.rmSync(photos, { recursive: true, force: true });
    }

    // A shared view, opened from the link in a page of its own.
    const shared = await context.newPage();
    await shared.goto(link);
    await shared.waitForSelector('[data-testid=shared-banner]');
    await ready(shared);
    assertClean(await audit(shared), `shared view (${colorScheme})`);
    await assertScrollablesReachable(shared, `shared view (${colorScheme})`);
    await shot(shared, `a11y-shared-${colorScheme}`);

    assert.deepEqual(errors, []);
    await context.close();
  });
}
