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
//!
//! Reading never stops half-way through a value: a [`Reader`] that meets damaged input
//! notes it and hands out empty values (zero, empty text, no items, an enum's first variant)
//! until the end, and [`from_bytes`] then refuses the whole. Stopping at the first error
//! (`?` after each field) made the compiler drop every field already read at each of those
//! points, which was most of the reader's code in the page's wasm.

use std::collections::BTreeMap;

use js_sys::Uint8Array;
use memdiag_core::cleanup::{Change, Compaction, DeadLine, MemoryCleanups, Orphan, OverCap, Plan};
use memdiag_core::report::comparison::{
    Comparison, FigureChange, FigureName, FindingKey, RowChange,
};
use memdiag_core::report::{
    AgentInfo, BehaviourInForce, Code, ConfigLayer, Context, Cost, CutBy, Diagnostic,
    DiagnosticData, DroppedEntry, Figure, FileRow, FileStatus, Footprint, FrontmatterField, Group,
    GroupFootprint, GroupSummary, Growth, Harm, Health, LaterCost, LoadType, Measure, MemoryFolder,
    MemoryHealth, MemoryLookup, NotCounted, NotCountedKind, Os, PluginInfo, ReadAnswer, ReadFor,
    ReasonCheck, ReasonId, ReferenceKind, ReferenceSite, Report, RulesInForce, RunsWhen, Scope,
    SentFile, SentLabel, Session, SessionCost, Severity, SourceRead, Truncation, UnresolvedReason,
    VerdictLine, WeekCount,
};
use memdiag_core::{Input, SessionKind};
use wasm_bindgen::{JsCast, JsValue};

use crate::wire::cleanups::Ask;
use crate::wire::inputs::Inputs;
use crate::wire::share::{Prepared, SharedFile};

/// A value with a packed form.
pub(crate) trait Pack: Sized {
    /// Appends the packed form to `out`.
    fn pack(&self, out: &mut Vec<u8>);
    /// Reads one value from the front of `reader`'s input and advances past it. When the
    /// input does not start with one, the reader is marked failed and the value returned is
    /// a stand-in that [`from_bytes`] throws away.
    fn unpack(reader: &mut Reader<'_>) -> Self;
}

/// The input still to read, and whether any of it was damaged.
pub(crate) struct Reader<'a> {
    input: &'a [u8],
    failed: bool,
}

impl Reader<'_> {
    /// Marks the input as damaged: the value being read will be refused.
    fn fail(&mut self) {
        self.failed = true;
        // Nothing more is read: every later read fails at once, so no loop runs on.
        self.input = &[];
    }

    fn byte(&mut self) -> u8 {
        match self.input.split_first() {
            Some((&byte, rest)) => {
                self.input = rest;
                byte
            }
            None => {
                self.fail();
                0
            }
        }
    }

    fn bytes(&mut self, len: usize) -> &[u8] {
        if self.input.len() < len {
            self.fail();
            return &[];
        }
        let (bytes, rest) = self.input.split_at(len);
        self.input = rest;
        bytes
    }

    /// A length, checked against what is left (each item takes at least one byte), so that
    /// a damaged length cannot ask for a huge allocation.
    fn len(&mut self) -> usize {
        let len = usize::unpack(self);
        if len > self.input.len() {
            self.fail();
            return 0;
        }
        len
    }

    /// The `place`th of `all`, or the first after marking the input damaged.
    pub(crate) fn choice<T: Copy>(&mut self, all: &[T]) -> T {
        let place = usize::from(self.byte());
        match all.get(place) {
            Some(&value) => value,
            None => {
                self.fail();
                all[0]
            }
        }
    }
}

/// The packed form of `value`.
pub(crate) fn to_bytes<T: Pack>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    value.pack(&mut out);
    out
}

/// The value `bytes` hold, with nothing after it.
pub(crate) fn from_bytes<T: Pack>(bytes: &[u8]) -> Option<T> {
    let mut reader = Reader {
        input: bytes,
        failed: false,
    };
    let value = T::unpack(&mut reader);
    (!reader.failed && reader.input.is_empty()).then_some(value)
}

/// The packed form of `value` as a `Uint8Array`, for a message.
pub(crate) fn to_js<T: Pack>(value: &T) -> JsValue {
    Uint8Array::from(to_bytes(value).as_slice()).into()
}

/// The value a message's `Uint8Array` (from [`to_js`]) holds.
pub(crate) fn from_js<T: Pack>(value: &JsValue) -> Option<T> {
    from_bytes(&value.dyn_ref::<Uint8Array>()?.to_vec())
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

    fn unpack(reader: &mut Reader<'_>) -> u64 {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = reader.byte();
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return value;
            }
        }
        reader.fail();
        0
    }
}

impl Pack for u32 {
    fn pack(&self, out: &mut Vec<u8>) {
        u64::from(*self).pack(out);
    }

    fn unpack(reader: &mut Reader<'_>) -> u32 {
        let value = u64::unpack(reader);
        u32::try_from(value).unwrap_or_else(|_| {
            reader.fail();
            0
        })
    }
}

impl Pack for usize {
    fn pack(&self, out: &mut Vec<u8>) {
        (*self as u64).pack(out);
    }

    fn unpack(reader: &mut Reader<'_>) -> usize {
        let value = u64::unpack(reader);
        usize::try_from(value).unwrap_or_else(|_| {
            reader.fail();
            0
        })
    }
}

impl Pack for u8 {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(*self);
    }

    fn unpack(reader: &mut Reader<'_>) -> u8 {
        reader.byte()
    }
}

impl Pack for bool {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }

    fn unpack(reader: &mut Reader<'_>) -> bool {
        reader.choice(&[false, true])
    }
}

impl Pack for char {
    fn pack(&self, out: &mut Vec<u8>) {
        u32::from(*self).pack(out);
    }

    fn unpack(reader: &mut Reader<'_>) -> char {
        let value = u32::unpack(reader);
        char::from_u32(value).unwrap_or_else(|| {
            reader.fail();
            ' '
        })
    }
}

impl Pack for f64 {
    fn pack(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }

    fn unpack(reader: &mut Reader<'_>) -> f64 {
        let mut bytes = [0; 8];
        if let Ok(read) = <[u8; 8]>::try_from(reader.bytes(8)) {
            bytes = read;
        }
        f64::from_le_bytes(bytes)
    }
}

impl Pack for String {
    fn pack(&self, out: &mut Vec<u8>) {
        self.len().pack(out);
        out.extend_from_slice(self.as_bytes());
    }

    fn unpack(reader: &mut Reader<'_>) -> String {
        let len = reader.len();
        match std::str::from_utf8(reader.bytes(len)) {
            Ok(text) => text.to_owned(),
            Err(_) => {
                reader.fail();
                String::new()
            }
        }
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

    fn unpack(reader: &mut Reader<'_>) -> Option<T> {
        bool::unpack(reader).then(|| T::unpack(reader))
    }
}

impl<T: Pack> Pack for Vec<T> {
    fn pack(&self, out: &mut Vec<u8>) {
        self.len().pack(out);
        for item in self {
            item.pack(out);
        }
    }

    fn unpack(reader: &mut Reader<'_>) -> Vec<T> {
        let len = reader.len();
        let mut items = Vec::with_capacity(len);
        for _ in 0..len {
            items.push(T::unpack(reader));
        }
        items
    }
}

impl<T: Pack> Pack for [T; 2] {
    fn pack(&self, out: &mut Vec<u8>) {
        self[0].pack(out);
        self[1].pack(out);
    }

    fn unpack(reader: &mut Reader<'_>) -> [T; 2] {
        [T::unpack(reader), T::unpack(reader)]
    }
}

impl<A: Pack, B: Pack> Pack for (A, B) {
    fn pack(&self, out: &mut Vec<u8>) {
        self.0.pack(out);
        self.1.pack(out);
    }

    fn unpack(reader: &mut Reader<'_>) -> (A, B) {
        (A::unpack(reader), B::unpack(reader))
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

    fn unpack(reader: &mut Reader<'_>) -> BTreeMap<K, V> {
        let len = reader.len();
        let mut map = BTreeMap::new();
        for _ in 0..len {
            map.insert(K::unpack(reader), V::unpack(reader));
        }
        map
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

            fn unpack(reader: &mut Reader<'_>) -> $name {
                $name { $($field: Pack::unpack(reader)),* }
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

            fn unpack(reader: &mut Reader<'_>) -> $name {
                reader.choice(&[$($name::$variant),*])
            }
        }
    )*};
}

records! {
    Report { schema, context, files, groups, footprint, memory_folders, diagnostics, verdict,
        health, session, reads, rules, comparison, sources }
    VerdictLine { harm, code, severity, count, message, path, line }
    Context { home, config_dir, project, os, projects_base, git_root, memory_dir,
        memory_found_via, auto_memory_enabled, auto_memory_setting_from, memory_folder_name,
        version, today }
    SourceRead { path, why, key }
    RulesInForce { release, memory_max_lines, memory_max_utf16, import_max_hops,
        file_max_bytes, large_file_chars, total_chars, skills_listing_budget,
        skills_listing_counts_columns, behaviours, not_reproduced }
    BehaviourInForce { id, since, summary, applies }
    Session { files, skills, agents, memory_dir, cost, later, not_counted, plugins }
    PluginInfo { name, marketplace, folder, enabled }
    NotCounted { kind, event, server, matcher, program, path, layer, when }
    Figure { files, utf16 }
    LaterCost { on_read, conditional_rules, on_demand, agent_memory }
    SentFile { path, row, label, loaded }
    Cost { user, claude_code }
    SessionCost { instruction_block, skills_listing, memory_section, agents, total,
        tokens_estimate }
    ReadAnswer { path, files, skills, cost, note }
    Measure { bytes, chars, utf16, lines }
    Truncation { total_lines, loaded_lines, total_utf16, loaded_utf16, cut_by,
        first_dropped_line, warning }
    FileRow { path, group, load, scope, parent, parent_index, depth, size, raw, loaded,
        claude_code, counted, status, unresolved_reason, reference, skill_name, skill_listing,
        skill_override, skill_override_saves, paths,
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
    AgentInfo { name, path, scope, listed, shadowed_by, memory, memory_dir, memory_exists,
        receives, skills_listing, memory_index }
    Comparison { base_version, other_version, rows, findings_appeared, findings_vanished,
        figures }
    RowChange { path, base_index, other_index, load, status, counted, loaded_utf16 }
    FindingKey { code, severity, path, message }
    FigureChange { name, base, other }
    Input { home, project, config_dir, os, version, today, disable_auto_memory_env,
        skill_listing_budget_env, reads, session, additional_dirs,
        additional_dirs_claude_md_env, plugin_dirs }
    Inputs { home, project, os, config_dir, project_mount, version, reads, add_dirs }
    MemoryCleanups { folder, index, agent, dead_lines, orphans, over_cap }
    DeadLine { line, text, missing, live_links }
    Orphan { path, index_line }
    OverCap { first_dropped_line, entries, suggested_topic }
    Plan { title, changes, notes }
    SharedFile { path, original, size, carried }
    Prepared { zip, report_json, warnings, files, total_bytes, shared_home, link, differences,
        visible_names, link_refusal, zip_refusal }
}

choices! {
    ReadFor { Settings, ClaudeJson, GitFile, GitDir, Text, Unread, Counted, Exists, RuleWitness,
        Folder, Mount, AgentDefinition, Dated, McpConfig,
        PluginConfig }
    NotCountedKind { Hook, McpServer }
    ConfigLayer { Managed, User, Project, Local, Plugin }
    RunsWhen { Startup, SessionResumed, EachPrompt, ToolCalls, OtherEvent, EverySession,
        NeedsApproval, Disabled, NoSource }
    SentLabel { Managed, User, Project, Local, AutoMemory }
    Os { Linux, Macos, Windows }
    SessionKind { Interactive, Print }
    MemoryLookup { Path, Worktree, SeedEncoding, Suffix }
    Group { ManagedPolicy, User, Project, Rules, AutoMemory, Skills, Commands, AgentMemory }
    LoadType { Always, Startup, Conditional, OnDemand, Tree, Import, Link }
    Scope { Managed, User, Project, Local }
    FileStatus { Ok, Unresolved, Excluded, Disabled, Skipped, TooDeep, NeedsApproval, Empty,
        NotText }
    UnresolvedReason { Missing, OutsideSnapshot, NotLookedAt }
    ReferenceKind { Import, Link }
    CutBy { Lines, Size }
    Severity { Error, Warning, Info }
    Harm { Cuts, Drops, Wastes, Warns }
    ReasonId { DifferentFolder, NothingSaved, SwitchedOff, SubAgent, Truncated }
    FigureName { SessionTotal, SessionUser, SessionClaudeCode, InstructionBlock,
        SkillsListing, MemorySection, AgentTypes, SessionFiles, ConditionalRules, OnRead,
        OnDemand, AgentMemory }
}

/// A finding code travels as its place in [`Code::ALL`], the registry's order
/// (`core/src/report/codes.rs`), which never changes: one list, not a second one here.
impl Pack for Code {
    fn pack(&self, out: &mut Vec<u8>) {
        let place = Code::ALL.iter().position(|code| code == self).unwrap_or(0);
        out.push(place as u8);
    }

    fn unpack(reader: &mut Reader<'_>) -> Code {
        reader.choice(&Code::ALL)
    }
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

    fn unpack(reader: &mut Reader<'_>) -> DiagnosticData {
        match reader.byte() {
            0 => DiagnosticData::DroppedEntries {
                entries: Pack::unpack(reader),
                more: Pack::unpack(reader),
            },
            1 => DiagnosticData::Lines {
                lines: Pack::unpack(reader),
            },
            2 => DiagnosticData::Paths {
                paths: Pack::unpack(reader),
            },
            _ => {
                reader.fail();
                DiagnosticData::Lines { lines: Vec::new() }
            }
        }
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

    fn unpack(reader: &mut Reader<'_>) -> Change {
        Change::from_lines(
            Pack::unpack(reader),
            Pack::unpack(reader),
            Pack::unpack(reader),
            Pack::unpack(reader),
            Pack::unpack(reader),
        )
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

    fn unpack(reader: &mut Reader<'_>) -> Compaction {
        match Option::<String>::unpack(reader) {
            Some(topic) => Compaction::MoveTo(topic),
            None => Compaction::Drop,
        }
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

    fn unpack(reader: &mut Reader<'_>) -> Ask {
        match reader.byte() {
            0 => Ask::RemoveLines(Pack::unpack(reader), Pack::unpack(reader)),
            1 => Ask::IndexOrphans(Pack::unpack(reader), Pack::unpack(reader)),
            2 => Ask::DeleteFiles(Pack::unpack(reader)),
            3 => Ask::DeleteRow(Pack::unpack(reader)),
            4 => Ask::Compact(Pack::unpack(reader), Pack::unpack(reader)),
            _ => {
                reader.fail();
                Ask::DeleteFiles(Vec::new())
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use memdiag_core::cleanup::{Change, Compaction, Plan};
    use memdiag_core::report::{
        Code, Diagnostic, DiagnosticData, DroppedEntry, Group, Report, Severity,
    };
    use memdiag_tests::{fixture_dirs, workspace_root, Fixture};

    use super::{from_bytes, to_bytes, Pack};
    use crate::wire::cleanups::Ask;

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
    fn every_code_travels_as_its_place_in_the_registry() {
        // The wire form of a code is one byte, its place in `Code::ALL`: packed reports made
        // by another build of the page must read the same.
        for (n, code) in Code::ALL.into_iter().enumerate() {
            assert_eq!(to_bytes(&code), vec![n as u8], "{code}");
        }
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
            Ask::RemoveLines(
                "/i".to_owned(),
                vec![(1, "- a".to_owned()), (2, String::new())],
            ),
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
        // Damage inside a value refuses the whole, wherever it is met.
        assert_eq!(from_bytes::<Option<u64>>(&[2]), None);
        assert_eq!(from_bytes::<Vec<Group>>(&[2, 0, 200]), None);
        assert_eq!(from_bytes::<Vec<(u64, bool)>>(&[2, 1, 1, 1, 7]), None);
        assert_eq!(from_bytes::<Vec<char>>(&[1, 0x80, 0x80, 0x44]), None);
        assert_eq!(
            from_bytes::<Vec<Group>>(&[2, 0, 1]),
            Some(vec![Group::ManagedPolicy, Group::User])
        );
        // And so does anything after it.
        assert_eq!(from_bytes::<bool>(&[1, 0]), None);
    }

    /// Every report damaged at one byte reads as nothing or as a report, never panics; a
    /// report cut anywhere reads as nothing.
    #[test]
    fn a_damaged_report_is_refused_or_read_never_a_panic() {
        let report = reports()
            .into_iter()
            .max_by_key(|r| r.files.len())
            .expect("a report");
        let bytes = to_bytes(&report);
        for at in (0..bytes.len()).step_by(7) {
            assert_eq!(from_bytes::<Report>(&bytes[..at]), None, "cut at {at}");
            let mut damaged = bytes.clone();
            damaged[at] ^= 0xa5;
            let _ = from_bytes::<Report>(&damaged);
        }
    }
}
