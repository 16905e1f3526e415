//! The share payload: a sanitized snapshot carried in a link or a zip, and read back.
//!
//! There is no server: the snapshot travels inside the link's fragment (`#s=…`, which
//! browsers never send) or as a file. Both carry the same versioned payload, so links and
//! files made by this version keep opening in later ones.
//!
//! ## Format 1
//! The payload is one JSON object:
//!
//! ```text
//! { "format": 1, "made": "2026-11-30T09:12:00Z",
//!   "home": "/home/ahaaa", "project": "/home/ahaaa/work/shop" | null,
//!   "config_dir": null, "os": "linux", "version": null, "today": null,
//!   "auto_memory_off_by_env": true, "skill_listing_budget_env": 12000,  // when set
//!   "add_dirs": ["/home/ahaaa/b"], "add_dirs_claude_md": true, "plugin_dirs": [],  // when set
//!   "mounts": ["/home/ahaaa/.claude", …],        // folders the snapshot covers
//!   "dirs": ["/home/ahaaa/work/shop/.git", …],  // folders that exist with no file kept
//!   "files": [ { "path": "/…/CLAUDE.md", "size": 812, "modified": "2026-11-30",
//!                "text": "…" | "base64": "…" | "entry": "…" | "unreadable": true,
//!                "stand_ins": { "xxxxxxxa": "b/c.md" } }, … ],       // when it has any
//!   "findings": [ { "code": "zip-entry-rejected", "severity": "warning",
//!                   "path": "…", "line": null }, … ],
//!   "quoted": { "/home/ahaaa/work/shop/CLAUDE.md": 31, … },   // lengths before renaming
//!   "order": { "/home/ahaaa/.claude/projects/-home-ahaaa-work-shop/memory": [1, 0, 2] },
//!   "listing_order": { "/home/ahaaa/.claude/skills": [2, 0, 1] },
//!   "sent_twice": { "/home/ahaaa/work/shop/CLAUDE.local.md": "/home/ahaaa/CLAUDE.md" } }
//! ```
//!
//! A file carries `text` (valid UTF-8), `base64` (base64url bytes, for invalid UTF-8), in a
//! zip `entry` (the zip entry that holds its bytes), `unreadable`, or nothing (only its size
//! is shared: the analysis never reads it). A link leaves `size` out where it is the length
//! of the bytes carried. `modified` is the day only, and only for the files of memory
//! folders: the growth chart reads no more. Absent optional fields read as null, unknown
//! fields are ignored, so a later writer may add fields without a new format number; a
//! change of meaning gets one.
//!
//! A file's `stand_ins` name what its text's stand-ins stand for: a renamed import path or
//! link destination is written at its original's length, so that the text measures the
//! same, and where the pseudonym has another length it is written as a stand-in of
//! placeholders ([`Tree::set_stand_ins`]); so is a renamed frontmatter value (a `paths`
//! glob, a skill's `name`). Each must be the target of a reference the text holds or a
//! string of its frontmatter, and each target of bounded length, else the payload is
//! refused as damaged.
//!
//! `quoted` and `order` keep what pseudonyms do not: how long a renamed name was where
//! Claude Code's text quotes it, and the order the original listed a folder's entries in
//! where the shared names sort otherwise (the positions of the entries in byte order of the
//! shared names, in the original's order; [`Tree::set_order`]). An order that is not one,
//! each entry of that folder once, is refused as damaged. `listing_order` is the order the
//! source listed a skills folder in, where it recorded one ([`Tree::set_listing_order`];
//! releases 2.1.113 to 2.1.153 list skills so): positions in the shared tree's order (after
//! `order`), each at most once, else refused as damaged. `sent_twice` names, for each file
//! whose text the original sent twice in every session (an instruction file's text, a
//! skill's or command's listed description), the earlier file it repeats
//! ([`Tree::set_sent_twice`]): placeholders keep a text's shape, not its words, so the copy
//! cannot tell this itself. Both must be files the payload lists, else it is refused as
//! damaged; without the field (a payload made before it), nothing was sent twice.
//!
//! - **Link**: `1.` then the base64url (no padding) of the raw-deflated compact JSON. The
//!   page puts it after `#s=`.
//! - **Zip**: the manifest `memdiag-share.json` (the same JSON, pretty, each file with an
//!   `entry` instead of its contents) and every file's bytes at its virtual path without the
//!   root (`home/ahaaa/.claude/CLAUDE.md`; a drive path `C:/x` is stored as `C/x`).
//!
//! Reading never trusts the payload: the link's length, the inflated size and every zip
//! entry are capped ([`ShareLimits`]), and a bad path, an unknown format or broken data is an
//! error, never a panic.
//!
//! ## For the page
//! - Sharing: [`crate::sanitize::sanitize`] with the person's options; preview
//!   `sanitized.tree.files()` (paths and sizes) and `sanitized.warnings`;
//!   [`Sanitized::verify`] can confirm the shared report matches. Then [`encode_link`] for
//!   `#s=…` (its length is the string's length) and [`to_zip`] for the file.
//!   [`inspect_link`] shows exactly what a link holds.
//! - Opening: a fragment with `s=` goes to [`decode_link`]; a dropped zip for which
//!   [`is_share_zip`] holds goes to [`open_share_zip`], any other to [`crate::mount_zip`].
//!   [`crate::analyze`] over the [`SharedSnapshot`]'s tree and input finishes in one turn:
//!   every file it reads is in the tree.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{Cursor, Read, Write};

use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine as _;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use serde::{Deserialize, Serialize};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::archive::{mount_zip, ZipLimits};
use crate::input::Input;
use crate::report::{Code, Diagnostic, Os, Severity};
use crate::sanitize::Sanitized;
use crate::tree::{ContentSource, Contents, FileEntry, QuotedLength, Tree};
use crate::vpath::VPath;

/// The payload format this version writes, and the newest it reads.
pub const SHARE_FORMAT: u32 = 1;

/// The key of the URL fragment that holds a link's payload: `#s=1.…`.
pub const LINK_KEY: &str = "s";

/// The manifest entry of a share zip.
pub const MANIFEST_NAME: &str = "memdiag-share.json";

/// A shared snapshot as read back from a link or a zip: analyse it like any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedSnapshot {
    /// The tree, with every carried file's contents loaded; a file shared by size only is
    /// marked unreadable, and the analysis never asks for one.
    pub tree: Tree,
    /// The host facts, as pseudonymised when the snapshot was shared.
    pub input: Input,
    /// When it was made, as the person sharing's page gave it (ISO 8601).
    pub made: String,
    /// The payload format it was written in.
    pub format: u32,
    /// True when the person sharing kept the files' text; otherwise it is placeholders.
    pub text_kept: bool,
}

/// Caps on what reading a link or a zip may cost, against hostile input.
///
/// A shared snapshot is made by [`crate::sanitize()`] from what one analysis listed, so it is
/// small and shallow; the caps are far above any real one and far below what could make the
/// receiving page's analysis take more than a fraction of a second. Each is checked before
/// anything is analysed, and each refusal says which cap and by how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShareLimits {
    /// Longest link accepted, in characters.
    pub max_link_chars: usize,
    /// Largest inflated payload of a link, in bytes.
    pub max_link_payload_bytes: u64,
    /// Largest zip manifest, in bytes.
    pub max_payload_bytes: u64,
    /// Most files a payload may list.
    pub max_files: usize,
    /// Largest size a file may claim, in bytes: more than any file system holds is damage,
    /// and it keeps every sum of sizes (at most `max_files` of them) far from overflowing.
    pub max_file_bytes: u64,
    /// Longest length a quoted name (`quoted`: a path or a skill name) may claim, in each of
    /// its measures: longer than any path a snapshot can hold is damage.
    pub max_quoted_length: u64,
    /// Most files with frontmatter (rules, skills, agents, memory topics) a payload may carry:
    /// each one's YAML is parsed and its globs compiled.
    pub max_frontmatter_files: usize,
    /// Deepest nesting of `[`, `{` (YAML flow collections and glob braces alike) in any
    /// frontmatter block or settings file carried.
    pub max_nesting: usize,
    /// Most `{` (flow maps and brace groups) in one frontmatter block or settings file.
    pub max_braces: usize,
    /// Most wildcards (`*`, `?`) in one frontmatter block or settings file: each costs the
    /// glob matcher a pass over the path.
    pub max_wildcards: usize,
    /// Most patterns the braces of one frontmatter block or settings file could expand to
    /// (the product of each group's alternatives).
    pub max_expansions: u64,
    /// Most glob-matching steps the snapshot may need: over every file with frontmatter, the
    /// patterns its braces could expand to times its wildcards (plus one), times the files
    /// under the project (a real snapshot keeps one per conditional rule there: the first
    /// file discovery matched it with). A real setup needs well under a million.
    pub max_glob_work: u64,
    /// Caps on the zip entries of a share zip.
    pub zip: ZipLimits,
}

impl Default for ShareLimits {
    fn default() -> ShareLimits {
        ShareLimits {
            // Browsers keep addresses up to about 2 MB; a longer link never arrives whole.
            max_link_chars: 2 * 1024 * 1024,
            max_link_payload_bytes: 16 * 1024 * 1024,
            max_payload_bytes: 16 * 1024 * 1024,
            max_files: 20_000,
            // 16 TiB: the largest file ext4 and NTFS hold with their usual 4 KiB blocks.
            max_file_bytes: 1 << 44,
            // A zip entry's name is at most 65,535 bytes (a dropped folder's paths are far
            // shorter): twice that leaves room for the folder the zip is opened at.
            max_quoted_length: 1 << 17,
            max_frontmatter_files: 1_000,
            max_nesting: 8,
            max_braces: 32,
            max_wildcards: 32,
            max_expansions: 64,
            max_glob_work: 2_000_000,
            zip: ZipLimits::default(),
        }
    }
}

/// Why a link or a file cannot be opened as a shared snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// It is not a share link, or a zip without a share manifest (open that as an ordinary
    /// snapshot).
    NotAShare(String),
    /// It was made by a newer version, in a format this one does not know.
    NewerFormat(u32),
    /// It is larger than the limits allow.
    TooLarge(String),
    /// It is damaged: truncated, altered, or not what it claims to be.
    Corrupt(String),
    /// It holds something no shared snapshot holds (frontmatter nested thousands deep, a
    /// brace bomb, thousands of rules), which could make analysing it slow: refused unread.
    Refused(String),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotAShare(why) => write!(f, "not a shared snapshot: {why}"),
            ShareError::NewerFormat(format) => write!(
                f,
                "made by a newer version (format {format}; this one reads up to {SHARE_FORMAT})"
            ),
            ShareError::TooLarge(why) => write!(f, "too large to open: {why}"),
            ShareError::Corrupt(why) => write!(f, "damaged: {why}"),
            ShareError::Refused(why) => write!(f, "refused: {why}"),
        }
    }
}

impl std::error::Error for ShareError {}

/// The link payload of a sanitized snapshot: the value of the `s` fragment key (`1.…`).
///
/// `made` is the date-time the page shows in the read-only banner; the core never reads a
/// clock. The same snapshot and `made` always give the same link.
pub fn encode_link(sanitized: &Sanitized, made: &str) -> String {
    let payload = Payload::of(sanitized, made, Carrier::Inline);
    let json = serde_json::to_vec(&payload).expect("the payload serialises");
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(&json).expect("writing to memory");
    let deflated = encoder.finish().expect("writing to memory");
    format!("{SHARE_FORMAT}.{}", base64url_encode(&deflated))
}

/// Reads a link made by [`encode_link`], with the default [`ShareLimits`].
///
/// Accepts the bare value (`1.…`), `s=1.…`, `#s=1.…` or a whole URL with that fragment.
///
/// # Errors
/// When it is not a share link, is from a newer format, is over the limits, or is damaged.
pub fn decode_link(link: &str) -> Result<SharedSnapshot, ShareError> {
    decode_link_with(link, &ShareLimits::default())
}

/// Reads a link made by [`encode_link`] within `limits`.
///
/// # Errors
/// As [`decode_link`].
pub fn decode_link_with(link: &str, limits: &ShareLimits) -> Result<SharedSnapshot, ShareError> {
    let (format, json) = link_payload(link, limits)?;
    let payload: Payload = serde_json::from_slice(&json)
        .map_err(|error| ShareError::Corrupt(format!("the payload does not read: {error}")))?;
    if payload.format != format {
        return Err(ShareError::Corrupt(format!(
            "the link says format {format}, its payload {}",
            payload.format
        )));
    }
    payload.into_snapshot(limits, &mut |_, _| {
        Err(ShareError::Corrupt(
            "a link cannot refer to zip entries".to_owned(),
        ))
    })
}

/// The JSON a link carries, exactly as it inflates: for a person who wants to see what a
/// link shares before sending or opening it.
///
/// # Errors
/// As [`decode_link`], except that the JSON is not checked beyond being text.
pub fn inspect_link(link: &str) -> Result<String, ShareError> {
    let (_, json) = link_payload(link, &ShareLimits::default())?;
    String::from_utf8(json).map_err(|_| ShareError::Corrupt("the payload is not text".to_owned()))
}

/// The format number and the inflated payload of a link.
fn link_payload(link: &str, limits: &ShareLimits) -> Result<(u32, Vec<u8>), ShareError> {
    if link.len() > limits.max_link_chars {
        return Err(ShareError::TooLarge(format!(
            "the link is {} characters, over the {} accepted",
            link.len(),
            limits.max_link_chars
        )));
    }
    let value = fragment_value(link.trim());
    let Some((format, data)) = value.split_once('.') else {
        return Err(ShareError::NotAShare(
            "no format number before the data".to_owned(),
        ));
    };
    let format: u32 = format
        .parse()
        .map_err(|_| ShareError::NotAShare(format!("{format:?} is not a format number")))?;
    if format > SHARE_FORMAT {
        return Err(ShareError::NewerFormat(format));
    }
    if format == 0 {
        return Err(ShareError::NotAShare("format 0 does not exist".to_owned()));
    }
    let deflated = base64url_decode(data)
        .map_err(|why| ShareError::Corrupt(format!("the link's data does not read: {why}")))?;
    Ok((format, inflate(&deflated, limits.max_link_payload_bytes)?))
}

/// The sanitized snapshot as a zip the page opens like any snapshot: a manifest
/// (`memdiag-share.json`) and every carried file at its virtual path.
pub fn to_zip(sanitized: &Sanitized, made: &str) -> Vec<u8> {
    let payload = Payload::of(sanitized, made, Carrier::Entries);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let manifest = serde_json::to_vec_pretty(&payload).expect("the payload serialises");
    writer
        .start_file(MANIFEST_NAME, options)
        .expect("writing to memory");
    writer.write_all(&manifest).expect("writing to memory");
    // Writing to memory cannot fail, and every entry name is short enough and unique (see
    // `Payload::of`): the `expect`s below hold whatever the snapshot holds.
    for file in &payload.files {
        let (Some(entry), Some(entry_file)) =
            (&file.entry, sanitized.tree.file(&vpath(&file.path)))
        else {
            continue;
        };
        let Contents::Loaded(bytes) = &entry_file.contents else {
            continue;
        };
        writer
            .start_file(entry, options)
            .expect("writing to memory");
        writer.write_all(bytes).expect("writing to memory");
    }
    writer.finish().expect("writing to memory").into_inner()
}

/// True when `bytes` are a zip that holds a share manifest: open it with
/// [`open_share_zip`] rather than as an ordinary snapshot.
pub fn is_share_zip(bytes: &[u8]) -> bool {
    ZipArchive::new(Cursor::new(bytes))
        .is_ok_and(|archive| archive.index_for_name(MANIFEST_NAME).is_some())
}

/// Opens a zip made by [`to_zip`], with the default [`ShareLimits`].
///
/// # Errors
/// [`ShareError::NotAShare`] for a zip without a manifest (an ordinary snapshot, for
/// [`crate::mount_zip`]) or bytes that are not a zip; the other errors as [`decode_link`].
pub fn open_share_zip(bytes: &[u8]) -> Result<SharedSnapshot, ShareError> {
    open_share_zip_with(bytes, &ShareLimits::default())
}

/// Opens a zip made by [`to_zip`] within `limits`.
///
/// # Errors
/// As [`open_share_zip`].
pub fn open_share_zip_with(
    bytes: &[u8],
    limits: &ShareLimits,
) -> Result<SharedSnapshot, ShareError> {
    if !is_share_zip(bytes) {
        return Err(ShareError::NotAShare(
            "the file is not a zip with a share manifest".to_owned(),
        ));
    }
    // Mounting the archive at the root reuses the zip reader's checks on names, sizes and
    // ratios; each entry is then read through it, capped, on request.
    let mut scratch = Tree::new();
    let mut source = mount_zip(&mut scratch, "/", bytes.to_vec(), limits.zip)
        .map_err(|error| ShareError::Corrupt(error.to_string()))?;
    let manifest_path = VPath::new(&format!("/{MANIFEST_NAME}")).expect("a constant path");
    let declared = scratch.file(&manifest_path).map_or(0, |file| file.size);
    if declared > limits.max_payload_bytes {
        return Err(ShareError::TooLarge(format!(
            "the manifest is {declared} bytes, over the {} accepted",
            limits.max_payload_bytes
        )));
    }
    let manifest = source
        .read(&manifest_path)
        .map_err(|why| ShareError::Corrupt(format!("the manifest cannot be read: {why}")))?;
    let payload: Payload = serde_json::from_slice(&manifest)
        .map_err(|error| ShareError::Corrupt(format!("the manifest does not read: {error}")))?;
    if payload.format > SHARE_FORMAT {
        return Err(ShareError::NewerFormat(payload.format));
    }
    if payload.format == 0 {
        return Err(ShareError::Corrupt("format 0 does not exist".to_owned()));
    }
    payload.into_snapshot(limits, &mut |entry, size| {
        let path = VPath::new(&format!("/{entry}"))
            .map_err(|error| ShareError::Corrupt(format!("entry {entry:?}: {error}")))?;
        match scratch.file(&path) {
            Some(file) if file.size == size => {}
            Some(_) => {
                return Err(ShareError::Corrupt(format!(
                    "entry {entry:?} does not have the size the manifest lists"
                )))
            }
            None => {
                return Err(ShareError::Corrupt(format!(
                    "entry {entry:?} is listed in the manifest but missing"
                )))
            }
        }
        source
            .read(&path)
            .map_err(|why| ShareError::Corrupt(format!("entry {entry:?}: {why}")))
    })
}

// ----- the payload -----------------------------------------------------------------------

/// The JSON both carriers hold.
/// The most `--add-dir` and `--plugin-dir` folders a payload may name.
const MAX_EXTRA_FOLDERS: usize = 256;

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    format: u32,
    made: String,
    home: String,
    #[serde(default)]
    project: Option<String>,
    #[serde(default)]
    config_dir: Option<String>,
    #[serde(default)]
    os: Os,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    today: Option<String>,
    /// `DISABLE_AUTO_MEMORY` was set to a value that turns auto memory off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    auto_memory_off_by_env: bool,
    /// The skills listing's budget `SLASH_COMMAND_TOOL_CHAR_BUDGET` set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skill_listing_budget_env: Option<u64>,
    /// `--add-dir` folders (renamed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    add_dirs: Vec<String>,
    /// `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD` was set to a value that turns it on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    add_dirs_claude_md: bool,
    /// `--plugin-dir` folders (renamed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    plugin_dirs: Vec<String>,
    #[serde(default)]
    mounts: Vec<String>,
    #[serde(default)]
    dirs: Vec<String>,
    #[serde(default)]
    files: Vec<PayloadFile>,
    #[serde(default)]
    findings: Vec<Finding>,
    /// Written only when true, so a copy without text reads the same as before the field.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    text_kept: bool,
    /// Shared path or skill name → how the name it stands for measured, where Claude Code's
    /// text quotes it and the pseudonym's length differs ([`Tree::set_quoted`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    quoted: BTreeMap<String, Quoted>,
    /// Folder → the positions of its entries (files and folders, in byte order of their
    /// shared names) in the order the original listed them, where that differs
    /// ([`Tree::set_order`]): pseudonyms are counters that need not sort as the names did.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    order: BTreeMap<String, Vec<usize>>,
    /// Folder → the positions of its entries (in the tree's order, after `order`) in the
    /// order the source listed them ([`Tree::set_listing_order`]), where it recorded one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    listing_order: BTreeMap<String, Vec<usize>>,
    /// File → the earlier file whose text it repeats in every session, where the original
    /// found one ([`Tree::set_sent_twice`]): the copy's placeholders cannot tell.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    sent_twice: BTreeMap<String, String>,
}

/// A quoted name's length: one number when bytes, characters, UTF-16 units and columns
/// agree (ASCII), else the four.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
enum Quoted {
    Same(u64),
    Each([u64; 4]),
}

impl From<QuotedLength> for Quoted {
    fn from(q: QuotedLength) -> Quoted {
        if q.bytes == q.chars && q.chars == q.utf16 && q.utf16 == q.columns {
            Quoted::Same(q.bytes)
        } else {
            Quoted::Each([q.bytes, q.chars, q.utf16, q.columns])
        }
    }
}

impl From<Quoted> for QuotedLength {
    fn from(q: Quoted) -> QuotedLength {
        let [bytes, chars, utf16, columns] = match q {
            Quoted::Same(n) => [n; 4],
            Quoted::Each(each) => each,
        };
        QuotedLength {
            bytes,
            chars,
            utf16,
            columns,
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct PayloadFile {
    path: String,
    /// Left out when the file carries its bytes (`text`, `base64`): their length is its size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    modified: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base64: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    entry: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    unreadable: bool,
    /// Reference targets the text writes as stand-ins → the targets they stand for
    /// ([`Tree::set_stand_ins`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    stand_ins: BTreeMap<String, String>,
}

/// A finding made while the original tree was read (a rejected zip entry), carried so the
/// shared report shows it too.
#[derive(Debug, Serialize, Deserialize)]
struct Finding {
    code: String,
    severity: Severity,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    line: Option<u64>,
}

/// Reads a zip entry by name, given the size the manifest lists.
type ReadEntry<'a> = dyn FnMut(&str, u64) -> Result<Vec<u8>, ShareError> + 'a;

/// Where a payload keeps file contents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carrier {
    /// In the JSON: a link.
    Inline,
    /// In zip entries beside the manifest.
    Entries,
}

/// What a shared file's contents say when the analysis would ask for them: it never does,
/// since only files it never reads are shared by size.
const SIZE_ONLY: &str = "only this file's size was shared";

/// What a file that could not be read when it was shared says.
const WAS_UNREADABLE: &str = "it could not be read when the snapshot was shared";

impl Payload {
    fn of(sanitized: &Sanitized, made: &str, carrier: Carrier) -> Payload {
        let input = &sanitized.input;
        // Entry names in use, the manifest's first, so that no file can take its name.
        let mut entries = std::collections::BTreeSet::from([MANIFEST_NAME.to_owned()]);
        let files = sanitized
            .tree
            .files()
            .enumerate()
            .map(|(index, (path, file))| {
                let mut shared = PayloadFile {
                    path: path.as_str().to_owned(),
                    size: Some(file.size),
                    modified: file.modified.clone(),
                    text: None,
                    base64: None,
                    entry: None,
                    unreadable: false,
                    stand_ins: sanitized
                        .tree
                        .stand_ins()
                        .get(path)
                        .cloned()
                        .unwrap_or_default(),
                };
                match &file.contents {
                    Contents::Unread => {}
                    Contents::Unreadable(_) => shared.unreadable = true,
                    Contents::Loaded(bytes) => match carrier {
                        Carrier::Entries => {
                            let mut entry = entry_name(path);
                            // Two roots can flatten to one name (`/C/x` and `C:/x`), or a
                            // file can sit where the manifest does, or a path can be longer
                            // than a zip entry name may be; the manifest says which entry is
                            // which, so any unused name does.
                            let mut attempt = 0;
                            if entry.len() > MAX_ENTRY_NAME_BYTES {
                                entry = format!("memdiag-share/{index}-long");
                            }
                            while !entries.insert(entry.clone()) {
                                entry = format!("memdiag-share/{index}-{attempt}");
                                attempt += 1;
                            }
                            shared.entry = Some(entry);
                        }
                        Carrier::Inline => {
                            match std::str::from_utf8(bytes) {
                                Ok(text) => shared.text = Some(text.to_owned()),
                                Err(_) => shared.base64 = Some(base64url_encode(bytes)),
                            }
                            // The receiver measures the bytes; a size that differs stays.
                            if file.size == bytes.len() as u64 {
                                shared.size = None;
                            }
                        }
                    },
                }
                shared
            })
            .collect();
        Payload {
            format: SHARE_FORMAT,
            made: made.to_owned(),
            home: input.home.clone(),
            project: input.project.clone(),
            config_dir: input.config_dir.clone(),
            os: input.os,
            version: input.version.clone(),
            today: input.today.clone(),
            auto_memory_off_by_env: input.disable_auto_memory_env.is_some(),
            skill_listing_budget_env: input
                .skill_listing_budget_env
                .as_deref()
                .and_then(crate::discover::session::listing_budget_from_env),
            add_dirs: input.additional_dirs.clone(),
            add_dirs_claude_md: input.additional_dirs_claude_md_env.is_some(),
            plugin_dirs: input.plugin_dirs.clone(),
            mounts: sanitized
                .tree
                .mounts()
                .map(|m| m.as_str().to_owned())
                .collect(),
            dirs: sanitized
                .dirs()
                .iter()
                .map(|d| d.as_str().to_owned())
                .collect(),
            files,
            text_kept: sanitized.text_kept,
            quoted: sanitized
                .quoted()
                .iter()
                .map(|(name, length)| (name.clone(), Quoted::from(*length)))
                .collect(),
            order: sanitized
                .order()
                .iter()
                .map(|(dir, positions)| (dir.as_str().to_owned(), positions.clone()))
                .collect(),
            listing_order: sanitized
                .listing_orders()
                .iter()
                .map(|(dir, positions)| (dir.as_str().to_owned(), positions.clone()))
                .collect(),
            sent_twice: sanitized
                .tree
                .sent_twice()
                .into_iter()
                .flatten()
                .map(|(later, earlier)| (later.as_str().to_owned(), earlier.as_str().to_owned()))
                .collect(),
            findings: sanitized
                .tree
                .diagnostics()
                .iter()
                .map(|d| Finding {
                    code: d.code.as_str().to_owned(),
                    severity: d.severity,
                    path: d.path.clone(),
                    line: d.line,
                })
                .collect(),
        }
    }

    /// Builds the tree, reading zip entries through `entry(name, size)`.
    fn into_snapshot(
        self,
        limits: &ShareLimits,
        entry: &mut ReadEntry<'_>,
    ) -> Result<SharedSnapshot, ShareError> {
        if self.files.len() > limits.max_files {
            return Err(ShareError::TooLarge(format!(
                "{} files, over the {} accepted",
                self.files.len(),
                limits.max_files
            )));
        }
        if self.made.len() > 64 || self.made.chars().any(char::is_control) {
            return Err(ShareError::Corrupt(
                "the date it was made is not a date".to_owned(),
            ));
        }
        let path = |raw: &str| {
            VPath::new(raw).map_err(|error| ShareError::Corrupt(format!("a path: {error}")))
        };
        for raw in [
            Some(&self.home),
            self.project.as_ref(),
            self.config_dir.as_ref(),
        ]
        .into_iter()
        .flatten()
        {
            path(raw)?;
        }
        let mut tree = Tree::new();
        let mut budget = Budget::default();
        for mount in &self.mounts {
            tree.add_mount(path(mount)?);
        }
        for dir in &self.dirs {
            tree.add_dir(path(dir)?);
        }
        for file in self.files {
            let at = path(&file.path)?;
            // A sender lists each file once; a second copy would silently replace the first.
            if tree.file(&at).is_some() {
                return Err(ShareError::Corrupt(format!("{at} is listed twice")));
            }
            // Only a file that carries its bytes may leave its size out (it is their length).
            let size = match file.size {
                Some(size) => size,
                None if file.text.is_some() || file.base64.is_some() => 0,
                None => return Err(ShareError::Corrupt(format!("{at} has no size"))),
            };
            if size > limits.max_file_bytes {
                return Err(ShareError::Corrupt(format!(
                    "{at} claims {} bytes, more than a file can hold (at most {})",
                    crate::discover::group_digits(size),
                    crate::discover::group_digits(limits.max_file_bytes)
                )));
            }
            let contents = match (file.text, file.base64, file.entry, file.unreadable) {
                (Some(text), None, None, false) => Contents::Loaded(text.into_bytes()),
                (None, Some(data), None, false) => {
                    Contents::Loaded(base64url_decode(&data).map_err(|why| {
                        ShareError::Corrupt(format!("the bytes of {at} do not read: {why}"))
                    })?)
                }
                (None, None, Some(name), false) => Contents::Loaded(entry(&name, size)?),
                (None, None, None, true) => Contents::Unreadable(WAS_UNREADABLE.to_owned()),
                (None, None, None, false) => Contents::Unreadable(SIZE_ONLY.to_owned()),
                _ => {
                    return Err(ShareError::Corrupt(format!(
                        "{at} says two things about its contents"
                    )))
                }
            };
            if let Contents::Loaded(bytes) = &contents {
                budget.check(&at, bytes, Some(&file.stand_ins), limits)?;
            }
            if !file.stand_ins.is_empty() {
                check_stand_ins(&at, &contents, &file.stand_ins)?;
                tree.set_stand_ins(at.clone(), file.stand_ins);
            }
            let size = match (&contents, file.size) {
                (Contents::Loaded(bytes), None) => bytes.len() as u64,
                _ => size,
            };
            tree.insert(
                at,
                FileEntry {
                    size,
                    contents,
                    modified: file.modified,
                },
            );
        }
        let project_files = match self.project.as_deref().map(VPath::new) {
            Some(Ok(project)) => tree.files_under(&project).count(),
            _ => 0,
        };
        budget.finish(project_files, limits)?;
        // Claude Code takes a handful of extra folders; a payload naming thousands is not one
        // a sharer made.
        if self.add_dirs.len() + self.plugin_dirs.len() > MAX_EXTRA_FOLDERS {
            return Err(ShareError::TooLarge(format!(
                "{} extra and plugin folders, over the {MAX_EXTRA_FOLDERS} accepted",
                self.add_dirs.len() + self.plugin_dirs.len()
            )));
        }
        if self.quoted.len() > limits.max_files * 2 {
            return Err(ShareError::TooLarge(format!(
                "{} quoted names, over the {} accepted",
                self.quoted.len(),
                limits.max_files * 2
            )));
        }
        if let Some((name, longest)) = self.quoted.iter().find_map(|(name, length)| {
            let longest = match length {
                Quoted::Same(n) => *n,
                Quoted::Each(each) => each.iter().copied().max().unwrap_or(0),
            };
            (longest > limits.max_quoted_length).then_some((name, longest))
        }) {
            return Err(ShareError::Corrupt(format!(
                "the quoted length of a name ({} characters) is {}, longer than any path or \
                 name can be (at most {})",
                name.chars().count(),
                crate::discover::group_digits(longest),
                crate::discover::group_digits(limits.max_quoted_length)
            )));
        }
        tree.set_quoted(
            self.quoted
                .into_iter()
                .map(|(name, length)| (name, QuotedLength::from(length)))
                .collect(),
        );
        set_order(&mut tree, self.order, &path)?;
        set_listing_orders(&mut tree, self.listing_order, &path)?;
        set_sent_twice(&mut tree, self.sent_twice, &path)?;
        for finding in self.findings {
            // No file has more lines than bytes.
            if let Some(line) = finding.line.filter(|&l| l > limits.max_file_bytes) {
                return Err(ShareError::Corrupt(format!(
                    "a finding names line {}, past the end of any file",
                    crate::discover::group_digits(line)
                )));
            }
            // A code this build does not know (a newer sender, a crafted link) is left out.
            let Ok(code) = finding.code.parse::<Code>() else {
                continue;
            };
            tree.push_diagnostic(Diagnostic {
                line: finding.line,
                ..Diagnostic::new(
                    code,
                    finding.severity,
                    finding.path.as_deref(),
                    "found when the original snapshot was read; the details are not shared",
                )
            });
        }
        Ok(SharedSnapshot {
            tree,
            input: Input {
                home: self.home,
                project: self.project,
                config_dir: self.config_dir,
                os: self.os,
                version: self.version,
                today: self.today,
                reads: Vec::new(),
                disable_auto_memory_env: self.auto_memory_off_by_env.then(|| "1".to_owned()),
                skill_listing_budget_env: self.skill_listing_budget_env.map(|n| n.to_string()),
                session: crate::SessionKind::Interactive,
                additional_dirs: self.add_dirs,
                additional_dirs_claude_md_env: self.add_dirs_claude_md.then(|| "1".to_owned()),
                plugin_dirs: self.plugin_dirs,
            },
            made: self.made,
            text_kept: self.text_kept,
            format: self.format,
        })
    }
}

/// Sets which texts the original sent twice ([`Tree::set_sent_twice`]): each pair two
/// files the payload lists, else refused as damaged. Always set, empty when the payload
/// names none (as one made before the field did): a shared snapshot's placeholders never
/// decide it.
fn set_sent_twice(
    tree: &mut Tree,
    pairs: BTreeMap<String, String>,
    path: &dyn Fn(&str) -> Result<VPath, ShareError>,
) -> Result<(), ShareError> {
    let mut carried = BTreeMap::new();
    for (later, earlier) in pairs {
        let (later, earlier) = (path(&later)?, path(&earlier)?);
        for at in [&later, &earlier] {
            if tree.file(at).is_none() {
                return Err(ShareError::Corrupt(format!(
                    "a text sent twice names {at}, which the snapshot does not hold"
                )));
            }
        }
        carried.insert(later, earlier);
    }
    tree.set_sent_twice(carried);
    Ok(())
}

/// The longest target a stand-in may stand for, in bytes: a path, far longer than any real.
const MAX_STAND_IN_TARGET: usize = 4096;

/// Checks a file's stand-ins ([`Tree::set_stand_ins`]): each must be the target of a
/// reference its text holds or a string of its frontmatter, so there are no more of them
/// than those (the scan is linear in the text), and each target it stands for a path or
/// name of bounded length.
fn check_stand_ins(
    at: &VPath,
    contents: &Contents,
    stand_ins: &BTreeMap<String, String>,
) -> Result<(), ShareError> {
    let Contents::Loaded(bytes) = contents else {
        return Err(ShareError::Corrupt(format!(
            "{at} has stand-ins but no text"
        )));
    };
    let text = String::from_utf8_lossy(bytes);
    let written = std::cell::RefCell::new(std::collections::BTreeSet::new());
    // Discovery reads a text after its byte order mark or with it, by release and encoding:
    // a stand-in may be either's. The frontmatter was checked against the caps before
    // (`Budget::check`).
    let bare = text.strip_prefix('\u{feff}');
    for text in [Some(&*text), bare].into_iter().flatten() {
        if let Some(mut fm) = crate::text::frontmatter::parse(text) {
            fm.map_strings(&|value| {
                written.borrow_mut().insert(value.to_owned());
                None
            });
        }
        let targets = crate::text::references::scan(text)
            .into_iter()
            .map(|r| r.target);
        written.borrow_mut().extend(targets);
    }
    let written = written.into_inner();
    if let Some(stray) = stand_ins.keys().find(|s| !written.contains(*s)) {
        return Err(ShareError::Corrupt(format!(
            "{at} names a stand-in its text does not hold ({} characters)",
            stray.chars().count()
        )));
    }
    if stand_ins
        .values()
        .any(|target| target.len() > MAX_STAND_IN_TARGET || target.contains(char::is_control))
    {
        return Err(ShareError::Corrupt(format!(
            "a stand-in of {at} names no path"
        )));
    }
    Ok(())
}

/// Gives `tree` the original's order of each folder `order` names, after checking that it is
/// one: each position of the folder's entries exactly once. Every order is checked against
/// the tree's byte order before any is set, so the tree is sorted once, and the check costs
/// no more than the entries carried.
fn set_order(
    tree: &mut Tree,
    order: BTreeMap<String, Vec<usize>>,
    path: &dyn Fn(&str) -> Result<VPath, ShareError>,
) -> Result<(), ShareError> {
    let mut named = Vec::with_capacity(order.len());
    for (dir, positions) in order {
        let dir = path(&dir)?;
        let names = names_at(tree, &dir, positions, true).ok_or_else(|| {
            ShareError::Corrupt(format!(
                "the order given for {dir} is not an order of its {} entries",
                tree.entry_names(&dir).len()
            ))
        })?;
        named.push((dir, names));
    }
    for (dir, names) in named {
        tree.set_order(dir, names);
    }
    Ok(())
}

/// Gives `tree` the order its source listed each folder `orders` names in, after checking
/// that each is a list of the folder's positions, each at most once (the source may have
/// listed entries the snapshot does not keep). The cost is bounded by the entries carried.
fn set_listing_orders(
    tree: &mut Tree,
    orders: BTreeMap<String, Vec<usize>>,
    path: &dyn Fn(&str) -> Result<VPath, ShareError>,
) -> Result<(), ShareError> {
    for (dir, positions) in orders {
        let dir = path(&dir)?;
        let names = names_at(tree, &dir, positions, false).ok_or_else(|| {
            ShareError::Corrupt(format!(
                "the listing order given for {dir} is not one of its {} entries",
                tree.entry_names(&dir).len()
            ))
        })?;
        tree.set_listing_order(dir, names);
    }
    Ok(())
}

/// The names of `dir`'s entries at `positions` (in the tree's order), or `None` when a
/// position is past them or repeated, or (with `every`) when one of them is left out.
fn names_at(tree: &Tree, dir: &VPath, positions: Vec<usize>, every: bool) -> Option<Vec<String>> {
    let entries = tree.entry_names(dir);
    let mut seen = vec![false; entries.len()];
    let fits = if every {
        positions.len() == entries.len()
    } else {
        positions.len() <= entries.len()
    };
    let distinct = fits
        && positions
            .iter()
            .all(|&at| at < seen.len() && !std::mem::replace(&mut seen[at], true));
    distinct.then(|| {
        positions
            .into_iter()
            .map(|at| entries[at].0.clone())
            .collect()
    })
}

/// Checks a shared snapshot against the caps a receiver applies ([`ShareLimits::default`]),
/// so that the person sharing is told before sending what would be refused on opening.
///
/// # Errors
/// The refusal the receiver would give, for the files and frontmatter; a link's own length
/// and size are checked by decoding it ([`decode_link`]).
pub fn check_shareable(sanitized: &Sanitized) -> Result<(), ShareError> {
    let limits = ShareLimits::default();
    let count = sanitized.tree.len();
    if count > limits.max_files {
        return Err(ShareError::TooLarge(format!(
            "{count} files, over the {} accepted",
            limits.max_files
        )));
    }
    let mut budget = Budget::default();
    for (path, file) in sanitized.tree.files() {
        if let Contents::Loaded(bytes) = &file.contents {
            budget.check(path, bytes, sanitized.tree.stand_ins().get(path), &limits)?;
        }
    }
    let project_files = sanitized.input.project.as_deref().map_or(0, |project| {
        VPath::new(project).map_or(0, |p| sanitized.tree.files_under(&p).count())
    });
    budget.finish(project_files, &limits)
}

/// What the carried files will cost the analysis, counted as they are read.
#[derive(Debug, Default)]
struct Budget {
    /// Files with frontmatter: each one's YAML is parsed and its globs compiled.
    frontmatter_files: usize,
    /// What matching their globs against one file may cost: for each, the patterns its
    /// braces could expand to times its wildcards (plus one).
    glob_cost: u64,
}

impl Budget {
    /// Refuses a carried file whose frontmatter or settings could make the analysis slow:
    /// brackets nested past [`ShareLimits::max_nesting`], too many braces or wildcards, or
    /// braces that could expand to too many patterns. One linear scan; quotes are not told
    /// apart, so a bracket inside a quoted value counts too (no real frontmatter comes near
    /// the caps).
    ///
    /// A frontmatter's stand-ins ([`Tree::set_stand_ins`]) count with it: what they stand
    /// for (a `paths` glob) is what the analysis matches.
    fn check(
        &mut self,
        path: &VPath,
        bytes: &[u8],
        stand_ins: Option<&BTreeMap<String, String>>,
        limits: &ShareLimits,
    ) -> Result<(), ShareError> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let with_stand_ins;
        let (what, scanned) = if path.extension() == Some("json") {
            ("settings", text)
        } else if let Some(block) = crate::text::frontmatter::locate(text) {
            self.frontmatter_files += 1;
            if self.frontmatter_files > limits.max_frontmatter_files {
                return Err(ShareError::Refused(format!(
                    "more than {} files with frontmatter; a shared snapshot of a real setup \
                     holds far fewer",
                    limits.max_frontmatter_files
                )));
            }
            let mut yaml = text[block.yaml].to_owned();
            for target in stand_ins.into_iter().flat_map(BTreeMap::values) {
                yaml.push('\n');
                yaml.push_str(target);
            }
            with_stand_ins = yaml;
            ("frontmatter", with_stand_ins.as_str())
        } else {
            return Ok(());
        };
        let refuse = |why: String| Err(ShareError::Refused(format!("the {what} of {path} {why}")));
        // Each open bracket's count of alternatives (commas at its own level, plus one):
        // their product bounds how many patterns brace expansion can make.
        let mut open: Vec<u64> = Vec::new();
        let (mut deepest, mut braces, mut wildcards, mut expansions) = (0, 0, 0, 1u64);
        for byte in scanned.bytes() {
            match byte {
                b'[' | b'{' => {
                    // A flow list's items are not alternatives: only braces multiply.
                    open.push(u64::from(byte == b'{'));
                    deepest = deepest.max(open.len());
                    braces += usize::from(byte == b'{');
                    if deepest > limits.max_nesting {
                        return refuse(format!(
                            "nests brackets or braces deeper than {} levels, the most a \
                             shared snapshot may",
                            limits.max_nesting
                        ));
                    }
                }
                b',' => {
                    if let Some(alternatives) = open.last_mut().filter(|a| **a > 0) {
                        *alternatives += 1;
                    }
                }
                b']' | b'}' => {
                    if let Some(alternatives) = open.pop().filter(|&a| a > 0) {
                        expansions = expansions.saturating_mul(alternatives);
                    }
                }
                b'*' | b'?' => wildcards += 1,
                _ => {}
            }
        }
        // An unclosed bracket still expands when the parser recovers.
        for alternatives in open.into_iter().filter(|&a| a > 0) {
            expansions = expansions.saturating_mul(alternatives);
        }
        if braces > limits.max_braces {
            return refuse(format!(
                "holds {braces} braces; a shared snapshot may hold {} in one file",
                limits.max_braces
            ));
        }
        if wildcards > limits.max_wildcards {
            return refuse(format!(
                "holds {wildcards} wildcards; a shared snapshot may hold {} in one file",
                limits.max_wildcards
            ));
        }
        if what == "frontmatter" {
            self.glob_cost = self
                .glob_cost
                .saturating_add(expansions.saturating_mul(wildcards as u64 + 1));
        }
        if expansions > limits.max_expansions {
            return refuse(format!(
                "has braces that could expand to {} patterns; a shared snapshot may hold \
                 {} in one file",
                crate::discover::group_digits(expansions),
                limits.max_expansions
            ));
        }
        Ok(())
    }

    /// The checks over the whole snapshot: rule globs are matched against the project's
    /// files (`project_files` of them).
    fn finish(&self, project_files: usize, limits: &ShareLimits) -> Result<(), ShareError> {
        let work = self.glob_cost.saturating_mul(project_files as u64);
        if work > limits.max_glob_work {
            return Err(ShareError::Refused(format!(
                "the globs of {} files with frontmatter over {} files of the project would \
                 cost {} steps to match; a shared snapshot may need {}",
                self.frontmatter_files,
                project_files,
                crate::discover::group_digits(work),
                crate::discover::group_digits(limits.max_glob_work)
            )));
        }
        Ok(())
    }
}

/// The longest zip entry name written: the format stores a name's length in 16 bits, and
/// the zip writer refuses longer ones. A longer path keeps its place in the manifest and its
/// bytes go under a short name.
const MAX_ENTRY_NAME_BYTES: usize = 4096;

/// A path as a zip entry name: no root, a drive letter without its colon.
fn entry_name(path: &VPath) -> String {
    let s = path.as_str();
    match s.strip_prefix('/') {
        Some(rest) => rest.to_owned(),
        None => format!("{}/{}", &s[..1], &s[3..]),
    }
}

fn vpath(path: &str) -> VPath {
    VPath::new(path).expect("a tree path is valid")
}

/// The payload part of a link in any of the forms a person may paste.
fn fragment_value(link: &str) -> &str {
    let after_hash = link.rsplit_once('#').map_or(link, |(_, fragment)| fragment);
    let key = format!("{LINK_KEY}=");
    after_hash
        .split('&')
        .find_map(|part| part.strip_prefix(&key))
        .unwrap_or(after_hash)
}

/// Inflates raw deflate data, refusing to produce more than `limit` bytes.
fn inflate(deflated: &[u8], limit: u64) -> Result<Vec<u8>, ShareError> {
    let mut out = Vec::new();
    DeflateDecoder::new(deflated)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|error| ShareError::Corrupt(format!("the data does not inflate: {error}")))?;
    if out.len() as u64 > limit {
        return Err(ShareError::TooLarge(format!(
            "the data inflates to over {limit} bytes"
        )));
    }
    Ok(out)
}

// ----- base64url -------------------------------------------------------------------------

/// Base64url (RFC 4648 §5) as links carry it: written without padding, read with or without.
/// Trailing bits must be zero, as every encoder writes them.
const BASE64URL: GeneralPurpose = GeneralPurpose::new(
    &alphabet::URL_SAFE,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Base64url without padding: safe in a URL fragment as it is.
fn base64url_encode(bytes: &[u8]) -> String {
    BASE64URL.encode(bytes)
}

/// Decodes base64url, with or without padding.
///
/// # Errors
/// What is wrong, in words: a character base64url does not use (and where), a length no
/// encoder writes, or stray bits at the end.
fn base64url_decode(text: &str) -> Result<Vec<u8>, String> {
    use base64::DecodeError;
    BASE64URL.decode(text).map_err(|error| match error {
        DecodeError::InvalidByte(at, byte) => format!(
            "character {} ({:?}) is not base64url",
            at + 1,
            char::from(byte)
        ),
        DecodeError::InvalidLength(length) => {
            format!("its length ({length}) is one no base64url encoder writes")
        }
        DecodeError::InvalidLastSymbol(at, _) => {
            format!(
                "its last character (character {}) leaves stray bits",
                at + 1
            )
        }
        DecodeError::InvalidPadding => "its padding is wrong".to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_round_trips() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url_encode(&bytes);
            assert!(!text.contains(['+', '/', '=']));
            assert_eq!(base64url_decode(&text).as_deref(), Ok(&bytes[..]), "{len}");
        }
        assert_eq!(
            base64url_encode(b"any carnal pleas"),
            "YW55IGNhcm5hbCBwbGVhcw"
        );
        assert_eq!(
            base64url_decode("YW55IGNhcm5hbCBwbGVhcw==").unwrap(),
            b"any carnal pleas"
        );
        assert_eq!(
            base64url_decode("a").unwrap_err(),
            "its length (1) is one no base64url encoder writes"
        );
        assert_eq!(
            base64url_decode("ab+c").unwrap_err(),
            "character 3 ('+') is not base64url"
        );
        assert_eq!(
            base64url_decode("ab c").unwrap_err(),
            "character 3 (' ') is not base64url"
        );
    }

    #[test]
    fn link_forms() {
        assert_eq!(fragment_value("1.abc"), "1.abc");
        assert_eq!(fragment_value("s=1.abc"), "1.abc");
        assert_eq!(fragment_value("#s=1.abc"), "1.abc");
        assert_eq!(fragment_value("https://x.test/memdiag/#s=1.abc"), "1.abc");
        assert_eq!(fragment_value("https://x.test/#v=2&s=1.abc"), "1.abc");
    }

    #[test]
    fn entry_names_drop_the_root() {
        assert_eq!(entry_name(&vpath("/home/a/x.md")), "home/a/x.md");
        assert_eq!(entry_name(&vpath("C:/Users/a/x.md")), "C/Users/a/x.md");
    }
}
