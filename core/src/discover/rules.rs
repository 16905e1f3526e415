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
        // In the order the walk meets them: each folder's entries as the file system lists
        // them, depth first (measured on 2.1.328 and 2.1.337:
        // `rules-order-follows-the-directory-listing`), where the source recorded that order
        // (Tree::set_listing_order); elsewhere by name in the tree's order, which a shared
        // snapshot carries from its original, and the folder is noted for the report. Sorted
        // only when not already so (a sort of 100,000 long paths every turn was a tenth of a
        // hostile folder's analysis).
        // Each rule's segments below the folder carry their listing rank, looked up once
        // (a comparison looked up two ranks, each a hash of a name, millions of times).
        let order = |a: &(VPath, VPath), b: &(VPath, VPath)| {
            self.walk_order(&a.0, &b.0).then_with(|| a.1.cmp(&b.1))
        };
        match self.walk_keys(&listed, &met) {
            Some(keys) => {
                let keyed = |i: &usize, j: &usize| {
                    let (a, b) = (&met[*i], &met[*j]);
                    keys[*i]
                        .walk_order(&keys[*j])
                        .unwrap_or_else(|| self.tree.cmp_paths(&a.0, &b.0))
                        .then_with(|| a.1.cmp(&b.1))
                };
                let mut at: Vec<usize> = (0..met.len()).collect();
                if !at.is_sorted_by(|i, j| keyed(i, j).is_le()) {
                    at.sort_by(keyed);
                    let mut slots: Vec<Option<(VPath, VPath)>> =
                        std::mem::take(&mut met).into_iter().map(Some).collect();
                    met = at.iter().filter_map(|&i| slots[i].take()).collect();
                }
            }
            None => {
                if !met.is_sorted_by(|a, b| order(a, b).is_le()) {
                    met.sort_by(order);
                }
            }
        }
        self.note_unknown_rule_order(dir, &listed, &met);
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

    /// How the rules walk orders two rules' paths: at the folder where they part, by that
    /// folder's recorded listing order (a name it leaves out after those it names), else as
    /// the tree orders them.
    fn walk_order(&self, a: &VPath, b: &VPath) -> std::cmp::Ordering {
        if let Some((dir, x, y)) = parting(a, b) {
            let rank = |name: &str| self.tree.listing_rank(dir, name);
            if let (Some(x), Some(y)) = (rank(x), rank(y)) {
                if x != y {
                    return x.cmp(&y);
                }
            }
        }
        self.tree.cmp_paths(a, b)
    }

    /// Each rule's [`WalkKey`] (its segments below `listed` with their listing ranks), when
    /// every rule lies below `listed`; `None` otherwise (the walk's order is then asked of
    /// [`Discovery::walk_order`] for each comparison).
    fn walk_keys<'m>(&self, listed: &VPath, met: &'m [(VPath, VPath)]) -> Option<Vec<WalkKey<'m>>> {
        let base = listed.as_str().len();
        let mut ranks: std::collections::HashMap<
            &'m str,
            Option<&std::collections::HashMap<String, usize>>,
        > = std::collections::HashMap::new();
        met.iter()
            .map(|(at, _)| {
                let path = at.as_str();
                if listed.is_root() || path.len() <= base + 1 || !at.starts_with(listed) {
                    return None;
                }
                let mut segments = Vec::new();
                let mut start = base + 1;
                for name in path[start..].split('/') {
                    // The folder holding this name, as `parting` names it.
                    let dir = path[..start].trim_end_matches('/');
                    let dir = if dir.is_empty() { "/" } else { dir };
                    let order = *ranks
                        .entry(dir)
                        .or_insert_with(|| self.tree.listing_ranks(dir));
                    let rank = order.map(|o| o.get(name).copied().unwrap_or(usize::MAX));
                    segments.push((name, rank));
                    start += name.len() + 1;
                }
                Some(WalkKey(segments))
            })
            .collect()
    }

    /// A `rule-order-unknown` finding for the rules folder `dir` (walked at `listed`) when
    /// one of its folders holds two rules or more, or subfolders leading to them, and the
    /// source recorded no listing order for it.
    fn note_unknown_rule_order(&mut self, dir: &VPath, listed: &VPath, met: &[(VPath, VPath)]) {
        // Each folder (by its path, borrowed from a rule's) with the first name met in it and
        // whether another followed: only a folder of two names or more has an order to know.
        let mut entries: std::collections::HashMap<&str, (&str, bool)> =
            std::collections::HashMap::new();
        let mut unknown = 0;
        for (at, _) in met {
            let Some(rest) = at.strip_prefix(listed) else {
                continue;
            };
            let path = at.as_str();
            let mut folder = listed.as_str();
            let mut end = path.len() - rest.len();
            for name in rest.split('/') {
                let name_end = end + name.len();
                end = name_end + 1;
                if name.is_empty() {
                    continue;
                }
                match entries.get_mut(folder) {
                    None => {
                        entries.insert(folder, (name, false));
                    }
                    Some((first, more)) => {
                        if !*more && *first != name {
                            *more = true;
                            if self.tree.listing_ranks(folder).is_none() {
                                unknown += 1;
                            }
                        }
                    }
                }
                // Only folders are keys: a rule's own path is never built.
                folder = &path[..name_end];
            }
        }
        if unknown == 0 {
            return;
        }
        let rules = met.len();
        self.diagnostics.push(Diagnostic::new(
            Code::RuleOrderUnknown,
            Severity::Info,
            Some(dir.as_str()),
            format!(
                "Claude Code loads these {rules} rules in the order the file system lists the \
                 folder's entries (depth first), which this snapshot does not record, so the \
                 report lists them by name; only their order in the instruction block depends \
                 on it, not what they cost"
            ),
        ));
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
        if self.paths.rules.has(Behaviour::PathsList) || !value.is_sequence() || written.len() < 2 {
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

/// A rule's `paths`, compiled once: the one matcher that discovery, reads and the health
/// check use. Claude Code matches with the `ignore` package: gitignore rules, case ignored, a
/// `!pattern` taking back what earlier patterns matched, the last match winning. A pattern
/// that does not compile matches nothing (the health check reports it).
pub(super) struct RuleGlobs {
    /// Each glob, lower-cased, and whether it is negated (`!`).
    globs: Vec<(bool, Glob)>,
}

impl RuleGlobs {
    pub(super) fn new(patterns: &[String]) -> RuleGlobs {
        let globs = patterns
            .iter()
            .filter_map(|pattern| {
                let (negated, glob) = match pattern.strip_prefix('!') {
                    Some(rest) => (true, rest),
                    None => (false, pattern.as_str()),
                };
                Glob::new(&glob.to_lowercase()).ok().map(|g| (negated, g))
            })
            .collect();
        RuleGlobs { globs }
    }

    /// Why one written pattern (`!` allowed) cannot be matched, as the health check says it.
    pub(super) fn check(pattern: &str) -> Result<(), String> {
        Glob::new(pattern.trim_start_matches('!')).map(drop)
    }

    /// True when `relative` (a path relative to the rule's base folder) matches.
    pub(super) fn matches(&self, relative: &str) -> bool {
        self.matches_lowered(&relative.to_lowercase())
    }

    fn matches_lowered(&self, lowered: &str) -> bool {
        let mut matched = false;
        for (negated, glob) in &self.globs {
            if glob.matches_relative(lowered) {
                matched = !negated;
            }
        }
        matched
    }

    /// The same matching over a project's listed files (relative to `project`), for a rule
    /// whose base is `base`: built once per rule, it rules most files out by their text
    /// without lower-casing them.
    pub(super) fn seen_from(self, project: &VPath, base: &VPath) -> RuleOverProject {
        let tails = self
            .globs
            .iter()
            .filter(|(negated, _)| !negated)
            .map(|(_, glob)| glob.required_tails())
            .try_fold(Vec::new(), |mut all, tails| {
                all.extend(tails?);
                Some(all)
            });
        RuleOverProject {
            globs: self,
            tails,
            // Lower-casing a path equals lower-casing its segments apart.
            prefix: project.strip_prefix(base).map(str::to_lowercase),
            below: base.strip_prefix(project).map(|r| format!("{r}/")),
        }
    }
}

/// A rule's globs matched against files listed relative to the project ([`RuleGlobs::seen_from`]).
pub(super) struct RuleOverProject {
    globs: RuleGlobs,
    /// Text a file must contain (lower-cased) for some glob that is not negated to match
    /// it, any one of these ([`Glob::required_tails`]); `None` when a glob requires none.
    tails: Option<Vec<String>>,
    /// The project relative to the rule's base (lower-cased), when the base is above it.
    prefix: Option<String>,
    /// The base relative to the project, with a slash, when the base is below it.
    below: Option<String>,
}

impl RuleOverProject {
    /// True when the rule's globs match `file` (relative to the project, as listed).
    pub(super) fn matches(&self, file: &str) -> bool {
        let rest = match (&self.prefix, &self.below) {
            (Some(_), _) => file,
            (None, Some(below)) => match file.strip_prefix(below.as_str()) {
                Some(rest) => rest,
                None => return false,
            },
            (None, None) => return false,
        };
        let prefix = self.prefix.as_deref().filter(|p| !p.is_empty());
        if let (Some(tails), None) = (&self.tails, prefix) {
            if !tails.iter().any(|tail| contains_lowered(rest, tail)) {
                return false;
            }
        }
        let lower = rest.to_lowercase();
        match prefix {
            Some(p) => self.globs.matches_lowered(&format!("{p}/{lower}")),
            None => self.globs.matches_lowered(&lower),
        }
    }
}

impl RuleOverProject {
    /// Text that every file [`RuleOverProject::matches`] accepts starts with once
    /// lower-cased (relative to the project, as listed), any one of these: the leads of its
    /// globs that are not negated ([`Glob::required_leads`]), below the base. `None` when
    /// some glob has no lead, or the base is above the project: every file is a candidate.
    pub(super) fn required_leads(&self) -> Option<Vec<String>> {
        let below = match (&self.prefix, &self.below) {
            (Some(prefix), _) if prefix.is_empty() => String::new(),
            (None, Some(below)) => below.to_lowercase(),
            _ => return None,
        };
        self.globs
            .globs
            .iter()
            .filter(|(negated, _)| !negated)
            .map(|(_, glob)| glob.required_leads())
            .try_fold(Vec::new(), |mut all, leads| {
                all.extend(leads?.into_iter().map(|lead| format!("{below}{lead}")));
                Some(all)
            })
    }
}

/// True when `text`, lower-cased, contains `lower` (lower-case already): without a copy when
/// `text` is ASCII, whose lower case is byte for byte.
fn contains_lowered(text: &str, lower: &str) -> bool {
    if !text.is_ascii() {
        return text.to_lowercase().contains(lower);
    }
    let needle = lower.as_bytes();
    needle.is_empty()
        || text
            .as_bytes()
            .windows(needle.len())
            .any(|window| window.eq_ignore_ascii_case(needle))
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

/// A rule's path below its rules folder as the walk orders it: each name with its place in
/// its folder's recorded listing order (`None` where none was recorded, `usize::MAX` for a
/// name the order leaves out).
struct WalkKey<'m>(Vec<(&'m str, Option<usize>)>);

impl WalkKey<'_> {
    /// [`Discovery::walk_order`] where the listing ranks decide; `None` where it asks the
    /// tree (no ranks where the paths part, equal ranks, or one path inside the other).
    fn walk_order(&self, other: &WalkKey<'_>) -> Option<std::cmp::Ordering> {
        let (x, y) = self
            .0
            .iter()
            .zip(&other.0)
            .find(|((x, _), (y, _))| x != y)?;
        match (x.1, y.1) {
            (Some(a), Some(b)) if a != b => Some(a.cmp(&b)),
            _ => None,
        }
    }
}

/// Where the paths `a` and `b` part: the folder and the names below it each goes on with;
/// `None` when one lies inside the other or they are the same.
fn parting<'p>(a: &'p VPath, b: &'p VPath) -> Option<(&'p str, &'p str, &'p str)> {
    // Borrowed, not built: a sort of a folder of 100,000 rules makes millions of these.
    let (a, b) = (a.as_str(), b.as_str());
    let (mut xs, mut ys) = (a.split('/'), b.split('/'));
    let mut at = 0;
    loop {
        match (xs.next(), ys.next()) {
            (Some(x), Some(y)) if x == y => at += x.len() + 1,
            (Some(x), Some(y)) => {
                let dir = a[..at].trim_end_matches('/');
                return Some((if dir.is_empty() { "/" } else { dir }, x, y));
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{contains_lowered, effective_globs, RuleGlobs};
    use crate::text::glob::Glob;
    use crate::vpath::VPath;

    #[test]
    fn star_star_alone_is_unconditional_and_trailing_star_star_goes() {
        let of = |globs: &[&str]| effective_globs(globs.iter().map(|g| g.to_string()).collect());
        assert!(of(&[]).is_empty());
        assert!(of(&["**"]).is_empty());
        assert!(of(&["**", "**"]).is_empty());
        assert_eq!(of(&["src/**"]), ["src"]);
        assert_eq!(of(&["**", "a/*.ts"]), ["**", "a/*.ts"]);
    }

    /// The rule check's shortcut (no path lower-cased, most files ruled out by their text)
    /// answers as matching every file in full does: case ignored in Unicode, negations, a
    /// folder that matches taking its files along, a base below or above the project.
    #[test]
    fn rule_matcher_answers_as_the_full_match() {
        let project = VPath::new("/p/App").unwrap();
        let files = [
            "src/Main.TS",
            "src/x.ts/index.js",
            "docs/\u{212a}elvin.md",
            "lib/ÉTÉ.Md",
            "test/a.spec.ts",
            "README",
        ];
        let cases: [(&[&str], &str, &[bool]); 6] = [
            (
                &["**/*.ts"],
                "/p/App",
                &[true, true, false, false, true, false],
            ),
            (
                &["*.ts", "!test/**"],
                "/p/App",
                &[true, true, false, false, false, false],
            ),
            (
                &["**/*k*"],
                "/p/App",
                &[false, false, true, false, false, false],
            ),
            (
                &["**/*.md"],
                "/p/App",
                &[false, false, true, true, false, false],
            ),
            (
                &["main.ts"],
                "/p/App/src",
                &[true, false, false, false, false, false],
            ),
            (
                &["app/readme"],
                "/p",
                &[false, false, false, false, false, true],
            ),
        ];
        for (globs, base, expected) in cases {
            let globs: Vec<String> = globs.iter().map(|g| (*g).to_owned()).collect();
            let rule = RuleGlobs::new(&globs).seen_from(&project, &VPath::new(base).unwrap());
            for (file, want) in files.iter().zip(expected) {
                assert_eq!(rule.matches(file), *want, "{globs:?} from {base} on {file}");
                // The same answer as matching the lower-cased path with every glob.
                let seen = match (project.strip_prefix(&VPath::new(base).unwrap()), base) {
                    (Some(""), _) => Some(file.to_lowercase()),
                    (Some(p), _) => Some(format!("{}/{}", p.to_lowercase(), file.to_lowercase())),
                    (None, _) => file.strip_prefix("src/").map(str::to_lowercase),
                };
                let full = seen.is_some_and(|seen| {
                    let mut matched = false;
                    for g in &globs {
                        let (negated, g) = g
                            .strip_prefix('!')
                            .map_or((false, g.as_str()), |r| (true, r));
                        if Glob::new(&g.to_lowercase())
                            .unwrap()
                            .matches_relative(&seen)
                        {
                            matched = !negated;
                        }
                    }
                    matched
                });
                assert_eq!(full, *want, "full match of {globs:?} from {base} on {file}");
            }
        }
        assert!(contains_lowered("SRC/A.TS", ".ts"));
        assert!(!contains_lowered("src/a.js", ".ts"));
        assert!(contains_lowered("\u{212a}", "k"));
    }
}
