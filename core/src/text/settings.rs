//! The keys of a Claude Code `settings.json` that decide what loads.

/// The settings that matter to the analysis; absent keys are `None` or empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    /// `autoMemoryEnabled`.
    pub(crate) auto_memory_enabled: Option<bool>,
    /// `autoMemoryDirectory`, as written.
    pub(crate) auto_memory_directory: Option<String>,
    /// `claudeMdExcludes`: glob patterns over absolute paths.
    pub(crate) claude_md_excludes: Vec<String>,
}

/// Parses a settings file. A key of the wrong type is ignored with a warning in `warnings`.
///
/// # Errors
/// When the text is not a JSON object, with serde_json's message.
pub(crate) fn parse(text: &str) -> Result<(Settings, Vec<String>), String> {
    todo!()
}
