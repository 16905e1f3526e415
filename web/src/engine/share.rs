//! Sharing in the analysis worker: the core's sanitizer run with the person's options
//! ([`sanitized`]), and the answer to the page's `share` message.

use js_sys::{Array, Uint8Array};
use memdiag_core::report::Report;
use memdiag_core::{encode_link, sanitize, to_zip, Contents};
use memdiag_core::{Input, SanitizeOptions, Tree, LINK_KEY};
use wasm_bindgen::JsValue;

use crate::wire::messages::{get, object, text, ToPage};
use crate::wire::share::{Prepared, SharedFile};

/// The shared copy: sanitizes `tree` (with the contents its analysis read), analysed with `input` into
/// `report`, and builds the link on `base_url`.
pub fn sanitized(
    tree: &Tree,
    input: &Input,
    report: &Report,
    options: SanitizeOptions,
    made: &str,
    base_url: &str,
) -> Prepared {
    let sanitized = sanitize(tree, input, report, &options);
    let originals: std::collections::BTreeMap<&str, &str> = sanitized
        .paths
        .iter()
        .map(|(original, shared)| (shared.as_str(), original.as_str()))
        .collect();
    let files: Vec<SharedFile> = sanitized
        .tree
        .files()
        .map(|(path, entry)| SharedFile {
            path: path.as_str().to_owned(),
            original: originals
                .get(path.as_str())
                .filter(|original| **original != path.as_str())
                .map(|original| (*original).to_owned()),
            size: entry.size,
            carried: matches!(entry.contents, Contents::Loaded(_)),
        })
        .collect();
    let total_bytes = files.iter().map(|f| f.size).sum();
    let link = format!("{base_url}#{LINK_KEY}={}", encode_link(&sanitized, made));
    // `sanitize` analysed the copy once already: its differences, not a second analysis.
    let differences = sanitized.differences.clone();
    let zip_refusal = memdiag_core::share::check_shareable(&sanitized)
        .err()
        .map(|why| why.to_string());
    // Opened exactly as the receiver's page opens it, so the sender is told first.
    let link_refusal = zip_refusal.clone().or_else(|| {
        memdiag_core::decode_link(&link)
            .err()
            .map(|why| why.to_string())
    });
    let visible_names = if options.keep_file_names {
        sanitized.visible_names()
    } else {
        Vec::new()
    };
    Prepared {
        zip: to_zip(&sanitized, made),
        report_json: (sanitized.report.as_ref())
            .and_then(|report| serde_json::to_vec_pretty(report).ok())
            .unwrap_or_default(),
        warnings: sanitized.warnings.clone(),
        visible_names,
        link_refusal,
        zip_refusal,
        shared_home: sanitized.input.home.clone(),
        files,
        total_bytes,
        link,
        differences,
    }
}

/// The worker's answer to a `share` message: the shared copy of the analysis the message
/// carries (its report, tree and input), made with the message's options.
pub(crate) fn answer(data: &JsValue) {
    let Some(report) = crate::wire::pack::from_js::<Report>(&get(data, "report")) else {
        return crate::engine::reply::failed("the report could not be read");
    };
    let Some(input) = crate::wire::messages::input_from(&get(data, "input")) else {
        return crate::engine::reply::failed("the analysis input could not be read");
    };
    let tree = crate::wire::messages::tree_from(&get(data, "tree"));
    let flag = |key: &str| get(data, key).as_bool().unwrap_or(false);
    let options = SanitizeOptions {
        keep_file_names: flag("keep_file_names"),
        keep_user_name: flag("keep_user_name"),
        keep_text: flag("keep_text"),
        other_projects: flag("other_projects"),
    };
    let copy = sanitized(
        &tree,
        &input,
        &report,
        options,
        &text(data, "made"),
        &text(data, "base_url"),
    );
    let prepared = crate::wire::pack::to_bytes(&copy);
    let prepared = Uint8Array::from(prepared.as_slice());
    let buffer = prepared.buffer();
    let message = object(&[
        ("type", ToPage::SharedCopy.into()),
        ("prepared", prepared.into()),
    ]);
    let _ =
        crate::engine::reply::scope().post_message_with_transfer(&message, &Array::of1(&buffer));
}
