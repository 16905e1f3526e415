//! What the shared snapshot keeps, read off the report before anything is renamed: the
//! rows, and what discovery recorded it read, counted or looked up besides them
//! (`Report::sources`), each with the role its record gives it. Nothing here decides again
//! what discovery reads: a file is text exactly when discovery read its text.

use super::*;

/// How a kept file's contents are carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// Text, replaced as the module documents.
    Text(FileKind),
    /// A settings file, reduced to the keys the analysis reads.
    Settings,
    /// A `.git` file: only its `gitdir:` path matters.
    GitFile,
    /// `~/.claude.json`: only the project's external-import approval and the MCP servers'
    /// names and programs are kept.
    ClaudeJson,
    /// An MCP configuration: its servers' names and programs, renamed.
    McpConfig,
    /// A plugin's configuration: the names and paths that decide what loads, renamed.
    PluginConfig,
    /// The analysis never reads it: its size is kept, not its contents.
    SizeOnly,
}

/// Which frontmatter `name` is a name rather than text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileKind {
    /// A `SKILL.md`: its `name` is the skill's name.
    Skill,
    /// A sub-agent definition: its `name` keys the agent's memory folder.
    Agent,
    /// Anything else.
    Other,
}

/// What the shared snapshot will hold, decided from the report before anything is renamed.
pub(super) struct Plan {
    pub(super) files: BTreeMap<VPath, Role>,
    pub(super) dirs: BTreeSet<VPath>,
    pub(super) mounts: Vec<VPath>,
    /// The rows `claudeMdExcludes` may be matched against: every one that exists. Discovery
    /// matches the patterns against the instruction files and rules it reaches, imports
    /// included; a renamed pattern must exclude the same of these.
    pub(super) exclude_candidates: Vec<String>,
    /// Other projects' memory folders left out.
    pub(super) left_out_folders: BTreeSet<String>,
    /// The files whose modification day the growth chart read ([`ReadFor::Dated`]): the
    /// only ones that keep their day.
    pub(super) dated: BTreeSet<VPath>,
}

impl Plan {
    pub(super) fn new(tree: &Tree, report: &Report, options: &SanitizeOptions) -> Plan {
        let path = |s: &str| VPath::new(s).ok();
        let mut plan = Plan {
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            mounts: Vec::new(),
            exclude_candidates: Vec::new(),
            left_out_folders: BTreeSet::new(),
            dated: BTreeSet::new(),
        };
        let left_out = plan.leave_out_folders(report, options);
        let is_left_out = |at: &VPath| left_out.iter().any(|root| at.starts_with(root));
        let why: BTreeMap<&str, ReadFor> = report
            .sources
            .iter()
            .map(|source| (source.path.as_str(), source.why))
            .collect();

        for row in &report.files {
            let Some(file) = path(&row.path).filter(|p| tree.is_file(p)) else {
                continue;
            };
            let role = if why.get(row.path.as_str()) == Some(&ReadFor::Unread) {
                Role::SizeOnly
            } else if row.skill_name.is_some() {
                // Discovery listed it as a skill, by the name its frontmatter gives.
                Role::Text(FileKind::Skill)
            } else {
                Role::Text(FileKind::Other)
            };
            plan.files.entry(file).or_insert(role);
            plan.exclude_candidates.push(row.path.clone());
        }

        for source in &report.sources {
            let Some(at) = path(&source.path).filter(|at| !is_left_out(at)) else {
                continue;
            };
            if source.why == ReadFor::Mount {
                plan.mounts.push(at);
                continue;
            }
            if source.why.is_folder() {
                if tree.is_dir(&at) {
                    plan.dirs.insert(at);
                }
                continue;
            }
            if !tree.is_file(&at) {
                continue;
            }
            if source.why == ReadFor::Dated {
                plan.dated.insert(at.clone());
            }
            let role = match source.why {
                ReadFor::Settings => Role::Settings,
                ReadFor::ClaudeJson => Role::ClaudeJson,
                ReadFor::McpConfig => Role::McpConfig,
                ReadFor::PluginConfig => Role::PluginConfig,
                ReadFor::GitFile => Role::GitFile,
                ReadFor::AgentDefinition => Role::Text(FileKind::Agent),
                ReadFor::Text => Role::Text(FileKind::Other),
                _ => Role::SizeOnly,
            };
            // A settings layer that is also a row (the managed settings) is carried as
            // settings.
            if source.why.reads_text() {
                plan.files.insert(at, role);
            } else {
                plan.files.entry(at).or_insert(role);
            }
        }

        // A finding may name a file that is no row (one Claude Code never reads) or another
        // project's folder (a collision, a lookalike): it stays, so that the finding does.
        for finding in &report.diagnostics {
            let named = finding.path.iter().chain(match &finding.data {
                Some(DiagnosticData::Paths { paths }) => paths.as_slice(),
                _ => &[],
            });
            for at in named.filter_map(|p| path(p)) {
                if tree.is_file(&at) {
                    plan.files.entry(at).or_insert(Role::SizeOnly);
                } else if tree.is_dir(&at) {
                    plan.dirs.insert(at);
                }
            }
        }
        plan
    }

    /// The roots of the memory folders of other projects that the share leaves out (unless
    /// [`SanitizeOptions::other_projects`]): every one but this project's and those a
    /// finding names (a collision, a lookalike), whose counts the finding needs.
    fn leave_out_folders(&mut self, report: &Report, options: &SanitizeOptions) -> Vec<VPath> {
        let Ok(base) = VPath::new(&report.context.projects_base) else {
            return Vec::new();
        };
        if options.other_projects {
            return Vec::new();
        }
        let named: Vec<VPath> = report
            .diagnostics
            .iter()
            .filter_map(|d| match &d.data {
                Some(DiagnosticData::Paths { paths }) => Some(paths),
                _ => None,
            })
            .flatten()
            .chain(report.diagnostics.iter().filter_map(|d| d.path.as_ref()))
            .filter_map(|p| VPath::new(p).ok())
            .collect();
        let mut roots = Vec::new();
        for folder in report.memory_folders.iter().filter(|f| !f.current) {
            let Ok(root) = base.join(&folder.name) else {
                continue;
            };
            if !named.iter().any(|p| p.starts_with(&root)) {
                self.left_out_folders.insert(folder.name.clone());
                roots.push(root);
            }
        }
        roots
    }
}
