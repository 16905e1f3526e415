//! Zip archives: list the central directory into the tree, inflate entries on request.

use std::fmt;

use crate::tree::{ContentSource, Tree};
use crate::vpath::VPath;

/// Limits that keep a hostile archive from exhausting memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZipLimits {
    /// Entries listed at most; the rest are left out with a diagnostic.
    pub max_entries: usize,
    /// Largest inflated size of one entry, declared or actual.
    pub max_entry_bytes: u64,
    /// Largest sum of inflated bytes over every entry read.
    pub max_total_bytes: u64,
    /// Largest inflated-to-compressed ratio for an entry bigger than 1 MiB.
    pub max_ratio: u64,
}

impl Default for ZipLimits {
    fn default() -> ZipLimits {
        ZipLimits {
            max_entries: 500_000,
            max_entry_bytes: 64 * 1024 * 1024,
            max_total_bytes: 512 * 1024 * 1024,
            max_ratio: 200,
        }
    }
}

/// Why an archive cannot be opened at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ZipError {
    /// The bytes are not a zip archive (or its central directory is broken).
    NotAZip(String),
    /// The mount point is not a valid absolute path.
    BadMount(String),
}

impl fmt::Display for ZipError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZipError::NotAZip(why) => write!(f, "not a zip archive: {why}"),
            ZipError::BadMount(why) => write!(f, "cannot mount the archive: {why}"),
        }
    }
}

impl std::error::Error for ZipError {}

/// An opened archive that inflates entries when the analysis asks for them.
pub struct ZipSource {
    _todo: (),
}

/// Opens `bytes` as a zip archive and lists its entries into `tree` below `mount`
/// (`.claude/CLAUDE.md` mounted at `/home/alice` becomes `/home/alice/.claude/CLAUDE.md`).
///
/// Only the central directory is read. An entry whose name holds `..`, is absolute or has a
/// drive letter, or whose declared size or compression ratio breaks `limits`, is left out
/// with a `zip-entry-rejected` diagnostic in the tree; the rest loads. Folder entries become
/// folders; entry times become `modified`. `mount` becomes a mount root of the tree.
///
/// # Errors
/// When `bytes` is not a zip archive, or `mount` is not an absolute path.
pub fn mount_zip(
    tree: &mut Tree,
    mount: &str,
    bytes: Vec<u8>,
    limits: ZipLimits,
) -> Result<ZipSource, ZipError> {
    todo!()
}

impl ContentSource for ZipSource {
    /// Inflates one entry, enforcing the per-entry and total caps on the actual bytes.
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        todo!()
    }
}
