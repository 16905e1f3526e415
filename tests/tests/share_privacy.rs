//! Only the analysis's vocabulary survives in shared frontmatter (issue 11): a kept key's
//! value stays only when it is a word the analysis reads (a memory type, an agent-memory
//! scope, a boolean, the day of a date); anything else written there is replaced like text,
//! and the shared report still matches the original.

use memdiag_core::sanitize::{sanitize, SanitizeOptions};
use memdiag_core::{analyze, Contents, Step};
use memdiag_tests::Fixture;

const SNAPSHOT: &str = r#"
    //@ project=/home/alice/shop mounts=/home/alice
    //- /home/alice/shop/CLAUDE.md
    Shop.
    //- /home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md
    - [A](a.md) — a
    - [B](b.md) — b
    //- /home/alice/.claude/projects/-home-alice-shop/memory/a.md
    ---
    type: project
    modified: 2026-11-02T10:00:00Z
    ---
    Known words.
    //- /home/alice/.claude/projects/-home-alice-shop/memory/b.md
    ---
    type: secret4f1c
    modified: "tomorrow4f1c"
    ---
    Unknown words.
    //- /home/alice/.claude/agents/reviewer.md
    ---
    name: reviewer
    memory: vault4f1c
    disable-model-invocation: maybe4f1c
    ---
    Review.
    "#;

#[test]
fn only_the_vocabulary_of_kept_keys_survives() {
    let mut fixture = Fixture::parse(SNAPSHOT);
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
    let mut all = String::new();
    for (_, file) in shared.tree.files() {
        if let Contents::Loaded(bytes) = &file.contents {
            all.push_str(&String::from_utf8_lossy(bytes));
        }
    }
    assert!(!all.contains("4f1c"), "{all}");
    // The day of `modified` stays, its time does not: the growth chart counts days.
    for known in ["type: project", "modified: 2026-11-02T00:00:00Z"] {
        assert!(all.contains(known), "{known} in {all}");
    }
    assert!(!all.contains("10:00"), "{all}");
    let again = match analyze(&shared.tree, &shared.input).unwrap() {
        Step::Done(report) => *report,
        Step::Needs(needs) => panic!("asks for {needs:?}"),
    };
    assert_eq!(again.health.memories.len(), report.health.memories.len());
    assert!(
        shared.verify(&report).is_empty(),
        "{:?}",
        shared.verify(&report)
    );
}

#[test]
fn the_user_name_is_replaced_inside_kept_text() {
    let mut fixture = Fixture::parse(
        r#"
        //@ home=/home/qwuser project=/home/qwuser/shop mounts=/home/qwuser
        //- /home/qwuser/shop/CLAUDE.md
        Ask QWUser@example.com; notes in /home/qwuser/notes and ~qwuser2.
        "#,
    );
    let report = fixture.analyze();
    let keep_text = SanitizeOptions {
        keep_text: true,
        keep_file_names: true,
        ..SanitizeOptions::default()
    };
    let shared = sanitize(&fixture.tree, &fixture.input, &report, &keep_text);
    assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
    let (path, file) = shared.tree.files().next().expect("the CLAUDE.md");
    let Contents::Loaded(bytes) = &file.contents else {
        panic!("{path} carries its text");
    };
    let text = String::from_utf8_lossy(bytes);
    assert!(!text.to_lowercase().contains("qwuser"), "{text}");
    assert!(
        text.contains("Ask ") && text.contains("@example.com"),
        "{text}"
    );
    assert!(!path.as_str().contains("qwuser"), "{path}");
    assert!(
        shared.verify(&report).is_empty(),
        "{:?}",
        shared.verify(&report)
    );
    // Kept on request.
    let keep_user = SanitizeOptions {
        keep_user_name: true,
        ..keep_text
    };
    let shared = sanitize(&fixture.tree, &fixture.input, &report, &keep_user);
    let (_, file) = shared.tree.files().next().unwrap();
    let Contents::Loaded(bytes) = &file.contents else {
        panic!("carried");
    };
    assert!(String::from_utf8_lossy(bytes).contains("QWUser@example.com"));
}

#[test]
fn the_demos_default_link_fits_a_chat_message() {
    // The demo is a realistic setup (about seventy rows): with the defaults its link stays
    // well under the 8 KB that chat tools keep.
    let mut fixture = Fixture::load_dir(&memdiag_tests::workspace_root().join("fixtures/demo"));
    let report = fixture.analyze();
    let shared = sanitize(
        &fixture.tree,
        &fixture.input,
        &report,
        &SanitizeOptions::default(),
    );
    let link = memdiag_core::encode_link(&shared, "2026-11-30T09:12:00Z");
    eprintln!(
        "{} rows, a {}-character link",
        report.files.len(),
        link.len()
    );
    assert!(link.len() < 6 * 1024, "{} characters", link.len());
    memdiag_core::decode_link(&link).expect("it opens");
}
