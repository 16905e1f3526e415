//! The messages between the page and the analysis worker, as both sides read and write
//! them: what a source's listing, a tree and the fields look like on the wire.
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
            ("type", "source".into()),
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
        ("type", "source".into()),
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
