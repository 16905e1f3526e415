//! The two passes over the plan (names collected, then the snapshot written) and the
//! shared text of a file: placeholders, references rewritten to the shared paths, the user
//! name replaced in kept text.

use super::*;

/// What a pass of [`Builder::build`] produces.
pub(super) struct Built {
    pub(super) tree: Tree,
    pub(super) dirs: Vec<VPath>,
    pub(super) input: Input,
    pub(super) paths: BTreeMap<String, String>,
    pub(super) warnings: Vec<String>,
}

/// One pass over the plan: the first collects names, the second writes the shared snapshot.
pub(super) struct Builder<'a> {
    pub(super) plan: &'a Plan,
    pub(super) tree: &'a Tree,
    pub(super) input: &'a Input,
    pub(super) report: &'a Report,
    pub(super) options: &'a SanitizeOptions,
    pub(super) namer: &'a Namer<'a>,
    pub(super) warnings: Vec<String>,
}

/// The message a finding made while the original tree was read carries into the share: the
/// original may quote names or paths that are not shared.
pub(super) const CARRIED_FINDING: &str =
    "found when the original snapshot was read; the details are not shared";

impl<'a> Builder<'a> {
    pub(super) fn new(
        plan: &'a Plan,
        tree: &'a Tree,
        input: &'a Input,
        report: &'a Report,
        options: &'a SanitizeOptions,
        namer: &'a Namer<'a>,
    ) -> Builder<'a> {
        Builder {
            plan,
            tree,
            input,
            report,
            options,
            namer,
            warnings: Vec::new(),
        }
    }

    pub(super) fn build(mut self) -> Built {
        let mut out = Tree::new();
        let mut dirs = Vec::new();
        let mut paths = BTreeMap::new();
        for mount in &self.plan.mounts {
            if let Some(shared) = self.shared_path(mount.as_str(), false) {
                paths.insert(mount.as_str().to_owned(), shared.as_str().to_owned());
                out.add_mount(shared);
            }
        }
        for dir in &self.plan.dirs {
            if let Some(shared) = self.shared_path(dir.as_str(), false) {
                paths.insert(dir.as_str().to_owned(), shared.as_str().to_owned());
                out.add_dir(shared.clone());
                dirs.push(shared);
            }
        }
        for (path, role) in &self.plan.files {
            let Some(entry) = self.tree.file(path) else {
                continue;
            };
            let Some(shared) = self.shared_path(path.as_str(), true) else {
                continue;
            };
            let mut file = self.file(entry, *role, shared.as_str());
            // The growth chart dates a memory folder's topic file by its modification day when
            // its frontmatter names none; no other file's date is read, so no other is shared.
            let dated = self.report.health.memories.iter().any(|memory| {
                VPath::new(&memory.folder).is_ok_and(|folder| path.starts_with(&folder))
            });
            if !dated {
                file.modified = None;
            }
            paths.insert(path.as_str().to_owned(), shared.as_str().to_owned());
            out.insert(shared, file);
        }
        for finding in self.tree.diagnostics() {
            out.push_diagnostic(Diagnostic {
                code: finding.code,
                severity: finding.severity,
                path: finding.path.as_deref().map(|p| self.namer.name(p)),
                line: finding.line,
                message: CARRIED_FINDING.to_owned(),
                data: None,
            });
        }
        let input = Input {
            home: self.namer.name(&self.input.home),
            project: self.input.project.as_deref().map(|p| self.namer.name(p)),
            config_dir: self.input.config_dir.as_deref().map(|p| self.namer.name(p)),
            os: self.input.os,
            version: self.input.version.clone(),
            today: self.input.today.clone(),
            reads: Vec::new(),
            disable_auto_memory_env: None,
            skill_listing_budget_env: None,
        };
        self.check_rules(&out);
        if self.namer.collecting() {
            // The report's paths and names go through the table too, so that
            // `Sanitized::pseudonym` maps every one of them, unresolved targets included.
            comparable(self.report, &mut |s| self.namer.name(s));
            for row in &self.report.files {
                self.namer.file(&row.path);
            }
        }
        Built {
            tree: out,
            dirs,
            input,
            paths,
            warnings: self.warnings,
        }
    }

    /// Warns when a renamed rule glob stops matching every kept file of the project it
    /// matched before (a wildcard inside a renamed word), or starts matching one.
    pub(super) fn check_rules(&mut self, shared: &Tree) {
        let Some(project) = &self.plan.project else {
            return;
        };
        if self.namer.collecting() {
            return;
        }
        let Ok(project) = VPath::new(&self.namer.name(project.as_str())) else {
            return;
        };
        let files: Vec<&str> = shared
            .files_under(&project)
            .filter_map(|(p, _)| p.strip_prefix(&project))
            .filter(|relative| !relative.starts_with(".git/"))
            .collect();
        for (globs, matched) in &self.plan.rules {
            let compiled: Vec<Glob> = globs
                .iter()
                .filter_map(|g| Glob::new(&self.namer.name(g)).ok())
                .collect();
            let matches = files
                .iter()
                .any(|f| compiled.iter().any(|g| g.matches_relative(f)));
            if matches != *matched {
                let shown: Vec<String> = globs.iter().map(|g| self.namer.name(g)).collect();
                self.warnings.push(format!(
                    "the rule paths {} match the shared project differently; the shared report \
                     may say otherwise about whether the rule ever loads",
                    shown.join(", ")
                ));
            }
        }
    }

    pub(super) fn shared_path(&mut self, original: &str, file: bool) -> Option<VPath> {
        let shared = if file {
            self.namer.file(original)
        } else {
            self.namer.name(original)
        };
        match VPath::new(&shared) {
            Ok(path) => Some(path),
            Err(error) => {
                self.warnings.push(format!(
                    "a path could not be shared and is left out: {error}"
                ));
                None
            }
        }
    }

    pub(super) fn file(&mut self, entry: &FileEntry, role: Role, shown: &str) -> FileEntry {
        let unreadable =
            || Contents::Unreadable("it could not be read when the snapshot was shared".to_owned());
        let (size, contents) = match (&entry.contents, role) {
            // Before size-only: a file that could not be read is skipped in the report, and
            // must stay unreadable rather than become one the analysis asks for.
            (Contents::Unreadable(_), _) => (entry.size, unreadable()),
            (_, Role::SizeOnly) | (Contents::Unread, _) => (entry.size, Contents::Unread),
            (Contents::Loaded(bytes), Role::Text(kind)) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.text(s, kind, shown));
                (entry.size, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::GitFile) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.git_file(s));
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::Settings) => {
                let mut text = self.settings(bytes, shown);
                // The managed settings are a row (their inline claudeMd), whose size shows:
                // white space after the JSON keeps it.
                if shown.ends_with("/managed-settings.json") && text.len() < bytes.len() {
                    text.resize(bytes.len(), b' ');
                }
                (text.len() as u64, Contents::Loaded(text))
            }
            (Contents::Loaded(bytes), Role::ClaudeJson) => {
                let text = self.claude_json(bytes);
                (text.len() as u64, Contents::Loaded(text))
            }
        };
        FileEntry {
            size,
            contents,
            // The growth chart reads a file's day, no more: the time of day is not shared.
            modified: entry.modified.as_deref().and_then(day_of),
        }
    }

    // ----- text --------------------------------------------------------------------------

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
        let lossy = String::from_utf8_lossy(bytes);
        let rewritten = rewrite(self, &lossy);
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for chunk in bytes.utf8_chunks() {
            let valid = chunk.valid().len();
            out.extend_from_slice(&rewritten.as_bytes()[at..at + valid]);
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

    /// The shared text of a Markdown (or any text) file.
    pub(super) fn text(&mut self, text: &str, kind: FileKind, shown: &str) -> String {
        let keep_text = self.options.keep_text;
        let mut out: String = text.chars().map(|c| placeholder(c, keep_text)).collect();
        if !keep_text && shown.ends_with("/MEMORY.md") {
            keep_correction_words(text, &mut out);
        }
        if let Some(block) = frontmatter::locate(text) {
            let yaml = &text[block.yaml.clone()];
            let shared = self.frontmatter(yaml, kind, shown);
            out.replace_range(block.yaml, &shared);
        }
        self.references(text, &mut out, shown);
        if keep_text && !self.options.keep_user_name {
            self.replace_user_name(text, &mut out);
        }
        out
    }

    /// With the text kept, the user name is still replaced wherever it is written (in any
    /// case, inside longer words too), by its pseudonym, which has the same length. A name of
    /// one or two letters, or one that is a word the analysis reads, is left: replacing every
    /// `al` or every `project` would change what the text means to the analysis.
    pub(super) fn replace_user_name(&mut self, text: &str, out: &mut String) {
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
            let shared = self.namer.name(&text[at..end]);
            if shared.len() == end - at && out.is_char_boundary(at) && out.is_char_boundary(end) {
                out.replace_range(at..end, &shared);
            }
        }
    }

    /// Rewrites every import path and local link destination in `out` (the placeholder text
    /// of `text`, at the same byte offsets) to the shared path, where the scanner found it
    /// written, then checks that the shared text scans to the renamed references.
    pub(super) fn references(&mut self, text: &str, out: &mut String, shown: &str) {
        // An `@word` without an extension that names no file is no import to the analysis
        // (a handle, a package name): it is text like any other, and becomes placeholders.
        let existing: BTreeSet<&str> = self
            .report
            .files
            .iter()
            .flat_map(|row| &row.references)
            .filter(|r| r.exists)
            .map(|r| r.target.as_str())
            .collect();
        let counts = |r: &references::RawReference| {
            r.kind == ReferenceKind::Link
                || references::has_extension(&r.target)
                || existing.contains(r.target.as_str())
        };
        let expected: Vec<_> = references::scan(text).into_iter().filter(counts).collect();
        for reference in &expected {
            let written = &text[reference.span.clone()];
            let shared = match reference.kind {
                ReferenceKind::Import => self.import_path(written),
                ReferenceKind::Link => self.link_destination(written),
            };
            if shared.len() == written.len() {
                out.replace_range(reference.span.clone(), &shared);
            }
        }
        if self.namer.collecting() {
            return;
        }
        let renamed: BTreeSet<String> = expected
            .iter()
            .map(|e| self.namer.file(&e.target))
            .collect();
        let shared: Vec<_> = references::scan(out)
            .into_iter()
            .filter(|r| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(&r.target)
                    || renamed.contains(&r.target)
            })
            .collect();
        let same = shared.len() == expected.len()
            && shared.iter().zip(&expected).all(|(s, e)| {
                s.kind == e.kind
                    && s.line == e.line
                    && s.trailing_punctuation == e.trailing_punctuation
                    && s.target == self.namer.file(&e.target)
            });
        if !same {
            self.warnings.push(format!(
                "a reference in {shown} could not be rewritten exactly; it may resolve \
                 differently in the shared report"
            ));
        }
    }

    /// The shared form of an import path as written (after its `@`): the path renamed, an
    /// escaped space kept escaped, a `#fragment` replaced like text.
    pub(super) fn import_path(&mut self, written: &str) -> String {
        let mut decoded: Vec<(char, bool)> = Vec::new();
        let mut chars = written.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek() == Some(&' ') {
                chars.next();
                decoded.push((' ', true));
            } else {
                decoded.push((c, false));
            }
        }
        let cut = decoded
            .iter()
            .position(|&(c, _)| c == '#')
            .unwrap_or(decoded.len());
        let target: String = decoded[..cut].iter().map(|&(c, _)| c).collect();
        let shared = self.namer.file(&target);
        let keep_text = self.options.keep_text;
        let mut renamed = shared.chars();
        let mut out = String::with_capacity(written.len());
        for (index, &(c, escaped)) in decoded.iter().enumerate() {
            let c = if index < cut {
                renamed.next().unwrap_or(c)
            } else {
                placeholder(c, keep_text)
            };
            if escaped {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }

    /// The shared form of a local link destination as written (inside its parentheses or
    /// angle brackets), with backslash and percent escapes kept where they stand.
    pub(super) fn link_destination(&mut self, written: &str) -> String {
        // The destination as Markdown reads it: a backslash before ASCII punctuation escapes it.
        let mut decoded: Vec<(char, bool)> = Vec::new();
        let mut chars = written.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\\' && chars.peek().is_some_and(char::is_ascii_punctuation) {
                let next = chars.next().expect("peeked");
                decoded.push((next, true));
            } else {
                decoded.push((c, false));
            }
        }
        let cut = decoded
            .iter()
            .position(|&(c, _)| c == '#')
            .unwrap_or(decoded.len());
        let before: Vec<char> = decoded[..cut].iter().map(|&(c, _)| c).collect();
        let mut renamed = before.clone();
        match percent_units(&before) {
            Some((units, target)) => {
                let shared = self.namer.file(&target);
                let bytes = shared.as_bytes();
                let mut at = 0;
                for unit in units {
                    match unit {
                        Unit::Literal(index) => {
                            let len = before[index].len_utf8();
                            let c = shared
                                .get(at..at + len)
                                .and_then(|s| s.chars().next())
                                .unwrap_or(before[index]);
                            renamed[index] = c;
                            at += len;
                        }
                        Unit::Escape(index) => {
                            let byte = bytes.get(at).copied().unwrap_or(0);
                            // The escape keeps the case its hex letters were written in.
                            let upper = !before[index + 1..=index + 2]
                                .iter()
                                .any(char::is_ascii_lowercase);
                            for (offset, nibble) in [(1, byte >> 4), (2, byte & 0xf)] {
                                renamed[index + offset] = hex_digit(nibble, upper);
                            }
                            at += 1;
                        }
                    }
                }
            }
            None => {
                let target: String = before.iter().collect();
                let shared = self.namer.file(&target);
                for (slot, c) in renamed.iter_mut().zip(shared.chars()) {
                    *slot = c;
                }
            }
        }
        let keep_text = self.options.keep_text;
        let mut out = String::with_capacity(written.len());
        for (index, &(c, escaped)) in decoded.iter().enumerate() {
            let c = if index < cut {
                renamed[index]
            } else {
                placeholder(c, keep_text)
            };
            if escaped {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }
}

/// The day (`YYYY-MM-DD`) of a modification time, when it names one.
pub(super) fn day_of(modified: &str) -> Option<String> {
    crate::date::parse_day(modified)?;
    modified.trim().get(..10).map(str::to_owned)
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

/// One step of percent-decoding: a character kept as it is, or a `%XX` escape starting at
/// that index.
pub(super) enum Unit {
    Literal(usize),
    Escape(usize),
}

/// Percent-decodes a destination (as a list of characters): the steps taken and the decoded
/// text, or `None` when the decoded bytes are not UTF-8 (then the scanner keeps the target as
/// written).
pub(super) fn percent_units(chars: &[char]) -> Option<(Vec<Unit>, String)> {
    let mut units = Vec::new();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let hex = |c: Option<&char>| c.and_then(|c| c.to_digit(16));
        if chars[i] == '%' {
            if let (Some(hi), Some(lo)) = (hex(chars.get(i + 1)), hex(chars.get(i + 2))) {
                units.push(Unit::Escape(i));
                bytes.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        units.push(Unit::Literal(i));
        let mut buffer = [0; 4];
        bytes.extend_from_slice(chars[i].encode_utf8(&mut buffer).as_bytes());
        i += 1;
    }
    String::from_utf8(bytes).ok().map(|text| (units, text))
}

/// A hex digit for `nibble`, upper-case when `upper`.
pub(super) fn hex_digit(nibble: u8, upper: bool) -> char {
    let digit = char::from_digit(u32::from(nibble), 16).expect("a nibble is a hex digit");
    if upper {
        digit.to_ascii_uppercase()
    } else {
        digit
    }
}
