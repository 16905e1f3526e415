//! `scan`: runs the analysis over real folders and zip archives and prints the report as JSON.
//!
//! ```text
//! cargo run -q --release -p memdiag-core --example scan -- \
//!     --home /home/alice --project /home/alice/app \
//!     --mount /home/alice/.claude=/home/alice/.claude --mount /home/alice/app=./app
//! ```
//!
//! This is the one place in the workspace that touches `std::fs`: it lists each mounted
//! folder (sizes and times only, symbolic links not followed) or opens each mounted zip, then
//! reads only the files the analysis asks for. Every failure is one line on stderr that
//! starts with `scan: `, and exit code 2.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use memdiag_core::report::{Code, Os, Report};
use memdiag_core::{
    analyze_with, mount_zip, ContentSource, Contents, Diagnostic, FileEntry, Input, Severity, Tree,
    VPath, ZipLimits, ZipSource,
};

const USAGE: &str = "\
scan: print the memdiag report for folders and zip archives on this machine

usage: scan --home H [--project P] [--config C] [--os linux|macos|windows]
            [--claude-version V] [--today YYYY-MM-DD] [--read PATH ...]
            --mount VIRTUAL=LOCAL [--mount VIRTUAL=LOCAL ...]

  --home H       the home directory as the analysis sees it (absolute)
  --project P    the project directory (absolute); without it only user-level files
                 and the memory folders are listed
  --config C     the Claude config directory, when not <home>/.claude
  --os OS        linux, macos or windows; decides the managed policy path
                 (default: linux, whatever machine scan runs on: the snapshot
                 decides, not the host)
  --claude-version V
                 the Claude Code release whose rules to apply, such as 2.1.80
                 (default: the current rules)
  --today D      the date the memory growth projection counts from
                 (default: today's date in UTC, from this machine's clock)
  --read PATH    also answer what a Read of PATH (absolute, or relative to the project)
                 attaches; repeatable, answered in order, each file once (as in a session)
  --mount V=L    shows the folder or .zip file L at the absolute path V; repeat for
                 several sources (a file is served by the mount with the longest V)
  -h, --help     print this help

The report goes to stdout as pretty JSON. Errors go to stderr, one line, exit code 2.
";

/// The largest file the scan reads from a folder, as for a zip entry.
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

fn main() -> ExitCode {
    let args: Result<Vec<String>, String> = std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| format!("argument {arg:?} is not valid UTF-8"))
        })
        .collect();
    match args.and_then(|args| parse_args(&args)).and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("scan: {message}");
            ExitCode::from(2)
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Command {
    Help,
    Scan(Scan),
}

/// The inputs of one scan.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Scan {
    input: Input,
    mounts: Vec<Mount>,
}

/// One `--mount VIRTUAL=LOCAL`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mount {
    at: VPath,
    local: PathBuf,
}

/// Runs a parsed command, printing its output to stdout.
fn run(command: Command) -> Result<(), String> {
    let scan = match command {
        Command::Help => return write_stdout(USAGE),
        Command::Scan(scan) => scan,
    };
    // The one thing of this machine's environment Claude Code's loading depends on that the
    // report can use; the snapshot's files cannot show it.
    let mut scan = scan;
    scan.input.disable_auto_memory_env = std::env::var("CLAUDE_CODE_DISABLE_AUTO_MEMORY").ok();
    let report = scan_report(&scan)?;
    let mut json = serde_json::to_string_pretty(&report)
        .map_err(|error| format!("cannot write the report as JSON: {error}"))?;
    json.push('\n');
    write_stdout(&json)
}

/// Mounts every source and runs the analysis to completion.
fn scan_report(scan: &Scan) -> Result<Report, String> {
    let (mut tree, mut sources) = mount_all(&scan.mounts)?;
    analyze_with(&mut tree, &scan.input, &mut sources).map_err(|error| error.to_string())
}

fn write_stdout(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|error| format!("cannot write to stdout: {error}"))
}

/// Parses the arguments after the program name.
fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut home = None;
    let mut project = None;
    let mut config = None;
    let mut os = None;
    let mut version = None;
    let mut today = None;
    let mut mounts = Vec::new();
    let mut reads = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "-h" || arg == "--help" {
            return Ok(Command::Help);
        }
        // Both `--flag value` and `--flag=value` are accepted.
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        let slot = match flag {
            "--home" => &mut home,
            "--project" => &mut project,
            "--config" => &mut config,
            "--os" => &mut os,
            "--claude-version" => &mut version,
            "--today" => &mut today,
            "--mount" => {
                let value = value_of(flag, inline, &mut args)?;
                mounts.push(parse_mount(&value)?);
                continue;
            }
            "--read" => {
                reads.push(value_of(flag, inline, &mut args)?);
                continue;
            }
            _ if flag.starts_with('-') => {
                return Err(format!("unknown option {flag} (see --help)"))
            }
            _ => return Err(format!("unexpected argument {arg:?} (see --help)")),
        };
        if slot.is_some() {
            return Err(format!("{flag} is given twice"));
        }
        *slot = Some(value_of(flag, inline, &mut args)?);
    }
    let home = home.ok_or("--home is required (see --help)")?;
    if mounts.is_empty() {
        return Err("at least one --mount VIRTUAL=LOCAL is required (see --help)".to_owned());
    }
    let os = match os.as_deref() {
        None => Os::Linux,
        Some("linux") => Os::Linux,
        Some("macos") => Os::Macos,
        Some("windows") => Os::Windows,
        Some(other) => {
            return Err(format!(
                "--os must be linux, macos or windows, not {other:?}"
            ))
        }
    };
    Ok(Command::Scan(Scan {
        input: Input {
            home,
            project,
            config_dir: config,
            os,
            version,
            today: Some(today.unwrap_or_else(|| utc_date(SystemTime::now()))),
            reads,
            disable_auto_memory_env: None,
        },
        mounts,
    }))
}

/// The value of `flag`: the part after `=`, or the next argument.
fn value_of<'a>(
    flag: &str,
    inline: Option<String>,
    rest: &mut impl Iterator<Item = &'a String>,
) -> Result<String, String> {
    let value = match inline {
        Some(value) => value,
        // A following option means the value was forgotten, not that it starts with `--`.
        None => match rest.next() {
            Some(next) if !next.starts_with("--") => next.clone(),
            _ => return Err(format!("{flag} needs a value")),
        },
    };
    if value.is_empty() {
        return Err(format!("{flag} needs a value"));
    }
    Ok(value)
}

/// Parses `VIRTUAL=LOCAL`; the first `=` splits, so LOCAL may hold more.
fn parse_mount(value: &str) -> Result<Mount, String> {
    let Some((at, local)) = value.split_once('=') else {
        return Err(format!("--mount {value:?} is not VIRTUAL=LOCAL"));
    };
    if local.is_empty() {
        return Err(format!(
            "--mount {value:?} names no local folder or .zip file"
        ));
    }
    let at = VPath::new(at).map_err(|error| format!("--mount {value:?}: {error}"))?;
    Ok(Mount {
        at,
        local: PathBuf::from(local),
    })
}

/// Lists every mount into one tree, and the source that reads each one's files.
fn mount_all(mounts: &[Mount]) -> Result<(Tree, Sources), String> {
    let mut tree = Tree::new();
    let mut sources = Sources::default();
    for mount in mounts {
        let shown = mount.local.display();
        let metadata =
            fs::metadata(&mount.local).map_err(|error| format!("cannot read {shown}: {error}"))?;
        let source = if metadata.is_dir() {
            list_dir(&mut tree, &mount.at, &mount.local)
                .map_err(|error| format!("cannot list {shown}: {error}"))?;
            Mounted::Dir(mount.local.clone())
        } else if metadata.is_file() && is_zip_name(&mount.local) {
            let bytes =
                fs::read(&mount.local).map_err(|error| format!("cannot read {shown}: {error}"))?;
            let zip = mount_zip(&mut tree, mount.at.as_str(), bytes, ZipLimits::default())
                .map_err(|error| format!("{shown}: {error}"))?;
            Mounted::Zip(zip)
        } else {
            return Err(format!("{shown} is neither a folder nor a .zip file"));
        };
        sources.mounts.push((mount.at.clone(), source));
    }
    Ok((tree, sources))
}

fn is_zip_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("zip"))
}

/// Lists the folder `local` into `tree` below `at`: every file with its size and time, no
/// contents. A symbolic link to a file is followed as Claude Code follows it (measured on
/// 2.1.328: the file loads under the link's path), but only when it resolves inside the
/// mounted folder (checked after resolving): a link that leads out of it is named in a
/// finding and never read. Links to folders are not followed, as the program does not
/// follow a linked `.claude/rules/`. Dangling links and entries that cannot be listed are
/// counted in the same finding.
///
/// # Errors
/// When `local` itself cannot be listed.
fn list_dir(tree: &mut Tree, at: &VPath, local: &Path) -> std::io::Result<()> {
    // Reading the root first makes an unreadable mount an error rather than an empty tree.
    let mut next = Some((at.clone(), fs::read_dir(local)?));
    let root = fs::canonicalize(local)?;
    // Folders wait as paths, not open handles, so a wide tree cannot run out of descriptors.
    let mut pending: Vec<(VPath, PathBuf)> = Vec::new();
    let mut unreadable = 0_u64;
    let mut dangling = 0_u64;
    let mut folder_links = 0_u64;
    let mut outside: Vec<String> = Vec::new();
    loop {
        let (dir, entries) = match next.take() {
            Some(opened) => opened,
            None => match pending.pop() {
                Some((dir, local)) => match fs::read_dir(&local) {
                    Ok(entries) => (dir, entries),
                    Err(_) => {
                        unreadable += 1;
                        continue;
                    }
                },
                None => break,
            },
        };
        for entry in entries {
            let Ok(entry) = entry else {
                unreadable += 1;
                continue;
            };
            // `DirEntry::file_type` and `DirEntry::metadata` do not follow links.
            let (Ok(file_type), Some(name)) = (
                entry.file_type(),
                entry.file_name().to_str().map(str::to_owned),
            ) else {
                unreadable += 1;
                continue;
            };
            let Ok(path) = dir.join(&name) else {
                unreadable += 1;
                continue;
            };
            if file_type.is_symlink() {
                match fs::canonicalize(entry.path()) {
                    Err(_) => dangling += 1,
                    Ok(target) if !target.starts_with(&root) => outside.push(path.to_string()),
                    Ok(target) => match fs::metadata(&target) {
                        Ok(metadata) if metadata.is_dir() => folder_links += 1,
                        Ok(metadata) if metadata.is_file() => tree.insert(
                            path,
                            FileEntry {
                                size: metadata.len(),
                                contents: Contents::Unread,
                                modified: metadata.modified().ok().and_then(iso_8601_utc),
                            },
                        ),
                        _ => unreadable += 1,
                    },
                }
            } else if file_type.is_dir() {
                tree.add_dir(path.clone());
                pending.push((path, entry.path()));
            } else if file_type.is_file() {
                match entry.metadata() {
                    Ok(metadata) => tree.insert(
                        path,
                        FileEntry {
                            size: metadata.len(),
                            contents: Contents::Unread,
                            modified: metadata.modified().ok().and_then(iso_8601_utc),
                        },
                    ),
                    Err(_) => unreadable += 1,
                }
            } else {
                // Sockets, pipes and devices hold nothing Claude Code would load.
                unreadable += 1;
            }
        }
    }
    tree.add_mount(at.clone());
    let mut left_out = Vec::new();
    if !outside.is_empty() {
        let shown = outside
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = outside.len().saturating_sub(10);
        left_out.push(format!(
            "{} leading outside the mounted folder, never read ({shown}{})",
            plural(outside.len() as u64, "symbolic link", "symbolic links"),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    if dangling > 0 {
        left_out.push(plural(
            dangling,
            "dangling symbolic link",
            "dangling symbolic links",
        ));
    }
    if folder_links > 0 {
        left_out.push(plural(
            folder_links,
            "symbolic link to a folder (Claude Code does not follow those)",
            "symbolic links to folders (Claude Code does not follow those)",
        ));
    }
    if unreadable > 0 {
        left_out.push(plural(
            unreadable,
            "entry it could not list",
            "entries it could not list",
        ));
    }
    if !left_out.is_empty() {
        tree.push_diagnostic(Diagnostic::new(
            Code::ScanSkipped,
            Severity::Info,
            Some(at.as_str()),
            format!(
                "the scan left out {} below this folder",
                left_out.join(" and ")
            ),
        ));
    }
    Ok(())
}

/// `count` with the noun that agrees with it.
fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The content sources of every mount, by mount point.
#[derive(Debug, Default)]
struct Sources {
    mounts: Vec<(VPath, Mounted)>,
}

/// What one mount reads from.
#[derive(Debug)]
enum Mounted {
    Dir(PathBuf),
    Zip(ZipSource),
}

impl ContentSource for Sources {
    /// Reads from the mount with the longest mount point that holds `path`.
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        let Some((at, mounted)) = self
            .mounts
            .iter_mut()
            .filter(|(at, _)| path.starts_with(at))
            .max_by_key(|(at, _)| at.as_str().len())
        else {
            return Err("no mount holds this file".to_owned());
        };
        match mounted {
            Mounted::Zip(zip) => zip.read(path),
            Mounted::Dir(root) => {
                let relative = path.strip_prefix(at).unwrap_or_default();
                let local = relative
                    .split('/')
                    .filter(|segment| !segment.is_empty())
                    .fold(root.clone(), |local, segment| local.join(segment));
                // Resolved again at read time: a link may have changed since the listing.
                let (Ok(resolved), Ok(root)) = (fs::canonicalize(&local), fs::canonicalize(root))
                else {
                    return read_local(&local);
                };
                if !resolved.starts_with(&root) {
                    return Err("it leads outside the mounted folder; not read".to_owned());
                }
                read_local(&resolved)
            }
        }
    }
}

/// Reads one file, refusing more than [`MAX_FILE_BYTES`].
fn read_local(local: &Path) -> Result<Vec<u8>, String> {
    let file = fs::File::open(local).map_err(|error| format!("cannot read the file: {error}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read the file: {error}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "the file is over the {} MB cap; left unread",
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    Ok(bytes)
}

/// The UTC date of `time` (`2026-09-11`): the default for `--today`.
fn utc_date(time: SystemTime) -> String {
    iso_8601_utc(time).map_or_else(|| "1970-01-01".to_owned(), |text| text[..10].to_owned())
}

/// A file time as ISO 8601 in UTC (`2026-09-11T08:30:00Z`), or `None` before 1970.
fn iso_8601_utc(time: SystemTime) -> Option<String> {
    let seconds = time.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let (year, month, day) = civil_from_days(i64::try_from(seconds / 86_400).ok()?);
    let of_day = seconds % 86_400;
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    ))
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so the scan needs no date crate.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    fn error(line: &str) -> String {
        parse_args(&args(line)).unwrap_err()
    }

    /// A fresh folder under the system's temporary folder, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new() -> TempDir {
            static COUNT: AtomicUsize = AtomicUsize::new(0);
            let name = format!(
                "memdiag-scan-{}-{}",
                std::process::id(),
                COUNT.fetch_add(1, Ordering::Relaxed)
            );
            let path = std::env::temp_dir().join(name);
            fs::create_dir_all(&path).unwrap();
            TempDir(path)
        }

        fn write(&self, relative: &str, bytes: &[u8]) -> PathBuf {
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

    #[test]
    fn parses_a_full_command_line() {
        let command = parse_args(&args(
            "--home /h --project=/h/app --os macos --config /c --mount /h=./x=y \
             --claude-version 2.1.80 --today 2026-11-30",
        ))
        .unwrap();
        let expected = Scan {
            input: Input {
                home: "/h".to_owned(),
                project: Some("/h/app".to_owned()),
                config_dir: Some("/c".to_owned()),
                os: Os::Macos,
                version: Some("2.1.80".to_owned()),
                today: Some("2026-11-30".to_owned()),
                ..Input::default()
            },
            mounts: vec![Mount {
                at: vpath("/h"),
                local: PathBuf::from("./x=y"),
            }],
        };
        assert_eq!(command, Command::Scan(expected));
        assert_eq!(parse_args(&args("--home /h --help")), Ok(Command::Help));
        assert_eq!(parse_args(&args("-h")), Ok(Command::Help));
        let Ok(Command::Scan(scan)) = parse_args(&args("--home /h --mount /h=x")) else {
            panic!("a minimal command line parses");
        };
        assert_eq!(
            (scan.input.version, scan.input.today.map(|d| d.len())),
            (None, Some(10))
        );
    }

    #[test]
    fn refuses_bad_arguments() {
        assert_eq!(error(""), "--home is required (see --help)");
        assert_eq!(
            error("--home /h"),
            "at least one --mount VIRTUAL=LOCAL is required (see --help)"
        );
        assert_eq!(error("--home"), "--home needs a value");
        assert_eq!(error("--home --mount /h=x"), "--home needs a value");
        assert_eq!(error("--home= --mount /h=x"), "--home needs a value");
        assert_eq!(error("--home /h --home /i"), "--home is given twice");
        assert_eq!(error("--verbose"), "unknown option --verbose (see --help)");
        assert_eq!(error("stray"), "unexpected argument \"stray\" (see --help)");
        assert_eq!(
            error("--home /h --os beos --mount /h=x"),
            "--os must be linux, macos or windows, not \"beos\""
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
        fs::create_dir_all(dir.0.join("agents")).unwrap();
        let outside = TempDir::new();
        outside.write("secret.md", b"secret");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.0.join("CLAUDE.md"), dir.0.join("link.md")).unwrap();
            std::os::unix::fs::symlink(outside.0.join("secret.md"), dir.0.join("out.md")).unwrap();
            std::os::unix::fs::symlink(dir.0.join("nowhere"), dir.0.join("dangling.md")).unwrap();
            std::os::unix::fs::symlink(&dir.0, dir.0.join("rules/loop")).unwrap();
        }
        let mounts = [Mount {
            at: vpath("/home/alice/.claude"),
            local: dir.0.clone(),
        }];
        let (tree, mut sources) = mount_all(&mounts).unwrap();
        #[cfg(unix)]
        assert_eq!(
            paths(&tree),
            [
                "/home/alice/.claude/CLAUDE.md",
                "/home/alice/.claude/link.md",
                "/home/alice/.claude/projects/-home-alice-app/s.jsonl",
                "/home/alice/.claude/rules/a.md",
            ],
            "a link to a file inside the mount is followed; one leading out, a dangling one \
             and a link to a folder are not"
        );
        assert!(tree.is_dir(&vpath("/home/alice/.claude/agents")));
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
             (/home/alice/.claude/out.md) and 1 dangling symbolic link and 1 symbolic link to a \
             folder (Claude Code does not follow those) below this folder"
        );
        #[cfg(unix)]
        assert_eq!(
            sources.read(&vpath("/home/alice/.claude/link.md")),
            Ok(b"# User\n".to_vec())
        );
        assert_eq!(
            sources.read(&vpath("/home/alice/.claude/rules/a.md")),
            Ok(b"rule".to_vec())
        );
        assert!(sources
            .read(&vpath("/home/alice/.claude/gone.md"))
            .unwrap_err()
            .starts_with("cannot read the file: "));
        assert_eq!(
            sources.read(&vpath("/elsewhere/x.md")),
            Err("no mount holds this file".to_owned())
        );
    }

    #[test]
    fn mounts_a_zip_inside_a_folder_and_reads_by_the_longest_mount() {
        let dir = TempDir::new();
        dir.write("CLAUDE.md", b"from the folder");
        let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        writer
            .start_file("CLAUDE.md", zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(b"from the zip").unwrap();
        let bytes = writer.finish().unwrap().into_inner();
        let zip = dir.write("snapshot.ZIP", &bytes);
        let mounts = [
            Mount {
                at: vpath("/home/alice"),
                local: dir.0.clone(),
            },
            Mount {
                at: vpath("/home/alice/app"),
                local: zip,
            },
        ];
        let (tree, mut sources) = mount_all(&mounts).unwrap();
        assert_eq!(
            paths(&tree),
            [
                "/home/alice/CLAUDE.md",
                "/home/alice/app/CLAUDE.md",
                "/home/alice/snapshot.ZIP",
            ]
        );
        assert_eq!(
            sources.read(&vpath("/home/alice/app/CLAUDE.md")),
            Ok(b"from the zip".to_vec())
        );
        assert_eq!(
            sources.read(&vpath("/home/alice/CLAUDE.md")),
            Ok(b"from the folder".to_vec())
        );
    }

    #[test]
    fn refuses_missing_and_broken_sources() {
        let dir = TempDir::new();
        let missing = dir.0.join("missing");
        let error = mount_all(&[Mount {
            at: vpath("/h"),
            local: missing.clone(),
        }])
        .unwrap_err();
        assert!(
            error.starts_with(&format!("cannot read {}: ", missing.display())),
            "{error}"
        );
        let broken = dir.write("broken.zip", b"PK\x03\x04 not really");
        let error = mount_all(&[Mount {
            at: vpath("/h"),
            local: broken.clone(),
        }])
        .unwrap_err();
        assert!(
            error.starts_with(&format!("{}: not a zip archive: ", broken.display())),
            "{error}"
        );
        let text = dir.write("notes.txt", b"text");
        let error = mount_all(&[Mount {
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
}
