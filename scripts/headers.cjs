// Reads a `_headers` file (the format Netlify and Cloudflare Pages read) and gives the
// headers it lists for a path, so that the local servers (scripts/serve.sh's, through
// tools.sh, and the end-to-end tests', tests/e2e/support.mjs) serve the page under the same
// headers a host would.
//
// The format: a line that starts without a space is a path pattern (`/*`, `/worker.js`,
// `/:name/x`); the indented `Name: value` lines under it are its headers; `#` starts a
// comment line. A path gets the headers of every pattern that matches it, in the file's
// order; a name listed again is joined with `, ` as those hosts do.
'use strict';

const fs = require('fs');
const path = require('path');

/** The rules of a `_headers` text: `[{ pattern: RegExp, headers: [[name, value]] }]`. */
function parseHeaders(text) {
  const rules = [];
  for (const [number, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trimEnd();
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+'))
        .join('.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    if (!rules.length || colon < 0) throw new Error(`_headers line ${number + 1}: no path above, or no "Name: value"`);
    rules[rules.length - 1].headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** The headers `rules` give `pathname` (`/worker.js`), names in lower case. */
function headersFor(rules, pathname) {
  const out = {};
  for (const rule of rules) {
    if (!rule.pattern.test(pathname)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      out[key] = key in out ? `${out[key]}, ${value}` : value;
    }
  }
  return out;
}

/** The rules of `dir/_headers`, or none when it has no such file. */
function readHeaders(dir) {
  const file = path.join(dir, '_headers');
  return fs.existsSync(file) ? parseHeaders(fs.readFileSync(file, 'utf8')) : [];
}

module.exports = { parseHeaders, headersFor, readHeaders };
