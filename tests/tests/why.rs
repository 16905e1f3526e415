//! `memdiag_core::why`: whether and when one file loads, and the exact reason when it does
//! not. One tree holds a file for each reason; each case is one line: the path, the one-word
//! answer, and words the reason (or the "when") must hold.

use memdiag_core::{why, Loads};
use memdiag_tests::Fixture;

const TREE: &str = r#"//@ project=/home/alice/app
//- /home/alice/.claude/settings.json
{"claudeMdExcludes": ["**/team/CLAUDE.md"]}
//- /home/alice/.claude/CLAUDE.md
user
//- /home/alice/.claude/agents/helper.md
---
name: helper
description: the user's helper
---
user body
//- /home/alice/app/.claude/agents/helper.md
---
name: helper
description: the project's helper
---
project body
//- /home/alice/app/CLAUDE.md
@1.md
@../outside.md
@docs/a.png
//- /home/alice/outside.md
outside the project
//- /home/alice/app/docs/a.png
png
//- /home/alice/app/1.md
@2.md
//- /home/alice/app/2.md
@3.md
//- /home/alice/app/3.md
@4.md
//- /home/alice/app/4.md
@5.md
//- /home/alice/app/5.md
@6.md
//- /home/alice/app/6.md
too deep
//- /home/alice/app/team/CLAUDE.md
team
//- /home/alice/app/big/CLAUDE.md size=5000000
//- /home/alice/app/src/main.py
print()
//- /home/alice/app/.claude/rules/py.md
---
paths: "**/*.py"
---
python
//- /home/alice/app/.claude/rules/go.md
---
paths: "**/*.go"
---
go
//- /home/alice/app/.claude/rules/always.md
always
//- /home/alice/app/.claude/skills/deploy/SKILL.md
---
name: deploy
description: ships it
---
body
//- /home/alice/app/.claude/skills/group/inner/SKILL.md
---
name: inner
description: too deep
---
body
//- /home/alice/app/.claude/CLAUDE.local.md
never read
//- /home/alice/app/notes.md
just a file
//- /home/alice/other/CLAUDE.md
another project
//- /home/alice/app/lib/CLAUDE.md
nested
//- /home/alice/app/empty/CLAUDE.md
<!-- only a comment -->
"#;

/// `(path, answer, words the reasons or the "when" hold)`.
const CASES: &[(&str, Loads, &str)] = &[
    (
        "/home/alice/app/CLAUDE.md",
        Loads::EverySession,
        "at startup, in every session: file",
    ),
    ("CLAUDE.md", Loads::EverySession, "in every session"),
    (
        "~/.claude/CLAUDE.md",
        Loads::EverySession,
        "in every session",
    ),
    (
        "/home/alice/app/1.md",
        Loads::EverySession,
        "in every session",
    ),
    (
        "/home/alice/app/team/CLAUDE.md",
        Loads::Never,
        "claudeMdExcludes pattern \"**/team/CLAUDE.md\" in /home/alice/.claude/settings.json",
    ),
    (
        "/home/alice/outside.md",
        Loads::Never,
        "approve external imports",
    ),
    (
        "/home/alice/app/5.md",
        Loads::Never,
        "hops from the file that starts the chain",
    ),
    ("/home/alice/app/big/CLAUDE.md", Loads::Never, "4 MiB"),
    (
        "/home/alice/app/docs/a.png",
        Loads::Never,
        "not a text file",
    ),
    (
        "/home/alice/app/.claude/rules/go.md",
        Loads::Never,
        "no file of the project matches **/*.go",
    ),
    (
        "/home/alice/app/.claude/rules/py.md",
        Loads::Sometimes,
        "when Claude reads a file that matches its paths (**/*.py)",
    ),
    (
        "/home/alice/app/.claude/rules/always.md",
        Loads::EverySession,
        "in every session",
    ),
    (
        "/home/alice/other/CLAUDE.md",
        Loads::Unknown,
        "outside the working directory",
    ),
    (
        "/home/alice/.claude/agents/helper.md",
        Loads::Never,
        "shadowed: the sub-agent helper defined in /home/alice/app/.claude/agents/helper.md",
    ),
    (
        "/home/alice/app/.claude/agents/helper.md",
        Loads::EverySession,
        "sub-agent helper",
    ),
    (
        "/home/alice/app/.claude/skills/group/inner/SKILL.md",
        Loads::Never,
        "not a skill",
    ),
    (
        "/home/alice/app/.claude/skills/deploy/SKILL.md",
        Loads::Sometimes,
        "when the skill is invoked",
    ),
    (
        "/home/alice/app/.claude/CLAUDE.local.md",
        Loads::Never,
        "never reads .claude/CLAUDE.local.md",
    ),
    (
        "/home/alice/app/notes.md",
        Loads::Unknown,
        "not a file Claude Code loads by itself",
    ),
    (
        "/home/alice/app/empty/CLAUDE.md",
        Loads::Never,
        "nothing is left once frontmatter and comments are stripped",
    ),
    (
        "/home/alice/app/lib/CLAUDE.md",
        Loads::Sometimes,
        "when Claude reads a file in /home/alice/app/lib or below",
    ),
];

#[test]
fn each_reason_is_named() {
    let report = Fixture::parse(TREE).analyze();
    let mut failures = Vec::new();
    for (path, loads, words) in CASES {
        let answer = why(&report, path);
        let text = format!("{} | {}", answer.when, answer.reasons.join(" | "));
        if answer.loads != *loads || !text.contains(words) {
            failures.push(format!(
                "{path}: expected {loads:?} with {words:?}, got {:?}: {text}",
                answer.loads
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_cut_index_loads_in_part_and_names_the_lost_lines() {
    let mut tree = String::from("//@ project=/home/alice/app\n");
    tree.push_str("//- /home/alice/app/.git/HEAD\nref: refs/heads/main\n");
    tree.push_str("//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md\n");
    for n in 1..=230 {
        tree.push_str(&format!("- entry {n}\n"));
    }
    let report = Fixture::parse(&tree).analyze();
    let answer = why(
        &report,
        "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md",
    );
    assert_eq!(answer.loads, Loads::Partly, "{answer:?}");
    assert!(
        answer.reasons[0].contains("lines 201-230 are past the 200-line cap"),
        "{answer:?}"
    );
}
