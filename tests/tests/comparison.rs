//! What the comparison of two reports of one snapshot marks: rows whose load, status or
//! figures change, findings that appear or vanish, and the figures that move.

use memdiag_core::compare;
use memdiag_core::report::comparison::{FigureName, RowChangeKind};
use memdiag_core::report::{Code, FileStatus, Report};
use memdiag_tests::Fixture;

const MEMORY: &str = "/home/alice/.claude/projects/-home-alice-app/memory";

fn analyze_as(version: Option<&str>, fixture: &str) -> Report {
    let mut fixture = Fixture::parse(fixture);
    fixture.input.version = version.map(str::to_owned);
    fixture.analyze()
}

#[test]
fn the_same_report_has_no_changes() {
    let fixture = format!(
        "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n@a.md\n//- /home/alice/app/a.md\nx\n//- {MEMORY}/MEMORY.md\n- [t](t.md)\n"
    );
    let report = analyze_as(None, &fixture);
    let comparison = compare(&report, &report);
    assert!(comparison.is_empty(), "{comparison:#?}");
}

#[test]
fn a_release_without_the_size_cap_loads_more_of_memory_md() {
    let line = "가".repeat(203);
    let text: String = (0..130).map(|_| format!("{line}\n")).collect();
    let fixture = format!("//@ project=/home/alice/app\n//- {MEMORY}/MEMORY.md\n{text}");
    let pinned = analyze_as(None, &fixture);
    let old = analyze_as(Some("2.1.81"), &fixture);
    let comparison = compare(&pinned, &old);
    // The report of a simulated release carries the same comparison; the pinned one none.
    assert_eq!(old.comparison.as_ref(), Some(&comparison));
    assert_eq!(pinned.comparison, None);

    assert_eq!(comparison.other_version, "2.1.81");
    let row = comparison.row_in_other(0).expect("MEMORY.md changed");
    assert_eq!(row.kind(), RowChangeKind::Changed);
    let [before, after] = row.loaded_utf16.expect("its loaded size changed");
    assert!(after > before, "{before:?} -> {after:?}");
    assert_eq!(row.load, None, "it loads at startup in both");
    // The truncation finding of the pinned release vanishes.
    assert!(
        comparison
            .findings_vanished
            .iter()
            .any(|f| f.path.as_deref() == Some(&format!("{MEMORY}/MEMORY.md")[..])),
        "{:#?}",
        comparison.findings_vanished
    );
    let figures: Vec<FigureName> = comparison.figures.iter().map(|f| f.name).collect();
    assert!(figures.contains(&FigureName::SessionUser), "{figures:?}");
    // The index travels in the instruction block; the memory section names only its folder,
    // and its length moves only with the release's own prompt (measured: 2,064 units on
    // 2.1.81, 2,018 on 2.1.328, both without the folder).
    assert!(
        figures.contains(&FigureName::InstructionBlock),
        "{figures:?}"
    );
    // More of the user's text loads; Claude Code's own text is the older release's.
    let user = comparison
        .figures
        .iter()
        .find(|f| f.name == FigureName::SessionUser)
        .expect("the user's figure moves");
    assert!(user.other > user.base, "{:#?}", comparison.figures);
}

#[test]
fn a_joined_paths_list_is_a_finding_that_appears() {
    let fixture = "//@ project=/home/alice/app\n//- /home/alice/app/.claude/rules/r.md\n---\npaths:\n  - src/*.ts\n  - lib/*.ts\n---\nx\n//- /home/alice/app/src/a.ts\nx\n";
    let pinned = analyze_as(None, fixture);
    let old = analyze_as(Some("2.1.83"), fixture);
    let comparison = compare(&pinned, &old);
    assert!(comparison
        .findings_appeared
        .iter()
        .any(|f| f.code == Code::RulePathsJoined));
    assert!(comparison.findings_vanished.is_empty());
    // Read backwards, the same finding vanishes.
    let back = compare(&old, &pinned);
    assert!(back
        .findings_vanished
        .iter()
        .any(|f| f.code == Code::RulePathsJoined));
}

#[test]
fn rows_only_one_report_has_are_added_or_removed() {
    // The comparison matches rows, whatever release made the difference: drop one row of a
    // real report and mark another as excluded, and read the changes both ways.
    let fixture = format!(
        "//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\nx\n//- /home/alice/app/.claude/rules/r.md\nr\n//- {MEMORY}/MEMORY.md\n- [t](t.md)\n//- {MEMORY}/t.md\nt\n"
    );
    let full = analyze_as(None, &fixture);
    let rule = full
        .files
        .iter()
        .position(|r| r.path.ends_with("/rules/r.md"))
        .expect("the rule is listed");
    let mut fewer = full.clone();
    let dropped = fewer.files.remove(rule);
    let memory = fewer
        .files
        .iter()
        .position(|r| r.path.ends_with("/MEMORY.md"))
        .expect("MEMORY.md is listed");
    fewer.files[memory].status = FileStatus::Excluded;
    fewer.files[memory].counted = false;

    let forward = compare(&full, &fewer);
    let removed: Vec<&str> = forward
        .rows
        .iter()
        .filter(|r| r.kind() == RowChangeKind::Removed)
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(removed, [dropped.path.as_str()]);
    let changed = forward.row_in_other(memory).expect("MEMORY.md changed");
    assert_eq!(changed.status, Some([FileStatus::Ok, FileStatus::Excluded]));
    assert_eq!(changed.counted, Some([true, false]));
    assert_eq!(forward.rows.len(), 2, "{:#?}", forward.rows);

    let backward = compare(&fewer, &full);
    let added: Vec<&str> = backward
        .rows
        .iter()
        .filter(|r| r.kind() == RowChangeKind::Added)
        .map(|r| r.path.as_str())
        .collect();
    assert_eq!(added, [dropped.path.as_str()]);
}

#[test]
fn the_pinned_release_is_the_one_the_conformance_suite_runs() {
    let manifest =
        std::fs::read_to_string(memdiag_tests::workspace_root().join("scripts/npm/package.json"))
            .expect("scripts/npm/package.json");
    let manifest: serde_json::Value = serde_json::from_str(&manifest).expect("JSON");
    let pin = manifest["dependencies"]["@anthropic-ai/claude-code"]
        .as_str()
        .expect("Claude Code is pinned");
    assert_eq!(memdiag_core::PINNED.to_string(), pin);
}

#[test]
fn figure_ids_are_their_json_names() {
    use memdiag_core::report::comparison::FigureChange;
    let names = [
        FigureName::SessionTotal,
        FigureName::SessionUser,
        FigureName::SessionClaudeCode,
        FigureName::InstructionBlock,
        FigureName::SkillsListing,
        FigureName::MemorySection,
        FigureName::AgentTypes,
        FigureName::SessionFiles,
        FigureName::ConditionalRules,
        FigureName::OnRead,
        FigureName::OnDemand,
        FigureName::AgentMemory,
    ];
    for name in names {
        let json = serde_json::to_value(FigureChange {
            name,
            base: 0,
            other: 1,
        })
        .unwrap();
        assert_eq!(json["name"], name.id());
    }
}
