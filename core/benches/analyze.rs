//! Benchmarks over a snapshot shaped like a real `~/.claude`: 50 project folders of 2,000
//! session transcripts each (100,000 `.jsonl` files the analysis must never read), plus a
//! few hundred Markdown files it does read.
//!
//! Run with `cargo bench -p memdiag-core --bench analyze`; `cargo test --benches` runs each
//! benchmark once as a smoke test.

use std::collections::HashMap;
use std::hint::black_box;
use std::io::{Cursor, Write};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use memdiag_core::report::Os;
use memdiag_core::{
    analyze_with, encode_project_path, mount_zip, ContentSource, Entry, Input, Tree, VPath,
    ZipLimits,
};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const HOME: &str = "/home/alice";
const CONFIG: &str = "/home/alice/.claude";
const PROJECTS: usize = 50;
const TRANSCRIPTS_PER_PROJECT: usize = 2_000;
const ZIP_ENTRIES: usize = 20_000;

/// The project the analysis runs for: the first of the fifty.
fn project(index: usize) -> String {
    format!("{HOME}/work/app-{index}")
}

/// A session id that looks like Claude Code's, the same on every run.
fn uuid(project: usize, session: usize) -> String {
    // SplitMix64 spreads the counters over all hex digits, so paths do not share long
    // prefixes that a real snapshot would not have.
    let mut x = ((project as u64) << 32 | session as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    let hi = x ^ (x >> 31);
    let lo = hi.rotate_left(17) ^ 0x5555_5555_5555_5555;
    format!(
        "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
        hi >> 32,
        (hi >> 16) & 0xffff,
        hi & 0xfff,
        lo >> 52,
        lo & 0xffff_ffff_ffff
    )
}

/// The Markdown files of the snapshot with their contents: user, rules, skills, each
/// project's memory folder, and the current project's own instructions.
fn markdown_files() -> Vec<(String, String)> {
    let mut files = vec![(
        format!("{CONFIG}/CLAUDE.md"),
        "# Preferences\n\n- Answer briefly.\n- Prefer Rust.\n\n@rules-extra.md\n".to_owned(),
    )];
    files.push((
        format!("{CONFIG}/rules-extra.md"),
        "Run the tests before committing.\n".to_owned(),
    ));
    for rule in 0..20 {
        let frontmatter = if rule % 2 == 0 {
            format!("---\npaths:\n  - \"src/mod{rule}/**/*.rs\"\n---\n")
        } else {
            String::new()
        };
        files.push((
            format!("{CONFIG}/rules/rule-{rule}.md"),
            format!("{frontmatter}# Rule {rule}\n\nKeep functions short in module {rule}.\n"),
        ));
    }
    for skill in 0..10 {
        files.push((
            format!("{CONFIG}/skills/skill-{skill}/SKILL.md"),
            format!(
                "---\nname: skill-{skill}\ndescription: Does task {skill} the house way.\n---\n\
                 Step one.\nStep two.\n"
            ),
        ));
    }
    for index in 0..PROJECTS {
        let memory = format!(
            "{CONFIG}/projects/{}/memory",
            encode_project_path(&project(index))
        );
        let mut index_text = String::from("# Memory\n\n");
        for topic in 0..4 {
            index_text.push_str(&format!("- [Topic {topic}](topic-{topic}.md): notes\n"));
            files.push((
                format!("{memory}/topic-{topic}.md"),
                format!("# Topic {topic}\n\nWhat was learnt about part {topic}.\n"),
            ));
        }
        files.push((format!("{memory}/MEMORY.md"), index_text));
    }
    let app = project(0);
    files.push((
        format!("{app}/CLAUDE.md"),
        "# App\n\n@CLAUDE.local.md\n".to_owned(),
    ));
    files.push((
        format!("{app}/CLAUDE.local.md"),
        "Use the staging database.\n".to_owned(),
    ));
    files.push((
        format!("{app}/src/CLAUDE.md"),
        "Nested instructions.\n".to_owned(),
    ));
    for rule in 0..10 {
        files.push((
            format!("{app}/.claude/rules/app-{rule}.md"),
            format!("---\npaths: \"**/*.ts\"\n---\nApp rule {rule}.\n"),
        ));
    }
    files
}

/// Every listed file; Markdown carries its bytes only when `with_contents` is set, so the
/// analysis benchmark has to fetch them through its content source.
fn entries(with_contents: bool) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(PROJECTS * TRANSCRIPTS_PER_PROJECT + 400);
    for index in 0..PROJECTS {
        let folder = format!("{CONFIG}/projects/{}", encode_project_path(&project(index)));
        for session in 0..TRANSCRIPTS_PER_PROJECT {
            entries.push(Entry {
                path: format!("{folder}/{}.jsonl", uuid(index, session)),
                size: 10_000 + (session as u64 * 7_919) % 5_000_000,
                bytes: None,
                modified: Some("2026-09-11T08:30:00Z".to_owned()),
            });
        }
    }
    for (path, text) in markdown_files() {
        entries.push(Entry {
            path,
            size: text.len() as u64,
            bytes: with_contents.then(|| text.into_bytes()),
            modified: None,
        });
    }
    entries
}

fn input() -> Input {
    Input {
        home: HOME.to_owned(),
        project: Some(project(0)),
        config_dir: None,
        os: Os::Linux,
        version: None,
        today: Some("2026-09-11".to_owned()),
        ..Input::default()
    }
}

/// Serves contents from memory and counts what the analysis asked for.
#[derive(Clone)]
struct CountingSource {
    contents: HashMap<VPath, Vec<u8>>,
    reads: usize,
    transcript_reads: usize,
}

impl ContentSource for CountingSource {
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        self.reads += 1;
        if path.extension() == Some("jsonl") {
            self.transcript_reads += 1;
        }
        self.contents
            .get(path)
            .cloned()
            .ok_or_else(|| format!("no contents for {path}"))
    }
}

fn tree_benches(c: &mut Criterion) {
    let entries = entries(true);
    let mut group = c.benchmark_group("tree");
    group.bench_function("from_entries", |b| {
        b.iter_batched(
            || entries.clone(),
            |entries| Tree::from_entries(&[HOME], entries),
            BatchSize::LargeInput,
        );
    });
    let tree = Tree::from_entries(&[HOME], entries);
    let projects = VPath::new(&format!("{CONFIG}/projects")).expect("a constant path");
    assert_eq!(tree.child_dirs(&projects).len(), PROJECTS);
    group.bench_function("child_dirs", |b| {
        b.iter(|| tree.child_dirs(black_box(&projects)));
    });
    group.finish();
}

fn zip_benches(c: &mut Criterion) {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    for entry in 0..ZIP_ENTRIES {
        let name = format!(
            ".claude/projects/{}/{}.jsonl",
            encode_project_path(&project(entry % PROJECTS)),
            uuid(entry % PROJECTS, entry)
        );
        writer.start_file(name, options).expect("an in-memory zip");
        writer
            .write_all(b"{\"type\":\"user\"}\n")
            .expect("an in-memory zip");
    }
    let bytes = writer.finish().expect("an in-memory zip").into_inner();
    let mut group = c.benchmark_group("zip");
    // Each mount copies and lists a 20,000-entry archive; ten samples need a little longer.
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("mount", |b| {
        b.iter_batched(
            || (Tree::new(), bytes.clone()),
            |(mut tree, bytes)| {
                let source = mount_zip(&mut tree, HOME, bytes, ZipLimits::default())
                    .expect("the archive opens");
                (tree, source)
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

fn analyze_benches(c: &mut Criterion) {
    let tree = Tree::from_entries(&[HOME], entries(false));
    let source = CountingSource {
        contents: markdown_files()
            .into_iter()
            .map(|(path, text)| (VPath::new(&path).expect("a valid path"), text.into_bytes()))
            .collect(),
        reads: 0,
        transcript_reads: 0,
    };
    let input = input();
    let mut group = c.benchmark_group("analyze");
    group.bench_function("full", |b| {
        b.iter_batched(
            || (tree.clone(), source.clone()),
            |(mut tree, mut source)| {
                let report = analyze_with(&mut tree, &input, &mut source).expect("valid input");
                assert!(source.reads > 0, "the analysis read no Markdown file");
                assert_eq!(
                    source.transcript_reads, 0,
                    "the analysis read session transcripts"
                );
                report
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

/// Rules in the one folder of the hostile-folder benchmark (issue: a folder of 100,000
/// rules took over 60 s, its rows looked up by scanning them).
const RULES_IN_ONE_FOLDER: usize = 100_000;

fn one_folder_benches(c: &mut Criterion) {
    let rules = format!("{}/.claude/rules", project(0));
    let mut entries = Vec::with_capacity(RULES_IN_ONE_FOLDER);
    let mut contents = HashMap::with_capacity(RULES_IN_ONE_FOLDER);
    for index in 0..RULES_IN_ONE_FOLDER {
        let path = format!("{rules}/r{index}.md");
        let text = format!("rule {index}\n").into_bytes();
        entries.push(Entry {
            path: path.clone(),
            size: text.len() as u64,
            bytes: None,
            modified: None,
        });
        contents.insert(VPath::new(&path).expect("a valid path"), text);
    }
    let tree = Tree::from_entries(&[HOME], entries);
    let source = CountingSource {
        contents,
        reads: 0,
        transcript_reads: 0,
    };
    let input = input();
    let mut group = c.benchmark_group("one folder");
    // One analysis of 100,000 files takes about a second: ten samples need longer.
    group.measurement_time(Duration::from_secs(15));
    group.bench_function("100,000 rules", |b| {
        b.iter_batched(
            || (tree.clone(), source.clone()),
            |(mut tree, mut source)| {
                let report = analyze_with(&mut tree, &input, &mut source).expect("valid input");
                assert_eq!(source.reads, RULES_IN_ONE_FOLDER);
                report
            },
            BatchSize::LargeInput,
        );
    });
    group.finish();
}

fn config() -> Criterion {
    // Ten samples over two seconds keep each group well under ten seconds on two cores.
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = one_folder_benches, tree_benches, zip_benches, analyze_benches
}
criterion_main!(benches);
