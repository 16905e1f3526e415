//! The browser page.
