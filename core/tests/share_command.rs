//! `memdiag --share-link` and `--share-zip` (issue 11): the command writes the payload the
//! page's Share dialog makes, with the same options, so the privacy rules are checked here on
//! the canary fixture's real folders: under every combination of options no marker survives
//! that the options did not promise to keep, and each kept marker does show.

#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::Command;

use memdiag_core::share::{decode_link, inspect_link, open_share_zip, SharedSnapshot};
use memdiag_core::Contents;

const MEMDIAG: &str = env!("CARGO_BIN_EXE_memdiag");

/// Markers of `fixtures/canary/`, by where they stand (see `tests/tests/sanitize.rs`).
const CONTENT: &str = "4f1c";
const NAMES: &str = "7e2b";
const USER: &str = "9d3a";
const DROPPED: &str = "5b6d";

fn canary() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/canary/tree")
}

fn run(extra: &[&str]) -> std::process::Output {
    let tree = canary();
    let mut command = Command::new(MEMDIAG);
    command.args([
        "--home",
        "/home/canary9d3a",
        "--project",
        "/home/canary9d3a/work/canary-7e2b-client",
        "--today",
        "2026-11-30",
    ]);
    for at in [
        "/home/canary9d3a/.claude",
        "/home/canary9d3a/work/canary-7e2b-client",
    ] {
        command.args([
            "--mount",
            &format!("{at}={}", tree.join(&at[1..]).display()),
        ]);
    }
    command
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        .args(extra)
        .output()
        .expect("memdiag runs")
}

/// Everything a snapshot holds, as one lower-cased text.
fn holdings(snapshot: &SharedSnapshot) -> String {
    let mut out = format!("{:?}\n", snapshot.input);
    for (path, file) in snapshot.tree.files() {
        out.push_str(path.as_str());
        out.push('\n');
        if let Contents::Loaded(bytes) = &file.contents {
            out.push_str(&String::from_utf8_lossy(bytes));
            out.push('\n');
        }
    }
    out.to_lowercase()
}

#[test]
fn every_combination_of_options_keeps_only_what_it_promised() {
    let dir = std::env::temp_dir().join(format!("memdiag-share-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for bits in 0..16u8 {
        let flags: Vec<&str> = [
            "--keep-names",
            "--keep-user-name",
            "--keep-text",
            "--other-projects",
        ]
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, f)| *f)
        .collect();
        let (names, user, text) = (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0);
        let mut link_args = vec!["--share-link"];
        link_args.extend(&flags);
        let out = run(&link_args);
        assert!(
            out.status.success(),
            "{flags:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let link = String::from_utf8(out.stdout).unwrap();
        let payload = inspect_link(link.trim())
            .expect("the link reads")
            .to_lowercase();
        let from_link = holdings(&decode_link(link.trim()).expect("the link opens"));
        let zip = dir.join(format!("{bits}.zip"));
        let mut zip_args = vec!["--share-zip", zip.to_str().unwrap()];
        zip_args.extend(&flags);
        let out = run(&zip_args);
        assert!(
            out.status.success(),
            "{flags:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let from_zip = holdings(&open_share_zip(&std::fs::read(&zip).unwrap()).expect("opens"));
        for (carrier, held) in [
            ("payload", &payload),
            ("link", &from_link),
            ("zip", &from_zip),
        ] {
            for (marker, kept) in [
                (DROPPED, false),
                (CONTENT, text),
                (NAMES, names),
                (USER, user),
            ] {
                assert_eq!(
                    held.contains(marker),
                    kept,
                    "{flags:?}: {marker} in the {carrier} should show exactly when kept"
                );
            }
            // Other projects' memory folders: left out unless asked for.
            let other = held.contains("other");
            assert_eq!(
                other,
                bits & 8 != 0 && names,
                "{flags:?}: the other project in the {carrier}"
            );
        }
        // Renamed names carry nothing of the original: each part of the home and project
        // paths is a counter that neither starts as its original nor is as long, and the
        // shared paths sort as the originals did.
        let snapshot = decode_link(link.trim()).expect("the link opens");
        let home = snapshot.input.home.rsplit('/').next().unwrap().to_owned();
        let project = snapshot.input.project.clone().unwrap();
        let project = project.rsplit('/').next().unwrap().to_owned();
        let mut renamed = Vec::new();
        if !user {
            renamed.push(("canary9d3a", home.as_str()));
        }
        let parts: Vec<&str> = project.split('-').collect();
        if !names {
            assert_eq!(parts.len(), 3, "{flags:?}: {project}");
            renamed.extend(
                ["canary", "7e2b", "client"]
                    .into_iter()
                    .zip(parts.iter().copied()),
            );
        }
        for (original, shared) in renamed {
            assert_ne!(original, shared, "{flags:?}");
            assert_ne!(
                original[..1].to_lowercase(),
                shared[..1].to_lowercase(),
                "{flags:?}: {shared} starts as {original}"
            );
            assert_ne!(
                original.len(),
                shared.len(),
                "{flags:?}: {shared} is as long as {original}"
            );
        }
        // With names kept, the command lists them.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr.contains("visible name: canary-7e2b-client"),
            names,
            "{flags:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn share_options_need_a_share_output() {
    let out = run(&["--keep-text"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--share-link", "--share-zip", "x.zip"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A `CLAUDE.md` that is one import of `ab.md` and nothing else: the counter that renames
/// `ab` is shorter, and the line has no word to give the difference to. The import is written
/// as a stand-in of its length, so the share keeps every figure and says nothing before
/// sending; its names still keep no first letter, and the import still loads the file.
#[test]
fn a_file_that_is_one_import_is_shared_exactly() {
    let root = std::env::temp_dir().join(format!("memdiag-share-inexact-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in [
        ("p/CLAUDE.md", "@ab.md\n"),
        ("p/ab.md", "imported\n"),
        ("h/.claude/CLAUDE.md", "user\n"),
    ] {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
    }
    let output = Command::new(MEMDIAG)
        .args(["--home", "/h", "--project", "/p", "--today", "2026-11-30"])
        .args(["--mount", &format!("/p={}", root.join("p").display())])
        .args(["--mount", &format!("/h={}", root.join("h").display())])
        .arg("--share-link")
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        .output()
        .expect("memdiag runs");
    let _ = std::fs::remove_dir_all(&root);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(!stderr.contains("will not match yours"), "{stderr}");
    let link = String::from_utf8_lossy(&output.stdout);
    let shared = decode_link(link.trim()).expect("the link opens");
    for (path, _) in shared.tree.files() {
        assert!(
            !path.as_str().contains("/ab.md"),
            "{path}: a renamed file kept its name"
        );
    }
    let Ok(memdiag_core::Step::Done(report)) = memdiag_core::analyze(&shared.tree, &shared.input)
    else {
        panic!("the shared snapshot analyses in one turn")
    };
    // The import loads the file (9 bytes) from the project's `CLAUDE.md` (7 bytes).
    let imported = report
        .files
        .iter()
        .find(|r| r.depth == 1)
        .expect("the import loads");
    assert_eq!(imported.size, Some(9));
    let parent = report
        .files
        .iter()
        .find(|r| Some(&r.path) == imported.parent.as_ref());
    assert_eq!(parent.and_then(|r| r.size), Some(7), "{:#?}", report.files);
}
