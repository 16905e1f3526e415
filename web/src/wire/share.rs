//! What the Share dialog shows of a shared copy, as the worker sends it to the page
//! ([`crate::wire::pack`] packs it): the copy made with one set of options; and what went
//! wrong opening a shared link or file, which both sides say.

use memdiag_core::{ShareError, SHARE_FORMAT};

/// Links longer than this (in characters) are cut by many chat tools and issue trackers, so
/// the dialog warns and offers the file instead.
pub const LINK_WARN_CHARS: usize = 8 * 1024;

/// One file of the shared snapshot, as the preview lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedFile {
    /// Its path in the shared snapshot (pseudonymised as the options say).
    pub path: String,
    /// Its path on the sender's side, when the shared one differs.
    pub original: Option<String>,
    /// Its size in bytes.
    pub size: u64,
    /// True when its (replaced) contents travel; false when only its size does.
    pub carried: bool,
}

/// The shared snapshot made with one set of options, with everything the dialog shows.
pub struct Prepared {
    /// The share zip of the sanitized snapshot, as the Download button saves it.
    pub zip: Vec<u8>,
    /// The sanitized report: the copy's own report as JSON, what whoever opens the copy
    /// sees (empty when the copy could not be analysed).
    pub report_json: Vec<u8>,
    /// What the person sharing should know (the sanitizer's warnings).
    pub warnings: Vec<String>,
    /// Its files, in path order.
    pub files: Vec<SharedFile>,
    /// The sum of their sizes.
    pub total_bytes: u64,
    /// The home directory as the shared snapshot names it.
    pub shared_home: String,
    /// The whole link: the page's address, `#s=` and the payload.
    pub link: String,
    /// Where analysing the shared snapshot would differ from the sender's report; empty when
    /// they agree. These quote original names: they are for the sender only.
    pub differences: Vec<String>,
    /// The names the copy shows as written (with "keep names"), for the dialog to list.
    pub visible_names: Vec<String>,
    /// Why the receiver's page would refuse the link, checked by opening it as they would.
    pub link_refusal: Option<String>,
    /// Why the receiver's page would refuse the file.
    pub zip_refusal: Option<String>,
}

impl Prepared {
    /// What could not be kept exactly, each a sentence for the sender.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// True when the link is too long for chat tools.
    pub fn link_too_long(&self) -> bool {
        self.link.len() > LINK_WARN_CHARS
    }
}

/// What went wrong opening a shared `what` ("link" or "file"), for a person.
pub fn open_error(what: &str, error: &ShareError) -> String {
    match error {
        ShareError::NotAShare(why) => {
            format!("This {what} holds no shared snapshot ({why}). Check that it was copied whole.")
        }
        ShareError::NewerFormat(format) => format!(
            "This {what} was made by a newer version of this page (share format {format}; this \
             one reads up to {SHARE_FORMAT}). Open it in an up-to-date copy of the page."
        ),
        ShareError::TooLarge(why) => format!("This {what} is too large to open: {why}."),
        ShareError::Corrupt(why) if what == "link" => format!(
            "This link is damaged and cannot be opened ({why}). It may have been cut short \
             when it was copied: ask for the file instead."
        ),
        ShareError::Corrupt(why) => format!(
            "This {what} is damaged and cannot be opened ({why}). It may be incomplete: ask \
             for it again."
        ),
        ShareError::Refused(why) => format!(
            "This {what} was not opened: {why}. No report made by this page holds that, and \
             analysing it could stall the page, so nothing of it was analysed."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_says_what_to_do() {
        let newer = open_error("link", &ShareError::NewerFormat(SHARE_FORMAT + 1));
        assert!(newer.contains("newer version"), "{newer}");
        let cut = open_error("link", &ShareError::Corrupt("truncated".to_owned()));
        assert!(
            cut.contains("damaged") && cut.contains("file instead"),
            "{cut}"
        );
        let file = open_error("file", &ShareError::Corrupt("a bad entry".to_owned()));
        assert!(file.contains("damaged") && !file.contains("link"), "{file}");
    }
}
