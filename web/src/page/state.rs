//! The page's state: one [`State`], the [`Action`]s that change it, and the pure logic behind
//! them (selection, collapsing, filtering, keyboard order, scan freshness, where an added
//! `~/.claude.json` goes).
//!
//! Nothing here touches the DOM or the clock: time comes in as a number, so every rule can be
//! tested natively. Things that cannot be compared or cloned cheaply (the dropped `File`
//! objects, the zip archive) live in [`crate::page::ingest`], not here.

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

use memdiag_core::report::{Context, FileRow, FileStatus, Group, Report};
use memdiag_core::{
    ClaudeVersion, Input, Tree, FIRST_SIMULATED, PINNED, PUBLISHED_RELEASES, UNSIMULATED_BEFORE,
};
use yew::Reducible;

use crate::page::decimal::fixed;
pub use crate::wire::inputs::{claude_json_path, Inputs, Progress, SharedFrom, SourceInfo};

/// How long a scan's result is reused before a re-run lists and reads the sources again.
pub const SCAN_FRESH_MS: f64 = 30_000.0;

/// A shared value compared by identity, so props holding a large report stay cheap to diff.
pub struct Shared<T>(pub Rc<T>);

impl<T> Shared<T> {
    /// Wraps a value.
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(value))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Shared(..)")
    }
}

/// One focusable item of the tree: a group header or a file row (by index in `report.files`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TreeItem {
    /// A group header.
    Group(Group),
    /// A row of `report.files`.
    File(usize),
}

/// A key the tree reacts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NavKey {
    /// Next visible item.
    Down,
    /// Previous visible item.
    Up,
    /// Expand, or step into the first child.
    Right,
    /// Collapse, or step out to the parent.
    Left,
    /// First item.
    Home,
    /// Last item.
    End,
    /// Toggle a header or a row with children.
    Enter,
}

impl NavKey {
    /// The key for a `KeyboardEvent.key` value.
    pub fn from_key(key: &str) -> Option<NavKey> {
        Some(match key {
            "ArrowDown" => NavKey::Down,
            "ArrowUp" => NavKey::Up,
            "ArrowRight" => NavKey::Right,
            "ArrowLeft" => NavKey::Left,
            "Home" => NavKey::Home,
            "End" => NavKey::End,
            "Enter" | " " => NavKey::Enter,
            _ => return None,
        })
    }
}

/// The unit of the footprint bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unit {
    /// Unicode characters.
    #[default]
    Chars,
    /// UTF-8 bytes.
    Bytes,
}

/// What the file view shows below its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    /// The raw text with line numbers.
    #[default]
    Raw,
    /// The rendered Markdown.
    Preview,
}

/// What the pane beside the tree shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// The selected file.
    #[default]
    File,
    /// The health view: the five reasons, the memory figures and the growth projection.
    Health,
    /// What a Read of a file attaches: nested instruction files, conditional rules, skills.
    Reads,
}

/// The releases the version field suggests: every published one the core can simulate,
/// newest first.
pub fn release_suggestions() -> Vec<String> {
    PUBLISHED_RELEASES
        .iter()
        .rev()
        .filter(|v| **v >= FIRST_SIMULATED)
        .map(ToString::to_string)
        .collect()
}

/// What a typed release number means: `Ok(None)` for the pinned release (empty, `current`
/// or its own number), `Ok(Some(number))` for one the core simulates, or why not.
///
/// # Errors
/// Text that is not a release number, or a release older than the first one measured.
pub fn check_release(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    if text.is_empty()
        || text.eq_ignore_ascii_case("current")
        || text.eq_ignore_ascii_case("pinned")
    {
        return Ok(None);
    }
    let version = ClaudeVersion::parse(text)?;
    if version == PINNED {
        return Ok(None);
    }
    if version < FIRST_SIMULATED {
        return Err(format!(
            "{version} cannot be simulated: {UNSIMULATED_BEFORE}; pick {FIRST_SIMULATED} or later"
        ));
    }
    Ok(Some(version.to_string()))
}

/// The `~/.claude.json` the person added, as the page shows it. Its `File` lives in
/// [`crate::page::ingest::Snapshot`]; its bytes are read only if the analysis asks for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeJsonInfo {
    /// The chosen file's name (`.claude.json`, or a copy such as `claude.json`).
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
}

/// What the page can add to an import that waits for approval (status `needs approval`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ApprovalHint {
    /// Nothing: no import waits, or the snapshot is shared and nothing can be added.
    #[default]
    Nothing,
    /// No `~/.claude.json` in the snapshot: adding one shows whether the person approved.
    AddClaudeJson,
    /// The snapshot's `~/.claude.json` does not approve imports for this project.
    NotApproved,
}

/// The [`ApprovalHint`] for a report and the tree it was made from.
pub fn approval_hint(report: &Report, tree: &Tree, read_only: bool) -> ApprovalHint {
    if !report
        .files
        .iter()
        .any(|row| row.status == FileStatus::NeedsApproval)
    {
        return ApprovalHint::Nothing;
    }
    let context = &report.context;
    let present = claude_json_path(&context.home, Some(&context.config_dir))
        .is_some_and(|path| tree.is_file(&path));
    match (present, read_only) {
        (true, _) => ApprovalHint::NotApproved,
        (false, false) => ApprovalHint::AddClaudeJson,
        (false, true) => ApprovalHint::Nothing,
    }
}

/// Where a finding about `path` (at `line`) opens in the file view: the row with that path,
/// or, for a folder, its first top-level file (a memory folder's `MEMORY.md`). `None` when
/// the report lists no such file.
pub fn open_target(
    report: &Report,
    path: &str,
    line: Option<u64>,
) -> Option<(String, Option<u64>)> {
    if report.files.iter().any(|row| row.path == path) {
        return Some((path.to_owned(), line));
    }
    let folder = format!("{}/", path.trim_end_matches('/'));
    let inside = |row: &&FileRow| row.path.starts_with(&folder);
    report
        .files
        .iter()
        .filter(inside)
        .find(|row| row.parent_index.is_none())
        .or_else(|| report.files.iter().find(inside))
        .map(|row| (row.path.clone(), None))
}

/// Why an analysis runs; it decides whether sources are listed and read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunReason {
    /// New sources were dropped or chosen: everything is fresh anyway.
    NewSources,
    /// The person pressed Refresh.
    Refresh,
    /// The person picked another project.
    ProjectSwitch,
    /// The person edited home, OS or config dir.
    InputEdit,
    /// The person asked what a Read of a file attaches: the same files, one more question.
    Read,
}

/// True when a run for `reason` should list and read the sources again rather than reuse
/// the last scan: Refresh and a project switch always do, an edit only once the last scan is
/// older than [`SCAN_FRESH_MS`].
pub fn needs_rescan(reason: RunReason, scanned_at: Option<f64>, now_ms: f64) -> bool {
    match reason {
        RunReason::NewSources | RunReason::Read => false,
        RunReason::Refresh | RunReason::ProjectSwitch => true,
        RunReason::InputEdit => match scanned_at {
            Some(at) => now_ms - at >= SCAN_FRESH_MS,
            None => true,
        },
    }
}

/// A shared snapshot the page shows read-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedView {
    /// When it was made, as the sender's page gave it (ISO 8601).
    pub made: String,
    /// Where it came from.
    pub from: SharedFrom,
    /// The payload format it was written in.
    pub format: u32,
    /// True when the sender kept the files' text.
    pub text_kept: bool,
}

/// The whole state of the page, in the parts each view reads; one reducer
/// ([`State::apply`]) changes all of them, as in yew's `function_todomvc`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// The run in progress or the last one: its id, progress, error and notice.
    pub status: Status,
    /// The last finished report, with what it was made from.
    pub loaded: Loaded,
    /// What the page analyses: its sources, the host facts, an added `~/.claude.json`, or a
    /// shared snapshot.
    pub sources: Sources,
    /// The tree's selection, collapsing and filter.
    pub nav: Nav,
    /// What the pane beside the tree shows, and the footprint's unit.
    pub pane: Pane,
    /// Which dialog is open.
    pub dialogs: Dialogs,
}

/// The run in progress or the last one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Status {
    /// The id of the newest run; results of older runs are dropped.
    pub run: u64,
    /// Progress of the running scan, if one runs.
    pub busy: Option<Progress>,
    /// A failure that stopped the last run.
    pub error: Option<String>,
    /// A message for the person that is not an error (a source that cannot be re-read).
    pub notice: Option<String>,
    /// When the last scan finished, in milliseconds of the page clock.
    pub scanned_at: Option<f64>,
    /// Input the page did not take, shown in a banner over what stays shown.
    pub refusal: Option<Refusal>,
}

/// Input the page did not take as it came: an empty folder or zip, one it could not open,
/// or a folder that is neither a `~/.claude` nor a project. What was shown before stays
/// until the person chooses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What was found, naming the folder or zip.
    pub found: String,
    /// What the page expected instead.
    pub expected: String,
    /// True when it can be taken anyway, as the project (an unrelated folder).
    pub can_take: bool,
}

/// The last finished report and what it was made from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Loaded {
    /// The last finished report.
    pub report: Option<Shared<Report>>,
    /// The tree that report was made from; the file view reads raw text from it, and
    /// sharing sanitizes it.
    pub tree: Option<Shared<Tree>>,
    /// The exact input that report was made with (today's date included), for sharing.
    pub input: Option<Shared<Input>>,
    /// The run that made the report, when a worker made it: the engine keeps the analysis
    /// as the worker sent it under this id, for asking the worker about it (sharing,
    /// clean-ups, Download JSON); `None` where the page analysed in place.
    pub job: Option<u64>,
}

/// What the page analyses.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Sources {
    /// The sources of the snapshot, as the page lists them.
    pub infos: Vec<SourceInfo>,
    /// The host facts in the editable fields.
    pub inputs: Inputs,
    /// The `~/.claude.json` the person added, if any; it stays across new sources until
    /// removed, a fresh start or a shared snapshot.
    pub claude_json: Option<ClaudeJsonInfo>,
    /// The shared snapshot shown, read-only; `None` for the person's own files.
    pub shared: Option<SharedView>,
}

/// The tree's selection, collapsing and filter.
#[derive(Debug, Clone, PartialEq)]
pub struct Nav {
    /// The selected item.
    pub cursor: Option<TreeItem>,
    /// Collapsed group headers.
    pub collapsed: BTreeSet<Group>,
    /// File rows whose references are hidden.
    pub collapsed_rows: BTreeSet<usize>,
    /// The tree filter as typed.
    pub filter: String,
}

impl Default for Nav {
    fn default() -> Nav {
        Nav {
            cursor: None,
            collapsed: BTreeSet::from([Group::AgentMemory]),
            collapsed_rows: BTreeSet::new(),
            filter: String::new(),
        }
    }
}

/// What the pane beside the tree shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pane {
    /// The file view or the health view.
    pub view: View,
    /// The file view's tab.
    pub tab: Tab,
    /// A line the file view should scroll to (from a diagnostic).
    pub focus_line: Option<u64>,
    /// Counts requests to open a file at a line, so that opening the same line again scrolls
    /// to it again.
    pub focus_seq: u64,
    /// The footprint bar's unit.
    pub unit: Unit,
}

/// Which dialog is open; at most one is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Dialogs {
    /// True while the project picker is open.
    pub picker: bool,
    /// While the Share dialog is open: the moment its snapshot is made (ISO 8601).
    pub share: Option<String>,
    /// True while the load-type legend (the Icons dialog) is open.
    pub legend: bool,
}

impl Dialogs {
    /// True while any dialog is open: the page's own keys then wait.
    pub fn any_open(&self) -> bool {
        self.picker || self.share.is_some() || self.legend
    }
}

/// Everything that changes the state.
#[derive(Debug, Clone)]
pub enum Action {
    /// A run with this id started; earlier runs are now stale.
    RunStarted(u64),
    /// The running scan made progress.
    Progressed(u64, Progress),
    /// A run finished with a report.
    RunFinished {
        /// The run's id.
        run: u64,
        /// The report.
        report: Shared<Report>,
        /// The tree it was made from.
        tree: Shared<Tree>,
        /// The input it was made with.
        input: Shared<Input>,
        /// The run's id as the engine keeps its analysis, when a worker made it.
        job: Option<u64>,
        /// When it finished.
        at: f64,
    },
    /// A run could not finish.
    RunFailed(u64, String),
    /// The snapshot's sources changed, with the host facts inferred for them.
    SourcesChanged(Vec<SourceInfo>, Inputs),
    /// A shared snapshot replaces whatever was shown, read-only, with its source and host
    /// facts.
    OpenShared(SharedView, Vec<SourceInfo>, Inputs),
    /// Back to the empty page: nothing loaded, not read-only. Run `run` is the newest, so
    /// that nothing started before lands.
    Reset(u64),
    /// The person edited the host facts.
    SetInputs(Inputs),
    /// Select an item.
    Select(TreeItem),
    /// Select the row with this path, and scroll to a line.
    SelectPath(String, Option<u64>),
    /// A key pressed in the tree.
    Key(NavKey),
    /// Collapse or expand a group.
    ToggleGroup(Group),
    /// Collapse or expand a row's references.
    ToggleRow(usize),
    /// The filter text.
    SetFilter(String),
    /// The footprint unit.
    SetUnit(Unit),
    /// Open or close the project picker.
    SetPicker(bool),
    /// Run `run` ended without taking what was dropped or chosen: say so in a banner.
    Refused(u64, Refusal),
    /// The person dismissed the banner, or chose what to do with what it names.
    DismissRefusal,
    /// Open or close the load-type legend.
    SetLegend(bool),
    /// Open the Share dialog for a snapshot made at this moment (ISO 8601), or close it.
    SetShare(Option<String>),
    /// The file view's tab.
    SetTab(Tab),
    /// Show the file view or the health view.
    SetView(View),
    /// Switch between the file view and the health view.
    ToggleView,
    /// Show or clear a notice.
    Notice(Option<String>),
    /// Show or clear an error.
    Error(Option<String>),
    /// The person added a `~/.claude.json` (or another in its place), or removed it.
    SetClaudeJson(Option<ClaudeJsonInfo>),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        next.apply(action);
        Rc::new(next)
    }
}

impl State {
    /// Applies one action.
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::RunStarted(run) => {
                self.status.run = run;
                self.status.busy = Some(Progress::default());
                self.status.error = None;
            }
            Action::Progressed(run, progress) if run == self.status.run => {
                if self.status.busy.is_some() {
                    self.status.busy = Some(progress);
                }
            }
            Action::RunFinished {
                run,
                report,
                tree,
                input,
                job,
                at,
            } if run == self.status.run => self.finish(report, tree, input, job, at),
            Action::RunFailed(run, message) if run == self.status.run => {
                self.status.busy = None;
                self.status.error = Some(message);
            }
            Action::Refused(run, refusal) => {
                if run == self.status.run {
                    self.status.busy = None;
                }
                self.status.refusal = Some(refusal);
            }
            Action::DismissRefusal => self.status.refusal = None,
            Action::Progressed(..) | Action::RunFinished { .. } | Action::RunFailed(..) => {}
            Action::SourcesChanged(sources, inputs) => {
                self.sources.infos = sources;
                self.sources.inputs = inputs;
                self.status.notice = None;
                self.sources.shared = None;
            }
            Action::OpenShared(view, sources, inputs) => {
                // Nothing of what was shown before may stay under the read-only banner.
                *self = State {
                    status: Status {
                        run: self.status.run,
                        ..Status::default()
                    },
                    sources: Sources {
                        infos: sources,
                        inputs,
                        claude_json: None,
                        shared: Some(view),
                    },
                    pane: Pane {
                        unit: self.pane.unit,
                        ..Pane::default()
                    },
                    ..State::default()
                };
            }
            Action::Reset(run) => {
                *self = State {
                    status: Status {
                        run,
                        ..Status::default()
                    },
                    pane: Pane {
                        unit: self.pane.unit,
                        ..Pane::default()
                    },
                    ..State::default()
                };
            }
            Action::SetInputs(inputs) => self.sources.inputs = inputs,
            Action::Select(item) => {
                self.nav.cursor = Some(item);
                self.pane.focus_line = None;
                // A click lands on the file view like any other link (its heading focused).
                self.pane.focus_seq += 1;
                self.pane.view = View::File;
            }
            Action::SelectPath(path, line) => {
                if let Some(index) = self.row_index(&path) {
                    self.reveal(index);
                    self.nav.cursor = Some(TreeItem::File(index));
                    self.pane.focus_line = line;
                    self.pane.focus_seq += 1;
                    self.pane.tab = Tab::Raw;
                    self.pane.view = View::File;
                }
            }
            Action::Key(key) => {
                let before = self.nav.cursor;
                self.key(key);
                // Walking the tree shows the files walked to.
                if self.nav.cursor != before {
                    self.pane.view = View::File;
                }
            }
            Action::ToggleGroup(group) => toggle(&mut self.nav.collapsed, group),
            Action::ToggleRow(index) => toggle(&mut self.nav.collapsed_rows, index),
            Action::SetFilter(filter) => self.nav.filter = filter,
            Action::SetUnit(unit) => self.pane.unit = unit,
            Action::SetPicker(open) => self.dialogs.picker = open,
            Action::SetLegend(open) => self.dialogs.legend = open,
            Action::SetShare(made) => {
                // Nothing of the person's own can be shared from a shared snapshot.
                self.dialogs.share = made.filter(|_| self.sources.shared.is_none());
            }
            Action::SetTab(tab) => self.pane.tab = tab,
            Action::SetView(view) => self.pane.view = view,
            Action::ToggleView => {
                self.pane.view = match self.pane.view {
                    View::File => View::Health,
                    View::Health | View::Reads => View::File,
                }
            }
            Action::Notice(notice) => self.status.notice = notice,
            Action::Error(error) => self.status.error = error,
            Action::SetClaudeJson(info) => self.sources.claude_json = info,
        }
    }

    /// Takes a finished report, keeping the selection on the same path where it still exists.
    fn finish(
        &mut self,
        report: Shared<Report>,
        tree: Shared<Tree>,
        input: Shared<Input>,
        job: Option<u64>,
        at: f64,
    ) {
        let old_path = self.selected_row().map(|row| row.path.clone());
        let old_cut = self.cut_path();
        let old_group = match self.nav.cursor {
            Some(TreeItem::Group(group)) => Some(group),
            _ => None,
        };
        self.loaded.report = Some(report);
        self.loaded.tree = Some(tree);
        self.loaded.input = Some(input);
        self.loaded.job = job;
        self.status.busy = None;
        self.status.error = None;
        self.status.scanned_at = Some(at);
        self.nav.collapsed_rows.clear();
        // A memory index that is newly cut (the project was just added, or the index grew
        // past its cap) is what a person most needs to see: it is selected, whatever was.
        let new_cut = self.cut_path();
        let cut_is_new = new_cut.is_some() && new_cut != old_cut;
        self.nav.cursor = match (old_path.and_then(|p| self.row_index(&p)), old_group) {
            _ if cut_is_new => self.cut_index().map(TreeItem::File),
            (Some(index), _) => Some(TreeItem::File(index)),
            (None, Some(group)) => Some(TreeItem::Group(group)),
            (None, None) => self.default_selection(),
        };
        if let Some(TreeItem::File(index)) = self.nav.cursor {
            self.reveal(index);
        }
    }

    /// What a fresh report selects: its first truncated `MEMORY.md` (the file people most
    /// need to see), else its first row.
    fn default_selection(&self) -> Option<TreeItem> {
        let report = self.loaded.report.as_ref()?;
        self.cut_index()
            .or(if report.files.is_empty() {
                None
            } else {
                Some(0)
            })
            .map(TreeItem::File)
            .or(Some(TreeItem::Group(Group::ALL[0])))
    }

    /// The row of the first `MEMORY.md` of the auto memory that its caps cut.
    fn cut_index(&self) -> Option<usize> {
        self.loaded.report.as_ref()?.files.iter().position(|row| {
            row.truncation
                .as_ref()
                .is_some_and(|t| t.first_dropped_line.is_some())
                && row.group == Group::AutoMemory
        })
    }

    fn cut_path(&self) -> Option<String> {
        let index = self.cut_index()?;
        Some(self.loaded.report.as_ref()?.files[index].path.clone())
    }

    /// The index of the row with `path`, preferring a top-level row.
    pub fn row_index(&self, path: &str) -> Option<usize> {
        let files = &self.loaded.report.as_ref()?.files;
        files
            .iter()
            .position(|row| row.path == path && row.parent_index.is_none())
            .or_else(|| files.iter().position(|row| row.path == path))
    }

    /// The selected file row.
    pub fn selected_row(&self) -> Option<&FileRow> {
        match self.nav.cursor? {
            TreeItem::File(index) => self.loaded.report.as_ref()?.files.get(index),
            TreeItem::Group(_) => None,
        }
    }

    /// Expands the group and every collapsed ancestor of a row so that it shows.
    fn reveal(&mut self, index: usize) {
        let Some(report) = self.loaded.report.clone() else {
            return;
        };
        let Some(row) = report.files.get(index) else {
            return;
        };
        self.nav.collapsed.remove(&row.group);
        let mut parent = row.parent_index;
        while let Some(p) = parent {
            self.nav.collapsed_rows.remove(&p);
            parent = report.files.get(p).and_then(|r| r.parent_index);
        }
    }

    /// True when some row is referenced by row `index`.
    pub fn has_children(&self, index: usize) -> bool {
        self.loaded
            .report
            .as_ref()
            .is_some_and(|r| r.files.iter().any(|row| row.parent_index == Some(index)))
    }

    /// The items the tree shows, in order: every group header (those without a match are left
    /// out while filtering), then its rows unless the group or an ancestor row is collapsed.
    /// A filter shows each matching row with its ancestors and ignores collapsing.
    pub fn visible_items(&self) -> Vec<TreeItem> {
        let Some(report) = self.loaded.report.as_ref() else {
            return Vec::new();
        };
        let needle = lowercase(self.nav.filter.trim());
        let shown: Option<Vec<bool>> = (!needle.is_empty()).then(|| {
            let mut shown = vec![false; report.files.len()];
            for (index, row) in report.files.iter().enumerate() {
                if row_matches(row, &report.context, &needle) {
                    let mut at = Some(index);
                    while let Some(i) = at {
                        if shown[i] {
                            break;
                        }
                        shown[i] = true;
                        at = report.files[i].parent_index;
                    }
                }
            }
            shown
        });
        let mut items = Vec::new();
        for group in Group::ALL {
            let rows = report
                .files
                .iter()
                .enumerate()
                .filter(|(_, row)| row.group == group);
            match &shown {
                Some(shown) => {
                    let matched: Vec<usize> = rows.map(|(i, _)| i).filter(|&i| shown[i]).collect();
                    if !matched.is_empty() {
                        items.push(TreeItem::Group(group));
                        items.extend(matched.into_iter().map(TreeItem::File));
                    }
                }
                None => {
                    items.push(TreeItem::Group(group));
                    if !self.nav.collapsed.contains(&group) {
                        items.extend(
                            rows.filter(|(_, row)| !self.ancestor_collapsed(report, row))
                                .map(|(i, _)| TreeItem::File(i)),
                        );
                    }
                }
            }
        }
        items
    }

    fn ancestor_collapsed(&self, report: &Report, row: &FileRow) -> bool {
        let mut parent = row.parent_index;
        while let Some(p) = parent {
            if self.nav.collapsed_rows.contains(&p) {
                return true;
            }
            parent = report.files.get(p).and_then(|r| r.parent_index);
        }
        false
    }

    fn filtering(&self) -> bool {
        !self.nav.filter.trim().is_empty()
    }

    /// Moves the cursor or toggles an item, as the ARIA tree pattern asks.
    pub fn key(&mut self, key: NavKey) {
        let items = self.visible_items();
        if items.is_empty() {
            return;
        }
        let position = self
            .nav
            .cursor
            .and_then(|c| items.iter().position(|&i| i == c));
        let target = match (key, position) {
            (NavKey::Down, None) | (NavKey::Home, _) => Some(items[0]),
            (NavKey::Up, None) | (NavKey::End, _) => items.last().copied(),
            (NavKey::Down, Some(p)) => items.get(p + 1).copied(),
            (NavKey::Up, Some(p)) => p.checked_sub(1).map(|q| items[q]),
            (NavKey::Right, Some(p)) => return self.expand_or_step_in(items[p], items.get(p + 1)),
            (NavKey::Left, Some(p)) => return self.collapse_or_step_out(items[p]),
            (NavKey::Enter, Some(p)) => {
                match items[p] {
                    TreeItem::Group(group) => toggle(&mut self.nav.collapsed, group),
                    TreeItem::File(index) if self.has_children(index) => {
                        toggle(&mut self.nav.collapsed_rows, index)
                    }
                    TreeItem::File(_) => {}
                }
                return;
            }
            (NavKey::Right | NavKey::Left | NavKey::Enter, None) => Some(items[0]),
        };
        if let Some(target) = target {
            self.nav.cursor = Some(target);
            self.pane.focus_line = None;
        }
    }

    fn expand_or_step_in(&mut self, item: TreeItem, next: Option<&TreeItem>) {
        let expanded = match item {
            TreeItem::Group(group) => self.filtering() || !self.nav.collapsed.contains(&group),
            TreeItem::File(index) => {
                if !self.has_children(index) {
                    return;
                }
                self.filtering() || !self.nav.collapsed_rows.contains(&index)
            }
        };
        if !expanded {
            match item {
                TreeItem::Group(group) => self.nav.collapsed.remove(&group),
                TreeItem::File(index) => self.nav.collapsed_rows.remove(&index),
            };
            return;
        }
        // The first child directly follows its parent in the visible order.
        let child = match (item, next) {
            (TreeItem::Group(group), Some(&TreeItem::File(i))) => self
                .loaded
                .report
                .as_ref()
                .is_some_and(|r| r.files[i].group == group)
                .then_some(TreeItem::File(i)),
            (TreeItem::File(parent), Some(&TreeItem::File(i))) => self
                .loaded
                .report
                .as_ref()
                .is_some_and(|r| r.files[i].parent_index == Some(parent))
                .then_some(TreeItem::File(i)),
            _ => None,
        };
        if let Some(child) = child {
            self.nav.cursor = Some(child);
            self.pane.focus_line = None;
        }
    }

    fn collapse_or_step_out(&mut self, item: TreeItem) {
        match item {
            TreeItem::Group(group) => {
                if !self.filtering() {
                    self.nav.collapsed.insert(group);
                }
            }
            TreeItem::File(index) => {
                if self.has_children(index)
                    && !self.filtering()
                    && !self.nav.collapsed_rows.contains(&index)
                {
                    self.nav.collapsed_rows.insert(index);
                    return;
                }
                let Some(row) = self.loaded.report.as_ref().and_then(|r| r.files.get(index)) else {
                    return;
                };
                self.nav.cursor = Some(match row.parent_index {
                    Some(parent) => TreeItem::File(parent),
                    None => TreeItem::Group(row.group),
                });
                self.pane.focus_line = None;
            }
        }
    }

    /// True when the page shows a shared snapshot: nothing can be added, refreshed or edited
    /// but the simulated version.
    pub fn read_only(&self) -> bool {
        self.sources.shared.is_some()
    }

    /// True when the page shows the built-in demo.
    pub fn is_demo(&self) -> bool {
        self.sources.infos.iter().any(|s| s.role == "demo")
    }

    /// True when the last scan is recent enough to be reused.
    pub fn scan_is_fresh(&self, now_ms: f64) -> bool {
        self.status
            .scanned_at
            .is_some_and(|at| now_ms - at < SCAN_FRESH_MS)
    }
}

fn toggle<T: Ord>(set: &mut BTreeSet<T>, value: T) {
    if !set.remove(&value) {
        set.insert(value);
    }
}

/// True when a row matches a lower-cased filter: by path, shown path, skill or agent name, or
/// load type.
fn row_matches(row: &FileRow, context: &Context, needle: &str) -> bool {
    let hay = [
        Some(lowercase(&row.path)),
        Some(lowercase(&display_path(row, context))),
        row.skill_name.as_deref().map(lowercase),
        row.agent.as_deref().map(lowercase),
        Some(lowercase(row.load.label())),
    ];
    hay.iter().flatten().any(|h| h.contains(needle))
}

/// The path a row shows: relative to the project for project files, relative to the memory
/// folder for auto memory, `~/…` below home, absolute elsewhere.
/// Text in lower case for the filters, by Unicode's full case mapping. In the browser it is
/// the browser's own `toLowerCase` (the same mapping, final sigma included): Rust's tables
/// for it were 12 KB of the first-paint wasm, for two filter fields.
pub fn lowercase(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        if text.is_ascii() {
            return text.to_ascii_lowercase();
        }
        String::from(js_sys::JsString::from(text).to_lower_case())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        text.to_lowercase()
    }
}

/// The name a skill or command row is shown by in the tree: the name Claude invokes it
/// with (a skill's folder, a command's `ns:name`), then the skill's own `name` in brackets
/// when that differs, as the listing shows it (`folder (name)`).
pub fn invoked_name(row: &FileRow) -> Option<String> {
    let name = row.skill_name.as_ref()?;
    if row.group != Group::Skills {
        return Some(name.clone());
    }
    let folder = row
        .path
        .rsplit('/')
        .nth(1)
        .filter(|f| !f.is_empty())
        .unwrap_or(name);
    Some(if folder == name {
        name.clone()
    } else {
        format!("{folder} ({name})")
    })
}

pub fn display_path(row: &FileRow, context: &Context) -> String {
    shown_path(&row.path, context)
}

/// Any path as the tree would show it (see [`display_path`]).
pub fn shown_path(path: &str, context: &Context) -> String {
    let under = |base: &str| -> Option<String> {
        let base = base.trim_end_matches('/');
        path.strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|rest| !rest.is_empty())
            .map(str::to_owned)
    };
    if let Some(rest) = context.memory_dir.as_deref().and_then(under) {
        return rest;
    }
    if let Some(rest) = context.project.as_deref().and_then(under) {
        return rest;
    }
    if let Some(rest) = under(&context.home) {
        return format!("~/{rest}");
    }
    path.to_owned()
}

/// Human-readable byte counts: `812 B`, `3.4 KB`, `1.2 MB`.
pub fn human_bytes(bytes: u64) -> String {
    if bytes < 1000 {
        format!("{bytes} B")
    } else if bytes < 1_000_000 {
        format!("{} KB", fixed(bytes as f64 / 1000.0, 1))
    } else {
        format!("{} MB", fixed(bytes as f64 / 1_000_000.0, 1))
    }
}

/// A number with thousands separators: `25,000`, as the core's messages write it.
pub fn grouped(n: u64) -> String {
    memdiag_core::group_digits(n)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use memdiag_core::report::{FileStatus, LoadType, REPORT_SCHEMA};

    #[test]
    fn a_skill_is_shown_by_the_name_claude_invokes_it_with() {
        let named = |group, path: &str, name: &str| FileRow {
            group,
            path: path.to_owned(),
            skill_name: Some(name.to_owned()),
            ..FileRow::default()
        };
        let skill = |path: &str, name: &str| invoked_name(&named(Group::Skills, path, name));
        assert_eq!(
            skill("/h/.claude/skills/deploy/SKILL.md", "deploy").as_deref(),
            Some("deploy")
        );
        assert_eq!(
            skill("/h/.claude/skills/deploy/SKILL.md", "ship-it").as_deref(),
            Some("deploy (ship-it)")
        );
        let command = named(Group::Commands, "/h/.claude/commands/ns/x.md", "ns:x");
        assert_eq!(invoked_name(&command).as_deref(), Some("ns:x"));
    }

    pub(crate) fn row(path: &str, group: Group, load: LoadType, parent: Option<usize>) -> FileRow {
        FileRow {
            path: path.to_owned(),
            group,
            load,
            parent_index: parent,
            depth: u32::from(parent.is_some()),
            size: Some(10),
            counted: true,
            status: FileStatus::Ok,
            ..FileRow::default()
        }
    }

    pub(crate) fn report(files: Vec<FileRow>) -> Report {
        Report {
            schema: REPORT_SCHEMA.to_owned(),
            context: Context {
                home: "/home/alice".to_owned(),
                config_dir: "/home/alice/.claude".to_owned(),
                project: Some("/home/alice/work/shop".to_owned()),
                projects_base: "/home/alice/.claude/projects".to_owned(),
                memory_dir: Some(
                    "/home/alice/.claude/projects/-home-alice-work-shop/memory".to_owned(),
                ),
                auto_memory_enabled: true,
                ..Context::default()
            },
            files,
            ..Report::default()
        }
    }

    /// User CLAUDE.md (0) importing a file (1), project CLAUDE.md (2), an agent memory (3).
    fn state() -> State {
        let files = vec![
            row(
                "/home/alice/.claude/CLAUDE.md",
                Group::User,
                LoadType::Always,
                None,
            ),
            row(
                "/home/alice/.claude/style.md",
                Group::User,
                LoadType::Import,
                Some(0),
            ),
            row(
                "/home/alice/work/shop/CLAUDE.md",
                Group::Project,
                LoadType::Always,
                None,
            ),
            row(
                "/home/alice/.claude/agent-memory/rev/MEMORY.md",
                Group::AgentMemory,
                LoadType::Startup,
                None,
            ),
        ];
        let mut state = State::default();
        state.apply(Action::RunStarted(1));
        state.apply(Action::RunFinished {
            run: 1,
            report: Shared::new(report(files)),
            tree: Shared::new(Tree::new()),
            input: Shared::new(Input::default()),
            job: None,
            at: 0.0,
        });
        state
    }

    fn press(state: &mut State, keys: &[NavKey]) {
        for &key in keys {
            state.key(key);
        }
    }

    #[test]
    fn every_group_shows_and_agent_memory_starts_collapsed() {
        let state = state();
        let items = state.visible_items();
        let groups: Vec<_> = items
            .iter()
            .filter_map(|i| match i {
                TreeItem::Group(g) => Some(*g),
                TreeItem::File(_) => None,
            })
            .collect();
        assert_eq!(groups, Group::ALL.to_vec());
        assert!(!items.contains(&TreeItem::File(3)));
        assert!(items.contains(&TreeItem::File(1)));
    }

    #[test]
    fn a_fresh_report_selects_its_first_row() {
        assert_eq!(state().nav.cursor, Some(TreeItem::File(0)));
    }

    #[test]
    fn arrows_walk_the_visible_order() {
        let mut state = state();
        press(&mut state, &[NavKey::Down]);
        assert_eq!(state.nav.cursor, Some(TreeItem::File(1)));
        press(&mut state, &[NavKey::Down]);
        assert_eq!(state.nav.cursor, Some(TreeItem::Group(Group::Project)));
        press(&mut state, &[NavKey::Up, NavKey::Up, NavKey::Up]);
        assert_eq!(state.nav.cursor, Some(TreeItem::Group(Group::User)));
        press(&mut state, &[NavKey::End]);
        assert_eq!(state.nav.cursor, Some(TreeItem::Group(Group::AgentMemory)));
    }

    #[test]
    fn left_collapses_then_steps_out_and_right_expands_then_steps_in() {
        let mut state = state();
        press(&mut state, &[NavKey::Left]);
        assert!(state.nav.collapsed_rows.contains(&0));
        assert!(!state.visible_items().contains(&TreeItem::File(1)));
        press(&mut state, &[NavKey::Left]);
        assert_eq!(state.nav.cursor, Some(TreeItem::Group(Group::User)));
        press(&mut state, &[NavKey::Left]);
        assert!(state.nav.collapsed.contains(&Group::User));
        press(&mut state, &[NavKey::Right]);
        assert!(!state.nav.collapsed.contains(&Group::User));
        press(&mut state, &[NavKey::Right]);
        assert_eq!(state.nav.cursor, Some(TreeItem::File(0)));
        press(&mut state, &[NavKey::Right, NavKey::Right]);
        assert_eq!(state.nav.cursor, Some(TreeItem::File(1)));
    }

    #[test]
    fn enter_toggles_a_group() {
        let mut state = state();
        press(&mut state, &[NavKey::End, NavKey::Enter]);
        assert!(state.visible_items().contains(&TreeItem::File(3)));
        press(&mut state, &[NavKey::Enter]);
        assert!(!state.visible_items().contains(&TreeItem::File(3)));
    }

    #[test]
    fn the_filter_keeps_matches_with_their_ancestors_and_skips_empty_groups() {
        let mut state = state();
        state.apply(Action::SetFilter("STYLE".to_owned()));
        assert_eq!(
            state.visible_items(),
            vec![
                TreeItem::Group(Group::User),
                TreeItem::File(0),
                TreeItem::File(1)
            ]
        );
        state.apply(Action::SetFilter("rev".to_owned()));
        assert_eq!(
            state.visible_items(),
            vec![TreeItem::Group(Group::AgentMemory), TreeItem::File(3)]
        );
    }

    #[test]
    fn selecting_a_path_reveals_it() {
        let mut state = state();
        state.apply(Action::SelectPath(
            "/home/alice/.claude/agent-memory/rev/MEMORY.md".to_owned(),
            Some(4),
        ));
        assert_eq!(state.nav.cursor, Some(TreeItem::File(3)));
        assert_eq!(state.pane.focus_line, Some(4));
        assert!(state.visible_items().contains(&TreeItem::File(3)));
    }

    #[test]
    fn a_click_lands_on_the_file_view() {
        let mut state = state();
        let before = state.pane.focus_seq;
        state.apply(Action::Select(TreeItem::File(2)));
        assert_eq!(
            state.pane.focus_seq,
            before + 1,
            "the file view takes focus"
        );
        state.apply(Action::Key(NavKey::Down));
        assert_eq!(
            state.pane.focus_seq,
            before + 1,
            "walking the tree leaves focus there"
        );
    }

    #[test]
    fn a_newly_cut_memory_index_is_selected_over_the_old_selection() {
        let mut state = state();
        state.apply(Action::Select(TreeItem::File(0)));
        let finish = |state: &mut State, run: u64, cut: bool| {
            let mut index = row(
                "/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md",
                Group::AutoMemory,
                LoadType::Startup,
                None,
            );
            index.truncation = cut.then(|| memdiag_core::report::Truncation {
                total_lines: 230,
                loaded_lines: 200,
                first_dropped_line: Some(201),
                ..Default::default()
            });
            let files = vec![
                row(
                    "/home/alice/.claude/CLAUDE.md",
                    Group::User,
                    LoadType::Always,
                    None,
                ),
                index,
            ];
            state.apply(Action::RunStarted(run));
            state.apply(Action::RunFinished {
                run,
                report: Shared::new(report(files)),
                tree: Shared::new(Tree::new()),
                input: Shared::new(Input::default()),
                job: None,
                at: 1.0,
            });
        };
        // The project added: its index is cut, and it is what the file view opens on.
        finish(&mut state, 5, true);
        assert_eq!(state.nav.cursor, Some(TreeItem::File(1)));
        // The same cut again (a refresh) keeps what the person chose since.
        state.apply(Action::Select(TreeItem::File(0)));
        finish(&mut state, 6, true);
        assert_eq!(state.nav.cursor, Some(TreeItem::File(0)));
    }

    #[test]
    fn a_stale_run_is_ignored() {
        let mut state = state();
        state.apply(Action::RunStarted(2));
        state.apply(Action::RunFailed(1, "old".to_owned()));
        assert_eq!(state.status.error, None);
        assert!(state.status.busy.is_some());
        state.apply(Action::RunFailed(2, "new".to_owned()));
        assert_eq!(state.status.error.as_deref(), Some("new"));
        assert!(state.status.busy.is_none());
    }

    #[test]
    fn selection_follows_the_path_across_runs() {
        let mut state = state();
        state.apply(Action::Select(TreeItem::File(2)));
        let files = vec![row(
            "/home/alice/work/shop/CLAUDE.md",
            Group::Project,
            LoadType::Always,
            None,
        )];
        state.apply(Action::RunStarted(5));
        state.apply(Action::RunFinished {
            run: 5,
            report: Shared::new(report(files)),
            tree: Shared::new(Tree::new()),
            input: Shared::new(Input::default()),
            job: None,
            at: 1.0,
        });
        assert_eq!(state.nav.cursor, Some(TreeItem::File(0)));
    }

    #[test]
    fn scans_stay_fresh_for_thirty_seconds() {
        let state = state();
        assert!(state.scan_is_fresh(29_999.0));
        assert!(!state.scan_is_fresh(30_000.0));
        assert!(!needs_rescan(RunReason::InputEdit, Some(0.0), 10_000.0));
        assert!(needs_rescan(RunReason::InputEdit, Some(0.0), 30_000.0));
        assert!(needs_rescan(RunReason::ProjectSwitch, Some(0.0), 1.0));
        assert!(needs_rescan(RunReason::Refresh, Some(0.0), 1.0));
        assert!(!needs_rescan(RunReason::NewSources, None, 1.0));
    }

    #[test]
    fn paths_show_relative_to_their_place() {
        let report = report(Vec::new());
        let ctx = &report.context;
        let show = |p: &str| display_path(&row(p, Group::User, LoadType::Always, None), ctx);
        assert_eq!(
            show("/home/alice/work/shop/src/api/CLAUDE.md"),
            "src/api/CLAUDE.md"
        );
        assert_eq!(show("/home/alice/.claude/CLAUDE.md"), "~/.claude/CLAUDE.md");
        assert_eq!(
            show("/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md"),
            "MEMORY.md"
        );
        assert_eq!(
            show("/etc/claude-code/CLAUDE.md"),
            "/etc/claude-code/CLAUDE.md"
        );
    }

    #[test]
    fn the_dropped_project_moves_with_the_project_field() {
        let inputs = Inputs {
            project: "/home/alice/shop".to_owned(),
            project_mount: Some("/home/alice/shop".to_owned()),
            ..Inputs::default()
        };
        let moved = inputs.with_project("/home/alice/work/shop".to_owned());
        assert_eq!(
            moved.project_mount.as_deref(),
            Some("/home/alice/work/shop")
        );
        let other = Inputs {
            project: "/srv/other".to_owned(),
            ..inputs
        };
        let kept = other.with_project("/srv/else".to_owned());
        assert_eq!(kept.project_mount.as_deref(), Some("/home/alice/shop"));
    }

    #[test]
    fn the_version_field_takes_any_simulated_release_and_refuses_older_ones() {
        assert_eq!(check_release(""), Ok(None));
        assert_eq!(check_release(" current "), Ok(None));
        assert_eq!(check_release(&PINNED.to_string()), Ok(None));
        assert_eq!(check_release("v2.1.83"), Ok(Some("2.1.83".to_owned())));
        // Not published, but inside the measured range: the rules around it apply.
        assert_eq!(check_release("2.1.82"), Ok(Some("2.1.82".to_owned())));
        let older = check_release("2.1.58").unwrap_err();
        assert!(older.contains("2.1.58 cannot be simulated"), "{older}");
        assert!(older.contains(&FIRST_SIMULATED.to_string()), "{older}");
        assert!(check_release("latest").is_err());

        let suggestions = release_suggestions();
        assert_eq!(suggestions.last(), Some(&FIRST_SIMULATED.to_string()));
        assert!(suggestions.contains(&"2.1.83".to_owned()));
        assert!(
            !suggestions.contains(&"2.1.82".to_owned()),
            "2.1.82 was never published"
        );
        let parsed: Vec<ClaudeVersion> = suggestions
            .iter()
            .map(|s| ClaudeVersion::parse(s).unwrap())
            .collect();
        assert!(parsed.windows(2).all(|w| w[0] > w[1]), "newest first");

        let input = Inputs {
            version: Some("2.1.83".to_owned()),
            ..Inputs::default()
        }
        .to_input();
        assert_eq!(input.version.as_deref(), Some("2.1.83"));
    }

    #[test]
    fn findings_open_their_file_or_a_folders_first_file() {
        let state = state();
        let report = state.loaded.report.as_ref().unwrap();
        assert_eq!(
            open_target(report, "/home/alice/work/shop/CLAUDE.md", Some(3)),
            Some(("/home/alice/work/shop/CLAUDE.md".to_owned(), Some(3)))
        );
        assert_eq!(
            open_target(report, "/home/alice/.claude/agent-memory/rev", None),
            Some((
                "/home/alice/.claude/agent-memory/rev/MEMORY.md".to_owned(),
                None
            ))
        );
        assert_eq!(open_target(report, "/home/alice/.claude/agent", None), None);
        assert_eq!(open_target(report, "/nowhere", Some(1)), None);
    }

    #[test]
    fn opening_a_line_shows_the_file_view_and_counts_each_request() {
        let mut state = state();
        state.apply(Action::SetView(View::Health));
        let path = "/home/alice/work/shop/CLAUDE.md".to_owned();
        state.apply(Action::SelectPath(path.clone(), Some(7)));
        assert_eq!(state.pane.view, View::File);
        assert_eq!(
            (state.nav.cursor, state.pane.focus_line),
            (Some(TreeItem::File(2)), Some(7))
        );
        let seq = state.pane.focus_seq;
        state.apply(Action::SelectPath(path, Some(7)));
        assert_eq!(state.pane.focus_seq, seq + 1);
        // A new run keeps the health view open.
        state.apply(Action::ToggleView);
        assert_eq!(state.pane.view, View::Health);
        let report = state.loaded.report.clone().unwrap();
        state.apply(Action::RunStarted(9));
        state.apply(Action::RunFinished {
            run: 9,
            report,
            tree: Shared::new(Tree::new()),
            input: Shared::new(Input::default()),
            job: None,
            at: 2.0,
        });
        assert_eq!(state.pane.view, View::Health);
        // Walking the tree goes back to the file view; toggling a group does not.
        state.apply(Action::ToggleGroup(Group::User));
        assert_eq!(state.pane.view, View::Health);
        state.apply(Action::Key(NavKey::Down));
        assert_eq!(state.pane.view, View::File);
    }

    #[test]
    fn a_shared_snapshot_replaces_everything_and_a_fresh_start_empties_the_page() {
        let mut state = state();
        state.apply(Action::SetFilter("style".to_owned()));
        state.apply(Action::SetUnit(Unit::Bytes));
        state.apply(Action::Error(Some("old".to_owned())));
        assert!(!state.read_only());
        let view = SharedView {
            made: "2026-11-30T12:22:30Z".to_owned(),
            from: SharedFrom::Link,
            format: 1,
            text_kept: false,
        };
        let inputs = Inputs {
            home: "/home/xxxxx".to_owned(),
            ..Inputs::default()
        };
        state.apply(Action::OpenShared(view.clone(), Vec::new(), inputs.clone()));
        assert!(state.read_only());
        assert_eq!(state.sources.shared, Some(view));
        assert_eq!(state.sources.inputs, inputs);
        assert!(
            state.loaded.report.is_none()
                && state.loaded.tree.is_none()
                && state.loaded.input.is_none()
        );
        assert_eq!(
            (state.nav.filter.as_str(), state.status.error.clone()),
            ("", None)
        );
        assert_eq!(state.pane.unit, Unit::Bytes);
        assert_eq!(state.status.run, 1);

        state.apply(Action::Reset(4));
        assert!(!state.read_only());
        assert_eq!(state.status.run, 4);
        assert_eq!(state.sources.inputs, Inputs::default());
        // A run started before the fresh start does not land.
        state.apply(Action::RunFinished {
            run: 1,
            report: Shared::new(report(Vec::new())),
            tree: Shared::new(Tree::new()),
            input: Shared::new(Input::default()),
            job: None,
            at: 3.0,
        });
        assert!(state.loaded.report.is_none());
        // New sources leave read-only mode too.
        state.apply(Action::OpenShared(
            SharedView {
                made: String::new(),
                from: SharedFrom::File("s.zip".to_owned()),
                format: 1,
                text_kept: false,
            },
            Vec::new(),
            Inputs::default(),
        ));
        state.apply(Action::SourcesChanged(Vec::new(), Inputs::default()));
        assert!(!state.read_only());
    }

    #[test]
    fn an_added_claude_json_goes_where_the_analysis_reads_it() {
        let at = |home: &str, config: Option<&str>| {
            claude_json_path(home, config).map(|p| p.as_str().to_owned())
        };
        assert_eq!(
            at("/home/alice", None).as_deref(),
            Some("/home/alice/.claude.json")
        );
        // The config dir field naming the default folder changes nothing.
        assert_eq!(
            at("/home/alice/", Some("/home/alice/.claude/")).as_deref(),
            Some("/home/alice/.claude.json")
        );
        // A moved config folder keeps its own .claude.json, as CLAUDE_CONFIG_DIR does.
        assert_eq!(
            at("/home/alice", Some("/srv/claude")).as_deref(),
            Some("/srv/claude/.claude.json")
        );
        assert_eq!(
            at("c:\\Users\\bob", Some(" ")).as_deref(),
            Some("C:/Users/bob/.claude.json")
        );
        assert_eq!(at("home", None), None);
        // It follows the home field.
        let inputs = Inputs {
            home: "/home/erin".to_owned(),
            ..Inputs::default()
        };
        assert_eq!(
            inputs.claude_json_path().map(|p| p.as_str().to_owned()),
            Some("/home/erin/.claude.json".to_owned())
        );
        assert_eq!(inputs.claude_json_place(), "~/.claude.json");
        let moved = Inputs {
            config_dir: "/srv/claude".to_owned(),
            ..inputs
        };
        assert_eq!(moved.claude_json_place(), "/srv/claude/.claude.json");
    }

    #[test]
    fn an_added_claude_json_stays_until_removed_a_fresh_start_or_a_shared_snapshot() {
        let mut state = state();
        let info = ClaudeJsonInfo {
            name: ".claude.json".to_owned(),
            size: 120,
        };
        state.apply(Action::SetClaudeJson(Some(info.clone())));
        assert_eq!(state.sources.claude_json, Some(info.clone()));
        state.apply(Action::SourcesChanged(Vec::new(), Inputs::default()));
        assert_eq!(state.sources.claude_json, Some(info.clone()));
        state.apply(Action::SetClaudeJson(None));
        assert_eq!(state.sources.claude_json, None);
        state.apply(Action::SetClaudeJson(Some(info.clone())));
        state.apply(Action::Reset(2));
        assert_eq!(state.sources.claude_json, None);
        state.apply(Action::SetClaudeJson(Some(info)));
        state.apply(Action::OpenShared(
            SharedView {
                made: String::new(),
                from: SharedFrom::Link,
                format: 1,
                text_kept: false,
            },
            Vec::new(),
            Inputs::default(),
        ));
        assert_eq!(state.sources.claude_json, None);
    }

    #[test]
    fn an_import_waiting_for_approval_offers_the_claude_json_only_when_none_is_there() {
        let mut waiting = row(
            "/home/alice/work/outside.md",
            Group::Project,
            LoadType::Import,
            Some(0),
        );
        waiting.status = FileStatus::NeedsApproval;
        let project = row(
            "/home/alice/work/shop/CLAUDE.md",
            Group::Project,
            LoadType::Always,
            None,
        );
        let plain = report(vec![project.clone()]);
        let waits = report(vec![project, waiting]);
        let empty = Tree::new();
        let entry = |path: &str| memdiag_core::Entry {
            path: path.to_owned(),
            size: 2,
            bytes: None,
            modified: None,
        };
        let with_file = Tree::from_entries(&[], [entry("/home/alice/.claude.json")]);
        assert_eq!(approval_hint(&plain, &empty, false), ApprovalHint::Nothing);
        assert_eq!(
            approval_hint(&waits, &empty, false),
            ApprovalHint::AddClaudeJson
        );
        assert_eq!(approval_hint(&waits, &empty, true), ApprovalHint::Nothing);
        assert_eq!(
            approval_hint(&waits, &with_file, false),
            ApprovalHint::NotApproved
        );
        assert_eq!(
            approval_hint(&waits, &with_file, true),
            ApprovalHint::NotApproved
        );
        // With the config folder moved, the file that counts is the one inside it.
        let mut moved = waits.clone();
        moved.context.config_dir = "/srv/claude".to_owned();
        assert_eq!(
            approval_hint(&moved, &with_file, false),
            ApprovalHint::AddClaudeJson
        );
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(grouped(25_000), "25,000");
        assert_eq!(grouped(200), "200");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(human_bytes(812), "812 B");
        assert_eq!(human_bytes(3_400), "3.4 KB");
    }
}
