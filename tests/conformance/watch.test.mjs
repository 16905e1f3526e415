// The release watch's listing (watch.mjs), against a recorded registry answer: what
// `npm view @anthropic-ai/claude-code versions time dist-tags --json` printed on 2026-12-07
// (fixtures/registry/claude-code.json), when 2.1.337 was the newest release. No network.
//
//   node --test tests/conformance/watch.test.mjs     (scripts/test.sh runs it)

import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  compareVersions, describe, issueTitle, publishedReleases, recordedReleases, unrecorded,
} from './watch.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const answer = JSON.parse(fs.readFileSync(path.join(repo, 'fixtures/registry/claude-code.json'), 'utf8'));

test('the published list is the 2.x releases in numeric order', () => {
  const list = publishedReleases(answer);
  assert.equal(list[0], '2.0.0');
  assert.equal(list.at(-1), '2.1.337');
  assert.ok(!list.includes('2.1.82'), '2.1.82 was never published');
  assert.ok(list.every((v) => /^2\.\d+\.\d+$/.test(v)), 'no 0.x, 1.x or pre-release');
  for (let i = 1; i < list.length; i += 1) assert.ok(compareVersions(list[i - 1], list[i]) < 0);
  assert.ok(list.indexOf('2.1.99') < list.indexOf('2.1.100'), 'numeric, not text, order');
  // `npm view … versions --json` alone answers a bare list.
  assert.deepEqual(publishedReleases(answer.versions), list);
});

test('lists every release newer than the newest recorded, with its date and issue', () => {
  const report = unrecorded(answer, ['2.1.59', '2.1.328', '2.1.120']);
  assert.equal(report.newest_recorded, '2.1.328');
  assert.deepEqual(report.unrecorded.map((r) => r.version), ['2.1.329', '2.1.330', '2.1.331', '2.1.332', '2.1.337']);
  const newest = report.unrecorded.at(-1);
  assert.equal(newest.published, '2026-12-04T17:10:04+00:00');
  assert.equal(newest.title, issueTitle('2.1.337'));
  assert.match(newest.body, /releases\.mjs record 2\.1\.337/);
  assert.match(newest.body, /releases\.mjs diff 2\.1\.328 2\.1\.337/);
  assert.match(describe(report), /^2\.1\.329 \(published 2026-11-\d\d\): not recorded \(newest recorded: 2\.1\.328\)$/m);
});

test('releases between recorded ones are not listed, and nothing new says so', () => {
  // 2.1.329 to 2.1.331 are not recorded, but 2.1.337 is: the watch is for what is new.
  const report = unrecorded(answer, ['2.1.328', '2.1.337']);
  assert.deepEqual(report, { newest_recorded: '2.1.337', unrecorded: [] });
  assert.equal(describe(report), 'no release newer than 2.1.337 is published');
  // One title per release: the weekly job looks for it before opening an issue.
  assert.notEqual(issueTitle('2.1.338'), issueTitle('2.1.33'));
});

test('with nothing recorded every release is new; a broken answer is an error', () => {
  assert.equal(unrecorded(answer, []).unrecorded.length, publishedReleases(answer).length);
  assert.throws(() => unrecorded({ error: { code: 'E404' } }, ['2.1.328']), /no "versions" list/);
  assert.throws(() => publishedReleases(null), /no "versions" list/);
  const noDates = unrecorded({ versions: ['2.1.400', '2.2.0-beta.1', '3.0.0'] }, ['2.1.337']);
  assert.deepEqual(noDates.unrecorded.map((r) => [r.version, r.published]), [['2.1.400', null]]);
});

test('the recorded releases include the pin and are read from the fixtures', () => {
  const recorded = recordedReleases(path.join(repo, 'fixtures/conformance'), { fs, path });
  const pin = JSON.parse(fs.readFileSync(path.join(repo, 'scripts/npm/package.json'), 'utf8'))
    .dependencies['@anthropic-ai/claude-code'];
  assert.ok(recorded.includes(pin), `the pin ${pin} is recorded`);
  assert.ok(recorded.includes('2.1.59'));
  for (let i = 1; i < recorded.length; i += 1) assert.ok(compareVersions(recorded[i - 1], recorded[i]) < 0);
});

test("the core's published list is the recorded answer's", () => {
  // core/src/version/published.rs (the page's suggestions, `ClaudeVersion::is_published`)
  // was taken from the same answer: refresh both together.
  const rs = fs.readFileSync(path.join(repo, 'core/src/version/published.rs'), 'utf8');
  const listed = [...rs.matchAll(/V\((\d+), (\d+), (\d+)\)/g)].map((m) => `${m[1]}.${m[2]}.${m[3]}`);
  assert.deepEqual(listed, publishedReleases(answer));
});
