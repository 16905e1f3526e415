//! Clean-ups from the page: the checklists of each memory folder (dead index lines, orphaned
//! topic files, entries past the caps), a Delete button for a file, and the review that
//! every change goes through.
//!
//! Every clean-up is a [`Plan`] from `memdiag_core::cleanup`, shown as its diff before
//! anything happens. On a live folder ([`crate::page::live`]) the person confirms it; write
//! permission is asked for then, the files are read back and compared, only the plan's files
//! are written, the plan goes on the undo list for the session, and the page rescans. On a
//! zip, a shared report or a folder the browser gave no handle for, the same plan is offered
//! as a shell script to download instead.
//!
//! The review and the undo list live in [`CleanupHost`], mounted once by the page; the
//! checklists ([`CleanupPanel`]) and the Delete button ([`delete_file`]) hand it plans through
//! a small store of this module, because they unmount whenever the pane switches while an
//! undo must last the session.

use std::cell::RefCell;
use std::rc::Rc;

use memdiag_core::cleanup::{self, Compaction, MemoryCleanups, Plan};
use memdiag_core::report::FileRow;
use memdiag_core::report::Report;
use memdiag_core::Tree;
use wasm_bindgen::JsValue;
use web_sys::{Blob, BlobPropertyBag, HtmlInputElement};
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::page::cleanups::{self, Ask, Backup};
use crate::page::runs::Engine;
use crate::page::state::Shared;
use crate::{page::browser, Page};

/// A plan under review, or made and undoable.
#[derive(Clone)]
struct Entry {
    plan: Plan,
    /// Its diff and script, as planned (empty for an undo, which shows neither).
    diff: Rc<str>,
    script: Rc<str>,
    /// The report the plan was made from ([`report_key`]): a review of an older one is
    /// closed, never confirmed.
    report: usize,
}

/// Which report a plan or a checklist was made from: each analysis makes a new one.
fn report_key(report: &Shared<Report>) -> usize {
    Rc::as_ptr(&report.0) as usize
}

/// What the host shows: the plan under review, the plans made (newest last), the last
/// message, and whether a write is under way.
#[derive(Default)]
struct Store {
    reviewing: Option<Entry>,
    made: Vec<Entry>,
    message: Option<(bool, String)>,
    busy: bool,
    /// The message and undo list folded into one button (Hide), until the next clean-up.
    folded: bool,
    /// The backups kept in this browser, newest first ([`load_backups`]).
    backups: Vec<Backup>,
    listeners: Vec<Callback<()>>,
}

thread_local! {
    static STORE: RefCell<Store> = RefCell::default();
}

fn with_store<T>(f: impl FnOnce(&mut Store) -> T) -> T {
    let (out, listeners) = STORE.with(|store| {
        let mut store = store.borrow_mut();
        let out = f(&mut store);
        (out, store.listeners.clone())
    });
    for listener in listeners {
        listener.emit(());
    }
    out
}

/// Reads the list of backups again (after a clean-up, a restore, on opening the page).
fn load_backups() {
    spawn_local(async {
        let listed = cleanups::backups().await.unwrap_or_default();
        with_store(|s| s.backups = listed);
    });
}

/// Plans `ask` (in the analysis worker, see [`crate::page::cleanups`]) and opens the plan for
/// review.
fn ask_for(
    (engine, job): (Engine, Option<u64>),
    report: Shared<Report>,
    tree: Shared<Tree>,
    ask: Ask,
) {
    spawn_local(async move {
        let remote = engine.remote(job);
        let planned = crate::page::cleanups::plan(remote.as_ref(), &report, &tree, ask).await;
        review(planned, report_key(&report));
    });
}

/// Opens a plan for review (a planning error becomes the message).
fn review(planned: Result<crate::page::cleanups::Planned, String>, report: usize) {
    with_store(|store| match planned {
        Ok(planned) => {
            store.reviewing = Some(Entry {
                plan: planned.plan,
                diff: planned.diff.into(),
                script: planned.script.into(),
                report,
            });
            store.message = None;
        }
        Err(error) => {
            store.message = Some((true, format!("Nothing to do: {error}.")));
            store.folded = false;
        }
    });
}

/// The checklists of every memory folder with an index.
#[component]
pub fn CleanupPanel() -> Html {
    // A health view mounted on its own (its component tests) has no page, and no clean-ups.
    let page = use_context::<Page>();
    // Redrawn when the store changes (the backups listed), and the backups read on mount.
    let update = use_force_update();
    use_effect_with((), move |_| {
        let listener = Callback::from(move |_: ()| update.force_update());
        STORE.with(|s| s.borrow_mut().listeners.push(listener.clone()));
        load_backups();
        move || STORE.with(|s| s.borrow_mut().listeners.retain(|l| *l != listener))
    });
    let Some(page) = page else {
        return Html::default();
    };
    let state = &page.state;
    let (Some(report), Some(tree)) = (state.loaded.report.clone(), state.loaded.tree.clone())
    else {
        return Html::default();
    };
    let engine = page.engine.clone();
    let all = use_memo(
        (report.clone(), tree.clone(), state.loaded.job),
        move |(report, tree, job)| {
            crate::page::cleanups::memory_cleanups(engine.remote(*job).as_ref(), report, tree)
        },
    );
    let read_only = state.read_only();
    let mode = cleanups::mode_note(&page.engine, read_only);
    let report_id = report_key(&report);
    let with_work: Vec<&MemoryCleanups> = all
        .iter()
        .filter(|m| !m.dead_lines.is_empty() || !m.orphans.is_empty() || m.over_cap.is_some())
        .collect();
    html! {
        <section class="cleanup" data-testid="cleanup" aria-label="Clean up">
            <h3>{ "Clean up" }</h3>
            <p class="muted small" data-testid="cleanup-mode">{ mode }</p>
            if with_work.is_empty() {
                <p class="muted" data-testid="cleanup-nothing">{ "No dead index lines, orphaned topic files or entries past the caps." }</p>
            }
            // Keyed by the report too: a new analysis (a rescan, a clean-up made) starts the
            // checklists afresh from what it found, so no tick outlives the lines it was for.
            { for with_work.into_iter().map(|m| html! {
                <FolderCleanups key={format!("{}#{report_id}", m.index)} cleanups={Rc::new(m.clone())} />
            }) }
            { backup_list(&page) }
        </section>
    }
}

/// Props of one memory folder's checklists.
#[derive(Properties, PartialEq)]
pub struct FolderProps {
    /// What the folder offers.
    pub cleanups: Rc<MemoryCleanups>,
}

/// One memory folder's checklists, each item ticked by default. What the component keeps is
/// only what the person unticked, by line number and text; the lists, and so what a button
/// asks for, come from the current analysis on every render.
#[component]
pub fn FolderCleanups(props: &FolderProps) -> Html {
    let page = use_context::<Page>().expect("inside the page");
    let m = props.cleanups.clone();
    let unticked_lines = use_state(Vec::<(u64, String)>::new);
    let unticked_orphans = use_state(Vec::<String>::new);
    let dead: Vec<(u64, String)> = m
        .dead_lines
        .iter()
        .map(|d| (d.line, d.text.clone()))
        .filter(|line| !unticked_lines.contains(line))
        .collect();
    let orphans: Vec<String> = m
        .orphans
        .iter()
        .map(|o| o.path.clone())
        .filter(|p| !unticked_orphans.contains(p))
        .collect();
    let (Some(report), Some(tree)) = (
        page.state.loaded.report.clone(),
        page.state.loaded.tree.clone(),
    ) else {
        return Html::default();
    };
    let toggle_line = |line: (u64, String)| {
        let unticked = unticked_lines.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            let mut next: Vec<(u64, String)> = (*unticked)
                .iter()
                .filter(|l| **l != line)
                .cloned()
                .collect();
            if !on {
                next.push(line.clone());
            }
            unticked.set(next);
        })
    };
    let toggle_orphan = |path: String| {
        let unticked = unticked_orphans.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            let mut next: Vec<String> = (*unticked)
                .iter()
                .filter(|p| **p != path)
                .cloned()
                .collect();
            if !on {
                next.push(path.clone());
            }
            unticked.set(next);
        })
    };
    let job = (page.engine.clone(), page.state.loaded.job);
    let asking = |ask: Ask| {
        let (job, report, tree) = (job.clone(), report.clone(), tree.clone());
        Callback::from(move |_: MouseEvent| {
            ask_for(job.clone(), report.clone(), tree.clone(), ask.clone())
        })
    };
    let remove_lines = asking(Ask::RemoveLines(m.index.clone(), dead.clone()));
    let link_orphans = asking(Ask::IndexOrphans(m.index.clone(), orphans.clone()));
    let delete_orphans = asking(Ask::DeleteFiles(orphans.clone()));
    let compact = |how: Compaction| asking(Ask::Compact(m.index.clone(), how));
    let name = |path: &str| path.rsplit('/').next().unwrap_or(path).to_owned();
    let whose = match &m.agent {
        Some(agent) => format!("agent {agent}"),
        None => "auto memory".to_owned(),
    };
    html! {
        <div class="cleanup-folder" data-testid="cleanup-folder" data-index={m.index.clone()}>
            <h4 title={m.folder.clone()}>{ format!("{} · {whose}", name(&m.index)) }</h4>
            if !m.dead_lines.is_empty() {
                <fieldset data-testid="cleanup-dead">
                    <legend>{ format!("Index lines whose link leads nowhere ({})", m.dead_lines.len()) }</legend>
                    { for m.dead_lines.iter().map(|d| html! {
                        <label class="cleanup-item">
                            <input type="checkbox" data-testid="dead-line" value={d.line.to_string()}
                                checked={dead.iter().any(|(n, t)| *n == d.line && *t == d.text)}
                                onchange={toggle_line((d.line, d.text.clone()))} />
                            <span class="line-number">{ format!("{}:", d.line) }</span>
                            <code>{ d.text.clone() }</code>
                            if d.live_links > 0 {
                                <span class="muted small">{ format!(" (the line also links {} file{} that exist{})", d.live_links, if d.live_links == 1 { "" } else { "s" }, if d.live_links == 1 { "s" } else { "" }) }</span>
                            }
                        </label>
                    }) }
                    <button data-testid="cleanup-remove-lines" disabled={dead.is_empty()} onclick={remove_lines}>
                        { "Remove the ticked lines…" }
                    </button>
                </fieldset>
            }
            if !m.orphans.is_empty() {
                <fieldset data-testid="cleanup-orphans">
                    <legend>{ format!("Topic files no index line links to ({})", m.orphans.len()) }</legend>
                    { for m.orphans.iter().map(|o| html! {
                        <label class="cleanup-item">
                            <input type="checkbox" data-testid="orphan" value={o.path.clone()}
                                checked={orphans.contains(&o.path)} onchange={toggle_orphan(o.path.clone())} />
                            <span>{ name(&o.path) }</span>
                            <code class="muted small">{ format!(" → {}", o.index_line) }</code>
                        </label>
                    }) }
                    <button data-testid="cleanup-link-orphans" disabled={orphans.is_empty()} onclick={link_orphans}>
                        { format!("Link the ticked files from {}…", name(&m.index)) }
                    </button>
                    <button data-testid="cleanup-delete-orphans" disabled={orphans.is_empty()} onclick={delete_orphans}>
                        { "Delete the ticked files…" }
                    </button>
                </fieldset>
            }
            if let Some(over) = &m.over_cap {
                <fieldset data-testid="cleanup-over-cap">
                    <legend>{ format!("Entries past the caps, from line {} ({})", over.first_dropped_line, over.entries.len()) }</legend>
                    <ul class="cleanup-entries">
                        { for over.entries.iter().take(12).map(|(line, text)| html! {
                            <li><span class="line-number">{ format!("{line}:") }</span><code>{ text.clone() }</code></li>
                        }) }
                        if over.entries.len() > 12 {
                            <li class="muted">{ format!("… and {} more", over.entries.len() - 12) }</li>
                        }
                    </ul>
                    <button data-testid="cleanup-compact-move" onclick={compact(Compaction::MoveTo(over.suggested_topic.clone()))}>
                        { format!("Move them into {}…", name(&over.suggested_topic)) }
                    </button>
                    <button data-testid="cleanup-compact-drop" onclick={compact(Compaction::Drop)}>
                        { "Drop them…" }
                    </button>
                </fieldset>
            }
        </div>
    }
}

/// The backups of the clean-ups made from this browser, each with Restore and Delete. A
/// restore puts back the files that still hold what the clean-up wrote, and refuses when one
/// changed since; it needs the folder opened live, as the clean-up did. A plain function of
/// [`CleanupPanel`], which redraws when the store changes: a component of its own costs the
/// page's first-paint wasm some kilobytes.
fn backup_list(page: &Page) -> Html {
    let (backups, busy) = STORE.with(|s| {
        let s = s.borrow();
        (s.backups.clone(), s.busy)
    });
    if backups.is_empty() {
        return Html::default();
    }
    let restore = |backup: &Backup| {
        let (page, plan) = ((*page).clone(), backup.plan.clone());
        Callback::from(move |_: MouseEvent| {
            let (page, plan) = (page.clone(), plan.clone());
            with_store(|s| s.busy = true);
            spawn_local(async move {
                let inputs = page.state.sources.inputs.clone();
                let job = page.state.loaded.job;
                let result = cleanups::make(&page.engine, job, &plan, &inputs, true, |why| {
                    format!(
                        "{why}. Open the folder the clean-up changed with Choose folder, then \
                         restore"
                    )
                })
                .await;
                with_store(|s| {
                    s.busy = false;
                    s.folded = false;
                    s.message = Some(match &result {
                        Ok(_) => (false, format!("Restored: {}.", short_title(&plan))),
                        Err(why) => (true, format!("Not restored: {why}")),
                    });
                });
                load_backups();
                page.engine.refresh(inputs, None);
            });
        })
    };
    let delete = |name: String| {
        Callback::from(move |_: MouseEvent| {
            let name = name.clone();
            spawn_local(async move {
                if let Err(why) = cleanups::forget_backup(&name).await {
                    with_store(|s| {
                        s.message = Some((true, format!("The backup was not deleted: {why}")))
                    });
                }
                load_backups();
            });
        })
    };
    html! {
        <details class="cleanup-backups" data-testid="cleanup-backups">
            <summary>{ format!("Backups of clean-ups made from this browser ({})", backups.len()) }</summary>
            <p class="muted small">
                { "Before a clean-up writes, the page keeps a copy of every file it changes in this browser's own storage for this page (not in your folder, never sent anywhere). The newest " }
                { cleanups::BACKUPS_KEPT.to_string() }
                { " are kept, also after a reload." }
            </p>
            <ul>
                { for backups.iter().map(|backup| html! {
                    <li class="cleanup-backup" data-testid="cleanup-backup" data-name={backup.name.clone()}>
                        <span class="small">{ format!("{} · {}", backup.made.get(..16).unwrap_or(&backup.made).replace('T', " "), short_title(&backup.plan)) }</span>
                        <button data-testid="cleanup-backup-restore" disabled={busy} onclick={restore(backup)}
                            title="Puts back every file that still holds what this clean-up wrote; refuses if one changed since">
                            { "Restore" }
                        </button>
                        <button data-testid="cleanup-backup-delete" disabled={busy} onclick={delete(backup.name.clone())}>{ "Delete" }</button>
                    </li>
                }) }
            </ul>
        </details>
    }
}

/// A Delete button for a file the page offers to delete (a topic file, a rule, a skill, a
/// nested `CLAUDE.md`); nothing for the others. A file view mounted on its own (its
/// component tests) has no `page`, and nothing to delete.
pub fn delete_file(page: Option<&Page>, row: &FileRow) -> Html {
    let Some(page) = page else {
        return Html::default();
    };
    let (Some(report), Some(tree)) = (
        page.state.loaded.report.clone(),
        page.state.loaded.tree.clone(),
    ) else {
        return Html::default();
    };
    if !cleanup::can_delete(row) {
        return Html::default();
    }
    let job = (page.engine.clone(), page.state.loaded.job);
    let path = row.path.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        ask_for(
            job.clone(),
            report.clone(),
            tree.clone(),
            Ask::DeleteRow(path.clone()),
        )
    });
    html! {
        <button class="cleanup-delete" data-testid="cleanup-delete-file" onclick={onclick}
            title="Shows what would be deleted first; nothing happens before you confirm">
            { "Delete this file…" }
        </button>
    }
}

/// The review of a plan, the messages, and the undo list; mounted once by the page.
#[component]
pub fn CleanupHost() -> Html {
    let page = use_context::<Page>().expect("inside the page");
    let update = use_force_update();
    use_effect_with((), move |_| {
        let listener = Callback::from(move |_: ()| update.force_update());
        STORE.with(|s| s.borrow_mut().listeners.push(listener));
        || STORE.with(|s| s.borrow_mut().listeners.clear())
    });
    let (reviewing, made, message, busy, folded) = STORE.with(|s| {
        let s = s.borrow();
        (
            s.reviewing.clone(),
            s.made.clone(),
            s.message.clone(),
            s.busy,
            s.folded,
        )
    });
    let inputs = page.state.sources.inputs.clone();
    let read_only = page.state.read_only();
    // A review belongs to the analysis it was planned from: a new one (a rescan) closes it.
    let current = page.state.loaded.report.as_ref().map(report_key);
    use_effect_with(current, |current| {
        let current = *current;
        STORE.with(|s| {
            let stale = s
                .borrow()
                .reviewing
                .as_ref()
                .is_some_and(|r| Some(r.report) != current);
            if stale {
                with_store(|s| {
                    s.reviewing = None;
                    if s.message.is_none() {
                        s.folded = false;
                        s.message = Some((
                            false,
                            "The folders were read again, so the review was closed: start it \
                             again from the updated list."
                                .to_owned(),
                        ));
                    }
                });
            }
        });
    });
    let reviewing = reviewing.filter(|r| Some(r.report) == current);

    let run = {
        let page = page.clone();
        let inputs = inputs.clone();
        move |plan: Plan, undo: bool| {
            let page = page.clone();
            let inputs = inputs.clone();
            Callback::from(move |_: MouseEvent| {
                let plan = plan.clone();
                let page = page.clone();
                let inputs = inputs.clone();
                with_store(|s| s.busy = true);
                spawn_local(async move {
                    // An undo puts back what the plan made, file by file (the worker
                    // reverses it), and refuses when a file changed since.
                    let job = page.state.loaded.job;
                    let result =
                        cleanups::make(&page.engine, job, &plan, &inputs, undo, |why| why).await;
                    with_store(|s| {
                        s.busy = false;
                        s.folded = false;
                        match &result {
                            Ok(_) => {
                                s.reviewing = None;
                                if undo {
                                    s.made.retain(|e| e.plan != plan);
                                    s.message =
                                        Some((false, format!("Undone: {}.", short_title(&plan))));
                                } else {
                                    s.made.push(Entry {
                                        plan: plan.clone(),
                                        diff: Rc::from(""),
                                        script: Rc::from(""),
                                        report: 0,
                                    });
                                    s.message = Some((
                                        false,
                                        format!(
                                            "Done: {}. Undo stays here while this page is open; \
                                             a backup stays in this browser (Backups, in the \
                                             Health view's Clean up).",
                                            short_title(&plan)
                                        ),
                                    ));
                                }
                            }
                            Err(error) => s.message = Some((true, error.clone())),
                        }
                    });
                    load_backups();
                    // Read the folders again whatever happened: a refusal shows the files
                    // as they are now, and the review of the old read closes.
                    page.engine.refresh(inputs, None);
                });
            })
        }
    };
    let cancel = Callback::from(|_: ()| with_store(|s| s.reviewing = None));
    let dialog = reviewing.map(|entry| {
        let plan = entry.plan.clone();
        let can_write = cleanups::writable(&plan, &page.engine, &inputs, read_only);
        let confirm = run(plan.clone(), false);
        html! {
            <Review plan={Rc::new(plan)} diff={entry.diff.clone()} script={entry.script.clone()}
                {can_write} {busy} on_confirm={confirm} on_cancel={cancel.clone()} />
        }
    });
    html! {
        <>
            <ScanWatch />
            { dialog.unwrap_or_default() }
            // In view wherever the clean-up started (the file view, the Health view), until
            // folded away.
            if message.is_some() || !made.is_empty() {
                <aside class="cleanup-status" aria-label="Clean-ups" data-testid="cleanup-status">
                    if folded {
                        <button data-testid="cleanup-status-open" onclick={Callback::from(|_: MouseEvent| with_store(|s| s.folded = false))}>
                            { format!("Clean-ups made ({})", made.len()) }
                        </button>
                    } else {
                        if let Some((error, text)) = message {
                            <p class={classes!("cleanup-message", error.then_some("error"))} role="status" data-testid="cleanup-message">{ text }</p>
                        }
                        if !made.is_empty() {
                            <div class="cleanup-undo" data-testid="cleanup-undo" aria-label="Clean-ups made in this session">
                                { for made.iter().rev().map(|entry| {
                                    let made = entry.plan.clone();
                                    html! {
                                        <div class="cleanup-made">
                                            <span class="small" title={entry.plan.title.clone()}>{ short_title(&entry.plan) }</span>
                                            <button data-testid="cleanup-undo-button" disabled={busy} onclick={run(made, true)}>{ "Undo" }</button>
                                        </div>
                                    }
                                }) }
                            </div>
                        }
                        <button class="cleanup-status-hide small" data-testid="cleanup-status-hide"
                            onclick={Callback::from(|_: MouseEvent| with_store(|s| { s.folded = true; s.message = None; }))}>
                            { "Hide" }
                        </button>
                    }
                </aside>
            }
        </>
    }
}

/// Props of [`Review`].
#[derive(Properties, PartialEq)]
struct ReviewProps {
    /// The plan under review.
    plan: Rc<Plan>,
    /// Its unified diff.
    diff: Rc<str>,
    /// Its shell script.
    script: Rc<str>,
    /// True when every change lands in a live folder the page may write to.
    can_write: bool,
    /// True while a write is under way.
    busy: bool,
    /// Makes the changes.
    on_confirm: Callback<MouseEvent>,
    /// Closes the review without changing anything (Cancel, Escape).
    on_cancel: Callback<()>,
}

/// The review of a plan: its files, its diff, and Confirm (on a live folder), the script, or
/// Cancel. A modal dialog for the keyboard ([`crate::page::components::dialog::use_dialog`]): focus
/// starts on the diff, Tab stays inside, Escape cancels (not while a write is under way), and
/// focus goes back to what opened it.
#[component]
fn Review(props: &ReviewProps) -> Html {
    let on_escape = {
        let (cancel, busy) = (props.on_cancel.clone(), props.busy);
        Callback::from(move |_: ()| {
            if !busy {
                cancel.emit(());
            }
        })
    };
    let dialog = crate::page::components::dialog::use_dialog(on_escape);
    let plan = &props.plan;
    let can_write = props.can_write;
    let download = {
        let script = props.script.clone();
        Callback::from(move |_: MouseEvent| {
            if let Err(error) = save_script(&script) {
                with_store(|s| {
                    s.folded = false;
                    s.message = Some((
                        true,
                        format!(
                            "The script could not be saved: {}",
                            browser::js_message(&error)
                        ),
                    ))
                });
            }
        })
    };
    let cancel = {
        let cancel = props.on_cancel.clone();
        Callback::from(move |_: MouseEvent| cancel.emit(()))
    };
    html! {
        <div class="modal-backdrop">
        <div class="modal cleanup-review" role="dialog" aria-modal="true" aria-labelledby="cleanup-title" data-testid="cleanup-review"
            ref={dialog.node.clone()} onkeydown={dialog.onkeydown.clone()}>
            <h3 id="cleanup-title">{ plan.title.clone() }</h3>
            <ul class="small">
                { for plan.changes.iter().map(|c| html! { <li><code>{ c.path.clone() }</code>{ format!(": {}", c.summary) }</li> }) }
            </ul>
            { for plan.notes.iter().map(|n| html! { <p class="warn small" data-testid="cleanup-note">{ n.clone() }</p> }) }
            <pre class="cleanup-diff" data-testid="cleanup-diff" tabindex="0" aria-label="The changes as a diff">{ diff_lines(&props.diff) }</pre>
            <p class="small muted">
                if can_write {
                    { "Only the files listed are touched. Each is read again first and right before it is written; if one changed since the page read it, nothing is changed, and a step that fails puts back the ones before it. Before the first write, a copy of every file listed is kept in this browser's own storage for this page (Backups, in the Health view), to restore also after a reload." }
                } else {
                    { "This source cannot be written from the page. The script makes the same changes: it checks every file first and changes nothing if one differs, and first copies every file it changes to ~/.memdiag-backup/<time>/ (the files' full paths below it)." }
                }
            </p>
            <p class="small muted" data-testid="cleanup-script-os">
                { "The script is POSIX sh, for macOS and Linux; it does not run in PowerShell or cmd. On Windows it needs a POSIX shell that takes C:/… paths, such as Git Bash (not WSL, whose paths are /mnt/c/…)." }
            </p>
            <div class="actions">
                if can_write {
                    <button class="primary" data-testid="cleanup-confirm" disabled={props.busy} onclick={props.on_confirm.clone()}>
                        { format!("Make {} change{}", plan.changes.len(), if plan.changes.len() == 1 { "" } else { "s" }) }
                    </button>
                }
                <button class={classes!((!can_write).then_some("primary"))} data-testid="cleanup-script" onclick={download}>
                    { "Download as a shell script" }
                </button>
                <button data-testid="cleanup-cancel" onclick={cancel}>{ "Cancel" }</button>
            </div>
        </div>
        </div>
    }
}

/// A plan's title with each of its files named by its file name only (the full title shows
/// on hover): what the message and the undo list, kept in a corner, have room for.
fn short_title(plan: &Plan) -> String {
    let mut paths: Vec<&str> = plan.changes.iter().map(|c| c.path.as_str()).collect();
    crate::sort_by(&mut paths, |a, b| b.len().cmp(&a.len()));
    let mut title = plan.title.clone();
    for path in paths {
        title = title.replace(path, path.rsplit('/').next().unwrap_or(path));
    }
    title
}

/// A diff's lines, each in a span marked as added, removed, a hunk header or context (text
/// nodes only: the lines are the person's text).
fn diff_lines(diff: &str) -> Html {
    html! {
        { for diff.split_inclusive('\n').map(|line| {
            let class = if line.starts_with("+++") || line.starts_with("---") {
                "diff-file"
            } else if line.starts_with('+') {
                "diff-add"
            } else if line.starts_with('-') {
                "diff-del"
            } else if line.starts_with("@@") {
                "diff-hunk"
            } else {
                "diff-context"
            };
            html! { <span class={class}>{ line.to_owned() }</span> }
        }) }
    }
}

/// How often watch mode re-reads live folders, in milliseconds.
const WATCH_EVERY_MS: u64 = 4000;

/// What changed between two reports of the same sources and fields: rows added, removed, and
/// rows whose file changed size, each by path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowChanges {
    /// Rows of the newer report only.
    pub added: Vec<String>,
    /// Rows of the older report only.
    pub removed: Vec<String>,
    /// Rows of both whose file's size or loaded size differs.
    pub changed: Vec<String>,
}

/// What a change of a row shows in: its size on disk and what loads.
type RowKey = (Option<u64>, Option<u64>);

/// The rows of a report by path, sorted, with what a change shows in; a path listed twice
/// counts once, with its last row. A sorted list rather than a map: the page's wasm then
/// holds no map of this type and no sort of its own for it.
fn row_keys(report: &memdiag_core::report::Report) -> Vec<(&str, RowKey)> {
    let mut rows: Vec<(&str, RowKey)> = report
        .files
        .iter()
        .map(|r| (r.path.as_str(), (r.size, r.loaded.map(|m| m.utf16))))
        .collect();
    // Stable: of a path's rows, the last stays last.
    crate::sort_by(&mut rows, |a, b| a.0.cmp(b.0));
    let mut unique: Vec<(&str, RowKey)> = Vec::with_capacity(rows.len());
    for row in rows {
        match unique.last_mut() {
            Some(last) if last.0 == row.0 => *last = row,
            _ => unique.push(row),
        }
    }
    unique
}

/// The key of `path` in `rows` (from [`row_keys`]).
fn key_of(rows: &[(&str, RowKey)], path: &str) -> Option<RowKey> {
    rows.binary_search_by(|row| row.0.cmp(path))
        .ok()
        .map(|at| rows[at].1)
}

/// Compares the rows of two reports; each list is in path order.
pub fn row_changes(
    before: &memdiag_core::report::Report,
    after: &memdiag_core::report::Report,
) -> RowChanges {
    let (old, new) = (row_keys(before), row_keys(after));
    let mut changes = RowChanges::default();
    for &(path, value) in &new {
        match key_of(&old, path) {
            None => changes.added.push(path.to_owned()),
            Some(previous) if previous != value => changes.changed.push(path.to_owned()),
            Some(_) => {}
        }
    }
    changes.removed = old
        .iter()
        .filter(|(path, _)| key_of(&new, path).is_none())
        .map(|(path, _)| (*path).to_owned())
        .collect();
    changes
}

/// Watch mode for live folders (re-read every few seconds while the tab is visible), and
/// what the last scan changed compared with the one before it, when both read the same
/// sources with the same fields.
#[component]
pub fn ScanWatch() -> Html {
    let page = use_context::<Page>().expect("inside the page");
    let watching = use_state(|| false);
    let previous = use_mut_ref(|| None::<(String, Shared<memdiag_core::report::Report>)>);
    let changes = use_state(|| None::<RowChanges>);
    let state = &page.state;
    // The fields and the sources, as one text (joined rather than Debug-formatted, which
    // would bring the formatting machinery into the page's wasm for this one key).
    let inputs = &state.sources.inputs;
    let mut key = [
        inputs.home.as_str(),
        &inputs.project,
        &inputs.config_dir,
        inputs.project_mount.as_deref().unwrap_or("\u{1}"),
        inputs.version.as_deref().unwrap_or("\u{1}"),
        &inputs.add_dirs,
        match inputs.os {
            memdiag_core::report::Os::Linux => "l",
            memdiag_core::report::Os::Macos => "m",
            memdiag_core::report::Os::Windows => "w",
        },
    ]
    .join("\0");
    for read in &inputs.reads {
        key.push('\0');
        key.push_str(read);
    }
    for info in &state.sources.infos {
        key.push('\u{2}');
        key.push_str(&info.label);
        key.push('\0');
        key.push_str(info.kind);
        key.push('\0');
        key.push_str(info.role);
    }
    {
        let changes = changes.clone();
        let previous = previous.clone();
        use_effect_with(
            (state.loaded.report.clone(), key.clone()),
            move |(report, key)| {
                if let Some(report) = report {
                    let mut slot = previous.borrow_mut();
                    match slot.as_ref() {
                        Some((was_key, was)) if was_key == key && was != report => {
                            changes.set(Some(row_changes(was, report)));
                        }
                        Some((was_key, _)) if was_key == key => {}
                        // The sources changed and the report shown is still the old one
                        // (the demo's, say): it is no "last scan" of the new sources.
                        Some((_, was)) if was == report => {
                            changes.set(None);
                            *slot = None;
                            return;
                        }
                        _ => changes.set(None),
                    }
                    *slot = Some((key.clone(), report.clone()));
                }
            },
        );
    }
    let live_sources = cleanups::any_live(&page.engine);
    {
        let engine = page.engine.clone();
        let inputs = state.sources.inputs.clone();
        use_effect_with((*watching && live_sources, inputs), move |(on, inputs)| {
            let alive = Rc::new(std::cell::Cell::new(*on));
            if *on {
                let (alive, engine, inputs) = (alive.clone(), engine.clone(), inputs.clone());
                spawn_local(async move {
                    loop {
                        yew::platform::time::sleep(std::time::Duration::from_millis(
                            WATCH_EVERY_MS,
                        ))
                        .await;
                        if !alive.get() {
                            break;
                        }
                        let document = browser::document();
                        let visible =
                            document.visibility_state() == web_sys::VisibilityState::Visible;
                        let busy = document
                            .query_selector("[data-testid=app]")
                            .ok()
                            .flatten()
                            .and_then(|app| app.get_attribute("data-busy"))
                            .is_some_and(|b| b == "true");
                        if visible && !busy {
                            engine.refresh(inputs.clone(), None);
                        }
                    }
                });
            }
            move || alive.set(false)
        });
    }
    if !live_sources && changes.is_none() {
        return Html::default();
    }
    let toggle = {
        let watching = watching.clone();
        Callback::from(move |e: Event| {
            watching.set(e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };
    let name = |p: &String| p.rsplit('/').next().unwrap_or(p).to_owned();
    let summary = changes.as_ref().map(|c| {
        if c.added.is_empty() && c.removed.is_empty() && c.changed.is_empty() {
            "Since the last scan: nothing changed.".to_owned()
        } else {
            let part = |what: &str, list: &[String]| {
                (!list.is_empty()).then(|| {
                    let names: Vec<String> = list.iter().take(5).map(name).collect();
                    let more = if list.len() > 5 {
                        format!(" and {} more", list.len() - 5)
                    } else {
                        String::new()
                    };
                    format!("{} {what} ({}{more})", list.len(), names.join(", "))
                })
            };
            let parts: Vec<String> = [
                part("added", &c.added),
                part("removed", &c.removed),
                part("changed", &c.changed),
            ]
            .into_iter()
            .flatten()
            .collect();
            format!("Since the last scan: {}.", parts.join(", "))
        }
    });
    html! {
        <div class="scan-watch small" data-testid="scan-watch">
            if live_sources {
                <label title="Re-reads the live folders every few seconds while this tab is visible">
                    <input type="checkbox" data-testid="watch" checked={*watching} onchange={toggle} />
                    { " Watch for changes" }
                </label>
            }
            if let Some(summary) = summary {
                <span class="muted" data-testid="scan-changes" role="status">{ summary }</span>
            }
        </div>
    }
}

/// Saves a plan's script (`Plan::script`, made where it was planned) as `memdiag-cleanup.sh`.
fn save_script(script: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(script));
    let options = BlobPropertyBag::new();
    options.set_type("text/x-shellscript");
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    browser::save_blob(&blob, "memdiag-cleanup.sh")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use memdiag_core::report::{FileRow, Group, LoadType, Measure, Report};

    use super::{row_changes, RowChanges};
    use crate::page::state::tests::{report, row};

    /// The comparison as it was made with maps: the reference the sorted lists must match.
    fn by_maps(before: &Report, after: &Report) -> RowChanges {
        let keys = |report: &Report| -> BTreeMap<String, (Option<u64>, Option<u64>)> {
            report
                .files
                .iter()
                .map(|r| (r.path.clone(), (r.size, r.loaded.map(|m| m.utf16))))
                .collect()
        };
        let (old, new) = (keys(before), keys(after));
        let mut changes = RowChanges::default();
        for (path, value) in &new {
            match old.get(path) {
                None => changes.added.push(path.clone()),
                Some(previous) if previous != value => changes.changed.push(path.clone()),
                Some(_) => {}
            }
        }
        changes.removed = old
            .keys()
            .filter(|p| !new.contains_key(*p))
            .cloned()
            .collect();
        changes
    }

    /// Rows from a fixed generator: few paths, so that reports share, repeat and drop them.
    fn rows(seed: &mut u64, count: usize) -> Vec<FileRow> {
        (0..count)
            .map(|_| {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let n = *seed >> 33;
                let mut file = row(
                    &format!("/p/{}.md", n % 9),
                    Group::Project,
                    LoadType::Always,
                    None,
                );
                file.size = (!n.is_multiple_of(3)).then_some(n % 4);
                file.loaded = (!n.is_multiple_of(5)).then(|| Measure {
                    utf16: n % 2,
                    ..Measure::default()
                });
                file
            })
            .collect()
    }

    #[test]
    fn row_changes_match_the_comparison_by_maps() {
        let mut seed = 7;
        for _ in 0..2_000 {
            let (a, b) = (rows(&mut seed, 6), rows(&mut seed, 6));
            let (before, after) = (report(a), report(b));
            assert_eq!(row_changes(&before, &after), by_maps(&before, &after));
        }
        let one = report(rows(&mut seed, 4));
        assert_eq!(row_changes(&one, &one), RowChanges::default());
    }
}
