//! Sanitizing a snapshot for sharing (in progress).
