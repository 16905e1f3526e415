//! The project picker (Shift+P): the memory folders of the snapshot and the dropped project.

use memdiag_core::report::MemoryFolder;
use web_sys::{HtmlElement, KeyboardEvent};
use yew::{component, html, use_node_ref, Callback, Html, Properties};

/// One choice of the picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The project path it analyses.
    pub path: String,
    /// What the list shows first.
    pub title: String,
    /// What it shows below.
    pub detail: String,
    /// True for the project analysed now.
    pub current: bool,
}

/// The choices: the dropped project first, then each memory folder by its decoded path.
pub fn choices(
    folders: &[MemoryFolder],
    dropped: Option<(&str, &str)>,
    current: &str,
) -> Vec<Choice> {
    let mut out = Vec::new();
    if let Some((name, path)) = dropped {
        out.push(Choice {
            path: path.to_owned(),
            title: path.to_owned(),
            detail: format!("the dropped folder {name}"),
            current: path == current,
        });
    }
    for folder in folders {
        if let Some(same) = out.iter_mut().find(|c| c.path == folder.decoded_guess) {
            // The dropped project's own memory folder: one choice with both facts.
            same.detail = format!(
                "{} · {} · {} memory files",
                same.detail, folder.name, folder.files
            );
            continue;
        }
        out.push(Choice {
            path: folder.decoded_guess.clone(),
            title: folder.decoded_guess.clone(),
            detail: format!(
                "{} · {} memory file{}",
                folder.name,
                folder.files,
                if folder.files == 1 { "" } else { "s" }
            ),
            current: folder.decoded_guess == current,
        });
    }
    out
}

/// Props of [`ProjectPicker`].
#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// What can be picked.
    pub choices: Vec<Choice>,
    /// Picks a project path.
    pub on_pick: Callback<String>,
    /// Closes without picking.
    pub on_close: Callback<()>,
}

/// A modal list of projects.
#[component]
pub fn ProjectPicker(props: &PickerProps) -> Html {
    let list_ref = use_node_ref();
    // Focus starts on the first choice (or Close when there is none), stays inside, Escape
    // closes, and focus goes back to what opened the picker.
    let dialog = crate::page::components::dialog::use_dialog(props.on_close.clone());
    let on_backdrop = {
        let on_close = props.on_close.clone();
        Callback::from(move |_| on_close.emit(()))
    };
    html! {
        <div class="modal-backdrop" onclick={on_backdrop}>
            <div class="modal" role="dialog" aria-modal="true" aria-label="Pick a project" ref={dialog.node.clone()}
                data-testid="project-picker" onkeydown={dialog.onkeydown.clone()}
                onclick={Callback::from(|e: yew::MouseEvent| e.stop_propagation())}>
                <h2>{ "Pick a project" }</h2>
                <p class="muted small">{ "Each memory folder names the path of a project Claude Code ran in. The names lose punctuation, so the paths are best guesses; edit the project field if one is off." }</p>
                if props.choices.is_empty() {
                    <p class="empty-text">{ "This snapshot has no memory folders. Drop your ~/.claude folder to see them, or a project folder to analyse it." }</p>
                }
                <ul ref={list_ref} class="choices">
                    { for props.choices.iter().map(|choice| {
                        let on_pick = props.on_pick.clone();
                        let path = choice.path.clone();
                        html! {
                            <li key={choice.path.clone()}>
                                <button class={if choice.current { "choice current" } else { "choice" }}
                                    data-testid="project-choice" data-path={choice.path.clone()}
                                    onclick={Callback::from(move |_| on_pick.emit(path.clone()))}
                                    onkeydown={Callback::from(move_focus)}>
                                    <span class="choice-title">{ choice.title.clone() }</span>
                                    <span class="choice-detail muted">{ choice.detail.clone() }</span>
                                </button>
                            </li>
                        }
                    }) }
                </ul>
                <div class="modal-actions">
                    <button data-testid="picker-close" onclick={{ let c = props.on_close.clone(); Callback::from(move |_| c.emit(())) }}>{ "Close" }</button>
                </div>
            </div>
        </div>
    }
}

/// Arrow keys move between the choices.
fn move_focus(event: KeyboardEvent) {
    use wasm_bindgen::JsCast;
    let forward = match event.key().as_str() {
        "ArrowDown" => true,
        "ArrowUp" => false,
        _ => return,
    };
    event.prevent_default();
    let Some(item) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|button| button.parent_element())
    else {
        return;
    };
    let sibling = if forward {
        item.next_element_sibling()
    } else {
        item.previous_element_sibling()
    };
    if let Some(button) = sibling.and_then(|s| s.query_selector("button").ok().flatten()) {
        if let Ok(button) = button.dyn_into::<HtmlElement>() {
            let _ = button.focus();
        }
    }
}
