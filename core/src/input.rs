//! What the analysis is told about the host, and those facts resolved for one pass.
//!
//! [`Input`] is what a host hands in (home, project, config folder, OS, the release to
//! simulate, today, the environment variables it knows, the files whose Read to answer,
//! the extra folders); [`resolve`] checks it and turns it into the [`Paths`] every discovery
//! stage reads. Nothing here looks at the tree: the analysis loop (`analyze`) and discovery
//! both depend on this module, never the other way round.

use crate::date;
use crate::report::Os;
use crate::version::{ClaudeVersion, Rules, Unsimulated};
use crate::vpath::VPath;

/// What the analysis is told about the host; everything else comes from the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    /// The home directory, absolute (`/home/alice`, `C:/Users/alice`).
    pub home: String,
    /// The project directory, absolute. Without one only user-level sources and the memory
    /// folders are listed.
    pub project: Option<String>,
    /// The Claude config directory; `<home>/.claude` when `None` (as `CLAUDE_CONFIG_DIR`).
    pub config_dir: Option<String>,
    /// The operating system; it decides the managed policy path.
    pub os: Os,
    /// The Claude Code release whose rules to apply (`2.1.80`); the current rules when `None`.
    pub version: Option<String>,
    /// Today's date (`2026-11-30`), for the growth projection. The core never reads a clock.
    pub today: Option<String>,
    /// The value of `CLAUDE_CODE_DISABLE_AUTO_MEMORY` in the environment Claude Code runs
    /// in, when the caller knows it (the scan command does; a dropped folder cannot say).
    pub disable_auto_memory_env: Option<String>,
    /// The value of `SLASH_COMMAND_TOOL_CHAR_BUDGET`, the skills listing's budget in
    /// columns, when the caller knows it.
    pub skill_listing_budget_env: Option<String>,
    /// Files whose Read the report answers ([`crate::Report::reads`]): absolute, or relative to
    /// the project.
    pub reads: Vec<String>,
    /// How the session whose Reads are answered was started: on some releases a Read
    /// attaches nothing in a `claude -p` or SDK session ([`SessionKind`]).
    pub session: SessionKind,
    /// Folders given with `--add-dir`, absolute: their skills and agents are listed, and
    /// with [`Input::additional_dirs_claude_md_env`] set their instruction files are sent.
    /// (`permissions.additionalDirectories` in the settings loads none of this.)
    pub additional_dirs: Vec<String>,
    /// The value of `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD`, when the caller knows it.
    pub additional_dirs_claude_md_env: Option<String>,
    /// Folders given with `--plugin-dir`, absolute: each loads as an enabled plugin.
    pub plugin_dirs: Vec<String>,
}

/// How a Claude Code session was started, which on some releases decides what a Read
/// attaches ([`crate::Behaviour::PrintSessionReadsAttach`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SessionKind {
    /// `claude` in a terminal: the page's and the command's default.
    #[default]
    Interactive,
    /// `claude -p` or the Agent SDK: the conformance captures are these.
    Print,
}

impl SessionKind {
    /// Parses `interactive` or `print` (also `-p` and `sdk`).
    ///
    /// # Errors
    /// Any other word, with a message for a person.
    pub fn parse(text: &str) -> Result<SessionKind, String> {
        match text.trim() {
            "interactive" => Ok(SessionKind::Interactive),
            "print" | "-p" | "sdk" => Ok(SessionKind::Print),
            other => Err(format!(
                "{other:?} is not a session kind: interactive, or print (claude -p and SDK)"
            )),
        }
    }
}

/// The resolved inputs of one pass: [`Input`] checked, its paths made [`VPath`]s, its release
/// turned into [`Rules`].
#[derive(Debug, Clone)]
pub(crate) struct Paths {
    pub(crate) home: VPath,
    pub(crate) config: VPath,
    pub(crate) project: Option<VPath>,
    pub(crate) os: Os,
    /// The loading rules of the simulated release.
    pub(crate) rules: Rules,
    /// The simulated release, for messages; `None` for current.
    pub(crate) version: Option<ClaudeVersion>,
    /// Today as a day number, for the growth projection.
    pub(crate) today: Option<i64>,
    /// The files whose Read the report answers, each as given and where it leads.
    pub(crate) reads: Vec<ReadPath>,
    /// `CLAUDE_CODE_DISABLE_AUTO_MEMORY`, when known.
    pub(crate) disable_auto_memory_env: Option<String>,
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET`, when known.
    pub(crate) skill_listing_budget_env: Option<String>,
    /// How the session was started, for what a Read attaches.
    pub(crate) session: SessionKind,
    /// `--add-dir` folders.
    pub(crate) additional_dirs: Vec<VPath>,
    /// `--plugin-dir` folders.
    pub(crate) plugin_dirs: Vec<VPath>,
    /// `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD` is set: their instruction files load.
    pub(crate) additional_claude_md: bool,
}

impl Paths {
    /// Whether a Read attaches anything in this pass's session: always in an interactive
    /// one; in a `claude -p` or SDK one from 2.1.69 (2.1.68's code gives the print
    /// session's tools no set to collect what a Read makes relevant, its interactive session
    /// one).
    pub(crate) fn reads_attach(&self) -> bool {
        self.session == SessionKind::Interactive
            || self
                .rules
                .has(crate::version::Behaviour::PrintSessionReadsAttach)
    }
}

/// Why an [`Input`] cannot start an analysis ([`crate::AnalyzeError`] says it to the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InputError {
    /// A path is not absolute or climbs above its root, or a field does not parse.
    Bad(String),
    /// The release to simulate is older than the first one measured.
    Unsimulated(Unsimulated),
}

/// Resolves `input` into the [`Paths`] of one pass.
///
/// # Errors
/// A path that is not a valid absolute path, a release or day that does not parse, a
/// release older than the first one simulated.
pub(crate) fn resolve(input: &Input) -> Result<Paths, InputError> {
    let absolute = |what: &str, raw: &str| {
        VPath::new(raw).map_err(|error| InputError::Bad(format!("{what}: {error}")))
    };
    let home = absolute("home", &input.home)?;
    let config = match &input.config_dir {
        Some(dir) => absolute("config directory", dir)?,
        None => home.child(".claude"),
    };
    let project = match &input.project {
        Some(project) => Some(absolute("project", project)?),
        None => None,
    };
    let version = match input.version.as_deref().map(str::trim) {
        None | Some("") | Some("current") => None,
        Some(text) => Some(ClaudeVersion::parse(text).map_err(InputError::Bad)?),
    };
    let today = match &input.today {
        None => None,
        Some(text) => Some(date::parse_day(text).ok_or_else(|| {
            InputError::Bad(format!("today: {text:?} is not a date like 2026-11-30"))
        })?),
    };
    let reads = input
        .reads
        .iter()
        .map(|raw| ReadPath::resolve(raw, project.as_ref()))
        .collect();
    Ok(Paths {
        home,
        config,
        project,
        os: input.os,
        rules: Rules::of(version).map_err(InputError::Unsimulated)?,
        version,
        today,
        reads,
        disable_auto_memory_env: input.disable_auto_memory_env.clone(),
        skill_listing_budget_env: input.skill_listing_budget_env.clone(),
        session: input.session,
        additional_dirs: input
            .additional_dirs
            .iter()
            .map(|dir| absolute("additional directory", dir))
            .collect::<Result<_, _>>()?,
        plugin_dirs: input
            .plugin_dirs
            .iter()
            .map(|dir| absolute("plugin directory", dir))
            .collect::<Result<_, _>>()?,
        additional_claude_md: input
            .additional_dirs_claude_md_env
            .as_deref()
            .is_some_and(is_truthy),
    })
}

/// A file whose Read the report answers: as the host gave it, and where it leads.
#[derive(Debug, Clone)]
pub(crate) struct ReadPath {
    /// As given (absolute, or relative to the project).
    pub(crate) raw: String,
    /// Where it leads.
    pub(crate) target: ReadTarget,
}

/// Where a Read's path leads.
#[derive(Debug, Clone)]
pub(crate) enum ReadTarget {
    /// There is no project folder, so nothing attaches (the path is not looked at).
    NoProject,
    /// Neither an absolute path nor one inside the project: why.
    NotAPath(String),
    /// The absolute path read.
    At(VPath),
}

impl ReadPath {
    /// Resolves `raw` as absolute, else relative to `project`.
    fn resolve(raw: &str, project: Option<&VPath>) -> ReadPath {
        let target = match project {
            None => ReadTarget::NoProject,
            Some(project) => match VPath::new(raw).or_else(|_| project.join(raw)) {
                Ok(target) => ReadTarget::At(target),
                Err(error) => ReadTarget::NotAPath(error.to_string()),
            },
        };
        ReadPath {
            raw: raw.to_owned(),
            target,
        }
    }
}

/// How Claude Code reads a boolean environment variable: `1`, `true`, `yes`, `on`.
pub(crate) fn is_truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}
