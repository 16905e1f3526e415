//! Hostile input (issue 10): every input below gets a clear finding or error and the rest of
//! the report, within a bound on time and memory that this test measures itself.
//!
//! The inputs are generated here, in memory: a 10 GB zip bomb is a 68 MB deflate stream of
//! back-references written by hand, a 1 GB settings file is a size in the tree. The bounds
//! are generous (a debug build on a shared two-core machine): they are there to catch a
//! quadratic blow-up or a read of the whole bomb, not to benchmark. Memory is counted by the
//! global allocator of this test binary, which refuses (and so aborts the test, after the
//! case's name is printed) any case that grows the heap by more than `MEMORY_BOUND`.

use std::io::{Cursor, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cap::Cap;
use memdiag_core::report::{Code, FileStatus, Report};
use memdiag_core::share::{decode_link, open_share_zip, to_zip, ShareError};
use memdiag_core::{
    analyze_with, fuzzing, infer, mount_zip, sanitize, ContentSource, Contents, Entry, FileEntry,
    Input, SanitizeOptions, Tree, VPath, ZipLimits,
};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

#[global_allocator]
static ALLOCATOR: Cap<std::alloc::System> = Cap::new(std::alloc::System, usize::MAX);

/// How long one case may take.
const TIME_BOUND: Duration = Duration::from_secs(90);
/// How much one case may grow the heap.
const MEMORY_BOUND: usize = 3 << 30;

/// One case at a time, so that each one's time and memory are its own.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `case` under the time and memory bounds.
fn bounded<T>(name: &str, case: impl FnOnce() -> T) -> T {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let base = ALLOCATOR.allocated();
    eprintln!("hostile: {name}");
    ALLOCATOR
        .set_limit(base.saturating_add(MEMORY_BOUND))
        .expect("the limit is above what is allocated");
    let start = Instant::now();
    let out = case();
    let elapsed = start.elapsed();
    ALLOCATOR.set_limit(usize::MAX).expect("no limit");
    eprintln!(
        "hostile: {name}: {elapsed:.2?}, peak heap of the run so far {} MB",
        ALLOCATOR.max_allocated() >> 20
    );
    assert!(elapsed < TIME_BOUND, "{name} took {elapsed:?}");
    out
}

// ----- helpers ---------------------------------------------------------------------------

fn input() -> Input {
    Input {
        home: "/home/a".to_owned(),
        project: Some("/home/a/p".to_owned()),
        today: Some("2026-11-30".to_owned()),
        ..Input::default()
    }
}

/// A tree of `(path, bytes)` files mounted at `/home/a`.
fn tree(files: Vec<(String, Vec<u8>)>) -> Tree {
    Tree::from_entries(
        &["/home/a"],
        files.into_iter().map(|(path, bytes)| Entry {
            path,
            size: bytes.len() as u64,
            bytes: Some(bytes),
            modified: None,
        }),
    )
}

/// A source that has nothing: every file of these trees is loaded or too large to ask for.
struct Nothing;

impl ContentSource for Nothing {
    fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
        Err("not in the test tree".to_owned())
    }
}

fn run(tree: &mut Tree, source: &mut dyn ContentSource) -> Report {
    analyze_with(tree, &input(), source).expect("the input is valid")
}

fn has(report: &Report, code: Code, path: Option<&str>, words: &str) -> bool {
    report.diagnostics.iter().any(|d| {
        d.code == code
            && path.is_none_or(|p| d.path.as_deref() == Some(p))
            && d.message.contains(words)
    })
}

fn assert_finding(report: &Report, code: Code, path: Option<&str>, words: &str) {
    assert!(
        has(report, code, path, words),
        "no {code:?} for {path:?} saying {words:?} in {:#?}",
        report
            .diagnostics
            .iter()
            .map(|d| (
                d.code,
                d.path.as_deref().map(|p| &p[..p.len().min(80)]),
                &d.message
            ))
            .collect::<Vec<_>>()
    );
}

fn row<'r>(report: &'r Report, path: &str) -> &'r memdiag_core::report::FileRow {
    report
        .files
        .iter()
        .find(|r| r.path == path)
        .unwrap_or_else(|| panic!("no row for {path}"))
}

/// A raw deflate stream that inflates to `len` zero bytes: one literal, then back-references
/// of 258 bytes at distance 1 in a fixed-Huffman block (13 bits for 258 bytes).
fn deflate_zeros(len: u64) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        acc: u64,
        count: u32,
    }
    impl Bits {
        /// Appends `len` bits of `value`, least significant first.
        fn raw(&mut self, value: u64, len: u32) {
            self.acc |= value << self.count;
            self.count += len;
            while self.count >= 8 {
                self.out.push(self.acc as u8);
                self.acc >>= 8;
                self.count -= 8;
            }
        }
        /// Appends a Huffman code, most significant bit first.
        fn code(&mut self, code: u64, len: u32) {
            let reversed = code.reverse_bits() >> (64 - len);
            self.raw(reversed, len);
        }
    }
    let mut bits = Bits {
        out: Vec::with_capacity((len / 258 * 13 / 8 + 16) as usize),
        acc: 0,
        count: 0,
    };
    bits.raw(1, 1); // the final block
    bits.raw(1, 2); // fixed Huffman codes
    let mut left = len;
    if left > 0 {
        bits.code(0x30, 8); // literal 0
        left -= 1;
    }
    while left >= 258 {
        bits.code(0xc5, 8); // length 258
        bits.code(0, 5); // distance 1
        left -= 258;
    }
    for _ in 0..left {
        bits.code(0x30, 8);
    }
    bits.code(0, 7); // end of block
    bits.raw(0, 7); // pad to a byte
    bits.out
}

/// One entry of a hand-made archive, every field as the test wants it to read.
struct Raw {
    name: Vec<u8>,
    method: u16,
    data: Vec<u8>,
    /// The uncompressed size the headers declare.
    declared: u64,
}

/// A zip archive written field by field, so that names and sizes can lie. Sizes over 4 GB
/// go in a zip64 extra field.
fn raw_zip(entries: &[Raw]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let offset = out.len() as u32;
        let zip64 = entry.declared >= u64::from(u32::MAX);
        let (usize32, csize32) = if zip64 {
            (u32::MAX, u32::MAX)
        } else {
            (entry.declared as u32, entry.data.len() as u32)
        };
        let extra: Vec<u8> = if zip64 {
            let mut e = vec![1, 0, 16, 0];
            e.extend_from_slice(&entry.declared.to_le_bytes());
            e.extend_from_slice(&(entry.data.len() as u64).to_le_bytes());
            e
        } else {
            Vec::new()
        };
        let version: u16 = if zip64 { 45 } else { 20 };
        // The checksum of what a stored entry holds; a bomb's is never reached.
        let crc = if entry.method == 0 {
            crc32(&entry.data)
        } else {
            0
        };
        let common = |buf: &mut Vec<u8>| {
            buf.extend_from_slice(&version.to_le_bytes());
            buf.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 names
            buf.extend_from_slice(&entry.method.to_le_bytes());
            buf.extend_from_slice(&[0, 0, 0x21, 0]); // time, date (1980-01-01)
            buf.extend_from_slice(&crc.to_le_bytes());
            buf.extend_from_slice(&csize32.to_le_bytes());
            buf.extend_from_slice(&usize32.to_le_bytes());
            buf.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
            buf.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        };
        out.extend_from_slice(b"PK\x03\x04");
        common(&mut out);
        out.extend_from_slice(&entry.name);
        out.extend_from_slice(&extra);
        out.extend_from_slice(&entry.data);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&version.to_le_bytes());
        common(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(&entry.name);
        central.extend_from_slice(&extra);
    }
    let start = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

/// CRC-32 (IEEE), bit by bit: the stored entries here are a few bytes each.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn stored(name: &str, text: &str) -> Raw {
    Raw {
        name: name.as_bytes().to_vec(),
        method: 0,
        data: text.as_bytes().to_vec(),
        declared: text.len() as u64,
    }
}

/// Mounts `bytes` at `/home/a` with the default limits and analyses it through the zip.
fn mount_and_run(bytes: Vec<u8>) -> (Tree, Report) {
    let mut tree = Tree::new();
    let mut source =
        mount_zip(&mut tree, "/home/a", bytes, ZipLimits::default()).expect("a zip archive");
    let report = run(&mut tree, &mut source);
    (tree, report)
}

fn report_json_len(report: &Report) -> usize {
    serde_json::to_vec(report)
        .expect("a report serialises")
        .len()
}

// ----- archives --------------------------------------------------------------------------

#[test]
fn a_zip_bomb_is_refused_by_its_declared_size_and_a_lying_one_by_what_it_inflates() {
    let ten_gb = 10 * 1024 * 1024 * 1024;
    let stream = deflate_zeros(ten_gb);
    let (_, report) = bounded("10 GB of zeros in one entry", || {
        mount_and_run(raw_zip(&[
            stored(".claude/settings.json", "{}"),
            Raw {
                name: b".claude/CLAUDE.md".to_vec(),
                method: 8,
                data: stream.clone(),
                declared: ten_gb,
            },
        ]))
    });
    assert_finding(
        &report,
        Code::ZipEntryRejected,
        Some(".claude/CLAUDE.md"),
        "declares 10240 MB, over the 64 MB cap",
    );
    // The same stream under a central directory that says 1,000 bytes.
    let (_, report) = bounded("a central directory that lies about the size", || {
        mount_and_run(raw_zip(&[Raw {
            name: b".claude/CLAUDE.md".to_vec(),
            method: 8,
            data: stream,
            declared: 1_000,
        }]))
    });
    assert_finding(
        &report,
        Code::FileUnreadable,
        Some("/home/a/.claude/CLAUDE.md"),
        "could not be read",
    );
    let row = row(&report, "/home/a/.claude/CLAUDE.md");
    assert_eq!(row.status, FileStatus::Skipped);
    assert!(!row.counted);
    assert_eq!(report.footprint.bytes, 0);
}

#[test]
fn nested_zips_stay_files_that_are_never_read() {
    let mut inner = ZipWriter::new(Cursor::new(Vec::new()));
    inner
        .start_file("CLAUDE.md", SimpleFileOptions::default())
        .unwrap();
    inner.write_all(b"inner").unwrap();
    let inner = inner.finish().unwrap().into_inner();
    let mut outer = ZipWriter::new(Cursor::new(Vec::new()));
    for name in ["p/inner.zip", "p/deeper/inner.zip"] {
        outer
            .start_file(name, SimpleFileOptions::default())
            .unwrap();
        outer.write_all(&inner).unwrap();
    }
    outer
        .start_file("p/CLAUDE.md", SimpleFileOptions::default())
        .unwrap();
    outer.write_all(b"Project. @inner.zip\n").unwrap();
    let bytes = outer.finish().unwrap().into_inner();
    let (_, report) = bounded("nested zips", || mount_and_run(bytes));
    assert_finding(&report, Code::ImportNotText, None, "");
    assert!(report.files.iter().all(|r| !r.path.contains("inner.zip/")));
}

#[test]
fn hostile_entry_names_are_findings_and_the_rest_loads() {
    let overlong = format!("p/{}.md", "a".repeat(65_000));
    let (tree, report) = bounded("hostile names", || {
        mount_and_run(raw_zip(&[
            stored("p/CLAUDE.md", "Project."),
            stored("../escape.md", "x"),
            stored("/etc/passwd", "x"),
            stored("C:/Windows/x.md", "x"),
            stored("C:\\Windows\\y.md", "x"),
            stored("p/.claude/../../../../up.md", "x"),
            stored("p/nul\0.md", "x"),
            Raw {
                name: b"p/latin1-\xe9.md".to_vec(),
                ..stored("", "x")
            },
            stored("p/CLAUDE.md", "A second entry of the same name."),
            stored("p\\CLAUDE.md", "A third, with a backslash."),
            stored(&overlong, "long"),
        ]))
    });
    for (name, why) in [
        ("../escape.md", "a `..` segment"),
        ("/etc/passwd", "an absolute path"),
        ("C:/Windows/x.md", "a drive letter"),
        ("C:\\Windows\\y.md", "a drive letter"),
        ("p/.claude/../../../../up.md", "a `..` segment"),
        ("p/nul\0.md", "a NUL character"),
        ("p/latin1-\u{fffd}.md", "not valid UTF-8"),
        (
            "p\\CLAUDE.md",
            "an earlier entry already names /home/a/p/CLAUDE.md",
        ),
    ] {
        assert_finding(&report, Code::ZipEntryRejected, Some(name), why);
    }
    assert_finding(&report, Code::ZipEntryRejected, None, "more than once");
    assert!(tree.is_file(&VPath::new(&format!("/home/a/{overlong}")).unwrap()));
    assert_eq!(row(&report, "/home/a/p/CLAUDE.md").status, FileStatus::Ok);
}

#[test]
fn a_truncated_zip_is_an_error_or_a_shorter_listing_never_a_panic() {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..50 {
        writer
            .start_file(format!("p/{i}/CLAUDE.md"), SimpleFileOptions::default())
            .unwrap();
        writer.write_all(format!("File {i}.").as_bytes()).unwrap();
    }
    let whole = writer.finish().unwrap().into_inner();
    bounded("truncated zips", || {
        for cut in (0..whole.len()).step_by(97) {
            let mut tree = Tree::new();
            if let Ok(mut source) = mount_zip(
                &mut tree,
                "/home/a",
                whole[..cut].to_vec(),
                ZipLimits::default(),
            ) {
                run(&mut tree, &mut source);
            }
        }
    });
}

#[test]
fn two_hundred_thousand_entries_mount_and_analyse() {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    writer.start_file("p/CLAUDE.md", options).unwrap();
    writer.write_all(b"Project.").unwrap();
    writer.start_file("p/.claude/rules/ts.md", options).unwrap();
    writer
        .write_all(b"---\npaths: \"src/**/*.{ts,tsx}\"\n---\nTS rules.\n")
        .unwrap();
    for i in 0..200_000 {
        writer
            .start_file(format!("p/src/d{}/f{i}.ts", i % 100), options)
            .unwrap();
    }
    let bytes = writer.finish().unwrap().into_inner();
    let (tree, report) = bounded("200,000 entries", || mount_and_run(bytes));
    assert!(tree.len() > 200_000);
    let rule = row(&report, "/home/a/p/.claude/rules/ts.md");
    assert_eq!(rule.status, FileStatus::Ok);
    assert!(!has(&report, Code::RuleNeverMatches, None, ""));
}

// ----- trees -----------------------------------------------------------------------------

#[test]
fn two_thousand_deep_folders_are_walked() {
    let deep = "/d".repeat(2_000);
    let mut t = tree(vec![
        ("/home/a/p/CLAUDE.md".to_owned(), b"Project.".to_vec()),
        (
            format!("/home/a/p{deep}/CLAUDE.md"),
            b"Deep. @../x.md".to_vec(),
        ),
        (format!("/home/a/p{deep}/x.md"), b"x".to_vec()),
        (
            "/home/a/p/.claude/rules/md.md".to_owned(),
            b"---\npaths: \"**/d/d/*.md\"\n---\nDeep rule.\n".to_vec(),
        ),
    ]);
    let report = bounded("2,000-deep folders", || run(&mut t, &mut Nothing));
    let nested = row(&report, &format!("/home/a/p{deep}/CLAUDE.md"));
    assert_eq!(nested.status, FileStatus::Ok);
    assert!(!has(&report, Code::RuleNeverMatches, None, ""));
}

#[test]
fn ten_thousand_agents_and_one_two_thousand_folders_deep_are_listed() {
    let deep = "/d".repeat(2_000);
    let mut files: Vec<(String, Vec<u8>)> = (0..10_000)
        .map(|i| {
            (
                format!("/home/a/p/.claude/agents/team{}/agent{i}.md", i % 100),
                format!("---\nname: agent-{i}\ndescription: Agent number {i}.\n---\nBody.\n")
                    .into_bytes(),
            )
        })
        .collect();
    files.push((
        format!("/home/a/p/.claude/agents{deep}/deep.md"),
        b"---\nname: deep\ndescription: Two thousand folders down.\nmemory: project\n---\n"
            .to_vec(),
    ));
    let mut t = tree(files);
    let report = bounded("10,000 agents, one 2,000 folders deep", || {
        run(&mut t, &mut Nothing)
    });
    assert_eq!(report.session.agents.len(), 10_001);
    assert_eq!(report.health.agents.len(), 10_001);
    assert!(report
        .session
        .agents
        .contains(&"deep: Two thousand folders down. (Tools: All tools)".to_owned()));
    // Sorted by name as Claude Code sorts them: `agent-10` before `agent-2`.
    assert_eq!(
        report.session.agents[0],
        "agent-0: Agent number 0. (Tools: All tools)"
    );
    assert_eq!(
        report.session.agents[2],
        "agent-10: Agent number 10. (Tools: All tools)"
    );
    let lines: u64 = report
        .session
        .agents
        .iter()
        .map(|l| l.encode_utf16().count() as u64 + 3)
        .sum();
    assert_eq!(report.session.cost.agents.user + 3 * 10_001, lines);
    assert!(report.session.cost.total.total() > lines);
}

#[test]
fn a_50_mb_single_line_memory_md_makes_a_small_report() {
    let line = "- ".to_owned() + &"x".repeat(50 * 1024 * 1024);
    let path = "/home/a/.claude/projects/-home-a-p/memory/MEMORY.md";
    let mut t = tree(vec![(path.to_owned(), line.into_bytes())]);
    let report = bounded("a 50 MB single-line MEMORY.md", || {
        run(&mut t, &mut Nothing)
    });
    assert_finding(&report, Code::MemoryIndexTruncated, Some(path), "");
    let size = report_json_len(&report);
    assert!(size < 1024 * 1024, "the report is {size} bytes");
}

#[test]
fn hostile_frontmatter_is_a_finding() {
    let mut laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n".to_owned();
    for level in 1..12 {
        let refs = vec![format!("*a{}", level - 1); 10].join(", ");
        laughs.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
    }
    let deep_list = format!(
        "paths: {}src/**{}\n",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let deep_map = format!("paths: {}\n", "{a: ".repeat(100_000));
    let keys: String = (0..1_000_000).map(|i| format!("k{i}: v\n")).collect();
    let rule = |name: &str| format!("/home/a/p/.claude/rules/{name}.md");
    let skill = "/home/a/p/.claude/skills/bomb/SKILL.md";
    let mut t = tree(vec![
        (
            rule("deep-list"),
            format!("---\n{deep_list}---\nx\n").into_bytes(),
        ),
        (
            rule("deep-map"),
            format!("---\n{deep_map}---\nx\n").into_bytes(),
        ),
        (rule("keys"), format!("---\n{keys}---\nx\n").into_bytes()),
        (
            skill.to_owned(),
            format!("---\n{laughs}---\nx\n").into_bytes(),
        ),
    ]);
    let report = bounded("alias bombs, deep flow nesting, a million keys", || {
        run(&mut t, &mut Nothing)
    });
    for (path, words) in [
        (rule("deep-list"), "nest deeper than 64 levels"),
        (rule("deep-map"), "nest deeper than 64 levels"),
        (rule("keys"), "over the 1048576 read"),
        (skill.to_owned(), "more than 100 aliases"),
    ] {
        assert_finding(&report, Code::InvalidFrontmatter, Some(&path), words);
    }
}

#[test]
fn a_megabyte_of_frontmatter_stays_out_of_the_report() {
    let long = "v".repeat(900 * 1024);
    let keys: String = (0..5_000).map(|i| format!("key{i}: {i}\n")).collect();
    let skill = "/home/a/p/.claude/skills/long/SKILL.md";
    let text = format!("---\nname: long\ndescription: {long}\n{keys}---\nBody.\n");
    let mut t = tree(vec![(skill.to_owned(), text.into_bytes())]);
    let report = bounded("a 900 KB description and 5,000 keys", || {
        run(&mut t, &mut Nothing)
    });
    let shown = row(&report, skill);
    assert_eq!(shown.frontmatter.len(), 100);
    assert_eq!(shown.frontmatter_omitted, 5_002 - 100);
    let description = &shown.frontmatter[1];
    assert_eq!(description.key, "description");
    assert_eq!(
        description.value.chars().count(),
        301,
        "300 characters and `…`"
    );
    let size = report_json_len(&report);
    assert!(size < 100 * 1024, "the report is {size} bytes");
}

#[test]
fn import_chains_and_fan_outs_of_ten_thousand() {
    let mut files = vec![(
        "/home/a/p/CLAUDE.md".to_owned(),
        b"Project. @c0.md\n".to_vec(),
    )];
    for i in 0..10_000 {
        files.push((
            format!("/home/a/p/c{i}.md"),
            format!("Chain {i}. @c{}.md\n", i + 1).into_bytes(),
        ));
    }
    let fan: String = (0..10_000).map(|i| format!("@f{i}.md\n")).collect();
    files.push(("/home/a/.claude/CLAUDE.md".to_owned(), fan.into_bytes()));
    for i in 0..10_000 {
        files.push((format!("/home/a/.claude/f{i}.md"), b"Fan.".to_vec()));
    }
    let mut t = tree(files);
    let report = bounded("an import chain and a fan-out of 10,000", || {
        run(&mut t, &mut Nothing)
    });
    assert_finding(&report, Code::ImportTooDeep, None, "");
    let fanned = report
        .files
        .iter()
        .filter(|r| r.path.starts_with("/home/a/.claude/f"))
        .count();
    assert_eq!(fanned, 10_000);
    assert!(report.files.len() < 10_100, "{} rows", report.files.len());
}

#[test]
fn a_one_gigabyte_settings_file_is_a_finding_and_is_never_read() {
    let path = "/home/a/.claude/settings.json";
    let mut t = Tree::from_entries(
        &["/home/a"],
        [Entry {
            path: path.to_owned(),
            size: 1 << 30,
            bytes: None,
            modified: None,
        }],
    );
    /// Fails the test if the analysis asks for the file.
    struct Refuse;
    impl ContentSource for Refuse {
        fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
            panic!("the analysis asked to read {path}");
        }
    }
    let report = bounded("a 1 GB settings file", || run(&mut t, &mut Refuse));
    assert_finding(
        &report,
        Code::FileNotRead,
        Some(path),
        "1.0 GiB, over the 64.0 MiB",
    );
}

#[test]
fn pathological_globs_finish() {
    let rule = |globs: &str| format!("---\npaths: \"{globs}\"\n---\nRule.\n").into_bytes();
    let mut files = vec![
        (
            "/home/a/p/.claude/rules/doubling.md".to_owned(),
            rule(&"{a,b}".repeat(11)),
        ),
        (
            "/home/a/p/.claude/rules/stars.md".to_owned(),
            rule(&"*a".repeat(2_000)),
        ),
        (
            "/home/a/p/.claude/rules/globstars.md".to_owned(),
            rule(&"**/".repeat(1_300)),
        ),
        (
            "/home/a/p/.claude/rules/nested.md".to_owned(),
            rule(&format!("{}a{}", "{".repeat(2_000), "}".repeat(2_000))),
        ),
        (
            "/home/a/p/.claude/rules/many.md".to_owned(),
            rule(&format!("{}{}", "{a,b}".repeat(10), "{c}".repeat(1_300))),
        ),
        (
            "/home/a/p/.claude/rules/long.md".to_owned(),
            rule(&"a".repeat(5_000)),
        ),
    ];
    for i in 0..2_000 {
        files.push((
            format!("/home/a/p/src/{}/f.ts", "a".repeat(i % 200 + 1)),
            Vec::new(),
        ));
    }
    let mut t = tree(files);
    let report = bounded("pathological globs", || run(&mut t, &mut Nothing));
    for (name, words) in [
        ("doubling", "more than 1024"),
        ("many", "too complex"),
        ("long", "longer than 4096"),
    ] {
        let path = format!("/home/a/p/.claude/rules/{name}.md");
        assert_finding(&report, Code::RulePathsInvalid, Some(&path), words);
    }
    // The direct glob functions, on the worst of these against long paths.
    bounded("pathological glob matching", || {
        let path = "a/".repeat(2_000) + "b";
        for pattern in [
            "**/".repeat(1_300) + "c",
            "*a".repeat(2_000),
            "**/a/**/a/**/b".to_owned(),
        ] {
            let _ = fuzzing::glob(&pattern, &path);
        }
    });
}

#[test]
fn nul_and_overlong_names_in_a_listing() {
    let long = format!("/home/a/p/{}/CLAUDE.md", "n".repeat(1 << 20));
    let mut t = tree(vec![
        ("/home/a/p/CLAUDE.md".to_owned(), b"Project.".to_vec()),
        ("/home/a/p/nul\0/CLAUDE.md".to_owned(), b"x".to_vec()),
        (long.clone(), b"Long.".to_vec()),
    ]);
    let report = bounded("NUL and overlong names", || run(&mut t, &mut Nothing));
    assert_finding(&report, Code::InvalidPath, None, "NUL");
    assert_eq!(row(&report, &long).status, FileStatus::Ok);
}

// ----- what the core reads ---------------------------------------------------------------

#[test]
fn a_utf16_file_is_named_as_such() {
    let utf16 = |text: &str, bom: bool| {
        let mut bytes = if bom { vec![0xff, 0xfe] } else { Vec::new() };
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        bytes
    };
    let mut t = tree(vec![
        ("/home/a/p/CLAUDE.md".to_owned(), utf16("Use pnpm.", true)),
        (
            "/home/a/.claude/CLAUDE.md".to_owned(),
            utf16("Be brief, always.", false),
        ),
        (
            "/home/a/p/src/CLAUDE.md".to_owned(),
            "Plain UTF-8 é.".as_bytes().to_vec(),
        ),
    ]);
    let report = bounded("UTF-16 files", || run(&mut t, &mut Nothing));
    assert_finding(
        &report,
        Code::InvalidUtf8,
        Some("/home/a/p/CLAUDE.md"),
        "UTF-16 (little-endian, with a byte order mark)",
    );
    assert_finding(
        &report,
        Code::InvalidUtf8,
        Some("/home/a/.claude/CLAUDE.md"),
        "UTF-16 (little-endian, without a byte order mark)",
    );
    assert!(!has(
        &report,
        Code::InvalidUtf8,
        Some("/home/a/p/src/CLAUDE.md"),
        ""
    ));
}

#[test]
fn a_file_that_could_not_be_read_is_a_finding_and_not_counted() {
    let mut t = tree(vec![(
        "/home/a/.claude/CLAUDE.md".to_owned(),
        b"User.".to_vec(),
    )]);
    t.insert(
        VPath::new("/home/a/p/CLAUDE.md").unwrap(),
        FileEntry {
            size: 400,
            contents: Contents::Unreadable("permission denied".to_owned()),
            modified: None,
        },
    );
    let report = bounded("an unreadable file", || run(&mut t, &mut Nothing));
    assert_finding(
        &report,
        Code::FileUnreadable,
        Some("/home/a/p/CLAUDE.md"),
        "permission denied",
    );
    let unread = row(&report, "/home/a/p/CLAUDE.md");
    assert_eq!(unread.status, FileStatus::Skipped);
    assert!(!unread.counted);
    assert_eq!(report.footprint.bytes, "User.".len() as u64);
}

#[test]
fn a_projects_folder_name_that_splits_a_character_does_not_panic() {
    bounded("projects/a-é", || {
        let names = infer::project_folder_names([
            "projects/a-é/memory/MEMORY.md",
            "projects/é/x.jsonl",
            "projects/C--é/memory/MEMORY.md",
        ]);
        assert_eq!(infer::infer_home(&names), None);
        let _ = infer::infer_project_path(&names, "a", "/home/a");
    });
}

// ----- sharing ---------------------------------------------------------------------------

#[test]
fn a_path_longer_than_a_zip_name_still_shares_as_a_zip() {
    let project = format!("/home/a/{}", "p".repeat(70_000));
    let mut t = tree(vec![(
        format!("{project}/CLAUDE.md"),
        b"Long project.".to_vec(),
    )]);
    let input = Input {
        project: Some(project.clone()),
        ..input()
    };
    let report = analyze_with(&mut t, &input, &mut Nothing).expect("valid input");
    bounded("a 70,000-character path in a share zip", || {
        for options in [
            SanitizeOptions::default(),
            SanitizeOptions {
                keep_file_names: true,
                keep_user_name: true,
                keep_text: true,
                other_projects: true,
            },
        ] {
            let shared = sanitize(&t, &input, &report, &options);
            let zip = to_zip(&shared, "2026-11-30T09:12:00Z");
            let opened = open_share_zip(&zip).expect("the share zip opens");
            assert_eq!(opened.tree.len(), shared.tree.len());
            // Renamed, the long name is a counter: it keeps no length to overflow a zip name.
            let long = opened.tree.files().any(|(p, _)| p.as_str().len() > 70_000);
            assert_eq!(long, options.keep_file_names, "{options:?}");
        }
    });
}

#[test]
fn a_frontmatter_of_many_keys_sanitizes_in_linear_time() {
    // Four times the keys must cost about four times the time, not sixteen.
    let time_for = |count: usize| {
        let keys: String = (0..count).map(|i| format!("k{i}: v{i}\n")).collect();
        let skill = "/home/a/p/.claude/skills/many/SKILL.md";
        let text = format!("---\nname: many\ndescription: Many keys.\n{keys}---\nBody.\n");
        let mut t = tree(vec![(skill.to_owned(), text.into_bytes())]);
        let report = run(&mut t, &mut Nothing);
        let shown = row(&report, skill);
        assert_eq!(shown.frontmatter.len(), 100);
        assert_eq!(shown.frontmatter_omitted as usize, count + 2 - 100);
        bounded(&format!("sanitizing a frontmatter of {count} keys"), || {
            let start = Instant::now();
            let shared = sanitize(&t, &input(), &report, &SanitizeOptions::default());
            assert!(shared.warnings.is_empty(), "{:?}", shared.warnings);
            start.elapsed()
        })
    };
    let small = time_for(15_000);
    let large = time_for(60_000);
    assert!(
        large < small * 10 + Duration::from_secs(2),
        "15,000 keys took {small:?}, 60,000 took {large:?}"
    );
}

#[test]
fn hostile_links_are_errors() {
    let bomb = format!(
        "1.{}",
        memdiag_tests::base64(&deflate_zeros(100 * 1024 * 1024), true)
    );
    let junk = "1.".to_owned() + &"A".repeat(1024 * 1024);
    bounded("hostile links", || {
        assert!(matches!(decode_link(&bomb), Err(ShareError::TooLarge(_))));
        assert!(matches!(decode_link(&junk), Err(ShareError::Corrupt(_))));
        let huge = "1.".to_owned() + &"A".repeat(3 * 1024 * 1024);
        assert!(matches!(decode_link(&huge), Err(ShareError::TooLarge(_))));
    });
}

#[test]
fn the_pipeline_regressions_stay_fixed() {
    // Inputs the fuzz targets found, or that the issue named, through the whole pipeline.
    for (name, data) in [
        ("an empty tree", Vec::new()),
        (
            "a UTF-16 user CLAUDE.md",
            [&[0u8][..], &[0xff, 0xfe, b'h', 0, b'i', 0]].concat(),
        ),
        ("a YAML escape of a multi-byte character, sanitized", {
            let mut d = vec![12u8];
            d.extend("---\nname: d\ndescription: \"caf\\é \\x\\u00e9\"\n---\nBody\n".bytes());
            d
        }),
        // Found by the pipeline target: the analysis dates a topic file by the first ten
        // characters of `modified`, so a value that only starts with a date must keep them.
        ("a modified value that starts with a date and goes on", {
            let mut d = vec![6u8];
            d.extend("- [T](t.md) — topic\n".bytes());
            d.push(0xff);
            d.push(7);
            d.extend("---\ntype: project\nmodified: 2026-11-02*---\n Deploys\n---\nBody\n".bytes());
            d
        }),
        // Found by the pipeline target: a name holding bytes that are not UTF-8 was given a
        // pseudonym letter for U+FFFD, while the shared file kept the bytes invalid.
        (
            "an import path with a byte that is not UTF-8, names pseudonymised",
            {
                let mut d = vec![0u8];
                d.extend(b"# User\n@~/.claude/rules/r.md\xf9!\x02---\n");
                d
            },
        ),
        ("frontmatter nested deeply", {
            let mut d = vec![2u8];
            d.extend(format!("---\npaths: {}\n---\n", "[".repeat(5_000)).bytes());
            d
        }),
    ] {
        bounded(name, || {
            if let Err(broken) = fuzzing::pipeline(&data) {
                panic!("{name}: {broken}");
            }
        });
    }
}

#[test]
fn ten_thousand_hooks_and_a_malformed_mcp_json_are_findings() {
    let one = r#"{"type": "command", "command": "/opt/x/guard --token secret"}"#;
    let settings = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{}]}}]}}}}"#,
        vec![one; 10_000].join(",")
    );
    let servers: Vec<String> = (0..5_000)
        .map(|i| format!(r#""s{i}": {{"command": "srv"}}"#))
        .collect();
    let mut tree = tree(vec![
        (
            "/home/a/.claude/settings.json".to_owned(),
            settings.into_bytes(),
        ),
        (
            "/home/a/p/.mcp.json".to_owned(),
            b"{\"mcpServers\": [".to_vec(),
        ),
        (
            "/home/a/.mcp.json".to_owned(),
            format!(r#"{{"mcpServers": {{{}}}}}"#, servers.join(",")).into_bytes(),
        ),
    ]);
    let report = bounded("ten thousand hooks", || run(&mut tree, &mut Nothing));
    assert_finding(
        &report,
        Code::SessionTextNotCounted,
        Some("/home/a/.claude/settings.json"),
        "9000 more hooks",
    );
    assert_finding(
        &report,
        Code::InvalidSettings,
        Some("/home/a/p/.mcp.json"),
        "MCP configuration ignored",
    );
    assert_finding(
        &report,
        Code::SessionTextNotCounted,
        Some("/home/a/.mcp.json"),
        "4000 more",
    );
    assert_eq!(report.session.not_counted.len(), 2_000);
    // The program by its name only: never a folder or an argument.
    assert!(report.session.not_counted.iter().all(|n| n
        .program
        .as_deref()
        .is_some_and(|p| p == "guard" || p == "srv")));
}

#[test]
fn a_malformed_or_huge_installed_plugins_json_and_a_malformed_manifest_are_findings() {
    let settings = br#"{"enabledPlugins": {"p@m": true, "q@m": true}}"#.to_vec();
    // Malformed.
    let mut bad = tree(vec![
        ("/home/a/.claude/settings.json".to_owned(), settings.clone()),
        (
            "/home/a/.claude/plugins/installed_plugins.json".to_owned(),
            b"{\"version\": 2, \"plugins\": {".to_vec(),
        ),
    ]);
    let report = bounded("malformed installed_plugins.json", || {
        run(&mut bad, &mut Nothing)
    });
    assert_finding(
        &report,
        Code::InvalidSettings,
        Some("/home/a/.claude/plugins/installed_plugins.json"),
        "installed plugins ignored",
    );
    assert!(report.session.plugins.is_empty());
    // 50 MB of installed plugins: read, parsed in bounded time, at most 1,000 kept.
    let entries: Vec<String> = (0..370_000)
        .map(|i| {
            format!(
                r#""plugin-{i:06}@market": [{{"scope": "user", "installPath": "/home/a/.claude/plugins/cache/market/plugin-{i:06}/1.0.0", "version": "1.0.0"}}]"#
            )
        })
        .collect();
    let huge = format!(r#"{{"version": 2, "plugins": {{{}}}}}"#, entries.join(",")).into_bytes();
    assert!(huge.len() > 50_000_000, "{}", huge.len());
    let mut big = tree(vec![
        ("/home/a/.claude/settings.json".to_owned(), settings.clone()),
        (
            "/home/a/.claude/plugins/installed_plugins.json".to_owned(),
            huge,
        ),
    ]);
    let report = bounded("50 MB installed_plugins.json", || {
        run(&mut big, &mut Nothing)
    });
    assert_eq!(report.session.plugins.len(), 1_000);
    assert!(report.session.plugins.iter().all(|p| !p.enabled));
    // A plugin whose manifest does not parse still loads, under its installed name.
    let installed = br#"{"version": 2, "plugins": {"p@m": [{"installPath": "/home/a/.claude/plugins/cache/m/p/1"}]}}"#;
    let mut broken = tree(vec![
        ("/home/a/.claude/settings.json".to_owned(), settings),
        (
            "/home/a/.claude/plugins/installed_plugins.json".to_owned(),
            installed.to_vec(),
        ),
        (
            "/home/a/.claude/plugins/cache/m/p/1/.claude-plugin/plugin.json".to_owned(),
            b"{ not json".to_vec(),
        ),
        (
            "/home/a/.claude/plugins/cache/m/p/1/agents/x.md".to_owned(),
            b"---\nname: x\ndescription: An agent\n---\n".to_vec(),
        ),
    ]);
    let report = bounded("malformed plugin manifest", || {
        run(&mut broken, &mut Nothing)
    });
    assert_finding(
        &report,
        Code::InvalidSettings,
        Some("/home/a/.claude/plugins/cache/m/p/1/.claude-plugin/plugin.json"),
        "plugin manifest does not parse",
    );
    assert_eq!(report.session.plugins.len(), 1);
    assert!(report
        .session
        .agents
        .iter()
        .any(|a| a.starts_with("p:x: An agent")));
}

#[test]
fn ten_thousand_commands_and_one_two_thousand_folders_deep_are_listed() {
    let deep = "/d".repeat(2_000);
    let mut files: Vec<(String, Vec<u8>)> = (0..10_000)
        .map(|i| {
            (
                format!("/home/a/p/.claude/commands/ns{}/cmd{i}.md", i % 100),
                format!("---\ndescription: Command number {i}.\n---\nBody.\n").into_bytes(),
            )
        })
        .collect();
    files.push((
        format!("/home/a/p/.claude/commands{deep}/deep.md"),
        b"Two thousand folders down.\n".to_vec(),
    ));
    let mut t = tree(files);
    let report = bounded("10,000 commands, one 2,000 folders deep", || {
        run(&mut t, &mut Nothing)
    });
    let commands = report
        .files
        .iter()
        .filter(|r| r.group == memdiag_core::report::Group::Commands)
        .count();
    assert_eq!(commands, 10_001);
    let deep_name = format!("{}:deep", "d:".repeat(2_000).trim_end_matches(':'));
    // Over the listing's budget most lines are a name alone; every command is listed.
    assert!(report
        .session
        .skills
        .iter()
        .any(|l| l == &deep_name || l.starts_with(&format!("{deep_name}: "))));
    let listed = report
        .session
        .skills
        .iter()
        .filter(|l| l.starts_with("ns"))
        .count();
    assert_eq!(listed, 10_000);
    assert!(report.session.cost.skills_listing.user > 10_000 * 8);
}

#[test]
fn symbolic_link_loops_between_skill_folders_end() {
    // A ring of a thousand linked skill folders, a folder linked to itself, one linked to
    // its parent, and a linked commands folder that loops: none resolves to a folder with
    // a SKILL.md, so none is listed, and the walk ends.
    let skills = "/home/a/p/.claude/skills";
    let mut t = tree(vec![(
        format!("{skills}/real/SKILL.md"),
        b"---\ndescription: A real one\n---\n".to_vec(),
    )]);
    let at = |s: &str| VPath::new(s).expect("absolute");
    for i in 0..1_000 {
        t.add_link(
            at(&format!("{skills}/ring{i}")),
            at(&format!("{skills}/ring{}", (i + 1) % 1_000)),
        );
    }
    t.add_link(at(&format!("{skills}/self")), at(&format!("{skills}/self")));
    t.add_link(at(&format!("{skills}/real/up")), at(skills));
    t.add_link(
        at("/home/a/p/.claude/commands/loop"),
        at("/home/a/p/.claude/commands/loop"),
    );
    let report = bounded("a thousand skill folders linked in a ring", || {
        run(&mut t, &mut Nothing)
    });
    assert_eq!(report.session.skills, ["real: A real one"]);
}

#[test]
fn ten_thousand_managed_agents_and_skills_and_backtracking_hook_matchers() {
    // The managed policy's agents and skills (their names differ only by case and accents,
    // sorted with the locale's comparison), one agent 2,000 folders deep, and SessionStart
    // matchers built to make a regular expression backtrack or nest without end.
    let agent = |name: &str| format!("---\nname: {name}\ndescription: d\n---\n").into_bytes();
    let mut entries: Vec<Entry> = Vec::new();
    let mut add = |path: String, bytes: Vec<u8>| {
        entries.push(Entry {
            path,
            size: bytes.len() as u64,
            bytes: Some(bytes),
            modified: None,
        });
    };
    for i in 0..10_000 {
        let name = match i % 3 {
            0 => format!("a{i}"),
            1 => format!("A{i}"),
            _ => format!("é{i}"),
        };
        add(
            format!("/etc/claude-code/.claude/agents/t{}/{name}.md", i % 100),
            agent(&name),
        );
        add(
            format!("/etc/claude-code/.claude/skills/{name}/SKILL.md"),
            b"---\ndescription: s\n---\n".to_vec(),
        );
    }
    let deep = "/d".repeat(2_000);
    add(
        format!("/etc/claude-code/.claude/agents{deep}/deep.md"),
        agent("deep"),
    );
    let backtracking = format!("{}!", "(a*)*".repeat(15));
    let nested = format!("{}startup{}", "(".repeat(5_000), ")".repeat(5_000));
    let long = "s.".repeat(50_000);
    let mut hooks: Vec<String> = (0..1_000)
        .map(|_| {
            format!(r#"{{"matcher": "{backtracking}", "hooks": [{{"type": "command", "command": "x"}}]}}"#)
        })
        .collect();
    for matcher in [&nested, &long] {
        hooks.push(format!(
            r#"{{"matcher": "{matcher}", "hooks": [{{"type": "command", "command": "x"}}]}}"#
        ));
    }
    let settings = format!(r#"{{"hooks": {{"SessionStart": [{}]}}}}"#, hooks.join(","));
    add(
        "/home/a/.claude/settings.json".to_owned(),
        settings.into_bytes(),
    );
    let mut tree = Tree::from_entries(&["/home/a", "/etc/claude-code"], entries);
    let report = bounded(
        "10,000 managed agents and skills, backtracking matchers",
        || run(&mut tree, &mut Nothing),
    );
    assert_eq!(report.session.agents.len(), 10_001);
    assert!(report.session.skills.len() >= 10_000);
    // The locale's order: `a0`, `A1`, `é2`, … by number within one base letter.
    assert!(
        report.session.skills[0].starts_with("a0"),
        "{}",
        report.session.skills[0]
    );
    let matchers = report
        .session
        .not_counted
        .iter()
        .filter(|n| n.event.as_deref() == Some("SessionStart"))
        .count();
    assert!(matchers >= 1_000, "{matchers} SessionStart hooks listed");
}
