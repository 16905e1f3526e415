//! The analysis loop: run discovery, say which contents are missing, or finish the report.

use std::fmt;

use crate::date;
use crate::discover::{self, Found};
use crate::footprint;
use crate::input::{self, Input, InputError, Paths};
use crate::report::comparison::compare;
use crate::report::{
    BehaviourInForce, Context, Diagnostic, Group, GroupSummary, Report, RulesInForce, REPORT_SCHEMA,
};
use crate::tree::{ListingAsk, Probe, Tree};
use crate::version::{Behaviour, Rules, Unsimulated, NOT_REPRODUCED, RULE_CHANGES};
use crate::vpath::VPath;

/// What one turn of the analysis still needs, answered in this order: what a folder holds
/// and how large a file is decide what is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Requests {
    /// Folders put in the tree unlisted ([`Tree::add_unlisted_dir`]) that the turn looked
    /// into, in byte order.
    pub listings: Vec<ListingAsk>,
    /// Single paths the turn looked up inside unlisted folders, in byte order. The driver
    /// leaves out those the listings answered before it asks.
    pub probes: Vec<Probe>,
    /// Files listed without their size and date ([`Tree::mark_unstatted`]) whose entry the
    /// turn looked at, in byte order.
    pub stats: Vec<VPath>,
    /// Files whose contents the turn needs. The driver adds those it wanted while their
    /// size was pending, once the sizes say they are read at all.
    pub reads: Vec<VPath>,
}

impl Requests {
    /// True when the turn needs nothing more.
    pub fn is_empty(&self) -> bool {
        self.listings.is_empty()
            && self.probes.is_empty()
            && self.stats.is_empty()
            && self.reads.is_empty()
    }
}

/// One turn of the analysis loop.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Answer these ([`crate::Answerer`]), then run the next turn.
    Needs(Requests),
    /// The analysis is complete.
    Done(Box<Report>),
}

/// Why an analysis cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeError {
    /// An input path is not absolute or climbs above its root.
    BadInput(String),
    /// The release to simulate is older than the first one measured.
    Unsimulated(Unsimulated),
    /// The analysis still asked for contents after [`MAX_TURNS`] turns: a bug, since each
    /// turn asks only for files it has not asked for before.
    Endless,
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::BadInput(why) => write!(f, "bad input: {why}"),
            AnalyzeError::Unsimulated(why) => write!(f, "{why}"),
            AnalyzeError::Endless => write!(
                f,
                "the analysis kept asking for more files after {MAX_TURNS} turns; please report this"
            ),
        }
    }
}

impl std::error::Error for AnalyzeError {}

impl From<InputError> for AnalyzeError {
    fn from(error: InputError) -> AnalyzeError {
        match error {
            InputError::Bad(why) => AnalyzeError::BadInput(why),
            InputError::Unsimulated(why) => AnalyzeError::Unsimulated(why),
        }
    }
}

/// Runs one turn of the analysis over `tree`.
///
/// Returns what the turn still needs (folders to list, paths to look up, sizes, contents),
/// or the finished report once every file the analysis reads has arrived (or failed to).
/// Calling it again without answers gives the same answer.
///
/// # Errors
/// When an input path is not a valid absolute path, or the release to simulate is older
/// than the first one measured.
pub fn analyze(tree: &Tree, input: &Input) -> Result<Step, AnalyzeError> {
    let step = analyze_both(tree, input)?;
    // What the turn looked into that the tree could not answer yet, recorded by the tree's
    // queries while discovery ran.
    let mut needs = Requests {
        listings: tree.take_listings_asked(),
        probes: tree.take_probes_asked(),
        stats: tree.take_stats_asked(),
        reads: Vec::new(),
    };
    match step {
        Step::Done(report) if needs.is_empty() => Ok(Step::Done(report)),
        Step::Done(_) => Ok(Step::Needs(needs)),
        Step::Needs(Requests { reads, .. }) => {
            needs.reads = reads;
            Ok(Step::Needs(needs))
        }
    }
}

/// One turn under the input's rules and, for a simulated release, the pinned ones too.
fn analyze_both(tree: &Tree, input: &Input) -> Result<Step, AnalyzeError> {
    let step = analyze_once(tree, input)?;
    if input.version.is_none() {
        return Ok(step);
    }
    // A simulated release is compared with the pinned one on the same tree, so that every
    // reader can mark what the simulation changes. The pinned rules may ask for other files
    // (an AGENTS.md an older release never reads): ask for those too before finishing.
    let pinned = analyze_once(
        tree,
        &Input {
            version: None,
            ..input.clone()
        },
    )?;
    match (step, pinned) {
        (Step::Done(mut simulated), Step::Done(pinned)) => {
            simulated.comparison = Some(compare(&pinned, &simulated));
            Ok(Step::Done(simulated))
        }
        (Step::Needs(mut needs), Step::Needs(more)) => {
            needs.reads.extend(more.reads);
            needs.reads.sort();
            needs.reads.dedup();
            Ok(Step::Needs(needs))
        }
        (Step::Needs(needs), _) | (_, Step::Needs(needs)) => Ok(Step::Needs(needs)),
    }
}

/// One analysis under one release's rules.
fn analyze_once(tree: &Tree, input: &Input) -> Result<Step, AnalyzeError> {
    let paths = input::resolve(input)?;
    let found = discover::run(tree, paths.clone());
    if !found.needs.is_empty() {
        return Ok(Step::Needs(Requests {
            reads: found.needs.into_iter().collect(),
            ..Requests::default()
        }));
    }
    Ok(Step::Done(Box::new(finish(tree, &paths, found))))
}

/// The most turns an analysis takes. Each turn asks only for files the previous ones
/// revealed (an import, a nested rule, a skill), so real trees finish in a handful.
pub const MAX_TURNS: u32 = 64;

/// The analysis loop's turns, bounded: [`crate::drive`] runs it, answering each turn's
/// requests; after [`MAX_TURNS`] turns it gives up with [`AnalyzeError::Endless`] rather
/// than loop for ever.
#[derive(Debug, Clone)]
pub struct Analysis<'a> {
    input: &'a Input,
    turns: u32,
}

impl<'a> Analysis<'a> {
    /// A loop over `input`, before its first turn.
    pub fn new(input: &'a Input) -> Analysis<'a> {
        Analysis { input, turns: 0 }
    }

    /// Runs one turn of [`analyze`] over `tree`.
    ///
    /// # Errors
    /// As [`analyze`], and [`AnalyzeError::Endless`] once the turns are used up.
    pub fn turn(&mut self, tree: &Tree) -> Result<Step, AnalyzeError> {
        if self.turns >= MAX_TURNS {
            return Err(AnalyzeError::Endless);
        }
        self.turns += 1;
        analyze(tree, self.input)
    }

    /// How many turns have run.
    pub fn turns(&self) -> u32 {
        self.turns
    }
}

fn finish(tree: &Tree, paths: &Paths, found: Found) -> Report {
    let Found {
        rows,
        memory_folders,
        diagnostics,
        projects_base,
        git_root,
        memory_dir,
        memory_found_via,
        memory_folder_name,
        auto_memory_enabled,
        auto_memory_setting_from,
        health,
        session,
        skills_listing_budget,
        reads,
        sources,
        needs: _,
    } = found;
    let footprint = footprint::apply(&rows);
    let groups = Group::ALL
        .iter()
        .map(|&group| GroupSummary {
            name: group,
            top_level_files: rows
                .iter()
                .filter(|r| r.group == group && r.depth == 0)
                .count() as u64,
            rows: rows.iter().filter(|r| r.group == group).count() as u64,
        })
        .collect();
    let mut diagnostics: Vec<Diagnostic> = tree
        .diagnostics()
        .iter()
        .cloned()
        .chain(diagnostics)
        .collect();
    diagnostics.sort_by(|a, b| {
        (&a.path, a.line, &a.code, a.severity, &a.message)
            .cmp(&(&b.path, b.line, &b.code, b.severity, &b.message))
    });
    diagnostics.dedup();
    let text = |p: &VPath| p.as_str().to_owned();
    let mut report = Report {
        schema: REPORT_SCHEMA.to_owned(),
        context: Context {
            home: text(&paths.home),
            config_dir: text(&paths.config),
            project: paths.project.as_ref().map(text),
            os: paths.os,
            projects_base: text(&projects_base),
            git_root: git_root.as_ref().map(text),
            memory_dir: memory_dir.as_ref().map(text),
            memory_found_via,
            auto_memory_enabled,
            auto_memory_setting_from: auto_memory_setting_from.as_ref().map(text),
            memory_folder_name,
            version: paths
                .version
                .map_or_else(|| "current".to_owned(), |v| v.to_string()),
            today: paths.today.map(date::format_day),
        },
        files: rows,
        groups,
        footprint,
        memory_folders,
        diagnostics,
        verdict: Vec::new(),
        health,
        session,
        reads,
        rules: rules_in_force(&paths.rules, skills_listing_budget),
        comparison: None,
        sources,
    };
    report.verdict = crate::report::verdict::verdict(&report);
    report
}

/// The report's account of the rules applied; `skills_listing_budget` is the budget the
/// listing was fitted to (the release's default, or the environment's or settings').
fn rules_in_force(rules: &Rules, skills_listing_budget: u64) -> RulesInForce {
    use crate::text::memory_index::{MAX_LINES, MAX_UTF16};
    RulesInForce {
        release: rules
            .release
            .map_or_else(|| "current".to_owned(), |v| v.to_string()),
        memory_max_lines: MAX_LINES,
        memory_max_utf16: rules.has(Behaviour::MemorySizeCap).then_some(MAX_UTF16),
        import_max_hops: rules.max_import_hops,
        file_max_bytes: rules
            .has(crate::version::Behaviour::FileSizeCap)
            .then_some(discover::CLAUDE_MD_MAX_BYTES),
        large_file_chars: discover::LARGE_FILE_CHARS,
        total_chars: discover::TOTAL_CHARS,
        skills_listing_budget,
        skills_listing_counts_columns: rules.has(crate::version::Behaviour::ListingCountsColumns),
        behaviours: RULE_CHANGES
            .iter()
            .map(|change| BehaviourInForce {
                id: change.behaviour.id().to_owned(),
                since: change.version.to_string(),
                summary: change.summary.to_owned(),
                applies: rules.has(change.behaviour),
            })
            .collect(),
        not_reproduced: NOT_REPRODUCED
            .iter()
            .filter(|gap| rules.release.is_some_and(|v| gap.from <= v && v <= gap.to))
            .map(|gap| gap.summary.to_owned())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::analyze_with;
    use crate::tree::{ContentSource, Entry};
    use std::collections::BTreeMap;

    fn waiting_tree() -> (Tree, Input) {
        let tree = Tree::from_entries(
            &["/home/alice/.claude"],
            [Entry {
                path: "/home/alice/.claude/CLAUDE.md".to_owned(),
                size: 12,
                bytes: None,
                modified: None,
            }],
        );
        let input = Input {
            home: "/home/alice".to_owned(),
            ..Input::default()
        };
        (tree, input)
    }

    #[test]
    fn the_loop_gives_up_after_its_turns_when_contents_never_come() {
        let (tree, input) = waiting_tree();
        let mut analysis = Analysis::new(&input);
        for _ in 0..MAX_TURNS {
            assert!(matches!(analysis.turn(&tree), Ok(Step::Needs(_))));
        }
        assert_eq!(analysis.turns(), MAX_TURNS);
        assert_eq!(analysis.turn(&tree), Err(AnalyzeError::Endless));
    }

    /// Each file's size and bytes, as a disk would answer.
    type Files = BTreeMap<VPath, (u64, &'static [u8])>;

    /// A `CLAUDE.md` importing `notes.md`, both listed by name only (as the page lists a
    /// dropped folder), `CLAUDE.md` of `size` bytes.
    fn unstatted_tree(size: u64) -> (Tree, Input, Files) {
        let files: Files = [
            (
                "/home/alice/.claude/CLAUDE.md",
                (size, &b"see @notes.md\n"[..]),
            ),
            ("/home/alice/.claude/notes.md", (6, &b"notes\n"[..])),
        ]
        .into_iter()
        .map(|(path, file)| (VPath::new(path).unwrap(), file))
        .collect();
        let mut tree = Tree::from_entries(&["/home/alice/.claude"], []);
        for path in files.keys() {
            tree.insert_entry(Entry {
                path: path.as_str().to_owned(),
                size: 0,
                bytes: None,
                modified: None,
            })
            .unwrap();
            tree.mark_unstatted(path);
        }
        let input = Input {
            home: "/home/alice".to_owned(),
            ..Input::default()
        };
        (tree, input, files)
    }

    /// Answers from `files`, counting the reads.
    struct Disk {
        files: Files,
        read: Vec<VPath>,
    }

    impl ContentSource for Disk {
        fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
            self.read.push(path.clone());
            Ok(self.files[path].1.to_vec())
        }

        fn stat(&mut self, tree: &mut Tree, path: &VPath) {
            tree.set_stat(path, self.files[path].0, None);
        }
    }

    #[test]
    fn a_file_whose_size_is_pending_is_read_in_the_round_its_size_arrives() {
        let (mut tree, input, _) = unstatted_tree(14);
        let claude_md = VPath::new("/home/alice/.claude/CLAUDE.md").unwrap();
        // The turn never asks to read a file whose size it does not know...
        let Step::Needs(needs) = analyze(&tree, &input).unwrap() else {
            panic!("the size is pending");
        };
        assert!(!needs.reads.contains(&claude_md));
        assert_eq!(needs.stats, std::slice::from_ref(&claude_md));
        // ...but names it, to be read as soon as the size says it is read at all.
        tree.set_stat(&claude_md, 14, None);
        assert_eq!(tree.take_reads_once_sized(), [claude_md]);
        assert!(
            tree.take_reads_once_sized().is_empty(),
            "the record starts afresh"
        );

        // So a loop takes one turn per level of imports, plus the last.
        let (mut tree, input, files) = unstatted_tree(14);
        let mut disk = Disk {
            files,
            read: Vec::new(),
        };
        let report = analyze_with(&mut tree, &input, &mut disk).unwrap();
        assert_eq!(disk.read.len(), 2);
        assert!(report
            .files
            .iter()
            .any(|row| row.path.ends_with("notes.md")));
    }

    #[test]
    fn a_file_whose_size_is_pending_is_not_read_once_sized_over_a_cap() {
        // Over Claude Code's 4 MiB cap, under the read limit: skipped, never read.
        let size = discover::CLAUDE_MD_MAX_BYTES + 1;
        let (mut tree, input, files) = unstatted_tree(size);
        let mut disk = Disk {
            files,
            read: Vec::new(),
        };
        let report = analyze_with(&mut tree, &input, &mut disk).unwrap();
        assert_eq!(disk.read, Vec::<VPath>::new());
        let row = &report.files[0];
        assert_eq!(
            (row.path.as_str(), row.status, row.size),
            (
                "/home/alice/.claude/CLAUDE.md",
                crate::report::FileStatus::Skipped,
                Some(size)
            )
        );
    }

    #[test]
    fn the_loop_finishes_once_the_contents_arrive() {
        let (mut tree, input) = waiting_tree();
        struct Text;
        impl ContentSource for Text {
            fn read(&mut self, _: &VPath) -> Result<Vec<u8>, String> {
                Ok(b"be concise\n".to_vec())
            }
        }
        let report = analyze_with(&mut tree, &input, &mut Text).unwrap();
        assert!(report
            .files
            .iter()
            .any(|row| row.path == "/home/alice/.claude/CLAUDE.md"));
    }
}
