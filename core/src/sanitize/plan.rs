//! What the shared snapshot keeps, decided from the report before anything is renamed:
//! every file and folder the analysis listed or read, and the role each plays.

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
    /// `~/.claude.json`: only the project's external-import approval is kept.
    ClaudeJson,
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
    /// Top-level CLAUDE.md-family and rule rows that `claudeMdExcludes` is matched against.
    pub(super) exclude_candidates: Vec<String>,
    /// The project, when the snapshot covers it: rules' globs are matched against its files.
    pub(super) project: Option<VPath>,
    /// Each conditional rule's globs, and whether a file of the project matched them.
    pub(super) rules: Vec<(Vec<String>, bool)>,
    /// Other projects' memory folders left out.
    pub(super) left_out_folders: BTreeSet<String>,
}

/// Files kept per conditional rule to show that its globs match something.
pub(super) const RULE_WITNESSES: usize = 3;

impl Plan {
    pub(super) fn new(
        tree: &Tree,
        input: &Input,
        report: &Report,
        options: &SanitizeOptions,
    ) -> Plan {
        let path = |s: &str| VPath::new(s).ok();
        let home = path(&input.home).or_else(|| path(&report.context.home));
        let config = match &input.config_dir {
            Some(dir) => path(dir),
            None => home.as_ref().map(|h| h.child(".claude")),
        };
        let project = input.project.as_deref().and_then(path);
        let mut plan = Plan {
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            mounts: tree.mounts().cloned().collect(),
            exclude_candidates: Vec::new(),
            project: project.clone().filter(|p| tree.is_covered(p)),
            rules: Vec::new(),
            left_out_folders: BTreeSet::new(),
        };

        for row in &report.files {
            if row.size.is_none() {
                continue;
            }
            let Some(file) = path(&row.path).filter(|p| tree.is_file(p)) else {
                continue;
            };
            let size = tree.file(&file).map_or(0, |f| f.size);
            // Bulk data, files over the read cap and CLAUDE.md files over 4 MiB are never
            // read, so their contents would only make the payload larger.
            let role = if file.extension() == Some("jsonl")
                || size > READ_CAP_BYTES
                || row.status == FileStatus::Skipped
            {
                Role::SizeOnly
            } else if file.file_name() == "SKILL.md" {
                Role::Text(FileKind::Skill)
            } else {
                Role::Text(FileKind::Other)
            };
            plan.files.entry(file).or_insert(role);
            if row.depth == 0 && matches!(row.group, Group::User | Group::Project | Group::Rules) {
                plan.exclude_candidates.push(row.path.clone());
            }
        }
        for row in &report.files {
            for site in &row.references {
                let Some(resolved) = site.resolved.as_deref().and_then(path) else {
                    continue;
                };
                if site.exists && tree.is_file(&resolved) {
                    // Listed past the depth the analysis reads: it must exist, nothing more.
                    plan.files.entry(resolved).or_insert(Role::SizeOnly);
                } else if tree.is_dir(&resolved) {
                    // A link to a folder lists no row only because the folder exists.
                    plan.dirs.insert(resolved);
                }
            }
        }

        // What discovery read besides the rows, as it recorded it (`Report::sources`): the
        // settings layers, `~/.claude.json`, the `.git` that decides the git root.
        for source in &report.sources {
            let Some(at) = path(&source.path) else {
                continue;
            };
            match source.why {
                ReadFor::GitDir if tree.is_dir(&at) => {
                    plan.dirs.insert(at);
                }
                ReadFor::GitFile if tree.is_file(&at) => {
                    plan.files.insert(at, Role::GitFile);
                }
                ReadFor::Settings if tree.is_file(&at) => {
                    plan.files.insert(at, Role::Settings);
                }
                ReadFor::ClaudeJson if tree.is_file(&at) => {
                    plan.files.insert(at, Role::ClaudeJson);
                }
                ReadFor::Text if tree.is_file(&at) => {
                    let agent = report.health.agents.iter().any(|a| a.path == source.path);
                    let kind = if at.file_name() == "SKILL.md" {
                        FileKind::Skill
                    } else if agent {
                        FileKind::Agent
                    } else {
                        FileKind::Other
                    };
                    let size = tree.file(&at).map_or(0, |f| f.size);
                    let role = if size > READ_CAP_BYTES {
                        Role::SizeOnly
                    } else {
                        Role::Text(kind)
                    };
                    plan.files.entry(at).or_insert(role);
                }
                _ => {}
            }
        }

        for agent in &report.health.agents {
            if let Some(file) = path(&agent.path).filter(|p| tree.is_file(p)) {
                plan.files
                    .entry(file)
                    .or_insert(Role::Text(FileKind::Agent));
            }
        }

        if let Some(base) = path(&report.context.projects_base) {
            // A folder a finding names (a collision, a lookalike) stays with its counts, so
            // that the finding does.
            let named: BTreeSet<&str> = report
                .diagnostics
                .iter()
                .filter_map(|d| match &d.data {
                    Some(DiagnosticData::Paths { paths }) => Some(paths),
                    _ => None,
                })
                .flatten()
                .chain(report.diagnostics.iter().filter_map(|d| d.path.as_ref()))
                .map(String::as_str)
                .collect();
            for folder in &report.memory_folders {
                let Ok(root) = base.join(&folder.name) else {
                    continue;
                };
                let is_named = named
                    .iter()
                    .any(|p| path(p).is_some_and(|p| p == root || p.starts_with(&root)));
                if !(folder.current || options.other_projects || is_named) {
                    plan.left_out_folders.insert(folder.name.clone());
                    continue;
                }
                let memory = root.child("memory");
                for (file, _) in tree.files_under(&memory) {
                    if file.extension() == Some("md") {
                        plan.files.entry(file.clone()).or_insert(Role::SizeOnly);
                    }
                }
                plan.dirs.insert(memory);
            }
        }
        let mut agent_memory = Vec::new();
        if let Some(config) = &config {
            agent_memory.push(config.child("agent-memory"));
        }
        if let Some(project) = &project {
            agent_memory.push(project.child(".claude").child("agent-memory"));
            agent_memory.push(project.child(".claude").child("agent-memory-local"));
        }
        for root in agent_memory {
            for name in tree.child_dirs(&root) {
                plan.dirs.insert(root.child(&name));
            }
        }
        for diagnostic in &report.diagnostics {
            // Findings that name other folders (a colliding project, a lookalike memory
            // folder) need those to exist in the shared snapshot too.
            if let Some(DiagnosticData::Paths { paths }) = &diagnostic.data {
                for named in paths.iter().filter_map(|p| path(p)) {
                    if tree.is_file(&named) {
                        plan.files.entry(named).or_insert(Role::SizeOnly);
                    } else if tree.is_dir(&named) {
                        plan.dirs.insert(named);
                    }
                }
            }
        }
        plan.rule_witnesses(tree, report);
        // A finding about a file that is not a row (one Claude Code never reads) needs only
        // the file to exist.
        for finding in &report.diagnostics {
            if let Some(file) = finding
                .path
                .as_deref()
                .and_then(path)
                .filter(|p| tree.is_file(p))
            {
                plan.files.entry(file).or_insert(Role::SizeOnly);
            }
        }

        plan
    }

    /// The health view warns about a conditional rule whose globs match no file of the
    /// project. For each rule that does match, a few matching files are kept (by size only),
    /// the files it already keeps first, so that the shared snapshot tells the same.
    pub(super) fn rule_witnesses(&mut self, tree: &Tree, report: &Report) {
        let Some(project) = self.project.clone() else {
            return;
        };
        let rules: Vec<(Vec<String>, Vec<Glob>)> = report
            .files
            .iter()
            .filter(|r| r.group == Group::Rules && r.depth == 0 && r.load == LoadType::Conditional)
            .map(|r| {
                let globs = r.paths.clone().unwrap_or_default();
                let compiled = globs.iter().filter_map(|g| Glob::new(g).ok()).collect();
                (globs, compiled)
            })
            .filter(|(_, compiled): &(Vec<String>, Vec<Glob>)| !compiled.is_empty())
            .collect();
        let project_files: Vec<(VPath, String)> = tree
            .files_under(&project)
            .filter_map(|(p, _)| Some((p.clone(), p.strip_prefix(&project)?.to_owned())))
            .filter(|(_, relative)| !relative.starts_with(".git/"))
            .take(RULE_MATCH_FILES)
            .collect();
        for (globs, compiled) in rules {
            let matches = |relative: &str| compiled.iter().any(|g| g.matches_relative(relative));
            let matching: Vec<&VPath> = project_files
                .iter()
                .filter(|(_, relative)| matches(relative))
                .map(|(path, _)| path)
                .collect();
            let kept = matching
                .iter()
                .filter(|p| self.files.contains_key(**p))
                .count();
            for path in matching.iter().take(RULE_WITNESSES.saturating_sub(kept)) {
                self.files.entry((*path).clone()).or_insert(Role::SizeOnly);
            }
            self.rules.push((globs, !matching.is_empty()));
        }
    }
}
