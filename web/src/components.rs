//! The page's components. Most take data and `Callback` props and derive `PartialEq`; the
//! state they show lives in [`crate::state`]. The parts of the layout ([`topbar`],
//! [`status`], [`workspace`]) read the state and the engine from the [`crate::Page`]
//! context instead, so that the layout passes nothing through.

pub mod cleanup;
pub mod context_bar;
pub mod diagnostics;
pub mod file_view;
pub mod footprint;
pub mod health;
pub mod markdown;
pub mod picker;
pub mod release;
pub mod share_dialog;
pub mod status;
pub mod topbar;
pub mod tree;
pub mod workspace;

/// Where [`reveal_in`] puts the element it brings into view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reveal {
    /// Scroll as little as possible.
    Nearest,
    /// In the middle of the container.
    Center,
}

/// Scrolls `container` so that `element`, which it holds, shows, and moves no other scroller.
/// `scrollIntoView` would scroll the window too, which on a phone or at 200 % zoom pushes
/// the page's title and buttons out of sight whenever a row is selected.
pub(crate) fn reveal_in(
    container: &web_sys::HtmlElement,
    element: &web_sys::Element,
    align: Reveal,
) {
    let outer = container.get_bounding_client_rect();
    let inner = element.get_bounding_client_rect();
    let above = inner.top() - outer.top();
    let below = inner.bottom() - outer.bottom();
    let delta = match align {
        Reveal::Center => above - (outer.height() - inner.height()) / 2.0,
        Reveal::Nearest if above < 0.0 => above,
        Reveal::Nearest if below > 0.0 => below.min(above),
        Reveal::Nearest => 0.0,
    };
    if delta != 0.0 {
        container.set_scroll_top(container.scroll_top() + delta.round() as i32);
    }
}

/// What focus may land on inside `container`, in document order.
pub(crate) fn focusables(container: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    let Ok(list) = container.query_selector_all(
        "button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex='-1']), summary",
    ) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.get(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .collect()
}

/// Keeps Tab and Shift+Tab inside a dialog: from its last stop Tab goes to its first, and
/// Shift+Tab from its first to its last.
pub(crate) fn trap_tab(event: &web_sys::KeyboardEvent, container: &web_sys::Element) {
    let stops = focusables(container);
    let (Some(first), Some(last)) = (stops.first(), stops.last()) else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = |e: &web_sys::HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == AsRef::<web_sys::Element>::as_ref(e))
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

/// The tab an ARIA tablist moves to on `key` from `current` of `count` tabs: the arrows
/// wrap around, Home and End go to the ends; `None` for any other key.
pub fn tab_key(key: &str, current: usize, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match key {
        "ArrowRight" | "ArrowDown" => Some((current + 1) % count),
        "ArrowLeft" | "ArrowUp" => Some((current + count - 1) % count),
        "Home" => Some(0),
        "End" => Some(count - 1),
        _ => None,
    }
}

/// Remembers where focus was when a dialog opened and puts it back when the dialog closes
/// (when the component using it is removed).
#[yew::hook]
pub(crate) fn use_focus_return() {
    yew::use_effect_with((), |_| {
        let opener = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
        move || {
            if let Some(opener) = opener {
                if opener.is_connected() {
                    let _ = opener.focus();
                }
            }
        }
    });
}
