//! The share payload: a sanitized snapshot in a link or a zip (in progress).
