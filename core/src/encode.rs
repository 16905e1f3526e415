//! Project path to memory-folder name, and back (lossily).

/// Encodes a project path the way Claude Code names its memory folder.
pub fn encode_project_path(path: &str) -> String {
    let _ = path;
    String::new()
}

/// A best guess at the path a folder name encodes.
pub fn decode_guess(name: &str) -> String {
    name.to_owned()
}
