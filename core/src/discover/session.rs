//! What Claude Code sends, and when: every session's instruction block, skills listing and
//! memory section; what a Read attaches; what a spawned sub-agent receives.
//!
//! Claude Code's own text around the user's files is modelled by its measured length plus
//! the paths and labels it repeats, never by copying it. The lengths that change between
//! releases (the block's header and wrapping, the built-in skills, the memory section) are
//! per release in `version::OWN_TEXT` (`version/fitted.rs`); the conformance captures
//! (`fixtures/conformance/*/capture.json`, `releases/<ver>.json`) hold the lengths they must
//! reproduce, and `tests/tests/conformance.rs` checks them to the character.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::skills::{
    built_in_units_lost, fit_listing, listed_measure, shown_line, Shown, SkillLine, SkillSource,
};
use super::{family_dir, group_digits, saturating_sum, twice_print, Discovery, FirstCopies};
use crate::footprint::estimate_tokens;
use crate::input::{ReadPath, ReadTarget};
use crate::report::{
    Code, Cost, Diagnostic, DiagnosticData, Figure, FileRow, FileStatus, Group, Health, LaterCost,
    LoadType, Measure, ReadAnswer, Scope, SentFile, SentLabel, Session, SessionCost, Severity,
};
use crate::text::measure::measure;
use crate::text::settings::SkillOverride;
use crate::tree::Tree;
use crate::version::{Behaviour, BuiltInSkill, ListingBudget, Rules, SkillAnnouncement};
use crate::vpath::VPath;

/// `\n\nContents of ` + `:\n\n` around each file's path and label.
const ENTRY_FRAME_UTF16: u64 = 14 + 3;
/// `\n- ` before each of the user's listing lines.
const SKILL_LINE_FRAME_UTF16: u64 = 3;
/// `\n- ` before each of the user's lines in the listing of agent types.
const AGENT_LINE_FRAME_UTF16: u64 = 3;
/// The name the instruction block gives the managed settings' inline `claudeMd`.
pub(crate) const INLINE_MANAGED_NAME: &str = "<managed-settings>";
/// `<system-reminder>\nContents of ` + `:\n\n` + `\n</system-reminder>` and the newline
/// that joins it to the next, around a file a read attaches (measured on 2.1.328).
const ATTACHED_FRAME_UTF16: u64 = 18 + 12 + 3 + 19 + 1;

impl Discovery<'_> {
    /// The session's instruction block in order, the skills listing and the memory section;
    /// marks each row that is part of it as counted.
    pub(super) fn session(&mut self, rows: &mut [FileRow]) -> Session {
        for row in rows.iter_mut() {
            row.counted = false;
        }
        let mut sent = BTreeSet::new();
        let mut files = Vec::new();
        let top: Vec<VPath> = self.startup.clone();
        let top_level = TopLevel::of(rows);
        for path in &top {
            let Some(index) = top_level.get(path) else {
                continue;
            };
            let label = label_of(&rows[index], &self.paths.rules);
            for i in sent_subtree(rows, index) {
                if sent.insert(rows[i].path.clone()) {
                    rows[i].counted = true;
                    files.push(sent_file(rows, i, Some(label)));
                }
            }
        }
        let twice = self.files_sent_twice(&files);
        self.diagnostics.extend(twice);
        let listed: Vec<&SkillLine> = self
            .skill_lines
            .iter()
            .filter(|l| l.source == SkillSource::Listed)
            .collect();
        // Over its budget the listing cuts descriptions or gives some skills their name alone.
        let limit = self.description_limit();
        let rules = self.paths.rules;
        let listing = rules.listing_budget;
        let columns = rules.has(Behaviour::ListingCountsColumns);
        let lines: Vec<(u64, u64)> = listed
            .iter()
            .map(|l| {
                let length = |text: &str| {
                    let (measured, width) = listed_measure(self.tree, text, &l.shown);
                    if columns {
                        width
                    } else {
                        measured.utf16
                    }
                };
                (length(&l.line), length(&l.shown))
            })
            .collect();
        // The built-in skills a user's skill or command of their name replaces, or
        // `skillOverrides` takes out or shortens (measured on 2.1.328).
        let (built_ins, built_ins_removed) = self.built_ins_in_force(&listing);
        let shown = fit_listing(
            &lines,
            limit,
            self.listing_budget(&listing),
            &built_ins,
            &rules,
        );
        // Filling the budget in listing order, the order decides which descriptions fit.
        let order_decides_fit = rules.has(Behaviour::ListingFillsInOrder)
            && shown.iter().take(listed.len()).any(|s| *s != Shown::Whole);
        let mut skills = Vec::new();
        let mut skills_units = 0;
        for (skill, shown) in listed.iter().zip(&shown) {
            let line = shown_line(&skill.line, &skill.shown, *shown, columns);
            let measured = listed_measure(self.tree, &line, &skill.shown).0;
            skills_units = u64::saturating_add(skills_units, measured.utf16);
            if let Some(index) = top_level.get(&skill.path) {
                rows[index].counted = true;
                rows[index].skill_listing = Some(Measure {
                    lines: 0,
                    ..measured
                });
            }
            skills.push(line);
        }
        let twice = descriptions_sent_twice(self.tree, &listed, &skills);
        self.diagnostics.extend(twice);
        // What the built-in skills lose to the cut and the budget comes off their length.
        let built_ins_lost: u64 = built_ins
            .iter()
            .zip(shown.iter().skip(listed.len()))
            .map(|(skill, shown)| built_in_units_lost(skill, limit, *shown, columns))
            .sum::<u64>()
            + built_ins_removed;
        self.note_unknown_skill_order(order_decides_fit);
        let memory_dir = self
            .memory_dir
            .clone()
            .filter(|_| self.settings.auto_memory_enabled && self.paths.project.is_some());

        let own = self.paths.rules.own_text;
        let mut cost = SessionCost::default();
        if !files.is_empty() {
            // What Claude Code writes into a file as it sends it (a `MEMORY.md`'s sentence on
            // quoted notes from 2.1.337, its `> ` marks, the warning after a cut) is sent as
            // part of the file, but it is Claude Code's text, not the user's.
            let within = saturating_sum(files.iter().map(|f| {
                rows[f.row]
                    .claude_code
                    .map_or(0, |m| m.utf16.min(f.loaded.utf16))
            }));
            let sent = saturating_sum(files.iter().map(|f: &SentFile| f.loaded.utf16));
            cost.instruction_block = Cost {
                user: sent.saturating_sub(within),
                claude_code: saturating_sum([own.block_wrap, within]).saturating_add(
                    saturating_sum(files.iter().map(|f| {
                        saturating_sum([
                            ENTRY_FRAME_UTF16,
                            self.quoted_utf16(&f.path),
                            label_units(f.label),
                        ])
                    })),
                ),
            };
        }
        // A release without built-in skills sends no listing unless the user has skills;
        // its opening is then the 65 units of `The following skills …:\n\n` and the first
        // line goes without its `\n`.
        let listing_base = match (own.skills_listing, skills.len()) {
            (0, 0) => None,
            (0, _) => Some(65),
            (base, _) => Some(base - built_ins_lost.min(base)),
        };
        if let Some(base) = listing_base {
            cost.skills_listing = Cost {
                user: skills_units,
                claude_code: base + SKILL_LINE_FRAME_UTF16 * skills.len() as u64
                    - u64::from(own.skills_listing == 0),
            };
        }
        if let Some(dir) = &memory_dir {
            // The section names the folder with a trailing slash.
            cost.memory_section = Cost {
                user: 0,
                claude_code: saturating_sum([
                    own.memory_section,
                    self.quoted_utf16(dir.as_str()),
                    1,
                ]),
            };
        }
        let (agents, agents_units) = self.agent_listing();
        cost.agents = Cost {
            user: agents_units,
            claude_code: self.own_agent_listing() + AGENT_LINE_FRAME_UTF16 * agents.len() as u64,
        };
        cost.total = Cost {
            user: saturating_sum([
                cost.instruction_block.user,
                cost.skills_listing.user,
                cost.agents.user,
            ]),
            claude_code: saturating_sum([
                cost.instruction_block.claude_code,
                cost.skills_listing.claude_code,
                cost.memory_section.claude_code,
                cost.agents.claude_code,
            ]),
        };
        cost.tokens_estimate = estimate_tokens(cost.total.total());
        Session {
            files,
            skills,
            agents,
            memory_dir: memory_dir.map(|d| format!("{}/", d.as_str())),
            cost,
            later: later_cost(rows, &self.attached, self.paths.reads_attach()),
            not_counted: self.not_counted.clone(),
            plugins: self.plugin_infos.clone(),
        }
    }

    /// The built-in skills as this session lists them, and the units their lines lose
    /// beyond the cut and the budget: a user's or project's skill or command of a built-in's
    /// name replaces it (its line goes; theirs is listed in its own place), `skillOverrides`
    /// `off` or `user-invocable-only` on its name takes its line out, `name-only` leaves its
    /// name (measured on 2.1.328: `agents-built-in-skills-replaced`). A name-only built-in
    /// is given as a bare one (no description, no `: `), kept whole. Rows measured without names
    /// (before 2.1.328) change nothing.
    fn built_ins_in_force(&self, listing: &ListingBudget) -> (Vec<BuiltInSkill>, u64) {
        let mut kept = Vec::new();
        let mut removed = 0;
        for skill in listing.built_ins {
            let whole = skill.name_units + 2 + skill.description_units;
            if skill.name.is_empty() {
                kept.push(*skill);
                continue;
            }
            if self.own_names.contains(skill.name) {
                removed += SKILL_LINE_FRAME_UTF16 + whole;
                continue;
            }
            match self.skill_override(skill.name) {
                SkillOverride::On => kept.push(*skill),
                SkillOverride::Off | SkillOverride::UserInvocableOnly => {
                    removed += SKILL_LINE_FRAME_UTF16 + whole;
                }
                SkillOverride::NameOnly => {
                    removed += 2 + skill.description_units;
                    kept.push(BuiltInSkill {
                        description_units: 0,
                        line_breaks: &[],
                        fixed: true,
                        bare: true,
                        ..*skill
                    });
                }
            }
        }
        (kept, removed)
    }

    /// A `sent-twice` finding for each instruction file every session sends with the same
    /// text as one sent before it (measured on 2.1.328 and 2.1.337: a parent folder's
    /// `CLAUDE.md` and the project's `CLAUDE.local.md` with the same words are both sent;
    /// `sent-twice-links-copies-imports-and-listings`). The finding names the earlier file
    /// in its data, so that a shared copy carries the pair ([`Tree::set_sent_twice`]).
    fn files_sent_twice(&self, files: &[SentFile]) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        let mut copies = FirstCopies::new(self.tree);
        for file in files {
            let print = VPath::new(&file.path)
                .ok()
                .and_then(|p| self.sent_texts.get(&p).copied());
            let Some(earlier) = copies.earlier(&file.path, print) else {
                continue;
            };
            let units = group_digits(file.loaded.utf16);
            out.push(
                Diagnostic::new(
                    Code::SentTwice,
                    Severity::Warning,
                    Some(&file.path),
                    format!(
                        "sends the same text as {earlier}, which every session also sends: \
                         this second copy costs {units} characters (UTF-16 units, as Claude \
                         Code counts them) in every session; keep one of the two"
                    ),
                )
                .with_data(DiagnosticData::Paths {
                    paths: vec![earlier.to_owned()],
                }),
            );
        }
        out
    }

    /// The user's lines of the listing of agent types, in its order, and their UTF-16 units
    /// as sent (a shared snapshot's pseudonym of a name counted at the original's length).
    fn agent_listing(&self) -> (Vec<String>, u64) {
        let mut lines = Vec::new();
        let mut units = 0;
        for agent in self.agents.iter().filter(|a| a.shadowed_by.is_none()) {
            units += listed_measure(self.tree, &agent.line, &agent.name).0.utf16;
            lines.push(agent.line.clone());
        }
        (lines, units)
    }

    /// Claude Code's own text in the listing of agent types: its opening, its note, and the
    /// built-in agents' lines but those a user's agent of the same name replaces.
    fn own_agent_listing(&self) -> u64 {
        let listing = self.paths.rules.agent_listing;
        let replaced: u64 = listing
            .built_ins
            .iter()
            .filter(|(name, _)| {
                self.agents
                    .iter()
                    .any(|a| a.shadowed_by.is_none() && a.name == *name)
            })
            .map(|(_, units)| units)
            .sum();
        listing.units - replaced
    }

    /// The UTF-16 units Claude Code's text spends on quoting a path: its own, or for a
    /// shared snapshot's pseudonym of another length, the original's ([`Tree::quoted`]).
    fn quoted_utf16(&self, path: &str) -> u64 {
        self.tree
            .quoted(path)
            .map_or_else(|| utf16(path), |q| q.utf16)
    }

    /// The skills listing's budget: `SLASH_COMMAND_TOOL_CHAR_BUDGET` when it is a positive
    /// number, else the release's share of the context window, the share
    /// `skillListingBudgetFraction` where the release reads it.
    pub(super) fn listing_budget(&self, listing: &ListingBudget) -> u64 {
        let from_env = self
            .paths
            .skill_listing_budget_env
            .as_deref()
            .and_then(listing_budget_from_env);
        let setting = self.settings.skill_listing_budget_fraction.filter(|_| {
            self.paths
                .rules
                .has(Behaviour::ListingBudgetFractionSetting)
        });
        from_env.unwrap_or_else(|| setting.map_or(listing.default_budget(), |f| listing.budget(f)))
    }

    /// What a Read of `path` attaches: the files of each folder between the project and
    /// it, every conditional rule its globs match, and the skills of those folders.
    pub(super) fn read_answer(
        &mut self,
        rows: &[FileRow],
        read: &ReadPath,
        sent: &mut BTreeSet<String>,
    ) -> ReadAnswer {
        let mut answer = ReadAnswer {
            path: read.raw.clone(),
            ..ReadAnswer::default()
        };
        let (project, target) = match (&self.paths.project, &read.target) {
            (Some(project), ReadTarget::At(target)) => (project.clone(), target.clone()),
            (None, _) | (_, ReadTarget::NoProject) => {
                answer.note = Some("no project folder: nothing attaches".to_owned());
                return answer;
            }
            (Some(_), ReadTarget::NotAPath(error)) => {
                answer.note = Some(format!("not a path: {error}"));
                return answer;
            }
        };
        answer.path = target.as_str().to_owned();
        let mut dirs: Vec<VPath> = target
            .ancestors()
            .skip(1)
            .take_while(|d| d.starts_with(&project) && *d != project)
            .collect();
        dirs.reverse();
        if !target.starts_with(&project) || target == project {
            // Measured on 2.1.328: a read outside the working directory attaches nothing,
            // not even a rule whose globs would match.
            answer.note = Some(format!(
                "{target} is outside the project folder: a read there attaches nothing"
            ));
            return answer;
        }
        if !self.paths.reads_attach() {
            // 2.1.68's code: the print session's tools get no set to collect the files a
            // Read makes relevant, the interactive session's do.
            answer.note = Some(
                "a Read in a claude -p or SDK session attaches nothing on this release \
                 (interactive sessions attach, print sessions from 2.1.69)"
                    .to_owned(),
            );
            return answer;
        }
        // Folder by folder from the project down: each folder's files and rules, its
        // conditional rules that match; then the matching conditional rules of the walk,
        // the user and the managed policy.
        let conditional = |row: &FileRow| {
            row.depth == 0 && row.load == LoadType::Conditional && row.status == FileStatus::Ok
        };
        let mut indices = Vec::new();
        let top_level = TopLevel::of(rows);
        for dir in &dirs {
            for (owner, file) in &self.attach {
                if owner == dir {
                    indices.extend(top_level.get(file));
                }
            }
            for (index, row) in rows.iter().enumerate() {
                let owned = VPath::new(&row.path).is_ok_and(|p| family_dir(&p) == *dir);
                if conditional(row) && owned && self.rule_matches(row, &target, &project) {
                    indices.push(index);
                }
            }
        }
        for (index, row) in rows.iter().enumerate() {
            let below = VPath::new(&row.path)
                .is_ok_and(|p| family_dir(&p).starts_with(&project) && family_dir(&p) != project);
            if conditional(row) && !below && self.rule_matches(row, &target, &project) {
                indices.push(index);
            }
        }
        for index in indices {
            for i in sent_subtree(rows, index) {
                if sent.insert(rows[i].path.clone()) {
                    // A read attaches the file untrimmed, unlike the instruction block.
                    let mut file = sent_file(rows, i, None);
                    if let Some(attached) = VPath::new(&file.path)
                        .ok()
                        .and_then(|p| self.attached.get(&p))
                    {
                        file.loaded = *attached;
                    }
                    answer.files.push(file);
                }
            }
        }
        // Skills with `paths` a Read matches, each once, by name (measured on 2.1.328:
        // `skills-listing-edge-paths`).
        let relative = target.strip_prefix(&project).unwrap_or_default();
        let mut on_paths: Vec<(&SkillLine, u64)> = self
            .skill_lines
            .iter()
            .filter(|l| l.source == SkillSource::OnPaths)
            .filter(|l| super::rules::RuleGlobs::new(&l.paths).matches(relative))
            .map(|l| (l, listed_measure(self.tree, &l.line, &l.shown).0.utf16))
            .collect();
        on_paths.sort_by(|a, b| super::commands::compare_locale(&a.0.shown, &b.0.shown));
        let mut matched = Vec::new();
        for (skill, units) in on_paths {
            if sent.insert(skill.path.as_str().to_owned()) {
                matched.push((skill.line.clone(), units));
            }
        }
        let mut reached = Vec::new();
        for SkillLine {
            path: skill,
            shown,
            line,
            source,
            ..
        } in &self.skill_lines
        {
            if *source != SkillSource::BelowProject
                || self.paths.rules.skill_announcement == SkillAnnouncement::Never
            {
                continue;
            }
            let owner = family_dir(skill);
            // Each skill is announced once per session.
            if !dirs.contains(&owner) || !sent.insert(skill.as_str().to_owned()) {
                continue;
            }
            let rel = owner.strip_prefix(&project).unwrap_or_default();
            let announced = format!(
                "{line} (from {rel}/.claude/skills — applies when working on files under {rel}/)"
            );
            // The line quotes the skill's listed name once and its folder twice: in a shared
            // snapshot both are pseudonyms, counted at the lengths they had (Tree::quoted).
            let units = listed_measure(self.tree, &announced, shown)
                .0
                .utf16
                .saturating_sub(2 * utf16(rel))
                .saturating_add(2u64.saturating_mul(self.quoted_utf16(rel)));
            reached.push((announced, units));
        }
        let announced = match self.paths.rules.skill_announcement {
            SkillAnnouncement::Never => Vec::new(),
            SkillAnnouncement::OnRead => reached,
            SkillAnnouncement::OnNextRead => {
                std::mem::replace(&mut self.announce_on_next_read, reached)
            }
        };
        let mut announced = announced;
        announced.extend(matched);
        let skill_units = saturating_sum(announced.iter().map(|(_, units)| *units));
        answer.skills = announced.into_iter().map(|(line, _)| line).collect();
        answer.cost = Cost {
            user: saturating_sum(answer.files.iter().map(|f| f.loaded.utf16))
                .saturating_add(skill_units),
            claude_code: saturating_sum(
                answer
                    .files
                    .iter()
                    .map(|f| ATTACHED_FRAME_UTF16.saturating_add(self.quoted_utf16(&f.path))),
            ),
        };
        answer
    }

    /// True when the conditional rule `row` attaches on a read of `target`: its globs
    /// match the path relative to the folder that holds its `.claude/` (the project for the
    /// user's rules).
    fn rule_matches(&self, row: &FileRow, target: &VPath, project: &VPath) -> bool {
        let Ok(path) = VPath::new(&row.path) else {
            return false;
        };
        let base = self.rule_base(&path, project);
        let Some(relative) = target.strip_prefix(&base).filter(|r| !r.is_empty()) else {
            return false;
        };
        super::rules::RuleGlobs::new(row.paths.as_deref().unwrap_or_default()).matches(relative)
    }

    /// Each declared sub-agent receives the session's instruction block (project files and
    /// the main `MEMORY.md`), the session's skills listing (commands and plugin entries
    /// included), no listing of agent types (measured on 2.1.328), and its own memory index.
    pub(super) fn agent_receives(&mut self, session: &Session, health: &mut Health) {
        // CLAUDE_CODE_DISABLE_AUTO_MEMORY switches agent memory off too; the settings'
        // autoMemoryEnabled does not (measured on 2.1.328).
        let env_off = !self.settings.auto_memory_enabled && self.settings.enabled_from.is_none();
        for agent in &mut health.agents {
            agent.receives = session.files.clone();
            agent.skills_listing = session.cost.skills_listing;
            if env_off || agent.memory.is_none() {
                continue;
            }
            let dir = agent.memory_dir.as_ref().and_then(|d| VPath::new(d).ok());
            agent.memory_index = match dir.and_then(|d| self.agent_index_text(&d)) {
                Some(text) => Some(measure(&text)),
                // A declared folder with no index: the program says it is empty, in a
                // sentence of this length.
                None => Some(Measure {
                    bytes: self.paths.rules.empty_agent_index,
                    chars: self.paths.rules.empty_agent_index,
                    utf16: self.paths.rules.empty_agent_index,
                    lines: 1,
                }),
            };
        }
    }
}

/// A `sent-twice` finding for each line of the skills listing (a skill or a command)
/// whose description an earlier line already sends whole (measured on 2.1.328 and
/// 2.1.337: a skill and a command with the same description are both listed with it;
/// `sent-twice-links-copies-imports-and-listings`). A line shown by its name alone sends
/// no description. The finding names the earlier line's file in its data.
fn descriptions_sent_twice(
    tree: &Tree,
    listed: &[&SkillLine],
    lines: &[String],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut copies = FirstCopies::new(tree);
    let mut shown: HashMap<&str, &str> = HashMap::new();
    for (skill, line) in listed.iter().zip(lines) {
        let Some(description) = line
            .strip_prefix(skill.shown.as_str())
            .and_then(|rest| rest.strip_prefix(": "))
        else {
            continue;
        };
        let path = skill.path.as_str();
        shown.entry(path).or_insert(skill.shown.as_str());
        let Some(earlier) = copies.earlier(path, twice_print(description)) else {
            continue;
        };
        let units = group_digits(utf16(description));
        let earlier_shown = shown.get(earlier).copied().unwrap_or(earlier);
        out.push(
            Diagnostic::new(
                Code::SentTwice,
                Severity::Warning,
                Some(path),
                format!(
                    "{} is listed with the same description as {earlier_shown} ({earlier}): \
                     this second copy costs {units} characters (UTF-16 units, as Claude Code \
                     counts them) in every session's skills listing; keep one, or say what \
                     tells them apart",
                    skill.shown
                ),
            )
            .with_data(DiagnosticData::Paths {
                paths: vec![earlier.to_owned()],
            }),
        );
    }
    out
}

/// What can load after the session starts, by kind, each file once; nothing a Read would
/// attach when Reads attach nothing in this session (`reads_attach`).
fn later_cost(
    rows: &[FileRow],
    attached: &HashMap<VPath, Measure>,
    reads_attach: bool,
) -> LaterCost {
    fn add<'a>(
        seen: &mut HashSet<&'a str>,
        figure: &mut Figure,
        row: &'a FileRow,
        measure: Option<Measure>,
    ) {
        if seen.insert(row.path.as_str()) {
            figure.files += 1;
            figure.utf16 += measure.map_or(0, |m| m.utf16);
        }
    }
    let mut later = LaterCost::default();
    // What every session already sends is not counted again; a listed skill's body is.
    let mut seen: HashSet<&str> = rows
        .iter()
        .filter(|r| r.counted && !matches!(r.group, Group::Skills | Group::Commands))
        .map(|r| r.path.as_str())
        .collect();
    for (index, row) in rows.iter().enumerate() {
        if row.load == LoadType::OnDemand {
            // Read on purpose (a topic file, linked or not, a skill's body): the whole file,
            // as the Read tool returns it.
            if row.status == FileStatus::Ok && row.raw.is_some() {
                add(&mut seen, &mut later.on_demand, row, row.raw);
            }
            continue;
        }
        if row.depth != 0 {
            continue;
        }
        // What a read attaches is sent untrimmed; a sub-agent's files, like every session's.
        let (figure, on_read) = match (row.group, row.load) {
            (Group::AgentMemory, LoadType::Startup) => (&mut later.agent_memory, false),
            (_, LoadType::Tree | LoadType::Conditional) if !reads_attach => continue,
            (_, LoadType::Tree) => (&mut later.on_read, true),
            (_, LoadType::Conditional) => (&mut later.conditional_rules, true),
            _ => continue,
        };
        for i in sent_subtree(rows, index) {
            let as_attached = on_read
                .then(|| VPath::new(&rows[i].path).ok())
                .flatten()
                .and_then(|p| attached.get(&p).copied());
            add(&mut seen, figure, &rows[i], as_attached.or(rows[i].loaded));
        }
    }
    later
}

/// Each depth-0 row's index by its path (the first such row), built once per pass: looking
/// rows up by scanning them made a folder of 100,000 rules quadratic.
struct TopLevel(HashMap<String, usize>);

impl TopLevel {
    fn of(rows: &[FileRow]) -> TopLevel {
        let mut index = HashMap::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate().filter(|(_, r)| r.depth == 0) {
            index.entry(row.path.clone()).or_insert(i);
        }
        TopLevel(index)
    }

    /// The index of the depth-0 row for `path`.
    fn get(&self, path: &VPath) -> Option<usize> {
        self.0.get(path.as_str()).copied()
    }
}

/// The rows of the subtree at `index` that are sent: the row itself when it loads, then
/// each import that loads with it, depth first, as the program appends them.
fn sent_subtree(rows: &[FileRow], index: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let sendable = |row: &FileRow| {
        row.status == FileStatus::Ok && row.loaded.is_some_and(|l| l.utf16 > 0 || l.bytes > 0)
    };
    if !sendable(&rows[index]) || matches!(rows[index].group, Group::Skills | Group::Commands) {
        return out;
    }
    // Whether each row of the subtree loads, by its place after `index`: the subtree ends at
    // the next top-level row, so this stays as small as the subtree (one flag per row of
    // the whole report, made for each file, was quadratic in a folder of many rules).
    let mut loads = vec![true];
    out.push(index);
    for row in &rows[index + 1..] {
        if row.depth == 0 {
            break;
        }
        let parent_loads = row
            .parent_index
            .and_then(|p| p.checked_sub(index))
            .is_some_and(|p| loads.get(p).copied().unwrap_or(false));
        let sent = parent_loads && row.load == LoadType::Import && sendable(row);
        loads.push(sent);
        if sent {
            out.push(index + loads.len() - 1);
        }
    }
    out
}

fn sent_file(rows: &[FileRow], index: usize, label: Option<SentLabel>) -> SentFile {
    let row = &rows[index];
    // The managed settings' inline instructions are named this way, not by a path.
    let inline = row.group == crate::report::Group::ManagedPolicy
        && row
            .path
            .ends_with(&format!("/{}", super::walk::MANAGED_SETTINGS));
    SentFile {
        path: if inline {
            INLINE_MANAGED_NAME.to_owned()
        } else {
            row.path.clone()
        },
        row: index,
        label,
        loaded: rows[index].loaded.unwrap_or_default(),
    }
}

/// The label of a top-level row; its imports take the same. Releases before 2.1.136 label
/// the managed policy's files as the user's.
fn label_of(row: &FileRow, rules: &Rules) -> SentLabel {
    if row.group == Group::AutoMemory {
        return SentLabel::AutoMemory;
    }
    match row.scope {
        Some(Scope::Managed) if rules.has(Behaviour::ManagedLabel) => SentLabel::Managed,
        Some(Scope::Managed) => SentLabel::User,
        Some(Scope::User) => SentLabel::User,
        Some(Scope::Local) => SentLabel::Local,
        Some(Scope::Project) | None => SentLabel::Project,
    }
}

fn label_units(label: Option<SentLabel>) -> u64 {
    label.map_or(0, |l| utf16(l.text()))
}

fn utf16(text: &str) -> u64 {
    text.encode_utf16().count() as u64
}

/// The budget `SLASH_COMMAND_TOOL_CHAR_BUDGET` sets: a positive number, else none.
pub(crate) fn listing_budget_from_env(value: &str) -> Option<u64> {
    value.trim().parse::<u64>().ok().filter(|n| *n > 0)
}
