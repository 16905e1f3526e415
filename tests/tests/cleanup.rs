//! The clean-up plans (`memdiag_core::cleanup`): the checklists a report offers, each plan's
//! diff and its shell script, against the case files in `fixtures/cleanup/`, and the scripts
//! run by a real `sh` on files with hostile names.
//!
//! A case file is a tree in the `//-` format of [`Fixture::parse`] and a first line `//#`,
//! then `//= cleanups` (the checklists, rendered) and any of `//= plan <name>` (the plan's
//! diff) and `//= script <name>` (its `sh` script). The plans are named for what they do to
//! the case's memory folder: `remove-dead-lines` (every dead line), `index-orphans` and
//! `delete-orphans` (every orphan), `compact-move` and `compact-drop`. `MEMDIAG_BLESS=1`
//! rewrites the expectations; review the diff.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use memdiag_core::cleanup::{self, Compaction, MemoryCleanups, Plan};
use memdiag_core::report::Report;
use memdiag_core::{Entry, Tree};
use memdiag_tests::{workspace_root, Fixture};

#[test]
fn every_cleanup_case_renders_as_expected() {
    let bless = std::env::var_os("MEMDIAG_BLESS").is_some();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("fixtures/cleanup"))
        .expect("fixtures/cleanup exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 2, "the clean-up cases are missing");
    let mut failures = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable case");
        let (tree, expected) = text
            .split_once("//= cleanups\n")
            .expect("a //= cleanups section");
        let sections: Vec<&str> = expected
            .lines()
            .filter_map(|l| l.strip_prefix("//= "))
            .collect();
        let mut fixture = Fixture::parse(tree);
        let report = fixture.analyze();
        let all = cleanup::memory_cleanups(&report, &fixture.tree);
        let mut actual = format!("//= cleanups\n{}", render_cleanups(&all));
        for section in sections {
            let (kind, name) = section
                .split_once(' ')
                .expect("`plan <name>` or `script <name>`");
            let plan = named_plan(name, &report, &fixture.tree, &all);
            let body = match (kind, plan) {
                ("plan", Ok(plan)) => plan.diff(),
                ("script", Ok(plan)) => plan.script(),
                (_, Err(error)) => format!("error: {error}\n"),
                (other, _) => panic!("unknown section {other}"),
            };
            let _ = write!(actual, "//= {section}\n{body}");
        }
        if bless {
            std::fs::write(&path, format!("{tree}{actual}")).expect("writable case");
        } else if format!("//= cleanups\n{expected}") != actual {
            failures.push(format!(
                "{}\n--- expected\n//= cleanups\n{expected}--- actual\n{actual}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The plan a section names, for the case's first memory folder.
fn named_plan(
    name: &str,
    report: &Report,
    tree: &Tree,
    all: &[MemoryCleanups],
) -> Result<Plan, cleanup::CleanupError> {
    let memory = all
        .first()
        .expect("the case has a memory folder with an index");
    let orphans: Vec<String> = memory.orphans.iter().map(|o| o.path.clone()).collect();
    match name {
        "remove-dead-lines" => {
            let lines: Vec<(u64, String)> = memory
                .dead_lines
                .iter()
                .map(|d| (d.line, d.text.clone()))
                .collect();
            cleanup::remove_lines(tree, &memory.index, &lines)
        }
        "index-orphans" => cleanup::index_orphans(report, tree, &memory.index, &orphans),
        "delete-orphans" => cleanup::delete_files(tree, &orphans),
        "compact-move" => {
            let topic = memory
                .over_cap
                .as_ref()
                .map_or_else(String::new, |o| o.suggested_topic.clone());
            cleanup::compact(report, tree, &memory.index, &Compaction::MoveTo(topic))
        }
        "compact-drop" => cleanup::compact(report, tree, &memory.index, &Compaction::Drop),
        other => panic!("unknown plan {other}"),
    }
}

/// Each memory folder's checklists: `dead <line> <text> -> <missing> [+<n> live]`, `orphan
/// <path> -> <index line>`, `over-cap from <line>: <n> entries -> <topic>`.
fn render_cleanups(all: &[MemoryCleanups]) -> String {
    let mut out = String::new();
    for memory in all {
        let _ = writeln!(out, "index {}", memory.index);
        for dead in &memory.dead_lines {
            let live = if dead.live_links > 0 {
                format!(" +{} live", dead.live_links)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "  dead {} {} -> {}{live}",
                dead.line,
                dead.text,
                dead.missing.join(", ")
            );
        }
        for orphan in &memory.orphans {
            let _ = writeln!(out, "  orphan {} -> {}", orphan.path, orphan.index_line);
        }
        if let Some(over) = &memory.over_cap {
            let _ = writeln!(
                out,
                "  over-cap from {}: {} entries -> {}",
                over.first_dropped_line,
                over.entries.len(),
                over.suggested_topic
            );
        }
    }
    out
}

/// The over-cap case is generated: 230 index lines of which the last 30 do not load.
#[test]
fn an_over_cap_index_compacts_within_its_caps() {
    let mut text = String::from("# Index\n");
    for i in 1..=230 {
        let _ = writeln!(text, "- [topic {i}](t{i}.md) — entry {i}");
    }
    let mut case = format!(
        "//@ project=/home/alice/app\n//- /home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md\n{text}"
    );
    for i in 1..=230 {
        let _ = write!(
            case,
            "//- /home/alice/.claude/projects/-home-alice-app/memory/t{i}.md\n---\ntype: project\n---\nbody {i}\n"
        );
    }
    let mut fixture = Fixture::parse(&case);
    let report = fixture.analyze();
    let all = cleanup::memory_cleanups(&report, &fixture.tree);
    let over = all[0].over_cap.as_ref().expect("the index is over its cap");
    assert_eq!(over.first_dropped_line, 201);
    assert_eq!(over.entries.len(), 31);
    let index = all[0].index.clone();
    let topic = over.suggested_topic.clone();
    assert!(topic.ends_with("/memory/index-archive.md"), "{topic}");

    let moved = cleanup::compact(
        &report,
        &fixture.tree,
        &index,
        &Compaction::MoveTo(topic.clone()),
    )
    .expect("plan");
    assert_eq!(moved.paths(), [index.as_str(), topic.as_str()]);
    let after = moved.changes[0].after.clone().expect("the index stays");
    // The heading and 198 entries stay; entry 199 onward moves, since the link line is
    // the 200th line.
    assert_eq!(after.lines().count(), 200);
    assert!(after.ends_with("(index-archive.md) — older index entries, moved out of MEMORY.md to keep it within its load limit\n"));
    let archive = moved.changes[1]
        .after
        .clone()
        .expect("the archive is created");
    assert!(archive.starts_with("---\ndescription: older index entries, moved out of MEMORY.md\ntype: reference\n---\n- [topic 199](t199.md)"));
    assert_eq!(archive.lines().count(), 4 + 32);
    let expected =
        std::fs::read_to_string(workspace_root().join("fixtures/cleanup/compact-move.diff"))
            .unwrap_or_default();
    if std::env::var_os("MEMDIAG_BLESS").is_some() {
        std::fs::write(
            workspace_root().join("fixtures/cleanup/compact-move.diff"),
            moved.diff(),
        )
        .expect("writable");
    } else {
        assert_eq!(moved.diff(), expected);
    }

    // Analysed again, the compacted index loads whole and every entry is still reachable.
    let mut again = fixture_with(&fixture.tree, &moved);
    let report = again.analyze();
    let row = report
        .files
        .iter()
        .find(|r| r.path == index)
        .expect("the index row");
    assert_eq!(row.truncation.as_ref().and_then(|t| t.cut_by), None);

    let dropped = cleanup::compact(
        &report_before(&case),
        &fixture.tree,
        &index,
        &Compaction::Drop,
    )
    .expect("plan");
    let after = dropped.changes[0].after.clone().expect("the index stays");
    assert_eq!(after.lines().count(), 200);
    assert_eq!(dropped.changes.len(), 1);
    assert_eq!(
        cleanup::compact(&report, &again.tree, &index, &Compaction::Drop),
        Err(cleanup::CleanupError::WithinCaps(index.clone()))
    );
}

fn report_before(case: &str) -> Report {
    Fixture::parse(case).analyze()
}

/// The fixture's tree with a plan applied, as a new fixture to analyse.
fn fixture_with(tree: &Tree, plan: &Plan) -> Fixture {
    let mut case = String::from("//@ project=/home/alice/app\n");
    for (path, entry) in tree.files() {
        if plan.paths().contains(&path.as_str()) {
            continue;
        }
        if let memdiag_core::Contents::Loaded(bytes) = &entry.contents {
            let _ = write!(case, "//- {path}\n{}", String::from_utf8_lossy(bytes));
        }
    }
    for change in &plan.changes {
        if let Some(after) = &change.after {
            let _ = write!(case, "//- {}\n{after}", change.path);
        }
    }
    Fixture::parse(&case)
}

/// Names a person can give files, each hostile to a careless script in its own way.
const HOSTILE: [&str; 7] = [
    "it's.md",
    "$(touch PWNED).md",
    "`touch PWNED`.md",
    "-rf.md",
    "a\nb.md",
    "sp ace \"q\" \\ ;|&.md",
    "MEMDIAG_END.md",
];

/// A scratch folder below the target directory, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = workspace_root().join("target/cleanup-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// A tree over real files: every file is written to disk and listed with its contents.
fn real_tree(root: &Path, files: &[(&str, &str)]) -> Tree {
    let mut entries = Vec::new();
    for (rel, text) in files {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folder");
        std::fs::write(&path, text).expect("write");
        entries.push(Entry {
            path: path.to_str().expect("utf-8 path").to_owned(),
            size: text.len() as u64,
            bytes: Some(text.as_bytes().to_vec()),
            modified: None,
        });
    }
    Tree::from_entries(&[root.to_str().expect("utf-8 path")], entries)
}

fn run_sh(script: &str, dir: &Path) -> std::process::Output {
    let file = dir.join("plan.sh");
    std::fs::write(&file, script).expect("script written");
    Command::new("sh")
        .arg(&file)
        .current_dir(dir)
        .output()
        .expect("sh runs")
}

#[test]
fn scripts_touch_exactly_the_listed_files_whatever_their_names() {
    let dir = scratch("hostile");
    let root = dir.join("mem");
    let mut files: Vec<(String, String)> = HOSTILE
        .iter()
        .map(|name| ((*name).to_owned(), format!("body of {name}\nMEMDIAG_END\n")))
        .collect();
    // A decoy beside them that no plan names.
    files.push(("keep.md".to_owned(), "keep\n".to_owned()));
    let index_text: String = HOSTILE
        .iter()
        .map(|name| format!("- [x]({name})\n"))
        .collect::<String>()
        + "last line without a break 'quoted' $(touch PWNED)";
    files.push(("MEMORY.md".to_owned(), index_text.clone()));
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let tree = real_tree(&root, &borrowed);
    let index = root.join("MEMORY.md").to_str().expect("utf-8").to_owned();
    let paths: Vec<String> = HOSTILE
        .iter()
        .map(|n| root.join(n).to_str().expect("utf-8").to_owned())
        .collect();

    let delete = cleanup::delete_files(&tree, &paths).expect("plan");
    let lines = cleanup::remove_lines(
        &tree,
        &index,
        &[
            (1, format!("- [x]({})", HOSTILE[0])),
            (3, format!("- [x]({})", HOSTILE[2])),
        ],
    )
    .expect("plan");
    for plan in [&delete, &lines] {
        let script = plan.script();
        for line in script.lines().filter(|l| l.starts_with('#')) {
            assert!(!line.contains('\n'));
        }
    }
    let output = run_sh(&delete.script(), &dir);
    assert!(output.status.success(), "{output:?}");
    for path in &paths {
        assert!(!Path::new(path).exists(), "{path} is still there");
    }
    assert_eq!(
        std::fs::read_to_string(root.join("keep.md")).expect("kept"),
        "keep\n"
    );
    assert!(!dir.join("PWNED").exists() && !root.join("PWNED").exists());

    let output = run_sh(&lines.script(), &dir);
    assert!(output.status.success(), "{output:?}");
    let after = std::fs::read(&index).expect("index");
    assert_eq!(
        after,
        lines.changes[0].after.as_deref().expect("after").as_bytes()
    );
    assert!(String::from_utf8_lossy(&after).ends_with("$(touch PWNED)"));
    assert!(!dir.join("PWNED").exists() && !root.join("PWNED").exists());

    // The undo, as a script, restores the index byte for byte.
    let output = run_sh(&lines.reverse().script(), &dir);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(std::fs::read_to_string(&index).expect("index"), index_text);
}

#[test]
fn a_script_changes_nothing_when_a_file_changed_since_the_plan() {
    let dir = scratch("changed");
    let root = dir.join("mem");
    let tree = real_tree(
        &root,
        &[
            ("a.md", "a\n"),
            ("b.md", "b\n"),
            ("MEMORY.md", "- [a](a.md)\n- [b](b.md)\n"),
        ],
    );
    let a = root.join("a.md").to_str().expect("utf-8").to_owned();
    let b = root.join("b.md").to_str().expect("utf-8").to_owned();
    let plan = cleanup::delete_files(&tree, &[a.clone(), b.clone()]).expect("plan");
    // Edited after the page read it: same length, other bytes.
    std::fs::write(&b, "B\n").expect("edit");
    let output = run_sh(&plan.script(), &dir);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("changed since the page read it"));
    assert!(Path::new(&a).exists() && Path::new(&b).exists());
}

#[test]
fn the_scripts_checksum_is_the_systems_cksum() {
    let dir = scratch("cksum");
    for (n, text) in ["", "a", "hello\n", "한국어 index\r\n", &"x".repeat(70_000)]
        .iter()
        .enumerate()
    {
        let file = dir.join(format!("{n}.txt"));
        std::fs::write(&file, text).expect("write");
        let output = Command::new("sh")
            .arg("-c")
            .arg("cksum < \"$1\"")
            .arg("sh")
            .arg(&file)
            .output()
            .expect("cksum runs");
        let printed = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        assert_eq!(cleanup::cksum(text.as_bytes()), printed, "{n}");
    }
}

#[test]
fn applied_plans_clear_the_findings_they_address() {
    let text = std::fs::read_to_string(
        workspace_root().join("fixtures/cleanup/dead-lines-and-orphans.txt"),
    )
    .expect("case");
    let (case, _) = text.split_once("//= cleanups\n").expect("case tree");
    let mut fixture = Fixture::parse(case);
    let report = fixture.analyze();
    let all = cleanup::memory_cleanups(&report, &fixture.tree);
    let codes =
        |report: &Report, code: &str| report.diagnostics.iter().filter(|d| d.code == code).count();
    assert_eq!(codes(&report, "memory-topic-orphan"), 2);
    for name in ["index-orphans", "delete-orphans"] {
        let plan = named_plan(name, &report, &fixture.tree, &all).expect("plan");
        let after = fixture_with(&fixture.tree, &plan).analyze();
        assert_eq!(codes(&after, "memory-topic-orphan"), 0, "{name}");
    }
    let plan = named_plan("remove-dead-lines", &report, &fixture.tree, &all).expect("plan");
    let after = fixture_with(&fixture.tree, &plan).analyze();
    let index = &all[0].index;
    assert!(after
        .diagnostics
        .iter()
        .all(|d| !(d.code == "unresolved-reference" && d.path.as_ref() == Some(index))));
    // The plan touched the index only.
    assert_eq!(plan.paths(), [index.as_str()]);
}

/// The compaction plans with the caps of the release the report simulates. Before 2.1.284
/// Claude Code measured an index with its format characters (here ten zero-width spaces per
/// line, as a paste can leave them): the same index that loads whole under the pinned
/// release is cut at 25,000 units under 2.1.250, and what the compaction keeps, with its
/// link line, must load whole under 2.1.250's rules, not the pinned release's.
#[test]
fn a_compaction_follows_the_simulated_releases_caps() {
    const RELEASE: &str = "2.1.250";
    let index = "/home/alice/.claude/projects/-home-alice-app/memory/MEMORY.md";
    let mut text = String::from("# Index\n");
    for i in 1..=180 {
        let entry = format!("- [topic {i}](t{i}.md) — entry {i} ");
        let pad = 130 - entry.chars().count();
        let _ = writeln!(text, "{entry}{}{}", "x".repeat(pad), "\u{200b}".repeat(10));
    }
    let case = format!("//@ project=/home/alice/app\n//- {index}\n{text}");
    let analysed = |case: &str, release: Option<&str>| {
        let mut fixture = Fixture::parse(case);
        fixture.input.version = release.map(str::to_owned);
        let report = fixture.analyze();
        (fixture, report)
    };
    let cut_of = |report: &Report| {
        report
            .files
            .iter()
            .find(|r| r.path == index)
            .expect("the index row")
            .truncation
            .as_ref()
            .and_then(|t| t.cut_by)
    };
    // The pinned release drops the zero-width spaces and loads the index whole.
    let (_, current) = analysed(&case, None);
    assert_eq!(cut_of(&current), None);
    assert!(
        cleanup::memory_cleanups(&current, &Fixture::parse(&case).tree)[0]
            .over_cap
            .is_none()
    );

    let (fixture, report) = analysed(&case, Some(RELEASE));
    assert_eq!(report.rules.release, RELEASE);
    assert_eq!(cut_of(&report), Some(memdiag_core::report::CutBy::Size));
    let all = cleanup::memory_cleanups(&report, &fixture.tree);
    let over = all[0].over_cap.as_ref().expect("over its caps in 2.1.250");
    let topic = over.suggested_topic.clone();
    let moved =
        cleanup::compact(&report, &fixture.tree, index, &Compaction::MoveTo(topic)).expect("plan");
    let mut again = fixture_with(&fixture.tree, &moved);
    again.input.version = Some(RELEASE.to_owned());
    let after = again.analyze();
    assert_eq!(
        cut_of(&after),
        None,
        "the compacted index is still cut under {RELEASE}:\n{}",
        moved.diff()
    );
    // Every entry is still in the index or the archive.
    let kept = moved.changes[0].after.clone().expect("the index stays");
    let archive = moved.changes[1].after.clone().expect("the archive");
    for i in 1..=180 {
        let link = format!("](t{i}.md)");
        assert!(
            kept.contains(&link) || archive.contains(&link),
            "entry {i} lost"
        );
    }
}
