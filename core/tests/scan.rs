//! The native scan command, run as a person would: on the demo fixture's folders, on zips of
//! the same folders, and with bad arguments.
//!
//! `cargo test` builds the examples before it runs tests, so the binary sits next to this
//! test's own executable.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// `target/<profile>/examples/scan`, found from this test's own path
/// (`target/<profile>/deps/scan-<hash>`).
fn scan_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps");
    let binary = profile_dir
        .join("examples")
        .join(format!("scan{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is missing: cargo test builds examples first",
        binary.display()
    );
    binary
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/demo/tree")
}

/// The demo's three mounts, as `VIRTUAL=LOCAL` pairs over its folders.
fn demo_mounts(local: impl Fn(&str) -> PathBuf) -> Vec<String> {
    [
        "/home/alice/.claude",
        "/home/alice/work/shop",
        "/etc/claude-code",
    ]
    .iter()
    .map(|at| format!("{at}={}", local(at).display()))
    .collect()
}

fn run(mounts: &[String], extra: &[&str]) -> Output {
    let mut command = Command::new(scan_binary());
    command.args([
        "--home",
        "/home/alice",
        "--project",
        "/home/alice/work/shop",
        "--today",
        "2026-11-30",
    ]);
    for mount in mounts {
        command.args(["--mount", mount]);
    }
    command.args(extra).output().expect("scan runs")
}

fn report(output: &Output) -> Value {
    assert!(
        output.status.success(),
        "scan failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("scan prints JSON")
}

/// The footprint line of the demo's reviewed snapshot, `footprint: files=15 chars=…`.
fn snapshot_footprint() -> Vec<(String, u64)> {
    let snapshot = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/demo/expected.txt"),
    )
    .expect("the demo has a snapshot");
    let line = snapshot
        .lines()
        .find_map(|l| l.strip_prefix("footprint: "))
        .expect("a footprint line");
    line.split_whitespace()
        .map(|pair| {
            let (key, value) = pair.split_once('=').expect("key=value");
            (key.to_owned(), value.parse().expect("a number"))
        })
        .collect()
}

#[test]
fn the_demo_folders_scan_to_the_reviewed_snapshot() {
    let value = report(&run(&demo_mounts(|at| demo().join(&at[1..])), &[]));
    assert_eq!(value["schema"], "memdiag-report/2");
    assert_eq!(value["context"]["os"], "linux", "--os defaults to linux");
    assert_eq!(value["context"]["today"], "2026-11-30");
    for (key, expected) in snapshot_footprint() {
        assert_eq!(value["footprint"][&key], expected, "footprint {key}");
    }
    let transcripts_read = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["path"].as_str().unwrap().ends_with(".jsonl"));
    assert!(!transcripts_read, "transcripts are not even listed as rows");
}

#[test]
fn zips_of_the_same_folders_give_the_same_report() {
    let dir = std::env::temp_dir().join(format!("memdiag-scan-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zips = demo_mounts(|at| {
        let zip = dir.join(format!("{}.zip", at[1..].replace('/', "_")));
        write_zip(&demo().join(&at[1..]), &zip);
        zip
    });
    let from_folders = report(&run(&demo_mounts(|at| demo().join(&at[1..])), &[]));
    let from_zips = report(&run(&zips, &[]));
    std::fs::remove_dir_all(&dir).ok();
    // Entry times differ between a folder and a zip; everything the report says must not.
    assert_eq!(from_zips["files"], from_folders["files"]);
    assert_eq!(from_zips["footprint"], from_folders["footprint"]);
    assert_eq!(from_zips["diagnostics"], from_folders["diagnostics"]);
    assert_eq!(
        from_zips["health"]["reasons"],
        from_folders["health"]["reasons"]
    );
}

#[test]
fn bad_arguments_are_one_line_and_exit_code_2() {
    let cases: [&[&str]; 5] = [
        &[],
        &["--home", "/home/alice"],
        &["--home", "relative", "--mount", "/x=/tmp"],
        &["--home", "/h", "--mount", "/x=/definitely/not/here"],
        &["--home", "/h", "--mount", "/x=/h", "--os", "beos"],
    ];
    for args in cases {
        let output = Command::new(scan_binary()).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("scan: ") && stderr.trim_end().lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
    let broken = std::env::temp_dir().join(format!("memdiag-broken-{}.zip", std::process::id()));
    std::fs::write(&broken, b"PK\x03\x04 this is not really a zip").unwrap();
    let output = Command::new(scan_binary())
        .args([
            "--home",
            "/h",
            "--mount",
            &format!("/h={}", broken.display()),
        ])
        .output()
        .unwrap();
    std::fs::remove_file(&broken).ok();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a zip"));
}

fn write_zip(folder: &Path, to: &Path) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(to).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut stack = vec![folder.to_path_buf()];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    for file in files {
        let name = file
            .strip_prefix(folder)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        writer.start_file(name, options).unwrap();
        writer.write_all(&std::fs::read(&file).unwrap()).unwrap();
    }
    writer.finish().unwrap();
}

#[test]
fn read_answers_what_a_read_attaches_in_order_each_file_once() {
    let value = report(&run(
        &demo_mounts(|at| demo().join(&at[1..])),
        &[
            "--read",
            "src/web/App.tsx",
            "--read=/home/alice/work/shop/src/web/Other.tsx",
            "--read",
            "/home/alice/elsewhere.md",
        ],
    ));
    let reads = value["reads"].as_array().expect("reads");
    assert_eq!(reads.len(), 3);
    let paths = |read: &Value| -> Vec<String> {
        read["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .collect()
    };
    // The nested CLAUDE.md of src/web, then the conditional rule whose globs match.
    assert_eq!(reads[0]["path"], "/home/alice/work/shop/src/web/App.tsx");
    let first = paths(&reads[0]);
    assert_eq!(
        first[0], "/home/alice/work/shop/src/web/CLAUDE.md",
        "{first:?}"
    );
    assert!(first.contains(&"/home/alice/work/shop/.claude/rules/frontend.md".to_owned()));
    // A second read in the same folder attaches nothing new.
    assert!(paths(&reads[1]).is_empty(), "{:?}", paths(&reads[1]));
    // A read outside the project attaches nothing, and says why.
    assert!(paths(&reads[2]).is_empty());
    assert!(reads[2]["note"]
        .as_str()
        .unwrap()
        .contains("outside the project"));
}
