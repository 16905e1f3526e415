//! The editable host facts: home, project, OS, the simulated Claude Code version and the
//! config dir, with the sources beside them.

use memdiag_core::report::Os;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::{component, html, Callback, Event, Html, Properties, TargetCast};

use crate::state::{version_choices, Inputs, SourceInfo};

/// Props of [`ContextBar`].
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
}

/// The bar of inferred, editable values.
///
/// Read-only, the fields show the shared snapshot's facts and cannot change; the version
/// select stays, so a reader can see what another Claude Code release would make of the same
/// snapshot.
#[component]
pub fn ContextBar(props: &ContextBarProps) -> Html {
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
    // Each choice is the release just before a rule change; the value is that release.
    let choices = version_choices();
    let on_version = {
        let on_change = props.on_change.clone();
        let inputs = inputs.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            let mut next = inputs.clone();
            next.version = Some(select.value()).filter(|v| !v.is_empty() && v != "current");
            on_change.emit(next);
        })
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
            <label class="field field-version" title={if read_only {
                "Apply the loading rules of an older Claude Code release to the shared snapshot. It holds the files the sender's version loads, so a file only an older release would load is not in it."
            } else {
                "Apply the loading rules of an older Claude Code release"
            }}>
                <span class="field-label">{ "Claude Code version" }</span>
                <select data-testid="input-version" onchange={on_version}>
                    { for choices.iter().map(|choice| {
                        let value = choice.version.clone().unwrap_or_else(|| "current".to_owned());
                        let selected = choice.version == inputs.version;
                        html! {
                            <option key={value.clone()} value={value.clone()} selected={selected} title={choice.label.clone()}>
                                { choice.label.clone() }
                            </option>
                        }
                    }) }
                </select>
            </label>
            { text_field("Config dir", "config", inputs.config_dir.clone(), "<home>/.claude", |i, v| i.config_dir = v) }
            <ul class="sources" aria-label="Sources" data-testid="sources">
                { for props.sources.iter().map(|s| html! {
                    <li class={format!("source {}", s.role)} title={format!("{} {} files{}", s.kind, s.files, if s.rereadable { "" } else { " · cannot be re-read" })}
                        data-role={s.role} data-files={s.files.to_string()}>
                        <span class="source-kind">{ s.role }</span>{ s.label.clone() }
                    </li>
                }) }
            </ul>
        </section>
    }
}
