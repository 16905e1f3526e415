//! Unit tests of argument handling and the native reader; the command as a process is
//! tested in `core/tests/memdiag.rs`.

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, UNIX_EPOCH};

use memdiag_core::report::Os;
use memdiag_core::{ContentSource, Contents, Input, Tree, VPath};

use super::local::{Mount, Reader, Sources};
use super::{parse_args, Command, Format, Gates, Host, Scan};

fn args(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_owned).collect()
}

fn host() -> Host {
    Host {
        home: Some("/home/alice".to_owned()),
        config_dir: None,
        cwd: Some(PathBuf::from("/home/alice/app")),
        os: Some(Os::Macos),
        disable_auto_memory: None,
        skill_listing_budget: None,
        additional_claude_md: None,
        today: Some("2026-12-01".to_owned()),
    }
}

#[test]
fn add_dir_is_repeatable_and_relative_to_the_current_folder() {
    let host = Host {
        additional_claude_md: Some("1".to_owned()),
        ..host()
    };
    let Ok(Command::Scan(scan)) =
        parse_args(&args("--add-dir ../shared --add-dir=/opt/tools"), &host)
    else {
        panic!("not a scan");
    };
    assert_eq!(
        scan.input.additional_dirs,
        ["/home/alice/shared", "/opt/tools"]
    );
    assert_eq!(
        scan.input.additional_dirs_claude_md_env.as_deref(),
        Some("1")
    );
}

fn scan(line: &str) -> Scan {
    match parse_args(&args(line), &host()) {
        Ok(Command::Scan(scan)) => *scan,
        other => panic!("{line}: {other:?}"),
    }
}

fn error(line: &str) -> String {
    parse_args(&args(line), &host()).unwrap_err()
}

/// A fresh folder under the system's temporary folder, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new() -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "memdiag-unit-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        fs::create_dir_all(&path).unwrap();
        TempDir(fs::canonicalize(path).unwrap())
    }

    pub(crate) fn write(&self, relative: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn vpath(path: &str) -> VPath {
    VPath::new(path).unwrap()
}

fn paths(tree: &Tree) -> Vec<&str> {
    tree.files().map(|(path, _)| path.as_str()).collect()
}

fn mounted(mounts: &[Mount]) -> Result<Reader, String> {
    let mut reader = Reader::default();
    reader.set_config(vpath("/home/alice/.claude"));
    for mount in mounts {
        reader.mount(mount)?;
    }
    // A mount lists lazily; these tests look at what a whole listing holds.
    reader.list_everything();
    Ok(reader)
}

#[test]
fn parses_a_snapshot_command_line() {
    let scan = scan(
        "--home /h --project=/h/app --os macos --config /c --mount /h=./x=y \
         --claude-version 2.1.80 --today 2026-11-30 --format sarif --fail-on warning \
         --max-every-session-chars 20_000 --max-every-session-tokens=5000",
    );
    let expected = Input {
        home: "/h".to_owned(),
        project: Some("/h/app".to_owned()),
        config_dir: Some("/c".to_owned()),
        os: Os::Macos,
        version: Some("2.1.80".to_owned()),
        today: Some("2026-11-30".to_owned()),
        ..Input::default()
    };
    assert_eq!(scan.input, expected);
    assert_eq!(
        scan.sources,
        Sources::Mounts(vec![Mount {
            at: vpath("/h"),
            local: PathBuf::from("./x=y"),
        }])
    );
    assert_eq!(scan.format, Format::Sarif);
    assert_eq!(
        scan.gates,
        Gates {
            fail_on: Some(memdiag_core::Severity::Warning),
            max_chars: Some(20_000),
            max_tokens: Some(5000),
        }
    );
    assert_eq!(
        parse_args(&args("--home /h --help"), &host()),
        Ok(Command::Help)
    );
    assert_eq!(parse_args(&args("-V"), &host()), Ok(Command::Version));
    // A snapshot does not come from this machine: linux unless told, no project.
    let minimal = self::scan("--home /h --mount /h=x");
    assert_eq!(
        (minimal.input.os, minimal.input.project, minimal.format),
        (Os::Linux, None, Format::Text)
    );
    assert_eq!(minimal.input.today.as_deref(), Some("2026-12-01"));
}

#[test]
fn defaults_come_from_this_machine() {
    let scan = scan("");
    assert_eq!(scan.sources, Sources::Host);
    assert_eq!(
        scan.input,
        Input {
            home: "/home/alice".to_owned(),
            project: Some("/home/alice/app".to_owned()),
            os: Os::Macos,
            today: Some("2026-12-01".to_owned()),
            ..Input::default()
        }
    );
    // Relative paths are taken from the current folder.
    let scan = self::scan("--project sub/dir --config ../cfg");
    assert_eq!(
        scan.input.project.as_deref(),
        Some("/home/alice/app/sub/dir")
    );
    assert_eq!(scan.input.config_dir.as_deref(), Some("/home/alice/cfg"));
    let moved = Host {
        config_dir: Some("/srv/claude".to_owned()),
        ..host()
    };
    let Ok(Command::Scan(scan)) = parse_args(&[], &moved) else {
        panic!("no arguments parse");
    };
    assert_eq!(scan.input.config_dir.as_deref(), Some("/srv/claude"));
    let homeless = Host {
        home: None,
        ..host()
    };
    assert_eq!(
        parse_args(&[], &homeless).unwrap_err(),
        "no home folder: set HOME or give --home"
    );
}

#[test]
fn refuses_bad_arguments() {
    assert_eq!(
        error("--mount /h=x"),
        "--home is required with --mount (see --help)"
    );
    assert_eq!(error("--home"), "--home needs a value");
    assert_eq!(error("--home --mount /h=x"), "--home needs a value");
    assert_eq!(error("--home= --mount /h=x"), "--home needs a value");
    assert_eq!(error("--home /h --home /i"), "--home is given twice");
    assert_eq!(error("--loud"), "unknown option --loud (see --help)");
    assert_eq!(error("stray"), "unexpected argument \"stray\" (see --help)");
    assert_eq!(
        error("--os beos"),
        "--os must be linux, macos or windows, not \"beos\""
    );
    assert_eq!(
        error("--format yaml"),
        "--format must be text, json, sarif or markdown, not \"yaml\""
    );
    assert_eq!(
        error("--fail-on info"),
        "--fail-on must be warning or error, not \"info\""
    );
    assert_eq!(
        error("--max-every-session-chars lots"),
        "--max-every-session-chars must be a whole number of 0 or more, not \"lots\""
    );
    assert_eq!(
        error("--max-every-session-tokens -5"),
        "--max-every-session-tokens must be a whole number of 0 or more, not \"-5\""
    );
    assert_eq!(
        error("--color sometimes"),
        "--color must be auto, always or never, not \"sometimes\""
    );
    assert_eq!(error("--mount /h"), "--mount \"/h\" is not VIRTUAL=LOCAL");
    assert_eq!(
        error("--mount /h="),
        "--mount \"/h=\" names no local folder or .zip file"
    );
    assert!(error("--mount home=x").starts_with("--mount \"home=x\": not an absolute path"));
    assert!(error("--mount /a/../..=x").contains("climbs above its root"));
}

#[test]
fn lists_a_folder_and_reads_from_it() {
    let dir = TempDir::new();
    dir.write("CLAUDE.md", b"# User\n");
    dir.write("rules/a.md", b"rule");
    dir.write("projects/-home-alice-app/s.jsonl", b"{}\n");
    dir.write("file-history/x/y.md", b"bulk");
    fs::create_dir_all(dir.0.join("agents")).unwrap();
    let outside = TempDir::new();
    outside.write("secret.md", b"secret");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(dir.0.join("CLAUDE.md"), dir.0.join("link.md")).unwrap();
        symlink(outside.0.join("secret.md"), dir.0.join("out.md")).unwrap();
        symlink(dir.0.join("nowhere"), dir.0.join("dangling.md")).unwrap();
        symlink(&dir.0, dir.0.join("rules/loop")).unwrap();
        symlink(dir.0.join("b.md"), dir.0.join("a.md")).unwrap();
        symlink(dir.0.join("a.md"), dir.0.join("b.md")).unwrap();
    }
    let mounts = [Mount {
        at: vpath("/home/alice/.claude"),
        local: dir.0.clone(),
    }];
    let mut reader = mounted(&mounts).unwrap();
    let tree = reader.tree();
    #[cfg(unix)]
    assert_eq!(
        paths(tree),
        [
            "/home/alice/.claude/CLAUDE.md",
            "/home/alice/.claude/link.md",
            "/home/alice/.claude/projects/-home-alice-app/s.jsonl",
            "/home/alice/.claude/rules/a.md",
        ],
        "a link to a file inside the mount is followed; one leading out, a dangling one, a \
         loop and a link to a folder are not"
    );
    assert!(tree.is_dir(&vpath("/home/alice/.claude/agents")));
    assert!(
        tree.is_dir(&vpath("/home/alice/.claude/file-history")),
        "a bulk folder is named and never entered"
    );
    let transcript = tree
        .file(&vpath(
            "/home/alice/.claude/projects/-home-alice-app/s.jsonl",
        ))
        .unwrap();
    assert_eq!(
        (transcript.size, &transcript.modified),
        (0, &None),
        "a transcript is listed by name only"
    );
    assert!(tree.is_covered(&vpath("/home/alice/.claude/x.md")));
    let entry = tree.file(&vpath("/home/alice/.claude/CLAUDE.md")).unwrap();
    assert_eq!((entry.size, &entry.contents), (7, &Contents::Unread));
    let modified = entry.modified.as_deref().unwrap();
    assert!(
        modified.len() == 20 && modified.ends_with('Z'),
        "{modified}"
    );
    #[cfg(unix)]
    assert_eq!(
        tree.diagnostics()[0].message,
        "the scan left out 1 symbolic link leading outside the mounted folder, never read \
         (/home/alice/.claude/out.md) and 3 dangling or looping symbolic links and 1 symbolic \
         link to a folder (followed only on the host's own paths, where the scan records \
         where it leads) below this folder"
    );
    #[cfg(unix)]
    assert_eq!(
        reader.read(&vpath("/home/alice/.claude/link.md")),
        Ok(b"# User\n".to_vec())
    );
    assert_eq!(
        reader.read(&vpath("/home/alice/.claude/rules/a.md")),
        Ok(b"rule".to_vec())
    );
    assert_eq!(
        reader.read(&vpath("/home/alice/.claude/gone.md")),
        Err("no mount holds this file".to_owned()),
        "only listed files are read"
    );
    assert_eq!(
        reader.read(&vpath("/elsewhere/x.md")),
        Err("no mount holds this file".to_owned())
    );
}

/// A file of a large listed folder is found by name among its neighbours, whatever order
/// the file system listed them in, and a name that only prefixes a listed one is not.
#[test]
fn reads_any_file_of_a_large_listed_folder() {
    let dir = TempDir::new();
    let names: Vec<String> = (0..500u32)
        .map(|i| format!("{}.md", (i * 7919) % 500))
        .chain(["a".to_owned(), "a.md.md".to_owned()])
        .collect();
    for name in &names {
        dir.write(&format!("rules/{name}"), name.as_bytes());
    }
    let mounts = [Mount {
        at: vpath("/home/alice/.claude"),
        local: dir.0.clone(),
    }];
    let mut reader = mounted(&mounts).unwrap();
    for name in &names {
        assert_eq!(
            reader.read(&vpath(&format!("/home/alice/.claude/rules/{name}"))),
            Ok(name.as_bytes().to_vec()),
            "{name}"
        );
    }
    for absent in ["a.md", "5", "500.md", ""] {
        assert_eq!(
            reader.read(&vpath(&format!("/home/alice/.claude/rules/{absent}x"))),
            Err("no mount holds this file".to_owned()),
            "{absent}x"
        );
    }
}

/// A followed link to a file records its target where the host's paths are the virtual
/// ones, so that its imports resolve beside the target as Claude Code resolves them.
#[cfg(unix)]
#[test]
fn a_followed_link_records_its_target() {
    let dir = TempDir::new();
    dir.write("shared/team.md", b"@beside.md\n");
    fs::create_dir_all(dir.0.join("proj")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("shared/team.md"), dir.0.join("proj/CLAUDE.md")).unwrap();
    let root = vpath(dir.0.to_str().unwrap());
    let link = root.join("proj/CLAUDE.md").unwrap();
    let reader = mounted(&[Mount {
        at: root.clone(),
        local: dir.0.clone(),
    }])
    .unwrap();
    assert_eq!(
        reader.tree().link_target(&link),
        Some(&root.join("shared/team.md").unwrap())
    );
    // Mounted elsewhere, the target has no virtual path to name.
    let elsewhere = mounted(&[Mount {
        at: vpath("/home/alice/.claude"),
        local: dir.0.clone(),
    }])
    .unwrap();
    let moved = vpath("/home/alice/.claude/proj/CLAUDE.md");
    assert!(elsewhere.tree().is_file(&moved));
    assert_eq!(elsewhere.tree().link_target(&moved), None);
}

#[cfg(unix)]
#[test]
fn a_followed_folder_link_records_its_target() {
    let dir = TempDir::new();
    dir.write("shared/rules/team.md", b"team rule\n");
    fs::create_dir_all(dir.0.join("proj/.claude")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("shared/rules"), dir.0.join("proj/.claude/rules"))
        .unwrap();
    let root = vpath(dir.0.to_str().unwrap());
    let link = root.join("proj/.claude/rules").unwrap();
    let reader = mounted(&[Mount {
        at: root.clone(),
        local: dir.0.clone(),
    }])
    .unwrap();
    assert_eq!(
        reader.tree().link_target(&link),
        Some(&root.join("shared/rules").unwrap())
    );
    // Mounted elsewhere, the target has no virtual path to name.
    let elsewhere = mounted(&[Mount {
        at: vpath("/home/alice/.claude"),
        local: dir.0.clone(),
    }])
    .unwrap();
    assert_eq!(
        elsewhere
            .tree()
            .link_target(&vpath("/home/alice/.claude/proj/.claude/rules")),
        None
    );
}

#[test]
fn a_skills_folder_keeps_the_order_read_dir_lists_it_in() {
    let dir = TempDir::new();
    for i in 1..=12 {
        dir.write(&format!("skills/skill-{i:02}/SKILL.md"), b"x");
    }
    dir.write("other/b.md", b"x");
    dir.write("other/a.md", b"x");
    let at = vpath("/home/alice/.claude");
    let reader = mounted(&[Mount {
        at: at.clone(),
        local: dir.0.clone(),
    }])
    .unwrap();
    let listed: Vec<String> = fs::read_dir(dir.0.join("skills"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        reader.tree().listing_order(&at.child("skills")),
        Some(listed.as_slice())
    );
    // Other folders keep no order but the tree's own.
    assert_eq!(reader.tree().listing_order(&at.child("other")), None);
    // Asked for its skills as 2.1.113 lists them, the scan gives the file system's order.
    let scan = scan(&format!(
        "--home /home/alice --mount /home/alice/.claude={} --claude-version 2.1.113 \
         --session print",
        dir.0.display()
    ));
    assert_eq!(scan.input.session, memdiag_core::SessionKind::Print);
}

/// Issue 10: with a Windows-style mount, a file named `rules\secret.md` must not be read
/// through a link named `rules` that leads out of the mount.
#[cfg(unix)]
#[test]
fn a_backslash_name_never_reaches_a_file_through_a_link() {
    let dir = TempDir::new();
    let outside = TempDir::new();
    outside.write("secret.md", b"secret");
    dir.write("rules\\secret.md", b"the file in the mount");
    dir.write("CLAUDE.md", b"@rules/secret.md\n");
    std::os::unix::fs::symlink(&outside.0, dir.0.join("rules")).unwrap();
    let mut reader = mounted(&[Mount {
        at: vpath("C:/Users/alice/.claude"),
        local: dir.0.clone(),
    }])
    .unwrap();
    let secret = vpath("C:/Users/alice/.claude/rules/secret.md");
    assert!(
        !reader.tree().is_file(&secret),
        "a name that is two segments on a drive path is not listed"
    );
    assert!(reader.read(&secret).is_err());
    let message = &reader.tree().diagnostics()[0].message;
    assert!(
        message.contains("1 entry whose name is not one path segment here")
            && message.contains("rules\\secret.md")
            && message.contains("symbolic link leading outside the mounted folder"),
        "{message}"
    );
}

#[test]
fn mounts_a_zip_inside_a_folder_and_reads_by_the_longest_mount() {
    let dir = TempDir::new();
    dir.write("CLAUDE.md", b"from the folder");
    dir.write("app/CLAUDE.md", b"from the folder's app");
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file("CLAUDE.md", zip::write::SimpleFileOptions::default())
        .unwrap();
    writer.write_all(b"from the zip").unwrap();
    let bytes = writer.finish().unwrap().into_inner();
    let zip = dir.write("snapshot.ZIP", &bytes);
    let mut reader = mounted(&[
        Mount {
            at: vpath("/home/alice"),
            local: dir.0.clone(),
        },
        Mount {
            at: vpath("/home/alice/app"),
            local: zip,
        },
    ])
    .unwrap();
    assert_eq!(
        paths(reader.tree()),
        [
            "/home/alice/CLAUDE.md",
            "/home/alice/app/CLAUDE.md",
            "/home/alice/snapshot.ZIP",
        ]
    );
    assert_eq!(
        reader.read(&vpath("/home/alice/app/CLAUDE.md")),
        Ok(b"from the zip".to_vec())
    );
    assert_eq!(
        reader.read(&vpath("/home/alice/CLAUDE.md")),
        Ok(b"from the folder".to_vec())
    );
}

#[test]
fn refuses_missing_and_broken_sources() {
    let dir = TempDir::new();
    let missing = dir.0.join("missing");
    let error = mounted(&[Mount {
        at: vpath("/h"),
        local: missing.clone(),
    }])
    .unwrap_err();
    assert!(
        error.starts_with(&format!("cannot read {}: ", missing.display())),
        "{error}"
    );
    let broken = dir.write("broken.zip", b"PK\x03\x04 not really");
    let error = mounted(&[Mount {
        at: vpath("/h"),
        local: broken.clone(),
    }])
    .unwrap_err();
    assert!(
        error.starts_with(&format!("{}: not a zip archive: ", broken.display())),
        "{error}"
    );
    let text = dir.write("notes.txt", b"text");
    let error = mounted(&[Mount {
        at: vpath("/h"),
        local: text.clone(),
    }])
    .unwrap_err();
    assert_eq!(
        error,
        format!("{} is neither a folder nor a .zip file", text.display())
    );
}

#[test]
fn formats_times_in_utc() {
    use super::local::{iso_8601_utc, utc_date};
    let at = |seconds| iso_8601_utc(UNIX_EPOCH + Duration::from_secs(seconds));
    assert_eq!(at(0).as_deref(), Some("1970-01-01T00:00:00Z"));
    assert_eq!(at(951_782_400).as_deref(), Some("2000-02-29T00:00:00Z"));
    assert_eq!(at(1_789_115_400).as_deref(), Some("2026-09-11T08:30:00Z"));
    assert_eq!(at(4_107_542_399).as_deref(), Some("2100-02-28T23:59:59Z"));
    assert_eq!(iso_8601_utc(UNIX_EPOCH - Duration::from_secs(1)), None);
    assert_eq!(
        utc_date(UNIX_EPOCH + Duration::from_secs(1_789_115_400)),
        "2026-09-11"
    );
}

#[test]
fn thousands_and_gates() {
    assert_eq!(super::text::thousands(0), "0");
    assert_eq!(super::text::thousands(999), "999");
    assert_eq!(super::text::thousands(1000), "1,000");
    assert_eq!(super::text::thousands(1_234_567), "1,234,567");
}
