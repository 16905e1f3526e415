//! What every modal dialog of the page does with the keyboard, in one hook: [`use_dialog`].
//!
//! A dialog that uses it takes focus when it opens (its `[autofocus]` element, or else its
//! first focusable one), keeps Tab and Shift+Tab inside itself, closes on Escape, and gives
//! focus back to what opened it when it closes (when the component is removed).
//!
//! ```ignore
//! let dialog = use_dialog(props.on_close.clone());
//! html! {
//!     <div class="modal" role="dialog" aria-modal="true" aria-label="…"
//!         ref={dialog.node.clone()} onkeydown={dialog.onkeydown.clone()}>
//!         …
//!     </div>
//! }
//! ```
//!
//! The hook must be called by the component that renders only while the dialog is open: a
//! hook cannot be called conditionally, and focus goes back on that component's removal.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};
use yew::prelude::*;

/// What a dialog spreads on its outer element: `ref={dialog.node.clone()}` and
/// `onkeydown={dialog.onkeydown.clone()}`.
#[derive(Clone)]
pub struct Dialog {
    /// The dialog's element (the one with `role="dialog"`).
    pub node: NodeRef,
    /// Escape closes; Tab and Shift+Tab wrap around inside the dialog.
    pub onkeydown: Callback<KeyboardEvent>,
}

/// Makes the element given `node` a modal dialog for the keyboard; `on_close` is called on
/// Escape.
#[hook]
pub fn use_dialog(on_close: Callback<()>) -> Dialog {
    let node = use_node_ref();
    use_focus_return();
    {
        let node = node.clone();
        use_effect_with((), move |_| {
            if let Some(dialog) = node.cast::<Element>() {
                let preferred = dialog
                    .query_selector("[autofocus]")
                    .ok()
                    .flatten()
                    .and_then(|e| e.dyn_into::<HtmlElement>().ok());
                if let Some(first) = preferred.or_else(|| focusables(&dialog).into_iter().next()) {
                    let _ = first.focus();
                } else if let Ok(dialog) = dialog.dyn_into::<HtmlElement>() {
                    // Nothing to focus inside: the dialog itself (it needs tabindex="-1").
                    let _ = dialog.focus();
                }
            }
        });
    }
    let onkeydown = {
        let node = node.clone();
        Callback::from(move |event: KeyboardEvent| match event.key().as_str() {
            "Escape" => {
                event.prevent_default();
                event.stop_propagation();
                on_close.emit(());
            }
            "Tab" => {
                if let Some(dialog) = node.cast::<Element>() {
                    trap_tab(&event, &dialog);
                }
            }
            _ => {}
        })
    };
    Dialog { node, onkeydown }
}

/// What focus may land on inside `container`, in document order.
pub fn focusables(container: &Element) -> Vec<HtmlElement> {
    let Ok(list) = container.query_selector_all(
        "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1']), summary",
    ) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<HtmlElement>().ok())
        .collect()
}

/// Keeps Tab and Shift+Tab inside a dialog: from its last stop Tab goes to its first, and
/// Shift+Tab from its first to its last. With nothing focusable inside, Tab stays put.
pub fn trap_tab(event: &KeyboardEvent, container: &Element) {
    let stops = focusables(container);
    let (Some(first), Some(last)) = (stops.first(), stops.last()) else {
        event.prevent_default();
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = |e: &HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == AsRef::<Element>::as_ref(e))
    };
    let inside = active.as_ref().is_some_and(|a| container.contains(Some(a)));
    if event.shift_key() && (at(first) || !inside) {
        event.prevent_default();
        let _ = last.focus();
    } else if !event.shift_key() && (at(last) || !inside) {
        event.prevent_default();
        let _ = first.focus();
    }
}

/// Remembers where focus was when a dialog opened and puts it back when the dialog closes
/// (when the component using it is removed).
#[hook]
pub fn use_focus_return() {
    use_effect_with((), |_| {
        let opener = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .and_then(|e| e.dyn_into::<HtmlElement>().ok());
        move || {
            if let Some(opener) = opener {
                if opener.is_connected() {
                    let _ = opener.focus();
                }
            }
        }
    });
}
