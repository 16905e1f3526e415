//! The page's components. Each takes data and `Callback` props and derives `PartialEq`; the
//! state they show lives in [`crate::state`].

pub mod context_bar;
pub mod diagnostics;
pub mod file_view;
pub mod footprint;
pub mod health;
pub mod markdown;
pub mod picker;
pub mod share_dialog;
pub mod tree;
