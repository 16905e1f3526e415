//! The page's components. Most take data and `Callback` props and derive `PartialEq`; the
//! state they show lives in [`crate::page::state`]. The parts of the layout ([`topbar`],
//! [`status`], [`workspace`]) read the state and the engine from the [`crate::Page`]
//! context instead, so that the layout passes nothing through.

pub mod cleanup;
pub mod context_bar;
pub mod diagnostics;
pub mod dialog;
pub mod file_view;
pub mod footprint;
pub mod health;
pub mod markdown;
pub mod picker;
pub mod reads;
pub mod release;
pub mod share_dialog;
pub mod status;
pub mod topbar;
pub mod tree;
pub mod verdict;
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
