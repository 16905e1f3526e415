//! The editable host facts: home, project, OS, the simulated Claude Code version and the
//! config dir, with the sources beside them.

use memdiag_core::report::Os;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::{component, html, use_state, Callback, Event, Html, Properties, TargetCast};

use crate::page::state::{check_release, release_suggestions, Inputs, SourceInfo};

/// Props of [`context_bar`].
#[derive(Properties, PartialEq)]
pub struct ContextBarProps {
    /// The fields.
    pub inputs: Inputs,
    /// The sources of the snapshot.
    pub sources: Vec<SourceInfo>,
    /// A field changed (on commit: Enter or leaving the field).
    pub on_change: Callback<Inputs>,
    /// The project field changed.
    pub on_project: Callback<String>,
    /// Opens the project picker.
    pub on_pick: Callback<()>,
    /// A shared snapshot is shown: its host facts are fixed (they are what it was shared
    /// with), and only the simulated version can change.
    #[prop_or_default]
    pub read_only: bool,
    /// Removes the source at this index; no remove buttons without it.
    #[prop_or_default]
    pub on_remove: Option<Callback<usize>>,
}

/// The bar of inferred, editable values.
///
/// Read-only, the fields show the shared snapshot's facts and cannot change; the version
/// select stays, so a reader can see what another Claude Code release would make of the same
/// snapshot.
pub fn context_bar(props: &ContextBarProps) -> Html {
    let inputs = props.inputs.clone();
    let read_only = props.read_only;
    let text_field = |label: &'static str,
                      id: &'static str,
                      value: String,
                      hint: &'static str,
                      apply: fn(&mut Inputs, String)| {
        let on_change = props.on_change.clone();
        let inputs = inputs.clone();
        let onchange = Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let mut next = inputs.clone();
            apply(&mut next, input.value());
            on_change.emit(next);
        });
        html! {
            <label class={format!("field field-{id}")}>
                <span class="field-label">{ label }</span>
                <input type="text" spellcheck="false" value={value} placeholder={hint}
                    readonly={read_only} data-testid={format!("input-{id}")} onchange={onchange} />
            </label>
        }
    };
    let on_project = {
        let on_project = props.on_project.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            on_project.emit(input.value());
        })
    };
    let on_os = {
        let on_change = props.on_change.clone();
        let inputs = inputs.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            let mut next = inputs.clone();
            next.os = match select.value().as_str() {
                "macos" => Os::Macos,
                "windows" => Os::Windows,
                _ => Os::Linux,
            };
            on_change.emit(next);
        })
    };
    let os = match inputs.os {
        Os::Linux => "linux",
        Os::Macos => "macos",
        Os::Windows => "windows",
    };
    let on_pick = {
        let on_pick = props.on_pick.clone();
        Callback::from(move |_| on_pick.emit(()))
    };
    html! {
        <section class="context-bar" aria-label="Where the files came from">
            { text_field("Home", "home", inputs.home.clone(), "/home/you", |i, v| i.home = v) }
            <label class="field field-project">
                <span class="field-label">{ "Project" }</span>
                <input type="text" spellcheck="false" value={inputs.project.clone()}
                    placeholder="none: user-level files only" readonly={read_only}
                    data-testid="input-project" onchange={on_project} />
            </label>
            if !read_only {
                <button class="pick" onclick={on_pick} title="Pick a project (Shift+P)" data-testid="open-picker">
                    { "Pick project…" }<kbd>{ "⇧P" }</kbd>
                </button>
            }
            <label class="field field-os">
                <span class="field-label">{ "OS" }</span>
                <select data-testid="input-os" onchange={on_os} disabled={read_only}>
                    <option value="linux" selected={os == "linux"}>{ "Linux" }</option>
                    <option value="macos" selected={os == "macos"}>{ "macOS" }</option>
                    <option value="windows" selected={os == "windows"}>{ "Windows" }</option>
                </select>
            </label>
            <VersionField version={inputs.version.clone()} read_only={read_only} on_change={
                let on_change = props.on_change.clone();
                let inputs = inputs.clone();
                Callback::from(move |version: Option<String>| {
                    let mut next = inputs.clone();
                    next.version = version;
                    on_change.emit(next);
                })
            } />
            { text_field("Config dir", "config", inputs.config_dir.clone(), "<home>/.claude", |i, v| i.config_dir = v) }
            // A folder added (dropped or chosen) is in the tree under its path: naming it here
            // loads it as `claude --add-dir` does.
            { text_field("Extra dirs (--add-dir)", "add-dirs", inputs.add_dirs.clone(), "none", |i, v| i.add_dirs = v) }
            <ul class="sources" aria-label="Sources" data-testid="sources">
                { for props.sources.iter().enumerate().map(|(index, s)| html! {
                    <li class={format!("source {}", s.role)} title={format!("{} {} files{}", s.kind, s.files, if s.rereadable { "" } else { " · cannot be re-read" })}
                        data-role={s.role} data-files={s.files.to_string()} data-testid="source">
                        <span class="source-kind">{ s.role }</span>{ s.label.clone() }
                        if let Some(on_remove) = props.on_remove.clone().filter(|_| !read_only) {
                            <button class="linkish source-remove" data-testid="remove-source"
                                aria-label={format!("Remove {}", s.label)} title={format!("Remove {} from the page", s.label)}
                                onclick={Callback::from(move |_| on_remove.emit(index))}>{ "×" }</button>
                        }
                    </li>
                }) }
            </ul>
        </section>
    }
}

/// Props of [`VersionField`].
#[derive(Properties, PartialEq)]
pub struct VersionFieldProps {
    /// The release simulated, or `None` for the pinned one.
    pub version: Option<String>,
    /// A shared snapshot is shown (the field stays editable; only its hint differs).
    pub read_only: bool,
    /// A valid release was committed (Enter, leaving the field, or a suggestion picked).
    pub on_change: Callback<Option<String>>,
}

/// The Claude Code release to simulate: any release number, typed, with the published
/// releases the core can simulate as suggestions. Typing runs nothing; committing a number
/// the core cannot simulate says why beside the field and keeps the report as it is.
#[component]
pub fn VersionField(props: &VersionFieldProps) -> Html {
    // What was typed and why it cannot be simulated: the field keeps the text, marked.
    let error = use_state(|| None::<(String, String)>);
    let onchange = {
        let error = error.clone();
        let on_change = props.on_change.clone();
        let current = props.version.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            match check_release(&input.value()) {
                Ok(version) => {
                    error.set(None);
                    input.set_value(version.as_deref().unwrap_or(""));
                    if version != current {
                        on_change.emit(version);
                    }
                }
                Err(why) => error.set(Some((input.value(), why))),
            }
        })
    };
    let pinned = memdiag_core::PINNED.to_string();
    let hint = if props.read_only {
        "Apply the loading rules of another Claude Code release to the shared snapshot. It holds the files the sender's release loads, so a file only another release would load is not in it."
    } else {
        "Apply the loading rules of another Claude Code release: type a release number or pick one; empty means the pinned release"
    };
    html! {
        <label class="field field-version" title={hint}>
            <span class="field-label">{ "Claude Code version" }</span>
            <input type="text" inputmode="decimal" spellcheck="false" autocomplete="off"
                list="claude-releases" data-testid="input-version"
                value={match &*error {
                    Some((typed, _)) => typed.clone(),
                    None => props.version.clone().unwrap_or_default(),
                }}
                placeholder={pinned.clone()}
                aria-invalid={error.is_some().then_some("true")}
                aria-describedby={error.is_some().then_some("version-error")}
                onchange={onchange} />
            <datalist id="claude-releases" data-testid="release-suggestions">
                { for release_suggestions().into_iter().map(|v| html! { <option key={v.clone()} value={v} /> }) }
            </datalist>
            if let Some((_, why)) = &*error {
                <span class="field-error" id="version-error" role="alert" data-testid="version-error">
                    { format!("{why}. The report still simulates {}.",
                        props.version.clone().unwrap_or_else(|| format!("{pinned}, the pinned release"))) }
                </span>
            }
        </label>
    }
}
