//! The limits every source shares: how large a file is read, and which folders hold bulk
//! session data that is never read. The page's folder reader, the zip mount, the share
//! payload, the scan command and discovery all use these, so that a file one of them reads
//! is a file every one of them reads.

/// The largest file read, in bytes (64 MiB). A larger file is listed with its size and gets
/// a `file-not-read` finding; a 50 MB `MEMORY.md` is still read. The zip mount's default
/// per-entry cap and the share payload's cap are this too.
pub const READ_LIMIT_BYTES: u64 = 64 * 1024 * 1024;

/// Folders of a Claude config directory that hold bulk session data the analysis never
/// reads (besides `*.jsonl` transcripts anywhere, and everything in `projects/<name>/` but
/// its `memory/`).
pub const BULK_DATA_FOLDERS: [&str; 9] = [
    "cache",
    "debug",
    "file-history",
    "ide",
    "session-env",
    "shell-snapshots",
    "statsig",
    "telemetry",
    "todos",
];

/// True for a path (relative to whatever was dropped) that names session data the analysis
/// never reads: a `.jsonl` transcript, or a file below one of [`BULK_DATA_FOLDERS`] at the
/// top of the dropped folder (a config directory) or directly inside a `.claude` folder (a
/// home folder). A project's own `src/debug/` is not bulk data.
///
/// A source may list such files without their size or date (`size` 0, no `modified`): asking
/// a browser for them costs a slow lookup per file, and a real `~/.claude` holds tens of
/// thousands. The analysis shows no size for them.
pub fn is_bulk_data(path: &str) -> bool {
    let mut segments: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    let Some(name) = segments.pop() else {
        return false;
    };
    if name.ends_with(".jsonl") {
        return true;
    }
    segments.iter().enumerate().any(|(i, segment)| {
        let at_top = i == 0 || segments[i - 1] == ".claude";
        at_top && BULK_DATA_FOLDERS.contains(segment)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bulk_data_is_known_by_its_name_or_folder() {
        for bulk in [
            "projects/-home-a/0b7e.jsonl",
            ".claude/file-history/x/CLAUDE.md",
            "todos/a.json",
            "shell-snapshots/s.sh",
            "debug/latest",
            ".claude/cache/changelog.md",
            "ide/1234.lock",
        ] {
            assert!(is_bulk_data(bulk), "{bulk}");
        }
        for kept in [
            "projects/-home-a/memory/MEMORY.md",
            "todos.md",
            "src/debug/CLAUDE.md",
            "work/shop/cache/CLAUDE.md",
            "",
        ] {
            assert!(!is_bulk_data(kept), "{kept}");
        }
    }
}
