//! Skills: `<folder>/SKILL.md` one level below a `skills/` folder (measured on 2.1.328:
//! `skills/a/b/SKILL.md` is not a skill). Listed in every session: the managed policy's
//! (`<managed>/.claude/skills/`), the user's, and those of the project folder and each parent
//! up to the git root, then an `--add-dir` folder's. A subfolder's skills are announced only
//! after Claude reads a file there.
//!
//! Measured on 2.1.328 (`agents-managed-policy-agents-skills-and-precedence`,
//! `agents-order-add-dir-plugin-commands-and-skill-folders`):
//! - Within one folder, skills are sorted by folder name with `localeCompare`
//!   ([`compare_locale`]: `_x`, `1num`, `a_b`, `a-b`, `alpha`, `beta`, `Beta`, `é`, `Zeta`).
//! - Of two skills of one name the first listed wins: the managed policy's, then the user's,
//!   then the project's (the managed `x` hides the user's and the project's, the user's
//!   `alpha` the project's).
//! - An `--add-dir` folder's skill whose name is taken is listed last (after the plugins'),
//!   as `<folder>:<name>` with a note that scopes it to that folder.
//! - `/etc/claude-code/skills/` (no `.claude`) is not read.

use super::commands::compare_locale;
use super::{saturating_sum, Discovery, Node};
use crate::report::{Code, Diagnostic, Group, LoadType, Measure, Scope, Severity};
use crate::text::frontmatter::Frontmatter;
use crate::text::measure::{as_sent, measure};
use crate::text::settings::SkillOverride;
use crate::tree::Tree;
use crate::version::{Behaviour, BuiltInSkill, Rules, SkillOrder};
use crate::vpath::VPath;
use unicode_width::UnicodeWidthStr;

/// The listing keeps this many characters (UTF-16 units) of a description, the last one
/// `…` when it cuts, unless `skillListingMaxDescChars` says otherwise.
pub(crate) const SKILL_DESCRIPTION_UNITS: usize = 1_536;

/// Where 2.1.86–2.1.104 cut every description, whatever the settings said.
const OLD_DESCRIPTION_UNITS: usize = 250;

/// Under this many units or columns a competing description is dropped rather than cut
/// (before 2.1.129).
const MIN_CUT_DESCRIPTION: i64 = 20;

/// A skill as the listing can show it.
#[derive(Debug, Clone)]
pub(super) struct SkillLine {
    /// Its `SKILL.md`.
    pub(super) path: VPath,
    /// The name the listing shows: `<folder>` or `<folder> (<name>)`.
    pub(super) shown: String,
    /// `<shown>: <description>`, the description cut to the listing's limit.
    pub(super) line: String,
    /// When it is listed.
    pub(super) source: SkillSource,
    /// Its `paths` ([`SkillSource::OnPaths`]): the globs a Read must match, relative to the
    /// working directory.
    pub(super) paths: Vec<String>,
}

/// Where a skill was found, which decides when it is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SkillSource {
    /// Listed in every session.
    Listed,
    /// Announced after a read below the folder that holds its `.claude/skills/`.
    BelowProject,
    /// Not listed at startup: it has `paths`, and a Read of a file they match announces it
    /// (measured on 2.1.328: `skills-listing-edge-paths`).
    OnPaths,
}

impl Discovery<'_> {
    /// Every skill, listed ones first in the order the listing shows them.
    pub(super) fn skills(&mut self) -> Vec<Node> {
        // The listing groups them by source, each group by folder name: the managed
        // policy's, the user's, then the project folder's, then each parent's up to the git
        // root (measured on 2.1.328).
        let managed = self.managed_dir().child(".claude").child("skills");
        let mut nodes = self.skill_folder(&managed, Scope::Managed, SkillSource::Listed);
        let user = self.paths.config.child("skills");
        nodes.extend(self.skill_folder(&user, Scope::User, SkillSource::Listed));
        if let Some(project) = self.paths.project.clone() {
            let stop = self.git_root.clone().unwrap_or_else(|| project.clone());
            for dir in project.ancestors() {
                if !dir.starts_with(&stop) {
                    break;
                }
                let skills = dir.child(".claude").child("skills");
                nodes.extend(self.skill_folder(&skills, Scope::Project, SkillSource::Listed));
            }
        }
        // The `--add-dir` folders' skills, after the project's, not sorted among them; one
        // whose name is taken is listed last, scoped to its folder (measured on 2.1.328).
        for dir in self.paths.additional_dirs.clone() {
            let skills = dir.child(".claude").child("skills");
            self.add_dir_scope = Some(dir.file_name().to_owned());
            nodes.extend(self.skill_folder(&skills, Scope::Project, SkillSource::Listed));
            self.add_dir_scope = None;
        }
        if let Some(project) = self.paths.project.clone() {
            // Only a folder with a `.claude/` can hold skills.
            for dir in self.dirs_holding(&project, &[".claude"]) {
                if dir.file_name() == ".claude" {
                    continue;
                }
                let skills = dir.child(".claude").child("skills");
                nodes.extend(self.skill_folder(&skills, Scope::Project, SkillSource::BelowProject));
            }
        }
        nodes
    }

    pub(super) fn skill_folder(
        &mut self,
        dir: &VPath,
        scope: Scope,
        source: SkillSource,
    ) -> Vec<Node> {
        let mut nodes = Vec::new();
        let deeper: Vec<VPath> = self
            .tree
            .files_under(dir)
            .map(|(path, _)| path.clone())
            .filter(|path| {
                path.file_name() == "SKILL.md"
                    && path
                        .strip_prefix(dir)
                        .is_some_and(|r| r.split('/').count() > 2)
            })
            .collect();
        for path in deeper {
            self.diagnostics.push(Diagnostic::new(
                Code::SkillTooDeep,
                Severity::Warning,
                Some(path.as_str()),
                "not a skill: Claude Code lists only skills/<name>/SKILL.md, one folder below \
                 skills/ (measured on 2.1.328)",
            ));
        }
        let mut folders: Vec<(String, VPath)> = self
            .listing_order(dir, source)
            .into_iter()
            .map(|name| {
                let at = dir.child(&name);
                (name, at)
            })
            .collect();
        // A skill folder that is a symbolic link is followed wherever it leads (measured on
        // 2.1.328: `skills-listing-edge-symlinked-folders`), listed by the link's name among
        // the others.
        let linked = linked_folders(self.tree, dir);
        if !linked.is_empty() {
            folders.extend(linked);
            if self.paths.rules.skill_order != SkillOrder::AsListed || source != SkillSource::Listed
            {
                folders.sort_by(|a, b| compare_locale(&a.0, &b.0));
            }
        }
        for (folder, at) in folders {
            let path = at.child("SKILL.md");
            if !self.tree.is_file(&path) || !self.top_level.insert(path.clone()) {
                continue;
            }
            // Of one name, the first listed wins (measured on 2.1.328).
            let winner = match source {
                SkillSource::Listed => match self.skill_names.get(&folder) {
                    Some(winner) => Some(winner.clone()),
                    None => {
                        self.skill_names.insert(folder.clone(), path.clone());
                        None
                    }
                },
                _ => None,
            };
            let taken = winner.is_some();
            let mut node =
                self.file_node(&path, Group::Skills, LoadType::OnDemand, Some(scope), true);
            let fm = self.frontmatter_of(&path);
            let text = match self.text(&path) {
                super::Text::Ready(text) => Some(text),
                _ => None,
            };
            let body = text.as_deref().map(as_sent).unwrap_or_default();
            let listing = listing_line(
                &folder,
                fm.as_ref(),
                &body,
                self.description_limit(),
                self.paths.rules.has(Behaviour::SkillDeclaredNameShown),
            );
            node.row.skill_listing = Some(Measure {
                lines: 0,
                ..listed_measure(self.tree, &listing.line, &listing.shown).0
            });
            node.row.skill_name = Some(listing.name);
            // Before 2.1.69 a skill whose frontmatter gives no description was left out, and
            // so was one whose frontmatter strict YAML rejects (an unquoted second colon):
            // only those releases parse the frontmatter a second time, strictly.
            let described = self
                .paths
                .rules
                .has(Behaviour::SkillsWithoutDescriptionListed)
                || (declared_description(fm.as_ref()).is_some()
                    && text.as_deref().is_some_and(strict_yaml));
            let invocable = described
                && !fm
                    .as_ref()
                    .and_then(|fm| fm.boolean("disable-model-invocation"))
                    .unwrap_or(false);
            // `skillOverrides` keys a skill by the name it is invoked with, its folder's.
            let overridden = self.skill_override(&folder);
            note_override(
                self.tree,
                &mut node.row,
                overridden,
                &listing.line,
                &listing.shown,
            );
            let line = match overridden {
                SkillOverride::Off | SkillOverride::UserInvocableOnly => None,
                SkillOverride::NameOnly => Some(listing.shown.clone()),
                SkillOverride::On => Some(listing.line.clone()),
            };
            let paths = fm.as_ref().map(skill_paths).unwrap_or_default();
            if taken {
                // An `--add-dir` folder's skill of a taken name is listed last, scoped.
                if let (true, Some(label), SkillOverride::On) =
                    (invocable, self.add_dir_scope.clone(), overridden)
                {
                    let description = listing.line[listing.shown.len()..]
                        .strip_prefix(": ")
                        .unwrap_or("");
                    let shown = format!("{label}:{}", listing.shown);
                    let line = format!(
                        "{shown}: {description} (scoped to {label}/ \u{2014} use this instead of \
                         the unscoped \"{folder}\" skill when the files being changed are under \
                         {label}/)"
                    );
                    node.row.skill_listing = Some(Measure {
                        lines: 0,
                        ..listed_measure(self.tree, &line, &shown).0
                    });
                    self.scoped_skill_lines.push(SkillLine {
                        path: path.clone(),
                        shown,
                        line,
                        source,
                        paths: Vec::new(),
                    });
                } else {
                    node.row.skill_listing = None;
                    if self.add_dir_scope.is_none() {
                        let cost = match (&line, invocable, paths.is_empty()) {
                            (Some(line), true, true) => {
                                Ok(listed_measure(self.tree, line, &listing.shown).0.utf16)
                            }
                            (Some(_), true, false) => Err(
                                "it would be listed only after a Read of a file its paths match",
                            ),
                            _ => Err("it would not be listed either way"),
                        };
                        let winner = winner.unwrap_or_else(|| path.clone());
                        self.diagnostics
                            .push(shadowed_skill(&path, &winner, &folder, cost));
                        self.shadowed_skills.insert(path.clone());
                    }
                }
                nodes.push(node);
                continue;
            }
            if let (true, Some(line)) = (invocable, line) {
                let on_paths = source == SkillSource::Listed && !paths.is_empty();
                self.skill_lines.push(SkillLine {
                    path: path.clone(),
                    shown: listing.shown,
                    line,
                    source: if on_paths {
                        SkillSource::OnPaths
                    } else {
                        source
                    },
                    paths,
                });
            }
            nodes.push(node);
        }
        nodes
    }
}

impl Discovery<'_> {
    /// The skill folders of `dir` in the order the listing gives them: by name, but for the
    /// listed skills (the user's and the project folders') on releases that list them as
    /// the file system does ([`SkillOrder::AsListed`]), in the order the source recorded
    /// ([`Tree::listing_order`]; a folder it did not name goes last, by name). Where the
    /// source recorded none, by name, and the folder is noted for the report.
    fn listing_order(&mut self, dir: &VPath, source: SkillSource) -> Vec<String> {
        // By name is `localeCompare`'s order (measured on 2.1.328), not byte order. A shared
        // snapshot carries its original's order ([`Tree::has_order`]): its pseudonyms need not
        // sort as the names did.
        let mut by_name = self.tree.child_dirs(dir);
        if !self.tree.has_order(dir) {
            by_name.sort_by(|a, b| compare_locale(a, b));
        }
        // A subfolder's skills are announced only from 2.1.198, after these releases.
        if self.paths.rules.skill_order != SkillOrder::AsListed || source != SkillSource::Listed {
            return by_name;
        }
        let Some(listed) = self.tree.listing_order(dir) else {
            if by_name.len() > 1 {
                self.skill_order_unknown.push(dir.clone());
            }
            return by_name;
        };
        // Sets, not searches of the lists: a folder may hold many thousands of names.
        let present: std::collections::HashSet<&str> = by_name.iter().map(String::as_str).collect();
        let mut placed = std::collections::HashSet::new();
        let mut ordered: Vec<String> = listed
            .iter()
            .filter(|name| present.contains(name.as_str()) && placed.insert(name.as_str()))
            .cloned()
            .collect();
        ordered.extend(
            by_name
                .iter()
                .filter(|n| !placed.contains(n.as_str()))
                .cloned(),
        );
        ordered
    }

    /// The finding for a skills folder listed by name where the release lists it in the
    /// file system's order, which the source did not record: what depends on that order,
    /// and whether the budget made the order decide which descriptions fit.
    pub(super) fn note_unknown_skill_order(&mut self, over_budget: bool) {
        for dir in std::mem::take(&mut self.skill_order_unknown) {
            self.note_unknown_order_of(&dir, over_budget);
        }
    }

    fn note_unknown_order_of(&mut self, dir: &VPath, over_budget: bool) {
        let release = self
            .paths
            .version
            .map_or_else(String::new, |v| format!("Claude Code {v} "));
        let depends = if over_budget {
            "the listing's order, and, over its budget, which skills keep their descriptions"
        } else {
            "the listing's order (within its budget, nothing else)"
        };
        self.diagnostics.push(Diagnostic::new(
            Code::SkillOrderUnknown,
            Severity::Info,
            Some(dir.as_str()),
            format!(
                "{release}lists these skills in the order the file system lists their \
                 folders, which this snapshot does not record, so the report lists them by \
                 name; what depends on that order: {depends}"
            ),
        ));
    }
}

/// A skill's listing line, and the names it goes by.
pub(super) struct Listing {
    /// Its name: the frontmatter's, else the folder's.
    pub(super) name: String,
    /// The name the listing shows.
    pub(super) shown: String,
    /// The line (without the `- `).
    pub(super) line: String,
}

impl Discovery<'_> {
    /// How `skillOverrides` says the listing shows the skill or command invoked as `name`
    /// (measured on 2.1.328: `skills-listing-edge-skill-overrides`).
    pub(super) fn skill_override(&self, name: &str) -> SkillOverride {
        self.settings
            .skill_overrides
            .get(name)
            .map_or(SkillOverride::On, |(value, _)| *value)
    }

    /// Where the listing cuts a description: `skillListingMaxDescChars` (read from 2.1.105),
    /// else 1,536 units; 250 on 2.1.86–2.1.104; nowhere before.
    pub(super) fn description_limit(&self) -> usize {
        let rules = &self.paths.rules;
        if !rules.has(Behaviour::SkillListingMaxDescChars) {
            return if rules.has(Behaviour::SkillDescriptionsCut) {
                OLD_DESCRIPTION_UNITS
            } else {
                usize::MAX
            };
        }
        self.settings
            .skill_listing_max_desc
            .and_then(|max| usize::try_from(max).ok())
            .unwrap_or(SKILL_DESCRIPTION_UNITS)
    }
}

/// The skill's listing line as Claude Code writes it (without the `- `):
/// `<folder>: <description>`, `<folder> (<name>): …` when the frontmatter names it
/// otherwise and the release shows that name (`declared_name_shown`); the description is the
/// frontmatter's, else the first line of the body (a heading without its `#`), then
/// ` - <when_to_use>`, cut to `limit` units.
pub(super) fn listing_line(
    folder: &str,
    fm: Option<&Frontmatter>,
    body: &str,
    limit: usize,
    declared_name_shown: bool,
) -> Listing {
    let declared = fm
        .and_then(|fm| fm.string("name"))
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty());
    let shown = match &declared {
        Some(name) if name != folder && declared_name_shown => format!("{folder} ({name})"),
        _ => folder.to_owned(),
    };
    let description = cut_units(&escape_angles(&full_description(fm, body)), limit);
    Listing {
        name: declared.unwrap_or_else(|| folder.to_owned()),
        line: format!("{shown}: {description}"),
        shown,
    }
}

/// The `skill-shadowed` finding for the skill at `path`, hidden by `winner`'s of the same
/// name `folder` (measured on 2.1.328: of two skills of one name the first listed wins, the
/// managed policy's, then the user's, then the project folder's, then a parent's;
/// `agents-managed-policy-agents-skills-and-precedence`). `cost` is the UTF-16 units of the
/// listing line it would have had in every session, or why it would have had none.
fn shadowed_skill(
    path: &VPath,
    winner: &VPath,
    folder: &str,
    cost: Result<u64, &str>,
) -> Diagnostic {
    let cost = match cost {
        Ok(units) => format!(
            "its line in the skills listing would have cost {} characters (UTF-16 units) in \
             every session",
            super::group_digits(units)
        ),
        Err(why) => why.to_owned(),
    };
    Diagnostic::new(
        Code::SkillShadowed,
        Severity::Warning,
        Some(path.as_str()),
        format!(
            "hidden by {winner}, a skill of the same name that Claude Code lists first: \
             invoking {folder} runs that one, and this one never reaches Claude; {cost}; \
             rename this skill's folder to keep both"
        ),
    )
}

/// How a listing line is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shown {
    /// With its whole (limit-cut) description.
    Whole,
    /// With its description cut to this many units or columns, `…` the last (before
    /// 2.1.129).
    Cut(u64),
    /// By its name alone.
    NameOnly,
}

/// How each of the listing's lines is shown under `budget`: the user's lines (`user`, each
/// as the length of its full line and of its name, in the release's measure: columns from
/// 2.1.88, else UTF-16 units, see [`listed_measure`]) and then the release's built-in skills.
/// Returns one entry per user line and one per built-in, in that order.
pub(super) fn fit_listing(
    user: &[(u64, u64)],
    limit: usize,
    budget: u64,
    built_ins: &[BuiltInSkill],
    rules: &Rules,
) -> Vec<Shown> {
    let columns = rules.has(Behaviour::ListingCountsColumns);
    // Each line is `- <line>`; lines are joined by one newline.
    let mut lines: Vec<(u64, u64, bool)> = user
        .iter()
        .map(|&(full, name)| (2 + full, 2 + name, false))
        .collect();
    for skill in built_ins {
        let shown = skill.shown_units(limit);
        let name = 2 + skill.name_units;
        let description = if columns { skill.columns(shown) } else { shown };
        let full = if skill.bare {
            name
        } else {
            name + 2 + description
        };
        lines.push((full, name, skill.fixed));
    }
    let joins = lines.len().saturating_sub(1) as u64;
    // Sums saturate and the budget (any `u64` the environment gives) is clamped into `i64`:
    // a shared snapshot's quoted lengths are range-checked, but nothing here may wrap.
    let whole = saturating_sum(lines.iter().map(|l| l.0)).saturating_add(joins);
    let signed = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let competing = lines.iter().filter(|l| !l.2).count() as i64;
    if whole <= budget || competing == 0 {
        return vec![Shown::Whole; lines.len()];
    }
    if !rules.has(Behaviour::ListingFillsInOrder) {
        // One length for every competing description: what the budget leaves after the
        // fixed lines (each with its newline) and the competing `- <name>: ` and newlines.
        let fixed = saturating_sum(lines.iter().filter(|l| l.2).map(|l| l.0.saturating_add(1)));
        let names = saturating_sum(lines.iter().filter(|l| !l.2).map(|l| l.1.saturating_add(2)))
            .saturating_add(competing as u64 - 1);
        let cut = signed(budget)
            .saturating_sub(signed(fixed))
            .saturating_sub(signed(names))
            .div_euclid(competing);
        return lines
            .iter()
            .map(|&(full, name, fixed)| match () {
                () if fixed => Shown::Whole,
                () if cut < MIN_CUT_DESCRIPTION => Shown::NameOnly,
                () if full.saturating_sub(name).saturating_sub(2) > cut as u64 => {
                    Shown::Cut(cut as u64)
                }
                () => Shown::Whole,
            })
            .collect();
    }
    let base = saturating_sum(
        lines
            .iter()
            .map(|&(full, name, fixed)| if fixed { full } else { name }),
    )
    .saturating_add(joins);
    let mut room = signed(budget).saturating_sub(signed(base));
    lines
        .iter()
        .map(|&(full, name, fixed)| {
            if fixed {
                return Shown::Whole;
            }
            let more = signed(full.saturating_sub(name));
            if more <= room {
                room -= more;
                Shown::Whole
            } else {
                Shown::NameOnly
            }
        })
        .collect()
}

/// The text of a user's listing line as `shown` says (without the `- `).
pub(super) fn shown_line(line: &str, name: &str, shown: Shown, columns: bool) -> String {
    match shown {
        Shown::Whole => line.to_owned(),
        Shown::NameOnly => name.to_owned(),
        Shown::Cut(length) => {
            let description = line
                .strip_prefix(name)
                .and_then(|rest| rest.strip_prefix(": "))
                .unwrap_or("");
            let cut = if columns {
                cut_columns(description, length)
            } else {
                cut_units(description, length as usize)
            };
            format!("{name}: {cut}")
        }
    }
}

/// The UTF-16 units a built-in skill's line loses to the description cut (`limit`) and to
/// the budget (`shown`): the listing's own-text length counts every line whole.
pub(super) fn built_in_units_lost(
    skill: &BuiltInSkill,
    limit: usize,
    shown: Shown,
    columns: bool,
) -> u64 {
    let kept = skill.shown_units(limit);
    let cut = skill.description_units - kept;
    match shown {
        Shown::Whole => cut,
        Shown::NameOnly => cut + 2 + kept,
        Shown::Cut(length) => {
            let measure = |units: u64| if columns { skill.columns(units) } else { units };
            if measure(kept) <= length {
                return cut;
            }
            // Its first units up to `length - 1` in the release's measure, then `…`.
            let mut units = 0;
            while units < kept && measure(units + 1) < length {
                units += 1;
            }
            cut + kept - units - 1
        }
    }
}

/// The measure and the columns of `text` (a listing line, or a skill's name alone), which
/// holds the skill's listed name `shown` once. In a shared snapshot whose pseudonym `shown`
/// stands for a name of another length, that name's length counts ([`Tree::quoted`]), as it
/// did in the listing of the original.
pub(super) fn listed_measure(tree: &Tree, text: &str, shown: &str) -> (Measure, u64) {
    let mut measured = measure(text);
    let mut columns = text.width() as u64;
    if let Some(original) = tree.quoted(shown) {
        let own = measure(shown);
        let swap = |all: u64, own: u64, was: u64| all.saturating_sub(own).saturating_add(was);
        measured.bytes = swap(measured.bytes, own.bytes, original.bytes);
        measured.chars = swap(measured.chars, own.chars, original.chars);
        measured.utf16 = swap(measured.utf16, own.utf16, original.utf16);
        columns = swap(columns, shown.width() as u64, original.columns);
    }
    (measured, columns)
}

/// Records on a skill's or command's row the `skillOverrides` value that changes its line
/// (`line`, named `shown`) and the units that keeps out of every session.
pub(super) fn note_override(
    tree: &Tree,
    row: &mut crate::report::FileRow,
    value: SkillOverride,
    line: &str,
    shown: &str,
) {
    // As sent: a shared snapshot's pseudonym of the name counts at the original's length.
    let whole = listed_measure(tree, line, shown).0.utf16;
    let name = listed_measure(tree, shown, shown).0.utf16;
    let (word, saves) = match value {
        SkillOverride::On => return,
        SkillOverride::NameOnly => ("name-only", whole.saturating_sub(name)),
        SkillOverride::UserInvocableOnly => ("user-invocable-only", whole + 3),
        SkillOverride::Off => ("off", whole + 3),
    };
    row.skill_override = Some(word.to_owned());
    row.skill_override_saves = Some(saves);
}

/// How many links in a row [`resolve_dir_link`] follows before it gives up (a loop).
const MAX_LINK_HOPS: usize = 40;

/// The folders directly in `dir` that are symbolic links to folders, by name, each with the
/// folder it resolves to; a link that loops or leads to no folder is left out.
pub(super) fn linked_folders(tree: &Tree, dir: &VPath) -> Vec<(String, VPath)> {
    tree.links_under(dir)
        .filter(|(link, _)| link.parent().as_ref() == Some(dir))
        .filter(|(link, _)| !tree.is_dir(link))
        .filter_map(|(link, _)| {
            resolve_dir_link(tree, link).map(|target| (link.file_name().to_owned(), target))
        })
        .collect()
}

/// The folder a chain of links from `link` ends in, within [`MAX_LINK_HOPS`] links.
pub(super) fn resolve_dir_link(tree: &Tree, link: &VPath) -> Option<VPath> {
    let mut at = link.clone();
    for _ in 0..MAX_LINK_HOPS {
        match tree.link_target(&at) {
            Some(next) => at = next.clone(),
            None => return tree.is_dir(&at).then_some(at),
        }
    }
    None
}

/// A skill's `paths` as the program keeps them: a trailing `/**` dropped, empty ones
/// left out; none when nothing is left or every one is `**`.
fn skill_paths(fm: &Frontmatter) -> Vec<String> {
    let paths: Vec<String> = fm
        .value("paths")
        .map(crate::text::frontmatter::parse_paths)
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.strip_suffix("/**").map(str::to_owned).unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect();
    if paths.iter().all(|p| p == "**") {
        return Vec::new();
    }
    paths
}

/// True when `text` opens with frontmatter that strict YAML reads (without the lenient
/// reading that later releases give an unquoted second colon).
pub(super) fn strict_yaml(text: &str) -> bool {
    crate::text::frontmatter::locate(text)
        .is_some_and(|block| crate::text::frontmatter::parse_value(&text[block.yaml]).is_ok())
}

/// The frontmatter's description, when it gives one that is not blank.
fn declared_description(fm: Option<&Frontmatter>) -> Option<String> {
    fm.and_then(|fm| fm.string("description"))
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty())
}

/// A skill's description before the listing cuts it: the frontmatter's (else the body's
/// first line, a heading without its `#`), then ` - <when_to_use>`.
pub(super) fn full_description(fm: Option<&Frontmatter>, body: &str) -> String {
    let description = declared_description(fm).unwrap_or_else(|| {
        let first = body
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        first.trim_start_matches('#').trim().to_owned()
    });
    match fm
        .and_then(|fm| fm.string("when_to_use"))
        .map(|w| w.trim().to_owned())
        .filter(|w| !w.is_empty())
    {
        Some(when) => format!("{description} - {when}"),
        None => description,
    }
}

/// At most `columns` display columns: the first characters within `columns - 1` and `…`
/// when wider.
fn cut_columns(text: &str, columns: u64) -> String {
    if text.width() as u64 <= columns {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        let width = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) as u64;
        if count + width > columns.saturating_sub(1) {
            break;
        }
        count += width;
        out.push(c);
    }
    out.push('…');
    out
}

/// A description as the listing sends it: `<` and `>` HTML-escaped, `&` and quotes as
/// written (measured on 2.1.328: `skills-listing-edge-escapes-and-surrogates`), before the
/// cut, which may then fall inside an `&lt;`.
pub(super) fn escape_angles(text: &str) -> String {
    text.replace('<', "&lt;").replace('>', "&gt;")
}

/// At most `units` UTF-16 units: the first `units - 1` and `…` when longer. A cut that
/// falls inside a surrogate pair keeps its first half, which is sent as U+FFFD (measured on
/// 2.1.328: `skills-listing-edge-escapes-and-surrogates`).
pub(super) fn cut_units(text: &str, units: usize) -> String {
    let total: usize = text.chars().map(char::len_utf16).sum();
    if total <= units {
        return text.to_owned();
    }
    let keep = units.saturating_sub(1);
    let mut out = String::new();
    let mut count = 0;
    for c in text.chars() {
        if count + c.len_utf16() > keep {
            if count < keep {
                out.push('\u{fffd}');
            }
            break;
        }
        count += c.len_utf16();
        out.push(c);
    }
    out.push('…');
    out
}
