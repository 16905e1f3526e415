//! The messages between the page and the analysis worker, as both sides read and write
//! them: what each message is ([`ToWorker`], [`ToPage`]), and what a source's listing, a
//! tree and the fields look like on the wire.
//!
//! A message is a JavaScript object whose `type` is its kind's place in its enum, as
//! [`crate::wire::pack`] writes a unit enum ([`kind_of`] reads it back); its other fields
//! say the rest. `web/assets/worker.js` posts [`ToPage::Crashed`] by its place too, and the
//! end-to-end tests catch [`ToWorker::Files`], [`ToWorker::Contents`] and [`ToWorker::Run`]
//! by theirs (a test below keeps them in step).
//!
//! The page (the first-paint wasm, without the engine) and the worker (`memdiag-engine`)
//! each compile this module; what only the worker writes (a tree, from
//! [`crate::engine::worker`]) stays with the engine.

use js_sys::{Array, Float64Array, Object, Reflect, Uint8Array};
use memdiag_core::{Contents, Diagnostic, FileEntry, Input, SharedSnapshot, Tree, VPath};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::File;

use crate::wire::inputs::Inputs;
use crate::wire::pack;
use crate::wire::sources::{Origin, Reader, Role, Source, SourceFile};

/// What the page sends the worker: each message's kind.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(Debug))]
#[repr(u8)]
pub enum ToWorker {
    /// A source's listing ([`source_message`]): the worker keeps its own copy.
    Source,
    /// The contents the worker asked for ([`ToPage::Read`]).
    Contents,
    /// The sizes and dates the worker asked for ([`ToPage::Stat`]).
    Stats,
    /// The `File`s the worker asked for ([`ToPage::Files`]).
    Files,
    /// Analyse the sources it names with the fields (guessing them first when asked).
    Run,
    /// Analyse a shared link or share zip.
    Shared,
    /// Open a shared link or share zip and send its snapshot.
    OpenShared,
    /// Open a zip and send its listing (or its snapshot, for a share zip).
    Zip,
    /// Make the sanitized copy of an analysis for the Share dialog.
    Share,
    /// Plan a clean-up of an analysis.
    Plan,
    /// Make a reviewed clean-up plan in the live folders the message hands over.
    Apply,
    /// Lay out Markdown for the file view's preview.
    Preview,
    /// Write a report as JSON (Download JSON).
    ReportJson,
}

/// What the worker sends the page, and what the page's side makes of a worker that ended:
/// each message's kind.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(test, derive(Debug))]
#[repr(u8)]
pub enum ToPage {
    /// The worker stopped (posted by `web/assets/worker.js`, or made by the page's side).
    Crashed,
    /// The worker's code panicked; the trap follows.
    Panic,
    /// The page's side ended the job for a newer one.
    Cancelled,
    /// The job could not be done; `message` says why.
    Failed,
    /// The fields the worker guessed from the sources, before it runs with them.
    Guessed,
    /// How far the analysis got.
    Progress,
    /// Asks the page for contents of its files.
    Read,
    /// Asks the page for sizes and dates of its files.
    Stat,
    /// Asks the page for the `File`s behind its files.
    Files,
    /// A finished analysis: the report, its tree and clean-ups.
    Done,
    /// A shared snapshot opened.
    Opened,
    /// A zip's listing.
    Listed,
    /// A clean-up plan.
    Planned,
    /// A clean-up made.
    Applied,
    /// The Share dialog's sanitized copy.
    SharedCopy,
    /// A preview's layout, to an ask beside the job.
    Previewed,
    /// Any other answer to an ask beside the job.
    Answered,
}

impl ToWorker {
    /// Every kind, in the order of their places.
    const ALL: [ToWorker; 13] = [
        ToWorker::Source,
        ToWorker::Contents,
        ToWorker::Stats,
        ToWorker::Files,
        ToWorker::Run,
        ToWorker::Shared,
        ToWorker::OpenShared,
        ToWorker::Zip,
        ToWorker::Share,
        ToWorker::Plan,
        ToWorker::Apply,
        ToWorker::Preview,
        ToWorker::ReportJson,
    ];
}

impl ToPage {
    /// Every kind, in the order of their places.
    const ALL: [ToPage; 17] = [
        ToPage::Crashed,
        ToPage::Panic,
        ToPage::Cancelled,
        ToPage::Failed,
        ToPage::Guessed,
        ToPage::Progress,
        ToPage::Read,
        ToPage::Stat,
        ToPage::Files,
        ToPage::Done,
        ToPage::Opened,
        ToPage::Listed,
        ToPage::Planned,
        ToPage::Applied,
        ToPage::SharedCopy,
        ToPage::Previewed,
        ToPage::Answered,
    ];
}

// A unit enum's packed form is its place (one byte), as `choices!` in `pack` writes it; the
// places are the enums' discriminants (the tests check that `ALL` lists them in order).
impl pack::Pack for ToWorker {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(*self as u8);
    }

    fn unpack(reader: &mut pack::Reader<'_>) -> ToWorker {
        reader.choice(&ToWorker::ALL)
    }
}

impl pack::Pack for ToPage {
    fn pack(&self, out: &mut Vec<u8>) {
        out.push(*self as u8);
    }

    fn unpack(reader: &mut pack::Reader<'_>) -> ToPage {
        reader.choice(&ToPage::ALL)
    }
}

impl From<ToWorker> for JsValue {
    fn from(kind: ToWorker) -> JsValue {
        JsValue::from(kind as u8)
    }
}

impl From<ToPage> for JsValue {
    fn from(kind: ToPage) -> JsValue {
        JsValue::from(kind as u8)
    }
}

/// The kind of `message` (its `type`, a place as [`crate::wire::pack`] writes it); `None` for
/// a kind of no place.
pub(crate) fn kind_of<K: pack::Pack>(message: &JsValue) -> Option<K> {
    let place = get(message, "type").as_f64()?;
    if !(0.0..256.0).contains(&place) {
        return None;
    }
    pack::from_bytes(&[place as u8])
}

/// What the analysis marks a file a shared snapshot lacks with.
pub(crate) const NOT_SHARED: &str = "not in the shared snapshot";

/// The tree [`crate::engine::worker::tree_fields`] put in a message. The page's copy (for the file
/// view) leaves out what the tree carries besides its files: only the worker analyses and
/// shares, so only the engine reads `tree_carried` back ([`carried_into`]).
pub fn tree_from(data: &JsValue) -> Tree {
    let strings = |key: &str| -> Vec<String> {
        get(data, key)
            .dyn_into::<Array>()
            .map(|list| list.iter().filter_map(|v| v.as_string()).collect())
            .unwrap_or_default()
    };
    let mut tree = Tree::new();
    for mount in strings("tree_mounts") {
        if let Ok(path) = VPath::new(&mount) {
            tree.add_mount(path);
        }
    }
    for dir in strings("tree_dirs") {
        if let Ok(path) = VPath::new(&dir) {
            tree.add_dir(path);
        }
    }
    let sizes = get(data, "tree_sizes")
        .dyn_into::<Float64Array>()
        .map(|a| a.to_vec())
        .unwrap_or_default();
    let contents = get(data, "tree_contents")
        .dyn_into::<Array>()
        .unwrap_or_default();
    let paths = text(data, "tree_files");
    let modified = text(data, "tree_modified");
    if !sizes.is_empty() {
        for (n, ((path, modified), size)) in paths
            .split('\0')
            .zip(modified.split('\0'))
            .zip(sizes)
            .enumerate()
        {
            let Ok(path) = VPath::new(path) else { continue };
            let value = contents.get(n as u32);
            let contents = if let Some(message) = value.as_string() {
                Contents::Unreadable(message)
            } else if value.is_instance_of::<js_sys::ArrayBuffer>() {
                Contents::Loaded(Uint8Array::new(&value).to_vec())
            } else {
                Contents::Unread
            };
            tree.insert(
                path,
                FileEntry {
                    size: size as u64,
                    contents,
                    modified: (!modified.is_empty()).then(|| modified.to_owned()),
                },
            );
        }
    }
    let diagnostics: Vec<Diagnostic> =
        pack::from_js(&get(data, "tree_diagnostics")).unwrap_or_default();
    for diagnostic in diagnostics {
        tree.push_diagnostic(diagnostic);
    }
    #[cfg(feature = "engine")]
    carried_into(&mut tree, &get(data, "tree_carried"));
    tree
}

/// Reads back what `carried_message` in [`crate::engine::worker`] wrote. A record of another shape
/// is skipped: the worker wrote it, so none is expected.
#[cfg(feature = "engine")]
fn carried_into(tree: &mut Tree, carried: &JsValue) {
    let Ok(records) = carried.clone().dyn_into::<Array>() else {
        return;
    };
    let mut quoted = std::collections::BTreeMap::new();
    for record in records.iter() {
        let Ok(record) = record.dyn_into::<Array>() else {
            continue;
        };
        let parts: Vec<String> = record.iter().filter_map(|v| v.as_string()).collect();
        let (Some(kind), Some(head)) = (parts.first(), parts.get(1)) else {
            continue;
        };
        let rest = &parts[2..];
        match kind.as_str() {
            "q" => {
                let n: Vec<u64> = rest.iter().filter_map(|n| n.parse().ok()).collect();
                if let [bytes, chars, utf16, columns] = n[..] {
                    let length = memdiag_core::QuotedLength {
                        bytes,
                        chars,
                        utf16,
                        columns,
                    };
                    quoted.insert(head.clone(), length);
                }
            }
            "o" | "l" | "s" => {
                let Ok(path) = VPath::new(head) else { continue };
                match kind.as_str() {
                    "o" => tree.set_order(path, rest.to_vec()),
                    "l" => tree.set_listing_order(path, rest.to_vec()),
                    _ => {
                        let pairs = rest.chunks_exact(2).map(|p| (p[0].clone(), p[1].clone()));
                        tree.set_stand_ins(path, pairs.collect());
                    }
                }
            }
            _ => {}
        }
    }
    tree.set_quoted(quoted);
}

/// The `source` message that gives the worker its copy of `source`; the worker answers a
/// zip's listing with the same fields.
///
/// A zip carries its `File` and the folder inside the archive its paths are relative to
/// (`prefix`): the worker reads a zip's entries itself (`File.slice`), the page never opens
/// an archive.
pub(crate) fn source_message(source: &Source) -> JsValue {
    let info = source.info();
    if info.kind == "demo" {
        return object(&[
            ("type", ToWorker::Source.into()),
            ("id", f64::from(source.id()).into()),
            ("kind", "demo".into()),
        ]);
    }
    let mut rels = String::new();
    let mut modified = String::new();
    let mut sizes = Vec::with_capacity(source.files.len());
    for (n, file) in source.files.iter().enumerate() {
        if n > 0 {
            rels.push('\0');
            modified.push('\0');
        }
        rels.push_str(&file.rel);
        modified.push_str(file.modified.as_deref().unwrap_or(""));
        sizes.push(file.size as f64);
    }
    let mut fields = vec![
        ("type", ToWorker::Source.into()),
        ("id", f64::from(source.id()).into()),
        ("kind", info.kind.into()),
        ("role", info.role.into()),
        ("name", source.name.as_str().into()),
        ("rels", rels.into()),
        ("modified", modified.into()),
        ("sizes", Float64Array::from(sizes.as_slice()).into()),
        ("diagnostics", source.diagnostics_json().into()),
    ];
    if let Origin::Zip(file) = &source.origin {
        let prefix = source.files.first().and_then(|first| match &first.reader {
            Reader::Zip(path) => path
                .as_str()
                .strip_prefix("/zip/")?
                .strip_suffix(first.rel.as_str()),
            _ => None,
        });
        fields.push(("prefix", prefix.unwrap_or("").into()));
        if let Some(file) = file {
            fields.push(("zip", file.into()));
        }
    }
    object(&fields)
}

/// A source from its [`source_message`] (the demo aside: only the worker has its files).
///
/// Files of a folder are read through the page ([`Reader::Remote`]); a zip's are read from
/// its archive, by whoever holds the `File` (the worker).
pub(crate) fn source_from_message(data: &JsValue) -> Option<Source> {
    let id = number(data, "id") as u32;
    let role = role_from(&text(data, "role"))?;
    let kind = text(data, "kind");
    let kind: &'static str = match kind.as_str() {
        "zip" => "zip",
        "file" => "file",
        _ => "folder",
    };
    let prefix = text(data, "prefix");
    let rels = text(data, "rels");
    let modified = text(data, "modified");
    let sizes = get(data, "sizes").dyn_into::<Float64Array>().ok()?.to_vec();
    let files: Vec<SourceFile> = if sizes.is_empty() {
        Vec::new()
    } else {
        rels.split('\0')
            .zip(modified.split('\0'))
            .zip(sizes)
            .filter_map(|((rel, modified), size)| {
                let reader = match kind {
                    "zip" => Reader::Zip(VPath::new(&format!("/zip/{prefix}{rel}")).ok()?),
                    _ => Reader::Remote,
                };
                Some(SourceFile {
                    rel: rel.to_owned(),
                    size: size as u64,
                    reader,
                    modified: (!modified.is_empty()).then(|| modified.to_owned()),
                })
            })
            .collect()
    };
    let source = Source::listed(
        id,
        text(data, "name"),
        role,
        kind,
        files,
        text(data, "diagnostics"),
    );
    Some(match get(data, "zip").dyn_into::<File>() {
        Ok(file) if kind == "zip" => source.with_zip(file),
        _ => source,
    })
}

fn role_from(role: &str) -> Option<Role> {
    Some(match role {
        "config" => Role::Config,
        "home" => Role::Home,
        "project" => Role::Project,
        "demo" => Role::Fixed,
        "claude-json" => Role::ClaudeJson,
        _ => return None,
    })
}

/// A shared snapshot as message fields: its tree's (see [`tree_from`]), its input
/// ([`crate::wire::pack`]ed), when it was made, its format and whether it kept the text.
pub(crate) fn snapshot_from(data: &JsValue) -> Option<SharedSnapshot> {
    Some(SharedSnapshot {
        tree: tree_from(data),
        input: input_from(&get(data, "input"))?,
        made: text(data, "made"),
        format: number(data, "format") as u32,
        text_kept: get(data, "text_kept").as_bool().unwrap_or(false),
    })
}

/// The fields, for messages between the page and the worker ([`inputs_from`] reads them).
pub(crate) fn inputs_message(inputs: &Inputs) -> JsValue {
    pack::to_js(inputs)
}

/// The fields from [`inputs_message`].
pub(crate) fn inputs_from(value: &JsValue) -> Option<Inputs> {
    pack::from_js(value)
}

/// An analysis input, for messages between the page and the worker (the core's `Input` is
/// not serialisable: only report types are); [`input_from`] reads it.
pub(crate) fn input_message(input: &Input) -> JsValue {
    pack::to_js(input)
}

/// The input from [`input_message`].
pub(crate) fn input_from(value: &JsValue) -> Option<Input> {
    pack::from_js(value)
}

pub(crate) fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in fields {
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object.into()
}

pub(crate) fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

pub(crate) fn text(target: &JsValue, key: &str) -> String {
    get(target, key).as_string().unwrap_or_default()
}

pub(crate) fn number(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{ToPage, ToWorker};
    use crate::wire::pack::{from_bytes, to_bytes};

    #[test]
    fn every_kind_travels_as_its_place_and_reads_back() {
        for (place, kind) in ToWorker::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, place, "{kind:?} is listed out of place");
            assert_eq!(to_bytes(&kind), [place as u8]);
            assert_eq!(from_bytes::<ToWorker>(&[place as u8]), Some(kind));
        }
        for (place, kind) in ToPage::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, place, "{kind:?} is listed out of place");
            assert_eq!(to_bytes(&kind), [place as u8]);
            assert_eq!(from_bytes::<ToPage>(&[place as u8]), Some(kind));
        }
        // The lists hold every kind: the last variant closes each.
        assert_eq!(ToWorker::ALL.len(), ToWorker::ReportJson as usize + 1);
        assert_eq!(ToPage::ALL.len(), ToPage::Answered as usize + 1);
    }

    #[test]
    fn a_kind_of_no_place_reads_as_none() {
        assert_eq!(from_bytes::<ToWorker>(&[ToWorker::ALL.len() as u8]), None);
        assert_eq!(from_bytes::<ToPage>(&[ToPage::ALL.len() as u8]), None);
        assert_eq!(from_bytes::<ToPage>(&[255]), None);
        assert_eq!(from_bytes::<ToPage>(&[]), None);
        assert_eq!(from_bytes::<ToPage>(&[0, 0]), None);
    }

    /// What JavaScript writes or reads by place: the worker's crash report
    /// (`web/assets/worker.js`) and the end-to-end tests' hold on the page's answers and
    /// their trap on a run.
    #[test]
    fn javascript_names_the_kinds_by_their_places() {
        let worker = include_str!("../../assets/worker.js");
        let crashed = format!("type: {} /* ToPage::Crashed */", ToPage::Crashed as u8);
        assert!(
            worker.contains(&crashed),
            "worker.js should post `{crashed}`"
        );
        let held = [("FILES", ToWorker::Files), ("CONTENTS", ToWorker::Contents)];
        let run = [("RUN", ToWorker::Run)];
        for (text, file, kinds) in [
            (
                include_str!("../../../tests/e2e/app.test.mjs"),
                "app",
                &held[..],
            ),
            (
                include_str!("../../../tests/e2e/hostile.test.mjs"),
                "hostile",
                &run[..],
            ),
        ] {
            for (name, kind) in kinds {
                let line = format!("const {name} = {}; // ToWorker::{kind:?}", *kind as u8);
                assert!(text.contains(&line), "{file}.test.mjs should say `{line}`");
            }
        }
    }
}
