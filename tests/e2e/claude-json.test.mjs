// End-to-end test of the optional ~/.claude.json in the built page (dist/), in headless
// Chromium driven by playwright-core.
//
// A project's CLAUDE.md imports ../outside.md, a file outside the project that a dropped home
// folder holds. Without ~/.claude.json the import waits for approval, and its file view offers
// to add the file; added through that button (the page's file input), with the project
// approved, the import loads and counts, as the native scan command reports for the same files
// with the .claude.json in the home folder. Nothing else of the file shows, the status line
// says it is in use, Remove takes it out again, and the page requests nothing outside its
// origin. Screenshots go to tests/e2e/artifacts/.
//
// Run by scripts/test.sh; by hand (after `trunk build --release`):
//   node --test tests/e2e/claude-json.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  dist, artifacts, serveDist, launchWithProfile, openWatchedPage, currentRun, settled, shot, scan,
} from './support.mjs';

const HOME = '/home/sam';
const PROJECT = '/home/sam/shop';
const OUTSIDE = '/home/sam/outside.md';
const SECRET = 'sam.private@example.com';

let server;
let baseUrl;
let context;
let scratch;

/** Writes `files` (relative path to text) below `dir`. */
function writeTree(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

function rows(report) {
  return report.files.map((r) => `${r.group} | ${r.load} | ${r.status} | ${r.path} | ${r.parent_index ?? '-'} | ${r.counted}`);
}

/** The page's report, downloaded as JSON. */
async function downloadedReport(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download]')]);
  const file = path.join(scratch, `report-${Date.now()}.json`);
  await download.saveAs(file);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The import's tree row: its status and its badge. */
async function outsideRow(page) {
  const row = page.locator(`[data-testid=tree-row][data-path="${OUTSIDE}"]`);
  return {
    status: await row.getAttribute('data-status'),
    badges: await row.locator('[data-testid=status-badge]').allTextContents(),
  };
}

before(async () => {
  assert.ok(fs.existsSync(path.join(dist, 'index.html')), `no built page in ${dist}: run trunk build --release first`);
  fs.mkdirSync(artifacts, { recursive: true });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'memdiag-e2e-claude-json-'));
  ({ baseUrl, server } = await serveDist());
  context = await launchWithProfile(path.join(scratch, 'profile'));
});

after(async () => {
  await context?.close();
  server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

test('an added ~/.claude.json approves an import outside the project, and only that is read', async () => {
  // The home folder (its .claude and the file outside the project, but no .claude.json, as a
  // dropped ~/.claude never has one) and the project beside it.
  const home = path.join(scratch, 'sam');
  const shop = path.join(scratch, 'shop');
  writeTree(home, {
    'outside.md': '# Shared\n\nAlways run the linter before a commit.\n',
    '.claude/CLAUDE.md': '# Me\n\nShort answers.\n',
    '.claude/projects/-home-sam-shop/memory/MEMORY.md': '- [Linter](linter.md) runs before commits\n',
    '.claude/projects/-home-sam-shop/memory/linter.md': '---\ntype: project\n---\nThe linter is strict.\n',
  });
  writeTree(shop, { 'CLAUDE.md': '# Shop\n\nShared rules: @../outside.md\n' });
  const claudeJson = path.join(scratch, 'claude-json', '.claude.json');
  writeTree(path.dirname(claudeJson), {
    '.claude.json': JSON.stringify({
      numStartups: 12,
      oauthAccount: { emailAddress: SECRET },
      projects: {
        [PROJECT]: { hasClaudeMdExternalIncludesApproved: true, allowedTools: ['Bash(rm -rf /tmp/x)'] },
        '/home/sam/other': { hasClaudeMdExternalIncludesApproved: false },
      },
    }, null, 2),
  });
  // What the scan command makes of the same files, without and with the .claude.json.
  const approvedHome = path.join(scratch, 'sam-approved');
  fs.cpSync(home, approvedHome, { recursive: true });
  fs.copyFileSync(claudeJson, path.join(approvedHome, '.claude.json'));
  const scanOf = (dir) => scan(['--home', HOME, '--project', PROJECT, '--mount', `${HOME}=${dir}`, '--mount', `${PROJECT}=${shop}`]);
  const before = scanOf(home);
  const approved = scanOf(approvedHome);
  const outsideIn = (report) => report.files.find((r) => r.path === OUTSIDE);
  assert.equal(outsideIn(before).status, 'needs-approval');
  assert.equal(outsideIn(before).counted, false);
  assert.equal(outsideIn(approved).status, 'ok');
  assert.equal(outsideIn(approved).counted, true);

  const { page, foreign, errors } = await openWatchedPage(context, baseUrl, `${baseUrl}?empty`);
  await page.waitForSelector('[data-testid=empty-state]');
  const line = page.locator('[data-testid=claude-json]');
  assert.equal(await line.getAttribute('data-added'), 'false');
  assert.match(await line.textContent(), /Add ~\/\.claude\.json \(optional\): only hasClaudeMdExternalIncludesApproved for this project is read; nothing else, and nothing leaves the page/);

  let run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', home);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-home]'), HOME);
  run = await currentRun(page);
  await page.setInputFiles('[data-testid=folder-input]', shop);
  await settled(page, run);
  assert.equal(await page.inputValue('[data-testid=input-project]'), PROJECT);

  // Without ~/.claude.json the import waits for approval, and its file view says how to add it.
  assert.deepEqual(await outsideRow(page), { status: 'needs-approval', badges: ['needs approval'] });
  assert.match(
    await page.getAttribute(`[data-testid=tree-row][data-path="${OUTSIDE}"] [data-testid=status-badge]`, 'title'),
    /Add ~\/\.claude\.json/,
  );
  assert.deepEqual(rows(await downloadedReport(page)), rows(before));
  await page.click(`[data-testid=tree-row][data-path="${OUTSIDE}"]`);
  await page.waitForSelector(`[data-testid=file-view][data-path="${OUTSIDE}"]`);
  assert.equal(await page.getAttribute('[data-testid=file-session]', 'data-counted'), 'false');
  assert.equal(await page.getAttribute('[data-testid=approval-note]', 'data-hint'), 'add');
  const charsBefore = Number(await page.getAttribute('[data-testid=card-chars]', 'data-value'));
  await shot(page, '30-claude-json-needs-approval');

  // The note's button opens the page's file input; the chosen file is in use at once.
  run = await currentRun(page);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.click('[data-testid=approval-add-claude-json]'),
  ]);
  await chooser.setFiles(claudeJson);
  await settled(page, run);
  assert.deepEqual(errors, []);
  assert.equal(await line.getAttribute('data-added'), 'true');
  assert.equal(await line.getAttribute('data-place'), '~/.claude.json');
  assert.match(await page.textContent('[data-testid=status-claude-json]'), /~\/\.claude\.json in use/);

  // The import now loads and counts, as the scan says.
  assert.deepEqual(await outsideRow(page), { status: 'ok', badges: [] });
  await page.waitForSelector(`[data-testid=file-view][data-path="${OUTSIDE}"]`);
  assert.equal(await page.getAttribute('[data-testid=file-session]', 'data-counted'), 'true');
  assert.equal(await page.locator('[data-testid=approval-note]').count(), 0);
  const charsAfter = Number(await page.getAttribute('[data-testid=card-chars]', 'data-value'));
  // The card counts the person's own text (Claude Code's sentence before a quoted MEMORY.md
  // is Claude Code's, not theirs).
  assert.equal(charsAfter, approved.session.cost.total.user);
  assert.ok(charsAfter > charsBefore, `${charsAfter} > ${charsBefore}`);
  const report = await downloadedReport(page);
  assert.deepEqual(rows(report), rows(approved));
  assert.deepEqual(report.footprint, approved.footprint);
  // Nothing else of the file shows, on the page or in its report.
  assert.ok(!(await page.textContent('body')).includes(SECRET));
  assert.ok(!JSON.stringify(report).includes(SECRET));
  assert.ok(!JSON.stringify(report).includes('allowedTools'));
  await shot(page, '31-claude-json-approved');

  // Removed, the import waits again.
  run = await currentRun(page);
  await page.click('[data-testid=remove-claude-json]');
  await settled(page, run);
  assert.equal(await line.getAttribute('data-added'), 'false');
  assert.equal(await page.locator('[data-testid=status-claude-json]').count(), 0);
  assert.deepEqual(await outsideRow(page), { status: 'needs-approval', badges: ['needs approval'] });

  assert.deepEqual(errors, []);
  assert.deepEqual(foreign, [], 'requests outside the page origin');
  await page.close();
});
