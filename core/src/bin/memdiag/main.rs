//! `memdiag`: what Claude Code loads in a project on this machine, and what it costs.
//!
//! ```text
//! cargo install --path core --features cli
//! cd my-project && memdiag                  # this machine: $HOME, the current folder
//! memdiag --format sarif --fail-on error    # for code scanning, gating a CI job
//! memdiag --home /home/alice --project /home/alice/app \
//!     --mount /home/alice/.claude=./claude.zip --mount /home/alice/app=./app
//! ```
//!
//! Argument handling, output formats and gating live here; the native reader is in
//! [`local`], the formats in [`text`], [`sarif`] and [`markdown`]. Exit codes: 0 when no
//! gate failed, 1 when one did, 2 for a usage or input error (one line on stderr that
//! starts with `memdiag: `).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::SystemTime;

use memdiag_core::report::{Os, Report};
use memdiag_core::{Input, Severity, VPath};

mod hook;
mod local;
mod markdown;
#[cfg(not(target_arch = "wasm32"))]
mod mcp;
mod sarif;
mod text;
mod verify;

use local::{Mount, Sources};

const USAGE: &str = "\
memdiag: what Claude Code loads in a project, and what it costs

usage: memdiag hook session-start|post-tool-use|instructions-loaded
                                                 (a Claude Code hook: JSON on stdin)
       memdiag statusline                        (a Claude Code status line segment)
       memdiag mcp [--project P] [scan options]  (an MCP server on stdin and stdout)
       memdiag verify LOG [scan options]         (a session's InstructionsLoaded log
                                                  against memdiag's prediction)
       memdiag [--format text|json|sarif|markdown] [--fail-on warning|error]
               [--max-every-session-chars N] [--max-every-session-tokens N]
               [--home H] [--project P] [--config C] [--os linux|macos|windows]
               [--claude-version V] [--today YYYY-MM-DD] [--read PATH ...]
               [--add-dir D ...] [--plugin-dir D ...] [--session interactive|print]
               [--mount VIRTUAL=LOCAL ...] [--color auto|always|never] [--verbose]
               [--share-zip FILE | --share-link] [--keep-names] [--keep-user-name]
               [--keep-text] [--other-projects]

With no --mount, memdiag reads this machine as Claude Code would: the home folder
($HOME, or %USERPROFILE% on Windows), the config folder (CLAUDE_CONFIG_DIR, or
~/.claude), the current folder as the project, the host's managed policy, and
~/.claude.json for one key (whether imports may leave the project). Only the files
the analysis asks for are read; session transcripts never are.

  --format F     text (default): what is lost or broken first, then the files by group
                 with their load icons, what every session carries, the top findings; json: the report (its schema is
                 core/report.schema.json); sarif: SARIF 2.1.0 for code scanning;
                 markdown: a summary for a pull-request comment
  --fail-on S    exit 1 when a finding is at least this severe (warning or error)
  --max-every-session-chars N
                 exit 1 when every session carries more than N characters (UTF-16
                 units, Claude Code's own text around the files included)
  --max-every-session-tokens N
                 the same in estimated tokens (characters / 4; not a tokenizer's count)
  --home H       the home directory (absolute); required with --mount
  --project P    the project directory (default: the current folder; with --mount,
                 none: only user-level files and the memory folders are listed)
  --config C     the Claude config directory, when not <home>/.claude
  --os OS        linux, macos or windows; decides the managed policy path (default:
                 this machine's, or linux with --mount: the snapshot decides)
  --claude-version V
                 the Claude Code release whose rules to apply, such as 2.1.80
  --today D      the date the memory growth projection counts from (default: today, UTC)
  --read PATH    also answer what a Read of PATH (absolute, or relative to the project)
                 attaches; repeatable, answered in order, each file once
  --add-dir D    a folder given to Claude Code with --add-dir: its skills and agents are
                 listed, and with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD=1 its
                 CLAUDE.md, .claude/CLAUDE.md, rules and CLAUDE.local.md are sent; repeatable
  --plugin-dir D a plugin folder given to Claude Code with --plugin-dir: its skills,
                 commands and agents are listed as plugin:name; repeatable
  --session KIND interactive (default) or print: the session the Reads are in is claude -p
                 or the Agent SDK, whose Reads attach nothing before 2.1.69
  --mount V=L    read a snapshot instead of this machine: the folder or .zip file L shown
                 at the absolute path V; repeat for several (the longest V serves a file)
  --color WHEN   colour in text output: auto (default: on a terminal, unless NO_COLOR is
                 set), always or never
  -v, --verbose  text output lists every file and every finding; by default runs of one
                 kind fold into one line (\"210 index links lead nowhere: n21.md … n230.md\")
                 and the findings stop after the most harmful few
  --share-zip FILE
                 instead of the report, write the share zip the page's Share dialog
                 makes (a sanitized copy that opens read-only on the page) to FILE
  --share-link   instead of the report, print the link's payload (the part after #s=)
  --keep-names, --keep-user-name, --keep-text, --other-projects
                 the Share dialog's options (default: names pseudonymised, text
                 replaced, other projects' memory folders left out); with --keep-names
                 the names left visible are listed on stderr
  -h, --help     print this help
  -V, --version  print the version

Exit codes: 0 no gate failed, 1 a gate failed (--fail-on, --max-*), 2 usage or input error.
";

fn main() -> ExitCode {
    let args: Result<Vec<String>, String> = std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| format!("argument {arg:?} is not valid UTF-8"))
        })
        .collect();
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok([first, rest @ ..]) = args.as_deref() {
        if first == "mcp" {
            return mcp::main(rest);
        }
    }
    if let Ok([first, rest @ ..]) = args.as_deref() {
        if first == "verify" {
            return verify::main(rest);
        }
    }
    if let Some(subcommand) = args.as_deref().ok().and_then(hook::Subcommand::of) {
        return match subcommand {
            Ok(subcommand) => hook::main(subcommand),
            Err(message) => {
                eprintln!("memdiag: {message}");
                ExitCode::from(2)
            }
        };
    }
    let command = args.and_then(|args| parse_args(&args, &Host::from_env()));
    match command.and_then(run) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("memdiag: {message}");
            ExitCode::from(2)
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Command {
    Help,
    Version,
    Scan(Box<Scan>),
}

/// The inputs of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Scan {
    input: Input,
    sources: Sources,
    format: Format,
    gates: Gates,
    color: anstream::ColorChoice,
    /// Write a share payload instead of the report.
    share: Option<Share>,
    /// Text output lists every row and finding instead of folding runs of one kind.
    verbose: bool,
}

/// What `--share-zip` or `--share-link` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Share {
    /// The zip's file; `None` for the link.
    zip: Option<PathBuf>,
    options: memdiag_core::SanitizeOptions,
}

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Sarif,
    Markdown,
}

/// The thresholds that make the command exit 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Gates {
    /// Fail when a finding is at least this severe.
    pub(crate) fail_on: Option<Severity>,
    /// Fail when every session carries more characters (UTF-16 units) than this.
    pub(crate) max_chars: Option<u64>,
    /// Fail when every session carries more estimated tokens than this.
    pub(crate) max_tokens: Option<u64>,
}

impl Gates {
    /// One sentence per gate the report fails, in a fixed order.
    pub(crate) fn failures(&self, report: &Report) -> Vec<String> {
        let mut failed = Vec::new();
        if let Some(threshold) = self.fail_on {
            // Severity orders error < warning < info: "at least as severe" is `<=`.
            let count = report
                .diagnostics
                .iter()
                .filter(|d| d.severity <= threshold)
                .count();
            if count > 0 {
                failed.push(format!(
                    "{count} finding{} at {} or above (--fail-on {})",
                    if count == 1 { "" } else { "s" },
                    severity_name(threshold),
                    severity_name(threshold)
                ));
            }
        }
        let cost = report.session.cost;
        if let Some(max) = self.max_chars {
            let chars = cost.total.total();
            if chars > max {
                failed.push(format!(
                    "every session carries {} characters, over the {} of \
                     --max-every-session-chars",
                    text::thousands(chars),
                    text::thousands(max)
                ));
            }
        }
        if let Some(max) = self.max_tokens {
            if cost.tokens_estimate > max {
                failed.push(format!(
                    "every session carries about {} tokens (estimated: characters / 4), over \
                     the {} of --max-every-session-tokens",
                    text::thousands(cost.tokens_estimate),
                    text::thousands(max)
                ));
            }
        }
        failed
    }
}

/// The name of a severity as the report writes it.
pub(crate) fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// What the defaults are taken from: this machine's environment, or a test's.
#[derive(Debug, Clone, Default)]
struct Host {
    home: Option<String>,
    config_dir: Option<String>,
    cwd: Option<PathBuf>,
    os: Option<Os>,
    disable_auto_memory: Option<String>,
    skill_listing_budget: Option<String>,
    additional_claude_md: Option<String>,
    today: Option<String>,
}

impl Host {
    fn from_env() -> Host {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        Host {
            home: if cfg!(windows) {
                var("USERPROFILE").or_else(|| var("HOME"))
            } else {
                var("HOME")
            },
            config_dir: var("CLAUDE_CONFIG_DIR"),
            cwd: std::env::current_dir().ok(),
            os: Some(local::host_os()),
            // Claude Code's loading depends on it and a snapshot's files cannot show it.
            disable_auto_memory: std::env::var("CLAUDE_CODE_DISABLE_AUTO_MEMORY").ok(),
            skill_listing_budget: std::env::var("SLASH_COMMAND_TOOL_CHAR_BUDGET").ok(),
            additional_claude_md: std::env::var("CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD")
                .ok(),
            today: Some(local::utc_date(SystemTime::now())),
        }
    }
}

/// The inputs `memdiag` runs with when started with no arguments in the folder `project`:
/// what the hooks and the status line analyse, set up by the same code as the command.
fn project_scan(project: &str) -> Result<(Input, Sources), String> {
    let args = ["--project".to_owned(), project.to_owned()];
    match parse_args(&args, &Host::from_env())? {
        Command::Scan(scan) => Ok((scan.input, scan.sources)),
        Command::Help | Command::Version => Err("no scan to run".to_owned()),
    }
}

/// Runs a parsed command; the exit code says whether a gate failed.
fn run(command: Command) -> Result<ExitCode, String> {
    let scan = match command {
        Command::Help => {
            write_stdout(USAGE.as_bytes())?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Version => {
            write_stdout(format!("memdiag {}\n", env!("CARGO_PKG_VERSION")).as_bytes())?;
            return Ok(ExitCode::SUCCESS);
        }
        Command::Scan(scan) => scan,
    };
    if let Some(share) = &scan.share {
        return write_share(&scan, share);
    }
    let (report, tree) = local::scan_with_tree(&scan.input, &scan.sources)?;
    // The process ends after this report: its tree and rows are left to the operating system
    // rather than freed one by one (100,000 rules are some 400,000 allocations).
    std::mem::forget(tree);
    let report = std::mem::ManuallyDrop::new(report);
    let failures = scan.gates.failures(&report);
    match scan.format {
        Format::Json => {
            let mut json = serde_json::to_string_pretty(&*report)
                .map_err(|error| format!("cannot write the report as JSON: {error}"))?;
            json.push('\n');
            write_stdout(json.as_bytes())?;
        }
        Format::Sarif => {
            let mut json = serde_json::to_string_pretty(&sarif::render(&report))
                .map_err(|error| format!("cannot write SARIF: {error}"))?;
            json.push('\n');
            write_stdout(json.as_bytes())?;
        }
        Format::Markdown => {
            write_stdout(markdown::render(&report, &failures).as_bytes())?;
        }
        Format::Text => {
            let rendered = text::render(&report, &failures, scan.verbose);
            let mut stdout = anstream::AutoStream::new(std::io::stdout().lock(), scan.color);
            stdout
                .write_all(rendered.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|error| format!("cannot write to stdout: {error}"))?;
        }
    }
    if failures.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    // The machine formats keep stdout clean; the text and markdown ones say it in the body
    // too. Either way the reason is on stderr, for a CI log.
    for failure in &failures {
        eprintln!("memdiag: gate failed: {failure}");
    }
    Ok(ExitCode::from(1))
}

/// Writes the share payload of a scan, as the page's Share dialog would with the same options.
fn write_share(scan: &Scan, share: &Share) -> Result<ExitCode, String> {
    let (report, tree) = local::scan_with_tree(&scan.input, &scan.sources)?;
    let sanitized = memdiag_core::sanitize(&tree, &scan.input, &report, &share.options);
    for warning in &sanitized.warnings {
        eprintln!("memdiag: share: {warning}");
    }
    if share.options.keep_file_names {
        for name in sanitized.visible_names() {
            eprintln!("memdiag: share: visible name: {name}");
        }
    }
    let made = local::iso_8601_utc(SystemTime::now()).unwrap_or_default();
    memdiag_core::share::check_shareable(&sanitized)
        .map_err(|why| format!("this snapshot cannot be shared: {why}"))?;
    match &share.zip {
        Some(file) => {
            let bytes = memdiag_core::to_zip(&sanitized, &made);
            std::fs::write(file, bytes)
                .map_err(|error| format!("cannot write {}: {error}", file.display()))?;
        }
        None => {
            let link = memdiag_core::encode_link(&sanitized, &made);
            memdiag_core::decode_link(&link).map_err(|why| {
                format!("this snapshot cannot be shared as a link ({why}): use --share-zip")
            })?;
            write_stdout(format!("{link}\n").as_bytes())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|error| format!("cannot write to stdout: {error}"))
}

/// Parses the arguments after the program name, taking defaults from `host`.
fn parse_args(args: &[String], host: &Host) -> Result<Command, String> {
    let mut home = None;
    let mut project = None;
    let mut config = None;
    let mut os = None;
    let mut version = None;
    let mut today = None;
    let mut format = None;
    let mut fail_on = None;
    let mut max_chars = None;
    let mut max_tokens = None;
    let mut color = None;
    let mut mounts = Vec::new();
    let mut reads = Vec::new();
    let mut add_dirs = Vec::new();
    let mut plugin_dirs = Vec::new();
    let mut session = None;
    let mut share_zip = None;
    let mut share_link = false;
    let mut verbose = false;
    let mut share_options = memdiag_core::SanitizeOptions::default();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--share-link" => {
                share_link = true;
                continue;
            }
            "-v" | "--verbose" => {
                verbose = true;
                continue;
            }
            "--keep-names" => {
                share_options.keep_file_names = true;
                continue;
            }
            "--keep-user-name" => {
                share_options.keep_user_name = true;
                continue;
            }
            "--keep-text" => {
                share_options.keep_text = true;
                continue;
            }
            "--other-projects" => {
                share_options.other_projects = true;
                continue;
            }
            _ => {}
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
            "--format" => &mut format,
            "--fail-on" => &mut fail_on,
            "--max-every-session-chars" => &mut max_chars,
            "--max-every-session-tokens" => &mut max_tokens,
            "--color" => &mut color,
            "--share-zip" => &mut share_zip,
            "--session" => &mut session,
            "--mount" => {
                let value = value_of(flag, inline, &mut args)?;
                mounts.push(parse_mount(&value)?);
                continue;
            }
            "--read" => {
                reads.push(value_of(flag, inline, &mut args)?);
                continue;
            }
            "--add-dir" => {
                add_dirs.push(value_of(flag, inline, &mut args)?);
                continue;
            }
            "--plugin-dir" => {
                plugin_dirs.push(value_of(flag, inline, &mut args)?);
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
    let format = match format.as_deref() {
        None | Some("text") => Format::Text,
        Some("json") => Format::Json,
        Some("sarif") => Format::Sarif,
        Some("markdown") => Format::Markdown,
        Some(other) => {
            return Err(format!(
                "--format must be text, json, sarif or markdown, not {other:?}"
            ))
        }
    };
    let fail_on = match fail_on.as_deref() {
        None => None,
        Some("error") => Some(Severity::Error),
        Some("warning") => Some(Severity::Warning),
        Some(other) => return Err(format!("--fail-on must be warning or error, not {other:?}")),
    };
    let count = |flag: &str, value: Option<String>| -> Result<Option<u64>, String> {
        value
            .map(|text| {
                text.replace('_', "").parse::<u64>().map_err(|_| {
                    format!("{flag} must be a whole number of 0 or more, not {text:?}")
                })
            })
            .transpose()
    };
    let gates = Gates {
        fail_on,
        max_chars: count("--max-every-session-chars", max_chars)?,
        max_tokens: count("--max-every-session-tokens", max_tokens)?,
    };
    let color = match color.as_deref() {
        None | Some("auto") => anstream::ColorChoice::Auto,
        Some("always") => anstream::ColorChoice::Always,
        Some("never") => anstream::ColorChoice::Never,
        Some(other) => {
            return Err(format!(
                "--color must be auto, always or never, not {other:?}"
            ))
        }
    };
    let os = match os.as_deref() {
        None => None,
        Some("linux") => Some(Os::Linux),
        Some("macos") => Some(Os::Macos),
        Some("windows") => Some(Os::Windows),
        Some(other) => {
            return Err(format!(
                "--os must be linux, macos or windows, not {other:?}"
            ))
        }
    };
    let today = today.or_else(|| host.today.clone());
    let session = match session.as_deref() {
        None => memdiag_core::SessionKind::Interactive,
        Some(text) => {
            memdiag_core::SessionKind::parse(text).map_err(|e| format!("--session: {e}"))?
        }
    };
    let (input, sources) = if mounts.is_empty() {
        // This machine: every path has a default, and relative ones are taken from here.
        let cwd = host.cwd.clone();
        let absolute = |what: &str, raw: String| -> Result<String, String> {
            let path = PathBuf::from(&raw);
            let path = match (&cwd, path.is_absolute()) {
                (_, true) => path,
                (Some(cwd), false) => cwd.join(path),
                (None, false) => return Err(format!("{what} {raw:?} is not absolute")),
            };
            local::vpath_of(&path)
                .map(|p| p.as_str().to_owned())
                .map_err(|error| format!("{what}: {error}"))
        };
        let home = match home.or_else(|| host.home.clone()) {
            Some(home) => absolute("--home", home)?,
            None => return Err("no home folder: set HOME or give --home".to_owned()),
        };
        let config = config
            .or_else(|| host.config_dir.clone())
            .map(|dir| absolute("the config directory", dir))
            .transpose()?;
        let project = match project {
            Some(project) => absolute("--project", project)?,
            None => match &cwd {
                Some(cwd) => local::vpath_of(cwd)
                    .map(|p| p.as_str().to_owned())
                    .map_err(|error| format!("the current folder: {error}"))?,
                None => return Err("cannot tell the current folder: give --project".to_owned()),
            },
        };
        let input = Input {
            home,
            project: Some(project),
            config_dir: config,
            os: os.or(host.os).unwrap_or_default(),
            version,
            today,
            reads,
            disable_auto_memory_env: host.disable_auto_memory.clone(),
            skill_listing_budget_env: host.skill_listing_budget.clone(),
            session,
            additional_dirs: add_dirs
                .into_iter()
                .map(|dir| absolute("--add-dir", dir))
                .collect::<Result<_, _>>()?,
            additional_dirs_claude_md_env: host.additional_claude_md.clone(),
            plugin_dirs: plugin_dirs
                .into_iter()
                .map(|dir| absolute("--plugin-dir", dir))
                .collect::<Result<_, _>>()?,
        };
        (input, Sources::Host)
    } else {
        // A snapshot: nothing of this machine but the environment variable decides.
        let home = home.ok_or("--home is required with --mount (see --help)")?;
        let input = Input {
            home,
            project,
            config_dir: config,
            os: os.unwrap_or_default(),
            version,
            today,
            reads,
            disable_auto_memory_env: host.disable_auto_memory.clone(),
            skill_listing_budget_env: host.skill_listing_budget.clone(),
            session,
            // A snapshot's folders are virtual paths, as --project's.
            additional_dirs: add_dirs,
            additional_dirs_claude_md_env: host.additional_claude_md.clone(),
            plugin_dirs,
        };
        (input, Sources::Mounts(mounts))
    };
    let share = match (share_zip, share_link) {
        (Some(_), true) => return Err("give --share-zip or --share-link, not both".to_owned()),
        (Some(file), false) => Some(Share {
            zip: Some(PathBuf::from(file)),
            options: share_options,
        }),
        (None, true) => Some(Share {
            zip: None,
            options: share_options,
        }),
        (None, false) => {
            if share_options != memdiag_core::SanitizeOptions::default() {
                return Err(
                    "the --keep-* and --other-projects options need --share-zip or --share-link"
                        .to_owned(),
                );
            }
            None
        }
    };
    Ok(Command::Scan(Box::new(Scan {
        input,
        sources,
        format,
        gates,
        color,
        share,
        verbose,
    })))
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

#[cfg(test)]
mod tests;
