//! Sanitizing: the shared snapshot analyses to the same report, and holds no private text.
//!
//! - The invariant: over every folder in `fixtures/`, every rule case in `fixtures/rules/`
//!   and generated snapshots (`MEMDIAG_SEEDS=n` runs more than the default 100), the
//!   shared snapshot's report matches the original figure for figure (checked twice: by a
//!   rendering that holds no names, and by `Sanitized::verify`, which maps names).
//! - The leak test: `fixtures/canary/` hides markers everywhere a secret can hide; none may
//!   reach the shared tree, the link, the zip or the payload, in any case or encoding.
//! - A few cases that show what a shared file looks like.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use memdiag_core::report::{Os, ReadFor, Report};
use memdiag_core::sanitize::{sanitize, SanitizeOptions, Sanitized, KEPT_FRONTMATTER_KEYS};
use memdiag_core::share::{decode_link, encode_link, inspect_link, open_share_zip, to_zip};
use memdiag_core::{
    analyze, analyze_with, encode_project_path, ContentSource, Contents, Entry, Input, Step, Tree,
    VPath,
};
use memdiag_tests::{assert_text, fixture_dirs, workspace_root, Fixture};

/// Every combination worth checking: the defaults, then each option flipped.
const OPTIONS: [SanitizeOptions; 6] = [
    SanitizeOptions {
        keep_file_names: false,
        keep_user_name: false,
        keep_text: false,
        other_projects: false,
    },
    SanitizeOptions {
        keep_file_names: true,
        keep_user_name: false,
        keep_text: false,
        other_projects: true,
    },
    SanitizeOptions {
        keep_file_names: false,
        keep_user_name: false,
        keep_text: false,
        other_projects: true,
    },
    SanitizeOptions {
        keep_file_names: true,
        keep_user_name: true,
        keep_text: false,
        other_projects: true,
    },
    SanitizeOptions {
        keep_file_names: false,
        keep_user_name: false,
        keep_text: true,
        other_projects: true,
    },
    SanitizeOptions {
        keep_file_names: true,
        keep_user_name: true,
        keep_text: true,
        other_projects: true,
    },
];

// ----- the invariant ---------------------------------------------------------------------

/// Everything a report says that holds no name or text: each row's kind, figures and
/// status, the footprint, the group counts, the memory folders' counts, every finding's
/// code and line, the health figures. Two reports that render the same agree on every
/// figure, status and diagnostic code.
fn figures(report: &Report) -> String {
    let mut out = String::new();
    for row in &report.files {
        let _ = writeln!(
            out,
            "{:?} {:?} {:?} depth={} parent={:?} size={:?} raw={:?} loaded={:?} counted={} \
             {:?} {:?} listing={:?} paths={:?} truncation={:?} frontmatter={:?} \
             references={:?}",
            row.group,
            row.load,
            row.scope,
            row.depth,
            row.parent_index,
            row.size,
            row.raw,
            row.loaded,
            row.counted,
            row.status,
            row.unresolved_reason,
            row.skill_listing,
            row.paths.as_ref().map(Vec::len),
            // The warning quotes a dropped line, whose words are placeholders: its length counts.
            row.truncation.clone().map(|mut t| {
                t.warning = t.warning.map(|w| w.chars().count().to_string());
                t
            }),
            // Keys the analysis never reads become placeholders: their length counts.
            row.frontmatter
                .iter()
                .map(|f| match KEPT_FRONTMATTER_KEYS.contains(&f.key.as_str()) {
                    true => f.key.clone(),
                    false => f.key.chars().count().to_string(),
                })
                .collect::<Vec<_>>(),
            row.references
                .iter()
                .map(|r| (r.kind, r.line, r.exists, r.resolved.is_some()))
                .collect::<Vec<_>>(),
        );
    }
    let _ = writeln!(out, "{:?}\n{:?}", report.footprint, report.groups);
    for folder in &report.memory_folders {
        let _ = writeln!(
            out,
            "folder files={} current={}",
            folder.files, folder.current
        );
    }
    let c = &report.context;
    let _ = writeln!(
        out,
        "git={} memory={} via={:?} enabled={} from={} version={} today={:?}",
        c.git_root.is_some(),
        c.memory_dir.is_some(),
        c.memory_found_via,
        c.auto_memory_enabled,
        c.auto_memory_setting_from.is_some(),
        c.version,
        c.today
    );
    let mut findings: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| format!("{} {:?} line={:?}", d.code, d.severity, d.line))
        .collect();
    findings.sort();
    let _ = writeln!(out, "{findings:#?}");
    let health = &report.health;
    for reason in &health.reasons {
        let _ = writeln!(out, "{:?} ok={} {:?}", reason.id, reason.ok, reason.codes);
    }
    for memory in &health.memories {
        let _ = writeln!(
            out,
            "memory lines={} chars={} bytes={} long={} topics={} undated={} orphans={} {:?} {:?}",
            memory.index_lines,
            memory.mean_line_chars,
            memory.mean_line_bytes,
            memory.long_lines,
            memory.topic_files,
            memory.without_timestamp,
            memory.orphan_topics,
            memory.types,
            memory.growth
        );
    }
    // The listing sorts agents by name, which pseudonyms need not keep.
    let mut agents: Vec<String> = health
        .agents
        .iter()
        .map(|agent| {
            format!(
                "agent {:?} exists={} {:?} listed={:?} shadowed={}",
                agent.memory,
                agent.memory_exists,
                agent.scope,
                agent.listed,
                agent.shadowed_by.is_some()
            )
        })
        .collect();
    agents.sort();
    let _ = writeln!(out, "{agents:#?}");
    let _ = writeln!(out, "{:?}", report.session.cost);
    out
}

/// Analyses the shared snapshot (which must need nothing more) and checks it against the
/// original: no warnings, the same figures, and no difference once names are mapped.
#[track_caller]
fn check_invariant(what: &str, original: &Report, shared: &Sanitized) -> Report {
    assert!(shared.warnings.is_empty(), "{what}: {:#?}", shared.warnings);
    let report = match analyze(&shared.tree, &shared.input).expect("shared input is valid") {
        Step::Done(report) => *report,
        Step::Needs(needs) => panic!("{what}: the shared tree lacks {needs:?}"),
    };
    // Other projects' memory folders are left out unless asked for; every other figure stays.
    let mut original = original.clone();
    original
        .memory_folders
        .retain(|folder| !shared.left_out_folders.contains(&folder.name));
    let (expected, actual) = (figures(&original), figures(&report));
    if expected != actual {
        panic!("{what}: figures differ\n--- original\n{expected}\n--- shared\n{actual}");
    }
    let differences = shared.verify(&original);
    assert!(
        differences.is_empty(),
        "{what}:\n{}",
        differences.join("\n")
    );
    report
}

/// The report of a decoded link or zip must be the shared snapshot's, byte for byte.
#[track_caller]
fn check_round_trips(what: &str, shared: &Sanitized, expected: &Report) {
    let expected = serde_json::to_string(expected).unwrap();
    let made = "2026-11-30T09:12:00Z";
    let from_link = decode_link(&encode_link(shared, made)).expect("the link decodes");
    let from_zip = open_share_zip(&to_zip(shared, made)).expect("the zip opens");
    for (carrier, snapshot) in [("link", from_link), ("zip", from_zip)] {
        assert_eq!(snapshot.made, made);
        assert_eq!(snapshot.input, shared.input, "{what} via {carrier}");
        let report = match analyze(&snapshot.tree, &snapshot.input).unwrap() {
            Step::Done(report) => serde_json::to_string(&report).unwrap(),
            Step::Needs(needs) => panic!("{what} via {carrier}: asks for {needs:?}"),
        };
        assert_eq!(report, expected, "{what} via {carrier}");
    }
}

#[test]
fn every_fixture_keeps_its_report_under_every_option() {
    for dir in fixture_dirs() {
        let mut fixture = Fixture::load_dir(&dir);
        let report = fixture.analyze();
        for options in OPTIONS {
            let what = format!("{} {options:?}", dir.display());
            let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
            check_no_shapes(&what, &shared);
            let shared_report = check_invariant(&what, &report, &shared);
            check_round_trips(&what, &shared, &shared_report);
        }
    }
}

/// Every snapshot the drift tests run over: the fixtures, the rule cases and `seeds`
/// generated snapshots, each analysed.
fn every_snapshot(seeds: u64) -> Vec<(String, Tree, Input, Report)> {
    let mut out = Vec::new();
    for dir in fixture_dirs() {
        let mut fixture = Fixture::load_dir(&dir);
        let report = fixture.analyze();
        out.push((
            dir.display().to_string(),
            fixture.tree,
            fixture.input,
            report,
        ));
    }
    let mut cases: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    cases.sort();
    for path in cases {
        let text = std::fs::read_to_string(&path).expect("readable case");
        let tree = text.split("//= rows\n").next().unwrap_or(&text);
        let mut fixture = Fixture::parse(tree);
        let report = fixture.analyze();
        out.push((
            path.display().to_string(),
            fixture.tree,
            fixture.input,
            report,
        ));
    }
    for seed in 0..seeds {
        let generated = generate(seed);
        let (tree, report) = generated.analyse();
        out.push((format!("seed {seed}"), tree, generated.input, report));
    }
    out
}

/// Discovery records everything its report depends on: the original tree cut down to the
/// rows and what `Report::sources` and the findings name (`sanitize::basis`, no name
/// changed) analyses to the very same report. A file or folder discovery reads, counts,
/// matches or looks up without recording it is missing from the cut tree, and a figure,
/// a finding or a source changes.
#[test]
fn discovery_records_everything_its_report_depends_on() {
    for (what, tree, input, report) in every_snapshot(100) {
        let basis = memdiag_core::sanitize::basis(&tree, &report);
        let again = match analyze(&basis, &input).expect("the input is valid") {
            Step::Done(report) => *report,
            Step::Needs(needs) => panic!("{what}: the recorded tree lacks {needs:?}"),
        };
        let (expected, actual) = (
            serde_json::to_string_pretty(&report).unwrap(),
            serde_json::to_string_pretty(&again).unwrap(),
        );
        if expected != actual {
            let first = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            let around = |text: &str| {
                let lines: Vec<&str> = text.lines().collect();
                lines[first.saturating_sub(12)..(first + 4).min(lines.len())].join("\n")
            };
            panic!(
                "{what}: what discovery recorded reading does not tell the same report\n\
                 --- the whole tree\n{}\n--- what discovery recorded\n{}",
                around(&expected),
                around(&actual)
            );
        }
    }
}

/// Sharing keeps what discovery recorded and nothing else: every row that exists, every
/// source (`Report::sources`) and every path a finding names is in the shared snapshot (but
/// the memory folders of other projects the options leave out); every path the snapshot
/// holds is one of those; and a file carries text only when discovery read its text.
#[test]
fn the_share_keeps_exactly_what_discovery_recorded() {
    for (what, tree, input, report) in every_snapshot(100) {
        for options in [OPTIONS[0], OPTIONS[2]] {
            let what = format!("{what} {options:?}");
            let shared = sanitize(&tree, &input, &report, &options);
            let left_out: Vec<VPath> = shared
                .left_out_folders
                .iter()
                .filter_map(|name| {
                    VPath::new(&report.context.projects_base)
                        .ok()?
                        .join(name)
                        .ok()
                })
                .collect();
            let exists = |path: &str| {
                VPath::new(path).is_ok_and(|p| {
                    (tree.is_file(&p) || tree.is_dir(&p) || tree.mounts().any(|m| *m == p))
                        && !left_out.iter().any(|root| p.starts_with(root))
                })
            };
            let mut recorded: BTreeMap<&str, &str> = BTreeMap::new();
            for row in &report.files {
                recorded.insert(&row.path, "a row");
            }
            for finding in &report.diagnostics {
                for path in finding.path.iter().chain(match &finding.data {
                    Some(memdiag_core::report::DiagnosticData::Paths { paths }) => paths.as_slice(),
                    _ => &[],
                }) {
                    recorded.entry(path).or_insert("named by a finding");
                }
            }
            let mut text_read: Vec<&str> = report.files.iter().map(|r| r.path.as_str()).collect();
            for source in &report.sources {
                recorded.insert(&source.path, "a source");
                if source.why == ReadFor::Unread {
                    text_read.retain(|path| *path != source.path);
                } else if source.why.reads_text() {
                    text_read.push(&source.path);
                }
            }
            for (path, why) in &recorded {
                if exists(path) {
                    assert!(
                        shared.paths.contains_key(*path),
                        "{what}: {path} ({why}) is what discovery recorded, but is not shared"
                    );
                }
            }
            for original in shared.paths.keys() {
                assert!(
                    recorded.contains_key(original.as_str()),
                    "{what}: {original} is shared, but discovery never recorded it"
                );
            }
            let original_of: BTreeMap<&str, &str> = shared
                .paths
                .iter()
                .map(|(original, shared)| (shared.as_str(), original.as_str()))
                .collect();
            for (path, file) in shared.tree.files() {
                let original = original_of[path.as_str()];
                let loaded = matches!(file.contents, Contents::Loaded(_));
                let read = text_read.contains(&original);
                assert!(
                    !loaded || read,
                    "{what}: {original} carries text but discovery never read it"
                );
                let was_loaded = VPath::new(original)
                    .ok()
                    .and_then(|p| tree.file(&p))
                    .is_some_and(|f| matches!(f.contents, Contents::Loaded(_)));
                assert!(
                    loaded || !read || !was_loaded,
                    "{what}: discovery read {original}, but the share carries no text of it"
                );
            }
        }
    }
}

#[test]
fn every_rule_case_keeps_its_report_under_every_option() {
    let mut paths: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable case");
        let tree = text.split("//= rows\n").next().unwrap_or(&text);
        let mut fixture = Fixture::parse(tree);
        let report = fixture.analyze();
        for options in OPTIONS {
            let what = format!("{} {options:?}", path.display());
            let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
            check_no_shapes(&what, &shared);
            // Every case keeps every figure: one-letter folders `a/b/…` beside a kept
            // `build/` used to move a row, before the payload carried the original's order.
            check_invariant(&what, &report, &shared);
        }
    }
}

#[test]
fn generated_snapshots_keep_their_report() {
    let seeds: u64 = std::env::var("MEMDIAG_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let mut inexact = Vec::new();
    let mut runs = 0;
    for seed in 0..seeds {
        let generated = generate(seed);
        let (tree, report) = generated.analyse();
        for (index, options) in OPTIONS.iter().enumerate() {
            let what = format!("seed {seed} {options:?}");
            let shared = sanitize(&tree, &generated.input, &report, options);
            runs += 1;
            check_no_shapes(&what, &shared);
            if !shared.differences.is_empty() || !shared.warnings.is_empty() {
                // Counters that cannot keep a figure never fall back to names that keep
                // their shapes: the person sharing is told, plainly, before sending.
                if !shared.differences.is_empty() {
                    check_told(&what, &shared);
                }
                inexact.push(format!("{what}: {:?}", shared.warnings));
                continue;
            }
            let shared_report = check_invariant(&what, &report, &shared);
            // Round trips cost more than the rest; every snapshot takes one option's.
            if index == (seed as usize) % OPTIONS.len() {
                check_round_trips(&what, &shared, &shared_report);
            }
        }
    }
    // Measured when the shape-keeping fallback went: 66 of 600. Carrying the original's
    // order, then giving a renamed path's difference to room on its line, brought it to 12,
    // each a line with no room (a file that is one import, kept text, an index line). Since
    // a renamed reference is written at its original's length (a stand-in where the
    // pseudonym's length differs), no line needs room: every share keeps every figure.
    assert!(
        inexact.is_empty(),
        "{} of {runs} generated shares inexact:\n{}",
        inexact.len(),
        inexact.join("\n")
    );
}

/// An inexact share says so in the words the dialog and the command show before sending.
#[track_caller]
fn check_told(what: &str, shared: &Sanitized) {
    assert!(
        shared
            .warnings
            .iter()
            .any(|w| w.starts_with("the shared report will not match yours in ")),
        "{what}: differs but does not say so: {:?}",
        shared.warnings
    );
}

/// No renamed name keeps its first letter or its length: each renamed part of a shared path
/// starts with another letter than the original part at its place, and every renamed part
/// of one class (led by a digit, led by a letter) has one width, whatever the originals'.
#[track_caller]
fn check_no_shapes(what: &str, shared: &Sanitized) {
    let runs = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|r| !r.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    // Class (led by a digit) → the widths of its pseudonyms, with an example of each.
    let mut widths: BTreeMap<bool, BTreeMap<usize, String>> = BTreeMap::new();
    for (original, to) in &shared.paths {
        let (a, b) = (runs(original), runs(to));
        if a.len() != b.len() {
            continue;
        }
        for (x, y) in a.iter().zip(&b) {
            if x != y {
                assert_ne!(
                    x.as_bytes()[0],
                    y.as_bytes()[0],
                    "{what}: {original} is shared as {to}: a renamed part keeps its first letter"
                );
                let class = x.as_bytes()[0].is_ascii_digit();
                (widths.entry(class).or_default())
                    .entry(y.len())
                    .or_insert_with(|| format!("{x} → {y}"));
            }
        }
    }
    for (digits, seen) in widths {
        assert!(
            seen.len() == 1,
            "{what}: pseudonyms led by a {} have {} widths: {:?}",
            if digits { "digit" } else { "letter" },
            seen.len(),
            seen.values().collect::<Vec<_>>()
        );
    }
}

/// A generated snapshot of an ordinary size (50 to 100 rows, like the demo's `~/.claude` with
/// a project) makes a default link well under the 8 KB chat tools keep; it opens to the same
/// report.
#[test]
fn a_generated_seventy_row_snapshot_links_well_under_8_kb() {
    let mut measured = Vec::new();
    for seed in 0..40 {
        let generated = generate(seed);
        let (tree, report) = generated.analyse();
        if !(50..=100).contains(&report.files.len()) {
            continue;
        }
        let shared = sanitize(
            &tree,
            &generated.input,
            &report,
            &SanitizeOptions::default(),
        );
        if !shared.differences.is_empty() || !shared.warnings.is_empty() {
            // Told before sending (`generated_snapshots_keep_their_report` counts these).
            continue;
        }
        let link = encode_link(&shared, "2026-11-30T09:12:00Z");
        let opened = decode_link(&link).expect("the link opens");
        let again = match analyze(&opened.tree, &opened.input).unwrap() {
            Step::Done(report) => report,
            Step::Needs(needs) => panic!("seed {seed}: asks for {needs:?}"),
        };
        assert_eq!(
            again.footprint,
            check_invariant("link", &report, &shared).footprint
        );
        measured.push((seed, report.files.len(), link.len()));
    }
    eprintln!("(seed, rows, link characters): {measured:?}");
    assert!(
        measured.len() >= 3,
        "too few snapshots of that size: {measured:?}"
    );
    for (seed, rows, chars) in &measured {
        assert!(
            *chars < 6 * 1024,
            "seed {seed}: {rows} rows, a {chars}-character link"
        );
    }
}

// ----- the leak test ---------------------------------------------------------------------

/// Markers hidden in `fixtures/canary/`, by where they stand.
const CONTENT: &str = "4f1c"; // Text of files the analysis lists: replaced unless keep_text.
const NAMES: &str = "7e2b"; // Names of listed files and folders: kept only with keep_file_names.
const USER: &str = "9d3a"; // The user name: kept only with keep_user_name.
const DROPPED: &str = "5b6d"; // Everything left out: never shared in any form.

/// The phrases written into the canary fixture, for the encoded forms of the check.
const PHRASES: &[&str] = &[
    "CANARY-4f1c",
    "canary-4f1c@example.com",
    "카나리아 4f1c 비밀",
    "CANARY-4f1c-env-5b6d",
    "CANARY-4f1c-credentials-5b6d",
    "CANARY-4f1c transcript 5b6d",
    "canary-5b6d-branch",
    "canary-7e2b-notes",
    "canary9d3a",
];

/// Every form a marker or phrase could take in shared output: as written in any case,
/// percent-encoded, and base64 or base64url at each of the three alignments.
fn forms(phrase: &str) -> Vec<String> {
    let mut out = vec![phrase.to_lowercase()];
    let percent: String = phrase
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02x}")
            }
        })
        .collect();
    out.push(percent.to_lowercase());
    if phrase.len() >= 6 {
        for shift in 0..3 {
            let mut bytes = vec![0u8; shift];
            bytes.extend_from_slice(phrase.as_bytes());
            let encoded = memdiag_tests::base64(&bytes, false);
            // The first characters mix in the padding bytes and the last ones a partial
            // group; the middle is what the phrase always encodes to.
            let skip = if shift == 0 {
                0
            } else {
                (shift * 8).div_ceil(6) + 1
            };
            let keep = encoded.len().saturating_sub(2);
            if keep > skip + 4 {
                let middle = &encoded[skip..keep];
                out.push(middle.to_owned());
                out.push(middle.replace('+', "-").replace('/', "_"));
            }
        }
    }
    out
}

/// Every text the share can hold: the shared tree's paths, folders and contents, its input,
/// the link, the zip's bytes, the link's payload and its base64, and what the link and the
/// zip decode to.
fn shared_output(shared: &Sanitized) -> Vec<(String, String)> {
    let made = "2026-11-30T09:12:00Z";
    let link = encode_link(shared, made);
    let zip = to_zip(shared, made);
    let payload = inspect_link(&link).expect("the link reads");
    let mut out = vec![
        ("link".to_owned(), link.clone()),
        ("zip".to_owned(), String::from_utf8_lossy(&zip).into_owned()),
        ("payload".to_owned(), payload.clone()),
        (
            "payload base64".to_owned(),
            memdiag_tests::base64(payload.as_bytes(), false),
        ),
        ("input".to_owned(), format!("{:?}", shared.input)),
    ];
    let decoded_link = decode_link(&link).unwrap();
    let decoded_zip = open_share_zip(&zip).unwrap();
    for (what, tree) in [
        ("shared", &shared.tree),
        ("from link", &decoded_link.tree),
        ("from zip", &decoded_zip.tree),
    ] {
        for (path, file) in tree.files() {
            out.push((format!("{what} path"), path.as_str().to_owned()));
            if let Contents::Loaded(bytes) = &file.contents {
                let text = String::from_utf8_lossy(bytes).into_owned();
                out.push((format!("{what} {path}"), text));
            }
        }
        for finding in tree.diagnostics() {
            out.push((format!("{what} finding"), format!("{finding:?}")));
        }
    }
    for (original, to) in &shared.paths {
        // The map holds originals by design; only its shared side is shared.
        let _ = original;
        out.push(("shared name".to_owned(), to.clone()));
    }
    out
}

fn leaks(output: &[(String, String)], needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for form in forms(needle) {
        for (what, text) in output {
            let haystack = if form.chars().any(|c| c.is_ascii_uppercase()) {
                text.clone()
            } else {
                text.to_lowercase()
            };
            if haystack.contains(&form) {
                found.push(format!("{form:?} in {what}"));
            }
        }
    }
    found
}

#[test]
fn the_canary_fixture_leaks_nothing() {
    let mut fixture = Fixture::load_dir(&workspace_root().join("fixtures/canary"));
    let report = fixture.analyze();
    for options in OPTIONS {
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        check_no_shapes(&format!("canary {options:?}"), &shared);
        let output = shared_output(&shared);
        let mut needles = vec![DROPPED];
        if !options.keep_text {
            needles.push(CONTENT);
        }
        if !options.keep_file_names {
            needles.push(NAMES);
        }
        if !options.keep_user_name {
            needles.push(USER);
        }
        let mut found = Vec::new();
        for needle in needles {
            found.extend(leaks(&output, needle));
        }
        for phrase in PHRASES {
            let allowed =
                (options.keep_text && phrase.contains(CONTENT) && !phrase.contains(DROPPED))
                    || (options.keep_file_names && phrase.contains(NAMES))
                    || (options.keep_user_name && phrase.contains(USER));
            if !allowed {
                found.extend(leaks(&output, phrase));
            }
        }
        assert!(found.is_empty(), "{options:?} leaks:\n{}", found.join("\n"));
        // The markers the options keep do show, so the check above is not vacuous.
        for (kept, marker) in [
            (options.keep_file_names, NAMES),
            (options.keep_user_name, USER),
            (options.keep_text, CONTENT),
        ] {
            assert_eq!(
                !leaks(&output, marker).is_empty(),
                kept,
                "{options:?}: {marker} should show exactly when kept"
            );
        }
    }
}

// ----- what a shared file looks like -----------------------------------------------------

/// Sanitizes a `//- /path` fixture and checks the shared text of the file at `path`.
#[track_caller]
fn check_file(fixture: &str, options: SanitizeOptions, path: &str, expected: &str) {
    let mut fixture = Fixture::parse(fixture);
    let report = fixture.analyze();
    let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
    check_invariant(path, &report, &shared);
    let (to, text) = shared_text(&shared, path);
    assert_text(&format!("//- {to}\n{text}"), expected);
}

/// The shared path and text of the file at the original `path`.
#[track_caller]
fn shared_text(shared: &Sanitized, path: &str) -> (String, String) {
    let to = shared
        .paths
        .get(path)
        .unwrap_or_else(|| panic!("{path} is not kept: {:#?}", shared.paths));
    let file = shared.tree.file(&VPath::new(to).unwrap()).unwrap();
    let Contents::Loaded(bytes) = &file.contents else {
        panic!("{path} carries no contents")
    };
    (to.clone(), String::from_utf8_lossy(bytes).into_owned())
}

/// Names kept, text replaced: shows the text rewriting with the paths readable.
const KEEP_NAMES: SanitizeOptions = SanitizeOptions {
    keep_file_names: true,
    keep_user_name: false,
    keep_text: false,
    other_projects: true,
};

/// Text kept, names pseudonymised.
const KEEP_TEXT: SanitizeOptions = SanitizeOptions {
    keep_file_names: false,
    keep_user_name: false,
    keep_text: true,
    other_projects: true,
};

const NO_NAMES: SanitizeOptions = SanitizeOptions {
    keep_file_names: false,
    keep_user_name: false,
    keep_text: false,
    other_projects: true,
};

#[test]
fn text_becomes_placeholders_and_references_keep_resolving() {
    let fixture = r#"
        //- /home/alice/.claude/CLAUDE.md
        # Alice's notes — 2026 ✓ 가나 😀
        Call 555-0142 or mail alice@example.com, see <https://wiki.corp/x>.
        <!-- private: the real reason -->
        - @docs/setup guide.md and @docs/setup\ guide.md#Step-2, @~/.claude/docs/a.md.
        - [The guide](<docs/setup guide.md> "Title") and [encoded](docs/setup%20guide.md#Top).
        ```sh
        @docs/not-an-import.md
        ```
        //- /home/alice/.claude/docs/setup guide.md
        Steps.
        //- /home/alice/.claude/docs/a.md
        A.
        "#;
    check_file(
        fixture,
        KEEP_NAMES,
        "/home/alice/.claude/CLAUDE.md",
        r#"
        //- /home/b/.claude/CLAUDE.md
        # xxxxx'x xxxxx □ 0000 □ ㅁㅁ 🔲
        xxxx 000-0000 xx xxxx xxxxx@xxxxxxx.xxx, xxx <xxxxx://xxxx.xxxx/x>.
        <!-- xxxxxxx: xxx xxxx xxxxxx -->
        - @xxxx/xxxxx xxxxx.xx xxx @docs/setup\ guide.md#xxxx-0, @~/.claude/docs/a.md.
        - [xxx xxxxx](<docs/setup guide.md> "xxxxx") xxx [xxxxxxx](docs/setup%20guide.md#xxx).
        ```xx
        @xxxx/xxx-xx-xxxxxx.xx
        ```
        "#,
    );
    check_file(
        fixture,
        NO_NAMES,
        "/home/alice/.claude/CLAUDE.md",
        r#"
        //- /home/c/.claude/CLAUDE.md
        # xxxxx'x xxxxx □ 0000 □ ㅁㅁ 🔲
        xxxx 000-0000 xx xxxx xxxxx@xxxxxxx.xxx, xxx <xxxxx://xxxx.xxxx/x>.
        <!-- xxxxxxx: xxx xxxx xxxxxx -->
        - @xxxx/xxxxx xxxxx.xx xxx @xxxxxxxxxxxxxxxxxxxxxxxxxxxa @xxxxxxxxxxxxxxxxxxa.
        - [xxx xxxxx](<xxxxxxxxxxxxxxxxxxa> "xxxxx") xxx [xxxxxxx](xxxxxxxxxxxxxxxxxxxxxxxxa).
        ```xx
        @xxxx/xxx-xx-xxxxxx.xx
        ```
        "#,
    );
}

/// A renamed reference on a line with no room for its pseudonym's length (a file that is one
/// import, an index line, kept text) is written at its original's length: as the pseudonym
/// where that has it, else as a stand-in the shared tree says it stands for. The user name
/// in kept text becomes its pseudonym fitted to its length. Every figure stays.
#[test]
fn a_line_without_room_keeps_every_figure() {
    let fixture = r#"
        //@ project=/home/alice/shop
        //- /home/alice/shop/CLAUDE.md
        @notes.md
        //- /home/alice/shop/notes.md
        N.
        //- /home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md
        - [Payments](payments.md)
        - [payments](payments.md) @x.md, alice
        //- /home/alice/.claude/projects/-home-alice-shop/memory/payments.md
        Use the adapter.
        "#;
    check_file(
        fixture,
        NO_NAMES,
        "/home/alice/shop/CLAUDE.md",
        r#"
        //- /home/b/e/CLAUDE.md
        @xxxxxxxa
        "#,
    );
    check_file(
        fixture,
        NO_NAMES,
        "/home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md",
        r#"
        //- /home/b/.claude/projects/-home-b-e/memory/MEMORY.md
        - [xxxxxxxx](xxxxxxxxxxa)
        - [xxxxxxxx](xxxxxxxxxxa) @f.md, xxxxx
        "#,
    );
    check_file(
        fixture,
        KEEP_TEXT,
        "/home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md",
        r#"
        //- /home/b/.claude/projects/-home-b-e/memory/MEMORY.md
        - [Payments](xxxxxxxxxxa)
        - [payments](xxxxxxxxxxa) @f.md, bxxxx
        "#,
    );
    // Thirty rules make every counter led by a letter two letters wide: the one-letter
    // names `q` grow, where a file that is one import and a rule's one-glob frontmatter have
    // no room. Each is written as a stand-in of its length.
    let mut many = String::from(
        "//@ project=/home/alice/shop\n//- /home/alice/shop/CLAUDE.md\n@q.md\n\
         //- /home/alice/shop/q.md\nQ.\n//- /home/alice/shop/.claude/rules/q.md\n\
         ---\npaths: q/*.ts\n---\nR.\n//- /home/alice/shop/q/a.ts\nx\n",
    );
    for i in 0..30 {
        many.push_str(&format!(
            "//- /home/alice/shop/.claude/rules/k{i:02}.md\nK.\n"
        ));
    }
    let mut fixture = Fixture::parse(&many);
    let report = fixture.analyze();
    let shared = sanitize(&fixture.tree, &fixture.input, &report, &NO_NAMES);
    check_invariant("thirty rules", &report, &shared);
    assert_eq!(shared.pseudonym("q").len(), 2);
    let text = |path: &str| shared_text(&shared, path).1;
    assert_eq!(text("/home/alice/shop/CLAUDE.md"), "@xxxa\n");
    let rule = text("/home/alice/shop/.claude/rules/q.md");
    assert_eq!(rule, "---\npaths: xxxxxa\n---\nx.\n");
}

#[test]
fn frontmatter_keeps_keys_and_what_discovery_reads() {
    check_file(
        r#"
        //@ project=/home/alice/shop
        //- /home/alice/shop/.claude/skills/deploy/SKILL.md
        ---
        name: deploy
        description: "Ships v2.1 to prod \u00e9 \"now\""
        when_to_use: >
          When asked to ship
          or release.
        version: 1.10
        retries: 3
        enabled: true
        owner: null
        tags: [ops, "on call"]  # who cares
        disable-model-invocation: false
        ---
        Body text.
        "#,
        NO_NAMES,
        "/home/alice/shop/.claude/skills/deploy/SKILL.md",
        r#"
        //- /home/b/d/.claude/skills/c/SKILL.md
        ---
        name: xxxxxa
        description: "xxxxx x0.0 xx xxxx \u00f8 \"xxx\""
        when_to_use: >
          xxxx xxxxx xx xxxx
          xx xxxxxxx.
        xxxxxxx: 1.10
        xxxxxxb: 1
        xxxxxxc: true
        xxxxx: null
        xxxx: [xxx, "xx xxxx"]  # xxx xxxxx
        disable-model-invocation: false
        ---
        xxxx xxxx.
        "#,
    );
    check_file(
        r#"
        //@ project=/home/alice
        //- /home/alice/.claude/projects/-home-alice/memory/MEMORY.md
        - [Pay](payments.md)
        //- /home/alice/.claude/projects/-home-alice/memory/payments.md
        ---
        name: Payments via Stripe
        type: project
        modified: 2026-11-02T10:00:00Z
        ---
        Use the adapter.
        "#,
        KEEP_NAMES,
        "/home/alice/.claude/projects/-home-alice/memory/payments.md",
        r#"
        //- /home/b/.claude/projects/-home-b/memory/payments.md
        ---
        name: xxxxxxxx xxx xxxxxx
        type: project
        modified: 2026-11-02T00:00:00Z
        ---
        xxx xxx xxxxxxx.
        "#,
    );
}

/// Only the words the analysis reads pass: keys it never reads, anchor, alias and tag names
/// and numbers (hex too) become placeholders of the same length, distinct where the names
/// were, and a number stays a number of the same shown length.
#[test]
fn frontmatter_passes_only_the_words_the_analysis_reads() {
    check_file(
        r#"
        //@ project=/home/alice
        //- /home/alice/.claude/projects/-home-alice/memory/MEMORY.md
        - [Pay](payments.md)
        //- /home/alice/.claude/projects/-home-alice/memory/payments.md
        ---
        type: project
        modified: 2026-11-02T10:41:07+01:00
        stripe_key: &acct_live !vault 0xDEADBEEF
        stripe_kez: *acct_live
        owner: {team_7f3a: 4096, team_7f3b: -12}
        ---
        Use the adapter.
        "#,
        NO_NAMES,
        "/home/alice/.claude/projects/-home-alice/memory/payments.md",
        r#"
        //- /home/b/.claude/projects/-home-b/memory/c.md
        ---
        type: project
        modified: 2026-11-02T00:00:00+00:00
        xxxxxx_xxx: &xxxx_xxxx !xxxxx 0x3B9ACA00
        xxxxxx_xxb: *xxxx_xxxx
        xxxxx: {xxxx_0x0x: 1111, xxxx_0x0b: -11}
        ---
        xxx xxx xxxxxxx.
        "#,
    );
}

#[test]
fn settings_keep_only_what_the_analysis_reads() {
    check_file(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/.claude/settings.json
        {
          "env": { "TOKEN": "secret" },
          "apiKeyHelper": "/home/alice/bin/key.sh",
          "autoMemoryEnabled": "no",
          "autoMemoryDirectory": "~/memories",
          "claudeMdExcludes": ["/home/alice/app/legacy/**", 7, "**/gen*/CLAUDE.md"]
        }
        //- /home/alice/app/legacy/CLAUDE.md
        old
        //- /home/alice/app/generated/CLAUDE.md
        generated
        "#,
        NO_NAMES,
        "/home/alice/.claude/settings.json",
        r#"
        //- /home/b/.claude/settings.json
        {
          "autoMemoryDirectory": "~/g",
          "autoMemoryEnabled": "",
          "claudeMdExcludes": [
            "/home/b/c/f/**",
            null,
            "/home/b/c/e/CLAUDE.md"
          ]
        }
        "#,
    );
}

#[test]
fn a_worktree_keeps_its_main_repository() {
    check_file(
        r#"
        //@ project=/home/alice/wt/feature mounts=/home/alice
        //- /home/alice/wt/feature/.git
        gitdir: /home/alice/repo/.git/worktrees/feature
        //- /home/alice/.claude/projects/-home-alice-repo/memory/MEMORY.md
        - remembered
        "#,
        NO_NAMES,
        "/home/alice/wt/feature/.git",
        r#"
        //- /home/b/e/c/.git
        gitdir: /home/b/d/.git/worktrees/c
        "#,
    );
}

#[test]
fn tricky_references_and_frontmatter_keep_their_report() {
    let cases = [
        // An import inside a link's text, escaped and nested parentheses, percent-escaped
        // Korean, a malformed escape, angle brackets, trailing punctuation.
        r#"
        //- /home/alice/.claude/CLAUDE.md
        [see @docs/a.md](docs/b.md) and [x](a\(1\).md) and [y](a_(1).md) [z](%EB%B0%B0%ED%8F%AC.md)
        [w](100%zz.md) [v](<sp ace.md>) @배포.md @a_(1).md,
        //- /home/alice/.claude/docs/a.md
        //- /home/alice/.claude/docs/b.md
        //- /home/alice/.claude/a(1).md
        //- /home/alice/.claude/a_(1).md
        //- /home/alice/.claude/배포.md
        //- /home/alice/.claude/100%zz.md
        //- /home/alice/.claude/sp ace.md
        "#,
        // YAML beyond `key: value`: comments, multi-line quotes, nested lists and maps,
        // anchors, tags, quoted keys, empty values, numbers that must stay numbers.
        r#"
        //@ project=/home/alice/p
        //- /home/alice/p/.claude/skills/my skill/SKILL.md
        ---
        # leading comment
        name: "my skill"
        description: "multi
          line with 12 and 	 tab"
        when_to_use:
          - a: 1
            b: two
          - {c: 3, d: "four"}
        anchors: &anc
          k: v
        alias: *anc
        tagged: !custom hello
        "a:b": c
        nothing:
        empty: ""
        number: 0x1F
        float: 1.50
        date: 2026-01-01
        ---
        body
        "#,
        // A plain glob with braces, a block scalar with a more-indented line and a blank one.
        r#"
        //@ project=/home/alice/p
        //- /home/alice/p/.claude/rules/r.md
        ---
        paths: src/**/*.{ts,tsx}
        description: |
          keep
            more 5

          back
        ---
        body
        //- /home/alice/p/src/x/y.tsx
        x
        "#,
        // An agent's name on the line after its key.
        r#"
        //@ project=/home/alice/p
        //- /home/alice/p/.claude/agents/rev.md
        ---
        name:
          reviewer
        memory: project
        ---
        //- /home/alice/p/.claude/agent-memory/reviewer/MEMORY.md
        - m
        "#,
    ];
    for (index, case) in cases.iter().enumerate() {
        let mut fixture = Fixture::parse(case);
        let report = fixture.analyze();
        for options in OPTIONS {
            let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
            check_invariant(&format!("case {index} {options:?}"), &report, &shared);
        }
    }
}

// ----- generated snapshots ---------------------------------------------------------------

/// A small seeded generator (SplitMix64): a failure names the seed that reproduces it.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Folder and file name parts: dots, dashes, spaces, digits, capitals, Korean, accents, an
/// emoji, and look-alikes of the well-known names.
const WORDS: &[&str] = &[
    "work",
    "shop",
    "my.app",
    "data_2024",
    "Notes v2",
    "배포",
    "café",
    "api",
    "x",
    "db",
    "Build",
    "zz9",
    "a-b",
    "claudette",
    "rules-old",
    "docs",
    "Ops",
    "memo",
    "😀fun",
    "v1.2",
];

/// Text fragments: Markdown, Korean, emoji, numbers, addresses that are not references.
const PROSE: &[&str] = &[
    "Use pnpm, not npm",
    "배포 전에 테스트를 실행한다",
    "Ship it 🚀 on Fridays? No.",
    "Port 5433, retry 3 times",
    "mail ops@example.com or ping @oncall",
    "see https://wiki.example.com/page#anchor",
    "`inline @code.md` stays code",
    "Ünïcödé and ÆØÅ letters",
    "a long line that goes on and on about the build system and its many caches and flags",
];

/// A generated snapshot: files with contents, files listed with a size only, the input.
struct Generated {
    contents: BTreeMap<String, Vec<u8>>,
    sizes: BTreeMap<String, u64>,
    modified: BTreeMap<String, String>,
    mounts: Vec<String>,
    input: Input,
}

/// Serves generated contents; a file listed with a size only cannot be read.
struct Source<'a>(&'a BTreeMap<String, Vec<u8>>);

impl ContentSource for Source<'_> {
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        self.0
            .get(path.as_str())
            .cloned()
            .ok_or_else(|| "listed with a size only".to_owned())
    }
}

impl Generated {
    fn analyse(&self) -> (Tree, Report) {
        let mounts: Vec<&str> = self.mounts.iter().map(String::as_str).collect();
        let entries = self
            .contents
            .iter()
            .map(|(path, bytes)| (path, bytes.len() as u64))
            .chain(self.sizes.iter().map(|(path, size)| (path, *size)))
            .map(|(path, size)| Entry {
                path: path.clone(),
                size,
                bytes: None,
                modified: self.modified.get(path).cloned(),
            });
        let mut tree = Tree::from_entries(&mounts, entries);
        let report = analyze_with(&mut tree, &self.input, &mut Source(&self.contents))
            .expect("generated input is valid");
        (tree, report)
    }
}

/// Builds one snapshot from a seed.
fn generate(seed: u64) -> Generated {
    let mut g = Gen {
        rng: Rng(seed),
        out: Generated {
            contents: BTreeMap::new(),
            sizes: BTreeMap::new(),
            modified: BTreeMap::new(),
            mounts: Vec::new(),
            input: Input::default(),
        },
        docs: Vec::new(),
    };
    g.snapshot();
    g.out
}

struct Gen {
    rng: Rng,
    out: Generated,
    /// Files that references can point to.
    docs: Vec<String>,
}

impl Gen {
    fn word(&mut self) -> String {
        self.rng.pick(WORDS).to_owned()
    }

    fn file_word(&mut self) -> String {
        // File names for references avoid spaces half the time, to exercise both forms.
        let word = self.word();
        if self.rng.chance(50) {
            word.replace(' ', "-")
        } else {
            word
        }
    }

    fn add(&mut self, path: &str, text: String) {
        let mut bytes = text.into_bytes();
        if self.rng.chance(5) {
            bytes = [b"\xef\xbb\xbf".as_slice(), &bytes].concat();
        }
        if self.rng.chance(5) {
            // Latin-1 bytes that are not UTF-8.
            bytes.extend_from_slice(b"caf\xe9 \xff\xfe end\n");
        }
        self.out.contents.insert(path.to_owned(), bytes);
    }

    fn snapshot(&mut self) {
        let os = match self.rng.below(6) {
            0 => Os::Windows,
            1 => Os::Macos,
            _ => Os::Linux,
        };
        let user = self.rng.pick(&[
            "alice",
            "bob.smith",
            "zed",
            "김철수",
            "Émile",
            "a1",
            "agents",
            "Mia_2",
        ]);
        let home = match os {
            Os::Windows => format!("C:/Users/{user}"),
            Os::Macos => format!("/Users/{user}"),
            Os::Linux => format!("/home/{user}"),
        };
        let config = if self.rng.chance(15) {
            format!("{home}/.config/claude")
        } else {
            format!("{home}/.claude")
        };
        let project = if self.rng.chance(10) {
            None
        } else if self.rng.chance(15) && os != Os::Windows {
            Some(format!("/srv/{}/{}", self.word(), self.word()))
        } else {
            let depth = 1 + self.rng.below(3);
            let mut path = home.clone();
            for _ in 0..depth {
                path = format!("{path}/{}", self.word());
            }
            Some(path)
        };
        self.out.mounts = vec![config.clone(), home.clone()];
        if let Some(project) = &project {
            self.out.mounts.push(project.clone());
        }
        let today = self.rng.chance(50).then(|| "2026-11-30".to_owned());
        self.out.input = Input {
            home: home.clone(),
            project: project.clone(),
            config_dir: (config != format!("{home}/.claude")).then(|| config.clone()),
            os,
            version: None,
            today,
            ..Input::default()
        };

        // Files that references point to, made first so that texts can name them.
        for _ in 0..self.rng.below(6) {
            let base = match &project {
                Some(project) if self.rng.chance(60) => format!("{project}/docs"),
                _ => format!("{config}/notes"),
            };
            let name = self.file_word();
            self.docs.push(format!("{base}/{name}.md"));
        }
        if self.rng.chance(20) {
            let cycle = format!("{home}/{}/cycle-a.md", self.word());
            self.docs.push(cycle);
        }
        let docs = self.docs.clone();
        for doc in &docs {
            let text = self.markdown(doc, 4);
            self.add(doc, text);
        }
        if self.rng.chance(20) {
            // An import target too large to read, and one never read (a transcript).
            let huge = format!("{config}/notes/huge.md");
            self.out.sizes.insert(huge.clone(), 70 * 1024 * 1024);
            self.docs.push(huge);
            let transcript = format!("{config}/projects/x/session.jsonl");
            self.out.sizes.insert(transcript.clone(), 1234);
            self.docs.push(transcript);
        }

        let managed = match os {
            Os::Linux => "/etc/claude-code/CLAUDE.md",
            Os::Macos => "/Library/Application Support/ClaudeCode/CLAUDE.md",
            Os::Windows => "C:/Program Files/ClaudeCode/CLAUDE.md",
        };
        for (path, percent) in [
            (managed.to_owned(), 20),
            (format!("{config}/CLAUDE.md"), 70),
            (format!("{home}/CLAUDE.md"), 20),
        ] {
            if self.rng.chance(percent) {
                let text = self.markdown(&path, 8);
                self.add(&path, text);
            }
        }
        if let Some(project) = &project {
            self.project(project);
        }
        self.rules(&format!("{config}/rules"));
        self.skills(&format!("{config}/skills"));
        self.agents(&config, "agents", "agent-memory");
        self.memory(&home, &config, project.as_deref());
        self.settings(&config, project.as_deref());
    }

    fn project(&mut self, project: &str) {
        for name in [
            "CLAUDE.md",
            ".claude/CLAUDE.md",
            "CLAUDE.local.md",
            ".claude/CLAUDE.local.md",
        ] {
            if self.rng.chance(40) {
                let path = format!("{project}/{name}");
                let text = self.markdown(&path, 10);
                self.add(&path, text);
            }
        }
        for _ in 0..self.rng.below(4) {
            let mut dir = project.to_owned();
            for _ in 0..1 + self.rng.below(3) {
                let word = self.word();
                dir = format!("{dir}/{word}");
            }
            if self.rng.chance(15) {
                dir = format!("{project}/node_modules/{}", self.word());
            }
            let path = format!("{dir}/CLAUDE.md");
            if self.rng.chance(10) {
                // Over 4 MiB: skipped by Claude Code, listed with its size only.
                self.out.sizes.insert(path, 5 * 1024 * 1024);
            } else {
                let text = self.markdown(&path, 5);
                self.add(&path, text);
            }
            if self.rng.chance(30) {
                self.skills(&format!("{dir}/.claude/skills"));
            }
        }
        match self.rng.below(4) {
            0 | 1 => {
                self.add(
                    &format!("{project}/.git/HEAD"),
                    "ref: refs/heads/secret-branch\n".to_owned(),
                );
            }
            2 => {
                let main = format!("{}/main-{}", parent(project), self.word());
                let gitdir = format!("{main}/.git/worktrees/{}", self.word());
                self.add(&format!("{project}/.git"), format!("gitdir: {gitdir}\n"));
                self.add(
                    &format!("{main}/.git/HEAD"),
                    "ref: refs/heads/main\n".to_owned(),
                );
            }
            _ => {}
        }
        self.rules(&format!("{project}/.claude/rules"));
        self.skills(&format!("{project}/.claude/skills"));
        self.agents(project, ".claude/agents", ".claude/agent-memory");
        if self.rng.chance(30) {
            let path = format!(
                "{project}/.claude/agent-memory-local/{}/MEMORY.md",
                self.word()
            );
            let text = self.markdown(&path, 3);
            self.add(&path, text);
        }
        for _ in 0..self.rng.below(4) {
            // Source files no row lists: a rule's globs may match them, nothing else.
            let path = match self.rng.below(3) {
                0 => format!("{project}/src/{}.ts", self.word()),
                1 => format!("{project}/src/{}/{}.ts", self.word(), self.word()),
                _ => format!("{project}/lib/{}.py", self.word()),
            };
            self.add(&path, "export const secret = 1;\n".to_owned());
        }
        if self.rng.chance(25) {
            // A sibling folder whose path encodes to the same memory-folder name.
            let (parent, name) = project.rsplit_once('/').unwrap_or(("", project));
            let twin: String = name
                .chars()
                .map(|c| match c {
                    '.' | '_' | ' ' => '-',
                    '-' => '.',
                    c => c,
                })
                .collect();
            if twin != name {
                self.add(&format!("{parent}/{twin}/README.md"), "twin\n".to_owned());
            }
        }
    }

    fn rules(&mut self, dir: &str) {
        for _ in 0..self.rng.below(3) {
            let sub = if self.rng.chance(30) {
                format!("/{}", self.word())
            } else {
                String::new()
            };
            let path = format!("{dir}{sub}/{}.md", self.file_word());
            let frontmatter = match self.rng.below(5) {
                0 => format!(
                    "---\npaths:\n  - \"src/{}/**/*.ts\"\n  - lib/**\n---\n",
                    self.word()
                ),
                1 => format!("---\npaths: \"{}/**, {{a,b}}/*.md\"\n---\n", self.word()),
                2 => "---\npaths: [\"**/*.py\", 'docs/*.md']\ndescription: Python style\n---\n"
                    .to_owned(),
                _ => String::new(),
            };
            let text = format!("{frontmatter}{}", self.markdown(&path, 4));
            self.add(&path, text);
        }
    }

    fn skills(&mut self, dir: &str) {
        for _ in 0..self.rng.below(3) {
            let folder = self.file_word();
            let path = format!("{dir}/{folder}/SKILL.md");
            let mut frontmatter = String::from("---\n");
            if self.rng.chance(60) {
                let name = if self.rng.chance(70) {
                    folder.clone()
                } else {
                    self.file_word()
                };
                frontmatter.push_str(&format!("name: {name}\n"));
            }
            frontmatter.push_str(match self.rng.below(4) {
                0 => "description: Deploys the app, 3 times a day 🚀\n",
                1 => "description: \"Quoted, with an escape \\u00e9 and \\\"quotes\\\"\"\n",
                2 => "description: |\n  Line one: with a colon\n  Line two 2026\n",
                _ => "description: 42\n",
            });
            if self.rng.chance(40) {
                frontmatter.push_str("when_to_use: When asked to ship; 배포할 때\n");
            }
            if self.rng.chance(30) {
                frontmatter.push_str("disable-model-invocation: true\n");
            }
            if self.rng.chance(10) {
                frontmatter.push_str("broken: [unclosed\n");
            }
            frontmatter.push_str("---\n");
            let mut text = format!("{frontmatter}{}", self.markdown(&path, 4));
            if self.rng.chance(40) {
                let extra = format!("{dir}/{folder}/checklist.md");
                text.push_str("\nSee [the checklist](checklist.md).\n");
                self.add(&extra, "- step one\n".to_owned());
            }
            self.add(&path, text);
        }
    }

    fn agents(&mut self, root: &str, definitions: &str, memory: &str) {
        for _ in 0..self.rng.below(3) {
            let agent = self.file_word();
            if self.rng.chance(70) {
                let scope = self.rng.pick(&["user", "project", "local"]);
                self.add(
                    &format!("{root}/{definitions}/{agent}.md"),
                    format!("---\nname: {agent}\ndescription: Reviews code\nmemory: {scope}\n---\nYou review.\n"),
                );
            }
            if self.rng.chance(70) {
                let dir = format!("{root}/{memory}/{agent}");
                let index = format!("{dir}/MEMORY.md");
                let text = self.index(&dir, 20);
                self.add(&index, text);
            }
        }
    }

    /// The project's memory folder under one of the lookups, other folders beside it.
    fn memory(&mut self, home: &str, config: &str, project: Option<&str>) {
        let base = format!("{config}/projects");
        if let Some(project) = project {
            let key = self
                .out
                .contents
                .get(&format!("{project}/.git"))
                .and_then(|bytes| {
                    let text = String::from_utf8_lossy(bytes).into_owned();
                    let gitdir = text.trim().strip_prefix("gitdir: ")?.to_owned();
                    Some(gitdir[..gitdir.find("/.git/")?].to_owned())
                })
                .unwrap_or_else(|| project.to_owned());
            let name = match self.rng.below(6) {
                0 => key.replace(['/', '\\', ':'], "-"),
                1 => {
                    let segments: Vec<&str> =
                        project.split('/').filter(|s| !s.is_empty()).collect();
                    let tail = segments[segments.len().saturating_sub(2)..].join("/");
                    format!("-old-{}", encode_project_path(&tail).to_uppercase())
                }
                _ => encode_project_path(&key),
            };
            let dir = format!("{base}/{name}/memory");
            let index = format!("{dir}/MEMORY.md");
            let lines = match self.rng.below(4) {
                0 => 0,
                1 => 150 + self.rng.below(120),
                _ => self.rng.below(40),
            };
            let text = self.index(&dir, lines);
            if lines > 0 || self.rng.chance(50) {
                self.add(&index, text);
            }
            for _ in 0..self.rng.below(4) {
                let name = format!("{dir}/{}.md", self.file_word());
                let ty = self
                    .rng
                    .pick(&["user", "feedback", "project", "reference", "odd"]);
                let day = 1 + self.rng.below(28);
                self.out
                    .modified
                    .insert(name.clone(), format!("2026-11-{day:02}T08:00:00"));
                let frontmatter = if self.rng.chance(70) {
                    format!("---\ntype: {ty}\nmodified: 2026-10-{day:02}\n---\n")
                } else {
                    String::new()
                };
                let text = format!("{frontmatter}{}", self.markdown(&name, 3));
                self.add(&name, text);
            }
            self.out
                .sizes
                .insert(format!("{base}/{name}/0b7e5c2a.jsonl"), 99_999);
        }
        for _ in 0..self.rng.below(3) {
            let other = encode_project_path(&format!("{home}/{}", self.word()));
            if self.rng.chance(70) {
                let path = format!("{base}/{other}/memory/{}.md", self.file_word());
                self.add(&path, "- other\n".to_owned());
            } else {
                self.out
                    .sizes
                    .insert(format!("{base}/{other}/abc.jsonl"), 100);
            }
        }
    }

    fn settings(&mut self, config: &str, project: Option<&str>) {
        let mut keys = vec!["\"env\": {\"TOKEN\": \"secret-token\"}".to_owned()];
        if self.rng.chance(30) {
            keys.push(format!(
                "\"autoMemoryEnabled\": {}",
                self.rng.pick(&["false", "true", "\"no\""])
            ));
        }
        if self.rng.chance(50) {
            let mut patterns = Vec::new();
            let candidates: Vec<String> = self
                .out
                .contents
                .keys()
                .chain(self.out.sizes.keys())
                .filter(|p| p.ends_with("CLAUDE.md"))
                .cloned()
                .collect();
            if !candidates.is_empty() {
                let pick = candidates[self.rng.below(candidates.len())].clone();
                let dir = parent(&pick);
                let folder = dir.rsplit('/').next().unwrap_or_default();
                patterns.push(format!("\"{pick}\""));
                patterns.push(format!("\"**/{folder}/CLAUDE.md\""));
                if let Some(first) = folder.chars().next() {
                    patterns.push(format!("\"**/{first}*/CLAUDE.md\""));
                }
            }
            patterns.push("\"**/[a-c]*/CLAUDE.md\"".to_owned());
            patterns.push("3".to_owned());
            keys.push(format!("\"claudeMdExcludes\": [{}]", patterns.join(", ")));
        }
        if self.rng.chance(15) {
            keys.push("\"autoMemoryDirectory\": 5".to_owned());
        }
        let text = if self.rng.chance(5) {
            "{ not json".to_owned()
        } else {
            format!("{{\n  {}\n}}\n", keys.join(",\n  "))
        };
        self.add(&format!("{config}/settings.json"), text);
        if let Some(project) = project {
            if self.rng.chance(30) {
                self.add(
                    &format!("{project}/.claude/settings.local.json"),
                    "{\"autoMemoryEnabled\": true, \"autoMemoryDirectory\": \"~/m\"}\n".to_owned(),
                );
            }
        }
    }

    /// A memory index: `lines` entries, links to topic files (some missing).
    fn index(&mut self, dir: &str, lines: usize) -> String {
        let mut text = String::new();
        if self.rng.chance(20) {
            text.push_str("---\ntype: index\n---\n");
        }
        for n in 0..lines {
            match self.rng.below(6) {
                0 => {
                    let topic = self.file_word();
                    let target = topic.replace(' ', "%20");
                    text.push_str(&format!("- [{topic} notes]({target}.md) — entry {n}\n"));
                    if self.rng.chance(60) {
                        let body = self.markdown(&format!("{dir}/{topic}.md"), 2);
                        self.add(&format!("{dir}/{topic}.md"), body);
                    }
                }
                1 => text.push_str(&format!(
                    "- {} {}\n",
                    "가나다라마바사 ".repeat(1 + self.rng.below(30)),
                    n
                )),
                2 => text.push_str(&format!("- 😀 {}\n", "x".repeat(self.rng.below(200)))),
                _ => {
                    let prose = self.rng.pick(PROSE);
                    text.push_str(&format!("- {prose} ({n})\n"));
                }
            }
        }
        text
    }

    /// Markdown for the file at `path`, with up to `lines` blocks and references to the
    /// generated documents in every form the scanner reads.
    fn markdown(&mut self, path: &str, lines: usize) -> String {
        let folder = parent(path);
        let home = self.out.input.home.clone();
        let mut text = String::new();
        if self.rng.chance(15) {
            text.push_str("---\ndescription: Notes\ncount: 3\n---\n");
        }
        for _ in 0..self.rng.below(lines + 1) {
            let target = if !self.docs.is_empty() && self.rng.chance(70) {
                let doc = self.docs[self.rng.below(self.docs.len())].clone();
                match self.rng.below(3) {
                    0 => relative(&folder, &doc),
                    1 => match doc.strip_prefix(&format!("{home}/")) {
                        Some(rest) => format!("~/{rest}"),
                        None => doc,
                    },
                    _ => doc,
                }
            } else {
                format!("{}.md", self.file_word())
            };
            let block = match self.rng.below(12) {
                0 => format!("@{}", target.replace(' ', "\\ ")),
                1 => format!("See @{}, then", target.replace(' ', "\\ ")),
                2 => format!("@{}#part", target.replace(' ', "\\ ")),
                3 => format!("[{}](<{target}>)", self.rng.pick(PROSE)),
                4 => format!("[link]({} \"title\")", target.replace(' ', "%20")),
                5 => format!("[link]({}#frag)", target.replace(' ', "%20")),
                6 => format!("```\n@{target}\n```"),
                7 => format!("<!-- note @{} -->", target.replace(' ', "\\ ")),
                8 => format!("[folder]({folder}/)"),
                9 => format!("# {}", self.rng.pick(PROSE)),
                _ => format!("- {}", self.rng.pick(PROSE)),
            };
            text.push_str(&block);
            text.push('\n');
        }
        if self.rng.chance(10) {
            text = text.replace('\n', "\r\n");
        }
        text
    }
}

fn parent(path: &str) -> String {
    path.rsplit_once('/')
        .map_or(path, |(dir, _)| dir)
        .to_owned()
}

/// `to` relative to the folder `from`, with `..` where needed.
fn relative(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to_parts: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
    if from.first() != to_parts.first() {
        return to.to_owned();
    }
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to_parts[common..]);
    parts.join("/")
}

#[test]
fn claude_json_keeps_only_the_projects_import_approval() {
    // The approval decides whether an import that leaves the project loads, so the shared
    // copy carries it, and nothing else of the file (history, other projects, the account).
    check_file(
        r#"
        //@ project=/home/alice/app mounts=/home/alice
        //- /home/alice/.claude.json
        {"numStartups": 40, "oauthAccount": {"emailAddress": "alice@example.com"},
         "projects": {"/home/alice/app": {"hasClaudeMdExternalIncludesApproved": true,
                                          "history": [{"display": "secret prompt"}]},
                      "/home/alice/other": {"hasClaudeMdExternalIncludesApproved": false}}}
        //- /home/alice/app/CLAUDE.md
        see @../notes.md
        //- /home/alice/notes.md
        notes
        "#,
        NO_NAMES,
        "/home/alice/.claude.json",
        r#"
        //- /home/b/.claude.json
        {
          "projects": {
            "/home/b/c": {
              "hasClaudeMdExternalIncludesApproved": true
            }
          }
        }
        "#,
    );
}

#[test]
fn the_managed_policys_inline_instructions_stay_text_of_their_length() {
    check_file(
        r#"
        //@ project=/home/alice/app mounts=/home/alice,/etc/claude-code
        //- /etc/claude-code/managed-settings.json
        {"claudeMd": "Never push to main", "permissions": {"deny": ["Bash(rm:*)"]}}
        //- /home/alice/app/CLAUDE.md
        app
        "#,
        NO_NAMES,
        "/etc/claude-code/managed-settings.json",
        &format!(
            "//- /etc/claude-code/managed-settings.json\n{{\n  \"claudeMd\": \"xxxxx xxxx xx xxxx\"\n}}{}\n",
            " ".repeat(76 - 36)
        ),
    );
}

// ----- the share basis -------------------------------------------------------------------

/// The page's analysis worker hands the page `sanitize::basis` instead of the whole tree:
/// sharing from it must give the very same snapshot, and it must hold every listed file.
fn check_basis(
    what: &str,
    tree: &memdiag_core::Tree,
    input: &memdiag_core::Input,
    report: &Report,
) {
    let basis = memdiag_core::sanitize::basis(tree, report);
    assert!(basis.len() <= tree.len(), "{what}: the basis grew");
    for row in report.files.iter().filter(|row| row.size.is_some()) {
        let Ok(path) = memdiag_core::VPath::new(&row.path) else {
            continue;
        };
        assert_eq!(
            basis.file(&path),
            tree.file(&path),
            "{what}: {} is not in the basis as in the tree",
            row.path
        );
    }
    for options in OPTIONS {
        let whole = sanitize(tree, input, report, &options);
        let part = sanitize(&basis, input, report, &options);
        assert_eq!(
            format!("{part:?}"),
            format!("{whole:?}"),
            "{what} {options:?}: sharing from the basis differs"
        );
        assert_eq!(
            encode_link(&part, "2026-01-01T00:00:00Z"),
            encode_link(&whole, "2026-01-01T00:00:00Z"),
            "{what} {options:?}: the link differs"
        );
    }
}

#[test]
fn sharing_from_the_basis_gives_the_same_snapshot() {
    for dir in fixture_dirs() {
        let mut fixture = Fixture::load_dir(&dir);
        let report = fixture.analyze();
        check_basis(
            &dir.display().to_string(),
            &fixture.tree,
            &fixture.input,
            &report,
        );
    }
    let mut cases: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
        .expect("fixtures/rules exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    cases.sort();
    for path in cases {
        let text = std::fs::read_to_string(&path).expect("readable case");
        let tree = text.split("//= rows\n").next().unwrap_or(&text);
        let mut fixture = Fixture::parse(tree);
        let report = fixture.analyze();
        check_basis(
            &path.display().to_string(),
            &fixture.tree,
            &fixture.input,
            &report,
        );
    }
    for seed in 0..20 {
        let generated = generate(seed);
        let (tree, report) = generated.analyse();
        check_basis(&format!("seed {seed}"), &tree, &generated.input, &report);
    }
}

/// Text sent twice stays a finding in every share, and texts of one shape stay none: the
/// copy's placeholders (every letter `x`) read the same for both, so the share carries the
/// original's pairs instead ([`Tree::set_sent_twice`]), through the link and the zip too.
#[test]
fn texts_sent_twice_stay_so_in_the_share_and_texts_of_one_shape_do_not() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/CLAUDE.md
        The same words in two files, long enough to count.
        //- /home/alice/app/CLAUDE.local.md
        The same words in two files, long enough to count.
        //- /home/alice/app/.claude/rules/shape.md
        Tha sama wards in twa filas, lang anaugh ta caunt.
        //- /home/alice/app/.claude/skills/fmt/SKILL.md
        ---
        description: Formats the code with the house style, tabs first.
        ---
        //- /home/alice/app/.claude/skills/lint/SKILL.md
        ---
        description: Lintses tha cade with tha hause style, tabs farst.
        ---
        //- /home/alice/app/.claude/commands/format.md
        ---
        description: Formats the code with the house style, tabs first.
        ---
        "#,
    );
    let report = fixture.analyze();
    let pairs = |report: &Report| -> Vec<String> {
        report
            .diagnostics
            .iter()
            .filter(|d| d.code == memdiag_core::report::Code::SentTwice)
            .map(|d| d.path.clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(
        pairs(&report),
        [
            "/home/alice/app/.claude/commands/format.md",
            "/home/alice/app/CLAUDE.local.md"
        ]
    );
    for options in OPTIONS {
        let what = format!("{options:?}");
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        assert_eq!(shared.tree.sent_twice().map(|p| p.len()), Some(2), "{what}");
        let shared_report = check_invariant(&what, &report, &shared);
        assert_eq!(pairs(&shared_report).len(), 2, "{what}");
        check_round_trips(&what, &shared, &shared_report);
    }
}

/// A file keeps its text in the share exactly when discovery read it, as the simulated
/// release decides: a `CLAUDE.md` over 4 MiB is skipped from 2.1.196 (its size shared, not
/// its text) and read whole before (its text shared as placeholders), and either share
/// tells its release's report.
#[test]
fn a_file_over_4_mib_keeps_its_text_where_the_release_reads_it() {
    let body = "forty-two characters of plain instruction\n".repeat(100_000);
    let fixture = format!("//@ project=/home/alice/app\n//- /home/alice/app/CLAUDE.md\n{body}");
    for (version, read) in [(None, false), (Some("2.1.195"), true)] {
        let mut fixture = Fixture::parse(&fixture);
        fixture.input.version = version.map(str::to_owned);
        let report = fixture.analyze();
        // A source may hold text the analysis never asked for (a zip read whole): what
        // discovery recorded decides, not what the tree happens to hold.
        let original = VPath::new("/home/alice/app/CLAUDE.md").unwrap();
        fixture
            .tree
            .set_contents(&original, Ok(body.clone().into_bytes()));
        let what = format!("release {version:?}");
        let shared = sanitize(
            &fixture.tree,
            &fixture.input,
            &report,
            &SanitizeOptions::default(),
        );
        let path = VPath::new(&shared.paths["/home/alice/app/CLAUDE.md"]).unwrap();
        let file = shared.tree.file(&path).expect("the CLAUDE.md is shared");
        assert_eq!(file.size, body.len() as u64, "{what}");
        assert_eq!(
            matches!(file.contents, Contents::Loaded(_)),
            read,
            "{what}: the text is shared exactly when the release reads it"
        );
        check_invariant(&what, &report, &shared);
    }
}

/// The file that shows a rule can load is the one discovery matched, by discovery's own
/// matching: case ignored, relative to the folder that holds the rule's `.claude/`. Sharing
/// once matched globs again itself, case-sensitively and relative to the project, and so
/// dropped both witnesses here: the shared report then said both rules never load.
#[test]
fn a_rule_keeps_the_file_discovery_matched_it_with() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/CLAUDE.md
        app
        //- /home/alice/app/.claude/rules/upper.md
        ---
        paths: ["src/**/*.TS"]
        ---
        Upper-case glob.
        //- /home/alice/app/src/a.ts
        a
        //- /home/alice/app/packages/web/.claude/rules/web.md
        ---
        paths: ["lib/*.js"]
        ---
        Relative to packages/web.
        //- /home/alice/app/packages/web/lib/x.js
        x
        "#,
    );
    let report = fixture.analyze();
    let witnesses: Vec<&str> = report
        .sources
        .iter()
        .filter(|s| s.why == ReadFor::RuleWitness)
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(
        witnesses,
        [
            "/home/alice/app/packages/web/lib/x.js",
            "/home/alice/app/src/a.ts"
        ]
    );
    for options in OPTIONS {
        let what = format!("{options:?}");
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        for witness in &witnesses {
            assert!(shared.paths.contains_key(*witness), "{what}: {witness}");
        }
        check_invariant(&what, &report, &shared);
    }
}

/// A `claudeMdExcludes` pattern whose wildcard sits inside a renamed word (`sec*`) is
/// rewritten to the files it excluded, imports included: discovery matches the patterns
/// against every instruction file it reaches, not only the top-level ones.
#[test]
fn an_excluded_import_stays_excluded() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/app
        //- /home/alice/app/CLAUDE.md
        See @docs/secrets.md and @docs/public.md
        //- /home/alice/app/docs/secrets.md
        secret
        //- /home/alice/app/docs/public.md
        public
        //- /home/alice/app/.claude/settings.json
        {"claudeMdExcludes": ["**/docs/sec*.md"]}
        "#,
    );
    let report = fixture.analyze();
    let excluded: Vec<&str> = report
        .files
        .iter()
        .filter(|row| row.status == memdiag_core::report::FileStatus::Excluded)
        .map(|row| row.path.as_str())
        .collect();
    assert_eq!(excluded, ["/home/alice/app/docs/secrets.md"]);
    for options in OPTIONS {
        let what = format!("{options:?}");
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        check_invariant(&what, &report, &shared);
    }
}

/// The growth chart dates a topic file whose frontmatter names no day by the file's own
/// modification day, and discovery records which it read (`ReadFor::Dated`): those keep the
/// day (not the time), every other file's date goes.
#[test]
fn only_the_days_the_growth_chart_read_are_shared() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/shop
        //- /home/alice/shop/CLAUDE.md
        Shop.
        //- /home/alice/.claude/projects/-home-alice-shop/memory/MEMORY.md
        - [Topic](topic.md)
        - [Other](other.md)
        //- /home/alice/.claude/projects/-home-alice-shop/memory/topic.md
        Undated.
        //- /home/alice/.claude/projects/-home-alice-shop/memory/other.md
        ---
        modified: 2026-10-01
        ---
        Dated in its frontmatter.
        "#,
    );
    let memory = "/home/alice/.claude/projects/-home-alice-shop/memory";
    for path in [
        "/home/alice/shop/CLAUDE.md".to_owned(),
        format!("{memory}/MEMORY.md"),
        format!("{memory}/topic.md"),
        format!("{memory}/other.md"),
    ] {
        let at = VPath::new(&path).unwrap();
        let mut entry = fixture.tree.file(&at).unwrap().clone();
        entry.modified = Some("2026-11-02T10:11:12Z".to_owned());
        fixture.tree.insert(at, entry);
    }
    fixture.input.today = Some("2026-11-30".to_owned());
    let report = fixture.analyze();
    // The chart counts the two topic files: one by its frontmatter, one by its file's day.
    let growth = report.health.memories[0].growth.as_ref().unwrap();
    let counted: u64 = growth.weeks.iter().map(|week| week.count).sum();
    assert_eq!(counted, 2, "{growth:?}");
    for options in OPTIONS {
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        check_invariant("days", &report, &shared);
        let days: Vec<(String, Option<String>)> = shared
            .paths
            .iter()
            .filter_map(|(original, to)| {
                let file = shared.tree.file(&VPath::new(to).ok()?)?;
                Some((original.clone(), file.modified.clone()))
            })
            .filter(|(_, day)| day.is_some())
            .collect();
        assert_eq!(
            days,
            [(format!("{memory}/topic.md"), Some("2026-11-02".to_owned()))],
            "{options:?}"
        );
    }
}

#[test]
fn extra_folders_and_plugin_folders_travel_renamed() {
    let mut fixture = Fixture::parse(
        r#"
        //@ project=/home/alice/p mounts=/home/alice
        //- /home/alice/p/CLAUDE.md
        Project.
        //- /home/alice/extra/CLAUDE.md
        Extra folder's instructions.
        //- /home/alice/extra/.claude/skills/x-skill/SKILL.md
        ---
        name: x-skill
        description: A skill of the extra folder
        ---
        //- /home/alice/plug/.claude-plugin/plugin.json
        { "name": "secret-plugin" }
        //- /home/alice/plug/skills/p-skill/SKILL.md
        ---
        name: p-skill
        description: A plugin skill
        ---
        //- /home/alice/plug/hooks/hooks.json
        { "hooks": { "SessionStart": [ { "hooks": [ { "type": "command", "command": "/opt/x/run-it --token s3cret" } ] } ] } }
        "#,
    );
    fixture.input.additional_dirs = vec!["/home/alice/extra".to_owned()];
    fixture.input.additional_dirs_claude_md_env = Some("true".to_owned());
    fixture.input.plugin_dirs = vec!["/home/alice/plug".to_owned()];
    let report = fixture.analyze();
    assert_eq!(report.session.files.len(), 2, "{:?}", report.session.files);
    assert_eq!(report.session.plugins.len(), 1);
    assert!(report
        .session
        .skills
        .iter()
        .any(|s| s.starts_with("secret-plugin:p-skill")));
    for options in OPTIONS {
        let what = format!("extra folders {options:?}");
        let shared = sanitize(&fixture.tree, &fixture.input, &report, &options);
        let shared_report = check_invariant(&what, &report, &shared);
        check_round_trips(&what, &shared, &shared_report);
        let payload =
            String::from_utf8_lossy(&to_zip(&shared, "2026-11-30T09:12:00Z")).into_owned();
        assert!(!payload.contains("s3cret"), "{what}");
        if !options.keep_file_names {
            assert!(!payload.contains("secret-plugin"), "{what}");
        }
    }
}
