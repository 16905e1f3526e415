//! The shared text of a file: placeholders of every character's length, the references
//! rewritten (`references.rs`), the user name replaced in kept text, and the rare
//! frontmatter value that changed length settled by the body.

use super::*;

impl Builder<'_> {
    /// Applies a text rewrite to a file's bytes the way discovery decodes them: a byte order
    /// mark is set aside on valid UTF-8, and invalid UTF-8 is rewritten through its lossy
    /// decoding with each invalid sequence kept invalid at the same length.
    pub(super) fn text_bytes(
        &mut self,
        bytes: &[u8],
        rewrite: &mut dyn FnMut(&mut Self, &str) -> String,
    ) -> Vec<u8> {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let (bom, body) = match text.strip_prefix('\u{feff}') {
                Some(body) => ("\u{feff}", body),
                None => ("", text),
            };
            return format!("{bom}{}", rewrite(self, body)).into_bytes();
        }
        // Each invalid sequence stands as one marker the rewrite keeps where it is (an ASCII
        // control character, kept like all ASCII punctuation), then becomes an invalid
        // sequence of its length again, so the file stays invalid and measures the same.
        const MARK: char = '\u{1a}';
        let invalid: Vec<usize> = bytes
            .utf8_chunks()
            .map(|chunk| chunk.invalid().len())
            .filter(|&len| len > 0)
            .collect();
        let lossy = String::from_utf8_lossy(bytes);
        let mut out = Vec::with_capacity(bytes.len());
        if !lossy.contains(MARK) {
            let marked = lossy.replace('\u{fffd}', &MARK.to_string());
            // A U+FFFD written in the file is marked too: it is valid UTF-8 and stays one.
            let written: Vec<bool> = bytes
                .utf8_chunks()
                .flat_map(|chunk| {
                    let valid = chunk
                        .valid()
                        .matches('\u{fffd}')
                        .map(|_| false)
                        .collect::<Vec<_>>();
                    let bad = (!chunk.invalid().is_empty()).then_some(true);
                    valid.into_iter().chain(bad)
                })
                .collect();
            let rewritten = rewrite(self, &marked);
            let pieces: Vec<&str> = rewritten.split(MARK).collect();
            if pieces.len() == written.len() + 1 {
                let mut lengths = invalid.iter();
                for (index, piece) in pieces.iter().enumerate() {
                    out.extend_from_slice(piece.as_bytes());
                    match written.get(index) {
                        Some(true) => out.extend_from_slice(invalid_sequence(
                            lengths.next().copied().unwrap_or(1),
                        )),
                        Some(false) => out.extend_from_slice("\u{fffd}".as_bytes()),
                        None => {}
                    }
                }
                return out;
            }
        }
        let rewritten = rewrite(self, &lossy);
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid().len();
            // (Only reached when the marks went astray: never out of bounds.)
            let part = rewritten.as_bytes().get(at..at + valid).unwrap_or_default();
            out.extend_from_slice(part);
            at += valid;
            if !chunk.invalid().is_empty() {
                // One U+FFFD in the lossy text; one invalid sequence of the original length
                // in the bytes, so the file stays invalid and measures the same.
                out.extend_from_slice(invalid_sequence(chunk.invalid().len()));
                at += '\u{fffd}'.len_utf8();
            }
        }
        out
    }

    /// The shared text of a Markdown (or any text) file, `original` in the source tree and
    /// `shown` in the shared one.
    ///
    /// Placeholders keep every character's length, and what is renamed keeps it too: a
    /// reference's path is written as its pseudonym where that has the original's length,
    /// else as a stand-in of the original's length that the shared tree says it stands for
    /// ([`Tree::set_stand_ins`]); the user name in kept text becomes its pseudonym fitted to
    /// the name's length. So every line, and every figure the analysis takes of the text,
    /// measures as before, and no line needs room. Only a frontmatter value renamed to
    /// another length (a `paths` glob, a `name`) is settled by a placeholder word of the body.
    pub(super) fn text(
        &mut self,
        text: &str,
        kind: FileKind,
        original: &VPath,
        shown: &str,
    ) -> String {
        let keep_text = self.options.keep_text;
        let mut out: String = text.chars().map(|c| placeholder(c, keep_text)).collect();
        if !keep_text && shown.ends_with("/MEMORY.md") {
            keep_correction_words(text, &mut out);
        }
        let mut yaml = 0..0;
        let mut shared_yaml = None;
        let mut owed = 0;
        self.file_stand_ins.clear();
        if let Some(block) = frontmatter::locate(text) {
            let source = &text[block.yaml.clone()];
            let shared = self.frontmatter(source, kind, shown);
            let change = source.len() as i64 - shared.len() as i64;
            // A renamed value that no line of the frontmatter had room for: the body of a
            // skill or sub-agent definition (never sent whole) settles it, any other
            // file's frontmatter stays placeholders.
            if change == 0 || kind != FileKind::Other {
                owed = change;
                shared_yaml = Some(shared);
            } else if !self.namer.collecting() {
                self.warnings.push(format!(
                    "the frontmatter of {shown} could not keep its length after renaming; its \
                     fields may differ in the shared report"
                ));
            }
            yaml = block.yaml;
        }
        let (mut edits, stand_ins) = self.references(text, original);
        if keep_text && !self.options.keep_user_name {
            self.user_name_edits(text, &mut edits);
        }
        edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
        let mut last = usize::MAX;
        for (range, shared) in edits {
            // Every edit keeps its range's length, so the offsets below stay; spans that
            // overlap (an import inside a link's text running on) keep the earlier's form.
            if range.end <= last && out.is_char_boundary(range.start) {
                last = range.start;
                out.replace_range(range, &shared);
            }
        }
        if owed != 0 {
            let index = shown.ends_with("/MEMORY.md");
            out = self.settle(&out, owed, &yaml, index, shown);
        }
        if let Some(shared) = shared_yaml {
            // The body settled the difference, so the frontmatter's place has not moved.
            out.replace_range(yaml.clone(), &shared);
        }
        self.check_references(text, &out, original, &stand_ins, shown);
        if let Ok(shared) = VPath::new(shown) {
            self.stand_ins.insert(shared, stand_ins);
        }
        out
    }

    /// Gives the text the length its frontmatter's renamed values took or added (`owed`
    /// bytes): a placeholder word of the body grows or shrinks (`xxxx` → `xxxxxxx`), from
    /// the last line up, a one-letter word going whole only when no longer one can pay. A
    /// memory index, whose every line is measured, is left as it is (the person sharing is
    /// told).
    fn settle(
        &mut self,
        out: &str,
        mut owed: i64,
        yaml: &Range<usize>,
        index: bool,
        shown: &str,
    ) -> String {
        // HTML comments are not sent: a letter there must not pay for one outside.
        let mut comments = Vec::new();
        let mut from = 0;
        while let Some(open) = out[from..].find("<!--").map(|i| from + i) {
            let close = out[open + 4..]
                .find("-->")
                .map_or(out.len(), |i| open + 4 + i + 3);
            comments.push(open..close);
            from = close;
        }
        let free = |i: usize, b: u8| {
            matches!(b, b'x' | b'0')
                && !self.options.keep_text
                && !yaml.contains(&i)
                && !comments.iter().any(|c| c.contains(&i))
        };
        let mut lines: Vec<Vec<(u8, bool)>> = Vec::new();
        let mut start = 0;
        for line in out.split_inclusive('\n') {
            let bytes = line
                .bytes()
                .enumerate()
                .map(|(i, b)| (b, free(start + i, b)));
            lines.push(bytes.collect());
            start += line.len();
        }
        'settle: while owed != 0 && !index {
            for whole_words in [false, true] {
                // From the end: a skill's first body line can be its description.
                for bytes in lines.iter_mut().rev() {
                    if let Some(i) = free_letter(bytes, owed > 0 || whole_words) {
                        if owed > 0 {
                            bytes.insert(i + 1, bytes[i]);
                            owed -= 1;
                        } else {
                            bytes.remove(i);
                            owed += 1;
                        }
                        continue 'settle;
                    }
                }
            }
            break;
        }
        if owed != 0 && !self.namer.collecting() {
            self.warnings.push(format!(
                "the text of {shown} could not keep its length after renaming; the shared \
                 report may measure it differently"
            ));
        }
        let bytes: Vec<u8> = lines.into_iter().flatten().map(|(b, _)| b).collect();
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
    /// With the text kept, the user name is still replaced wherever it is written (in any
    /// case, inside longer words too), by its pseudonym fitted to the name's length (cut, or
    /// followed by `x`s), so that the text measures as before. A name of one or two letters, or one
    /// that is a word the analysis reads, is left: replacing every `al` or every `project`
    /// would change what the text means to the analysis.
    pub(super) fn user_name_edits(&mut self, text: &str, edits: &mut Vec<Edit>) {
        let user = VPath::new(&self.input.home)
            .map(|home| home.file_name().to_ascii_lowercase())
            .unwrap_or_default();
        let reserved = WELL_KNOWN.contains(&user.as_str())
            || [
                "user",
                "project",
                "local",
                "feedback",
                "reference",
                "true",
                "false",
            ]
            .contains(&user.as_str());
        if user.len() < 3 || reserved {
            return;
        }
        // ASCII lower-casing keeps every byte offset.
        let lower = text.to_ascii_lowercase();
        let found: Vec<usize> = lower.match_indices(&user).map(|(at, _)| at).collect();
        for at in found {
            let end = at + user.len();
            if !(text.is_char_boundary(at) && text.is_char_boundary(end)) {
                continue;
            }
            if edits.iter().any(|(r, _)| r.start < end && at < r.end) {
                continue;
            }
            let written = &text[at..end];
            edits.push((at..end, fitted(&self.namer.name(written), written)));
        }
    }
}

/// `shared` fitted to `written`'s length: cut, or followed by `x`s; a stand-in of that
/// length ([`QuotedLength::stand_in`]) where characters of other widths make that miss.
fn fitted(shared: &str, written: &str) -> String {
    let length = length_of(written);
    let mut out: String = shared.chars().take(written.chars().count()).collect();
    while out.len() < written.len() {
        out.push('x');
    }
    if length_of(&out) == length {
        out
    } else {
        length.stand_in()
    }
}

/// The first placeholder letter of a line that may grow, or go (`grow` false: only one with
/// a free neighbour, so that no word loses its last).
fn free_letter(bytes: &[(u8, bool)], grow: bool) -> Option<usize> {
    (0..bytes.len()).find(|&i| {
        bytes[i].1 && (grow || (i > 0 && bytes[i - 1].1) || bytes.get(i + 1).is_some_and(|b| b.1))
    })
}

// The words the health view looks for in dropped index entries (CORRECTION_WORDS) stay in
// `MEMORY.md` files wherever they stand as whole words, so that its "correction" flags stay.
pub(super) fn keep_correction_words(text: &str, out: &mut String) {
    // ASCII lower-casing keeps every byte offset, and the words are ASCII.
    let lower = text.to_ascii_lowercase();
    let is_word = |c: char| c.is_alphanumeric() || c == '\'';
    for word in CORRECTION_WORDS {
        for (at, _) in lower.match_indices(word) {
            let end = at + word.len();
            let before = text[..at].chars().next_back().is_none_or(|c| !is_word(c));
            let after = text[end..].chars().next().is_none_or(|c| !is_word(c));
            if before && after {
                out.replace_range(at..end, &text[at..end]);
            }
        }
    }
}

/// An invalid UTF-8 sequence of `len` bytes (1 to 3) that decodes to exactly one U+FFFD
/// whatever follows it: a lone `0xFF`, or the start of a two-byte or three-byte lead
/// without its last continuation byte.
pub(super) fn invalid_sequence(len: usize) -> &'static [u8] {
    match len {
        1 => b"\xff",
        2 => b"\xe1\x80",
        _ => b"\xf1\x80\x80",
    }
}
