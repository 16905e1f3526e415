// Which published Claude Code releases are not recorded yet: the listing behind
// `node tests/conformance/releases.mjs watch` and the weekly job that opens an issue for each
// (.github/workflows/release-watch.yml). Pure functions of the registry's answer and the
// recorded releases, so that `node --test tests/conformance/watch.test.mjs` checks them
// against a recorded answer, offline.
//
// The registry's answer is what `npm view @anthropic-ai/claude-code versions time dist-tags
// --json` prints: `{ versions: [...], time: { <version>: <ISO date>, ... }, "dist-tags": … }`.

export const PACKAGE = '@anthropic-ai/claude-code';

/** The fields `npm view` is asked for; the recorded answer holds the same. */
export const VIEW_FIELDS = ['versions', 'time', 'dist-tags'];

const RELEASE = /^2\.\d+\.\d+$/;

const parts = (v) => v.split('.').map(Number);

/** Orders two `major.minor.patch` numbers numerically (2.1.99 before 2.1.100). */
export function compareVersions(a, b) {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * The published 2.x releases in the registry's answer, oldest first: pre-releases
 * (`2.2.0-beta.1`) and 0.x/1.x are left out, as the conformance suite records neither.
 * Throws on an answer without a `versions` list (an npm error printed as JSON, say).
 */
export function publishedReleases(answer) {
  const versions = Array.isArray(answer) ? answer : answer?.versions;
  if (!Array.isArray(versions)) {
    throw new Error('the registry answer has no "versions" list');
  }
  return [...new Set(versions.filter((v) => typeof v === 'string' && RELEASE.test(v)))]
    .sort(compareVersions);
}

/** The title of the issue the weekly job opens for `version` (it looks for it first). */
export const issueTitle = (version) => `Record Claude Code ${version} (newly published)`;

function issueBody(version, published, newest) {
  const when = published ? ` on ${published.slice(0, 10)}` : '';
  return [
    `npm published \`${PACKAGE}@${version}\`${when}; the newest release the conformance suite has recorded is ${newest ?? 'none'}.`,
    '',
    'Record it and replay every recorded release (docs/conformance.md, "Recording another release"):',
    '',
    '```sh',
    `node tests/conformance/releases.mjs record ${version}`,
    `node tests/conformance/releases.mjs diff ${newest ?? version} ${version}`,
    `node tests/conformance/releases.mjs bisect ${newest ?? version} ${version}   # when the diff names cases`,
    'cargo test -p memdiag-tests --test conformance',
    '```',
    '',
    `Then add it to \`core/src/version/published.rs\` and to the "Recorded" list in fixtures/conformance/README.md, and decide whether it can be the pin.`,
    '',
    'Opened by the weekly release watch (.github/workflows/release-watch.yml).',
  ].join('\n');
}

/**
 * What the watch reports: the newest recorded release, and every published 2.x release
 * newer than it, oldest first, each with its publication date (from the answer's `time`,
 * null when missing) and the issue's title and body. Releases published between recorded
 * ones are not listed: the watch is for what is new, the bisection covers the rest.
 */
export function unrecorded(answer, recorded) {
  const newest = [...recorded].filter((v) => RELEASE.test(v)).sort(compareVersions).at(-1) ?? null;
  const time = (answer && !Array.isArray(answer) && answer.time) || {};
  const fresh = publishedReleases(answer)
    .filter((v) => newest === null || compareVersions(v, newest) > 0)
    .map((version) => {
      const published = typeof time[version] === 'string' ? time[version] : null;
      return { version, published, title: issueTitle(version), body: issueBody(version, published, newest) };
    });
  return { newest_recorded: newest, unrecorded: fresh };
}

/** The watch's text output: one line per release, or a line saying there is none. */
export function describe({ newest_recorded: newest, unrecorded: fresh }) {
  if (!fresh.length) return `no release newer than ${newest ?? '(none recorded)'} is published`;
  return fresh
    .map((r) => `${r.version}${r.published ? ` (published ${r.published.slice(0, 10)})` : ''}: not recorded (newest recorded: ${newest ?? 'none'})`)
    .join('\n');
}

/**
 * The releases the conformance suite has recorded: every `releases/<ver>.json` of a case
 * under `casesDir`, and the release each case's `capture.json` was recorded on (the pin).
 * `fs` and `path` are handed in, so this module imports nothing.
 */
export function recordedReleases(casesDir, { fs, path }) {
  const found = new Set();
  for (const entry of fs.readdirSync(casesDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = path.join(casesDir, entry.name);
    const releases = path.join(dir, 'releases');
    if (fs.existsSync(releases)) {
      for (const file of fs.readdirSync(releases)) {
        const m = /^(\d+\.\d+\.\d+)\.json$/.exec(file);
        if (m) found.add(m[1]);
      }
    }
    const capture = path.join(dir, 'capture.json');
    if (fs.existsSync(capture)) {
      const { release } = JSON.parse(fs.readFileSync(capture, 'utf8'));
      if (typeof release === 'string') found.add(release);
    }
  }
  return [...found].sort(compareVersions);
}
