//! One `.claude/rules/` folder: every `.md` file below it is a rule; a rule whose `paths`
//! is missing, empty or all `**` (after dropping a trailing `/**` from each pattern) loads
//! with its folder, any other rule when Claude reads a file its globs match, relative to
//! the folder that holds `.claude/` (the project, for the user's rules).

use super::{Discovery, Node, Sent};
use crate::report::{Code, Diagnostic, Group, LoadType, Scope, Severity};
use crate::text::frontmatter;
use crate::text::glob::Glob;
use crate::version::Behaviour;
use crate::vpath::VPath;

impl Discovery<'_> {
    /// The rules under `dir`; `sent` is when the unconditional ones load.
    pub(super) fn rules(&mut self, dir: &VPath, scope: Scope, sent: Sent) -> Vec<Node> {
        // A rules folder that is a link, when followed, gives its rules under their target's
        // paths.
        let listed = match self.tree.link_target(dir) {
            Some(target) if self.follows_linked_rules(target, scope, sent) => target.clone(),
            Some(_) => return Vec::new(),
            None => dir.clone(),
        };
        // Each rule by where the walk meets it (its order), and the path it loads under: a
        // link inside the folder loads under its target's path, a linked subfolder gives
        // its target's rules, and from 2.1.232 a link leading out is skipped as a linked
        // rules folder is (`linked-rules-confined`, measured on project rules without
        // approval; the user's rules and approved imports are taken to follow the folder's
        // rule).
        let mut met: Vec<(VPath, VPath)> = Vec::new();
        for (path, _) in self.tree.files_under(&listed) {
            if path.extension() != Some("md") {
                continue;
            }
            match self.tree.link_target(path) {
                Some(target) if !self.follows_linked_rules(target, scope, sent) => {}
                Some(target) if self.tree.is_file(target) => {
                    met.push((path.clone(), target.clone()));
                }
                _ => met.push((path.clone(), path.clone())),
            }
        }
        let folder_links: Vec<(VPath, VPath)> = self
            .tree
            .links_under(&listed)
            .filter(|(_, target)| self.tree.is_dir(target))
            .map(|(link, target)| (link.clone(), target.clone()))
            .collect();
        for (link, target) in folder_links {
            if !self.follows_linked_rules(&target, scope, sent) {
                continue;
            }
            for (path, _) in self.tree.files_under(&target) {
                if path.extension() != Some("md") {
                    continue;
                }
                let rest = path.strip_prefix(&target).unwrap_or_default();
                if let Ok(at) = link.join(rest) {
                    met.push((at, path.clone()));
                }
            }
        }
        // In the tree's order, which a shared snapshot carries from its original.
        met.sort_by(|a, b| self.tree.cmp_paths(&a.0, &b.0).then_with(|| a.1.cmp(&b.1)));
        let paths: Vec<VPath> = met.into_iter().map(|(_, path)| path).collect();
        let mut nodes = Vec::new();
        for path in paths {
            if !self.top_level.insert(path.clone()) {
                continue;
            }
            let pattern = (scope != Scope::Managed)
                .then(|| self.exclude_pattern(&path))
                .flatten();
            let unconditional_load = match sent {
                Sent::AtStartup => LoadType::Always,
                Sent::OnReadBelow => LoadType::Tree,
            };
            let mut node = self.file_node(
                &path,
                Group::Rules,
                unconditional_load,
                Some(scope),
                pattern.is_none(),
            );
            let globs = self.rule_globs(&path);
            if globs.is_empty() {
                self.note_sent(&path, sent);
            } else {
                node.row.load = LoadType::Conditional;
            }
            node.row.paths = Some(globs);
            if let Some(pattern) = pattern {
                self.mark_excluded(&mut node.row, &pattern);
            }
            nodes.push(node);
        }
        nodes
    }

    /// Whether a `.claude/rules` linked to `target`, or a link inside one, is followed.
    /// Before 2.1.232, always.
    /// From 2.1.232 (its rules walk checks `isSymbolicLink()`), only when the target is
    /// inside the working folder, or the walk may leave it: always for the user's rules
    /// folder, once external imports are approved for the startup walk's others, never
    /// for the folders a Read reaches.
    fn follows_linked_rules(&self, target: &VPath, scope: Scope, sent: Sent) -> bool {
        let inside = self
            .paths
            .project
            .as_ref()
            .is_some_and(|project| target.starts_with(project));
        let may_leave = match (scope, sent) {
            (Scope::User, _) => true,
            (_, Sent::AtStartup) => self.settings.external_imports_approved == Some(true),
            (_, Sent::OnReadBelow) => false,
        };
        !self.paths.rules.has(Behaviour::LinkedRulesConfined) || inside || may_leave
    }

    /// A rule's `paths` globs as the simulated release reads them; empty for a rule that
    /// loads unconditionally.
    fn rule_globs(&mut self, path: &VPath) -> Vec<String> {
        let Some(value) = self
            .frontmatter_of(path)
            .and_then(|fm| fm.value("paths").cloned())
        else {
            return Vec::new();
        };
        let written = frontmatter::parse_paths(&value);
        if self.paths.rules.paths_list || !value.is_sequence() || written.len() < 2 {
            return effective_globs(written);
        }
        // Before 2.1.84 a YAML list was joined into one pattern as written, so that even
        // two `**` items made a conditional rule.
        let joined = written.concat();
        self.diagnostics.push(Diagnostic::new(
            Code::RulePathsJoined,
            Severity::Warning,
            Some(path.as_str()),
            format!(
                "{} reads a paths list as the single pattern {joined:?}, so the rule loads \
                 only for files that pattern matches: write the globs as one comma-separated \
                 string",
                self.version_name()
            ),
        ));
        vec![joined]
    }
}

/// True when `relative` (a path relative to the rule's base folder) matches the rule's
/// globs as the program matches them, with the `ignore` package: gitignore rules, case
/// ignored, a `!pattern` taking back what earlier patterns matched, the last match winning.
pub(super) fn globs_match(globs: &[String], relative: &str) -> bool {
    let relative = relative.to_lowercase();
    let mut matched = false;
    for pattern in globs {
        let (negated, glob) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern.as_str()),
        };
        if Glob::new(&glob.to_lowercase()).is_ok_and(|g| g.matches_relative(&relative)) {
            matched = !negated;
        }
    }
    matched
}

impl Discovery<'_> {
    /// The folder a rule's globs match from: the one that holds its `.claude/`, or the
    /// project for the user's and the managed policy's rules.
    pub(super) fn rule_base(&self, rule: &VPath, project: &VPath) -> VPath {
        if rule.starts_with(&self.paths.config.child("rules"))
            || rule.starts_with(&self.managed_dir())
        {
            project.clone()
        } else {
            super::family_dir(rule)
        }
    }
}

/// The patterns Claude Code matches: each without a trailing `/**`; none at all when every
/// pattern is `**`, which makes the rule unconditional.
pub(super) fn effective_globs(globs: Vec<String>) -> Vec<String> {
    let globs: Vec<String> = globs
        .into_iter()
        .map(|g| match g.strip_suffix("/**") {
            Some(rest) if !rest.is_empty() => rest.to_owned(),
            _ => g,
        })
        .collect();
    if globs.iter().all(|g| g == "**") {
        Vec::new()
    } else {
        globs
    }
}

#[cfg(test)]
mod tests {
    use super::effective_globs;

    #[test]
    fn star_star_alone_is_unconditional_and_trailing_star_star_goes() {
        let of = |globs: &[&str]| effective_globs(globs.iter().map(|g| g.to_string()).collect());
        assert!(of(&[]).is_empty());
        assert!(of(&["**"]).is_empty());
        assert!(of(&["**", "**"]).is_empty());
        assert_eq!(of(&["src/**"]), ["src"]);
        assert_eq!(of(&["**", "a/*.ts"]), ["**", "a/*.ts"]);
    }
}
