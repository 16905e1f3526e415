//! Helpers shared by the workspace-level fixture tests.
