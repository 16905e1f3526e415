#!/usr/bin/env python3
"""Fits two tables to the recorded release captures (OWN_TEXT in core/src/version/fitted.rs,
NOT_REPRODUCED in core/src/version.rs), run by hand after `releases.mjs record` or `bisect` added
captures (fixtures/conformance/README.md, "Fitting"):

  MEMDIAG_FIT=1 cargo test -p memdiag-tests --test conformance every_recorded_release \
      -- --nocapture 2>fit.log >/dev/null
  python3 tests/conformance/fit-tables.py deltas fit.log      # per release: capture - core
  python3 tests/conformance/fit-tables.py own fit.log core/src/version/fitted.rs  # OWN_TEXT rows
  python3 tests/conformance/fit-tables.py own fit.log core/src/version/fitted.rs --write  # in place
  python3 tests/conformance/fit-tables.py gaps fit.log core/src/version.rs  # NOT_REPRODUCED

`own` adds each recorded release's most common difference (Claude Code's own text is the
same in every case of a release) to the row the core used; `gaps` turns the cases that
still differ into one entry per kind of difference and run of consecutive recorded
releases. Review the printed Rust before pasting it over the table: a new entry may be a
rule worth simulating instead (a RULE_CHANGES row).
"""
import json, re, sys, collections
mode = sys.argv[1]
lines = [json.loads(l[4:]) for l in open(sys.argv[2]) if l.startswith('FIT ')]
V = lambda s: tuple(map(int, s.split('.')))


def excesses(lines):
    """Per release and figure, how often each excess (program minus core) was seen, over the
    captures where that figure is comparable (the same skills, memory folder and files)."""
    per = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    for r in lines:
        probs = ' '.join(r['problems'])
        if r['skills'] is not None and 'skills listing: the program lists' not in probs:
            per[r['release']]['skills'][r['skills']] += 1
        if r['memory'] is not None and 'memory folder' not in probs:
            per[r['release']]['memory'][r['memory']] += 1
        if r['block'] is not None and 'startup' not in probs:
            per[r['release']]['block'][r['block']] += 1
    return per


if mode == 'deltas':
    per = excesses(lines)
    for rel in sorted(per, key=V):
        out = {k: per[rel][k].most_common(3) for k in ('block', 'skills', 'memory')}
        print(rel, out)
elif mode == 'gaps':
    def kind(p):
        if p.startswith('agent types'): return 'agenttypes'
        if p.startswith('sub-agent'): return 'agent'
        if 'as sent' in p: return 'text'
        if 'has label' in p: return 'label'
        if p.startswith('startup') or p.startswith('instruction block'): return 'block'
        if p.startswith('skills listing'): return 'skills'
        if p.startswith('read of') or p.startswith('read '): return 'read'
        if p.startswith('memory folder'): return 'memdir'
        if p.startswith('memory section'): return 'memsection'
        return 'other:' + p[:40]
    by_case = collections.defaultdict(list)
    for r in lines:
        by_case[r['case']].append((V(r['release']), sorted({kind(p) for p in r['problems']})))
    entries = collections.defaultdict(list)
    src = open(sys.argv[3]).read()
    PIN = tuple(map(int, re.search(r'pub const PINNED: ClaudeVersion = ClaudeVersion\(([\d, ]+)\)', src)[1].split(', ')))
    for case, rs in by_case.items():
        rs.append((PIN, []))  # the pin replays (every_capture_replays_against_the_core)
        rs.sort()
        for k in sorted({k for _, ks in rs for k in ks}):
            run = None
            for v, kinds in rs + [((9, 9, 9), [])]:
                if k in kinds:
                    if run is None: run = [v, v]
                    else: run[1] = v
                elif run is not None:
                    entries[(run[0], run[1], (k,))].append(case); run = None
    SUMMARY = {
        'skills': "the skills listing holds other lines (descriptions, budget, which skills)",
        'read': "a Read attaches other files or skills than the current releases do",
        'block': "the instruction block holds other files (empty files, oversized files, AGENTS.md, the memory index)",
        'text': "files are sent with other text (frontmatter, comments, line ends, trimming, the MEMORY.md caps and warning)",
        'label': "the managed policy's files (and their imports) are labelled as the user's instructions",
        'agent': "a sub-agent receives other files or another memory index",
        'memdir': "the memory folder is chosen otherwise (which settings layers autoMemoryDirectory is read from)",
        'agenttypes': "the listing of agent types holds other lines, or lines in another order",
    }
    # Gaps whose cause was found, by (kind, first, last release): said instead of the kind's
    # summary. Keep them true when the range moves.
    EXPLAINED = {
        ('read', (2, 1, 59), (2, 1, 68)):
            "in claude -p and SDK sessions (which the captures are) a Read attaches nothing: "
            "their session never collects the files a Read makes relevant (2.1.68's code); "
            "interactive sessions attach them as later releases do, as the report shows",
        ('skills', (2, 1, 113), (2, 1, 153)):
            "the user's skills are listed in the order the file system lists their folders, unsorted, which a snapshot does not keep (the core lists them sorted, as 2.1.112 and 2.1.154 on do); over the budget that order also decides which descriptions fit",
        ('skills', (2, 1, 118), (2, 1, 129)):
            "the user's skills are listed in the order the file system lists their folders, unsorted, which a snapshot does not keep (the core lists them sorted, as 2.1.112 and 2.1.154 on do); over the budget that order also decides which descriptions fit",
        ('read', (2, 1, 198), (2, 1, 232)):
            "a subfolder's skills are announced on the Read after the one that reached them (2.1.198 to 2.1.228, 2.1.231 and 2.1.232) or on that Read (2.1.229), flipping between releases; the core announces none before 2.1.257, as 2.1.233 to 2.1.252 do",
    }
    out = []
    for (a, b, kinds), cases in sorted(entries.items()):
        print('//', '.'.join(map(str, a)), 'to', '.'.join(map(str, b)), ','.join(kinds), file=sys.stderr)
        summary = EXPLAINED.get((kinds[0], a, b)) or '; '.join(SUMMARY.get(k, k) for k in kinds)
        cs = ''.join(f'            "{c}",\n' for c in sorted(cases))
        out.append(f"""    Unreproduced {{
        from: ClaudeVersion({a[0]}, {a[1]}, {a[2]}),
        to: ClaudeVersion({b[0]}, {b[1]}, {b[2]}),
        summary: "{summary}",
        cases: &[
{cs}        ],
    }},
""")
    print(''.join(out), end='')
if mode == 'own':
    src = open(sys.argv[3]).read()
    table = src[src.index('pub(crate) const OWN_TEXT'):]
    table = table[:table.index('];')]
    rows = [(tuple(map(int, m[0].split(', '))), int(m[1]), int(m[2].replace('_', '')), int(m[3].replace('_', '')))
            for m in re.findall(r'since: ClaudeVersion\(([\d, ]+)\),\s*block_wrap: (\d+),\s*skills_listing: ([\d_]+),\s*memory_section: ([\d_]+)', table)]
    def current(v):
        return [r for r in rows if r[0] <= v][-1][1:]
    per = excesses(lines)
    releases = sorted({V(r['release']) for r in lines} | {r[0] for r in rows})
    out = []
    prev = None
    for v in releases:
        cur = list(current(v))
        rel = '.'.join(map(str, v))
        for i, k in enumerate(('block', 'skills', 'memory')):
            c = per[rel][k]
            if c:
                cur[i] += c.most_common(1)[0][0]
            elif prev is not None and v not in {r[0] for r in rows}:
                cur[i] = prev[i]
        if cur != prev:
            out.append((v, cur))
        prev = cur
    g = lambda n: f'{n:_}' if n >= 10000 else (f'{n // 1000}_{n % 1000:03}' if n >= 1000 else str(n))
    rendered = ''.join(f"""    OwnText {{
        since: ClaudeVersion({v[0]}, {v[1]}, {v[2]}),
        block_wrap: {b},
        skills_listing: {g(s)},
        memory_section: {g(m)},
    }},
""" for v, (b, s, m) in out)
    if '--write' in sys.argv[4:]:
        # Rewrites the table in place: its rows, between `= &[` and `];`.
        start = src.index('= &[\n', src.index('pub(crate) const OWN_TEXT')) + len('= &[\n')
        end = src.index('];', start)
        if src[start:end] != rendered:
            open(sys.argv[3], 'w').write(src[:start] + rendered + src[end:])
            print('OWN_TEXT rewritten in', sys.argv[3], file=sys.stderr)
        else:
            print('OWN_TEXT unchanged', file=sys.stderr)
    else:
        print(rendered, end='')
