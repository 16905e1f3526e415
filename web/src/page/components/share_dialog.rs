//! The Share dialog: the sanitizing options, a preview of what will be shared, and the two
//! outputs (a link and a zip).
//!
//! The dialog is modal: focus starts on its first option, Tab and Shift+Tab stay inside it,
//! and Escape, the Close button or a click beside it close it. Every option change makes the
//! shared snapshot again; until it is ready the outputs are disabled, so that a link made
//! with the previous options can never be copied by mistake.

use memdiag_core::report::Report;
use memdiag_core::{Input, SanitizeOptions, Tree};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::platform::spawn_local;
use yew::{
    classes, component, html, use_effect_with, use_node_ref, use_state, Callback, Event, Html,
    MouseEvent, Properties, TargetCast,
};

use crate::page::share::{self, Prepared, LINK_WARN_CHARS};
use crate::page::state::{grouped, human_bytes, Shared};

/// Props of [`ShareDialog`].
#[derive(Properties, PartialEq)]
pub struct ShareDialogProps {
    /// The report shown.
    pub report: Shared<Report>,
    /// The tree it was made from, with the contents the analysis read.
    pub tree: Shared<Tree>,
    /// The input it was made with.
    pub input: Shared<Input>,
    /// When the snapshot is made (ISO 8601), fixed while the dialog is open.
    pub made: String,
    /// The address links are built on; the page's own (without query and fragment) when
    /// `None`.
    #[prop_or_default]
    pub base_url: Option<String>,
    /// Closes the dialog.
    pub on_close: Callback<()>,
    /// The run whose analysis the analysis worker holds, which sanitizes it (the page's
    /// engine keeps it); `None` sanitizes in place (the component tests, which have no
    /// worker).
    #[prop_or_default]
    pub job: Option<u64>,
}

/// What the Copy button last did.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Copied {
    Not,
    Done,
    Failed(String),
}

/// Which option a checkbox sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Choice {
    FileNames,
    UserName,
    Text,
    OtherProjects,
}

/// Everything a shared copy is made from: a copy made from other values is stale.
type Basis = (
    SanitizeOptions,
    Shared<Report>,
    Shared<Tree>,
    Shared<Input>,
    String,
);

/// The Share dialog.
#[component]
pub fn ShareDialog(props: &ShareDialogProps) -> Html {
    let options = use_state(SanitizeOptions::default);
    let prepared = use_state(|| None::<(Basis, Shared<Prepared>)>);
    let copied = use_state(|| Copied::Not);
    let failure = use_state(|| None::<String>);
    let link_ref = use_node_ref();

    // Focus starts on the first option, stays inside, Escape closes, and focus goes back to
    // the Share button: the page's one dialog hook.
    let dialog = crate::page::components::dialog::use_dialog(props.on_close.clone());
    // Make the shared copy again whenever an option (or what is shared) changes. It runs after
    // a turn of the event loop, so the dialog shows "Preparing…" first.
    let basis: Basis = (
        *options,
        props.report.clone(),
        props.tree.clone(),
        props.input.clone(),
        props.made.clone(),
    );
    {
        let prepared = prepared.clone();
        let copied = copied.clone();
        let base_url = props.base_url.clone();
        let remote =
            yew::use_context::<crate::Page>().and_then(|page| page.engine.remote(props.job));
        let failure = failure.clone();
        use_effect_with(basis.clone(), move |basis| {
            let basis = basis.clone();
            copied.set(Copied::Not);
            spawn_local(async move {
                crate::page::browser::yield_now().await;
                let base = base_url.unwrap_or_else(share::page_base_url);
                let (options, report, tree, input, made) = &basis;
                let made_copy =
                    share::prepare(remote.as_ref(), tree, input, report, *options, made, &base)
                        .await;
                match made_copy {
                    Ok(copy) => prepared.set(Some((basis, Shared::new(copy)))),
                    Err(message) => failure.set(Some(message)),
                }
            });
        });
    }

    // Only a copy of what the dialog shows now: never a link made with the options before.
    let ready = prepared
        .as_ref()
        .filter(|(made_from, _)| *made_from == basis)
        .map(|(_, copy)| copy.clone());
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    let toggle = |choice: Choice| {
        let options = options.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let mut next = *options;
            match choice {
                Choice::FileNames => next.keep_file_names = input.checked(),
                Choice::UserName => next.keep_user_name = input.checked(),
                Choice::Text => next.keep_text = input.checked(),
                Choice::OtherProjects => next.other_projects = input.checked(),
            }
            options.set(next);
        })
    };
    let on_copy = {
        let copied = copied.clone();
        let link_ref = link_ref.clone();
        let link = ready.as_ref().map(|p| p.link.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(link) = link.clone() else { return };
            let copied = copied.clone();
            let link_ref = link_ref.clone();
            spawn_local(async move {
                match crate::page::browser::copy_text(&link).await {
                    Ok(()) => copied.set(Copied::Done),
                    Err(why) => {
                        // Without a clipboard, the selected text is one key press away.
                        if let Some(area) = link_ref.cast::<HtmlTextAreaElement>() {
                            let _ = area.focus();
                            area.select();
                        }
                        copied.set(Copied::Failed(why));
                    }
                }
            });
        })
    };
    let download = |report: bool| {
        let ready = ready.clone();
        let made = props.made.clone();
        let failure = failure.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(prepared) = &ready {
                match share::download_zip(prepared, &made, report) {
                    Ok(()) => failure.set(None),
                    Err(e) => failure.set(Some(format!(
                        "Could not save the file: {}",
                        crate::page::browser::js_message(&e)
                    ))),
                }
            }
        })
    };
    let select_link = Callback::from(|event: MouseEvent| {
        let area: HtmlTextAreaElement = event.target_unchecked_into();
        area.select();
    });

    let home = props.input.home.clone();
    let shared_home = ready
        .as_ref()
        .map(|p| p.shared_home.clone())
        .unwrap_or_else(|| "a made-up name".to_owned());
    let option = |choice: Choice,
                  checked: bool,
                  id: &'static str,
                  label: &'static str,
                  hint: String| {
        html! {
            <div class={classes!("share-option", (choice == Choice::Text && checked).then_some("risky"))}>
                <input type="checkbox" id={format!("share-{id}")} data-testid={format!("share-{id}")}
                    checked={checked} onchange={toggle(choice)}
                    aria-describedby={format!("share-{id}-hint")} />
                <label for={format!("share-{id}")}>
                    <span class="share-option-label">{ label }</span>
                    <span class="share-option-hint muted small" id={format!("share-{id}-hint")}>{ hint }</span>
                </label>
            </div>
        }
    };
    let made_label = share::made_label(&props.made);
    let zip_name = share::zip_name(&props.made);
    let link_refusal = ready.as_ref().and_then(|p| p.link_refusal.clone());
    let zip_refusal = ready.as_ref().and_then(|p| p.zip_refusal.clone());
    let too_long = ready.as_ref().is_some_and(|p| p.link_too_long()) || link_refusal.is_some();

    html! {
        <div class="modal-backdrop share-backdrop" onclick={close.clone()}>
            <div class="modal share-dialog" role="dialog" aria-modal="true"
                aria-labelledby="share-title" aria-describedby="share-about"
                data-testid="share-dialog" data-ready={ready.is_some().to_string()}
                ref={dialog.node.clone()} onkeydown={dialog.onkeydown.clone()}
                onclick={Callback::from(|e: MouseEvent| e.stop_propagation())}>
                <h2 id="share-title">{ "Share a read-only report" }</h2>
                <p id="share-about" class="muted small">
                    { "Whoever opens the link or the file sees this tree, every figure and every finding, read-only. " }
                    { "It is made from a sanitized copy of the files the report lists, nothing else; nothing is uploaded, and a link carries the copy in its #fragment, which browsers never send to a server." }
                </p>
                <div class="share-body">
                    <div class="share-main">
                        <fieldset class="share-options">
                            <legend>{ "What the copy keeps" }</legend>
                            { option(Choice::FileNames, options.keep_file_names, "keep-file-names", "Keep folder and file names",
                                if options.keep_file_names {
                                    "On: names stay as they are, except your user name (next option); the names the copy shows are listed below. Off: each becomes a short made-up counter that carries only where the name sorts (not its length or its letters; a name of one or two letters may keep its length), except well-known ones such as CLAUDE.md, MEMORY.md, rules and skills.".to_owned()
                                } else {
                                    "Off: each name becomes a short made-up counter that carries only where the name sorts (not its length or its letters; a name of one or two letters may keep its length), except well-known ones such as CLAUDE.md, MEMORY.md, rules and skills.".to_owned()
                                }) }
                            { option(Choice::UserName, options.keep_user_name, "keep-user-name", "Keep my user name",
                                if options.keep_user_name {
                                    format!("On: {home} is shared as it is.")
                                } else {
                                    format!("Off: {home} is shared as {shared_home}.")
                                }) }
                            { option(Choice::Text, options.keep_text, "keep-text", "Keep the text of the files",
                                if options.keep_text {
                                    "On: the files go as you wrote them; only the paths and names in them follow the options above.".to_owned()
                                } else {
                                    "Off: every letter becomes x and every digit 0, so lengths, lines, headings and the cut stay, and no word does.".to_owned()
                                }) }
                            { option(Choice::OtherProjects, options.other_projects, "other-projects", "Include other projects' memory folders",
                                if options.other_projects {
                                    "On: the memory folders of your other projects go too, as counts only: their files by size, never their text, and their names as the options above say.".to_owned()
                                } else {
                                    "Off: only this project's memory folder goes (and any folder a finding is about); the others are left out of the copy.".to_owned()
                                }) }
                            if let Some(names) = ready.as_ref().map(|p| &p.visible_names).filter(|n| options.keep_file_names && !n.is_empty()) {
                                <div class="share-warning small" data-testid="share-visible-names">
                                    <strong>{ format!("{} names will be visible as you wrote them: ", grouped(names.len() as u64)) }</strong>
                                    <span>{ names.iter().take(40).cloned().collect::<Vec<_>>().join(", ") }</span>
                                    if names.len() > 40 { <span>{ format!(" and {} more", grouped(names.len() as u64 - 40)) }</span> }
                                </div>
                            }
                            if options.keep_text {
                                <p class="share-warning" role="alert" data-testid="share-text-warning">
                                    <strong>{ "The contents of your files will be shared. " }</strong>
                                    { "Every CLAUDE.md, rule, skill and memory file listed on the right goes into the link and the file word for word, and anyone who gets either can read it. Keep this off unless the reader must see the words." }
                                </p>
                            }
                        </fieldset>

                        <section class="share-output" aria-labelledby="share-link-title">
                            <h3 id="share-link-title">{ "Link" }</h3>
                            <textarea ref={link_ref} class="share-link" readonly=true rows="3" spellcheck="false"
                                aria-labelledby="share-link-title" data-testid="share-link"
                                value={ready.as_ref().map(|p| p.link.clone()).unwrap_or_default()}
                                placeholder="Preparing…" onclick={select_link} />
                            <div class="share-link-row">
                                <button class={classes!((!too_long).then_some("primary"))} onclick={on_copy}
                                    disabled={ready.is_none() || link_refusal.is_some()} data-testid="share-copy">{ "Copy link" }</button>
                                <span class="muted small" data-testid="share-link-length"
                                    data-length={ready.as_ref().map(|p| p.link.len().to_string())}>
                                    { ready.as_ref().map(|p| format!("{} characters", grouped(p.link.len() as u64))).unwrap_or_default() }
                                </span>
                                <span class="share-copied small" aria-live="polite" data-testid="share-copied">
                                    { match &*copied {
                                        Copied::Not => String::new(),
                                        Copied::Done => "Copied.".to_owned(),
                                        Copied::Failed(why) => format!("Could not copy ({why}): the link is selected, press Ctrl+C (⌘C on a Mac)."),
                                    } }
                                </span>
                            </div>
                            if let Some(why) = &link_refusal {
                                <p class="share-warning" role="alert" data-testid="share-link-refused">
                                    { format!("This copy cannot go as a link: the page that opens it would refuse it ({why}).") }
                                    if zip_refusal.is_none() { { " Send the file below instead." } }
                                </p>
                            } else if too_long {
                                <p class="share-warning" data-testid="share-link-warning">
                                    { format!("This link is {} characters. Chat tools and issue trackers often cut links longer than about {} KB, and a cut link does not open: send the file below instead.",
                                        grouped(ready.as_ref().map_or(0, |p| p.link.len() as u64)), LINK_WARN_CHARS / 1024) }
                                </p>
                            }
                        </section>

                        <section class="share-output" aria-labelledby="share-file-title">
                            <h3 id="share-file-title">{ "File" }</h3>
                            <p class="muted small">{ "The same copy as a .zip: whoever gets it opens it on this page with Open zip, or drops it on the page." }</p>
                            if let Some(why) = &zip_refusal {
                                <p class="share-warning" role="alert" data-testid="share-zip-refused">
                                    { format!("This copy cannot be shared: the page that opens it would refuse it ({why}).") }
                                </p>
                            }
                            <button class={classes!(too_long.then_some("primary"))} onclick={download(false)}
                                disabled={ready.is_none() || zip_refusal.is_some()} data-testid="share-download">
                                { format!("Download {zip_name}") }
                            </button>
                            // The report alone, as whoever opens the copy sees it: the other
                            // choice to the header's Download JSON, which holds your names.
                            <button onclick={download(true)} disabled={ready.as_ref().is_none_or(|p| p.report_json.is_empty())}
                                data-testid="share-download-report">
                                { "Download sanitized report (JSON)" }
                            </button>
                            if let Some(why) = &*failure {
                                <p class="error-text small" role="alert">{ why.clone() }</p>
                            }
                        </section>
                    </div>
                    { preview(ready.as_ref(), &made_label) }
                </div>
                <div class="modal-actions">
                    <button onclick={close} data-testid="share-close">{ "Close" }</button>
                </div>
            </div>
        </div>
    }
}

/// The right-hand column: what the copy holds, and whether it analyses to the same report.
fn preview(prepared: Option<&Shared<Prepared>>, made: &str) -> Html {
    let Some(prepared) = prepared else {
        return html! {
            <section class="share-preview" aria-labelledby="share-preview-title" aria-busy="true" data-testid="share-preview">
                <h3 id="share-preview-title">{ "What will be shared" }</h3>
                <p class="muted"><span class="spinner" aria-hidden="true"></span>{ " Preparing the sanitized copy…" }</p>
            </section>
        };
    };
    let count = prepared.files.len();
    let carried = prepared.files.iter().filter(|f| f.carried).count();
    let home = prepared.shared_home.trim_end_matches('/').to_owned();
    let shown = |path: &str| match path
        .strip_prefix(home.as_str())
        .and_then(|rest| rest.strip_prefix('/'))
    {
        Some(rest) if !home.is_empty() => format!("~/{rest}"),
        _ => path.to_owned(),
    };
    html! {
        <section class="share-preview" aria-labelledby="share-preview-title" data-testid="share-preview">
            <h3 id="share-preview-title">{ "What will be shared" }</h3>
            <p class="share-count" data-testid="share-count" data-count={count.to_string()}>
                <strong>{ format!("{} file{}", grouped(count as u64), if count == 1 { "" } else { "s" }) }</strong>
                { format!(" · {} · made {made}", human_bytes(prepared.total_bytes)) }
                <br />
                <span class="muted small">
                    { format!("{} with their text (as the options say), {} by size only. Home is {}.", grouped(carried as u64), grouped((count - carried) as u64), prepared.shared_home) }
                </span>
            </p>
            if prepared.differences.is_empty() {
                <p class="share-verified small" data-testid="share-verified">
                    { "✓ Checked: analysed on its own, the copy gives this report (same files, figures and findings)." }
                </p>
            } else {
                <div class="share-warning small" data-testid="share-differences">
                    <strong>{ "The shared report would differ from this one:" }</strong>
                    <ul>{ for prepared.differences.iter().take(8).map(|d| html! { <li>{ d.clone() }</li> }) }</ul>
                </div>
            }
            if !prepared.warnings().is_empty() {
                <ul class="share-warnings small" data-testid="share-warnings">
                    { for prepared.warnings().iter().map(|w| html! { <li>{ w.clone() }</li> }) }
                </ul>
            }
            <ul class="share-files" data-testid="share-files" aria-label="Files in the shared copy" tabindex="0">
                { for prepared.files.iter().map(|file| html! {
                    <li key={file.path.clone()} data-testid="share-file" data-path={file.path.clone()}
                        data-size={file.size.to_string()} data-carried={file.carried.to_string()}>
                        <code class="share-path" title={file.original.as_ref().map(|o| format!("{} (yours: {o})", file.path)).unwrap_or_else(|| file.path.clone())}>
                            { shown(&file.path) }
                        </code>
                        if !file.carried {
                            <span class="badge" title="Only its size is shared: the report never reads it">{ "size only" }</span>
                        }
                        <span class="size">{ human_bytes(file.size) }</span>
                    </li>
                }) }
            </ul>
        </section>
    }
}
