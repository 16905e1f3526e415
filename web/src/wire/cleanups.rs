//! What a person asks to clean up, as the page sends it to the worker
//! ([`crate::wire::pack`] packs it).

use memdiag_core::cleanup::Compaction;

/// What a person asked to clean up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Remove these raw lines of an index, each with the text it was shown with.
    RemoveLines(String, Vec<(u64, String)>),
    /// Link these topic files from an index.
    IndexOrphans(String, Vec<String>),
    /// Delete these files.
    DeleteFiles(Vec<String>),
    /// Delete the file of the report's row at this path.
    DeleteRow(String),
    /// Compact an index past its caps.
    Compact(String, Compaction),
}
