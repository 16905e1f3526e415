// The page on small screens, in headless Chromium through playwright-core: a phone 390 px
// wide, and a 1440 × 900 desktop at 200 % zoom (the same CSS viewport as 720 × 450 at twice
// the pixel density). On each, the page opens at the top with its title and main buttons in
// sight, nothing scrolls sideways (long paths wrap), the Share dialog fits the screen, and
// selecting a row in the tree or opening a finding's file scrolls only the tree and the file
// view, never the window. Screenshots go to tests/e2e/artifacts/.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/layout.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launchBrowser, openWatchedPage, ready, shot } from './support.mjs';

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

/** How far the document overflows the viewport sideways, in CSS pixels (0 when it does not). */
function sidewaysOverflow(page) {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

/** Elements wider than the viewport's right edge, to name in a failure. */
function overflowing(page) {
  return page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && getComputedStyle(e).position !== 'fixed')
    .filter((e) => !e.closest('[style*="overflow"], .tree, .file-view, .raw, pre, .dropped-scroll'))
    .slice(0, 8)
    .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}[${e.dataset.testid ?? ''}] right=${Math.round(e.getBoundingClientRect().right)}`));
}

/** True when the element is wholly inside the viewport. */
async function inView(page, selector) {
  return page.$eval(selector, (e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.width > 0;
  });
}

const screens = [
  { name: 'phone-390', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 },
  { name: 'zoom-200', viewport: { width: 720, height: 450 }, deviceScaleFactor: 2 },
];

for (const screen of screens) {
  test(`the page fits a ${screen.name} screen`, async () => {
    const context = await browser.newContext({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });
    const { page, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?demo`, { viewport: screen.viewport });
    await ready(page);
    await page.waitForTimeout(300);

    // Opens at the top, title and the first buttons in sight.
    assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page opens scrolled down');
    assert.ok(await inView(page, 'h1'), 'the title is out of sight');
    assert.ok(await inView(page, '[data-testid=choose-folder]'), 'the Choose folder button is out of sight');
    assert.equal(await sidewaysOverflow(page), 0, `sideways scroll: ${(await overflowing(page)).join(', ')}`);
    await shot(page, `layout-${screen.name}-top`);

    // Selecting a row moves only the tree, however far down the row is.
    const rows = page.locator('[data-testid=tree-row]');
    const last = rows.last();
    // Focusing the tree may bring it into sight; from then on, the window stays put.
    await page.focus('[data-testid=tree]');
    const before = await page.evaluate(() => window.scrollY);
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => window.scrollY), before, 'arrow keys in the tree scrolled the window');
    // A click on a row is a link: the file view lands in the window, focus on its heading
    // (issue 33), where the file view sits below the tree.
    await last.evaluate((e) => e.click());
    await page.waitForSelector('[data-testid=file-view][data-path]');
    await page.waitForFunction(() => document.activeElement?.dataset.testid === 'file-title');
    assert.ok(await inView(page, '[data-testid=file-title]'), 'a clicked row lands the file view in sight');
    assert.equal(await sidewaysOverflow(page), 0, `sideways scroll with a file open: ${(await overflowing(page)).join(', ')}`);

    // Opening a finding's file at its line lands there: the line (or, with none, the file's
    // heading) in sight, focus on the heading (issue 33).
    const finding = page.locator('[data-testid=diagnostic] button').first();
    if (await finding.count()) {
      await finding.evaluate((e) => e.click());
      await page.waitForSelector('[data-testid=file-view][data-path]');
      await page.waitForFunction(() => document.activeElement?.dataset.testid === 'file-title');
      const target = (await page.locator('[data-testid=file-view] .line.focus').count()) ? '[data-testid=file-view] .line.focus' : '[data-testid=file-title]';
      assert.ok(await inView(page, target), `opening a finding lands ${target} in sight`);
    }

    // The Share dialog fits the screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('[data-testid=share]');
    await page.waitForSelector('[data-testid=share-dialog][data-ready=true]');
    const box = await page.$eval('[data-testid=share-dialog]', (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: window.innerWidth, h: window.innerHeight };
    });
    assert.ok(box.left >= 0 && box.right <= box.w && box.top >= 0 && box.bottom <= box.h, `the dialog overflows the screen: ${JSON.stringify(box)}`);
    await shot(page, `layout-${screen.name}-share`);
    await page.keyboard.press('Escape');

    // The Icons legend fits too.
    await page.click('[data-testid=legend-open]');
    const legend = await page.$eval('[data-testid=legend-dialog]', (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: window.innerWidth, h: window.innerHeight };
    });
    assert.ok(legend.left >= 0 && legend.right <= legend.w && legend.top >= 0 && legend.bottom <= legend.h, `the legend overflows the screen: ${JSON.stringify(legend)}`);
    await shot(page, `layout-${screen.name}-legend`);
    await page.keyboard.press('Escape');

    // The Reads view with an answer: long paths wrap, nothing scrolls sideways.
    await page.click('[data-testid=view-reads]');
    await page.waitForSelector('[data-testid=reads-view]');
    const run = Number(await page.getAttribute('[data-testid=app]', 'data-run'));
    await page.fill('[data-testid=reads-path]', 'packages/ui/src/button.tsx');
    await page.press('[data-testid=reads-path]', 'Enter');
    await ready(page, run);
    await page.waitForSelector('[data-testid=read-answer]');
    assert.equal(await sidewaysOverflow(page), 0, `sideways scroll in the reads view: ${(await overflowing(page)).join(', ')}`);
    await page.locator('[data-testid=read-answer]').scrollIntoViewIfNeeded();
    await shot(page, `layout-${screen.name}-reads`);

    assert.deepEqual(errors, []);
    await context.close();
  });
}
