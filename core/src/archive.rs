//! Zip archives: list the central directory into the tree, inflate entries on request.
//!
//! An archive is read whole ([`mount_zip`], from its bytes) or in place
//! ([`mount_zip_in_place`], from a [`ZipInPlace`]): the caller fetches the ranges the reader
//! names (the page through `File.slice`), the end of the archive and its central directory
//! first, then only the compressed bytes of the files the analysis asks for: one entry at a
//! time ([`ZipSource::read_in_place`]) or a turn's entries together, in a few merged ranges
//! ([`ZipSource::batch_in_place`]). Fetched bytes are dropped once their entries are read, so
//! memory follows what is read, never the archive's size.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::ops::Range;
use std::sync::{Arc, Mutex};

use zip::ZipArchive;

use crate::report::{Code, Diagnostic, Severity};
use crate::tree::{ContentSource, Contents, FileEntry, Tree};
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
            max_entry_bytes: crate::limits::READ_LIMIT_BYTES,
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
            ZipError::NotAZip(why) => write!(f, "not a zip archive: {}", in_words(why)),
            ZipError::BadMount(why) => write!(f, "cannot mount the archive: {why}"),
        }
    }
}

impl std::error::Error for ZipError {}

/// The zip reader's reason in words a person can act on: "Could not find EOCD" means the
/// file has no zip directory at its end.
fn in_words(why: &str) -> String {
    let lower = why.to_ascii_lowercase();
    if lower.contains("eocd") || lower.contains("end of central directory") {
        "it has no zip directory at its end, so it is no zip, or it was cut short while it was \
         saved or downloaded"
            .to_owned()
    } else if lower.contains("central directory") {
        "its zip directory is damaged".to_owned()
    } else {
        why.to_owned()
    }
}

/// An opened archive that inflates entries when the analysis asks for them.
pub struct ZipSource {
    archive: ZipArchive<Backing>,
    /// The ranges fetched, for an archive read in place.
    fetched: Option<Arc<Mutex<Fetched>>>,
    /// The central-directory index of every listed file, by the path it was listed under.
    entries: BTreeMap<VPath, usize>,
    limits: ZipLimits,
    /// Bytes inflated so far, over every read, counted against `max_total_bytes`.
    inflated: u64,
}

/// Opens `bytes` as a zip archive and lists its entries into `tree` below `mount`
/// (`.claude/CLAUDE.md` mounted at `/home/alice` becomes `/home/alice/.claude/CLAUDE.md`).
///
/// Only the central directory is read. An entry whose name holds `..`, is absolute, has a
/// drive letter, holds a NUL or is not UTF-8; an encrypted entry or a symbolic link; or an
/// entry whose declared size or compression ratio breaks `limits`, is left out with a
/// `zip-entry-rejected` diagnostic in the tree; the rest loads. Entries past
/// `limits.max_entries` are left out with one `zip-too-many-entries` diagnostic. Folder
/// entries become folders; entry times become `modified`. `mount` becomes a mount root of
/// the tree. Names are taken as they are: an archive of a `.claude` folder lists
/// `<mount>/.claude/...`, and choosing the mount point is the caller's business.
///
/// # Errors
/// When `bytes` is not a zip archive, or `mount` is not an absolute path. The tree is left
/// untouched then.
pub fn mount_zip(
    tree: &mut Tree,
    mount: &str,
    bytes: Vec<u8>,
    limits: ZipLimits,
) -> Result<ZipSource, ZipError> {
    let root = VPath::new(mount).map_err(|error| ZipError::BadMount(error.to_string()))?;
    let archive = ZipArchive::new(Backing::Whole(Cursor::new(bytes)))
        .map_err(|error| ZipError::NotAZip(error.to_string()))?;
    Ok(list_archive(tree, root, archive, None, limits))
}

/// What reading an archive in place needs before it can go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch<T> {
    /// Done.
    Done(T),
    /// Fetch these bytes of the archive ([`ZipInPlace::add`] or [`ZipSource::add`]) and
    /// ask again.
    Needs(Range<u64>),
}

/// How many times opening an archive in place asks for more bytes before it gives up: the
/// end, the central directory, and a few small reads the zip reader makes around them.
pub const MAX_OPEN_FETCHES: usize = 16;

/// An archive read in place: its length and the byte ranges fetched so far.
#[derive(Debug, Clone)]
pub struct ZipInPlace {
    fetched: Arc<Mutex<Fetched>>,
}

impl ZipInPlace {
    /// An archive of `len` bytes of which nothing is fetched yet.
    pub fn new(len: u64) -> ZipInPlace {
        ZipInPlace {
            fetched: Arc::new(Mutex::new(Fetched {
                len,
                ..Fetched::default()
            })),
        }
    }

    /// The range to fetch first: the end of the archive, where the end-of-directory record
    /// (and its comment of up to 64 KiB) and usually the zip64 records lie.
    pub fn tail(&self) -> Range<u64> {
        let len = lock(&self.fetched).len;
        len.saturating_sub(TAIL_BYTES)..len
    }

    /// Hands over the archive's bytes from `offset`.
    pub fn add(&mut self, offset: u64, bytes: Vec<u8>) {
        lock(&self.fetched).add(offset, bytes);
    }

    /// The bytes fetched so far, over every range.
    pub fn fetched_bytes(&self) -> u64 {
        lock(&self.fetched).total
    }
}

/// Opens an archive read in place and lists it into `tree` as [`mount_zip`] does, or names
/// the range it needs first. Call it with the [`ZipInPlace::tail`] fetched, add each range it
/// names, and call again (at most [`MAX_OPEN_FETCHES`] times). The tree is untouched until it
/// is done.
///
/// # Errors
/// As [`mount_zip`], and when the reader keeps asking for more.
pub fn mount_zip_in_place(
    tree: &mut Tree,
    mount: &str,
    archive: &ZipInPlace,
    limits: ZipLimits,
) -> Result<Fetch<ZipSource>, ZipError> {
    let root = VPath::new(mount).map_err(|error| ZipError::BadMount(error.to_string()))?;
    {
        let mut state = lock(&archive.fetched);
        state.missing = None;
        state.span = directory_span(&state);
    }
    let window = Window {
        fetched: Arc::clone(&archive.fetched),
        pos: 0,
    };
    match ZipArchive::new(Backing::InPlace(window)) {
        Ok(opened) => {
            // The directory is parsed: its bytes are no longer needed.
            lock(&archive.fetched).regions.clear();
            let fetched = Some(Arc::clone(&archive.fetched));
            Ok(Fetch::Done(list_archive(
                tree, root, opened, fetched, limits,
            )))
        }
        Err(error) => match lock(&archive.fetched).missing.take() {
            Some(range) => Ok(Fetch::Needs(range)),
            None => Err(ZipError::NotAZip(error.to_string())),
        },
    }
}

/// Where the central directory lies, as the end record in the fetched tail says (zip64
/// included when its record was fetched too); `None` when it cannot tell, and the reader
/// then fetches exactly what the zip reader asks for.
fn directory_span(fetched: &Fetched) -> Option<Range<u64>> {
    let (&start, tail) = fetched.regions.iter().next_back()?;
    let u16_at = |b: &[u8], i: usize| Some(u16::from_le_bytes(b.get(i..i + 2)?.try_into().ok()?));
    let u32_at = |b: &[u8], i: usize| Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?));
    let u64_at = |b: &[u8], i: usize| Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?));
    let at = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))?;
    let (size, offset) = (u32_at(tail, at + 12)?, u32_at(tail, at + 16)?);
    let entries = u16_at(tail, at + 10)?;
    if size != u32::MAX && offset != u32::MAX && entries != u16::MAX {
        return Some(u64::from(offset)..u64::from(offset) + u64::from(size));
    }
    // zip64: the locator just before the end record names the zip64 record.
    let locator = at.checked_sub(20)?;
    if !tail[locator..].starts_with(b"PK\x06\x07") {
        return None;
    }
    let record = u64_at(tail, locator + 8)?.checked_sub(start)?;
    let record = usize::try_from(record).ok()?;
    if !tail.get(record..)?.starts_with(b"PK\x06\x06") {
        return None;
    }
    let (size, offset) = (u64_at(tail, record + 40)?, u64_at(tail, record + 48)?);
    Some(offset..offset.checked_add(size)?)
}

/// How much of the end of an archive [`ZipInPlace::tail`] names: the end record, its
/// longest comment, and the zip64 locator and record before it.
const TAIL_BYTES: u64 = 22 + 65_535 + 20 + 56;

/// The ranges of an archive fetched so far, shared by the reader the zip crate owns and the
/// caller that adds to it.
#[derive(Debug, Default)]
struct Fetched {
    len: u64,
    /// Fetched bytes by offset.
    regions: BTreeMap<u64, Vec<u8>>,
    /// The first range a read needed that was not fetched.
    missing: Option<Range<u64>>,
    /// A missing range that starts in here extends to its end (the central directory while
    /// opening, the entry being read), so that one fetch serves the whole of it.
    span: Option<Range<u64>>,
    /// Every byte handed over, for the caller's accounting.
    total: u64,
}

impl Fetched {
    fn add(&mut self, offset: u64, bytes: Vec<u8>) {
        self.total = self.total.saturating_add(bytes.len() as u64);
        if !bytes.is_empty() {
            self.regions.insert(offset, bytes);
        }
    }
}

fn lock(fetched: &Mutex<Fetched>) -> std::sync::MutexGuard<'_, Fetched> {
    // One thread only ever holds it; a poisoned lock still holds consistent ranges.
    fetched
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A reader over the fetched ranges: a read outside them fails and records what it needed.
#[derive(Debug)]
struct Window {
    fetched: Arc<Mutex<Fetched>>,
    pos: u64,
}

impl Read for Window {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut fetched = lock(&self.fetched);
        if buf.is_empty() || self.pos >= fetched.len {
            return Ok(0);
        }
        let pos = self.pos;
        if let Some((&start, bytes)) = fetched.regions.range(..=pos).next_back() {
            let end = start.saturating_add(bytes.len() as u64);
            if pos < end {
                // `pos - start` is below the region's length, which is a usize.
                let from = (pos - start) as usize;
                let n = buf.len().min(bytes.len() - from);
                buf[..n].copy_from_slice(&bytes[from..from + n]);
                self.pos += n as u64;
                return Ok(n);
            }
        }
        let next = fetched
            .regions
            .range(pos..)
            .next()
            .map_or(fetched.len, |(&start, _)| start);
        let reach = match &fetched.span {
            Some(span) if span.contains(&pos) => span.end,
            _ => 0,
        };
        let end = pos
            .saturating_add(buf.len() as u64)
            .max(reach)
            .min(next)
            .min(fetched.len)
            .max(pos + 1);
        fetched.missing.get_or_insert(pos..end);
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "this part of the archive is not fetched yet",
        ))
    }
}

impl Seek for Window {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let len = lock(&self.fetched).len;
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(n) => len.checked_add_signed(n),
            SeekFrom::Current(n) => self.pos.checked_add_signed(n),
        };
        let target = target
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek out of range"))?;
        self.pos = target;
        Ok(target)
    }
}

/// The bytes behind an archive: all of them, or a window of fetched ranges.
#[derive(Debug)]
enum Backing {
    Whole(Cursor<Vec<u8>>),
    InPlace(Window),
}

impl Read for Backing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Backing::Whole(cursor) => cursor.read(buf),
            Backing::InPlace(window) => window.read(buf),
        }
    }
}

impl Seek for Backing {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        match self {
            Backing::Whole(cursor) => cursor.seek(to),
            Backing::InPlace(window) => window.seek(to),
        }
    }
}

/// The order an archive lists the entries of each `skills/` folder and each folder of a
/// `rules/` folder in
/// ([`Tree::set_listing_order`]): the order the tool that made it walked the folder in,
/// which zip tools take from the file system. Each folder's names with the set of them.
#[derive(Default)]
struct ListingOrders(BTreeMap<VPath, (Vec<String>, std::collections::HashSet<String>)>);

impl ListingOrders {
    /// Notes where `path`'s first segment below a `skills/` folder above it first appears.
    fn note(&mut self, path: &VPath) {
        let below_one = |p: &VPath| {
            let mut segments = p.as_str().split('/');
            segments.next_back();
            segments.any(|s| s == crate::tree::ORDERED_FOLDER_NAME || s == "rules")
        };
        if !below_one(path) {
            return;
        }
        for dir in path.ancestors().skip(1) {
            if !crate::tree::records_listing_order(&dir) {
                continue;
            }
            let Some(name) = path.strip_prefix(&dir).and_then(|r| r.split('/').next()) else {
                continue;
            };
            let name = name.to_owned();
            let (names, seen) = self.0.entry(dir).or_default();
            if seen.insert(name.clone()) {
                names.push(name);
            }
        }
    }
}

/// Lists an opened archive's entries into `tree` below `root` (see [`mount_zip`]).
fn list_archive(
    tree: &mut Tree,
    root: VPath,
    archive: ZipArchive<Backing>,
    fetched: Option<Arc<Mutex<Fetched>>>,
    limits: ZipLimits,
) -> ZipSource {
    let mut entries = BTreeMap::new();
    let mut orders = ListingOrders::default();
    if archive.has_duplicate_names() {
        // The zip reader keeps one entry per name and does not say which names repeat.
        tree.push_diagnostic(Diagnostic::new(
            Code::ZipEntryRejected,
            Severity::Warning,
            None,
            "the archive's central directory names some files more than once; one entry of \
             each name is listed (the last) and the others are left out",
        ));
    }
    let count = archive.len();
    for index in 0..count {
        if index >= limits.max_entries {
            tree.push_diagnostic(Diagnostic::new(
                Code::ZipTooManyEntries,
                Severity::Warning,
                None,
                format!(
                    "the archive holds {count} entries; only the first {} are listed and the \
                     other {} are left out",
                    limits.max_entries,
                    count - limits.max_entries
                ),
            ));
            break;
        }
        // The index is below `len()`, so this cannot fail; skipping is still safer than a panic.
        let Ok(entry) = archive.by_index_data(index) else {
            continue;
        };
        let name = entry.name_raw();
        match list_entry(&root, &entry, &limits) {
            // Two entries can name one file (`a/b` twice, or `a\\b` beside `a/b`): the first
            // is kept and the others are findings, never a silent swap of contents.
            Listing::File(path, _) if entries.contains_key(&path) => {
                tree.push_diagnostic(Diagnostic::new(
                    Code::ZipEntryRejected,
                    Severity::Warning,
                    Some(&String::from_utf8_lossy(name)),
                    format!(
                        "zip entry left out: an earlier entry already names {path}; the first \
                         one is kept"
                    ),
                ));
            }
            Listing::File(path, file) => {
                orders.note(&path);
                entries.insert(path.clone(), index);
                tree.insert(path, file);
            }
            Listing::Dir(path) => {
                orders.note(&path);
                tree.add_dir(path);
            }
            Listing::Nothing => {}
            Listing::Rejected(why) => tree.push_diagnostic(Diagnostic::new(
                Code::ZipEntryRejected,
                Severity::Warning,
                Some(&String::from_utf8_lossy(name)),
                format!("zip entry left out: {why}"),
            )),
        }
    }
    for (dir, (names, _)) in orders.0 {
        tree.set_listing_order(dir, names);
    }
    tree.add_mount(root);
    ZipSource {
        archive,
        fetched,
        entries,
        limits,
        inflated: 0,
    }
}

impl ZipSource {
    /// The number of files listed from the archive.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the archive listed no file.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Hands over bytes of an archive read in place, from `offset` (what
    /// [`ZipSource::read_in_place`] named).
    pub fn add(&mut self, offset: u64, bytes: Vec<u8>) {
        if let Some(fetched) = &self.fetched {
            lock(fetched).add(offset, bytes);
        }
    }

    /// The bytes fetched so far, over every range, of an archive read in place (0 for one
    /// read whole).
    pub fn fetched_bytes(&self) -> u64 {
        self.fetched
            .as_ref()
            .map_or(0, |fetched| lock(fetched).total)
    }

    /// Inflates one entry as [`ContentSource::read`] does, or, for an archive read in place,
    /// names the range to fetch first: the entry's local header and compressed bytes, in one
    /// range where the central directory tells enough. Fetched bytes are dropped once the
    /// entry is read. [`ZipSource::batch_in_place`] reads many entries in few fetches.
    pub fn read_in_place(&mut self, path: &VPath) -> Fetch<Result<Vec<u8>, String>> {
        let span = self.entry_range(path);
        let step = self.read_fetched(path, span);
        if matches!(step, Fetch::Done(_)) {
            self.drop_fetched();
        }
        step
    }

    /// Plans reading `paths` in place together: the ranges their entries lie in are merged
    /// where they touch or lie close, and fetched in groups that are dropped once their
    /// entries are read. Drive it with [`ZipBatch::step`]. An archive read whole needs no
    /// fetch; a path the archive does not list is answered as [`ContentSource::read`] does.
    pub fn batch_in_place(&self, paths: &[VPath]) -> ZipBatch {
        let mut placed: Vec<(Range<u64>, u64, usize)> = Vec::new();
        let mut unplaced = Vec::new();
        for (at, path) in paths.iter().enumerate() {
            match self.entry_range(path).zip(self.entry_floor(path)) {
                Some((range, floor)) if self.fetched.is_some() && !range.is_empty() => {
                    placed.push((range, floor, at));
                }
                _ => unplaced.push(at),
            }
        }
        placed.sort_by_key(|(range, _, at)| (range.start, *at));
        let plan = plan_fetches(&placed);
        let mut groups: VecDeque<BatchGroup> = plan
            .groups
            .into_iter()
            .map(|(ranges, members)| BatchGroup {
                ranges,
                entries: members
                    .into_iter()
                    .map(|i| {
                        let (range, _, at) = &placed[i];
                        (*at, range.clone())
                    })
                    .collect(),
                asked: false,
                next: 0,
                tries: 0,
            })
            .collect();
        if !unplaced.is_empty() {
            // Nothing to fetch for these: read whole, or answered without bytes.
            groups.push_front(BatchGroup {
                ranges: Vec::new(),
                entries: unplaced.into_iter().map(|at| (at, 0..0)).collect(),
                asked: true,
                next: 0,
                tries: 0,
            });
        }
        ZipBatch {
            paths: paths.to_vec(),
            results: vec![None; paths.len()],
            groups,
        }
    }

    /// Where the local header and compressed bytes of the entry listed at `path` lie, as far
    /// as the central directory tells, within the archive.
    fn entry_range(&self, path: &VPath) -> Option<Range<u64>> {
        let (start, name, compressed) = self.entry_layout(path)?;
        // The local header: 30 bytes, the name, and an extra field that is usually the
        // central one's or a little more (a zip64 or Unicode-path record).
        let header = 30 + 2 * name + LOCAL_EXTRA_SLACK;
        let end = start.saturating_add(header).saturating_add(compressed);
        let len = self
            .fetched
            .as_ref()
            .map_or(u64::MAX, |fetched| lock(fetched).len);
        Some(start.min(len)..end.min(len))
    }

    /// The fewest bytes reading the entry at `path` takes: its local header without an
    /// extra field, and its compressed bytes.
    fn entry_floor(&self, path: &VPath) -> Option<u64> {
        let (_, name, compressed) = self.entry_layout(path)?;
        Some((30 + name).saturating_add(compressed))
    }

    /// Where the entry at `path` starts, its name's length and its compressed size.
    fn entry_layout(&self, path: &VPath) -> Option<(u64, u64, u64)> {
        let &index = self.entries.get(path)?;
        let entry = self.archive.by_index_data(index).ok()?;
        // Stored or deflated, an entry's bytes are at most a little more than what they
        // inflate to (the listing capped that): a larger compressed size is the archive's
        // word only, and fetching it would make one entry of a hostile archive cost its
        // whole size. Bytes past it are fetched a little at a time, a few times at most.
        let size = entry.size();
        let compressed = entry
            .compressed_size()
            .min(size.saturating_add(size / 4).saturating_add(4096));
        Some((
            entry.header_start(),
            entry.name_raw().len() as u64,
            compressed,
        ))
    }

    /// Inflates the entry at `path` from the ranges fetched so far, keeping them, or names
    /// the range it still needs (a missing range that starts inside `span` reaches its end).
    fn read_fetched(
        &mut self,
        path: &VPath,
        span: Option<Range<u64>>,
    ) -> Fetch<Result<Vec<u8>, String>> {
        let Some(fetched) = self.fetched.clone() else {
            return Fetch::Done(self.read(path));
        };
        {
            let mut state = lock(&fetched);
            state.missing = None;
            state.span = span;
        }
        let inflated = self.inflated;
        let result = self.read(path);
        let mut state = lock(&fetched);
        state.span = None;
        match state.missing.take() {
            Some(range) => {
                // The attempt stopped for bytes not yet fetched: it counts for nothing.
                self.inflated = inflated;
                Fetch::Needs(range)
            }
            None => Fetch::Done(result),
        }
    }

    /// Drops every fetched byte of an archive read in place.
    fn drop_fetched(&mut self) {
        if let Some(fetched) = &self.fetched {
            lock(fetched).regions.clear();
        }
    }

    /// The fetched bytes held now, for the tests of what is dropped.
    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        self.fetched
            .as_ref()
            .map_or(0, |f| lock(f).regions.values().map(Vec::len).sum())
    }
}

/// Many entries of an archive read in place, read together ([`ZipSource::batch_in_place`]):
/// a round trip to the archive's bytes (`File.slice` in the page) costs far more than the
/// few bytes between neighbouring entries, and the entries a turn of the analysis asks for
/// usually lie together (a project's memory folder, a rules folder).
///
/// The entries' ranges are merged where they touch or overlap; gaps between them are
/// merged too, smallest first, while each is at most [`MAX_BATCH_GAP`] and all of them
/// together at most an eighth of what the entries need, so a batch reads at most 1.125
/// times its entries' bytes, plus the header slack at the end of each range (the local
/// header's extra field is guessed, [`LOCAL_EXTRA_SLACK`]).
/// A merged range spans at most [`MAX_BATCH_HELD`], and the ranges of one group, fetched
/// together and dropped once their entries are read, hold at most that much too (unless
/// one entry alone is bigger): memory follows what is read, never the archive's size.
#[derive(Debug)]
pub struct ZipBatch {
    paths: Vec<VPath>,
    results: Vec<Option<Result<Vec<u8>, String>>>,
    groups: VecDeque<BatchGroup>,
}

/// What a [`ZipBatch`] needs next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatchStep {
    /// Fetch every one of these ranges (at once, in any order), hand each over with
    /// [`ZipSource::add`], and step again. When a fetch fails, call [`ZipBatch::fail`].
    Needs(Vec<Range<u64>>),
    /// Every entry is read (or failed), in the order the paths were given.
    Done(Vec<Result<Vec<u8>, String>>),
}

/// Entries read from ranges fetched together.
#[derive(Debug)]
struct BatchGroup {
    ranges: Vec<Range<u64>>,
    /// The position of each entry among the batch's paths, and the range it lies in.
    entries: Vec<(usize, Range<u64>)>,
    /// Whether the group's ranges were asked for.
    asked: bool,
    /// The next entry to read.
    next: usize,
    /// Further fetches asked for that entry (its local header longer than the central
    /// directory said).
    tries: usize,
}

impl ZipBatch {
    /// Reads what the fetched ranges hold and names what to fetch next, or hands every
    /// result over. `source` is the archive the batch was planned on.
    pub fn step(&mut self, source: &mut ZipSource) -> BatchStep {
        while let Some(group) = self.groups.front_mut() {
            if !group.asked {
                group.asked = true;
                return BatchStep::Needs(group.ranges.clone());
            }
            while let Some((at, span)) = group.entries.get(group.next).cloned() {
                let result = match source.read_fetched(&self.paths[at], Some(span)) {
                    Fetch::Done(result) => result,
                    Fetch::Needs(range) if group.tries < MAX_ENTRY_FETCHES => {
                        group.tries += 1;
                        return BatchStep::Needs(vec![range]);
                    }
                    Fetch::Needs(_) => {
                        Err("the archive kept asking for more of itself; left unread".to_owned())
                    }
                };
                self.results[at] = Some(result);
                group.next += 1;
                group.tries = 0;
            }
            source.drop_fetched();
            self.groups.pop_front();
        }
        BatchStep::Done(
            self.results
                .iter_mut()
                .map(|r| r.take().unwrap_or_else(|| Err("not read".to_owned())))
                .collect(),
        )
    }

    /// Records that fetching what the last [`ZipBatch::step`] named failed: the entries of
    /// that group not read yet fail with `why`, its bytes are dropped, and the next step
    /// goes on with the next group.
    pub fn fail(&mut self, source: &mut ZipSource, why: &str) {
        if let Some(group) = self.groups.pop_front() {
            for (at, _) in &group.entries[group.next..] {
                self.results[*at] = Some(Err(why.to_owned()));
            }
        }
        source.drop_fetched();
    }
}

/// The widest gap between two entries' ranges that a batch merges over.
pub const MAX_BATCH_GAP: u64 = 64 * 1024;

/// The most bytes a merged range spans, and the most a batch holds at once.
pub const MAX_BATCH_HELD: u64 = 8 * 1024 * 1024;

/// Further fetches one entry of a batch may ask for after its group's ranges.
const MAX_ENTRY_FETCHES: usize = 4;

/// What to fetch for a batch: groups of merged ranges, each with the entries (by position
/// in the sorted list) it holds.
struct Plan {
    groups: Vec<(Vec<Range<u64>>, Vec<usize>)>,
}

/// Merges the ranges of `placed` (sorted by start: range, floor, position) as
/// [`ZipBatch`] says.
fn plan_fetches(placed: &[(Range<u64>, u64, usize)]) -> Plan {
    // Touching and overlapping ranges first: merging them costs nothing (the overlap is the
    // header slack running into the next entry). Each entry lies in one segment.
    let mut segments: Vec<(Range<u64>, Vec<usize>)> = Vec::new();
    for (i, (range, _, _)) in placed.iter().enumerate() {
        match segments.last_mut() {
            Some((segment, members))
                if range.start <= segment.end
                    && range.end.max(segment.end) - segment.start <= MAX_BATCH_HELD =>
            {
                segment.end = segment.end.max(range.end);
                members.push(i);
            }
            _ => segments.push((range.clone(), vec![i])),
        }
    }
    // Then gaps, smallest first, within the budget. Joined runs of segments are tracked at
    // their ends: `first[k]` is valid where `k` ends a run, `last[k]` where it starts one.
    let floor: u64 = placed.iter().map(|(_, floor, _)| floor).sum();
    let mut budget = floor / 8;
    let n = segments.len();
    let mut first: Vec<usize> = (0..n).collect();
    let mut last: Vec<usize> = (0..n).collect();
    let mut joined = vec![false; n];
    let mut gaps: Vec<(u64, usize)> = (1..n)
        .map(|k| (segments[k].0.start.saturating_sub(segments[k - 1].0.end), k))
        .collect();
    gaps.sort_unstable();
    for (gap, k) in gaps {
        if gap > MAX_BATCH_GAP || gap > budget {
            break;
        }
        let (a, b) = (first[k - 1], last[k]);
        if segments[b].0.end - segments[a].0.start > MAX_BATCH_HELD {
            continue;
        }
        joined[k] = true;
        last[a] = b;
        first[b] = a;
        budget -= gap;
    }
    // Runs become ranges; ranges go into groups of at most `MAX_BATCH_HELD` together.
    let mut runs: Vec<(Range<u64>, Vec<usize>)> = Vec::new();
    for (k, (segment, members)) in segments.into_iter().enumerate() {
        match runs.last_mut() {
            Some((run, group)) if joined[k] => {
                run.end = segment.end;
                group.extend(members);
            }
            _ => runs.push((segment, members)),
        }
    }
    let mut groups: Vec<(Vec<Range<u64>>, Vec<usize>)> = Vec::new();
    let mut held = 0;
    for (run, members) in runs {
        let size = run.end - run.start;
        match groups.last_mut() {
            Some((ranges, group)) if held + size <= MAX_BATCH_HELD => {
                held += size;
                ranges.push(run);
                group.extend(members);
            }
            _ => {
                held = size;
                groups.push((vec![run], members));
            }
        }
    }
    Plan { groups }
}

/// Bytes allowed beyond the central directory's word for a local header's extra field.
const LOCAL_EXTRA_SLACK: u64 = 64;

impl fmt::Debug for ZipSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The archive's bytes would drown the output; the counts say what matters.
        f.debug_struct("ZipSource")
            .field("entries", &self.entries.len())
            .field("inflated", &self.inflated)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl ContentSource for ZipSource {
    /// Inflates one entry, enforcing the per-entry and total caps on the actual bytes.
    fn read(&mut self, path: &VPath) -> Result<Vec<u8>, String> {
        let Some(&index) = self.entries.get(path) else {
            return Err("the archive does not list this file".to_owned());
        };
        let cap = self.limits.max_entry_bytes;
        let remaining = self.limits.max_total_bytes.saturating_sub(self.inflated);
        let mut file = self
            .archive
            .by_index(index)
            .map_err(|error| format!("cannot open the zip entry: {error}; left unread"))?;
        let declared = file.size();
        if declared > remaining {
            return Err(format!(
                "reading it would pass the {} cap on everything inflated from one archive \
                 ({} read so far); left unread",
                size_label(self.limits.max_total_bytes),
                size_label(self.inflated)
            ));
        }
        // The declared size was checked when the archive was listed, but it is the archive's
        // word: the limit below holds whatever the compressed stream really inflates to. zip 9
        // also stops at the declared size; this does not rely on that.
        let limit = cap.min(remaining);
        let mut bytes = Vec::with_capacity(usize::try_from(declared.min(limit)).unwrap_or(0));
        let result = (&mut file)
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes);
        let actual = bytes.len() as u64;
        self.inflated = self.inflated.saturating_add(actual);
        if let Err(error) = result {
            return Err(format!(
                "cannot inflate the zip entry: {error}; left unread"
            ));
        }
        if actual > cap {
            return Err(format!(
                "inflates to over the {} cap; left unread",
                size_label(cap)
            ));
        }
        if actual > remaining {
            return Err(format!(
                "inflating it passed the {} cap on everything inflated from one archive; \
                 left unread",
                size_label(self.limits.max_total_bytes)
            ));
        }
        Ok(bytes)
    }
}

/// An inflated size above which the compression ratio is checked: small files compress
/// well by nature, so only large ones are suspect.
const RATIO_FLOOR: u64 = 1024 * 1024;

const MIB: u64 = 1024 * 1024;

/// What one central-directory entry becomes in the tree.
enum Listing {
    File(VPath, FileEntry),
    Dir(VPath),
    /// A folder entry that names the mount point itself (`./`).
    Nothing,
    Rejected(String),
}

/// Decides what one entry becomes, from its central-directory record only.
fn list_entry(root: &VPath, entry: &zip::read::ZipFileEntry<'_>, limits: &ZipLimits) -> Listing {
    let name = match entry_name(entry.name_raw()) {
        Ok(name) => name,
        Err(why) => return Listing::Rejected(why),
    };
    let path = match root.join(&name) {
        Ok(path) => path,
        Err(error) => return Listing::Rejected(error.to_string()),
    };
    let names_root = path == *root;
    if entry.is_dir() {
        return if names_root {
            Listing::Nothing
        } else {
            Listing::Dir(path)
        };
    }
    if names_root {
        return Listing::Rejected("the name is empty".to_owned());
    }
    if entry.encrypted() {
        return Listing::Rejected("the entry is encrypted".to_owned());
    }
    if entry.is_symlink() {
        // A stored link's data is its target's path, not the file's text; reading it as a
        // memory file would measure the wrong thing.
        return Listing::Rejected(
            "a symbolic link; the archive holds where it points, not the file (zip without -y \
             to store the file itself)"
                .to_owned(),
        );
    }
    let size = entry.size();
    if size > limits.max_entry_bytes {
        return Listing::Rejected(format!(
            "it declares {}, over the {} cap",
            size_label(size),
            size_label(limits.max_entry_bytes)
        ));
    }
    let compressed = entry.compressed_size();
    if size > RATIO_FLOOR && (compressed == 0 || size / compressed > limits.max_ratio) {
        return Listing::Rejected(format!(
            "it declares {} from {compressed} compressed bytes, a ratio over {}:1",
            size_label(size),
            limits.max_ratio
        ));
    }
    Listing::File(
        path,
        FileEntry {
            size,
            contents: Contents::Unread,
            modified: entry.last_modified().map(iso_8601),
        },
    )
}

/// Checks an entry's raw name and returns it relative, with `/` separators.
///
/// Rejects rather than repairs: a name that climbs out or is absolute says the archive was
/// made to be extracted somewhere it should not, and its files are not what the user meant.
fn entry_name(raw: &[u8]) -> Result<String, String> {
    // Archivers that do not write UTF-8 use a code page the archive does not name; guessing
    // one would list files under names that match nothing Claude Code looks for.
    let name = std::str::from_utf8(raw).map_err(|_| "the name is not valid UTF-8".to_owned())?;
    if name.contains('\0') {
        return Err("the name holds a NUL character".to_owned());
    }
    let name = name.replace('\\', "/");
    if name.starts_with('/') {
        return Err("the name is an absolute path".to_owned());
    }
    let bytes = name.as_bytes();
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Err("the name starts with a drive letter".to_owned());
    }
    if name.split('/').any(|segment| segment == "..") {
        return Err("the name holds a `..` segment".to_owned());
    }
    Ok(name)
}

/// An entry's DOS time as ISO 8601 without a zone: zip stores local time and no offset.
fn iso_8601(time: zip::DateTime) -> String {
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        time.year(),
        time.month(),
        time.day(),
        time.hour(),
        time.minute(),
        time.second()
    )
}

/// A byte count for a message: whole MB when it is one, else MB to one decimal, else bytes.
fn size_label(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MB", bytes / MIB)
    } else if bytes >= MIB / 10 {
        format!("{:.1} MB", bytes as f64 / MIB as f64)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, DateTime, ZipWriter};

    use super::*;

    /// What a test archive holds: a file with its bytes, or a folder.
    enum Item<'a> {
        File(&'a str, &'a [u8]),
        Dir(&'a str),
    }

    fn options() -> SimpleFileOptions {
        let time = DateTime::from_date_and_time(2026, 9, 11, 8, 30, 0).unwrap();
        SimpleFileOptions::default()
            .compression_method(CompressionMethod::Deflated)
            .last_modified_time(time)
    }

    fn archive(items: &[Item<'_>]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for item in items {
            match item {
                Item::File(name, bytes) => {
                    writer.start_file(*name, options()).unwrap();
                    writer.write_all(bytes).unwrap();
                }
                Item::Dir(name) => writer.add_directory(*name, options()).unwrap(),
            }
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn records_the_order_a_skills_folder_is_listed_in() {
        let bytes = archive(&[
            Item::File("home/u/.claude/skills/zeta/SKILL.md", b"z"),
            Item::Dir("home/u/.claude/skills/alpha/"),
            Item::File("home/u/.claude/skills/alpha/SKILL.md", b"a"),
            Item::File("home/u/.claude/skills/mid/SKILL.md", b"m"),
            Item::File("home/u/.claude/CLAUDE.md", b"c"),
        ]);
        let (tree, _) = mount(bytes, ZipLimits::default());
        let skills = VPath::new("/home/alice/home/u/.claude/skills").unwrap();
        assert_eq!(
            tree.listing_order(&skills),
            Some(&["zeta".to_owned(), "alpha".to_owned(), "mid".to_owned()][..])
        );
        // Only skills folders: the tree keeps byte order for the rest.
        assert_eq!(
            tree.listing_order(&VPath::new("/home/alice/home/u/.claude").unwrap()),
            None
        );
    }

    fn small_limits() -> ZipLimits {
        ZipLimits {
            max_entry_bytes: MIB,
            ..ZipLimits::default()
        }
    }

    fn mount(bytes: Vec<u8>, limits: ZipLimits) -> (Tree, ZipSource) {
        let mut tree = Tree::new();
        let source = mount_zip(&mut tree, "/home/alice", bytes, limits).unwrap();
        (tree, source)
    }

    fn paths(tree: &Tree) -> Vec<&str> {
        tree.files().map(|(path, _)| path.as_str()).collect()
    }

    fn rejections(tree: &Tree) -> Vec<(String, String)> {
        tree.diagnostics()
            .iter()
            .map(|d| {
                assert_eq!(
                    (d.code.as_str(), d.severity),
                    ("zip-entry-rejected", Severity::Warning)
                );
                (d.path.clone().unwrap_or_default(), d.message.clone())
            })
            .collect()
    }

    fn vpath(path: &str) -> VPath {
        VPath::new(path).unwrap()
    }

    /// Overwrites the 4-byte field at `offset` of every central-directory header.
    fn patch_central(bytes: &mut [u8], offset: usize, value: u32) {
        let starts: Vec<usize> = bytes
            .windows(4)
            .enumerate()
            .filter(|(_, w)| *w == b"PK\x01\x02")
            .map(|(i, _)| i)
            .collect();
        assert!(!starts.is_empty());
        for start in starts {
            bytes[start + offset..start + offset + 4].copy_from_slice(&value.to_le_bytes());
        }
    }

    /// Opens `bytes` in place, fetching what the reader names; returns the tree, the source
    /// and how many fetches opening took.
    fn mount_in_place(
        bytes: &[u8],
        limits: ZipLimits,
    ) -> Result<(Tree, ZipSource, usize), ZipError> {
        let mut tree = Tree::new();
        let mut archive = ZipInPlace::new(bytes.len() as u64);
        let tail = archive.tail();
        archive.add(
            tail.start,
            bytes[tail.start as usize..tail.end as usize].to_vec(),
        );
        for fetches in 1..=MAX_OPEN_FETCHES {
            match mount_zip_in_place(&mut tree, "/home/alice", &archive, limits)? {
                Fetch::Done(source) => return Ok((tree, source, fetches)),
                Fetch::Needs(range) => {
                    assert!(
                        tree.is_empty(),
                        "the tree is untouched until the archive opens"
                    );
                    let end = (range.end as usize).min(bytes.len());
                    archive.add(range.start, bytes[range.start as usize..end].to_vec());
                }
            }
        }
        panic!("opening kept asking for more");
    }

    /// Reads `path` in place, fetching what it names; returns the result and the fetches.
    fn read_in_place(
        source: &mut ZipSource,
        bytes: &[u8],
        path: &VPath,
    ) -> (Result<Vec<u8>, String>, usize) {
        for fetches in 0..8 {
            match source.read_in_place(path) {
                Fetch::Done(result) => return (result, fetches),
                Fetch::Needs(range) => {
                    let end = (range.end as usize).min(bytes.len());
                    source.add(range.start, bytes[range.start as usize..end].to_vec());
                }
            }
        }
        panic!("reading kept asking for more");
    }

    #[test]
    fn reads_in_place_only_the_directory_and_the_entries_asked_for() {
        // A large archive: 2,000 small files and 40 large incompressible ones, of which the
        // analysis reads three small files.
        let mut seed = 7u64;
        let mut noise = |n: usize| -> Vec<u8> {
            (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (seed >> 56) as u8
                })
                .collect()
        };
        let big: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| (format!(".claude/projects/p/{i}.jsonl"), noise(256 * 1024)))
            .collect();
        let small: Vec<(String, Vec<u8>)> = (0..2000)
            .map(|i| {
                (
                    format!(".claude/todos/{i:04}.json"),
                    format!("todo {i}").into_bytes(),
                )
            })
            .collect();
        let wanted = [
            (".claude/CLAUDE.md", b"# Mine\nBe brief.\n".repeat(40)),
            (".claude/rules/a.md", b"rule a\n".repeat(10)),
            (
                ".claude/projects/p/memory/MEMORY.md",
                b"- [x](x.md)\n".repeat(30),
            ),
        ];
        let mut items: Vec<Item<'_>> = Vec::new();
        for (name, bytes) in &big {
            items.push(Item::File(name, bytes));
        }
        for (name, bytes) in &small {
            items.push(Item::File(name, bytes));
        }
        for (name, bytes) in &wanted {
            items.push(Item::File(name, bytes));
        }
        let bytes = archive(&items);
        let (whole_tree, mut whole) = mount(bytes.clone(), ZipLimits::default());
        let (tree, mut source, fetches) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        assert_eq!(tree, whole_tree, "the same listing as read whole");
        assert!(fetches <= 3, "opened in {fetches} fetches");
        let directory = source.fetched_bytes();
        let central: u64 = {
            let reader = ZipArchive::new(Cursor::new(bytes.clone())).unwrap();
            bytes.len() as u64 - reader.central_directory_start()
        };
        assert!(
            directory as f64 <= 1.2 * central as f64 + TAIL_BYTES as f64,
            "{directory} bytes fetched to open, the directory and its end are {central}"
        );
        let mut compressed = 0;
        for (name, text) in &wanted {
            let path = vpath(&format!("/home/alice/{name}"));
            let (read, fetches) = read_in_place(&mut source, &bytes, &path);
            assert_eq!(read.as_deref(), Ok(text.as_slice()), "{name}");
            assert_eq!(read, whole.read(&path), "{name}: as read whole");
            assert_eq!(fetches, 1, "{name}: one fetch");
            let index = whole.entries[&path];
            let entry = whole.archive.by_index_data(index).unwrap();
            compressed += 30 + entry.name_raw().len() as u64 + entry.compressed_size();
        }
        let entries = source.fetched_bytes() - directory;
        assert!(
            entries as f64 <= 1.2 * compressed as f64 + 3.0 * (LOCAL_EXTRA_SLACK + 64) as f64,
            "{entries} bytes fetched for entries of {compressed}"
        );
        assert!(
            (source.fetched_bytes() as f64) < 0.1 * bytes.len() as f64,
            "{} of {} bytes read",
            source.fetched_bytes(),
            bytes.len()
        );
        // Fetched bytes are dropped once read: nothing of the archive stays held.
        let held: usize = source
            .fetched
            .as_ref()
            .map_or(0, |f| lock(f).regions.values().map(Vec::len).sum());
        assert_eq!(held, 0);
    }

    #[test]
    fn in_place_keeps_every_check_of_a_whole_read() {
        // A bomb, a lying size, a bad CRC and a broken archive behave as when read whole.
        let zeros = vec![0u8; 3 * 1024 * 1024];
        let bytes = archive(&[
            Item::File("a/../../x.md", b"escape"),
            Item::File("big.md", &zeros),
            Item::File("ok.md", b"fine"),
        ]);
        let (whole_tree, mut whole) = mount(bytes.clone(), small_limits());
        let (tree, mut source, _) = mount_in_place(&bytes, small_limits()).unwrap();
        assert_eq!(tree, whole_tree);
        for path in [
            "/home/alice/ok.md",
            "/home/alice/big.md",
            "/home/alice/none.md",
        ] {
            let path = vpath(path);
            assert_eq!(
                read_in_place(&mut source, &bytes, &path).0,
                whole.read(&path)
            );
        }
        let mut damaged = archive(&[Item::File("a.md", b"hello hello hello")]);
        let at = damaged.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        damaged[at + 16] ^= 0xff; // the CRC in the central directory
        let (_, mut whole) = mount(damaged.clone(), ZipLimits::default());
        let (_, mut source, _) = mount_in_place(&damaged, ZipLimits::default()).unwrap();
        let path = vpath("/home/alice/a.md");
        let in_place = read_in_place(&mut source, &damaged, &path).0;
        assert!(in_place.is_err());
        assert_eq!(in_place, whole.read(&path));
        for junk in [
            b"not a zip at all".to_vec(),
            vec![0u8; 200_000],
            bytes[..bytes.len() / 2].to_vec(),
        ] {
            assert!(matches!(
                mount_in_place(&junk, ZipLimits::default()),
                Err(ZipError::NotAZip(_))
            ));
        }
    }

    #[test]
    fn maps_entries_below_the_mount_point() {
        let bytes = archive(&[
            Item::Dir(".claude/"),
            Item::File(".claude/CLAUDE.md", b"# Notes\n"),
            Item::Dir(".claude/rules/"),
            Item::File("./.claude\\agents\\a.md", b"agent"),
        ]);
        let (tree, mut source) = mount(bytes, ZipLimits::default());
        assert_eq!(
            paths(&tree),
            [
                "/home/alice/.claude/CLAUDE.md",
                "/home/alice/.claude/agents/a.md"
            ]
        );
        assert!(tree.is_dir(&vpath("/home/alice/.claude/rules")));
        assert_eq!(
            tree.mounts().map(VPath::as_str).collect::<Vec<_>>(),
            ["/home/alice"]
        );
        assert!(tree.diagnostics().is_empty());
        let entry = tree.file(&vpath("/home/alice/.claude/CLAUDE.md")).unwrap();
        assert_eq!(
            entry,
            &FileEntry {
                size: 8,
                contents: Contents::Unread,
                modified: Some("2026-09-11T08:30:00".to_owned())
            }
        );
        assert_eq!(source.len(), 2);
        assert!(!source.is_empty());
        assert_eq!(
            source
                .read(&vpath("/home/alice/.claude/CLAUDE.md"))
                .unwrap(),
            b"# Notes\n"
        );
        assert_eq!(
            source
                .read(&vpath("/home/alice/.claude/agents/a.md"))
                .unwrap(),
            b"agent"
        );
        assert!(source.read(&vpath("/home/alice/nope.md")).is_err());
        assert!(format!("{source:?}").starts_with("ZipSource { entries: 2, inflated: 13,"));
    }

    #[test]
    fn mounts_on_a_drive_path() {
        let mut tree = Tree::new();
        let bytes = archive(&[Item::File("CLAUDE.md", b"x")]);
        mount_zip(&mut tree, "c:\\Users\\alice", bytes, ZipLimits::default()).unwrap();
        assert_eq!(paths(&tree), ["C:/Users/alice/CLAUDE.md"]);
    }

    #[test]
    fn rejects_escaping_names_and_loads_the_rest() {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for name in [
            "../evil.md",
            "/etc/passwd",
            "C:/x",
            "a/../b.md",
            "..\\up.md",
            "ok.md",
            "nul\0.md",
        ] {
            writer.start_file(name, options()).unwrap();
            writer.write_all(b"text").unwrap();
        }
        writer
            .start_file_with_options(options().name(b"bad\xff.md"))
            .unwrap();
        writer.write_all(b"text").unwrap();
        writer.add_directory("../outside/", options()).unwrap();
        let (tree, _) = mount(writer.finish().unwrap().into_inner(), ZipLimits::default());
        assert_eq!(paths(&tree), ["/home/alice/ok.md"]);
        let left_out = |why: &str| format!("zip entry left out: the name {why}");
        assert_eq!(
            rejections(&tree),
            [
                ("../evil.md".to_owned(), left_out("holds a `..` segment")),
                ("/etc/passwd".to_owned(), left_out("is an absolute path")),
                ("C:/x".to_owned(), left_out("starts with a drive letter")),
                ("a/../b.md".to_owned(), left_out("holds a `..` segment")),
                ("..\\up.md".to_owned(), left_out("holds a `..` segment")),
                ("nul\0.md".to_owned(), left_out("holds a NUL character")),
                ("bad\u{fffd}.md".to_owned(), left_out("is not valid UTF-8")),
                ("../outside/".to_owned(), left_out("holds a `..` segment")),
            ]
        );
    }

    #[test]
    fn reports_entries_that_name_one_file_and_keeps_the_first() {
        // The writer refuses a name twice, so the second `a/x.md` is patched in afterwards.
        let mut bytes = archive(&[
            Item::File("a/x.md", b"first"),
            Item::File("a\\x.md", b"second"),
            Item::File("a/y.md", b"third"),
        ]);
        let names: Vec<usize> = bytes
            .windows(6)
            .enumerate()
            .filter(|(_, w)| *w == b"a/y.md")
            .map(|(i, _)| i)
            .collect();
        for at in names {
            bytes[at + 2] = b'x';
        }
        let (tree, mut source) = mount(bytes, ZipLimits::default());
        assert_eq!(paths(&tree), ["/home/alice/a/x.md"]);
        let kept = "zip entry left out: an earlier entry already names /home/alice/a/x.md; the \
                    first one is kept";
        let repeated = "the archive's central directory names some files more than once; one \
                        entry of each name is listed (the last) and the others are left out";
        assert_eq!(
            rejections(&tree),
            [
                (String::new(), repeated.to_owned()),
                ("a\\x.md".to_owned(), kept.to_owned()),
            ]
        );
        assert_eq!(source.read(&vpath("/home/alice/a/x.md")).unwrap(), b"third");
    }

    #[test]
    fn rejects_a_bomb_on_its_declared_size() {
        let zeros = vec![0; 4 * MIB as usize];
        let bytes = archive(&[Item::File("bomb.md", &zeros), Item::File("CLAUDE.md", b"x")]);
        let (tree, _) = mount(bytes, small_limits());
        assert_eq!(paths(&tree), ["/home/alice/CLAUDE.md"]);
        assert_eq!(
            rejections(&tree),
            [(
                "bomb.md".to_owned(),
                "zip entry left out: it declares 4 MB, over the 1 MB cap".to_owned()
            )]
        );
    }

    #[test]
    fn rejects_a_bomb_on_its_ratio() {
        let zeros = vec![0; 4 * MIB as usize];
        let bytes = archive(&[Item::File("bomb.md", &zeros)]);
        let (tree, _) = mount(bytes, ZipLimits::default());
        assert!(tree.is_empty());
        let [(path, message)] = &rejections(&tree)[..] else {
            panic!()
        };
        assert_eq!(path, "bomb.md");
        assert!(
            message.ends_with("compressed bytes, a ratio over 200:1"),
            "{message}"
        );
    }

    #[test]
    fn refuses_an_entry_that_inflates_past_its_declared_size() {
        let zeros = vec![0; 4 * MIB as usize];
        let mut bytes = archive(&[Item::File("liar.md", &zeros)]);
        // The uncompressed-size field sits 24 bytes into a central-directory header.
        patch_central(&mut bytes, 24, 1000);
        let (tree, mut source) = mount(bytes, small_limits());
        assert_eq!(tree.file(&vpath("/home/alice/liar.md")).unwrap().size, 1000);
        let error = source.read(&vpath("/home/alice/liar.md")).unwrap_err();
        assert!(error.ends_with("; left unread"), "{error}");
        assert!(source.inflated <= MIB, "{source:?}");
    }

    #[test]
    fn caps_the_total_inflated() {
        let bytes = archive(&[Item::File("a.md", b"123456"), Item::File("b.md", b"123456")]);
        let limits = ZipLimits {
            max_total_bytes: 10,
            ..ZipLimits::default()
        };
        let (_, mut source) = mount(bytes, limits);
        assert_eq!(source.read(&vpath("/home/alice/a.md")).unwrap(), b"123456");
        assert_eq!(
            source.read(&vpath("/home/alice/b.md")).unwrap_err(),
            "reading it would pass the 10 bytes cap on everything inflated from one archive \
             (6 bytes read so far); left unread"
        );
    }

    #[test]
    fn reports_a_checksum_mismatch() {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer
            .start_file(
                "a.md",
                options().compression_method(CompressionMethod::Stored),
            )
            .unwrap();
        writer.write_all(b"hello world!").unwrap();
        let mut bytes = writer.finish().unwrap().into_inner();
        let at = bytes
            .windows(12)
            .position(|w| w == b"hello world!")
            .unwrap();
        bytes[at] = b'j';
        let (_, mut source) = mount(bytes, ZipLimits::default());
        let error = source.read(&vpath("/home/alice/a.md")).unwrap_err();
        assert!(
            error.starts_with("cannot inflate the zip entry: ") && error.contains("checksum"),
            "{error}"
        );
    }

    #[test]
    fn rejects_encrypted_entries_and_links() {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer.start_file("secret.md", options()).unwrap();
        writer.write_all(b"text").unwrap();
        let mut bytes = writer.finish().unwrap().into_inner();
        // Bit 0 of the flags, 8 bytes into a central-directory header, marks encryption.
        patch_central(&mut bytes, 8, 1);
        let (tree, _) = mount(bytes, ZipLimits::default());
        assert_eq!(
            rejections(&tree),
            [(
                "secret.md".to_owned(),
                "zip entry left out: the entry is encrypted".to_owned()
            )]
        );

        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer
            .add_symlink("CLAUDE.md", "/dotfiles/CLAUDE.md", options())
            .unwrap();
        let (tree, _) = mount(writer.finish().unwrap().into_inner(), ZipLimits::default());
        assert!(tree.is_empty());
        assert!(rejections(&tree)[0].1.contains("symbolic link"));
    }

    #[test]
    fn leaves_out_entries_past_the_limit() {
        let bytes = archive(&[
            Item::File("1.md", b""),
            Item::File("2.md", b""),
            Item::Dir("d/"),
            Item::File("4.md", b""),
            Item::File("5.md", b""),
        ]);
        let limits = ZipLimits {
            max_entries: 3,
            ..ZipLimits::default()
        };
        let (tree, source) = mount(bytes, limits);
        assert_eq!(paths(&tree), ["/home/alice/1.md", "/home/alice/2.md"]);
        assert_eq!(source.len(), 2);
        let [diagnostic] = tree.diagnostics() else {
            panic!("{:?}", tree.diagnostics())
        };
        assert_eq!(diagnostic.code, "zip-too-many-entries");
        assert_eq!(
            diagnostic.message,
            "the archive holds 5 entries; only the first 3 are listed and the other 2 are left out"
        );
    }

    #[test]
    fn refuses_what_is_not_a_zip() {
        let mut tree = Tree::new();
        for bytes in [Vec::new(), b"# CLAUDE.md\nnot a zip\n".to_vec()] {
            let error = mount_zip(&mut tree, "/", bytes, ZipLimits::default()).unwrap_err();
            assert!(matches!(error, ZipError::NotAZip(_)), "{error:?}");
            // Said in words, not in the zip reader's ("Could not find EOCD").
            let said = error.to_string();
            assert!(said.contains("no zip directory at its end"), "{said}");
            assert!(!said.contains("EOCD"), "{said}");
        }
        let whole = archive(&[
            Item::File("CLAUDE.md", b"some text"),
            Item::File("b.md", b"more"),
        ]);
        for cut in [whole.len() / 2, whole.len() - 1] {
            let error =
                mount_zip(&mut tree, "/", whole[..cut].to_vec(), ZipLimits::default()).unwrap_err();
            assert!(matches!(error, ZipError::NotAZip(_)), "{cut}: {error:?}");
        }
        let error = mount_zip(&mut tree, "home", whole, ZipLimits::default()).unwrap_err();
        assert!(matches!(error, ZipError::BadMount(_)), "{error:?}");
        assert_eq!(tree, Tree::new());
    }

    #[test]
    fn never_panics_on_damaged_bytes() {
        let whole = archive(&[
            Item::Dir(".claude/"),
            Item::File(".claude/CLAUDE.md", b"# Notes\n@rules/a.md\n"),
            Item::File("b.md", b"more text"),
        ]);
        let damaged = (0..whole.len())
            .map(|at| {
                let mut bytes = whole.clone();
                bytes[at] ^= 0xff;
                bytes
            })
            .chain((0..whole.len()).map(|cut| whole[..cut].to_vec()));
        for bytes in damaged {
            let mut tree = Tree::new();
            if let Ok(mut source) = mount_zip(&mut tree, "/home/alice", bytes, small_limits()) {
                let listed: Vec<VPath> = tree.files().map(|(path, _)| path.clone()).collect();
                for path in listed {
                    let _ = source.read(&path);
                }
            }
        }
    }

    /// What reading one entry gives.
    type Inflated = Result<Vec<u8>, String>;

    /// Reads `paths` in place as one batch, fetching every range it names; returns the
    /// results, the ranges fetched (one request each) and the most fetched bytes held at once.
    fn read_batch(
        source: &mut ZipSource,
        bytes: &[u8],
        paths: &[VPath],
    ) -> (Vec<Inflated>, Vec<Range<u64>>, usize) {
        let mut batch = source.batch_in_place(paths);
        let (mut fetched, mut held) = (Vec::new(), 0);
        for _ in 0..10_000 {
            match batch.step(source) {
                BatchStep::Done(results) => return (results, fetched, held),
                BatchStep::Needs(ranges) => {
                    assert!(!ranges.is_empty(), "a step names something to fetch");
                    for range in ranges {
                        let end = (range.end as usize).min(bytes.len());
                        source.add(range.start, bytes[range.start as usize..end].to_vec());
                        fetched.push(range);
                    }
                    held = held.max(source.held_bytes());
                }
            }
        }
        panic!("the batch kept asking for more");
    }

    /// The fewest bytes reading these entries takes: local headers without extra fields
    /// and compressed bytes.
    fn floor(source: &ZipSource, paths: &[VPath]) -> u64 {
        paths.iter().map(|p| source.entry_floor(p).unwrap()).sum()
    }

    fn span(ranges: &[Range<u64>]) -> u64 {
        ranges.iter().map(|r| r.end - r.start).sum()
    }

    /// Incompressible bytes, the same for a seed.
    fn noise(seed: u64, n: usize) -> Vec<u8> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (state >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn a_batch_of_neighbours_is_read_in_one_fetch() {
        // A project's memory folder (an index and 150 topic files) among unrelated files, as
        // a turn of the analysis asks for it.
        let before: Vec<(String, Vec<u8>)> = (0..300)
            .map(|i| (format!(".claude/todos/{i:04}.json"), noise(i, 600)))
            .collect();
        let memory: Vec<(String, Vec<u8>)> = (0..150)
            .map(|i| {
                let text = format!("---\nname: topic {i}\n---\nRemember {i}: ").repeat(3);
                (
                    format!(".claude/projects/p/memory/topic-{i:03}.md"),
                    [text.as_bytes(), &noise(1000 + i, 200)].concat(),
                )
            })
            .collect();
        let after: Vec<(String, Vec<u8>)> = (0..300)
            .map(|i| (format!(".claude/todos/z{i:04}.json"), noise(5000 + i, 600)))
            .collect();
        let mut items: Vec<Item<'_>> = Vec::new();
        for (name, bytes) in before.iter().chain(&memory).chain(&after) {
            items.push(Item::File(name, bytes));
        }
        let bytes = archive(&items);
        let (_, mut whole) = mount(bytes.clone(), ZipLimits::default());
        let (_, mut source, _) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        let opened = source.fetched_bytes();
        // Asked for in another order than the archive's, as a turn may.
        let paths: Vec<VPath> = memory
            .iter()
            .rev()
            .map(|(name, _)| vpath(&format!("/home/alice/{name}")))
            .collect();
        let (results, fetched, held) = read_batch(&mut source, &bytes, &paths);
        for ((path, result), (_, text)) in paths.iter().zip(&results).zip(memory.iter().rev()) {
            assert_eq!(result.as_deref(), Ok(text.as_slice()), "{path}");
            assert_eq!(*result, whole.read(path), "{path}: as read whole");
        }
        assert_eq!(fetched.len(), 1, "one fetch for neighbours: {fetched:?}");
        let read = source.fetched_bytes() - opened;
        let needed = floor(&source, &paths);
        assert!(
            read as f64 <= 1.2 * needed as f64,
            "{read} bytes read for entries of {needed}"
        );
        assert!(held as u64 <= read);
        assert_eq!(
            source.held_bytes(),
            0,
            "the batch's bytes are dropped after"
        );
    }

    #[test]
    fn far_apart_entries_are_not_merged_into_a_huge_range() {
        // Wanted files 2 MB apart, and a run of wanted neighbours larger than a merged range
        // may be: every range stays near its entries, and memory bounded.
        let junk: Vec<(String, Vec<u8>)> = (0..3)
            .map(|i| (format!("junk/{i}.bin"), noise(i, 2_000_000)))
            .collect();
        let large: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| (format!("large/{i:02}.md"), noise(100 + i, 300_000)))
            .collect();
        let lone = [
            ("a.md", b"alpha ".repeat(50)),
            ("b.md", b"beta ".repeat(50)),
            ("c.md", b"gamma ".repeat(50)),
        ];
        // Noise is stored: deflating it would only make the test slow.
        let stored = options().compression_method(CompressionMethod::Stored);
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for ((name, text), (junk, noise)) in lone.iter().zip(&junk) {
            writer.start_file(*name, options()).unwrap();
            writer.write_all(text).unwrap();
            writer.start_file(junk.as_str(), stored).unwrap();
            writer.write_all(noise).unwrap();
        }
        for (name, bytes) in &large {
            writer.start_file(name.as_str(), stored).unwrap();
            writer.write_all(bytes).unwrap();
        }
        let bytes = writer.finish().unwrap().into_inner();
        let limits = ZipLimits {
            max_entry_bytes: MIB,
            ..ZipLimits::default()
        };
        let (_, mut whole) = mount(bytes.clone(), limits);
        let (_, mut source, _) = mount_in_place(&bytes, limits).unwrap();
        let paths: Vec<VPath> = lone
            .iter()
            .map(|(name, _)| *name)
            .chain(large.iter().map(|(name, _)| name.as_str()))
            .map(|name| vpath(&format!("/home/alice/{name}")))
            .collect();
        let opened = source.fetched_bytes();
        let (results, fetched, held) = read_batch(&mut source, &bytes, &paths);
        for (path, result) in paths.iter().zip(&results) {
            assert!(result.is_ok(), "{path}: {result:?}");
            assert_eq!(*result, whole.read(path), "{path}: as read whole");
        }
        let needed = floor(&source, &paths);
        let read = source.fetched_bytes() - opened;
        assert_eq!(read, span(&fetched));
        assert!(
            read as f64 <= 1.2 * needed as f64,
            "{read} bytes read for entries of {needed}: {fetched:?}"
        );
        for range in &fetched {
            assert!(
                range.end - range.start <= MAX_BATCH_HELD,
                "a merged range of {} bytes",
                range.end - range.start
            );
        }
        assert!(
            held as u64 <= MAX_BATCH_HELD,
            "{held} bytes held at once, the bound is {MAX_BATCH_HELD}"
        );
        // 12 MB of neighbours take two ranges, the three lone files one each.
        assert_eq!(fetched.len(), 5, "{fetched:?}");
        assert_eq!(source.held_bytes(), 0);
    }

    #[test]
    fn a_damaged_entry_in_a_batch_fails_alone() {
        let texts: Vec<Vec<u8>> = (0..6)
            .map(|i| format!("note {i}: keep it short\n").repeat(20).into_bytes())
            .collect();
        let names: Vec<String> = (0..6).map(|i| format!("m/{i}.md")).collect();
        let items: Vec<Item<'_>> = names
            .iter()
            .zip(&texts)
            .map(|(name, text)| Item::File(name, text))
            .collect();
        let mut bytes = archive(&items);
        // The third entry's CRC in the central directory no longer matches its bytes.
        let at = bytes
            .windows(4)
            .enumerate()
            .filter(|(_, w)| *w == b"PK\x01\x02")
            .nth(2)
            .unwrap()
            .0;
        bytes[at + 16] ^= 0xff;
        let (_, mut whole) = mount(bytes.clone(), ZipLimits::default());
        let (_, mut source, _) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        let mut paths: Vec<VPath> = names
            .iter()
            .map(|name| vpath(&format!("/home/alice/{name}")))
            .collect();
        paths.push(vpath("/home/alice/m/none.md"));
        let (results, fetched, _) = read_batch(&mut source, &bytes, &paths);
        assert_eq!(fetched.len(), 1);
        for (i, (path, result)) in paths.iter().zip(&results).enumerate() {
            assert_eq!(*result, whole.read(path), "{path}: as read whole");
            match i {
                2 | 6 => assert!(result.is_err(), "{path}: {result:?}"),
                _ => assert_eq!(result.as_deref(), Ok(texts[i].as_slice()), "{path}"),
            }
        }
        // A fetch that fails marks the entries it was for, and the batch goes on.
        let mut batch = source.batch_in_place(&paths[..2]);
        assert!(matches!(batch.step(&mut source), BatchStep::Needs(_)));
        batch.fail(&mut source, "cannot read the archive");
        let BatchStep::Done(results) = batch.step(&mut source) else {
            panic!("nothing more to fetch");
        };
        assert_eq!(results, vec![Err("cannot read the archive".to_owned()); 2]);
        assert_eq!(source.held_bytes(), 0);
    }

    #[test]
    fn a_batch_fetches_a_local_header_longer_than_the_directory_says() {
        // Aligned entries carry padding in their local headers only: the first fetch falls
        // short and each such entry asks for the rest, as one read in place does.
        let texts: Vec<Vec<u8>> = (0..4)
            .map(|i| format!("aligned {i}\n").repeat(30).into_bytes())
            .collect();
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for (i, text) in texts.iter().enumerate() {
            writer
                .start_file(format!("{i}.md"), options().with_alignment(4096))
                .unwrap();
            writer.write_all(text).unwrap();
        }
        let bytes = writer.finish().unwrap().into_inner();
        let (_, mut source, _) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        let paths: Vec<VPath> = (0..4)
            .map(|i| vpath(&format!("/home/alice/{i}.md")))
            .collect();
        let (results, fetched, _) = read_batch(&mut source, &bytes, &paths);
        for (result, text) in results.iter().zip(&texts) {
            assert_eq!(result.as_deref(), Ok(text.as_slice()));
        }
        // The entries' ranges (4 KiB apart, too far to merge for so few bytes), and one more
        // fetch per entry for the rest of its header and its bytes.
        assert_eq!(fetched.len(), 2 * paths.len(), "{fetched:?}");
        assert_eq!(source.held_bytes(), 0);
    }

    #[test]
    fn a_compressed_size_the_archive_lies_about_is_not_fetched_whole() {
        // The central directory says the first entry's compressed bytes run 3 MB, over the
        // entries after it: reading it fetches what its inflated size can need, not that.
        let noise = noise(9, 3_000_000);
        let text = b"# Notes\nkeep it short\n".repeat(20);
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        writer.start_file("a.md", options()).unwrap();
        writer.write_all(&text).unwrap();
        let stored = options().compression_method(CompressionMethod::Stored);
        writer.start_file("junk.bin", stored).unwrap();
        writer.write_all(&noise).unwrap();
        let mut bytes = writer.finish().unwrap().into_inner();
        let at = bytes.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        bytes[at + 20..at + 24].copy_from_slice(&3_000_000u32.to_le_bytes());
        let (_, mut whole) = mount(bytes.clone(), ZipLimits::default());
        let path = vpath("/home/alice/a.md");
        let (_, mut source, _) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        let opened = source.fetched_bytes();
        let (results, fetched, held) = read_batch(&mut source, &bytes, std::slice::from_ref(&path));
        assert_eq!(results[0], whole.read(&path));
        let read = source.fetched_bytes() - opened;
        assert!(
            read < 100_000,
            "{read} bytes fetched for one small entry: {fetched:?}"
        );
        assert!(held < 100_000);
        let (_, mut source, _) = mount_in_place(&bytes, ZipLimits::default()).unwrap();
        let (result, _) = read_in_place(&mut source, &bytes, &path);
        assert_eq!(result, whole.read(&path));
        assert!(source.fetched_bytes() - opened < 100_000);
    }

    #[test]
    fn a_batch_of_an_archive_read_whole_fetches_nothing() {
        let bytes = archive(&[Item::File("a.md", b"a"), Item::File("b.md", b"b")]);
        let (_, mut source) = mount(bytes.clone(), ZipLimits::default());
        let paths = [vpath("/home/alice/b.md"), vpath("/home/alice/none.md")];
        let (results, fetched, _) = read_batch(&mut source, &bytes, &paths);
        assert!(fetched.is_empty());
        assert_eq!(results[0].as_deref(), Ok(&b"b"[..]));
        assert_eq!(results[1], source.read(&paths[1]));
    }
}
