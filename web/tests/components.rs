//! Component tests in a real browser (Chromium and Firefox through wasm-bindgen-test-runner).
//!
//! Each test mounts a component into a fresh `<div>` with hand-built props, lets Yew's
//! scheduler run, and reads the DOM. Reports are built by hand here: the components only read
//! a `Report`, so no analysis is needed to test them.

#![cfg(target_arch = "wasm32")]

use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::Duration;

use memdiag_core::report::{
    Context, Cost, CutBy, FileRow, FileStatus, Footprint, Group, GroupFootprint, GroupSummary,
    Growth, LoadType, Measure, Report, SentFile, SentLabel, Session, SessionCost, Truncation,
    UnresolvedReason, WeekCount,
};
use memdiag_core::Tree;
use memdiag_web::engine::ingest as engine_ingest;
use memdiag_web::page::components::file_view::{FileText, FileView, FileViewProps};
use memdiag_web::page::components::footprint::{FootprintBar, FootprintBarProps};
use memdiag_web::page::components::health::{growth_chart, GrowthChartProps};
use memdiag_web::page::components::tree::TreeView;
use memdiag_web::page::ingest;
use memdiag_web::page::state::{Action, ApprovalHint, Shared, State, Tab, Unit};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, KeyboardEvent, KeyboardEventInit};
use yew::prelude::*;

wasm_bindgen_test_configure!(run_in_browser);

// --- helpers -------------------------------------------------------------------------------

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh container in the page.
fn container() -> Element {
    let div = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&div).unwrap();
    div
}

/// Lets Yew render and run effects.
async fn settle() {
    for _ in 0..3 {
        yew::platform::time::sleep(Duration::ZERO).await;
    }
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

fn one(root: &Element, selector: &str) -> Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn attr(element: &Element, name: &str) -> String {
    element.get_attribute(name).unwrap_or_default()
}

fn row(path: &str, group: Group, load: LoadType, parent: Option<usize>) -> FileRow {
    FileRow {
        path: path.to_owned(),
        group,
        load,
        parent_index: parent,
        depth: u32::from(parent.is_some()),
        size: Some(120),
        counted: true,
        status: FileStatus::Ok,
        ..FileRow::default()
    }
}

/// A report with every group and every load type: the tree's test subject.
fn every_kind_report() -> Report {
    let mut unresolved = row(
        "/home/alice/work/shop/docs/missing.md",
        Group::Project,
        LoadType::Import,
        Some(2),
    );
    unresolved.status = FileStatus::Unresolved;
    unresolved.unresolved_reason = Some(UnresolvedReason::Missing);
    unresolved.size = None;
    let mut excluded = row(
        "/home/alice/work/shop/legacy/CLAUDE.md",
        Group::Project,
        LoadType::Tree,
        None,
    );
    excluded.status = FileStatus::Excluded;
    let mut agent = row(
        "/home/alice/.claude/agent-memory/reviewer/MEMORY.md",
        Group::AgentMemory,
        LoadType::Startup,
        None,
    );
    agent.agent = Some("reviewer".to_owned());
    // A MEMORY.md the snapshot lacks, which Claude Code writes from its topic files.
    let mut backfilled = row(
        "/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md",
        Group::AutoMemory,
        LoadType::Startup,
        None,
    );
    backfilled.backfilled = true;
    backfilled.size = None;
    let files = vec![
        row(
            "/etc/claude-code/CLAUDE.md",
            Group::ManagedPolicy,
            LoadType::Always,
            None,
        ),
        row(
            "/home/alice/.claude/CLAUDE.md",
            Group::User,
            LoadType::Always,
            None,
        ),
        row(
            "/home/alice/work/shop/CLAUDE.md",
            Group::Project,
            LoadType::Always,
            None,
        ),
        row(
            "/home/alice/work/shop/docs/setup.md",
            Group::Project,
            LoadType::Import,
            Some(2),
        ),
        row(
            "/home/alice/work/shop/docs/runbook.md",
            Group::Project,
            LoadType::Link,
            Some(2),
        ),
        unresolved,
        excluded,
        row(
            "/home/alice/work/shop/src/api/CLAUDE.md",
            Group::Project,
            LoadType::Tree,
            None,
        ),
        row(
            "/home/alice/work/shop/.claude/rules/frontend.md",
            Group::Rules,
            LoadType::Conditional,
            None,
        ),
        backfilled,
        row(
            "/home/alice/.claude/projects/-home-alice-work-shop/memory/db.md",
            Group::AutoMemory,
            LoadType::OnDemand,
            Some(9),
        ),
        row(
            "/home/alice/work/shop/.claude/skills/deploy/SKILL.md",
            Group::Skills,
            LoadType::OnDemand,
            None,
        ),
        agent,
    ];
    let groups = Group::ALL
        .iter()
        .map(|&name| GroupSummary {
            name,
            top_level_files: files
                .iter()
                .filter(|r| r.group == name && r.parent_index.is_none())
                .count() as u64,
            rows: files.iter().filter(|r| r.group == name).count() as u64,
        })
        .collect();
    Report {
        context: Context {
            home: "/home/alice".to_owned(),
            config_dir: "/home/alice/.claude".to_owned(),
            project: Some("/home/alice/work/shop".to_owned()),
            memory_dir: Some(
                "/home/alice/.claude/projects/-home-alice-work-shop/memory".to_owned(),
            ),
            ..Context::default()
        },
        files,
        groups,
        ..Report::default()
    }
}

/// A state holding `report`, as the page has it after a run.
fn state_with(report: Report) -> State {
    let mut state = State::default();
    state.apply(Action::RunStarted(1));
    state.apply(Action::RunFinished {
        run: 1,
        report: Shared::new(report),
        tree: Shared::new(Tree::new()),
        input: Shared::new(memdiag_core::Input::default()),
        job: None,
        at: 0.0,
    });
    state
}

/// The source a dropped folder named `name` holding `files` (path, text) becomes.
async fn dropped_folder(name: &str, files: &[(&str, &str)]) -> ingest::Source {
    let entry = fake_folder(
        name,
        files.iter().map(|(p, _)| (*p).to_owned()).collect(),
        files.iter().map(|(_, t)| (*t).to_owned()).collect(),
    );
    let item = ingest::DroppedItem {
        entry: entry.unchecked_into(),
        handle: None,
    };
    ingest::open_dropped(item, &|_| (), None)
        .await
        .unwrap()
        .into_source()
        .expect("a folder, not a shared snapshot")
}

/// The tree as the page wires it: state in a reducer, keys dispatched as actions.
#[derive(Properties, PartialEq)]
struct TreeHarnessProps {
    report: Shared<Report>,
}

#[component]
fn TreeHarness(props: &TreeHarnessProps) -> Html {
    let report = props.report.clone();
    let state = use_reducer(move || state_with((*report).clone()));
    let d = state.dispatcher();
    let items = Rc::new(state.visible_items());
    html! {
        <TreeView
            report={state.loaded.report.clone().unwrap()}
            items={items}
            cursor={state.nav.cursor}
            collapsed={state.nav.collapsed.clone()}
            collapsed_rows={state.nav.collapsed_rows.clone()}
            filter={state.nav.filter.clone()}
            on_select={{ let d = d.clone(); Callback::from(move |i| d.dispatch(Action::Select(i))) }}
            on_key={{ let d = d.clone(); Callback::from(move |k| d.dispatch(Action::Key(k))) }}
            on_toggle_group={{ let d = d.clone(); Callback::from(move |g| d.dispatch(Action::ToggleGroup(g))) }}
            on_toggle_row={{ let d = d.clone(); Callback::from(move |i| d.dispatch(Action::ToggleRow(i))) }}
            on_filter={{ let d = d.clone(); Callback::from(move |f| d.dispatch(Action::SetFilter(f))) }}
        />
    }
}

fn press(target: &Element, key: &str) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
}

fn selected_id(root: &Element) -> String {
    let selected = all(root, "[role=treeitem][aria-selected=true]");
    assert_eq!(selected.len(), 1, "exactly one selected item");
    selected[0].id()
}

// --- the tree ------------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn tree_renders_every_group_and_icon() {
    let root = container();
    let report = Shared::new(every_kind_report());
    let _app = yew::Renderer::<TreeHarness>::with_root_and_props(
        root.clone(),
        TreeHarnessProps {
            report: report.clone(),
        },
    )
    .render();
    settle().await;

    let groups: Vec<String> = all(&root, "[role=treeitem][aria-level='1']")
        .iter()
        .map(|e| attr(e, "data-group"))
        .collect();
    assert_eq!(
        groups,
        Group::ALL
            .iter()
            .map(|g| g.name().to_owned())
            .collect::<Vec<_>>()
    );
    // Headers count top-level files.
    assert_eq!(
        attr(&one(&root, "[data-testid=group-project]"), "data-count"),
        "3"
    );
    // Agent Memory starts collapsed; the others are open.
    assert_eq!(
        attr(
            &one(&root, "[data-testid=group-agent-memory]"),
            "aria-expanded"
        ),
        "false"
    );
    assert_eq!(
        attr(&one(&root, "[data-testid=group-user]"), "aria-expanded"),
        "true"
    );

    // A click on the header selects it and leaves it collapsed; its chevron opens it, so
    // that every icon shows.
    let header: HtmlElement = one(&root, "[data-testid=group-agent-memory]").unchecked_into();
    header.click();
    settle().await;
    let header = one(&root, "[data-testid=group-agent-memory]");
    assert_eq!(attr(&header, "aria-selected"), "true");
    assert_eq!(attr(&header, "aria-expanded"), "false");
    let chevron: HtmlElement = one(&header, "[data-testid=group-chevron]").unchecked_into();
    chevron.click();
    settle().await;
    assert_eq!(
        attr(
            &one(&root, "[data-testid=group-agent-memory]"),
            "aria-expanded"
        ),
        "true"
    );
    let mut seen = BTreeMap::new();
    for icon in all(&root, "[data-testid=load-icon]") {
        seen.insert(
            attr(&icon, "title"),
            icon.text_content().unwrap_or_default(),
        );
    }
    for load in [
        LoadType::Always,
        LoadType::Startup,
        LoadType::Conditional,
        LoadType::OnDemand,
        LoadType::Tree,
        LoadType::Import,
        LoadType::Link,
    ] {
        assert_eq!(
            seen.get(load.label()).map(String::as_str),
            Some(load.icon()),
            "icon for {}",
            load.label()
        );
    }
    // Muted rows, the unresolved mark with its reason, the excluded badge, the agent header.
    let rows = all(&root, "[data-testid=tree-row]");
    let by_path = |suffix: &str| {
        rows.iter()
            .find(|r| attr(r, "data-path").ends_with(suffix))
            .unwrap_or_else(|| panic!("a row for {suffix}"))
            .clone()
    };
    assert!(by_path("rules/frontend.md").class_list().contains("muted"));
    assert!(by_path("docs/runbook.md").class_list().contains("muted"));
    assert!(!by_path("shop/CLAUDE.md").class_list().contains("muted"));
    let missing = by_path("docs/missing.md");
    let mark = one(&missing, "[data-testid=unresolved]");
    assert_eq!(mark.text_content().unwrap(), "⚠");
    assert!(attr(&mark, "title").contains("does not exist"));
    assert_eq!(attr(&missing, "data-parent-index"), "2");
    assert_eq!(attr(&missing, "aria-level"), "3");
    assert_eq!(
        one(&by_path("legacy/CLAUDE.md"), "[data-testid=status-badge]")
            .text_content()
            .unwrap(),
        "excluded"
    );
    // Project files show relative to the project.
    assert_eq!(
        one(&by_path("src/api/CLAUDE.md"), ".path")
            .text_content()
            .unwrap(),
        "src/api/CLAUDE.md"
    );
    assert_eq!(
        one(&root, "[data-testid=agent-header] .agent-name")
            .text_content()
            .unwrap(),
        "reviewer"
    );
    // Only the MEMORY.md Claude Code writes itself says so.
    let marked: Vec<String> = all(&root, "[data-testid=tree-row]")
        .iter()
        .filter(|r| {
            r.query_selector("[data-testid=backfilled]")
                .unwrap()
                .is_some()
        })
        .map(|r| attr(r, "data-path"))
        .collect();
    assert_eq!(
        marked,
        ["/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md"]
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn keyboard_navigation_moves_the_selection() {
    let root = container();
    let _app = yew::Renderer::<TreeHarness>::with_root_and_props(
        root.clone(),
        TreeHarnessProps {
            report: Shared::new(every_kind_report()),
        },
    )
    .render();
    settle().await;
    let tree = one(&root, "[role=tree]");
    assert_eq!(selected_id(&root), "ti-f-0");
    assert_eq!(attr(&tree, "aria-activedescendant"), "ti-f-0");

    press(&tree, "ArrowDown");
    settle().await;
    assert_eq!(selected_id(&root), "ti-g-user");
    press(&tree, "ArrowDown");
    press(&tree, "ArrowDown");
    settle().await;
    assert_eq!(selected_id(&root), "ti-g-project");
    // Left collapses the group, Right opens it again and then steps in.
    press(&tree, "ArrowLeft");
    settle().await;
    assert_eq!(attr(&one(&root, "#ti-g-project"), "aria-expanded"), "false");
    assert!(root.query_selector("#ti-f-2").unwrap().is_none());
    press(&tree, "ArrowRight");
    press(&tree, "ArrowRight");
    settle().await;
    assert_eq!(selected_id(&root), "ti-f-2");
    // Down walks into the references nested under the file.
    press(&tree, "ArrowDown");
    settle().await;
    assert_eq!(selected_id(&root), "ti-f-3");
    // Left from a reference goes to the file that holds it.
    press(&tree, "ArrowLeft");
    settle().await;
    assert_eq!(selected_id(&root), "ti-f-2");
    // End reaches the last group; Enter opens it.
    press(&tree, "End");
    press(&tree, "Enter");
    settle().await;
    assert_eq!(selected_id(&root), "ti-g-agent-memory");
    assert_eq!(
        attr(&one(&root, "#ti-g-agent-memory"), "aria-expanded"),
        "true"
    );
    assert!(root.query_selector("#ti-f-12").unwrap().is_some());
    root.remove();
}

/// A report of one project file and `rules` rules in one folder: a crafted shared link held
/// 19,950 (issue 30).
fn many_rules_report(rules: usize) -> Report {
    let mut files = vec![row(
        "/home/alice/work/shop/CLAUDE.md",
        Group::Project,
        LoadType::Always,
        None,
    )];
    files.extend((0..rules).map(|i| {
        row(
            &format!("/home/alice/work/shop/.claude/rules/r{i:05}.md"),
            Group::Rules,
            LoadType::Always,
            None,
        )
    }));
    Report {
        files,
        ..Report::default()
    }
}

#[wasm_bindgen_test]
async fn a_group_of_thousands_draws_a_batch_and_the_rest_on_request() {
    use memdiag_web::page::components::tree::ROWS_SHOWN;
    let rules = 2 * ROWS_SHOWN + 50;
    let root = container();
    let _app = yew::Renderer::<TreeHarness>::with_root_and_props(
        root.clone(),
        TreeHarnessProps {
            report: Shared::new(many_rules_report(rules)),
        },
    )
    .render();
    settle().await;
    let drawn_rules = |root: &Element| {
        all(root, "[data-testid=tree-row]")
            .iter()
            .filter(|r| attr(r, "data-path").contains("/rules/"))
            .count()
    };
    assert_eq!(drawn_rules(&root), ROWS_SHOWN);
    // The header still counts every rule; a line in the tree stands for the folded rows.
    assert_eq!(
        attr(&one(&root, "[data-testid=group-rules]"), "data-count"),
        rules.to_string()
    );
    let fold = one(&root, "[data-testid=tree-fold]");
    assert_eq!(attr(&fold, "role"), "none");
    assert_eq!(attr(&fold, "data-count"), (rules - ROWS_SHOWN).to_string());
    // The button is a real button, outside the tree (a tree holds only its items), and says
    // how many it draws and how many are left.
    let more = one(&root, "button[data-testid=tree-more]");
    assert!(more.closest("[role=tree]").unwrap().is_none());
    assert_eq!(attr(&more, "type"), "button");
    assert_eq!(attr(&more, "aria-controls"), "memory-tree");
    assert!(root.query_selector("#memory-tree").unwrap().is_some());
    assert_eq!(attr(&more, "data-group"), "Rules");
    assert_eq!(
        more.text_content().unwrap_or_default(),
        format!(
            "Show {ROWS_SHOWN} more files in Rules ({} not shown)",
            rules - ROWS_SHOWN
        )
    );
    click(&more);
    settle().await;
    assert_eq!(drawn_rules(&root), 2 * ROWS_SHOWN);
    let more = one(&root, "button[data-testid=tree-more]");
    assert_eq!(
        more.text_content().unwrap_or_default(),
        "Show 50 more files in Rules (50 not shown)"
    );
    click(&more);
    settle().await;
    assert_eq!(drawn_rules(&root), rules);
    assert!(root
        .query_selector("[data-testid=tree-more], [data-testid=tree-fold]")
        .unwrap()
        .is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn a_selected_row_in_the_folded_part_is_drawn() {
    use memdiag_web::page::components::tree::ROWS_SHOWN;
    let rules = ROWS_SHOWN + 300;
    let root = container();
    let _app = yew::Renderer::<TreeHarness>::with_root_and_props(
        root.clone(),
        TreeHarnessProps {
            report: Shared::new(many_rules_report(rules)),
        },
    )
    .render();
    settle().await;
    let tree = one(&root, "[role=tree]");
    // End reaches the last group header (Agent Memory); up past Commands, Skills and Auto
    // Memory is the last rule, far in the folded part: it is drawn, selected and named as
    // active.
    press(&tree, "End");
    for _ in 0..4 {
        press(&tree, "ArrowUp");
    }
    settle().await;
    let last = format!("ti-f-{rules}");
    assert_eq!(selected_id(&root), last);
    assert_eq!(attr(&tree, "aria-activedescendant"), last);
    assert_eq!(
        all(&root, "[data-testid=tree-row]")
            .iter()
            .filter(|r| attr(r, "data-path").contains("/rules/"))
            .count(),
        ROWS_SHOWN + 1
    );
    // The folded rows before it are one line; none are left after it.
    let folds = all(&root, "[data-testid=tree-fold]");
    assert_eq!(folds.len(), 1);
    assert_eq!(
        attr(&folds[0], "data-count"),
        (rules - ROWS_SHOWN - 1).to_string()
    );
    // Up once more walks into the fold: that row is drawn, and the last folds again.
    press(&tree, "ArrowUp");
    settle().await;
    assert_eq!(selected_id(&root), format!("ti-f-{}", rules - 1));
    let folds: Vec<String> = all(&root, "[data-testid=tree-fold]")
        .iter()
        .map(|f| attr(f, "data-count"))
        .collect();
    assert_eq!(
        folds,
        [(rules - ROWS_SHOWN - 2).to_string(), "1".to_owned()]
    );
    root.remove();
}

// --- the file view -------------------------------------------------------------------------

fn memory_report(first_dropped: u64) -> (Report, usize) {
    let mut memory = row(
        "/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md",
        Group::AutoMemory,
        LoadType::Startup,
        None,
    );
    memory.truncation = Some(Truncation {
        total_lines: 6,
        loaded_lines: first_dropped - 1,
        total_utf16: 60,
        loaded_utf16: 30,
        cut_by: Some(CutBy::Lines),
        first_dropped_line: Some(first_dropped),
        warning: Some(format!(
            "> WARNING: MEMORY.md is 6 lines (limit: 3). Only part of it was loaded: {} of 6 lines were cut off, starting at line {first_dropped} (\"- [d](d.md)\"). Keep <index> entries to one line.",
            7 - first_dropped
        )),
    });
    // As sent: the loaded lines, a blank line and the warning.
    memory.loaded = Some(Measure {
        bytes: 190,
        chars: 190,
        utf16: 190,
        lines: first_dropped + 1,
    });
    let mut report = every_kind_report();
    report.files = vec![memory];
    report.diagnostics = vec![memdiag_core::Diagnostic::new(
        memdiag_core::report::Code::MemoryIndexTruncated,
        memdiag_core::Severity::Warning,
        Some("/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md"),
        "WARNING: MEMORY.md is 6 lines (limit: 3).",
    )];
    (report, 0)
}

#[wasm_bindgen_test]
async fn a_memory_view_shows_the_cut_at_the_right_line() {
    let root = container();
    let (report, index) = memory_report(4);
    let text = "- [a](a.md)\n- [b](b.md)\n- [c](c.md)\n- [d](d.md)\n- [e](e.md)\n- [f](f.md)\n";
    let _app = yew::Renderer::<FileView>::with_root_and_props(
        root.clone(),
        FileViewProps {
            report: Shared::new(report),
            index: Some(index),
            group: None,
            text: FileText::Text {
                text: text.into(),
                lossy: false,
            },
            tab: Tab::Raw,
            focus_line: None,
            focus_seq: 0,
            on_tab: Callback::noop(),
            on_open: Callback::noop(),
            approval: ApprovalHint::Nothing,
            on_add_claude_json: Callback::noop(),
        },
    )
    .render();
    settle().await;
    let cut = one(&root, "[data-testid=cut-line]");
    assert_eq!(attr(&cut, "data-line-cut"), "4");
    // The marker sits right before line 4, and only lines 4 to 6 are marked dropped.
    let next = cut.next_element_sibling().unwrap();
    assert_eq!(attr(&next, "data-line"), "4");
    let dropped: Vec<String> = all(&root, ".line.dropped")
        .iter()
        .map(|l| attr(l, "data-line"))
        .collect();
    assert_eq!(dropped, ["4", "5", "6"]);
    assert_eq!(all(&root, ".line").len(), 6);
    let figures = one(&root, "[data-testid=truncation]");
    assert_eq!(attr(&figures, "data-first-dropped-line"), "4");
    assert!(figures.text_content().unwrap().contains("25,000"));
    assert!(figures.text_content().unwrap().contains("200"));
    // The finding about that file shows in the view.
    let note = one(&root, "[data-testid=file-diagnostic]");
    let text = note.text_content().unwrap();
    assert!(text.contains("MEMORY.md is 6 lines"), "{text}");
    // The severity is said once, not again by the message beside it.
    assert_eq!(text.to_lowercase().matches("warning").count(), 1, "{text}");
    assert!(attr(&one(&note, ".msg"), "title").contains("WARNING: MEMORY.md is 6 lines"));
    // The notes fold into one summary line above the text.
    let notes = one(&root, "[data-testid=file-notes]");
    assert!(notes.get_attribute("open").is_none());
    assert!(one(&notes, "summary")
        .text_content()
        .unwrap()
        .starts_with("1 warning about this file: MEMORY.md is 6 lines"));
    // Claude Code's own warning shows word for word, as text (its `<index>` is no element).
    let warning = one(&root, "[data-testid=truncation] [data-testid=cut-warning]");
    assert_eq!(
        warning.text_content().unwrap(),
        "> WARNING: MEMORY.md is 6 lines (limit: 3). Only part of it was loaded: 3 of 6 lines were cut off, starting at line 4 (\"- [d](d.md)\"). Keep <index> entries to one line."
    );
    assert!(root.query_selector("index").unwrap().is_none());
    // What is sent counts the warning: the row's figures, not the index's.
    let sent = one(&root, "[data-testid=sent-figures]");
    assert_eq!(attr(&sent, "data-utf16"), "190");
    assert!(
        sent.text_content().unwrap().contains("warning included"),
        "{}",
        sent.text_content().unwrap()
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn an_uncut_memory_shows_no_warning_and_a_sent_file_its_place_and_label() {
    let (mut report, index) = memory_report(4);
    let memory = &mut report.files[index];
    let t = memory.truncation.as_mut().unwrap();
    t.cut_by = None;
    t.first_dropped_line = None;
    t.warning = None;
    report.session = Session {
        files: vec![
            SentFile {
                path: "/home/alice/.claude/CLAUDE.md".to_owned(),
                row: 1,
                label: Some(SentLabel::User),
                loaded: Measure::default(),
            },
            SentFile {
                path: memory.path.clone(),
                row: index,
                label: Some(SentLabel::AutoMemory),
                loaded: Measure::default(),
            },
        ],
        ..Session::default()
    };
    let root = container();
    let _app = yew::Renderer::<FileView>::with_root_and_props(
        root.clone(),
        FileViewProps {
            report: Shared::new(report),
            index: Some(index),
            group: None,
            text: FileText::Text {
                text: "- [a](a.md)\n".into(),
                lossy: false,
            },
            tab: Tab::Raw,
            focus_line: None,
            focus_seq: 0,
            on_tab: Callback::noop(),
            on_open: Callback::noop(),
            approval: ApprovalHint::Nothing,
            on_add_claude_json: Callback::noop(),
        },
    )
    .render();
    settle().await;
    assert!(root
        .query_selector("[data-testid=cut-warning]")
        .unwrap()
        .is_none());
    assert!(root
        .query_selector("[data-testid=cut-line]")
        .unwrap()
        .is_none());
    assert!(!one(&root, "[data-testid=sent-figures]")
        .text_content()
        .unwrap()
        .contains("warning"));
    assert_eq!(
        one(&root, "[data-testid=file-session]")
            .text_content()
            .unwrap(),
        "sent: file 2 of 2, labelled (user's auto-memory, persists across conversations)"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn raw_html_in_a_claude_md_stays_text() {
    let hostile = "# Rules\n\n<script>window.__memdiag_pwned = 1;</script>\n\n\
                   Inline <img src=x onerror=\"window.__memdiag_pwned = 2\"> here.\n\n\
                   <iframe src=\"https://example.com\"></iframe>\n\n\
                   [out](https://example.com/steal) and [local](docs/a.md)\n";
    for tab in [Tab::Preview, Tab::Raw] {
        let root = container();
        let report = every_kind_report();
        let _app = yew::Renderer::<FileView>::with_root_and_props(
            root.clone(),
            FileViewProps {
                report: Shared::new(report),
                index: Some(2),
                group: None,
                text: FileText::Text {
                    text: hostile.into(),
                    lossy: false,
                },
                tab,
                focus_line: None,
                focus_seq: 0,
                on_tab: Callback::noop(),
                on_open: Callback::noop(),
                approval: ApprovalHint::Nothing,
                on_add_claude_json: Callback::noop(),
            },
        )
        .render();
        settle().await;
        for tag in ["script", "img", "iframe"] {
            assert!(
                root.query_selector(tag).unwrap().is_none(),
                "no <{tag}> element in {tab:?}"
            );
        }
        let text = root.text_content().unwrap();
        assert!(
            text.contains("<script>window.__memdiag_pwned = 1;</script>"),
            "{tab:?}"
        );
        assert!(text.contains("onerror"), "{tab:?}");
        // No link in the preview can navigate anywhere.
        for link in all(&root, "a") {
            assert!(link.get_attribute("href").is_none(), "a link with an href");
        }
        if tab == Tab::Preview {
            assert!(
                root.query_selector("h1").unwrap().is_some(),
                "Markdown still renders"
            );
            assert_eq!(all(&root, "a.md-link").len(), 2);
        }
        let pwned =
            js_sys::Reflect::get(&web_sys::window().unwrap(), &"__memdiag_pwned".into()).unwrap();
        assert!(pwned.is_undefined(), "a script ran");
        root.remove();
    }
}

// --- the footprint -------------------------------------------------------------------------

#[wasm_bindgen_test]
async fn footprint_segments_are_proportional_to_their_figures() {
    let mut groups = BTreeMap::new();
    // The bar's characters are UTF-16 units, as everywhere on the page; the scalar count
    // (`chars`) is set apart so that a bar drawn from it would be caught.
    for (name, utf16, bytes) in [
        ("User", 100, 300),
        ("Project", 300, 300),
        ("Auto Memory", 600, 1400),
    ] {
        groups.insert(
            name.to_owned(),
            GroupFootprint {
                files: 1,
                utf16,
                chars: 1000 - utf16,
                bytes,
                ..GroupFootprint::default()
            },
        );
    }
    let footprint = Footprint {
        files: 3,
        utf16: 1000,
        chars: 2000,
        bytes: 2000,
        groups,
        ..Footprint::default()
    };
    for (unit, expected) in [
        (
            Unit::Chars,
            [("User", 10.0), ("Project", 30.0), ("Auto Memory", 60.0)],
        ),
        (
            Unit::Bytes,
            [("User", 15.0), ("Project", 15.0), ("Auto Memory", 70.0)],
        ),
    ] {
        let root = container();
        root.set_attribute("style", "width: 1000px").unwrap();
        let _app = yew::Renderer::<FootprintBar>::with_root_and_props(
            root.clone(),
            FootprintBarProps {
                footprint: footprint.clone(),
                unit,
                on_unit: Callback::noop(),
                cost: None,
                on_group: Callback::noop(),
                sample: false,
            },
        )
        .render();
        settle().await;
        let segments = all(&root, "[data-testid=segment]");
        assert_eq!(segments.len(), 3, "one segment per group with a figure");
        let bar_width = one(&root, "[data-testid=footprint-bar]")
            .get_bounding_client_rect()
            .width();
        for ((group, percent), segment) in expected.iter().zip(&segments) {
            assert_eq!(&attr(segment, "data-group"), group);
            let width = segment.get_bounding_client_rect().width();
            let share = width * 100.0 / bar_width;
            assert!(
                (share - percent).abs() < 0.5,
                "{group}: {share}% of the bar, expected {percent}%"
            );
            assert!(attr(segment, "title").contains(group));
        }
        // Without a session cost there is no cost line.
        assert!(root
            .query_selector("[data-testid=session-cost]")
            .unwrap()
            .is_none());
        root.remove();
    }
}

#[wasm_bindgen_test]
async fn a_long_findings_list_draws_its_most_serious_groups_and_the_rest_on_request() {
    use memdiag_core::report::{Code, Diagnostic, Severity};
    use memdiag_web::page::components::diagnostics::{
        DiagnosticsList, DiagnosticsProps, GROUPS_SHOWN,
    };
    // A memory folder of topic files with no date: one info finding, and one group, each;
    // and two warnings, which come first.
    let topics = GROUPS_SHOWN + 15;
    let folder = "/home/alice/.claude/projects/-home-alice-work-shop/memory";
    let mut diagnostics: Vec<Diagnostic> = (0..topics)
        .map(|n| {
            let path = format!("{folder}/topic-{n:03}.md");
            Diagnostic::new(
                Code::MemoryFileNoTimestamp,
                Severity::Info,
                Some(&path),
                "no date",
            )
        })
        .collect();
    for agent in ["planner", "reviewer"] {
        let path = format!("/home/alice/.claude/agent-memory/{agent}");
        diagnostics.push(Diagnostic::new(
            Code::AgentMemoryOrphan,
            Severity::Warning,
            Some(&path),
            "no such agent",
        ));
    }
    let report = Report {
        diagnostics,
        ..Report::default()
    };
    let root = container();
    let _app = yew::Renderer::<DiagnosticsList>::with_root_and_props(
        root.clone(),
        DiagnosticsProps {
            report: Shared::new(report),
            on_open: Callback::noop(),
        },
    )
    .render();
    settle().await;
    let groups = all(&root, "[data-testid=finding-group]");
    assert_eq!(groups.len(), GROUPS_SHOWN);
    let first: Vec<String> = groups[..2].iter().map(|g| attr(g, "data-key")).collect();
    assert!(
        first.iter().all(|k| k.contains("agent-memory")),
        "{first:?}"
    );
    let more = one(&root, "[data-testid=findings-more]");
    let left = topics + 2 - GROUPS_SHOWN;
    assert_eq!(attr(&more, "data-groups"), left.to_string());
    assert_eq!(
        more.text_content().unwrap_or_default(),
        format!("Show {left} more files ({left} info)")
    );
    // The heading still counts every finding.
    assert!(one(&root, "h2")
        .text_content()
        .unwrap_or_default()
        .contains(&(topics + 2).to_string()));
    click(&more);
    settle().await;
    assert_eq!(all(&root, "[data-testid=finding-group]").len(), topics + 2);
    assert_eq!(all(&root, "[data-testid=diagnostic]").len(), topics + 2);
    assert!(root
        .query_selector("[data-testid=findings-more]")
        .unwrap()
        .is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn the_cost_line_splits_the_users_text_from_claude_codes_own() {
    let cost = SessionCost {
        instruction_block: Cost {
            user: 14_397,
            claude_code: 1_298,
        },
        skills_listing: Cost {
            user: 262,
            claude_code: 6_284,
        },
        memory_section: Cost {
            user: 0,
            claude_code: 2_076,
        },
        agents: Cost::default(),
        total: Cost {
            user: 14_659,
            claude_code: 9_658,
        },
        tokens_estimate: 6_079,
    };
    let root = container();
    let _app = yew::Renderer::<FootprintBar>::with_root_and_props(
        root.clone(),
        FootprintBarProps {
            footprint: Footprint::default(),
            unit: Unit::Bytes,
            on_unit: Callback::noop(),
            cost: Some(cost),
            on_group: Callback::noop(),
            sample: false,
        },
    )
    .render();
    settle().await;
    let line = one(&root, "[data-testid=session-cost]");
    assert_eq!(attr(&line, "data-user"), "14659");
    assert_eq!(attr(&line, "data-claude-code"), "9658");
    assert_eq!(attr(&line, "data-total"), "24317");
    assert_eq!(attr(&line, "data-tokens"), "6079");
    let text = line.text_content().unwrap();
    // The bytes toggle does not change it: the cost is in UTF-16 units, and says so.
    assert_eq!(
        text,
        "≈ 6,079 tokens in every session (estimate, ≈ 3.0 % of a 200k window, ≈ 0.6 % of 1M): 14,659 of your text + 9,658 of Claude Code's own = 24,317 characters in all"
    );
    // Each part tells what it is made of.
    let parts = all(&line, ".part");
    assert!(attr(&parts[0], "title").contains("skills' listing lines: 262"));
    assert!(attr(&parts[1], "title").contains("memory instructions: 2,076"));
    root.remove();
}

// --- getting files in ----------------------------------------------------------------------

#[wasm_bindgen(inline_js = r#"
export function fake_folder(name, paths, texts) {
  // A stand-in for a dropped folder's FileSystemDirectoryEntry. Like Chromium's, its
  // reader answers in small batches and must be called until it returns nothing.
  const dir = (name) => ({ name, isDirectory: true, isFile: false, children: [],
    createReader() {
      const kids = this.children; let at = 0;
      return { readEntries(ok, _err) { setTimeout(() => { const batch = kids.slice(at, at + 2); at += batch.length; ok(batch); }, 0); } };
    } });
  const root = dir(name);
  paths.forEach((path, i) => {
    const parts = path.split('/');
    let here = root;
    for (const part of parts.slice(0, -1)) {
      let next = here.children.find((c) => c.isDirectory && c.name === part);
      if (!next) { next = dir(part); here.children.push(next); }
      here = next;
    }
    const leaf = parts[parts.length - 1];
    here.children.push({ name: leaf, isDirectory: false, isFile: true,
      file(ok, _err) { setTimeout(() => ok(new File([texts[i]], leaf)), 0); } });
  });
  return root;
}

export function fake_handle(name, paths, texts) {
  // A stand-in for a FileSystemDirectoryHandle kept from a drop: values() is an async
  // iterator of child handles, and a file handle's getFile() resolves to a File.
  const dir = (name) => ({ kind: 'directory', name, children: [],
    values() {
      const kids = this.children; let at = 0;
      return { next: () => Promise.resolve(at < kids.length ? { done: false, value: kids[at++] } : { done: true, value: undefined }) };
    } });
  const root = dir(name);
  paths.forEach((path, i) => {
    const parts = path.split('/');
    let here = root;
    for (const part of parts.slice(0, -1)) {
      let next = here.children.find((c) => c.kind === 'directory' && c.name === part);
      if (!next) { next = dir(part); here.children.push(next); }
      here = next;
    }
    const leaf = parts[parts.length - 1];
    here.children.push({ kind: 'file', name: leaf, getFile: () => Promise.resolve(new File([texts[i]], leaf)) });
  });
  return root;
}
"#)]
extern "C" {
    fn fake_folder(name: &str, paths: Vec<String>, texts: Vec<String>) -> JsValue;
    fn fake_handle(name: &str, paths: Vec<String>, texts: Vec<String>) -> JsValue;
}

#[wasm_bindgen_test]
async fn a_dropped_folder_is_read_through_its_entries_in_batches() {
    let files = [
        ("CLAUDE.md", "# Me\n\nUse @rules-extra.md sparingly.\n"),
        ("settings.json", "{}"),
        ("rules/a.md", "A rule\n"),
        ("rules/b.md", "B rule\n"),
        ("rules/deep/c.md", "C rule\n"),
        (
            "projects/-home-bob-code-app/memory/MEMORY.md",
            "- [x](x.md)\n",
        ),
        (
            "projects/-home-bob-code-app/abc.jsonl",
            "{\"huge\": true}\n",
        ),
    ];
    let entry = fake_folder(
        ".claude",
        files.iter().map(|(p, _)| (*p).to_owned()).collect(),
        files.iter().map(|(_, t)| (*t).to_owned()).collect(),
    );
    let listed = std::cell::Cell::new(0);
    let item = ingest::DroppedItem {
        entry: entry.unchecked_into(),
        handle: None,
    };
    let source = ingest::open_dropped(item, &|n| listed.set(n), None)
        .await
        .unwrap()
        .into_source()
        .expect("a folder, not a shared snapshot");
    assert_eq!(source.name, ".claude");
    let entries = source.files;
    let mut rels: Vec<&str> = entries.iter().map(|f| f.rel.as_str()).collect();
    rels.sort_unstable();
    let mut expected: Vec<&str> = files.iter().map(|(p, _)| *p).collect();
    expected.sort_unstable();
    assert_eq!(rels, expected);
    assert_eq!(listed.get(), files.len() as u64);
    // Listed by name only: sizes and dates are looked up when the analysis asks.
    assert!(entries.iter().all(|f| f.size == ingest::UNSTATTED));

    // The folder is a config dir; the home comes from the memory folder names.
    let mut snapshot = ingest::Snapshot::default();
    snapshot.add(ingest::Source::folder(".claude".to_owned(), entries, None));
    let inputs = snapshot.infer_inputs("/home/nobody");
    assert_eq!(inputs.home, "/home/bob");
    assert_eq!(snapshot.infos()[0].role, "config");

    // The analysis runs over it and never reads the transcript.
    let progress = std::cell::RefCell::new(Vec::<memdiag_web::page::state::Progress>::new());
    let (report, tree, _input) =
        engine_ingest::run_analysis(snapshot.sources.clone(), inputs, |p| {
            progress.borrow_mut().push(p)
        })
        .await
        .unwrap();
    assert!(report
        .files
        .iter()
        .any(|r| r.path == "/home/bob/.claude/CLAUDE.md"
            && r.group == Group::User
            && r.size == Some(files[0].1.len() as u64)));
    let transcript =
        memdiag_core::VPath::new("/home/bob/.claude/projects/-home-bob-code-app/abc.jsonl")
            .unwrap();
    assert!(
        tree.is_unstatted(&transcript),
        "the transcript's size was never looked up"
    );
    assert_eq!(
        tree.file(&transcript).map(|f| f.contents.clone()),
        Some(memdiag_core::Contents::Unread)
    );
    // While it waits for sizes and contents the progress says how many files are to go.
    let progress = progress.into_inner();
    let waiting = progress.iter().map(|p| p.files_to_go).max().unwrap_or(0);
    let last = progress.last().copied().unwrap_or_default();
    assert!(waiting >= last.files_read, "{progress:?}");
    assert_eq!(last.files_to_go, 0, "{progress:?}");
    assert!(last.files_read >= 1);
}

#[wasm_bindgen_test]
async fn the_app_opens_with_the_demo() {
    if !memdiag_web::wire::demo::available() {
        return;
    }
    let root = container();
    let app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    for _ in 0..200 {
        settle().await;
        if attr(&one(&root, "[data-testid=app]"), "data-ready") == "true" {
            break;
        }
        yew::platform::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(attr(&one(&root, "[data-testid=app]"), "data-ready"), "true");
    // One header for each group, Commands included.
    assert_eq!(
        all(&root, "[role=treeitem][aria-level='1']").len(),
        memdiag_core::report::Group::ALL.len()
    );
    assert!(
        one(&root, "[data-testid=card-files]")
            .get_attribute("data-value")
            .unwrap()
            != "0"
    );
    // The demo has a truncated MEMORY.md, which the page selects first, with Claude Code's
    // warning as it appends it.
    assert!(root
        .query_selector("[data-testid=cut-line]")
        .unwrap()
        .is_some());
    let warning = one(&root, "[data-testid=cut-warning]")
        .text_content()
        .unwrap();
    assert!(
        warning.starts_with("> WARNING: MEMORY.md is 215 lines (limit: 200).")
            && warning.contains("starting at line 201"),
        "{warning}"
    );
    // The headline cost: the same token estimate on the line and on the card, and the user's
    // text is what the cards count (the demo's text has no character outside the BMP, so its
    // chars and UTF-16 units agree).
    let cost = one(&root, "[data-testid=session-cost]");
    assert_eq!(
        attr(&cost, "data-tokens"),
        attr(&one(&root, "[data-testid=card-tokens]"), "data-value")
    );
    assert_eq!(
        attr(&cost, "data-user"),
        attr(&one(&root, "[data-testid=card-chars]"), "data-value")
    );
    let number = |name: &str| attr(&cost, name).parse::<u64>().unwrap();
    assert!(number("data-claude-code") > 0);
    assert_eq!(
        number("data-user") + number("data-claude-code"),
        number("data-total")
    );
    assert_eq!(number("data-tokens"), (number("data-total") + 2) / 4);
    // Unmount, so its window listeners do not outlive the test.
    app.destroy();
    root.remove();
}

/// The verdict comes first, right after the header: what is lost, most harmful first, the
/// demo's cut MEMORY.md on its first line with the lines it loses; a click on a line opens
/// its file.
#[wasm_bindgen_test]
async fn the_verdict_comes_first_and_its_lines_open_their_files() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    let app_element = one(&root, "[data-testid=app]");
    let children: Vec<String> = (0..app_element.child_element_count())
        .filter_map(|i| app_element.children().item(i))
        .map(|e| {
            e.get_attribute("data-testid")
                .or_else(|| e.get_attribute("class"))
                .unwrap_or_else(|| e.tag_name())
        })
        .collect();
    let verdict_at = children
        .iter()
        .position(|c| c == "verdict")
        .expect("a verdict");
    let context_at = children
        .iter()
        .position(|c| c == "context-bar")
        .expect("the context bar");
    assert!(verdict_at < context_at, "{children:?}");
    let lines = all(&root, "[data-testid=verdict-line]");
    assert!(lines.len() >= 3, "{}", lines.len());
    let first = lines[0].text_content().unwrap_or_default();
    assert!(
        first.contains("MEMORY.md loses 15 of its 215 lines (from line 201)"),
        "{first}"
    );
    assert_eq!(attr(&lines[0], "data-harm"), "loses");
    // Most harmful first: nothing that only warns comes before something that loses.
    let harms: Vec<String> = lines.iter().map(|l| attr(l, "data-harm")).collect();
    let first_warn = harms
        .iter()
        .position(|h| h != "loses")
        .unwrap_or(harms.len());
    assert!(
        harms[first_warn..].iter().all(|h| h != "loses"),
        "{harms:?}"
    );
    // A line opens its file.
    let rule = lines
        .iter()
        .find(|l| attr(l, "data-code") == "rule-never-matches")
        .expect("the demo's rule that never loads");
    click(&one(rule, "[data-testid=verdict-link]"));
    settle().await;
    let shown = attr(&one(&root, "[data-testid=file-view]"), "data-path");
    assert!(shown.ends_with("/rules/python.md"), "{shown}");
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn refresh_reads_a_folder_again_through_its_kept_handle() {
    let handle = fake_handle(
        "shop",
        vec!["CLAUDE.md".to_owned(), "src/api/CLAUDE.md".to_owned()],
        vec!["# Shop\n".to_owned(), "# API\n".to_owned()],
    );
    // As kept from a drop: the first listing had only the top CLAUDE.md.
    let first =
        ingest::Source::folder("shop".to_owned(), Vec::new(), Some(handle.unchecked_into()));
    assert!(first.rereadable());
    let fresh = ingest::reread(&first, &|_| (), None)
        .await
        .unwrap()
        .expect("a handle can be read again");
    let rels: Vec<&str> = fresh.files.iter().map(|f| f.rel.as_str()).collect();
    assert_eq!(rels, ["CLAUDE.md", "src/api/CLAUDE.md"]);
    assert_eq!(fresh.files[1].size, "# API\n".len() as u64);
    assert!(fresh.rereadable());

    // A folder from the input has no handle: Refresh says it cannot read it again.
    let plain = ingest::Source::folder("plain".to_owned(), Vec::new(), None);
    assert!(!plain.rereadable());
    assert!(ingest::reread(&plain, &|_| (), None)
        .await
        .unwrap()
        .is_none());
}

// --- the health view -----------------------------------------------------------------------

/// Mounts the page with the demo and waits for its first report.
async fn demo_app() -> Option<(Element, yew::AppHandle<memdiag_web::App>)> {
    if !memdiag_web::wire::demo::available() {
        return None;
    }
    let root = container();
    let app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    wait_for_run(&root, 0).await;
    Some((root, app))
}

/// Waits until a run newer than `after` has finished.
async fn wait_for_run(root: &Element, after: u64) {
    for _ in 0..400 {
        settle().await;
        if let Ok(Some(app)) = root.query_selector("[data-testid=app]") {
            let run: u64 = attr(&app, "data-run").parse().unwrap_or(0);
            if run > after && attr(&app, "data-ready") == "true" {
                return;
            }
        }
        yew::platform::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no run after {after} finished");
}

fn run_of(root: &Element) -> u64 {
    attr(&one(root, "[data-testid=app]"), "data-run")
        .parse()
        .unwrap()
}

fn click(element: &Element) {
    element.clone().unchecked_into::<HtmlElement>().click();
}

/// Chooses an option of a select and tells the page, as a person would.
/// Sets a select's or a text field's value and commits it, as picking or pressing Enter does.
fn choose(field: &Element, value: &str) {
    if let Some(select) = field.dyn_ref::<web_sys::HtmlSelectElement>() {
        select.set_value(value);
        assert_eq!(select.value(), value, "the select offers {value}");
    } else {
        let input: &web_sys::HtmlInputElement = field.unchecked_ref();
        input.set_value(value);
    }
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    field.dispatch_event(&event).unwrap();
}

fn reasons(root: &Element) -> Vec<(String, String)> {
    all(root, "[data-testid=reason]")
        .iter()
        .map(|r| (attr(r, "data-reason"), attr(r, "data-ok")))
        .collect()
}

fn codes(root: &Element) -> Vec<String> {
    all(root, "[data-testid=diagnostic]")
        .iter()
        .map(|d| attr(d, "data-code"))
        .collect()
}

const DEMO_MEMORY: &str = "/home/alice/.claude/projects/-home-alice-work-shop/memory/MEMORY.md";

#[wasm_bindgen_test]
async fn the_health_view_shows_the_five_reasons_and_findings_open_their_line() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    assert!(root
        .query_selector("[data-testid=health-view]")
        .unwrap()
        .is_none());
    click(&one(&root, "[data-testid=view-health]"));
    settle().await;
    assert_eq!(
        attr(&one(&root, "[data-testid=view-health]"), "aria-selected"),
        "true"
    );
    // The five reasons in the seed's order, with the demo's verdicts.
    let expected = [
        ("different-folder", "false"),
        ("nothing-saved", "true"),
        ("switched-off", "true"),
        ("sub-agent", "false"),
        ("truncated", "false"),
    ];
    assert_eq!(
        reasons(&root),
        expected
            .iter()
            .map(|(id, ok)| ((*id).to_owned(), (*ok).to_owned()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        one(&root, "[data-testid=health-count]")
            .text_content()
            .unwrap(),
        "3"
    );
    // A green reason has no findings; each found one lists its evidence.
    let saved = one(&root, "[data-reason=nothing-saved]");
    assert!(saved
        .query_selector("[data-testid=health-finding]")
        .unwrap()
        .is_none());
    let sub_agent = one(&root, "[data-reason=sub-agent]");
    assert_eq!(
        attr(
            &one(&sub_agent, "[data-testid=health-finding]"),
            "data-code"
        ),
        "agent-memory-orphan"
    );
    assert_eq!(all(&sub_agent, "[data-testid=agents] tbody tr").len(), 2);
    // As measured on 2.1.328, a spawned sub-agent receives the main MEMORY.md too.
    assert!(one(&sub_agent, "[data-testid=reason-summary]")
        .text_content()
        .unwrap()
        .contains("main MEMORY.md too"));
    for cell in all(&sub_agent, "[data-testid=agent-receives]") {
        let said = cell.text_content().unwrap();
        assert!(said.contains("the main MEMORY.md included"), "{said}");
        assert!(said.contains("its own index"), "{said}");
    }
    assert!(one(
        &root,
        "[data-reason=switched-off] [data-testid=reason-note]"
    )
    .text_content()
    .unwrap()
    .contains("CLAUDE_CODE_DISABLE_AUTO_MEMORY"));
    // The truncation lists the dropped lines, with the corrections flagged.
    let truncated = one(&root, "[data-reason=truncated]");
    let entries = all(&truncated, "[data-testid=dropped-entry]");
    assert_eq!(entries.len(), 15);
    assert_eq!(attr(&entries[0], "data-line"), "201");
    let corrections = all(
        &truncated,
        "[data-testid=dropped-entry][data-correction=true]",
    );
    assert_eq!(corrections.len(), 2);
    assert!(corrections
        .iter()
        .all(|c| c.text_content().unwrap().contains("correction")));
    // The memory figures: the auto memory first, then each agent's.
    let cards = all(&root, "[data-testid=memory-health]");
    assert_eq!(cards.len(), 4);
    let auto = &cards[0];
    assert_eq!(
        one(auto, "[data-figure=index-lines] strong")
            .text_content()
            .unwrap(),
        "215"
    );
    assert_eq!(
        one(auto, "[data-testid=mean-chars]")
            .text_content()
            .unwrap(),
        "61.8 chars"
    );
    assert_eq!(
        one(auto, "[data-testid=mean-bytes]")
            .text_content()
            .unwrap(),
        "61.9 UTF-8 bytes"
    );
    assert_eq!(
        one(auto, "[data-type=project]").text_content().unwrap(),
        "project 5"
    );
    assert!(auto
        .query_selector("[data-testid=growth-chart] [data-testid=limit-100]")
        .unwrap()
        .is_some());

    // The truncation finding opens MEMORY.md at the first dropped line, marked.
    let finding = one(
        &truncated,
        "[data-testid=health-finding][data-code=memory-index-truncated]",
    );
    assert_eq!(attr(&finding, "data-line"), "201");
    click(&finding);
    settle().await;
    assert!(root
        .query_selector("[data-testid=health-view]")
        .unwrap()
        .is_none());
    assert_eq!(
        attr(&one(&root, "[data-testid=file-view]"), "data-path"),
        DEMO_MEMORY
    );
    let focused = all(&root, ".line.focus");
    assert_eq!(focused.len(), 1);
    assert_eq!(attr(&focused[0], "data-line"), "201");

    // No index line of the demo is over the 200 characters Claude Code asks for, so the
    // figure is zero and links nothing.
    click(&one(&root, "[data-testid=view-health]"));
    settle().await;
    let long = one(
        &root,
        "[data-testid=memory-health] [data-figure=long-lines]",
    );
    assert!(long.text_content().unwrap().contains("over 200 characters"));
    assert_eq!(one(&long, "td").text_content().unwrap(), "0");
    assert!(long.query_selector(".line-link").unwrap().is_none());
    // A dropped line opens at its line too.
    let line_205 = one(
        &root,
        "[data-testid=dropped-entry][data-line='205'] .line-link",
    );
    click(&line_205);
    settle().await;
    assert_eq!(attr(&one(&root, ".line.focus"), "data-line"), "205");

    // So does a finding of the list under the page, and one about a folder opens its index.
    let project_claude = all(&root, "[data-testid=diagnostic] button.diag-open")
        .into_iter()
        .find(|b| attr(b, "data-path") == "/home/alice/work/shop/CLAUDE.md")
        .expect("the demo's broken import in the project CLAUDE.md");
    let line = attr(&project_claude, "data-line");
    click(&project_claude);
    settle().await;
    assert_eq!(
        attr(&one(&root, "[data-testid=file-view]"), "data-path"),
        "/home/alice/work/shop/CLAUDE.md"
    );
    assert_eq!(attr(&one(&root, ".line.focus"), "data-line"), line);
    let orphan = all(&root, "[data-testid=diagnostic]")
        .into_iter()
        .find(|d| attr(d, "data-code") == "agent-memory-orphan")
        .unwrap();
    click(&one(&orphan, "button"));
    settle().await;
    assert_eq!(
        attr(&one(&root, "[data-testid=file-view]"), "data-path"),
        "/home/alice/.claude/agent-memory/planner/MEMORY.md"
    );
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_version_field_simulates_a_release_and_marks_what_differs() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    click(&one(&root, "[data-testid=view-health]"));
    settle().await;
    let field = one(&root, "[data-testid=input-version]");
    // Suggestions: the published releases the core simulates, newest first.
    let suggestions: Vec<String> = all(&root, "[data-testid=release-suggestions] option")
        .iter()
        .map(|o| attr(o, "value"))
        .collect();
    assert!(suggestions.contains(&"2.1.83".to_owned()));
    assert_eq!(
        suggestions.last().map(String::as_str),
        Some(&memdiag_core::FIRST_SIMULATED.to_string()[..])
    );
    assert!(!exists(&root, "[data-testid=simulated-version]"));
    assert!(!exists(&root, "[data-testid=release-panel]"));

    // Too old: refused beside the field, nothing runs, the report stays.
    let run = run_of(&root);
    choose(&field, "2.1.58");
    settle().await;
    assert_eq!(run_of(&root), run, "a refused release runs nothing");
    assert!(one(&root, "[data-testid=version-error]")
        .text_content()
        .unwrap()
        .contains("2.1.58 cannot be simulated"));
    assert!(codes(&root).contains(&"memory-index-truncated".to_owned()));

    // Before 2.1.84 a `paths` list was joined into one pattern: the finding appears, and
    // the panel says so, with the rows and figures that differ.
    let run = run_of(&root);
    choose(&one(&root, "[data-testid=input-version]"), "2.1.83");
    wait_for_run(&root, run).await;
    assert!(!exists(&root, "[data-testid=version-error]"));
    assert!(one(&root, "[data-testid=simulated-version]")
        .text_content()
        .unwrap()
        .contains("2.1.83"));
    assert!(codes(&root).contains(&"rule-paths-joined".to_owned()));
    let panel = one(&root, "[data-testid=release-panel]");
    assert_eq!(attr(&panel, "data-release"), "2.1.83");
    let appeared: Vec<String> = all(
        &panel,
        "[data-testid=release-finding][data-change=appeared]",
    )
    .iter()
    .map(|f| attr(f, "data-code"))
    .collect();
    assert!(
        appeared.contains(&"rule-paths-joined".to_owned()),
        "{appeared:?}"
    );
    let behaviours: Vec<(String, String)> = all(&panel, "[data-testid=release-behaviour]")
        .iter()
        .map(|b| (attr(b, "data-id"), attr(b, "data-applies")))
        .collect();
    assert!(
        behaviours.contains(&("paths-list".to_owned(), "false".to_owned())),
        "{behaviours:?}"
    );
    assert!(
        behaviours.contains(&("memory-size-cap".to_owned(), "true".to_owned())),
        "{behaviours:?}"
    );
    // Every row the panel lists as changed is marked in the tree.
    let marked = all(&root, "[data-testid=tree-row][data-change]").len();
    let listed = all(&panel, "[data-testid=release-row]:not([data-kind=removed])").len();
    assert_eq!(marked, listed);

    // Back to the pinned release: no panel, no marks.
    let run = run_of(&root);
    choose(&one(&root, "[data-testid=input-version]"), "");
    wait_for_run(&root, run).await;
    assert!(!exists(&root, "[data-testid=simulated-version]"));
    assert!(!exists(&root, "[data-testid=release-panel]"));
    assert!(all(&root, "[data-testid=tree-row][data-change]").is_empty());
    assert!(!codes(&root).contains(&"rule-paths-joined".to_owned()));
    app.destroy();
    root.remove();
}

fn growth(rate: f64, r80: Option<&str>, rlim: Option<&str>, counts: &[u64]) -> Growth {
    let starts = [
        "2026-09-29",
        "2026-10-06",
        "2026-10-13",
        "2026-10-20",
        "2026-10-27",
        "2026-11-03",
        "2026-11-10",
        "2026-11-17",
        "2026-11-24",
    ];
    Growth {
        today: "2026-11-30".to_owned(),
        weeks: Vec::new(),
        files_per_week: rate,
        history: starts
            .iter()
            .zip(counts)
            .map(|(start, &count)| WeekCount {
                start: (*start).to_owned(),
                count,
            })
            .collect(),
        reaches_80_percent: r80.map(str::to_owned),
        reaches_limit: rlim.map(str::to_owned),
        dated_by_file_time: 0,
    }
}

/// The growth chart is a function of its props on the page; mounted on its own, it needs a
/// component around it.
#[component]
fn GrowthChart(props: &GrowthChartProps) -> Html {
    growth_chart(props)
}

fn number(element: &Element, name: &str) -> f64 {
    attr(element, name).parse().unwrap()
}

#[wasm_bindgen_test]
async fn the_growth_chart_draws_the_80_and_100_percent_lines_and_the_projection() {
    // The core's pinned case: 150 lines growing 1.4 files a week.
    let root = container();
    let _app = yew::Renderer::<GrowthChart>::with_root_and_props(
        root.clone(),
        GrowthChartProps {
            growth: growth(
                1.4,
                Some("2027-01-19"),
                Some("2027-08-07"),
                &[138, 139, 141, 142, 144, 145, 147, 148, 150],
            ),
            index_lines: 150,
        },
    )
    .render();
    settle().await;
    let svg = one(&root, "svg[data-testid=growth-chart]");
    let y_max = number(&svg, "data-y-max");
    assert_eq!(y_max, 250.0);
    let eighty = one(&root, "[data-testid=limit-80]");
    let full = one(&root, "[data-testid=limit-100]");
    assert_eq!(attr(&eighty, "data-lines"), "160");
    assert_eq!(attr(&full, "data-lines"), "200");
    assert!(eighty.text_content().unwrap().contains("80 %"));
    assert!(full.text_content().unwrap().contains("100 %"));
    let y_of = |g: &Element| {
        let line = one(g, "line");
        assert_eq!(attr(&line, "y1"), attr(&line, "y2"), "a horizontal line");
        number(&line, "y1")
    };
    // Both sit where their share of the y axis puts them: 0 at the bottom, y_max at the top.
    let (top, bottom) = {
        let plot = one(&root, "rect.plot");
        let y = number(&plot, "y");
        (y, y + number(&plot, "height"))
    };
    for (g, lines) in [(&eighty, 160.0), (&full, 200.0)] {
        let expected = bottom - lines / y_max * (bottom - top);
        assert!((y_of(g) - expected).abs() < 0.2, "{lines}: {}", y_of(g));
    }
    // The history has one point a week; the projection runs through both crossings.
    assert_eq!(all(&root, "circle.point").len(), 9);
    let projection = attr(&one(&root, "[data-testid=projection-line]"), "points");
    assert_eq!(projection.split(' ').count(), 4);
    let crossings: Vec<String> = all(&root, "g.crossing")
        .iter()
        .map(|c| attr(c, "data-lines"))
        .collect();
    assert_eq!(crossings, ["160", "200"]);
    let text = one(&root, "[data-testid=growth-text]")
        .text_content()
        .unwrap();
    assert!(
        text.contains("2027-01-19") && text.contains("2027-08-07"),
        "{text}"
    );
    assert!(root.text_content().unwrap().contains("adds one index line"));
    root.remove();

    // No growth: a flat projection, no crossing, and the text says why.
    let root = container();
    let _app = yew::Renderer::<GrowthChart>::with_root_and_props(
        root.clone(),
        GrowthChartProps {
            growth: growth(0.0, None, None, &[12; 9]),
            index_lines: 12,
        },
    )
    .render();
    settle().await;
    assert!(root
        .query_selector("[data-testid=limit-80]")
        .unwrap()
        .is_some());
    assert!(all(&root, "g.crossing").is_empty());
    let flat = attr(&one(&root, "[data-testid=projection-line]"), "points");
    let ys: Vec<&str> = flat
        .split(' ')
        .map(|p| p.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(ys.len(), 2);
    assert_eq!(ys[0], ys[1]);
    assert!(one(&root, "[data-testid=growth-text]")
        .text_content()
        .unwrap()
        .contains("No file was saved in the last 60 days"));
    root.remove();

    // A date the page cannot read: words only, no chart.
    let root = container();
    let mut unreadable = growth(0.0, None, None, &[1]);
    unreadable.today = "soon".to_owned();
    let _app = yew::Renderer::<GrowthChart>::with_root_and_props(
        root.clone(),
        GrowthChartProps {
            growth: unreadable,
            index_lines: 1,
        },
    )
    .render();
    settle().await;
    assert!(root.query_selector("svg").unwrap().is_none());
    assert!(root
        .query_selector("[data-testid=growth-text]")
        .unwrap()
        .is_some());
    root.remove();
}

#[wasm_bindgen_test]
async fn a_dropped_home_folder_mounts_as_home_with_its_dot_claude_as_the_config_dir() {
    let files = [
        (".bashrc", "export X=1\n"),
        (".claude/CLAUDE.md", "# Me\n"),
        (
            ".claude/projects/-home-dana-code-app/memory/MEMORY.md",
            "- [x](x.md)\n",
        ),
        (".claude/projects/-home-dana-code-app/memory/x.md", "x\n"),
        ("code/app/CLAUDE.md", "# App\n"),
        ("projects/site/README.md", "a folder named projects\n"),
    ];
    let mut snapshot = ingest::Snapshot::default();
    snapshot.add(dropped_folder("dana", &files).await);
    assert_eq!(snapshot.infos()[0].role, "home");
    let mut inputs = snapshot.infer_inputs("/home/nobody");
    assert_eq!(inputs.home, "/home/dana");
    assert_eq!(inputs.effective_config_dir(), "/home/dana/.claude");
    // The person picks the project; its files are part of the home.
    inputs.project = "/home/dana/code/app".to_owned();
    let (report, _tree, _input) =
        engine_ingest::run_analysis(snapshot.sources.clone(), inputs, |_| ())
            .await
            .unwrap();
    let row = |path: &str| report.files.iter().find(|r| r.path == path);
    assert_eq!(
        row("/home/dana/.claude/CLAUDE.md").map(|r| r.group),
        Some(Group::User)
    );
    assert_eq!(
        row("/home/dana/code/app/CLAUDE.md").map(|r| r.group),
        Some(Group::Project)
    );
    assert_eq!(
        report.context.memory_dir.as_deref(),
        Some("/home/dana/.claude/projects/-home-dana-code-app/memory")
    );
}

// --- the optional ~/.claude.json ----------------------------------------------------------

/// A `File` holding `text`, as a file input gives it.
fn text_file(text: &str, name: &str) -> web_sys::File {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    web_sys::File::new_with_str_sequence(&parts, name).unwrap()
}

const APPROVED: &str = r#"{"projects": {"/home/dana/code/app": {"hasClaudeMdExternalIncludesApproved": true}}, "oauthAccount": {"emailAddress": "dana@example.com"}}"#;

#[wasm_bindgen_test]
async fn an_added_claude_json_is_read_only_when_asked_and_decides_an_import_outside_the_project() {
    // A home folder whose project imports a file outside it; the home's own .claude.json
    // does not approve.
    let files = [
        (
            ".claude.json",
            r#"{"projects": {"/home/dana/code/app": {"hasClaudeMdExternalIncludesApproved": false}}}"#,
        ),
        (
            ".claude/projects/-home-dana-code-app/memory/MEMORY.md",
            "- [x](x.md)\n",
        ),
        (
            "code/app/CLAUDE.md",
            "# App\n\nShared rules: @../outside.md\n",
        ),
        ("code/outside.md", "Shared rule\n"),
    ];
    let mut snapshot = ingest::Snapshot::default();
    snapshot.add(dropped_folder("dana", &files).await);
    let mut inputs = snapshot.infer_inputs("/home/nobody");
    inputs.project = "/home/dana/code/app".to_owned();
    let outside = |report: &Report| {
        report
            .files
            .iter()
            .find(|r| r.path == "/home/dana/code/outside.md")
            .map(|r| (r.status, r.counted))
    };
    let claude_json = memdiag_core::VPath::new("/home/dana/.claude.json").unwrap();

    let (report, tree, _) =
        engine_ingest::run_analysis(snapshot.run_sources(), inputs.clone(), |_| ())
            .await
            .unwrap();
    assert_eq!(outside(&report), Some((FileStatus::NeedsApproval, false)));
    assert_eq!(
        memdiag_web::page::state::approval_hint(&report, &tree, false),
        ApprovalHint::NotApproved
    );

    // The added file takes the place of the home's own, and approves the project.
    snapshot.set_claude_json(Some(ingest::Source::claude_json(text_file(
        APPROVED,
        "claude.json",
    ))));
    let (report, tree, _) =
        engine_ingest::run_analysis(snapshot.run_sources(), inputs.clone(), |_| ())
            .await
            .unwrap();
    assert_eq!(outside(&report), Some((FileStatus::Ok, true)));
    assert_eq!(
        memdiag_web::page::state::approval_hint(&report, &tree, false),
        ApprovalHint::Nothing
    );
    assert!(matches!(
        tree.file(&claude_json).map(|f| &f.contents),
        Some(memdiag_core::Contents::Loaded(bytes)) if bytes == APPROVED.as_bytes()
    ));

    // It moves with the home field, and takes no folder with it.
    let moved = memdiag_web::page::state::Inputs {
        home: "/home/erin".to_owned(),
        ..inputs.clone()
    };
    let sources = snapshot.run_sources();
    let mounted = engine_ingest::mount(&sources, &moved);
    let erin = memdiag_core::VPath::new("/home/erin/.claude.json").unwrap();
    assert_eq!(mounted.origins.get(&erin), Some(&(sources.len() - 1, 0)));
    assert!(!mounted.tree.is_file(&claude_json));
    assert!(mounted.tree.mounts().all(|m| m != &erin));

    // Without a project the analysis never asks for it, so nothing of it is read.
    snapshot.set_claude_json(Some(ingest::Source::claude_json(text_file(
        APPROVED,
        ".claude.json",
    ))));
    let mut no_project = inputs.clone();
    no_project.project = String::new();
    let (_, tree, _) = engine_ingest::run_analysis(snapshot.run_sources(), no_project, |_| ())
        .await
        .unwrap();
    assert_eq!(
        tree.file(&claude_json).map(|f| f.contents.clone()),
        Some(memdiag_core::Contents::Unread)
    );

    // Removed, the home's own file decides again; alone, it is nothing to analyse.
    snapshot.set_claude_json(None);
    let (report, _, _) = engine_ingest::run_analysis(snapshot.run_sources(), inputs, |_| ())
        .await
        .unwrap();
    assert_eq!(outside(&report), Some((FileStatus::NeedsApproval, false)));
    let mut alone = ingest::Snapshot::default();
    alone.set_claude_json(Some(ingest::Source::claude_json(text_file(
        "{}",
        ".claude.json",
    ))));
    assert!(alone.run_sources().is_empty());
}

/// A report with a project CLAUDE.md (0) whose import (1) waits for approval.
fn waiting_report() -> Report {
    let mut waiting = row(
        "/home/alice/work/outside.md",
        Group::Project,
        LoadType::Import,
        Some(0),
    );
    waiting.status = FileStatus::NeedsApproval;
    waiting.counted = false;
    let mut report = every_kind_report();
    report.files = vec![
        row(
            "/home/alice/work/shop/CLAUDE.md",
            Group::Project,
            LoadType::Always,
            None,
        ),
        waiting,
    ];
    report
}

#[wasm_bindgen_test]
async fn an_import_waiting_for_approval_points_to_the_claude_json_control() {
    let clicks = Rc::new(std::cell::Cell::new(0));
    for approval in [
        ApprovalHint::AddClaudeJson,
        ApprovalHint::NotApproved,
        ApprovalHint::Nothing,
    ] {
        let root = container();
        let on_add = {
            let clicks = clicks.clone();
            Callback::from(move |_: ()| clicks.set(clicks.get() + 1))
        };
        let view = yew::Renderer::<FileView>::with_root_and_props(
            root.clone(),
            FileViewProps {
                report: Shared::new(waiting_report()),
                index: Some(1),
                group: None,
                text: FileText::NotRead,
                tab: Tab::Raw,
                focus_line: None,
                focus_seq: 0,
                on_tab: Callback::noop(),
                on_open: Callback::noop(),
                approval,
                on_add_claude_json: on_add,
            },
        )
        .render();
        settle().await;
        let note = root.query_selector("[data-testid=approval-note]").unwrap();
        match approval {
            ApprovalHint::AddClaudeJson => {
                let note = note.expect("a note");
                let text = note.text_content().unwrap();
                assert!(
                    text.contains("Add ~/.claude.json")
                        && text.contains("hasClaudeMdExternalIncludesApproved"),
                    "{text}"
                );
                click(&one(&root, "[data-testid=approval-add-claude-json]"));
                assert_eq!(clicks.get(), 1);
            }
            ApprovalHint::NotApproved => {
                let text = note.expect("a note").text_content().unwrap();
                assert!(text.contains("does not approve"), "{text}");
            }
            ApprovalHint::Nothing => assert!(note.is_none()),
        }
        view.destroy();

        // The tree's badge says the same.
        let state = state_with(waiting_report());
        let tree = yew::Renderer::<TreeView>::with_root_and_props(
            root.clone(),
            memdiag_web::page::components::tree::TreeProps {
                report: state.loaded.report.clone().unwrap(),
                items: Rc::new(state.visible_items()),
                cursor: state.nav.cursor,
                collapsed: state.nav.collapsed.clone(),
                collapsed_rows: state.nav.collapsed_rows.clone(),
                filter: String::new(),
                on_select: Callback::noop(),
                on_key: Callback::noop(),
                on_toggle_group: Callback::noop(),
                on_toggle_row: Callback::noop(),
                on_filter: Callback::noop(),
                approval,
            },
        )
        .render();
        settle().await;
        let badge = one(&root, "[data-testid=status-badge]");
        assert_eq!(badge.text_content().unwrap(), "needs approval");
        assert_eq!(
            attr(&badge, "title").contains("Add ~/.claude.json"),
            approval == ApprovalHint::AddClaudeJson
        );
        tree.destroy();
        root.remove();
    }
}

/// Types `value` into a text field and commits it, as a person would.
fn type_into(field: &Element, value: &str) {
    let input: web_sys::HtmlInputElement = field.clone().unchecked_into();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    input.dispatch_event(&event).unwrap();
}

/// Puts `file` into a file input and tells the page, as choosing it in the dialog does.
fn choose_file(field: &Element, file: &web_sys::File) {
    let transfer = web_sys::DataTransfer::new().unwrap();
    transfer.items().add_with_file(file).unwrap();
    let input: web_sys::HtmlInputElement = field.clone().unchecked_into();
    input.set_files(transfer.files().as_ref());
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("change", &init).unwrap();
    input.dispatch_event(&event).unwrap();
}

#[wasm_bindgen_test]
async fn the_page_adds_a_claude_json_shows_it_in_use_and_removes_it() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    let line = || one(&root, "[data-testid=claude-json]");
    assert_eq!(attr(&line(), "data-added"), "false");
    let said = line().text_content().unwrap();
    assert!(
        said.contains("Add ~/.claude.json")
            && said.contains("only hasClaudeMdExternalIncludesApproved for this project is read")
            && said.contains("nothing leaves the page"),
        "{said}"
    );
    assert!(!exists(&root, "[data-testid=status-claude-json]"));

    let run = run_of(&root);
    choose_file(
        &one(&root, "[data-testid=claude-json-input]"),
        &text_file(APPROVED, ".claude.json"),
    );
    wait_for_run(&root, run).await;
    assert_eq!(attr(&line(), "data-added"), "true");
    assert_eq!(attr(&line(), "data-place"), "~/.claude.json");
    assert!(one(&root, "[data-testid=status-claude-json]")
        .text_content()
        .unwrap()
        .contains("~/.claude.json in use"));

    // A moved config folder takes it along, as the analysis reads it there.
    let run = run_of(&root);
    type_into(&one(&root, "[data-testid=input-config]"), "/srv/claude");
    wait_for_run(&root, run).await;
    assert_eq!(attr(&line(), "data-place"), "/srv/claude/.claude.json");
    let run = run_of(&root);
    type_into(&one(&root, "[data-testid=input-config]"), "");
    wait_for_run(&root, run).await;

    // Removing it runs again without it.
    let run = run_of(&root);
    click(&one(&root, "[data-testid=remove-claude-json]"));
    wait_for_run(&root, run).await;
    assert_eq!(attr(&line(), "data-added"), "false");
    assert!(!exists(&root, "[data-testid=status-claude-json]"));
    app.destroy();
    root.remove();
}

// --- sharing -------------------------------------------------------------------------------

/// Words of random letters, the same every run: text that compresses as badly as prose.
fn noise(words: usize) -> String {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut out = String::new();
    for i in 0..words {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let len = 2 + (seed % 8) as usize;
        for k in 0..len {
            out.push(char::from(b'a' + ((seed >> (8 + 5 * k)) % 26) as u8));
        }
        out.push(if i % 12 == 11 { '\n' } else { ' ' });
    }
    out
}

/// A small snapshot of alice's: a user CLAUDE.md with an import, a project CLAUDE.md of
/// about 20 KB, and files sharing must leave out. Analysed, as the page holds it after a run.
fn alice_snapshot() -> (Tree, memdiag_core::Input, Report) {
    let files: Vec<(&str, String)> = vec![
        (
            "/home/alice/.claude/CLAUDE.md",
            "# How I work\n\nPrefer British spelling, always.\n\n@notes.md\n".to_owned(),
        ),
        (
            "/home/alice/.claude/notes.md",
            "Call me Alice.\n".to_owned(),
        ),
        (
            "/home/alice/.claude/.credentials.json",
            "{\"token\": \"sk-canary\"}".to_owned(),
        ),
        (
            "/home/alice/.claude/settings.json",
            "{\"env\": {\"SECRET\": \"canary\"}, \"autoMemoryEnabled\": true}".to_owned(),
        ),
        (
            "/home/alice/work/app/CLAUDE.md",
            format!("# App\n\n{}", noise(3000)),
        ),
    ];
    let tree = Tree::from_entries(
        &["/home/alice/.claude", "/home/alice/work/app"],
        files.into_iter().map(|(path, text)| memdiag_core::Entry {
            path: path.to_owned(),
            size: text.len() as u64,
            bytes: Some(text.into_bytes()),
            modified: None,
        }),
    );
    let input = memdiag_core::Input {
        home: "/home/alice".to_owned(),
        project: Some("/home/alice/work/app".to_owned()),
        today: Some("2026-11-30".to_owned()),
        ..memdiag_core::Input::default()
    };
    let report = match memdiag_core::analyze(&tree, &input).unwrap() {
        memdiag_core::Step::Done(report) => *report,
        memdiag_core::Step::Needs(needs) => panic!("every content is there: {needs:?}"),
    };
    (tree, input, report)
}

/// Waits until `selector` matches something in `root`.
async fn wait_for(root: &Element, selector: &str) -> Element {
    for _ in 0..400 {
        settle().await;
        if let Ok(Some(found)) = root.query_selector(selector) {
            return found;
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("nothing matches {selector}");
}

fn checked(root: &Element, id: &str) -> bool {
    one(root, &format!("[data-testid={id}]"))
        .unchecked_into::<web_sys::HtmlInputElement>()
        .checked()
}

fn link_of(root: &Element) -> String {
    one(root, "[data-testid=share-link]")
        .unchecked_into::<web_sys::HtmlTextAreaElement>()
        .value()
}

fn active_testid() -> String {
    document()
        .active_element()
        .map(|e| attr(&e, "data-testid"))
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn the_share_dialog_starts_safe_previews_the_copy_and_warns() {
    use memdiag_web::page::components::share_dialog::{ShareDialog, ShareDialogProps};
    let (tree, input, report) = alice_snapshot();
    let root = container();
    let closed = Rc::new(std::cell::Cell::new(false));
    let app = yew::Renderer::<ShareDialog>::with_root_and_props(
        root.clone(),
        ShareDialogProps {
            report: Shared::new(report.clone()),
            tree: Shared::new(tree),
            input: Shared::new(input),
            made: "2026-11-30T12:22:30Z".to_owned(),
            base_url: Some("https://example.test/memdiag/".to_owned()),
            on_close: {
                let closed = closed.clone();
                Callback::from(move |_| closed.set(true))
            },
            job: None,
        },
    )
    .render();
    wait_for(&root, "[data-testid=share-dialog][data-ready=true]").await;
    let dialog = one(&root, "[role=dialog]");
    assert_eq!(attr(&dialog, "aria-modal"), "true");
    assert_eq!(
        one(&root, &format!("#{}", attr(&dialog, "aria-labelledby")))
            .text_content()
            .unwrap(),
        "Share a read-only report"
    );

    // The safe defaults: names, the user name and the text replaced, other projects left
    // out; no warning, and no names listed as visible.
    assert!(!checked(&root, "share-keep-file-names"));
    assert!(!checked(&root, "share-keep-user-name"));
    assert!(!checked(&root, "share-keep-text"));
    assert!(!checked(&root, "share-other-projects"));
    assert!(root
        .query_selector("[data-testid=share-visible-names]")
        .unwrap()
        .is_none());
    assert!(root
        .query_selector("[data-testid=share-text-warning]")
        .unwrap()
        .is_none());
    assert!(root
        .query_selector("[data-testid=share-link-warning]")
        .unwrap()
        .is_none());
    // Focus starts on the first option.
    assert_eq!(active_testid(), "share-keep-file-names");

    // The preview lists the copy's files with their sizes, and nothing private.
    let files = all(&root, "[data-testid=share-file]");
    assert_eq!(
        attr(&one(&root, "[data-testid=share-count]"), "data-count"),
        files.len().to_string()
    );
    let paths: Vec<String> = files.iter().map(|f| attr(f, "data-path")).collect();
    assert!(paths.len() >= 3, "{paths:?}");
    assert!(
        paths.iter().all(|p| !p.to_lowercase().contains("alice")),
        "{paths:?}"
    );
    assert!(
        paths.iter().all(|p| !p.ends_with(".credentials.json")),
        "{paths:?}"
    );
    assert!(
        paths.iter().all(|p| !p.contains("/work/app/")),
        "names are pseudonymised by default: {paths:?}"
    );
    let project = files
        .iter()
        .find(|f| {
            one(f, "code")
                .get_attribute("title")
                .is_some_and(|t| t.contains("(yours: /home/alice/work/app/CLAUDE.md)"))
        })
        .expect("the project CLAUDE.md is shared");
    let original = report
        .files
        .iter()
        .find(|r| r.path == "/home/alice/work/app/CLAUDE.md")
        .unwrap();
    assert_eq!(
        attr(project, "data-size"),
        original.size.unwrap().to_string()
    );
    assert!(root
        .query_selector("[data-testid=share-verified]")
        .unwrap()
        .is_some());
    assert!(!root.text_content().unwrap().contains("British"));

    // The link: the given address, `#s=`, a payload that opens to the same figures.
    let link = link_of(&root);
    assert!(
        link.starts_with("https://example.test/memdiag/#s=1."),
        "{link}"
    );
    assert_eq!(
        attr(
            &one(&root, "[data-testid=share-link-length]"),
            "data-length"
        ),
        link.len().to_string()
    );
    assert!(link.len() < 8 * 1024, "{} characters", link.len());
    let shared = memdiag_core::decode_link(&link).unwrap();
    assert_eq!(shared.made, "2026-11-30T12:22:30Z");
    let again = match memdiag_core::analyze(&shared.tree, &shared.input).unwrap() {
        memdiag_core::Step::Done(report) => *report,
        memdiag_core::Step::Needs(_) => panic!("a shared snapshot analyses in one turn"),
    };
    assert_eq!(again.footprint, report.footprint);
    for (path, file) in shared.tree.files() {
        if let memdiag_core::Contents::Loaded(bytes) = &file.contents {
            let text = String::from_utf8_lossy(bytes);
            assert!(
                !text.contains("British") && !text.contains("Alice"),
                "{path}"
            );
        }
    }

    // Keeping the text warns that contents will be shared, and the long link warns too,
    // offering the file.
    click(&one(&root, "[data-testid=share-keep-text]"));
    wait_for(&root, "[data-testid=share-text-warning]").await;
    wait_for(&root, "[data-testid=share-dialog][data-ready=true]").await;
    assert!(one(&root, "[data-testid=share-text-warning]")
        .text_content()
        .unwrap()
        .contains("contents of your files will be shared"));
    assert!(link_of(&root).len() > 8 * 1024);
    assert!(one(&root, "[data-testid=share-link-warning]")
        .text_content()
        .unwrap()
        .contains("send the file"));
    assert!(one(&root, "[data-testid=share-download]")
        .class_list()
        .contains("primary"));
    click(&one(&root, "[data-testid=share-keep-text]"));
    wait_for(&root, "[data-testid=share-dialog][data-ready=true]").await;
    settle().await;
    assert!(root
        .query_selector("[data-testid=share-text-warning]")
        .unwrap()
        .is_none());
    assert!(link_of(&root).len() < 8 * 1024);

    // Keeping names lists the names that become visible.
    click(&one(&root, "[data-testid=share-keep-file-names]"));
    wait_for(&root, "[data-testid=share-visible-names]").await;
    let visible = one(&root, "[data-testid=share-visible-names]")
        .text_content()
        .unwrap();
    assert!(visible.contains("app"), "{visible}");
    assert!(
        !visible.contains("alice") && !visible.contains("CLAUDE.md"),
        "{visible}"
    );
    click(&one(&root, "[data-testid=share-keep-file-names]"));
    wait_for(&root, "[data-testid=share-dialog][data-ready=true]").await;

    // Keeping the user name keeps it in the paths.
    click(&one(&root, "[data-testid=share-keep-user-name]"));
    for _ in 0..100 {
        settle().await;
        if all(&root, "[data-testid=share-file]")
            .iter()
            .any(|f| attr(f, "data-path").contains("/home/alice/"))
        {
            break;
        }
    }
    assert!(all(&root, "[data-testid=share-file]")
        .iter()
        .any(|f| attr(f, "data-path").contains("/home/alice/")));

    // Focus stays inside: Tab from the last control goes to the first, Shift+Tab back.
    let close: HtmlElement = one(&root, "[data-testid=share-close]").unchecked_into();
    close.focus().unwrap();
    press(&close, "Tab");
    assert_eq!(active_testid(), "share-keep-file-names");
    let first = one(&root, "[data-testid=share-keep-file-names]");
    let init = KeyboardEventInit::new();
    init.set_key("Tab");
    init.set_shift_key(true);
    init.set_bubbles(true);
    init.set_cancelable(true);
    first
        .dispatch_event(
            &KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
    assert_eq!(active_testid(), "share-close");
    // Escape closes.
    assert!(!closed.get());
    press(&dialog, "Escape");
    assert!(closed.get());
    app.destroy();
    root.remove();
}

/// Puts `fragment` in the address bar without a `hashchange` event.
fn set_fragment(fragment: &str) {
    let window = web_sys::window().unwrap();
    let location = window.location();
    let url = format!(
        "{}{}{fragment}",
        location.pathname().unwrap(),
        location.search().unwrap()
    );
    window
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&url))
        .unwrap();
}

/// A share link of alice's snapshot, made as the dialog makes it.
fn alice_link(options: memdiag_core::SanitizeOptions) -> (String, Report) {
    let (tree, input, report) = alice_snapshot();
    let sanitized = memdiag_core::sanitize(&tree, &input, &report, &options);
    (
        format!(
            "#s={}",
            memdiag_core::encode_link(&sanitized, "2026-11-30T12:22:30Z")
        ),
        report,
    )
}

fn exists(root: &Element, selector: &str) -> bool {
    root.query_selector(selector).unwrap().is_some()
}

#[wasm_bindgen_test]
async fn a_share_link_opens_read_only_with_no_drop_zone_until_start_fresh() {
    let (fragment, original) = alice_link(memdiag_core::SanitizeOptions::default());
    set_fragment(&fragment);
    let root = container();
    let app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
    wait_for_run(&root, 0).await;

    // The banner says what it is and when it was made.
    let banner = one(&root, "[data-testid=shared-banner]");
    assert_eq!(attr(&banner, "data-made"), "2026-11-30T12:22:30Z");
    let said = banner.text_content().unwrap();
    assert!(said.contains("2026-11-30 12:22 UTC"), "{said}");
    assert!(said.contains("placeholders"), "{said}");
    // The whole report, read-only: no drop zone, no way to add or refresh.
    for gone in [
        "[data-testid=empty-state]",
        ".drop-zone",
        "[data-testid=choose-folder]",
        "[data-testid=open-zip]",
        "[data-testid=try-demo]",
        "[data-testid=refresh]",
        "[data-testid=folder-input]",
        "[data-testid=zip-input]",
        "[data-testid=share]",
        "[data-testid=open-picker]",
        "[data-testid=claude-json]",
        "[data-testid=claude-json-input]",
    ] {
        assert!(!exists(&root, gone), "{gone} in read-only mode");
    }
    assert_eq!(
        all(&root, "[data-testid=tree-row]").len(),
        original.files.len()
    );
    assert_eq!(
        attr(&one(&root, "[data-testid=card-chars]"), "data-value"),
        original.footprint.chars.to_string()
    );
    for field in ["input-home", "input-project", "input-config"] {
        assert!(
            one(&root, &format!("[data-testid={field}]")).has_attribute("readonly"),
            "{field}"
        );
    }
    assert!(one(&root, "[data-testid=input-os]").has_attribute("disabled"));
    assert!(!one(&root, "[data-testid=input-version]").has_attribute("disabled"));
    // The file view shows the placeholder text, never the words.
    let user = all(&root, "[data-testid=tree-row]")
        .into_iter()
        .find(|r| attr(r, "data-path").ends_with("/.claude/CLAUDE.md"))
        .unwrap();
    click(&user);
    settle().await;
    let text = root.text_content().unwrap();
    assert!(
        text.contains("xxxxxx xxxxxxx xxxxxxxx"),
        "placeholder text shows"
    );
    assert!(!text.contains("British") && !text.to_lowercase().contains("alice"));
    // The Health view works too.
    click(&one(&root, "[data-testid=view-health]"));
    settle().await;
    assert_eq!(all(&root, "[data-testid=reason]").len(), 5);

    // The version field runs the same snapshot under older rules.
    let run = run_of(&root);
    choose(&one(&root, "[data-testid=input-version]"), "2.1.63");
    wait_for_run(&root, run).await;
    assert!(exists(&root, "[data-testid=shared-banner]"));
    assert!(exists(&root, "[data-testid=simulated-version]"));

    // Start fresh: the empty page with its drop zone, and the link gone from the address.
    click(&one(&root, "[data-testid=start-fresh]"));
    settle().await;
    assert!(!exists(&root, "[data-testid=shared-banner]"));
    assert!(exists(&root, "[data-testid=empty-state] .drop-zone"));
    assert!(exists(&root, "[data-testid=choose-folder]"));
    assert_eq!(web_sys::window().unwrap().location().hash().unwrap(), "");
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn a_broken_or_newer_link_says_why_and_shows_the_empty_page() {
    let (fragment, _) = alice_link(memdiag_core::SanitizeOptions::default());
    let cut = &fragment[..fragment.len() / 2];
    for (fragment, says) in [
        (cut.to_owned(), "damaged"),
        ("#s=9.AAAA".to_owned(), "newer version"),
        ("#s=nonsense".to_owned(), "holds no shared snapshot"),
    ] {
        set_fragment(&fragment);
        let root = container();
        let app = yew::Renderer::<memdiag_web::App>::with_root(root.clone()).render();
        let error = wait_for(&root, "[data-testid=error]").await;
        assert!(
            error.text_content().unwrap().contains(says),
            "{fragment}: {}",
            error.text_content().unwrap()
        );
        // The empty page, not the demo and not read-only.
        assert!(exists(&root, "[data-testid=empty-state] .drop-zone"));
        assert!(!exists(&root, "[data-testid=shared-banner]"));
        assert!(!exists(&root, "[data-testid=tree]"));
        app.destroy();
        root.remove();
    }
    set_fragment("");
}

#[wasm_bindgen_test]
async fn a_link_pasted_into_the_address_bar_opens_and_going_back_leaves_it() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    assert!(exists(&root, "[data-testid=share]"));
    let (fragment, _) = alice_link(memdiag_core::SanitizeOptions::default());
    let run = run_of(&root);
    let location = web_sys::window().unwrap().location();
    location.set_hash(&fragment).unwrap();
    wait_for_run(&root, run).await;
    wait_for(&root, "[data-testid=shared-banner]").await;
    location.set_hash("").unwrap();
    wait_for(&root, "[data-testid=empty-state] .drop-zone").await;
    assert!(!exists(&root, "[data-testid=shared-banner]"));
    app.destroy();
    root.remove();
    set_fragment("");
}

#[wasm_bindgen_test]
async fn a_share_zip_opens_as_a_shared_snapshot_and_another_zip_as_a_source() {
    let (tree, input, report) = alice_snapshot();
    let sanitized = memdiag_core::sanitize(
        &tree,
        &input,
        &report,
        &memdiag_core::SanitizeOptions::default(),
    );
    let bytes = memdiag_core::to_zip(&sanitized, "2026-11-30T12:22:30Z");
    let file = |bytes: &[u8], name: &str| {
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
        web_sys::File::new_with_u8_array_sequence(&parts, name).unwrap()
    };
    match ingest::open_zip_file(file(&bytes, "memdiag-share-2026-11-30.zip"), None)
        .await
        .unwrap()
    {
        ingest::Opened::Shared(shared, name, _) => {
            assert_eq!(name, "memdiag-share-2026-11-30.zip");
            assert_eq!(shared.made, "2026-11-30T12:22:30Z");
            let (again, _, _) = engine_ingest::analyze_shared(&shared, None).unwrap();
            assert_eq!(again.footprint, report.footprint);
        }
        ingest::Opened::Source(_) => panic!("a share zip is a shared snapshot"),
    }
    // A zip without the manifest is an ordinary snapshot.
    let mut plain = zip_of(&[(".claude/CLAUDE.md", "# Me\n")]);
    assert!(matches!(
        ingest::open_zip_file(file(&plain, "claude.zip"), None).await,
        Ok(ingest::Opened::Source(_))
    ));
    // A damaged share zip says so: here its manifest's compressed bytes are wiped.
    plain = bytes.clone();
    plain[60..120].fill(0);
    let message = match ingest::open_zip_file(file(&plain, "broken-share.zip"), None).await {
        Err(message) => message,
        Ok(_) => panic!("a damaged share zip opens"),
    };
    assert!(
        message.contains("broken-share.zip") && message.contains("damaged"),
        "{message}"
    );
}

/// A zip (stored, no compression) of `files`.
fn zip_of(files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write as _;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in files {
        writer.start_file(*name, options).unwrap();
        writer.write_all(text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

// --- the Reads view ------------------------------------------------------------------------

/// Types `value` into a field as a person does: an `input` event per change.
fn enter_text(field: &Element, value: &str) {
    let input: web_sys::HtmlInputElement = field.clone().unchecked_into();
    input.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict("input", &init).unwrap();
    input.dispatch_event(&event).unwrap();
}

/// The demo's own answer for a read of `path`, from the core through the page's loop.
async fn demo_read(path: &str) -> memdiag_core::report::ReadAnswer {
    let mut snapshot = ingest::Snapshot::default();
    snapshot.set_demo(memdiag_web::wire::demo::source().unwrap());
    let mut inputs = snapshot.infer_inputs("/home/user");
    inputs.reads = vec![path.to_owned()];
    let (report, _, _) = engine_ingest::run_analysis(snapshot.run_sources(), inputs, |_| {})
        .await
        .unwrap();
    report.reads.into_iter().next().unwrap()
}

#[wasm_bindgen_test]
async fn the_reads_view_lists_the_projects_files_and_shows_what_a_read_attaches() {
    let Some((root, app)) = demo_app().await else {
        return;
    };
    click(&one(&root, "[data-testid=view-reads]"));
    settle().await;
    let view = one(&root, "[data-testid=reads-view]");
    // Every file of the demo's project is offered, relative to the project, and no .git.
    let listed: Vec<String> = all(&view, "[data-testid=read-file]")
        .iter()
        .map(|b| attr(b, "data-path"))
        .collect();
    const ADAPTER: &str = "/home/alice/work/shop/src/api/payments/adapter.ts";
    assert!(listed.contains(&ADAPTER.to_owned()), "{listed:?}");
    assert!(listed
        .iter()
        .all(|p| p.starts_with("/home/alice/work/shop/")));
    assert!(listed.windows(2).all(|w| w[0] < w[1]), "sorted");
    assert_eq!(
        all(&view, "[data-testid=read-answer]").len(),
        0,
        "nothing asked yet"
    );

    // The filter narrows the list; a filter with no match says so.
    enter_text(&one(&root, "[data-testid=reads-filter]"), "payments");
    settle().await;
    let narrowed: Vec<String> = all(&root, "[data-testid=read-file]")
        .iter()
        .map(|b| attr(b, "data-path"))
        .collect();
    assert_eq!(narrowed, vec![ADAPTER.to_owned()]);
    enter_text(&one(&root, "[data-testid=reads-filter]"), "no-such-file");
    settle().await;
    assert!(exists(&root, "[data-testid=reads-no-match]"));
    enter_text(&one(&root, "[data-testid=reads-filter]"), "adapter");
    settle().await;

    // A click asks the analysis; the answer is the core's, figure for figure.
    let run = run_of(&root);
    click(&one(
        &root,
        &format!("[data-testid=read-file][data-path='{ADAPTER}']"),
    ));
    wait_for_run(&root, run).await;
    let expected = demo_read(ADAPTER).await;
    assert!(
        expected
            .files
            .iter()
            .any(|f| f.path == "/home/alice/work/shop/src/api/CLAUDE.md"),
        "the nested CLAUDE.md of src/api attaches: {expected:?}"
    );
    let answer = one(&root, "[data-testid=read-answer]");
    assert_eq!(attr(&answer, "data-path"), ADAPTER);
    assert_eq!(
        attr(&answer, "data-files"),
        expected.files.len().to_string()
    );
    assert_eq!(
        attr(&answer, "data-skills"),
        expected.skills.len().to_string()
    );
    assert_eq!(attr(&answer, "data-user"), expected.cost.user.to_string());
    assert_eq!(
        attr(&answer, "data-claude-code"),
        expected.cost.claude_code.to_string()
    );
    assert_eq!(
        attr(&answer, "data-tokens"),
        ((expected.cost.total() + 2) / 4).to_string()
    );
    let attached: Vec<(String, String)> = all(&answer, "[data-testid=read-attached]")
        .iter()
        .map(|li| (attr(li, "data-path"), attr(li, "data-utf16")))
        .collect();
    let want: Vec<(String, String)> = expected
        .files
        .iter()
        .map(|f| (f.path.clone(), f.loaded.utf16.to_string()))
        .collect();
    assert_eq!(attached, want);
    let figures = one(&answer, "[data-testid=read-figures]")
        .text_content()
        .unwrap();
    assert!(
        figures.contains("of a 200k window") && figures.contains("of 1M"),
        "{figures}"
    );
    // The view and the tab stay where they were.
    assert_eq!(
        attr(&one(&root, "[data-testid=view-reads]"), "aria-selected"),
        "true"
    );

    // A typed path, relative to the project: a skill folder on the way is announced.
    const BUTTON: &str = "/home/alice/work/shop/packages/ui/src/button.tsx";
    let run = run_of(&root);
    enter_text(
        &one(&root, "[data-testid=reads-path]"),
        "packages/ui/src/button.tsx",
    );
    settle().await;
    click(&one(&root, "[data-testid=reads-ask]"));
    wait_for_run(&root, run).await;
    let expected = demo_read(BUTTON).await;
    assert!(!expected.skills.is_empty(), "{expected:?}");
    let answer = one(&root, "[data-testid=read-answer]");
    assert_eq!(attr(&answer, "data-path"), BUTTON);
    assert_eq!(
        attr(&answer, "data-total"),
        expected.cost.total().to_string()
    );
    let skills: Vec<String> = all(&answer, "[data-testid=read-skill]")
        .iter()
        .map(|s| s.text_content().unwrap())
        .collect();
    assert_eq!(skills, expected.skills);

    // A path outside the project: the core's reason, no figure.
    let run = run_of(&root);
    enter_text(
        &one(&root, "[data-testid=reads-path]"),
        "/tmp/elsewhere.txt",
    );
    settle().await;
    click(&one(&root, "[data-testid=reads-ask]"));
    wait_for_run(&root, run).await;
    let note = one(&root, "[data-testid=read-note]")
        .text_content()
        .unwrap();
    assert!(note.contains("outside the project"), "{note}");
    app.destroy();
    root.remove();
}

#[wasm_bindgen_test]
async fn the_reads_view_without_a_project_says_why() {
    use memdiag_web::page::components::reads::{ReadsProps, ReadsView};
    let root = container();
    let props = ReadsProps {
        report: Shared::new(Report::default()),
        files: Rc::new(Vec::new()),
        project: String::new(),
        asked: None,
        busy: false,
        read_only: false,
        on_ask: Callback::noop(),
        on_open: Callback::noop(),
    };
    let app = yew::Renderer::<ReadsView>::with_root_and_props(root.clone(), props).render();
    settle().await;
    let why = one(&root, "[data-testid=reads-none]");
    assert_eq!(attr(&why, "data-why"), "no-project");
    assert!(why.text_content().unwrap().contains("No project is set"));
    assert!(!exists(&root, "[data-testid=reads-path]"), "nothing to ask");
    app.destroy();

    // A project picked without its folder: no list, but a typed path is asked.
    let asked = Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let log = asked.clone();
    let props = ReadsProps {
        report: Shared::new(Report::default()),
        files: Rc::new(Vec::new()),
        project: "/home/alice/work/shop".to_owned(),
        asked: None,
        busy: false,
        read_only: false,
        on_ask: Callback::from(move |p: String| log.borrow_mut().push(p)),
        on_open: Callback::noop(),
    };
    let app = yew::Renderer::<ReadsView>::with_root_and_props(root.clone(), props).render();
    settle().await;
    assert!(exists(&root, "[data-testid=reads-no-files]"));
    enter_text(&one(&root, "[data-testid=reads-path]"), "src/main.ts");
    settle().await;
    click(&one(&root, "[data-testid=reads-ask]"));
    settle().await;
    assert_eq!(*asked.borrow(), vec!["src/main.ts".to_owned()]);
    app.destroy();
    root.remove();
}

/// The preview's wire (what the worker sends the page) can name only the elements and
/// attributes `markdown::TAGS` and `ATTRIBUTES` list: anything else becomes a `span` or is
/// left out, and every other string stays text. Its pieces round-trip unchanged.
#[wasm_bindgen_test]
fn the_preview_wire_builds_only_listed_elements_and_attributes() {
    use memdiag_web::engine::markdown::layout;
    use memdiag_web::wire::markdown::{from_wire, to_wire, wire_of, Piece};
    let hostile = js_sys::Array::new();
    for item in [
        "<script",
        "@src",
        "x.js",
        "/",
        "<a",
        "@href",
        "https://example.com",
        "@title",
        "t",
        "#<img src=x onerror=alert(1)>",
        "/",
        "<p",
        "@onclick",
        "alert(1)",
        "/",
    ] {
        hostile.push(&JsValue::from_str(item));
    }
    assert_eq!(
        from_wire(wire_of(&hostile)),
        vec![
            Piece::Open("span", Vec::new()),
            Piece::Close,
            Piece::Open("a", vec![("title", "t".to_owned())]),
            Piece::Text("<img src=x onerror=alert(1)>".to_owned()),
            Piece::Close,
            Piece::Open("p", Vec::new()),
            Piece::Close,
        ]
    );
    let source = "# Title\n\n> quote with `code` and [a link](notes.md)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\nls\n```\n";
    let pieces = layout(source);
    assert!(
        pieces.contains(&Piece::Open("th", Vec::new())),
        "{pieces:?}"
    );
    assert_eq!(from_wire(to_wire(&pieces)), pieces);
}

/// The filters fold case through the browser's `toLowerCase`; it must agree with Rust's
/// full case mapping, which the native tests use, on the scripts people name files in.
#[wasm_bindgen_test]
fn the_browsers_lower_case_is_rusts() {
    for text in [
        "CLAUDE.md",
        "Ünïcödé Straße",
        "ΟΔΟΣ ΣΑΣ",
        "İstanbul",
        "ПРАВИЛА.md",
        "한국어 메모리",
        "ＦＵＬＬ",
        "",
    ] {
        assert_eq!(
            memdiag_web::page::state::lowercase(text),
            text.to_lowercase(),
            "{text}"
        );
    }
}

/// A finished analysis goes to the page and comes back to the worker for sharing: what its
/// tree carries besides its files (a shared snapshot's quoted lengths, stand-ins and orders,
/// a zip's skills listing order) must survive the trip, or a snapshot shared again, or a
/// zip's skills order, would not match the report it came from.
#[wasm_bindgen_test]
fn a_tree_keeps_what_it_carries_through_the_page() {
    let path = |p: &str| memdiag_core::VPath::new(p).unwrap();
    let mut tree = Tree::new();
    tree.add_mount(path("/home/u/.claude"));
    tree.insert(
        path("/home/u/.claude/CLAUDE.md"),
        memdiag_core::FileEntry {
            size: 12,
            contents: memdiag_core::Contents::Loaded(b"@xxxxxxxa.md".to_vec()),
            modified: Some("2026-01-02T03:04:05Z".to_owned()),
        },
    );
    let length = memdiag_core::QuotedLength {
        bytes: 14,
        chars: 12,
        utf16: 12,
        columns: 12,
    };
    tree.set_quoted(BTreeMap::from([("/home/u/.claude/ab".to_owned(), length)]));
    tree.set_stand_ins(
        path("/home/u/.claude/CLAUDE.md"),
        BTreeMap::from([("xxxxxxxa.md".to_owned(), "ab/cd.md".to_owned())]),
    );
    tree.set_order(
        path("/home/u/.claude"),
        vec!["b".to_owned(), "a".to_owned()],
    );
    tree.set_listing_order(
        path("/home/u/.claude/skills"),
        vec!["z".to_owned(), "é".to_owned(), "a".to_owned()],
    );
    let (fields, _) = memdiag_web::engine::worker::tree_fields(&tree);
    let message = js_sys::Object::new();
    for (key, value) in fields {
        js_sys::Reflect::set(&message, &key.into(), &value).unwrap();
    }
    assert_eq!(memdiag_web::wire::messages::tree_from(&message), tree);
}
