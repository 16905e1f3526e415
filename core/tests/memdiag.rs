//! The `memdiag` command run as a process: on the demo fixture's folders and on zips of them,
//! in every format, with the defaults of a fake home and current folder, through every exit
//! code and with bad arguments.
//!
//! The text format is a reviewed snapshot, `core/tests/snapshots/demo.txt`
//! (`MEMDIAG_UPDATE_SNAPSHOTS=1` rewrites it; read the diff). The JSON output is validated
//! against the committed `core/report.schema.json`, the SARIF output against the SARIF 2.1.0
//! schema in `tests/schemas/`.

#![cfg(not(target_arch = "wasm32"))]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const MEMDIAG: &str = env!("CARGO_BIN_EXE_memdiag");

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

fn folders() -> Vec<String> {
    demo_mounts(|at| demo().join(&at[1..]))
}

/// The command on `mounts` with the demo's home, project and date.
fn run(mounts: &[String], extra: &[&str]) -> Output {
    let mut command = Command::new(MEMDIAG);
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
    command
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        // The file system's listing order differs between machines.
        .env("MEMDIAG_LISTING_BY_NAME", "1")
        .args(extra)
        .output()
        .expect("memdiag runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "memdiag failed ({:?}): {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn report(output: &Output) -> Value {
    serde_json::from_str(&stdout(output)).expect("memdiag prints JSON")
}

fn schema(path: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|error| panic!("{path}: {error}"));
    // The SARIF 2.1.0 rtm.5 schema's pattern for `run.language` has a stray `]`, which the
    // meta-schema refuses as a regular expression; it is read with the pattern meant (the
    // output never sets `language`). See tests/schemas/README.md.
    let text = text.replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#,
    );
    let schema: Value = serde_json::from_str(&text).expect("a schema is JSON");
    jsonschema::validator_for(&schema).expect("a valid schema")
}

fn assert_valid(validator: &jsonschema::Validator, value: &Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what} does not validate: {errors:#?}");
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
fn json_is_the_demo_report_and_validates_against_the_report_schema() {
    let value = report(&run(&folders(), &["--format", "json"]));
    assert_eq!(value["schema"], "memdiag-report/6");
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
    assert_valid(&schema("report.schema.json"), &value, "the demo's report");
    // A report that breaks the schema is refused: the check can fail.
    let mut broken = value.clone();
    broken["footprint"]["files"] = Value::String("many".to_owned());
    assert!(!schema("report.schema.json").is_valid(&broken));
}

#[test]
fn zips_of_the_same_folders_give_the_same_report() {
    let dir = std::env::temp_dir().join(format!("memdiag-cmd-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zips = demo_mounts(|at| {
        let zip = dir.join(format!("{}.zip", at[1..].replace('/', "_")));
        write_zip(&demo().join(&at[1..]), &zip);
        zip
    });
    let from_folders = report(&run(&folders(), &["--format", "json"]));
    let from_zips = report(&run(&zips, &["--format=json"]));
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
fn text_is_the_reviewed_snapshot_and_colour_only_when_asked() {
    let text = stdout(&run(&folders(), &[]));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/demo.txt");
    if std::env::var_os("MEMDIAG_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        text == expected,
        "the text output differs from {} (MEMDIAG_UPDATE_SNAPSHOTS=1 rewrites it; review the \
         diff):\n{text}",
        path.display()
    );
    assert!(!text.contains('\u{1b}'), "no colour when not on a terminal");
    let coloured = stdout(&run(&folders(), &["--color", "always"]));
    assert!(coloured.contains("\u{1b}["), "--color always colours");
    let mut command = Command::new(MEMDIAG);
    let plain = command
        .args(["--home", "/home/alice", "--color", "auto"])
        .args(
            folders()
                .iter()
                .flat_map(|m| ["--mount".to_owned(), m.clone()]),
        )
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains('\u{1b}'));
}

#[test]
fn sarif_has_one_result_per_finding_and_validates_against_sarif_2_1_0() {
    let json = report(&run(&folders(), &["--format", "json"]));
    let sarif = report(&run(&folders(), &["--format", "sarif"]));
    assert_valid(
        &schema("../tests/schemas/sarif-2.1.0-rtm.5.json"),
        &sarif,
        "the SARIF log",
    );
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let results = run["results"].as_array().unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap();
    assert_eq!(results.len(), diagnostics.len(), "one result per finding");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    for (result, diagnostic) in results.iter().zip(diagnostics) {
        assert_eq!(result["ruleId"], diagnostic["code"]);
        let rule = &rules[result["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], diagnostic["code"]);
        let level = match diagnostic["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(result["level"], level);
        assert_eq!(result["message"]["text"], diagnostic["message"]);
        if let Some(line) = diagnostic["line"].as_u64() {
            assert_eq!(
                result["locations"][0]["physicalLocation"]["region"]["startLine"],
                line
            );
        }
    }
    // Rules carry the code's documentation as help.
    let rule = rules
        .iter()
        .find(|r| r["id"] == "memory-index-truncated")
        .expect("the demo's index is truncated");
    assert_eq!(rule["shortDescription"]["text"], "An index the caps cut.");
    assert!(rule["help"]["text"]
        .as_str()
        .unwrap()
        .starts_with("An index the caps cut."));
    // A file of the project is relative to it; one of the home folder is a file: URI.
    let location = |path: &str| {
        results
            .iter()
            .zip(diagnostics)
            .find(|(_, d)| d["path"] == path)
            .map(|(r, _)| r["locations"][0]["physicalLocation"]["artifactLocation"].clone())
            .unwrap_or_else(|| panic!("a finding on {path}"))
    };
    assert_eq!(
        location("/home/alice/work/shop/CLAUDE.md"),
        serde_json::json!({"uri": "CLAUDE.md", "uriBaseId": "PROJECTROOT"})
    );
    assert_eq!(
        location("/home/alice/.claude/CLAUDE.md")["uri"],
        "file:///home/alice/.claude/CLAUDE.md"
    );
    // Every result has a location (code scanning needs one): a finding about no file in
    // particular is placed on the project folder.
    let (pathless, _) = results
        .iter()
        .zip(diagnostics)
        .find(|(_, d)| d["path"].is_null())
        .expect("the demo has a finding about no file");
    assert_eq!(
        pathless["locations"][0]["physicalLocation"]["artifactLocation"],
        serde_json::json!({"uri": "./", "uriBaseId": "PROJECTROOT"})
    );
    assert!(results.iter().all(|r| r["locations"][0].is_object()));
    // The check can fail: a result without a message is refused.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!schema("../tests/schemas/sarif-2.1.0-rtm.5.json").is_valid(&broken));
}

#[test]
fn markdown_is_a_pull_request_summary() {
    let output = run(
        &folders(),
        &["--format", "markdown", "--fail-on", "warning"],
    );
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("## memdiag: what Claude Code loads in `~/work/shop`\n"));
    assert!(text.contains("**Gate failed:** 8 findings at warning or above"));
    assert!(
        text.contains("**Every session carries 26,675 characters**"),
        "{text}"
    );
    assert!(
        text.contains("| ● | `~/work/shop/CLAUDE.md` | 473 |"),
        "{text}"
    );
    assert!(text.contains("- ⚠️ **warning** `memory-index-truncated`"));
    assert!(text.contains("<details><summary>9 more worth knowing</summary>"));
}

#[test]
fn gates_exit_1_and_say_why_on_stderr() {
    let cases: [(&[&str], i32, &str); 7] = [
        (&[], 0, ""),
        (&["--fail-on", "error"], 0, ""),
        (
            &["--fail-on", "warning"],
            1,
            "memdiag: gate failed: 8 findings at warning or above (--fail-on warning)",
        ),
        (&["--max-every-session-chars", "26675"], 0, ""),
        (
            &["--max-every-session-chars", "26674"],
            1,
            "memdiag: gate failed: every session carries 26,675 characters, over the 26,674 \
             of --max-every-session-chars",
        ),
        (&["--max-every-session-tokens=6669"], 0, ""),
        (
            &["--max-every-session-tokens=6000", "--format", "sarif"],
            1,
            "memdiag: gate failed: every session carries about 6,669 tokens (estimated: \
             characters / 4), over the 6,000 of --max-every-session-tokens",
        ),
    ];
    for (args, code, stderr) in cases {
        let output = run(&folders(), args);
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr).trim_end(),
            stderr,
            "{args:?}"
        );
        // The report is printed whether or not a gate failed.
        assert!(!output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_arguments_and_inputs_are_one_line_and_exit_code_2() {
    let broken = std::env::temp_dir().join(format!("memdiag-broken-{}.zip", std::process::id()));
    std::fs::write(&broken, b"PK\x03\x04 this is not really a zip").unwrap();
    let broken_mount = format!("/h={}", broken.display());
    let cases: [&[&str]; 8] = [
        &["--project", "/definitely/not/here"],
        &["--mount", "/x=/tmp"],
        &["--home", "relative", "--mount", "/x=/tmp"],
        &["--home", "/h", "--mount", "/x=/definitely/not/here"],
        &["--home", "/h", "--mount", "/x=/h", "--os", "beos"],
        &["--format", "yaml"],
        &["--fail-on", "sometimes"],
        &["--home", "/h", "--mount", &broken_mount],
    ];
    for args in cases {
        let output = Command::new(MEMDIAG)
            .args(args)
            .env("HOME", "/nonexistent-home")
            .current_dir("/")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("memdiag: ") && stderr.trim_end().lines().count() == 1,
            "{args:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_file(&broken).ok();
    let help = Command::new(MEMDIAG).arg("--help").output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Exit codes: 0"));
}

/// A fresh folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("memdiag-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(std::fs::canonicalize(path).unwrap())
    }

    fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn with_no_arguments_it_reads_this_machine_from_home_and_the_current_folder() {
    let root = TempDir::new("defaults");
    let home = root.0.join("home");
    let project = home.join("work/app");
    root.write("home/.claude/CLAUDE.md", "# Mine\n\n@~/notes/shared.md\n");
    root.write(
        "home/notes/shared.md",
        "Shared notes outside every default folder.\n",
    );
    root.write("home/.claude/projects/x/session.jsonl", "{\"secret\": 1}\n");
    root.write("home/work/CLAUDE.md", "Parent folder instructions.\n");
    root.write("home/work/unrelated/CLAUDE.md", "Not on the walk.\n");
    root.write("home/work/app/CLAUDE.md", "# App\n");
    root.write("home/work/app/src/CLAUDE.md", "Nested.\n");
    root.write("home/work/app/.git/HEAD", "ref: refs/heads/main\n");
    root.write("home/work/app/.git/objects/ab/cdef", "not listed");
    root.write("outside/secret.md", "Outside the project.\n");
    root.write(
        "home/.claude.json",
        &format!(
            "{{\"projects\": {{\"{}\": {{\"hasClaudeMdExternalIncludesApproved\": true}}}}}}",
            project.display()
        ),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        // A link out of the project, and a loop: neither is read, both are named.
        symlink(
            root.0.join("outside/secret.md"),
            project.join("CLAUDE.local.md"),
        )
        .unwrap();
        symlink(project.join("loop-b.md"), project.join("loop-a.md")).unwrap();
        symlink(project.join("loop-a.md"), project.join("loop-b.md")).unwrap();
    }
    let output = Command::new(MEMDIAG)
        .args(["--format", "json"])
        .env("HOME", &home)
        .env("USERPROFILE", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        .current_dir(&project)
        .output()
        .unwrap();
    let value = report(&output);
    let home_text = home.to_str().unwrap();
    assert_eq!(value["context"]["home"], home_text);
    assert_eq!(value["context"]["project"], project.to_str().unwrap());
    assert_eq!(
        value["context"]["config_dir"],
        format!("{home_text}/.claude")
    );
    assert_eq!(value["context"]["git_root"], project.to_str().unwrap());
    let sent: Vec<&str> = value["session"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    let expected_sent = [
        format!("{home_text}/.claude/CLAUDE.md"),
        format!("{home_text}/notes/shared.md"),
        format!("{home_text}/work/CLAUDE.md"),
        format!("{home_text}/work/app/CLAUDE.md"),
    ];
    for path in &expected_sent {
        assert!(sent.contains(&path.as_str()), "{path} is sent: {sent:?}");
    }
    let rows: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(rows.contains(&format!("{home_text}/work/app/src/CLAUDE.md").as_str()));
    assert!(
        !rows
            .iter()
            .any(|p| p.contains("unrelated") || p.contains("secret")),
        "{rows:?}"
    );
    #[cfg(unix)]
    {
        let skipped: Vec<&str> = value["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "scan-skipped")
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        assert!(
            skipped.iter().any(|m| m.contains(&format!(
                "1 symbolic link leading outside the mounted folder, never read \
                 ({}/CLAUDE.local.md)",
                project.display()
            )) && m.contains("2 dangling or looping symbolic links")),
            "{skipped:?}"
        );
    }
    // The text format, with the same defaults, names what every session carries.
    let text = Command::new(MEMDIAG)
        .env("HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(&project)
        .output()
        .unwrap();
    let text = stdout(&text);
    assert!(text.starts_with("memdiag ~/work/app: "), "{text}");
    assert!(text.contains("Every session carries "), "{text}");
    // CLAUDE_CONFIG_DIR moves the config folder.
    root.write("config/CLAUDE.md", "Moved config.\n");
    let moved = Command::new(MEMDIAG)
        .args(["--format", "json"])
        .env("HOME", &home)
        .env("CLAUDE_CONFIG_DIR", root.0.join("config"))
        .current_dir(&project)
        .output()
        .unwrap();
    let moved = report(&moved);
    let config = root.0.join("config");
    assert_eq!(moved["context"]["config_dir"], config.to_str().unwrap());
    assert!(moved["session"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["path"] == format!("{}/CLAUDE.md", config.display())));
}

#[test]
fn read_answers_what_a_read_attaches_in_order_each_file_once() {
    let value = report(&run(
        &folders(),
        &[
            "--format",
            "json",
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
    // The text format says the same.
    let text = stdout(&run(&folders(), &["--read", "src/web/App.tsx"]));
    assert!(
        text.contains(
            "A Read of ~/work/shop/src/web/App.tsx attaches 2 files and 0 announced skills \
             (390 characters)\n         75  ~/work/shop/src/web/CLAUDE.md\n        123  \
             ~/work/shop/.claude/rules/frontend.md\n"
        ),
        "{text}"
    );
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

/// Issue 10: with a Windows-style mount, a file named `rules\secret.md` is one entry of the
/// folder, and the file behind a link named `rules` that leaves the mount is never read.
#[cfg(unix)]
#[test]
fn a_windows_style_mount_never_reads_through_a_link_out_of_it() {
    let root = TempDir::new("windows-mount");
    root.write(
        "outside/secret.md",
        "A secret of eleven words that must never be measured here.\n",
    );
    root.write("claude/rules\\secret.md", "in the mount\n");
    root.write("claude/CLAUDE.md", "# User\n\n@rules/secret.md\n");
    std::os::unix::fs::symlink(root.0.join("outside"), root.0.join("claude/rules")).unwrap();
    let output = Command::new(MEMDIAG)
        .args([
            "--format",
            "json",
            "--os",
            "windows",
            "--home",
            "C:/Users/alice",
            "--mount",
            &format!("C:/Users/alice/.claude={}", root.0.join("claude").display()),
        ])
        .output()
        .unwrap();
    let value = report(&output);
    let secret = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "C:/Users/alice/.claude/rules/secret.md")
        .expect("the import is a row");
    assert_ne!(secret["status"], "ok", "{secret}");
    assert!(secret["raw"].is_null(), "nothing was read: {secret}");
    let skipped: Vec<&str> = value["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "scan-skipped")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        skipped.iter().any(|m| m.contains("rules\\secret.md")
            && m.contains("1 symbolic link leading outside the mounted folder")),
        "{skipped:?}"
    );
}

#[test]
fn a_simulated_release_says_what_differs_from_the_pinned_one() {
    let json = report(&run(
        &folders(),
        &["--format", "json", "--claude-version", "2.1.83"],
    ));
    assert_eq!(json["rules"]["release"], "2.1.83");
    let comparison = &json["comparison"];
    let appeared: Vec<&str> = comparison["findings_appeared"]
        .as_array()
        .expect("findings that appear")
        .iter()
        .filter_map(|f| f["code"].as_str())
        .collect();
    assert!(appeared.contains(&"rule-paths-joined"), "{appeared:?}");
    let pinned = report(&run(&folders(), &["--format", "json"]));
    assert!(
        pinned["comparison"].is_null(),
        "the pinned release compares with nothing"
    );

    // The text says the same, figure by figure and finding by finding.
    let text = stdout(&run(
        &folders(),
        &["--format", "text", "--claude-version", "2.1.83"],
    ));
    assert!(
        text.contains(&format!(
            "Claude Code 2.1.83 differs from {} here:",
            memdiag_core::PINNED
        )),
        "{text}"
    );
    assert!(
        text.contains("finding only in 2.1.83: rule-paths-joined"),
        "{text}"
    );
    for figure in comparison["figures"].as_array().expect("figures") {
        let base = figure["base"].as_u64().expect("a number");
        assert!(
            text.contains(&memdiag_core::group_digits(base)),
            "{base} missing from:\n{text}"
        );
    }

    let markdown = stdout(&run(
        &folders(),
        &["--format", "markdown", "--claude-version", "2.1.83"],
    ));
    assert!(
        markdown.contains("Simulating Claude Code 2.1.83: it differs from"),
        "{markdown}"
    );

    // Too old a release is an input error: one line, exit 2.
    let refused = run(&folders(), &["--claude-version", "2.1.20"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("2.1.59"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// The setup of issue 33 (the e2e test `tests/e2e/verdict.test.mjs` builds the same): a
/// `MEMORY.md` of 230 index lines linking `n1.md` … `n230.md` of which only the first eight
/// exist, two topic files no line links, a rule no file matches, and the project.
fn verdict_setup() -> TempDir {
    let root = TempDir::new("verdict-setup");
    let memory = ".claude/projects/-home-erin-app/memory";
    root.write(".claude/CLAUDE.md", "# Erin\n\n- Answer briefly.\n");
    root.write(
        ".claude/rules/python.md",
        "---\npaths: [\"**/*.py\"]\n---\nUse type hints.\n",
    );
    root.write(
        "app/CLAUDE.md",
        "# App\n\nRun `make test` before a commit.\n",
    );
    root.write("app/main.go", "package main\n");
    let index: String = (1..=230)
        .map(|i| format!("- [Note {i}](n{i}.md) what was learned, entry {i}\n"))
        .collect();
    root.write(&format!("{memory}/MEMORY.md"), &index);
    for i in 1..=8 {
        root.write(
            &format!("{memory}/n{i}.md"),
            &format!("---\nname: note {i}\ndescription: note {i}\ntype: project\n---\nNote {i}\n"),
        );
    }
    for name in ["old-a.md", "old-b.md"] {
        root.write(
            &format!("{memory}/{name}"),
            &format!("---\nname: {name}\ntype: project\n---\nNobody links this.\n"),
        );
    }
    root
}

fn run_setup(root: &TempDir, extra: &[&str]) -> Output {
    Command::new(MEMDIAG)
        .args(["--home", "/home/erin", "--project", "/home/erin/app"])
        .args(["--today", "2026-11-30", "--color", "never"])
        .arg("--mount")
        .arg(format!(
            "/home/erin/.claude={}",
            root.0.join(".claude").display()
        ))
        .arg("--mount")
        .arg(format!("/home/erin/app={}", root.0.join("app").display()))
        .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
        .args(extra)
        .output()
        .expect("memdiag runs")
}

#[test]
fn text_on_the_issues_setup_opens_on_the_verdict_in_at_most_40_lines() {
    let root = verdict_setup();
    let text = stdout(&run_setup(&root, &[]));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/verdict-setup.txt");
    if std::env::var_os("MEMDIAG_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        text == expected,
        "the text output differs from {} (MEMDIAG_UPDATE_SNAPSHOTS=1 rewrites it; review the \
         diff):\n{text}",
        path.display()
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() <= 40, "{} lines:\n{text}", lines.len());
    // The verdict comes right after the two header lines, the cut first.
    assert_eq!(lines[3], "What is lost or broken");
    assert!(
        lines[4].contains("MEMORY.md loses 30 of its 230 lines (from line 201)"),
        "{}",
        lines[4]
    );
    // Runs of one kind fold: the dead links are one line in the tree and one in findings.
    assert!(
        text.contains("222 index links lead nowhere: n9.md … n230.md"),
        "{text}"
    );
    assert_eq!(text.matches("unresolved-reference").count(), 1, "{text}");

    // --verbose lists every row and every finding.
    let verbose = stdout(&run_setup(&root, &["--verbose"]));
    for i in 1..=230 {
        assert!(verbose.contains(&format!("/memory/n{i}.md")), "n{i}.md");
    }
    assert_eq!(
        verbose.matches("  warning unresolved-reference").count(),
        222
    );

    // The folding changes neither the exit code nor SARIF.
    for extra in [&[][..], &["--verbose"][..]] {
        let gated = run_setup(&root, &[extra, &["--fail-on", "warning"]].concat());
        assert_eq!(gated.status.code(), Some(1));
    }
    // The project moved: its own memory folder is empty, and the old one is named.
    let moved = stdout(
        &Command::new(MEMDIAG)
            .args(["--home", "/home/erin", "--project", "/home/erin/code/app"])
            .args(["--today", "2026-11-30", "--color", "never"])
            .arg("--mount")
            .arg(format!(
                "/home/erin/.claude={}",
                root.0.join(".claude").display()
            ))
            .env_remove("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
            .output()
            .unwrap(),
    );
    assert!(
        moved
            .lines()
            .nth(1)
            .unwrap()
            .contains("moved? -home-erin-app holds 11 files"),
        "{moved}"
    );
    let sarif = report(&run_setup(&root, &["--format", "sarif"]));
    let json = report(&run_setup(&root, &["--format", "json"]));
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        json["diagnostics"].as_array().map(Vec::len)
    );
}
