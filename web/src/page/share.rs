//! Sharing in the page: what the Share dialog offers and how a shared link or file opens.
//!
//! The core decides everything about the shared snapshot ([`memdiag_core::sanitize`] and
//! [`memdiag_core::share`]): what is kept, how text and names are replaced, the payload. This
//! module only runs it with the person's options and hands the results to the page: the
//! file list for the preview, the link, the zip, and readable messages when a link or file
//! cannot be opened. The sanitizing runs in the analysis worker ([`prepare`] asks it; the
//! worker answers with `engine::share`); the page's own wasm has no sanitizer.

use js_sys::{Array, Uint8Array};
use memdiag_core::report::Report;
use memdiag_core::{Input, SanitizeOptions, Tree, LINK_KEY};
use wasm_bindgen::JsValue;
use web_sys::{Blob, BlobPropertyBag};

use crate::page::worker_host::Remote;
use crate::wire::messages::{get, ToWorker};
pub use crate::wire::share::{open_error, Prepared, SharedFile, LINK_WARN_CHARS};

/// Makes the shared snapshot of a finished analysis with `options`: in the analysis worker
/// when the page has one (`remote`), else in place (the component tests).
///
/// # Errors
/// A message for a person when the worker cannot answer.
#[allow(clippy::too_many_arguments)]
pub async fn prepare(
    remote: Option<&Remote>,
    tree: &Tree,
    input: &Input,
    report: &Report,
    options: SanitizeOptions,
    made: &str,
    base_url: &str,
) -> Result<Prepared, String> {
    match remote {
        Some(remote) => {
            let answer = remote
                .ask(
                    ToWorker::Share,
                    vec![
                        ("input", crate::wire::messages::input_message(input)),
                        ("keep_file_names", options.keep_file_names.into()),
                        ("keep_user_name", options.keep_user_name.into()),
                        ("keep_text", options.keep_text.into()),
                        ("other_projects", options.other_projects.into()),
                        ("made", made.into()),
                        ("base_url", base_url.into()),
                    ],
                )
                .await?;
            crate::wire::pack::from_js(&get(&answer, "prepared"))
                .ok_or_else(|| "the analysis worker sent no shared copy".to_owned())
        }
        None => prepare_here(tree, input, report, options, made, base_url),
    }
}

#[cfg(feature = "engine")]
fn prepare_here(
    tree: &Tree,
    input: &Input,
    report: &Report,
    options: SanitizeOptions,
    made: &str,
    base_url: &str,
) -> Result<Prepared, String> {
    Ok(crate::engine::share::sanitized(
        tree, input, report, options, made, base_url,
    ))
}

#[cfg(not(feature = "engine"))]
fn prepare_here(
    _: &Tree,
    _: &Input,
    _: &Report,
    _: SanitizeOptions,
    _: &str,
    _: &str,
) -> Result<Prepared, String> {
    Err(crate::page::worker_host::NO_WORKER.to_owned())
}

/// The page's address without its query and fragment: what a link is built on.
pub fn page_base_url() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    base_of(&href).to_owned()
}

/// `href` without its query and fragment.
pub fn base_of(href: &str) -> &str {
    href.split(['?', '#']).next().unwrap_or(href)
}

/// True when a URL fragment (with or without its `#`) carries a share link.
pub fn fragment_has_link(hash: &str) -> bool {
    let key = format!("{LINK_KEY}=");
    hash.trim_start_matches('#')
        .split('&')
        .any(|part| part.starts_with(&key))
}

/// How the read-only banner shows when a snapshot was made: `2026-11-30 12:22 UTC` for an
/// ISO date-time in UTC, the text as it is otherwise.
pub fn made_label(made: &str) -> String {
    let bytes = made.as_bytes();
    let iso_utc = made.len() >= 17
        && made.ends_with('Z')
        && bytes.get(10) == Some(&b'T')
        && made.is_char_boundary(16)
        && made[..16]
            .bytes()
            .enumerate()
            .all(|(i, b)| matches!(i, 4 | 7 | 10 | 13) || b.is_ascii_digit());
    if iso_utc {
        format!("{} {} UTC", &made[..10], &made[11..16])
    } else {
        made.to_owned()
    }
}

/// The name of the downloaded file: `memdiag-share-2026-11-30.zip`.
pub fn zip_name(made: &str) -> String {
    let date: String = made.chars().take(10).collect();
    if date.len() == 10 && date.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        format!("memdiag-share-{date}.zip")
    } else {
        "memdiag-share.zip".to_owned()
    }
}

/// Saves the shared snapshot as a zip through a Blob URL, or with `report` its sanitized
/// report as JSON.
///
/// # Errors
/// When the browser refuses to make the Blob or the link.
pub fn download_zip(prepared: &Prepared, made: &str, report: bool) -> Result<(), JsValue> {
    let (bytes, kind, name) = if report {
        (
            &prepared.report_json,
            "application/json",
            "memdiag-report-sanitized.json".to_owned(),
        )
    } else {
        (&prepared.zip, "application/zip", zip_name(made))
    };
    let array = Uint8Array::from(bytes.as_slice());
    let parts = Array::of1(&array);
    let options = BlobPropertyBag::new();
    options.set_type(kind);
    let blob = Blob::new_with_u8_array_sequence_and_options(&parts, &options)?;
    crate::page::browser::save_blob(&blob, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_url_drops_query_and_fragment() {
        assert_eq!(
            base_of("https://x.dev/memdiag/?demo#s=1.abc"),
            "https://x.dev/memdiag/"
        );
        assert_eq!(
            base_of("http://127.0.0.1:8080/#s=1"),
            "http://127.0.0.1:8080/"
        );
        assert_eq!(
            base_of("file:///tmp/dist/index.html"),
            "file:///tmp/dist/index.html"
        );
    }

    #[test]
    fn a_fragment_carries_a_link_only_with_its_key() {
        assert!(fragment_has_link("#s=1.abc"));
        assert!(fragment_has_link("s=1.abc"));
        assert!(fragment_has_link("#x=2&s=1.abc"));
        assert!(!fragment_has_link(""));
        assert!(!fragment_has_link("#"));
        assert!(!fragment_has_link("#section"));
        assert!(!fragment_has_link("#ss=1"));
    }

    #[test]
    fn made_reads_as_a_utc_minute_and_names_the_file() {
        assert_eq!(made_label("2026-11-30T12:22:30Z"), "2026-11-30 12:22 UTC");
        assert_eq!(made_label("2026-11-30T12:22Z"), "2026-11-30 12:22 UTC");
        assert_eq!(made_label("yesterday"), "yesterday");
        assert_eq!(
            made_label("2026-11-30T12:22:30+02:00"),
            "2026-11-30T12:22:30+02:00"
        );
        assert_eq!(made_label("2026-11-30Tééééé:30Z"), "2026-11-30Tééééé:30Z");
        assert_eq!(
            zip_name("2026-11-30T12:22:30Z"),
            "memdiag-share-2026-11-30.zip"
        );
        assert_eq!(zip_name("soon"), "memdiag-share.zip");
    }
}
