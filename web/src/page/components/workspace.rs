//! The tree beside its pane: the file view or the health view, behind ARIA tabs.

use memdiag_core::report::Report;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use crate::page::components::tab_key;

use crate::page::components::file_view::{file_text, FileText, FileView};
use crate::page::components::health::{health_view, HealthViewProps};
use crate::page::components::reads::ReadsView;
use crate::page::components::topbar::choose_claude_json;
use crate::page::components::tree::TreeView;
use crate::page::state::{approval_hint, Action, ApprovalHint, TreeItem, View};
use crate::{open_path, Page};

/// What the workspace keeps from one render to the next, made by [`use_workspace`].
pub struct WorkspaceMemos {
    tree_items: std::rc::Rc<Vec<TreeItem>>,
    text: std::rc::Rc<FileText>,
    project_files: std::rc::Rc<Vec<String>>,
    handlers: std::rc::Rc<Handlers>,
}

/// The workspace's memos, kept by the page (which calls this at every render, with or
/// without a report) so that the workspace itself is a plain function, not a component: each
/// component costs the page's wasm its own copy of Yew's lifecycle code.
#[hook]
pub fn use_workspace(page: &Page) -> WorkspaceMemos {
    let state = page.state.clone();
    let tree_items = {
        let state = state.clone();
        use_memo(
            (
                state.loaded.report.clone(),
                state.nav.collapsed.clone(),
                state.nav.collapsed_rows.clone(),
                state.nav.filter.clone(),
            ),
            move |_| state.visible_items(),
        )
    };
    let text = {
        let path = state.selected_row().map(|row| row.path.clone());
        let tree = state.loaded.tree.clone();
        use_memo((tree, path), |(tree, path)| match (tree, path) {
            (Some(tree), Some(path)) => file_text(tree, path),
            _ => FileText::Missing,
        })
    };
    // The project's files, for the Reads view's list: only once that view shows.
    let project_files = {
        let engine = page.engine.clone();
        let inputs = state.sources.inputs.clone();
        let reads_shown = state.pane.view == View::Reads;
        use_memo(
            (
                state.sources.infos.clone(),
                inputs.project.clone(),
                inputs.project_mount.clone(),
                inputs.home.clone(),
                inputs.config_dir.clone(),
                reads_shown,
            ),
            move |_| {
                if reads_shown {
                    engine.project_files(&inputs)
                } else {
                    Vec::new()
                }
            },
        )
    };
    // Made once: new callbacks at every render made the tree's and the file view's props
    // differ from the last, so every progress message of a run drew both again (20 to 30 ms
    // of the page's thread each at 30,000 + 12,900 entries, while it answered the worker's
    // reads).
    let handlers = use_memo(state.dispatcher(), |dispatcher| {
        let d = dispatcher.to_callback();
        Handlers {
            select: d.reform(Action::Select),
            key: d.reform(Action::Key),
            toggle_group: d.reform(Action::ToggleGroup),
            toggle_row: d.reform(Action::ToggleRow),
            filter: d.reform(Action::SetFilter),
            tab: d.reform(Action::SetTab),
            open: open_path(dispatcher),
            add_claude_json: Callback::from(|_: ()| choose_claude_json()),
        }
    });
    WorkspaceMemos {
        tree_items,
        text,
        project_files,
        handlers,
    }
}

/// The tree and the pane beside it.
pub fn workspace(page: &Page, memos: &WorkspaceMemos) -> Html {
    let state = &page.state;
    let WorkspaceMemos {
        tree_items,
        text,
        project_files,
        handlers,
    } = memos;
    let Some(report) = state.loaded.report.clone() else {
        return Html::default();
    };
    let read_only = state.read_only();
    let approval = match &state.loaded.tree {
        Some(tree) => approval_hint(&report, tree, read_only),
        None => ApprovalHint::Nothing,
    };
    let (selected_index, selected_group) = match state.nav.cursor {
        Some(TreeItem::File(index)) => (Some(index), None),
        Some(TreeItem::Group(group)) => (None, Some(group)),
        None => (None, None),
    };
    let d = state.dispatcher().to_callback();
    let nav = &state.nav;
    let pane = &state.pane;
    // The ARIA tabs pattern: one tab stop, the arrows (and Home, End) move between the tabs
    // and show theirs.
    const VIEWS: [(View, &str); 3] = [
        (View::File, "file"),
        (View::Health, "health"),
        (View::Reads, "reads"),
    ];
    let on_tab_key = {
        let d = d.clone();
        Callback::from(move |event: KeyboardEvent| {
            let current = VIEWS.iter().position(|(_, id)| {
                event
                    .target()
                    .and_then(|t| t.dyn_into::<Element>().ok())
                    .is_some_and(|e| e.id() == format!("pane-tab-{id}"))
            });
            let Some(current) = current else { return };
            if let Some(next) = tab_key(&event.key(), current, VIEWS.len()) {
                event.prevent_default();
                let (view, id) = VIEWS[next];
                d.emit(Action::SetView(view));
                focus_id(&format!("pane-tab-{id}"));
            }
        })
    };
    let view_tab = |view: View, label: &'static str, id: &'static str, extra: Html| {
        let active = pane.view == view;
        html! {
            <button role="tab" id={format!("pane-tab-{id}")} class={classes!("pane-tab", active.then_some("active"))}
                aria-selected={active.to_string()} aria-controls="pane" data-testid={format!("view-{id}")}
                tabindex={if active { "0" } else { "-1" }}
                title="Switch between the file, health and reads views (the arrow keys here; h toggles file and health)"
                onkeydown={on_tab_key.clone()}
                onclick={d.reform(move |_| Action::SetView(view))}>
                { label }{ extra }
            </button>
        }
    };
    let on_open = handlers.open.clone();
    let ask_read = {
        let engine = page.engine.clone();
        let inputs = state.sources.inputs.clone();
        Callback::from(move |path: String| engine.ask_read(&inputs, path))
    };
    html! {
        <main class={classes!("workspace", state.status.busy.is_some().then_some("stale"))} data-testid="workspace">
            <div class="tree-column">
                <TreeView report={report.clone()} items={tree_items.clone()} cursor={nav.cursor}
                    collapsed={nav.collapsed.clone()} collapsed_rows={nav.collapsed_rows.clone()}
                    filter={nav.filter.clone()} on_select={handlers.select.clone()} on_key={handlers.key.clone()}
                    on_toggle_group={handlers.toggle_group.clone()} on_toggle_row={handlers.toggle_row.clone()}
                    on_filter={handlers.filter.clone()}
                    approval={approval} />
            </div>
            <div class="pane-column">
                <div class="pane-tabs" role="tablist" aria-label="What to show beside the tree">
                    { view_tab(View::File, "File", "file", Html::default()) }
                    { view_tab(View::Health, "Health", "health", health_badge(&report)) }
                    { view_tab(View::Reads, "Reads", "reads", Html::default()) }
                    <span class="pane-hint muted small"><kbd>{ "h" }</kbd>{ "switches" }</span>
                </div>
                <div class="pane" id="pane" role="tabpanel"
                    aria-labelledby={match pane.view {
                        View::Health => "pane-tab-health",
                        View::Reads => "pane-tab-reads",
                        View::File => "pane-tab-file",
                    }}>
                    if pane.view == View::Reads {
                        <ReadsView report={report.clone()} files={std::rc::Rc::new((**project_files).clone())}
                            project={state.sources.inputs.project.clone()}
                            asked={state.sources.inputs.reads.first().cloned()}
                            busy={state.status.busy.is_some()} read_only={read_only}
                            on_ask={ask_read} on_open={on_open.clone()} />
                    } else if pane.view == View::Health {
                        { health_view(&HealthViewProps { report: report.clone(), on_open: on_open.clone() }) }
                    } else {
                        <FileView report={report.clone()} index={selected_index} group={selected_group}
                            text={(**text).clone()} tab={pane.tab} focus_line={pane.focus_line}
                            focus_seq={pane.focus_seq} on_tab={handlers.tab.clone()} on_open={on_open.clone()}
                            approval={approval} on_add_claude_json={handlers.add_claude_json.clone()} />
                    }
                </div>
            </div>
        </main>
    }
}

/// The tree's callbacks, made once per page (see [`use_workspace`]).
struct Handlers {
    select: Callback<TreeItem>,
    key: Callback<crate::page::state::NavKey>,
    toggle_group: Callback<memdiag_core::report::Group>,
    toggle_row: Callback<usize>,
    filter: Callback<String>,
    tab: Callback<crate::page::state::Tab>,
    open: Callback<(String, Option<u64>)>,
    add_claude_json: Callback<()>,
}

/// How many of the five reasons found something, beside the Health tab, coloured as the
/// most serious of their findings is in Findings (an info is no warning there either).
fn health_badge(report: &Report) -> Html {
    if report.health.reasons.is_empty() {
        return Html::default();
    }
    let found: Vec<&memdiag_core::report::ReasonCheck> =
        report.health.reasons.iter().filter(|r| !r.ok).collect();
    let mut worst = memdiag_core::report::Severity::Info;
    let mut findings = 0;
    for d in &report.diagnostics {
        if found.iter().any(|r| r.codes.contains(&d.code)) {
            findings += 1;
            worst = worst.min(d.severity);
        }
    }
    let class = match (found.len(), worst) {
        (0, _) => None,
        (_, memdiag_core::report::Severity::Error) => Some("error"),
        (_, memdiag_core::report::Severity::Warning) => Some("warn"),
        _ => Some("info"),
    };
    html! {
        <span class={classes!("pane-count", class)} data-testid="health-count"
            title={format!("{} of 5 reasons found something, with {findings} of the findings", found.len())}>
            { if found.is_empty() { "✓".to_owned() } else { found.len().to_string() } }
        </span>
    }
}

/// Moves focus to the element with this id.
pub(crate) fn focus_id(id: &str) {
    if let Some(element) = crate::page::browser::document()
        .get_element_by_id(id)
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    {
        let _ = element.focus();
    }
}
