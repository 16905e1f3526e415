#!/usr/bin/env python3
"""Prints the rows of `AGENT_LISTINGS` (core/src/version/fitted.rs) from the raw requests that
`releases.mjs record VER --case agents-listing-…` keeps under $MEMDIAG_RELEASES/raw/<ver>/
(fixtures/conformance/README.md, "Other releases"):

  python3 tests/conformance/agent-rows.py [RAW_DIR] > rows.rs

Every line of the listing of agent types whose name is not among the case's own lines (its
release capture's `agent_types`) is a built-in agent's: its name and its line's UTF-16 units
(with `- ` and the line break) are printed, never its text. The listing is read where the release sends it: a system message
of the first turn (`Available agent types for the Agent tool:`, then the note on launching
agents together where the release has it), or, in older releases, the description of the
`Agent` or `Task` tool (`Available agent types and the tools they have access to:`). A row
is printed where the lengths change; review it, then paste it over the table.
"""
import json, os, re, sys

RAW = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get('MEMDIAG_RELEASES', '/work/releases'), 'raw')
# The cases whose listing is read, in this order of preference; a line is a built-in agent's
# when its name is not among the case's own lines in that release's capture.
CASES = ['agents-listing-fifty-in-a-subfolder', 'agents-listing-line-forms-and-order',
         'agents-listing-sources-subfolders-and-shadowing']
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = 'Available agent types for the Agent tool:\n'
TOOL_MARKER = 'Available agent types and the tools they have access to:\n'
NOTE = ('When you launch multiple agents for independent work, send them in a single message '
        'with multiple tool uses so they run concurrently.')
V = lambda v: tuple(map(int, v.split('.')))


def u16(s):
    return len(s.encode('utf-16-le')) // 2


def texts(body):
    """The main session's first request: its system prompt, first-turn texts, tools."""
    system = body.get('system')
    if isinstance(system, str):
        yield 'message', system
    for block in system or []:
        if isinstance(block, dict):
            yield 'message', block.get('text', '')
    for message in body['messages']:
        parts = message['content']
        if isinstance(parts, str):
            parts = [{'type': 'text', 'text': parts}]
        for part in parts:
            if part.get('type') == 'text':
                yield 'message', part['text']
    for tool in body.get('tools', []):
        if tool.get('name') in ('Agent', 'Task') and 'description' in tool:
            yield 'tool', tool['description']


def own_names(case, ver):
    """The names of the case's own lines in the release's capture."""
    capture = json.load(open(os.path.join(ROOT, 'fixtures/conformance', case, 'releases', f'{ver}.json')))
    return {e[:e.index(': ')] for e in (capture.get('agent_types') or {}).get('entries', [])}


def listing(ver, case):
    """(opening units, built-in (name, units) pairs, note units) as the release sent them."""
    raw = json.load(open(os.path.join(RAW, ver, f'{case}.json')))
    body = raw['records'][0]['body']
    own = own_names(case, ver)
    for where, text in texts(body):
        marker = MARKER if where == 'message' else TOOL_MARKER
        at = text.find(marker)
        if at < 0:
            continue
        rest = text[at + len(marker):]
        note = 0
        if where == 'message':
            n = rest.find('\n\n' + NOTE)
            m = re.search(r'\n\n(?=The following skills)|\n</system-reminder>|$', rest)
            end = n if n >= 0 else m.start()
            note = u16('\n\n' + NOTE) if n >= 0 else 0
        else:
            end = re.search(r'\n\nWhen |$', rest).start()
        lines = re.split(r'(?<=\))\n(?=- )', rest[:end])
        built_ins = [(l[2:l.index(': ')], u16(l) + 1) for l in lines
                     if l[2:l.index(': ')] not in own]
        return u16(marker), built_ins, note
    return None


def g(n):
    return f'{n // 1000}_{n % 1000:03}' if n >= 1000 else str(n)


def row(ver, found):
    opening, built_ins, note = found
    units = opening + sum(u for _, u in built_ins) - 1 + note
    names = ''.join(f'            ("{n}", {u}),\n' for n, u in built_ins)
    a, b, c = V(ver)
    return f"""    AgentListing {{
        since: ClaudeVersion({a}, {b}, {c}),
        units: {g(units)},
        built_ins: &[
{names}        ],
    }},"""


prev = None
for ver in sorted(os.listdir(RAW), key=V):
    cases = [c for c in CASES if os.path.exists(os.path.join(RAW, ver, f'{c}.json'))]
    if not cases:
        continue
    found = listing(ver, cases[0])
    if found is None:
        print(f'// {ver}: no listing of agent types found', file=sys.stderr)
        continue
    if found != prev:
        print(row(ver, found))
    prev = found
