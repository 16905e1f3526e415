//! The grouped file tree: an ARIA tree with a filter box.
//!
//! Items are rendered flat with `aria-level`, in the order [`crate::page::state::State::visible_items`]
//! gives, so that the keyboard order and the DOM order are one and the same. Focus stays on
//! the tree element and `aria-activedescendant` names the selected item.
//!
//! A group draws at most [`ROWS_SHOWN`] of its rows (a crafted shared link can list twenty
//! thousand files in one rules folder, and drawing every row took the tab 14 s); the rest
//! fold behind one line, and a button under the tree draws the next batch. The selected row
//! is always drawn, wherever it lies, so that a finding, a search or the keyboard can reach
//! any file.

use std::collections::BTreeSet;
use std::rc::Rc;

use memdiag_core::report::comparison::{RowChange, RowChangeKind};
use memdiag_core::report::{FileRow, FileStatus, Group, Report, Scope, UnresolvedReason};
use memdiag_core::PINNED;
use web_sys::{HtmlElement, HtmlInputElement, KeyboardEvent};
use yew::{
    component, html, use_effect_with, use_node_ref, use_state, Callback, Event, Html, InputEvent,
    Properties, TargetCast,
};

use crate::page::components::{reveal_in, Reveal};
use crate::page::state::{
    display_path, grouped, human_bytes, invoked_name, ApprovalHint, NavKey, Shared, TreeItem,
};

/// Props of [`TreeView`].
#[derive(Properties, PartialEq)]
pub struct TreeProps {
    /// The report whose rows are shown.
    pub report: Shared<Report>,
    /// The items to show, in order.
    pub items: Rc<Vec<TreeItem>>,
    /// The selected item.
    pub cursor: Option<TreeItem>,
    /// Collapsed groups.
    pub collapsed: BTreeSet<Group>,
    /// Rows whose references are hidden.
    pub collapsed_rows: BTreeSet<usize>,
    /// The filter text.
    pub filter: String,
    /// Selects an item (a click).
    pub on_select: Callback<TreeItem>,
    /// A navigation key pressed in the tree.
    pub on_key: Callback<NavKey>,
    /// Toggles a group.
    pub on_toggle_group: Callback<Group>,
    /// Toggles a row's references.
    pub on_toggle_row: Callback<usize>,
    /// The filter box changed.
    pub on_filter: Callback<String>,
    /// What the page can add to an import waiting for approval.
    #[prop_or_default]
    pub approval: ApprovalHint,
}

/// How many rows of one group the tree draws at first, and how many more each press of its
/// "Show more" button adds.
pub const ROWS_SHOWN: usize = 200;

/// Indentation by reference depth, as classes: the page's CSP allows no style attributes.
const DEPTH_CLASSES: [&str; 7] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6"];

/// The DOM id of a tree item, for `aria-activedescendant`.
pub fn item_id(item: TreeItem) -> String {
    match item {
        TreeItem::Group(group) => format!("ti-g-{}", group_slug(group)),
        TreeItem::File(index) => format!("ti-f-{index}"),
    }
}

/// A group's name as a CSS- and test-friendly slug: `auto-memory`.
pub fn group_slug(group: Group) -> String {
    group.name().to_ascii_lowercase().replace(' ', "-")
}

/// The grouped tree.
#[component]
pub fn TreeView(props: &TreeProps) -> Html {
    let tree_ref = use_node_ref();
    // Keep the selected item in view as the keyboard moves it.
    {
        let tree_ref = tree_ref.clone();
        use_effect_with(props.cursor, move |cursor| {
            if let (Some(cursor), Some(tree)) = (cursor, tree_ref.cast::<HtmlElement>()) {
                if let Ok(Some(element)) = tree.query_selector(&format!("#{}", item_id(*cursor))) {
                    reveal_in(&tree, &element, Reveal::Nearest);
                }
            }
        });
    }
    let on_key = {
        let on_key = props.on_key.clone();
        Callback::from(move |event: KeyboardEvent| {
            if let Some(key) = NavKey::from_key(&event.key()) {
                event.prevent_default();
                on_key.emit(key);
            }
        })
    };
    let on_filter = {
        let on_filter = props.on_filter.clone();
        Callback::from(move |event: InputEvent| {
            let input: HtmlInputElement = event.target_unchecked_into();
            on_filter.emit(input.value());
        })
    };
    let on_filter_keys = {
        let tree_ref = tree_ref.clone();
        Callback::from(move |event: KeyboardEvent| {
            // Down from the filter box moves into the results.
            if event.key() == "ArrowDown" {
                if let Some(tree) = tree_ref.cast::<HtmlElement>() {
                    event.prevent_default();
                    let _ = tree.focus();
                }
            }
        })
    };
    // The size column: the file's size on disk, or what of it is sent (its loaded part).
    let sent_sizes = use_state(|| false);
    let on_size_mode = {
        let sent_sizes = sent_sizes.clone();
        Callback::from(move |_: yew::MouseEvent| sent_sizes.set(!*sent_sizes))
    };
    // Rows each group (by its place in `Group::ALL`) draws beyond the first `ROWS_SHOWN`.
    // They stay asked for when a new report comes: only a press draws more.
    let more = use_state(|| [0usize; Group::ALL.len()]);
    let extra = *more;
    let facts = RowFacts::of(&props.report);
    let report = &props.report;
    let filtering = !props.filter.trim().is_empty();
    let mut nodes: Vec<Html> = Vec::with_capacity(props.items.len().min(2_000) + 8);
    let mut last_agent: Option<(Option<String>, Option<Scope>)> = None;
    // The group being drawn, how many of its rows came so far, how many of them are folded
    // in the current run (not yet said), and in all.
    let mut group_now: Option<Group> = None;
    let (mut seen, mut folded_run, mut folded) = (0usize, 0usize, 0usize);
    let mut folded_groups: Vec<(Group, usize)> = Vec::new();
    for (position, &item) in props.items.iter().enumerate() {
        let selected = props.cursor == Some(item);
        if let TreeItem::File(index) = item {
            let limit = ROWS_SHOWN + group_now.map_or(0, |g| extra[place_of(g)]);
            seen += 1;
            if seen > limit && !selected {
                folded_run += 1;
                folded += 1;
                continue;
            }
            if folded_run > 0 {
                nodes.push(fold_line(format!("fold-{index}"), folded_run));
                folded_run = 0;
                last_agent = None;
            }
        }
        match item {
            TreeItem::Group(group) => {
                if let Some(previous) = group_now {
                    end_group(&mut nodes, &mut folded_groups, previous, folded_run, folded);
                }
                (group_now, seen, folded_run, folded) = (Some(group), 0, 0, 0);
                last_agent = None;
                let expanded = filtering || !props.collapsed.contains(&group);
                let next_is_row = matches!(props.items.get(position + 1), Some(TreeItem::File(_)));
                nodes.push(group_header(props, group, expanded, selected));
                if expanded && !next_is_row {
                    nodes.push(html! {
                        <li role="none" class="tree-empty" key={format!("empty-{}", group_slug(group))}>
                            { "nothing here" }
                        </li>
                    });
                }
            }
            TreeItem::File(index) => {
                let Some(row) = report.files.get(index) else {
                    continue;
                };
                if row.group == Group::AgentMemory && row.parent_index.is_none() {
                    let key = (row.agent.clone(), row.scope);
                    if last_agent.as_ref() != Some(&key) {
                        nodes.push(agent_header(index, row));
                        last_agent = Some(key);
                    }
                }
                let has_children = report
                    .files
                    .get(index + 1)
                    .is_some_and(|next| next.parent_index == Some(index));
                let expanded =
                    has_children && (filtering || !props.collapsed_rows.contains(&index));
                nodes.push(file_row(
                    props,
                    &facts,
                    *sent_sizes,
                    index,
                    row,
                    has_children,
                    expanded,
                    selected,
                ));
            }
        }
    }
    if let Some(last) = group_now {
        end_group(&mut nodes, &mut folded_groups, last, folded_run, folded);
    }
    // One button per group with folded rows, under the tree: a tree holds only its items.
    let more_buttons = folded_groups.into_iter().map(|(group, folded)| {
        let onclick = {
            let more = more.clone();
            Callback::from(move |_: yew::MouseEvent| {
                let mut extra = extra;
                extra[place_of(group)] += ROWS_SHOWN;
                more.set(extra);
            })
        };
        let next = folded.min(ROWS_SHOWN);
        html! {
            <button type="button" class="tree-more" key={group_slug(group)}
                data-testid="tree-more" data-group={group.name()} data-folded={folded.to_string()}
                aria-controls="memory-tree" {onclick}>
                { format!("Show {} more file{} in {} ({} not shown)", grouped(next as u64), if next == 1 { "" } else { "s" }, group.name(), grouped(folded as u64)) }
            </button>
        }
    });
    let active = props.cursor.map(item_id);
    html! {
        <section class="tree-panel" aria-label="Memory files" data-size-mode={if *sent_sizes { "sent" } else { "disk" }}>
            <div class="filter">
                <button class="size-mode" data-testid="size-mode" aria-pressed={sent_sizes.to_string()}
                    onclick={on_size_mode}
                    title="Show each file's size on disk, or the characters of it that are sent">
                    { if *sent_sizes { "Sizes: as sent" } else { "Sizes: on disk" } }
                </button>
                <input
                    type="search"
                    data-testid="tree-filter"
                    placeholder="Filter: path, skill, agent or load type"
                    aria-label="Filter the files"
                    value={props.filter.clone()}
                    oninput={on_filter}
                    onkeydown={on_filter_keys}
                    onchange={Callback::from(|_: Event| ())}
                />
            </div>
            if filtering && props.items.is_empty() {
                <p class="muted small filter-none" role="status" data-testid="filter-none">
                    { format!("No file matches “{}”.", props.filter.trim()) }
                </p>
            }
            <ul
                ref={tree_ref}
                id="memory-tree"
                class="tree"
                role="tree"
                aria-label="Files Claude Code would load, by group"
                tabindex="0"
                data-testid="tree"
                aria-activedescendant={active}
                onkeydown={on_key}
            >
                { for nodes }
            </ul>
            { for more_buttons }
        </section>
    }
}

/// A group's place in [`Group::ALL`], which lists them in their declared order.
fn place_of(group: Group) -> usize {
    group as usize
}

/// What a row shows that depends on other rows, worked out once per draw of the tree: a
/// row's repeat mark took a pass over the rows above it, quadratic in a snapshot of
/// thousands of files.
struct RowFacts {
    /// True for a row whose path is listed above in its group.
    repeat: Vec<bool>,
    /// The unreadable-file findings, by index in `report.diagnostics`: a few in a real
    /// report, and each drawn row looks through them.
    unreadable: Vec<usize>,
}

impl RowFacts {
    fn of(report: &Report) -> RowFacts {
        // Sorted by path and group (stably, so the first listed comes first), each row but
        // the first of its kind is a repeat. The shared sort keeps the page's wasm small.
        let files = &report.files;
        let key = |i: usize| (files[i].path.as_str(), files[i].group);
        let order = crate::sorted_indices(files.len(), &|a, b| key(a).cmp(&key(b)));
        let mut repeat = vec![false; files.len()];
        for pair in order.windows(2) {
            repeat[pair[1]] = key(pair[0]) == key(pair[1]);
        }
        let unreadable = (0..report.diagnostics.len())
            .filter(|&i| report.diagnostics[i].code == memdiag_core::report::Code::FileUnreadable)
            .collect();
        RowFacts { repeat, unreadable }
    }
}

/// Ends a group's rows: says how many of its last rows are folded, and notes the group for
/// a "Show more" button when any of its rows are.
fn end_group(
    nodes: &mut Vec<Html>,
    folded_groups: &mut Vec<(Group, usize)>,
    group: Group,
    folded_run: usize,
    folded: usize,
) {
    if folded_run > 0 {
        nodes.push(fold_line(
            format!("fold-end-{}", group_slug(group)),
            folded_run,
        ));
    }
    if folded > 0 {
        folded_groups.push((group, folded));
    }
}

/// The line that stands for `count` rows not drawn.
fn fold_line(key: String, count: usize) -> Html {
    html! {
        <li role="none" class="tree-fold" {key} data-testid="tree-fold" data-count={count.to_string()}>
            { format!("{} more not shown", grouped(count as u64)) }
        </li>
    }
}

fn group_header(props: &TreeProps, group: Group, expanded: bool, selected: bool) -> Html {
    let report = &props.report;
    let count = report
        .groups
        .iter()
        .find(|g| g.name == group)
        .map(|g| g.top_level_files)
        .unwrap_or_else(|| {
            report
                .files
                .iter()
                .filter(|row| row.group == group && row.parent_index.is_none())
                .count() as u64
        });
    let item = TreeItem::Group(group);
    // A click on the header selects it; only the chevron collapses it.
    let onclick = {
        let on_select = props.on_select.clone();
        Callback::from(move |_| on_select.emit(item))
    };
    let on_chevron = {
        let on_select = props.on_select.clone();
        let on_toggle = props.on_toggle_group.clone();
        Callback::from(move |event: yew::MouseEvent| {
            event.stop_propagation();
            on_select.emit(item);
            on_toggle.emit(group);
        })
    };
    let slug = group_slug(group);
    html! {
        <li
            key={item_id(item)}
            id={item_id(item)}
            role="treeitem"
            aria-level="1"
            aria-expanded={expanded.to_string()}
            aria-selected={selected.to_string()}
            class={classes_of(&["tree-group", if selected { "selected" } else { "" }])}
            data-testid={format!("group-{slug}")}
            data-group={group.name()}
            data-count={count.to_string()}
            onclick={onclick}
        >
            <span class="chevron" aria-hidden="true" data-testid="group-chevron" onclick={on_chevron}
                title={if expanded { "Collapse" } else { "Expand" }}>{ if expanded { "▾" } else { "▸" } }</span>
            <span class={format!("swatch g-{slug}")} aria-hidden="true"></span>
            <span class="group-name">{ group.name() }</span>
            <span class="count" title="Top-level files">{ count }</span>
        </li>
    }
}

fn agent_header(index: usize, row: &FileRow) -> Html {
    let agent = row.agent.clone().unwrap_or_else(|| "agent".to_owned());
    let scope = match row.scope {
        Some(Scope::User) => "user",
        Some(Scope::Project) => "project",
        Some(Scope::Local) => "local",
        Some(Scope::Managed) => "managed",
        None => "",
    };
    html! {
        <li role="none" class="agent-head" key={format!("agent-{index}")} data-testid="agent-header">
            <span class="agent-name">{ agent }</span>
            if !scope.is_empty() {
                <span class="badge">{ scope }</span>
            }
        </li>
    }
}

#[allow(clippy::too_many_arguments)]
fn file_row(
    props: &TreeProps,
    facts: &RowFacts,
    sent_sizes: bool,
    index: usize,
    row: &FileRow,
    has_children: bool,
    expanded: bool,
    selected: bool,
) -> Html {
    let item = TreeItem::File(index);
    let shown = display_path(row, &props.report.context);
    let onclick = {
        let on_select = props.on_select.clone();
        Callback::from(move |_| on_select.emit(item))
    };
    let on_chevron = {
        let on_toggle = props.on_toggle_row.clone();
        Callback::from(move |event: yew::MouseEvent| {
            event.stop_propagation();
            on_toggle.emit(index);
        })
    };
    let muted = row.load.is_muted();
    let level = 2 + row.depth;
    // A file that could not be read (a damaged zip entry, a read error) says so on its row,
    // with the reason, rather than the "skipped" every unread file gets.
    let unreadable = facts
        .unreadable
        .iter()
        .map(|&i| &props.report.diagnostics[i])
        .find(|d| d.path.as_deref() == Some(row.path.as_str()));
    let marks = match unreadable {
        Some(finding) => html! {
            <span class="badge status unreadable" title={finding.message.clone()}
                data-testid="unreadable">{ "could not be read" }</span>
        },
        None => status_marks(row, props.approval),
    };
    let change = props
        .report
        .comparison
        .as_ref()
        .and_then(|c| c.row_in_other(index).map(|change| (c, change)));
    let change_mark = change.map(|(comparison, change)| {
        let pinned = &comparison.base_version;
        let pinned = if pinned == "current" {
            PINNED.to_string()
        } else {
            pinned.clone()
        };
        let (label, why) = describe_row_change(change, &pinned);
        html! { <span class="badge changed" title={why} data-testid="row-change">{ label }</span> }
    });
    // A file listed again (imported twice, linked from two places) is the same file: it
    // loads once.
    let repeat = facts
        .repeat
        .get(index)
        .copied()
        .unwrap_or(false)
        .then(|| html! { <span class="badge" title="Listed above too: the same file, sent once" data-testid="repeat">{ "repeat" }</span> });
    let cut = row
        .truncation
        .as_ref()
        .and_then(|t| t.first_dropped_line)
        .map(|line| html! { <span class="badge warn" title="MEMORY.md is cut here: the rest does not load">{ format!("cut at line {line}") }</span> });
    html! {
        <li
            key={item_id(item)}
            id={item_id(item)}
            role="treeitem"
            aria-level={level.to_string()}
            aria-selected={selected.to_string()}
            aria-expanded={has_children.then(|| expanded.to_string())}
            class={classes_of(&[
                "tree-row",
                DEPTH_CLASSES[(row.depth as usize).min(DEPTH_CLASSES.len() - 1)],
                if muted { "muted" } else { "" },
                if selected { "selected" } else { "" },
                if row.status == FileStatus::Ok { "" } else { "flagged" },
            ])}
            data-testid="tree-row"
            data-index={index.to_string()}
            data-loaded-chars={yours_as_sent(row).map(|n| n.to_string())}
            data-path={row.path.clone()}
            data-load={load_slug(row)}
            data-status={status_slug(row.status)}
            data-parent-index={row.parent_index.map(|p| p.to_string())}
            data-change={change.map(|(_, c)| row_change_slug(c.kind()))}
            onclick={onclick}
        >
            if has_children {
                <span class="chevron" aria-hidden="true" onclick={on_chevron}>{ if expanded { "▾" } else { "▸" } }</span>
            } else {
                <span class="chevron" aria-hidden="true"></span>
            }
            <span class={format!("icon load-{}", load_slug(row))} title={row.load.label()} aria-label={row.load.label()} role="img" data-testid="load-icon">
                { row.load.icon() }
            </span>
            <span class="path" title={row.path.clone()}>{ shown }</span>
            if let Some(name) = invoked_name(row) {
                <span class="badge skill" title="The name Claude invokes it with (and the skill's own name, when it differs)">{ name }</span>
            }
            { cut.unwrap_or_default() }
            { repeat.unwrap_or_default() }
            if row.backfilled {
                <span class="badge" data-testid="backfilled"
                    title="Not in the snapshot: Claude Code writes this MEMORY.md itself from the topic files' frontmatter and loads it from its next start">
                    { "written by Claude Code" }
                </span>
            }
            { marks }
            { change_mark.unwrap_or_default() }
            if sent_sizes {
                <span class="size" title="Characters as sent: what loads of this file, without the wording Claude Code adds around it">
                    { yours_as_sent(row).map(|n| format!("{} ch", grouped(n))).unwrap_or_else(|| "–".to_owned()) }
                </span>
            } else {
                <span class="size" title="Size on disk">{ row.size.map(human_bytes).unwrap_or_default() }</span>
            }
        </li>
    }
}

/// `added` or `changed`, for tests and styles.
fn row_change_slug(kind: RowChangeKind) -> &'static str {
    match kind {
        RowChangeKind::Added => "added",
        RowChangeKind::Removed => "removed",
        RowChangeKind::Changed => "changed",
    }
}

/// A row's badge and its tooltip when the simulated release treats it otherwise than the
/// pinned one.
fn describe_row_change(change: &RowChange, pinned: &str) -> (String, String) {
    if change.kind() == RowChangeKind::Added {
        return (
            "new".to_owned(),
            format!("Claude Code {pinned} does not list this file"),
        );
    }
    let mut what = Vec::new();
    if let Some([was, now]) = change.load {
        what.push(format!("loads {} (was {})", now.label(), was.label()));
    }
    if let Some([was, now]) = change.status {
        what.push(format!("{} (was {})", status_slug(now), status_slug(was)));
    }
    if let Some([was, now]) = change.counted {
        what.push(if now && !was {
            "counted in every session".to_owned()
        } else {
            "not counted".to_owned()
        });
    }
    if let Some([was, now]) = change.loaded_utf16 {
        let units = |u: Option<u64>| {
            u.map_or_else(
                || "nothing".to_owned(),
                |u| format!("{} characters", grouped(u)),
            )
        };
        what.push(format!("{} load (was {})", units(now), units(was)));
    }
    (
        "differs".to_owned(),
        format!("Unlike Claude Code {pinned}: {}", what.join("; ")),
    )
}

/// The marks a row's status earns: ⚠ with its reason, or a labelled badge.
fn status_marks(row: &FileRow, approval: ApprovalHint) -> Html {
    match row.status {
        FileStatus::Ok => Html::default(),
        FileStatus::Unresolved => {
            let why = match row.unresolved_reason {
                Some(UnresolvedReason::Missing) => "Unresolved: the file does not exist in the dropped folders",
                Some(UnresolvedReason::OutsideSnapshot) => {
                    "Unresolved: the target lies outside the dropped folders, so it cannot be checked"
                }
                Some(UnresolvedReason::NotLookedAt) => {
                    "Unresolved: the page did not look where it points (session data is not read), so it cannot be checked"
                }
                None => "Unresolved reference",
            };
            html! { <span class="warn-mark" title={why} aria-label={why} data-testid="unresolved">{ "⚠" }</span> }
        }
        FileStatus::Excluded => badge(
            "excluded",
            "Matched by claudeMdExcludes: Claude Code skips it",
        ),
        FileStatus::Disabled => badge("disabled", "Auto memory is switched off in settings"),
        FileStatus::Skipped => badge("skipped", "Too large to load or to read here"),
        FileStatus::TooDeep => badge("too deep", "Beyond the maximum import depth: not loaded"),
        FileStatus::NeedsApproval => badge(
            "needs approval",
            match approval {
                ApprovalHint::AddClaudeJson => {
                    "Leaves the project: loads only after you approve external imports. Add ~/.claude.json (at the top of the page) to see whether you did"
                }
                ApprovalHint::NotApproved => {
                    "Leaves the project: loads only after you approve external imports, and your ~/.claude.json does not approve them for this project"
                }
                ApprovalHint::Nothing => {
                    "Leaves the project: loads only after you approve external imports"
                }
            },
        ),
        FileStatus::Empty => badge(
            "empty",
            "Nothing left once frontmatter and comments are stripped: not sent",
        ),
        FileStatus::NotText => badge("not text", "Not a text file: Claude Code skips the import"),
    }
}

fn badge(text: &'static str, why: &'static str) -> Html {
    html! { <span class="badge status" title={why} data-testid="status-badge">{ text }</span> }
}

fn load_slug(row: &FileRow) -> &'static str {
    use memdiag_core::report::LoadType;
    match row.load {
        LoadType::Always => "always",
        LoadType::Startup => "startup",
        LoadType::Conditional => "conditional",
        LoadType::OnDemand => "on-demand",
        LoadType::Tree => "tree",
        LoadType::Import => "import",
        LoadType::Link => "link",
    }
}

fn status_slug(status: FileStatus) -> &'static str {
    match status {
        FileStatus::Ok => "ok",
        FileStatus::Unresolved => "unresolved",
        FileStatus::Excluded => "excluded",
        FileStatus::Disabled => "disabled",
        FileStatus::Skipped => "skipped",
        FileStatus::TooDeep => "too-deep",
        FileStatus::NeedsApproval => "needs-approval",
        FileStatus::Empty => "empty",
        FileStatus::NotText => "not-text",
    }
}

fn classes_of(names: &[&str]) -> String {
    names
        .iter()
        .filter(|n| !n.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// What of `row` every session sends as the person wrote it, in characters (UTF-16 units):
/// its text as sent less the wording Claude Code adds around it (a quoted `MEMORY.md`'s
/// sentence and marks), as the footprint counts it.
fn yours_as_sent(row: &FileRow) -> Option<u64> {
    let own = row.claude_code.map_or(0, |m| m.utf16);
    row.loaded.map(|m| m.utf16.saturating_sub(own))
}
