#!/usr/bin/env python3
"""Prints the rows of `LISTING_BUDGETS` (core/src/version/fitted.rs) from the raw requests that
`releases.mjs record VER --case skills-listing-line-forms` keeps under
$MEMDIAG_RELEASES/raw/<ver>/ (fixtures/conformance/README.md, "Release facts found"):

  python3 tests/conformance/listing-rows.py [RAW_DIR] > rows.rs

Every line of that case's listing fits on every release, so each built-in skill's line is
whole (but for the release's own description cut): its name's and description's UTF-16
units, where its description breaks lines, and whether it is bundled (kept whole over the
budget) are read from it. Claude Code's text itself is never printed. A row is printed where
the built-in skills or the budget change; review it, then paste it over the table (the last
row, the pin's, is measured by the `skills-listing-budget-*` cases and kept).
"""
import json, os, re, sys

RAW = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.environ.get('MEMDIAG_RELEASES', '/work/releases'), 'raw')
CASE = 'skills-listing-line-forms'
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USER = set(os.listdir(os.path.join(ROOT, f'fixtures/conformance/{CASE}/tree/home/u/.claude/skills')))
# Built-in skills that are commands, not bundled skills: over the budget they compete with the
# user's (their lines come after the user's in 2.1.108-2.1.128's listing).
NOT_BUNDLED = {'init', 'review', 'security-review', 'statusline', 'insights', 'team-onboarding'}
V = lambda v: tuple(map(int, v.split('.')))


def u16(s):
    return len(s.encode('utf-16-le')) // 2


def listing(ver):
    """The listing's lines (without `- `) as the release sent them."""
    raw = json.load(open(os.path.join(RAW, ver, f'{CASE}.json')))
    for rec in raw.get('records', []):
        for message in rec['body']['messages']:
            parts = message['content']
            if isinstance(parts, str):
                parts = [{'type': 'text', 'text': parts}]
            for part in parts:
                text = part.get('text', '')
                at = text.find('The following skills')
                if at < 0:
                    continue
                rest = text[at:]
                rest = rest[rest.find('\n\n') + 2:]
                for end in ('</system-reminder>', '\n\n<total_tokens>'):
                    if end in rest:
                        rest = rest[:rest.index(end)]
                rest = rest.rstrip('\n')
                lines = re.split(r'\n(?=- [\w.:-]+(?::|\n|$))', rest)
                return [line[2:] for line in lines]
    return None


def budget(ver):
    """(context tokens, percent): the budget each era's captures measured."""
    v = V(ver)
    if v < (2, 1, 86):
        return 200_000, 2
    if v < (2, 1, 129):
        return 200_000, 1
    if v < (2, 1, 139):
        return 1_000_000, 1
    return 750_000, 1


def number(n):
    return f'{n:_}' if n >= 1000 else str(n)


rows = [('2.1.59', budget('2.1.59'), [])]
for ver in sorted((v for v in os.listdir(RAW) if os.path.exists(os.path.join(RAW, v, f'{CASE}.json'))), key=V):
    lines = listing(ver)
    if lines is None:
        continue
    built_ins = []
    for line in lines:
        name, _, description = line.partition(': ')
        if name.split(' ')[0] in USER:
            continue
        breaks = tuple(u16(description[:i]) for i, c in enumerate(description) if c == '\n')
        built_ins.append((u16(name), u16(description), breaks, name not in NOT_BUNDLED))
    if (rows[-1][1], rows[-1][2]) != (budget(ver), built_ins):
        rows.append((ver, budget(ver), built_ins))
for ver, (tokens, percent), built_ins in rows:
    print('    ListingBudget {')
    print(f"        since: ClaudeVersion({ver.replace('.', ', ')}),")
    print(f'        context_tokens: {number(tokens)},')
    print(f'        fraction_percent: {percent},')
    print('        built_ins: &[' + ('' if built_ins else '],'))
    for name, description, breaks, bundled in built_ins:
        call = f'built_in({name}, {number(description)}, {str(bundled).lower()})'
        if breaks:
            print('            BuiltInSkill {')
            print(f"                line_breaks: &[{', '.join(number(b) for b in breaks)}],")
            print(f'                ..{call}')
            print('            },')
        else:
            print(f'            {call},')
    if built_ins:
        print('        ],')
    print('    },')
