//! The registry of release behaviours (`core/src/version/behaviours.rs`): every case a
//! behaviour names exists in `fixtures/conformance/`, and `docs/releases.md` is the
//! registry's. `MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test releases` rewrites
//! `docs/releases.md`.

use memdiag_core::{Behaviour, FIRST_SIMULATED, NOT_REPRODUCED, RULE_CHANGES, UNSIMULATED_BEFORE};
use memdiag_tests::workspace_root;

#[test]
fn every_case_a_behaviour_names_exists() {
    let root = workspace_root().join("fixtures/conformance");
    let mut missing = Vec::new();
    for behaviour in Behaviour::ALL {
        for case in behaviour.cases() {
            if !root.join(case).join("case.json").is_file() {
                missing.push(format!("{}: {case}", behaviour.id()));
            }
        }
    }
    for gap in NOT_REPRODUCED {
        for case in gap.cases {
            if !root.join(case).join("case.json").is_file() {
                missing.push(format!("not reproduced from {}: {case}", gap.from));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cases named in core/src/version/behaviours.rs (or NOT_REPRODUCED) that are not in \
         fixtures/conformance/:\n{}",
        missing.join("\n")
    );
}

#[test]
fn behaviour_ids_are_unique_kebab_case() {
    let mut ids: Vec<&str> = Behaviour::ALL.iter().map(|b| b.id()).collect();
    for id in &ids {
        assert!(
            id.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{id} is not kebab-case"
        );
    }
    ids.sort_unstable();
    let count = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), count, "two behaviours share an id");
}

/// Text of the registry as Markdown: outside code spans, `<` would open an HTML tag.
fn markdown(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(n, part)| {
            if n % 2 == 0 {
                part.replace('<', "&lt;")
            } else {
                part.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("`")
        .replace('|', "\\|")
}

/// `docs/releases.md`, generated from the registry.
fn releases_markdown() -> String {
    let mut out = format!(
        "# Release behaviours\n\n\
         <!-- Generated from core/src/version/behaviours.rs by tests/tests/releases.rs; do not edit.\n\
         \x20    Regenerate: MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test releases -->\n\n\
         What changed in Claude Code between the releases memdiag simulates, each change measured\n\
         on the published releases by the conformance cases named (`fixtures/conformance/`): the\n\
         first release has the new behaviour, the one before it (the published release just\n\
         before) still has the old. A report simulating a release (`memdiag --claude-version`,\n\
         the page's release picker) applies each behaviour from its first release and lists them\n\
         all in `rules.behaviours`, in this order. Releases before {FIRST_SIMULATED} are refused:\n\
         {UNSIMULATED_BEFORE}. How to add one: [conformance.md](conformance.md#checklist-adding-a-release-behaviour).\n\n\
         | Behaviour | From | Summary |\n| --- | --- | --- |\n"
    );
    for change in RULE_CHANGES {
        let from = match change.last {
            Some(last) => format!("{} to {last}", change.version),
            None => change.version.to_string(),
        };
        out.push_str(&format!(
            "| [`{id}`](#{id}) | {from} | {title} |\n",
            id = change.behaviour.id(),
            title = markdown(change.behaviour.title()),
        ));
    }
    for change in RULE_CHANGES {
        let held = match change.last {
            Some(last) => format!("From {} to {last}", change.version),
            None => format!("From {}", change.version),
        };
        let cases: Vec<String> = change
            .cases
            .iter()
            .map(|case| format!("[`{case}`](../fixtures/conformance/{case}/)"))
            .collect();
        out.push_str(&format!(
            "\n## {id}\n\n*{held}; {before} is the last release before.* {title}\n\n\
             {description}.\n\nShown by: {cases}.\n",
            id = change.behaviour.id(),
            before = change.before,
            title = markdown(change.behaviour.title()),
            description = markdown(&capitalised(change.summary)),
            cases = cases.join(", "),
        ));
    }
    out.push_str(
        "\n## Not reproduced\n\n\
         Measured differences of older releases that the core does not reproduce: a report\n\
         simulating one of these releases names the difference (`rules.not_reproduced`), and the\n\
         replay checks that the cases named, and only those, still differ.\n\n\
         | Releases | What they do | Cases |\n| --- | --- | --- |\n",
    );
    for gap in NOT_REPRODUCED {
        let cases: Vec<String> = gap.cases.iter().map(|case| format!("`{case}`")).collect();
        out.push_str(&format!(
            "| {} to {} | {} | {} |\n",
            gap.from,
            gap.to,
            markdown(gap.summary),
            cases.join(", ")
        ));
    }
    out
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[test]
fn the_releases_document_is_generated_from_the_registry() {
    let path = workspace_root().join("docs/releases.md");
    let expected = releases_markdown();
    if std::env::var_os("MEMDIAG_BLESS").is_some() {
        std::fs::write(&path, &expected).expect("docs/releases.md is writable");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/releases.md is stale: regenerate it with\n  \
         MEMDIAG_BLESS=1 cargo test -p memdiag-tests --test releases\nand commit the result"
    );
}
