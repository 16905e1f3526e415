//! The compact binary form in which the page and the analysis worker hand each other what
//! is not a file: the report, findings, the analysis input, clean-ups, plans and the Share
//! dialog's copy.
//!
//! Why not JSON: the report's derived `Deserialize` impls, inlined into serde_json's
//! readers once per report type, with serde's and serde_json's error texts, were about a
//! sixth of the page's first-paint wasm. With this form the page holds neither serde nor
//! serde_json, and the worker reads no report back from JSON (sharing and clean-ups hand it
//! the packed report). The worker writes the report's JSON only for Download JSON.
//!
//! The form: unsigned integers as LEB128, a `bool` as one byte, an `f64` as its eight
//! little-endian bytes, text as its UTF-8 length and bytes, an `Option` as 0 or 1 and the
//! value, a list or map as its length and items, a unit enum as its variant's place in the
//! list [`choices!`] gives, a struct as its fields in the order [`records!`] lists them.
//! Both ends are built from this one module in one build, so the form carries no version.
//!
//! Each type's fields and variants are listed once, and both directions are generated from
//! that list, so writing and reading agree by construction; a field or variant added to a
//! type fails to compile here until it is listed.

use std::collections::BTreeMap;

use js_sys::Uint8Array;
use memdiag_core::cleanup::{Change, Compaction, DeadLine, MemoryCleanups, Orphan, OverCap, Plan};
use memdiag_core::report::comparison::{
    Comparison, FigureChange, FigureName, FindingKey, RowChange,
};
use memdiag_core::report::{
    AgentInfo, BehaviourInForce, Code, Context, Cost, CutBy, Diagnostic, DiagnosticData,
    DroppedEntry, Figure, FileRow, FileStatus, Footprint, FrontmatterField, Group, GroupFootprint,
    GroupSummary, Growth, Health, LaterCost, LoadType, Measure, MemoryFolder, MemoryHealth,
    MemoryLookup, Os, ReadAnswer, ReadFor, ReasonCheck, ReasonId, ReferenceKind, ReferenceSite,
    Report, RulesInForce, Scope, SentFile, SentLabel, Session, SessionCost, Severity, SourceRead,
    Truncation, UnresolvedReason, WeekCount,
};
use memdiag_core::{Input, SessionKind};
use wasm_bindgen::{JsCast, JsValue};

use crate::cleanups::Ask;
use crate::share::{Prepared, SharedFile};
use crate::state::Inputs;

/// A value with a packed form.
pub(crate) trait Pack: Sized {
    /// Appends the packed form to `out`.
    fn pack(&self, out: &mut Vec<u8>);
    /// Reads one value from the front of `input` and advances past it; `None` when `input`
    /// does not start with one.
    fn unpack(input: &mut &[u8]) -> Option<Self>;
}

/// The packed form of `value`.
pub(crate) fn to_bytes<T: Pack>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.pack(&mut out);
    out
}

/// The value `bytes` hold, with nothing after it.
pub(crate) fn from_bytes<T: Pack>(mut bytes: &[u8]) -> Option<T> {
    let value = T::unpack(&mut bytes)?;
    bytes.is_empty().then_some(value)
}

/// The packed form of `value` as a `Uint8Array`, for a message.
pub(crate) fn to_js<T: Pack>(value: &T) -> JsValue {
    Uint8Array::from(to_bytes(value).as_slice()).into()
}

/// The value a message's `Uint8Array` (from [`to_js`]) holds.
pub(crate) fn from_js<T: Pack>(value: &JsValue) -> Option<T> {
    from_bytes(&value.dyn_ref::<Uint8Array>()?.to_vec())
}

fn take_byte(input: &mut &[u8]) -> Option<u8> {
    let (&byte, rest) = input.split_first()?;
    *input = rest;
    Some(byte)
}

fn take_bytes<'a>(input: &mut &'a [u8], len: usize) -> Option<&'a [u8]> {
    if input.len() < len {
        return None;
    }
    let (bytes, rest) = input.split_at(len);
    *input = rest;
    Some(bytes)
}

/// A length, checked against what is left (each item takes at least one byte), so that a
/// damaged length cannot ask for a huge allocation.
fn take_len(input: &mut &[u8]) -> Option<usize> {
    let len = usize::try_from(u64::unpack(input)?).ok()?;
    (len <= input.len()).then_some(len)
}

impl Pack for u64 {
    fn pack(&self, out: &mut Vec<u8>) {
        let mut value = *self;
        while value >= 0x80 {
            out.push((value as u8) | 0x80);
            value >>= 7;
        }
        out.push(value as u8);
    }

    fn unpack(input: &mut &[u8]) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = take_byte(input)?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Some(value);
            }
        }
        None
    }
}

impl Pack for u32 {
    fn pack(&self, out: &mut Vec<u8>) {
        u64::from(*self).pack(out);
    }

    fn unpack(input: &mut &[u8]) -> Option<u32> {
        u32::try_from(u64::unpack(input)?).ok()
    }
}

impl Pack for usize {
    fn pack(&self, out: &mut Vec<u8>) {
        (*self as u64).pack(out);
    }

    fn unpack(input: &mut &[u8]) -> Option<usize> {
        usize::try_from(u64::unpack(input)?).ok()
    }
}

impl Pack for u8 {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }

    fn unpack(input: &mut &[u8]) -> Option<u8> {
        take_byte(input)
    }
}

impl Pack for bool {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn unpack(input: &mut &[u8]) -> Option<bool> {
        match take_byte(input)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Pack for char {
    fn pack(&self, out: &mut Vec<u8>) {
        u32::from(*self).pack(out);
    }

    fn unpack(input: &mut &[u8]) -> Option<char> {
        char::from_u32(u32::unpack(input)?)
    }
}

impl Pack for f64 {
    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }

    fn unpack(input: &mut &[u8]) -> Option<f64> {
        Some(f64::from_le_bytes(take_bytes(input, 8)?.try_into().ok()?))
    }
}

impl Pack for String {
    fn pack(&self, out: &mut Vec<u8>) {
        self.len().pack(out);
        out.extend_from_slice(self.as_bytes());
    }

    fn unpack(input: &mut &[u8]) -> Option<String> {
        let len = take_len(input)?;
        let bytes = take_bytes(input, len)?;
        Some(std::str::from_utf8(bytes).ok()?.to_owned())
    }
}

impl<T: Pack> Pack for Option<T> {
    fn pack(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(value) => {
                out.push(1);
                value.pack(out);
            }
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<Option<T>> {
        match take_byte(input)? {
            0 => Some(None),
            1 => Some(Some(T::unpack(input)?)),
            _ => None,
        }
    }
}

impl<T: Pack> Pack for Vec<T> {
    fn pack(&self, out: &mut Vec<u8>) {
        self.len().pack(out);
        for item in self {
            item.pack(out);
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<Vec<T>> {
        let len = take_len(input)?;
        let mut items = Vec::with_capacity(len);
        for _ in 0..len {
            items.push(T::unpack(input)?);
        }
        Some(items)
    }
}

impl<T: Pack> Pack for [T; 2] {
    fn pack(&self, out: &mut Vec<u8>) {
        self[0].pack(out);
        self[1].pack(out);
    }

    fn unpack(input: &mut &[u8]) -> Option<[T; 2]> {
        Some([T::unpack(input)?, T::unpack(input)?])
    }
}

impl<A: Pack, B: Pack> Pack for (A, B) {
    fn pack(&self, out: &mut Vec<u8>) {
        self.0.pack(out);
        self.1.pack(out);
    }

    fn unpack(input: &mut &[u8]) -> Option<(A, B)> {
        Some((A::unpack(input)?, B::unpack(input)?))
    }
}

impl<K: Pack + Ord, V: Pack> Pack for BTreeMap<K, V> {
    fn pack(&self, out: &mut Vec<u8>) {
        self.len().pack(out);
        for (key, value) in self {
            key.pack(out);
            value.pack(out);
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<BTreeMap<K, V>> {
        let len = take_len(input)?;
        let mut map = BTreeMap::new();
        for _ in 0..len {
            map.insert(K::unpack(input)?, V::unpack(input)?);
        }
        Some(map)
    }
}

/// [`Pack`] for structs: each type with every one of its fields, in the order they travel.
/// The pattern and the struct expression name every field, so a field missing from the list
/// is a compile error.
macro_rules! records {
    ($($name:ident { $($field:ident),* $(,)? })*) => {$(
        impl Pack for $name {
            fn pack(&self, out: &mut Vec<u8>) {
                let $name { $($field),* } = self;
                $(Pack::pack($field, out);)*
            }

            fn unpack(input: &mut &[u8]) -> Option<$name> {
                Some($name { $($field: Pack::unpack(input)?),* })
            }
        }
    )*};
}

/// [`Pack`] for enums without data: each variant travels as its place in the list. The
/// `match` names every variant, so a variant missing from the list is a compile error.
macro_rules! choices {
    ($($name:ident { $($variant:ident),* $(,)? })*) => {$(
        impl Pack for $name {
            fn pack(&self, out: &mut Vec<u8>) {
                const ALL: &[$name] = &[$($name::$variant),*];
                match self {
                    $($name::$variant)|* => {}
                }
                let place = ALL.iter().position(|v| v == self).unwrap_or(0);
                out.push(place as u8);
            }

            fn unpack(input: &mut &[u8]) -> Option<$name> {
                const ALL: &[$name] = &[$($name::$variant),*];
                ALL.get(usize::from(take_byte(input)?)).copied()
            }
        }
    )*};
}

records! {
    Report { schema, context, files, groups, footprint, memory_folders, diagnostics, health,
        session, reads, rules, comparison, sources }
    Context { home, config_dir, project, os, projects_base, git_root, memory_dir,
        memory_found_via, auto_memory_enabled, auto_memory_setting_from, memory_folder_name,
        version, today }
    SourceRead { path, why, key }
    RulesInForce { release, memory_max_lines, memory_max_utf16, import_max_hops,
        file_max_bytes, large_file_chars, total_chars, skills_listing_budget,
        skills_listing_counts_columns, behaviours, not_reproduced }
    BehaviourInForce { id, since, summary, applies }
    Session { files, skills, memory_dir, cost, later }
    Figure { files, utf16 }
    LaterCost { on_read, conditional_rules, on_demand, agent_memory }
    SentFile { path, row, label, loaded }
    Cost { user, claude_code }
    SessionCost { instruction_block, skills_listing, memory_section, total, tokens_estimate }
    ReadAnswer { path, files, skills, cost, note }
    Measure { bytes, chars, utf16, lines }
    Truncation { total_lines, loaded_lines, total_utf16, loaded_utf16, cut_by,
        first_dropped_line, warning }
    FileRow { path, group, load, scope, parent, parent_index, depth, size, raw, loaded,
        counted, status, unresolved_reason, reference, skill_name, skill_listing, paths,
        agent, truncation, frontmatter, frontmatter_omitted, references, backfilled }
    FrontmatterField { key, value }
    ReferenceSite { kind, target, line, resolved, exists }
    GroupSummary { name, top_level_files, rows }
    Footprint { files, chars, bytes, utf16, always_loaded, tokens_estimate, groups }
    GroupFootprint { files, chars, bytes, utf16, always_loaded, tokens_estimate }
    MemoryFolder { name, decoded_guess, files, current }
    Diagnostic { code, severity, path, line, message, data }
    DroppedEntry { line, text, correction }
    Health { reasons, memories, agents }
    ReasonCheck { id, title, ok, summary, codes, note }
    MemoryHealth { folder, agent, index, index_lines, mean_line_chars, mean_line_bytes,
        long_lines, topic_files, without_timestamp, orphan_topics, types, growth }
    Growth { today, weeks, files_per_week, history, reaches_80_percent, reaches_limit,
        dated_by_file_time }
    WeekCount { start, count }
    AgentInfo { name, path, memory, memory_dir, memory_exists, receives, memory_index }
    Comparison { base_version, other_version, rows, findings_appeared, findings_vanished,
        figures }
    RowChange { path, base_index, other_index, load, status, counted, loaded_utf16 }
    FindingKey { code, severity, path, message }
    FigureChange { name, base, other }
    Input { home, project, config_dir, os, version, today, disable_auto_memory_env,
        skill_listing_budget_env, reads, session }
    Inputs { home, project, os, config_dir, project_mount, version, reads }
    MemoryCleanups { folder, index, agent, dead_lines, orphans, over_cap }
    DeadLine { line, text, missing, live_links }
    Orphan { path, index_line }
    OverCap { first_dropped_line, entries, suggested_topic }
    Plan { title, changes, notes }
    SharedFile { path, original, size, carried }
    Prepared { zip, warnings, files, total_bytes, shared_home, link, differences,
        visible_names, link_refusal, zip_refusal }
}

choices! {
    ReadFor { Settings, ClaudeJson, GitFile, GitDir, Text, Unread, Counted, Exists, RuleWitness,
        Folder, Mount, AgentDefinition, Dated }
    SentLabel { Managed, User, Project, Local, AutoMemory }
    Os { Linux, Macos, Windows }
    SessionKind { Interactive, Print }
    MemoryLookup { Path, Worktree, SeedEncoding, Suffix }
    Group { ManagedPolicy, User, Project, Rules, AutoMemory, Skills, AgentMemory }
    LoadType { Always, Startup, Conditional, OnDemand, Tree, Import, Link }
    Scope { Managed, User, Project, Local }
    FileStatus { Ok, Unresolved, Excluded, Disabled, Skipped, TooDeep, NeedsApproval, Empty,
        NotText }
    UnresolvedReason { Missing, OutsideSnapshot }
    ReferenceKind { Import, Link }
    CutBy { Lines, Size }
    Severity { Error, Warning, Info }
    ReasonId { DifferentFolder, NothingSaved, SwitchedOff, SubAgent, Truncated }
    FigureName { SessionTotal, SessionUser, SessionClaudeCode, InstructionBlock,
        SkillsListing, MemorySection, SessionFiles, ConditionalRules, OnRead, OnDemand,
        AgentMemory }
    Code { AgentMemoryMissing, AgentMemoryOrphan, AutoMemoryDisabled, ClaudeLocalMdNeverRead,
        ClaudeMdExcluded, ClaudeMdSkipped, ClaudeMdTooLarge, FileNotRead, FileUnreadable,
        ImportCycle, ImportNeedsApproval, ImportNotText, ImportTooDeep,
        ImportTrailingPunctuation, InstructionsTooLarge, InvalidFrontmatter, InvalidPath,
        InvalidSettings, InvalidUtf8, MemoryFileNoTimestamp, MemoryFileNoType,
        MemoryFolderCollision, MemoryFolderEmpty, MemoryFolderLookalike, MemoryFolderNoGit,
        MemoryFolderNotFound, MemoryIndexBackfilled, MemoryIndexImport, MemoryIndexLongLine,
        MemoryIndexNearLimit, MemoryIndexTruncated, MemoryNothingSaved, MemoryTopicCutOff,
        MemoryTopicOrphan, RuleNeverMatches, RulePathsInvalid, RulePathsJoined, ScanSkipped,
        SeedScanMisses, SkillDescriptionTruncated, SkillDuplicateName, SkillNoDescription,
        SkillOrderUnknown, SkillTooDeep, UnresolvedReference, ZipEntryRejected, ZipTooManyEntries }
}

impl Pack for DiagnosticData {
    fn pack(&self, out: &mut Vec<u8>) {
        match self {
            DiagnosticData::DroppedEntries { entries, more } => {
                out.push(0);
                entries.pack(out);
                more.pack(out);
            }
            DiagnosticData::Lines { lines } => {
                out.push(1);
                lines.pack(out);
            }
            DiagnosticData::Paths { paths } => {
                out.push(2);
                paths.pack(out);
            }
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<DiagnosticData> {
        Some(match take_byte(input)? {
            0 => DiagnosticData::DroppedEntries {
                entries: Pack::unpack(input)?,
                more: Pack::unpack(input)?,
            },
            1 => DiagnosticData::Lines {
                lines: Pack::unpack(input)?,
            },
            2 => DiagnosticData::Paths {
                paths: Pack::unpack(input)?,
            },
            _ => return None,
        })
    }
}

/// A change travels as its fields and its marked lines ([`Change::lines`]).
impl Pack for Change {
    fn pack(&self, out: &mut Vec<u8>) {
        self.path.pack(out);
        self.summary.pack(out);
        self.before.pack(out);
        self.after.pack(out);
        let lines = self.lines();
        lines.len().pack(out);
        for (mark, line) in lines {
            mark.pack(out);
            line.len().pack(out);
            out.extend_from_slice(line.as_bytes());
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<Change> {
        Some(Change::from_lines(
            Pack::unpack(input)?,
            Pack::unpack(input)?,
            Pack::unpack(input)?,
            Pack::unpack(input)?,
            Pack::unpack(input)?,
        ))
    }
}

impl Pack for Compaction {
    fn pack(&self, out: &mut Vec<u8>) {
        match self {
            Compaction::MoveTo(topic) => {
                out.push(1);
                topic.pack(out);
            }
            Compaction::Drop => out.push(0),
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<Compaction> {
        Some(match Option::<String>::unpack(input)? {
            Some(topic) => Compaction::MoveTo(topic),
            None => Compaction::Drop,
        })
    }
}

impl Pack for Ask {
    fn pack(&self, out: &mut Vec<u8>) {
        match self {
            Ask::RemoveLines(index, lines) => {
                out.push(0);
                index.pack(out);
                lines.pack(out);
            }
            Ask::IndexOrphans(index, topics) => {
                out.push(1);
                index.pack(out);
                topics.pack(out);
            }
            Ask::DeleteFiles(paths) => {
                out.push(2);
                paths.pack(out);
            }
            Ask::DeleteRow(path) => {
                out.push(3);
                path.pack(out);
            }
            Ask::Compact(index, how) => {
                out.push(4);
                index.pack(out);
                how.pack(out);
            }
        }
    }

    fn unpack(input: &mut &[u8]) -> Option<Ask> {
        Some(match take_byte(input)? {
            0 => Ask::RemoveLines(Pack::unpack(input)?, Pack::unpack(input)?),
            1 => Ask::IndexOrphans(Pack::unpack(input)?, Pack::unpack(input)?),
            2 => Ask::DeleteFiles(Pack::unpack(input)?),
            3 => Ask::DeleteRow(Pack::unpack(input)?),
            4 => Ask::Compact(Pack::unpack(input)?, Pack::unpack(input)?),
            _ => return None,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use memdiag_core::cleanup::{Change, Compaction, Plan};
    use memdiag_core::report::{Code, Diagnostic, DiagnosticData, DroppedEntry, Report, Severity};
    use memdiag_tests::{fixture_dirs, workspace_root, Fixture};

    use super::{from_bytes, to_bytes, Pack};
    use crate::cleanups::Ask;

    fn round_trip<T: Pack + PartialEq + std::fmt::Debug>(value: &T) {
        let bytes = to_bytes(value);
        assert_eq!(from_bytes::<T>(&bytes).as_ref(), Some(value));
        // A cut-off form never reads as a value.
        if !bytes.is_empty() {
            assert_eq!(from_bytes::<T>(&bytes[..bytes.len() - 1]), None);
        }
    }

    /// Every fixture's report, under the pinned release and a simulated older one (which
    /// fills the comparison): each field of each row, finding, figure and health entry.
    fn reports() -> Vec<Report> {
        let mut fixtures: Vec<Fixture> = fixture_dirs()
            .iter()
            .map(|d| Fixture::load_dir(d))
            .collect();
        let mut cases: Vec<_> = std::fs::read_dir(workspace_root().join("fixtures/rules"))
            .expect("fixtures/rules exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        cases.sort();
        for case in cases {
            let text = std::fs::read_to_string(&case).expect("readable case");
            let tree = text
                .split_once("//= rows\n")
                .map_or(text.as_str(), |(tree, _)| tree);
            let files: String = tree
                .lines()
                .filter(|l| !l.trim_start().starts_with("//> "))
                .map(|l| format!("{l}\n"))
                .collect();
            fixtures.push(Fixture::parse(&files));
        }
        assert!(fixtures.len() >= 15, "the fixtures are missing");
        let mut reports = Vec::new();
        for mut fixture in fixtures {
            reports.push(fixture.analyze());
            fixture.input.version = Some("2.1.80".to_owned());
            fixture.input.today = Some("2026-06-01".to_owned());
            fixture.input.reads = reports
                .last()
                .and_then(|r| r.files.first())
                .map(|row| vec![row.path.clone()])
                .unwrap_or_default();
            reports.push(fixture.analyze());
        }
        reports
    }

    #[test]
    fn every_fixture_report_reads_back_as_written() {
        let reports = reports();
        for report in &reports {
            round_trip(report);
        }
        // The fixtures reach the parts of a report that are empty in most of them.
        assert!(reports.iter().any(|r| r.comparison.is_some()));
        assert!(reports.iter().any(|r| !r.reads.is_empty()));
        assert!(reports
            .iter()
            .any(|r| r.health.memories.iter().any(|m| m.growth.is_some())));
        assert!(reports
            .iter()
            .any(|r| r.files.iter().any(|f| f.truncation.is_some())));
        assert!(reports
            .iter()
            .any(|r| r.diagnostics.iter().any(|d| d.data.is_some())));
    }

    #[test]
    fn every_code_and_evidence_reads_back() {
        for (n, code) in Code::ALL.into_iter().enumerate() {
            let data = match n % 3 {
                0 => DiagnosticData::DroppedEntries {
                    entries: vec![DroppedEntry {
                        line: 300,
                        text: "- [x](x.md) — ünïcode".to_owned(),
                        correction: true,
                    }],
                    more: u64::MAX,
                },
                1 => DiagnosticData::Lines {
                    lines: vec![0, 127, 128, 1 << 40],
                },
                _ => DiagnosticData::Paths {
                    paths: vec![String::new(), "/a".to_owned()],
                },
            };
            let diagnostic = Diagnostic::new(code, Severity::Warning, Some("/p"), "m")
                .at_line(n as u64)
                .with_data(data);
            round_trip(&vec![diagnostic]);
        }
    }

    #[test]
    fn plans_and_asks_read_back() {
        let change = Change::from_lines(
            "/home/a/MEMORY.md".to_owned(),
            "drop two lines".to_owned(),
            Some("a\nb\n".to_owned()),
            None,
            vec![
                (' ', "a".to_owned()),
                ('-', "b".to_owned()),
                ('+', "ç".to_owned()),
            ],
        );
        round_trip(&Plan {
            title: "t".to_owned(),
            changes: vec![change.clone(), change.reverse()],
            notes: vec!["n".to_owned()],
        });
        for ask in [
            Ask::RemoveLines("/i".to_owned(), vec![1, 2]),
            Ask::IndexOrphans("/i".to_owned(), vec!["/t.md".to_owned()]),
            Ask::DeleteFiles(vec!["/a".to_owned()]),
            Ask::DeleteRow("/r".to_owned()),
            Ask::Compact("/i".to_owned(), Compaction::MoveTo("/m.md".to_owned())),
            Ask::Compact("/i".to_owned(), Compaction::Drop),
        ] {
            round_trip(&ask);
        }
    }

    #[test]
    fn a_damaged_length_is_refused_without_allocating_it() {
        let mut bytes = Vec::new();
        u64::MAX.pack(&mut bytes);
        assert_eq!(from_bytes::<Vec<String>>(&bytes), None);
        assert_eq!(from_bytes::<String>(&[5, b'a']), None);
        assert_eq!(from_bytes::<String>(&[1, 0xff]), None);
        assert_eq!(from_bytes::<bool>(&[2]), None);
        assert_eq!(from_bytes::<u64>(&[0xff; 11]), None);
    }
}
