//! The host facts the analysis runs with as the page's fields hold them ([`Inputs`]), a
//! scan's [`Progress`], and how a source and a shared snapshot are listed: what the page's
//! state, the analysis worker and the messages between them share.

use memdiag_core::report::Os;
use memdiag_core::{Input, VPath};

/// Progress of a scan, shown while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Files listed so far.
    pub entries: u64,
    /// Files whose contents were read.
    pub files_read: u64,
    /// Bytes read.
    pub bytes_read: u64,
    /// Files the analysis is waiting for in its current round: their sizes being looked up,
    /// then their contents being read.
    pub files_to_go: u64,
}

/// The host facts the analysis runs with, as the editable fields hold them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// The home directory.
    pub home: String,
    /// The project to analyse; empty for none.
    pub project: String,
    /// The operating system.
    pub os: Os,
    /// The config directory; empty for `<home>/.claude`.
    pub config_dir: String,
    /// Where the dropped project folder is mounted, if one was dropped.
    pub project_mount: Option<String>,
    /// The Claude Code release whose rules the analysis applies (`2.1.82`); `None` for the
    /// current rules.
    pub version: Option<String>,
    /// Files whose Read the report answers (the Reads view's question): absolute, or
    /// relative to the project.
    pub reads: Vec<String>,
    /// Extra directories, as `claude --add-dir` takes them, separated by commas: their
    /// skills, commands and agents load too.
    pub add_dirs: String,
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs {
            home: "/home/user".to_owned(),
            project: String::new(),
            os: Os::Linux,
            config_dir: String::new(),
            project_mount: None,
            version: None,
            reads: Vec::new(),
            add_dirs: String::new(),
        }
    }
}

impl Inputs {
    /// The analysis input these fields describe.
    pub fn to_input(&self) -> Input {
        let non_empty = |s: &str| {
            let s = s.trim();
            (!s.is_empty()).then(|| s.to_owned())
        };
        Input {
            home: self.home.trim().to_owned(),
            project: non_empty(&self.project),
            config_dir: non_empty(&self.config_dir),
            os: self.os,
            version: self.version.clone(),
            reads: self.reads.clone(),
            additional_dirs: (self.add_dirs.split(',')).filter_map(non_empty).collect(),
            ..Input::default()
        }
    }

    /// The config directory the analysis uses.
    pub fn effective_config_dir(&self) -> String {
        match self.config_dir.trim() {
            "" => format!("{}/.claude", self.home.trim().trim_end_matches('/')),
            dir => dir.to_owned(),
        }
    }

    /// Where an added `~/.claude.json` goes for these fields (see [`claude_json_path`]);
    /// `None` while the home or config dir field holds no absolute path.
    pub fn claude_json_path(&self) -> Option<VPath> {
        let input = self.to_input();
        claude_json_path(&input.home, input.config_dir.as_deref())
    }

    /// Where an added `~/.claude.json` goes, as the page says it: `~/.claude.json`, or the
    /// whole path inside a moved config folder.
    pub fn claude_json_place(&self) -> String {
        let at_home = claude_json_path(&self.home, None);
        match self.claude_json_path() {
            Some(path) if Some(&path) != at_home.as_ref() => path.as_str().to_owned(),
            _ => "~/.claude.json".to_owned(),
        }
    }

    /// The fields after the person typed `project` into the project field.
    ///
    /// While the dropped project folder is the one analysed, the field says where that folder
    /// lives, so its mount moves with it.
    pub fn with_project(&self, project: String) -> Inputs {
        let mut next = self.clone();
        if self.project_mount.is_some()
            && self.project_mount.as_deref() == Some(self.project.as_str())
        {
            next.project_mount = Some(project.clone());
        }
        next.project = project;
        next
    }
}

/// Where the analysis looks for `~/.claude.json` with this home and config dir (`None` for
/// `<home>/.claude`): `<home>/.claude.json`, or `<config>/.claude.json` once the config
/// folder is moved, as Claude Code does with `CLAUDE_CONFIG_DIR`. An added file is placed
/// there, so it follows the home and config dir fields. `None` when a path is not absolute.
pub fn claude_json_path(home: &str, config_dir: Option<&str>) -> Option<VPath> {
    let home = VPath::new(home.trim()).ok()?;
    let default = home.child(".claude");
    let config = match config_dir.map(str::trim).filter(|d| !d.is_empty()) {
        Some(dir) => VPath::new(dir).ok()?,
        None => default.clone(),
    };
    Some(if config == default {
        home.child(".claude.json")
    } else {
        config.child(".claude.json")
    })
}

/// A source as the top bar lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceInfo {
    /// The folder or zip name.
    pub label: String,
    /// `folder`, `zip` or `demo`.
    pub kind: &'static str,
    /// `config`, `project` or `demo`.
    pub role: &'static str,
    /// Files listed.
    pub files: usize,
    /// True when Refresh can read it again.
    pub rereadable: bool,
}

/// Where a shared snapshot came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SharedFrom {
    /// A link's `#s=` fragment.
    Link,
    /// A share zip, by its file name.
    File(String),
}

/// The analysis input the fields describe, on the day `today` (`YYYY-MM-DD`).
pub fn run_input(inputs: &Inputs, today: &str) -> Input {
    let mut input = inputs.to_input();
    input.today = Some(today.to_owned());
    input
}
