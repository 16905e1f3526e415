//! The two passes over the plan (names collected, then the snapshot written) and the
//! shared text of a file: placeholders, references rewritten to the shared paths, the user
//! name replaced in kept text.

use super::*;

/// A range of a text and what the shared text writes there instead.
pub(super) type Edit = (Range<usize>, String);

/// What a pass of [`Builder::build`] produces.
pub(super) struct Built {
    pub(super) tree: Tree,
    pub(super) quoted: BTreeMap<String, QuotedLength>,
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
    /// Each shared file's stand-ins ([`Tree::set_stand_ins`]), as its text is written.
    pub(super) stand_ins: BTreeMap<VPath, BTreeMap<String, String>>,
    /// The stand-ins of the frontmatter of the file being written.
    pub(super) file_stand_ins: BTreeMap<String, String>,
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
            stand_ins: BTreeMap::new(),
            file_stand_ins: BTreeMap::new(),
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
            let mut file = self.file(entry, *role, path, shared.as_str());
            if let Some(stand_ins) = self.stand_ins.remove(&shared) {
                out.set_stand_ins(shared.clone(), stand_ins);
            }
            // The growth chart dates a memory folder's topic file by its modification day when
            // its frontmatter names none, and discovery records which it read; no other
            // file's date is read, so no other is shared.
            if !self.plan.dated.contains(path) {
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
            // Only what the analysis reads of them: whether auto memory is off, the budget.
            disable_auto_memory_env: self
                .input
                .disable_auto_memory_env
                .as_deref()
                .filter(|v| crate::discover::settings::is_truthy(v))
                .map(|_| "1".to_owned()),
            skill_listing_budget_env: self
                .input
                .skill_listing_budget_env
                .as_deref()
                .and_then(crate::discover::session::listing_budget_from_env)
                .map(|n| n.to_string()),
            session: crate::SessionKind::Interactive,
        };
        let quoted = self.quoted();
        out.set_quoted(quoted.clone());
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
            quoted,
            dirs,
            input,
            paths,
            warnings: self.warnings,
        }
    }

    /// How long each name Claude Code quotes was before it was renamed, where its pseudonym
    /// has another length: every row's path (the instruction block and a read name each file
    /// they send), the memory folder (the memory section names it), each skill's listed name.
    /// The shared tree carries it ([`Tree::set_quoted`]) so that those figures stay.
    pub(super) fn quoted(&self) -> BTreeMap<String, QuotedLength> {
        let mut quoted = BTreeMap::new();
        if self.namer.collecting() {
            return quoted;
        }
        let mut note = |original: &str, shared: String| {
            // A snapshot shared again keeps the first original's lengths.
            let length = self
                .tree
                .quoted(original)
                .unwrap_or_else(|| length_of(original));
            if length != length_of(&shared) {
                quoted.insert(shared, length);
            }
        };
        for row in &self.report.files {
            let shared_path = self.namer.file(&row.path);
            note(&row.path, shared_path.clone());
            let (Some(name), Ok(path)) = (&row.skill_name, VPath::new(&row.path)) else {
                continue;
            };
            // A Read below a folder with its own skills announces each one, quoting that
            // folder relative to the project twice.
            if let Some((folder, shared_folder)) = announced_folder(
                &row.path,
                &shared_path,
                self.report.context.project.as_deref(),
            ) {
                note(&folder, shared_folder);
            }
            // As the listing shows it: `<folder>`, or `<folder> (<name>)`.
            let folder = path
                .parent()
                .map(|p| p.file_name().to_owned())
                .unwrap_or_default();
            let shown = |folder: &str, name: &str| {
                if name == folder {
                    folder.to_owned()
                } else {
                    format!("{folder} ({name})")
                }
            };
            note(
                &shown(&folder, name),
                shown(&self.namer.name(&folder), &self.namer.name(name)),
            );
        }
        if let Some(dir) = &self.report.context.memory_dir {
            note(dir, self.namer.name(dir));
        }
        // A memory folder without an index gets one written from its files' names.
        for row in self.report.files.iter().filter(|row| row.backfilled) {
            let Some(dir) = VPath::new(&row.path).ok().and_then(|p| p.parent()) else {
                continue;
            };
            for (path, _) in self.tree.files_under(&dir) {
                let Some(file) = path.strip_prefix(&dir) else {
                    continue;
                };
                let stem = path.file_name().trim_end_matches(".md");
                note(file, self.namer.file(file));
                note(stem, self.namer.name(stem));
            }
        }
        quoted
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

    pub(super) fn file(
        &mut self,
        entry: &FileEntry,
        role: Role,
        original: &VPath,
        shown: &str,
    ) -> FileEntry {
        let unreadable =
            || Contents::Unreadable("it could not be read when the snapshot was shared".to_owned());
        let (size, contents) = match (&entry.contents, role) {
            // Before size-only: a file that could not be read is skipped in the report, and
            // must stay unreadable rather than become one the analysis asks for.
            (Contents::Unreadable(_), _) => (entry.size, unreadable()),
            (_, Role::SizeOnly) | (Contents::Unread, _) => (entry.size, Contents::Unread),
            (Contents::Loaded(bytes), Role::Text(kind)) => {
                let text = self.text_bytes(bytes, &mut |b, s| b.text(s, kind, original, shown));
                // Where a line could not keep its length (the sharer is warned), the size
                // follows the bytes.
                let size = (entry.size + text.len() as u64).saturating_sub(bytes.len() as u64);
                (size, Contents::Loaded(text))
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

    /// The shared form of every import path and local link destination of the text, where
    /// the scanner found it written (the path of what it points to, at the length written),
    /// and the stand-ins among them with the shared targets they stand for.
    pub(super) fn references(
        &mut self,
        text: &str,
        original: &VPath,
    ) -> (Vec<Edit>, BTreeMap<String, String>) {
        let counted = self.counted_references(text, original);
        let mut edits = Vec::new();
        // What each reference is written as when its pseudonym keeps the length; the rest
        // get stand-ins that must differ from every target written in the file.
        let mut pending = Vec::new();
        let mut taken: BTreeSet<String> = BTreeSet::new();
        for (reference, target) in &counted {
            let written = &text[reference.span.clone()];
            let shared_target = self.namer.file(target);
            let stands_in = target != &reference.target;
            let shared = match reference.kind {
                _ if stands_in => None,
                ReferenceKind::Import => Some(self.import_path(written)),
                ReferenceKind::Link => Some(self.link_destination(written)),
            };
            match shared.filter(|shared| length_of(shared) == length_of(written)) {
                Some(shared) => {
                    taken.insert(shared_target);
                    edits.push((reference.span.clone(), shared));
                }
                None => pending.push((reference, shared_target)),
            }
        }
        // A reference the analysis does not count is written as placeholders (or as it
        // is, with the text kept): no stand-in may read as one.
        for reference in references::scan(text) {
            taken.insert(text_placeholder(&reference.target, self.options.keep_text));
            taken.insert(reference.target);
        }
        // The frontmatter's stand-ins come first; the references' differ from them.
        let mut stand_ins = std::mem::take(&mut self.file_stand_ins);
        for (reference, shared_target) in pending {
            let written = &text[reference.span.clone()];
            // An import whose path ends in punctuation never loads: its stand-in ends so.
            let last = (reference.kind == ReferenceKind::Import)
                .then(|| reference.target.chars().next_back())
                .flatten()
                .filter(|_| reference.trailing_punctuation);
            let reused = stand_ins.iter().find(|(stand_in, target)| {
                **target == shared_target && length_of(stand_in) == length_of(written)
            });
            let stand_in = match reused {
                Some((stand_in, _)) => Some(stand_in.clone()),
                None => (1..)
                    .map_while(|n| stand_in(written, last, n))
                    .find(|s| !taken.contains(s) && !stand_ins.contains_key(s)),
            };
            match stand_in {
                Some(stand_in) => {
                    stand_ins.insert(stand_in.clone(), shared_target);
                    edits.push((reference.span.clone(), stand_in));
                }
                // (A path too short to number its stand-in: `check_references` tells.)
                None => edits.push((reference.span.clone(), text_placeholder(written, false))),
            }
        }
        (edits, stand_ins)
    }

    /// The references of a text the analysis counts, each with the target it names (a
    /// stand-in's, when the text is a shared snapshot's). An `@word` without an extension
    /// that names no file is no import to the analysis (a handle, a package name): it is
    /// text like any other, and becomes placeholders.
    pub(super) fn counted_references(
        &self,
        text: &str,
        original: &VPath,
    ) -> Vec<(references::RawReference, String)> {
        let existing: BTreeSet<&str> = self
            .report
            .files
            .iter()
            .flat_map(|row| &row.references)
            .filter(|r| r.exists)
            .map(|r| r.target.as_str())
            .collect();
        references::scan(text)
            .into_iter()
            .map(|r| {
                let target = self.tree.stand_in_target(original, &r.target);
                let target = target.unwrap_or(&r.target).to_owned();
                (r, target)
            })
            .filter(|(r, target)| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(target)
                    || existing.contains(target.as_str())
            })
            .collect()
    }

    /// Checks that the shared text scans to the renamed references, on the same lines.
    pub(super) fn check_references(
        &mut self,
        text: &str,
        out: &str,
        original: &VPath,
        stand_ins: &BTreeMap<String, String>,
        shown: &str,
    ) {
        if self.namer.collecting() {
            return;
        }
        let expected = self.counted_references(text, original);
        let renamed: BTreeSet<String> = expected
            .iter()
            .map(|(_, target)| self.namer.file(target))
            .collect();
        let shared: Vec<_> = references::scan(out)
            .into_iter()
            .map(|mut r| {
                if let Some(target) = stand_ins.get(&r.target) {
                    r.target = target.clone();
                }
                r
            })
            .filter(|r| {
                r.kind == ReferenceKind::Link
                    || references::has_extension(&r.target)
                    || renamed.contains(&r.target)
            })
            .collect();
        let same = shared.len() == expected.len()
            && shared.iter().zip(&expected).all(|(s, (e, target))| {
                s.kind == e.kind
                    && s.line == e.line
                    && s.span == e.span
                    && s.trailing_punctuation == e.trailing_punctuation
                    && s.target == self.namer.file(target)
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
        // The pseudonyms keep every space, so the n-th space of the shared path is the n-th
        // of the original, escaped where that one was.
        let mut escapes = decoded[..cut]
            .iter()
            .filter(|(c, _)| *c == ' ')
            .map(|&(_, escaped)| escaped);
        let mut out = String::with_capacity(written.len());
        for c in shared.chars() {
            if c == ' ' && escapes.next().unwrap_or(false) {
                out.push('\\');
            }
            out.push(c);
        }
        let keep_text = self.options.keep_text;
        for &(c, escaped) in &decoded[cut..] {
            if escaped {
                out.push('\\');
            }
            out.push(placeholder(c, keep_text));
        }
        out
    }

    /// The shared form of a local link destination as written (inside its parentheses or
    /// angle brackets): each renamed run as its pseudonym, everything else written as it
    /// was (a backslash or percent escape stays an escape), a `#fragment` replaced like text.
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
        // How each written unit decodes: a character as it is, or a `%XX` byte.
        let (units, target) = percent_units(&before).unwrap_or_else(|| {
            (
                (0..before.len()).map(Unit::Literal).collect(),
                before.iter().collect(),
            )
        });
        self.namer.file(&target);
        let written_unit = |unit: &Unit, out: &mut String| match *unit {
            Unit::Literal(index) => {
                if decoded[index].1 {
                    out.push('\\');
                }
                out.push(before[index]);
            }
            Unit::Escape(index) => out.extend(&before[index..index + 3]),
        };
        let mut out = String::with_capacity(written.len());
        let mut units = units.iter();
        for piece in split_name(&target) {
            match piece {
                NamePiece::Run(run) => {
                    // Every character of a run is ASCII: one unit each.
                    units.by_ref().take(run.len()).for_each(drop);
                    out.push_str(&self.namer.name(run));
                }
                NamePiece::Char(c) => {
                    let mut taken = Vec::new();
                    let mut bytes = 0;
                    while bytes < c.len_utf8() {
                        let Some(unit) = units.next() else { break };
                        bytes += match *unit {
                            Unit::Literal(index) => before[index].len_utf8(),
                            Unit::Escape(_) => 1,
                        };
                        taken.push(unit);
                    }
                    let shared = self.namer.name(&c.to_string());
                    match taken.first() {
                        Some(Unit::Escape(index)) if shared != c.to_string() => {
                            // An escaped character renamed: the new one, escaped alike.
                            let upper = !before[index + 1..=index + 2]
                                .iter()
                                .any(char::is_ascii_lowercase);
                            for byte in shared.bytes() {
                                out.push('%');
                                out.push(hex_digit(byte >> 4, upper));
                                out.push(hex_digit(byte & 0xf, upper));
                            }
                        }
                        _ if shared != c.to_string() => out.push_str(&shared),
                        _ => taken
                            .into_iter()
                            .for_each(|unit| written_unit(unit, &mut out)),
                    }
                }
            }
        }
        let keep_text = self.options.keep_text;
        for &(c, escaped) in &decoded[cut..] {
            if escaped {
                out.push('\\');
            }
            out.push(placeholder(c, keep_text));
        }
        out
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

/// The `n`-th stand-in (from 1) for a reference written as `written`: every ASCII character
/// an `x`, every other its placeholder (so it measures as `written` does in bytes,
/// characters, UTF-16 units and columns), `last` kept at the end (an import's trailing
/// punctuation), and `n` written in letters over the last `x`s so that stand-ins differ.
/// `None` when `written` has too few ASCII characters to number `n`.
pub(super) fn stand_in(written: &str, last: Option<char>, n: usize) -> Option<String> {
    let mut chars: Vec<char> = written
        .chars()
        .map(|c| {
            if c.is_ascii() {
                'x'
            } else {
                placeholder(c, false)
            }
        })
        .collect();
    let mut end = chars.len();
    if let Some(last) = last.filter(char::is_ascii) {
        if chars.last() == Some(&'x') {
            *chars.last_mut()? = last;
            end -= 1;
        }
    }
    // The letters but `x`, counting from `a`: 25 values a place.
    const DIGITS: &[u8; 25] = b"abcdefghijklmnopqrstuvwyz";
    let mut rest = n;
    let mut at = end;
    while rest > 0 {
        at = chars[..at].iter().rposition(|&c| c == 'x')?;
        chars[at] = char::from(DIGITS[(rest - 1) % 25]);
        rest = (rest - 1) / 25;
    }
    Some(chars.into_iter().collect())
}
/// How a name measures where Claude Code quotes it.
pub(super) fn length_of(name: &str) -> QuotedLength {
    QuotedLength {
        bytes: name.len() as u64,
        chars: name.chars().count() as u64,
        utf16: name.encode_utf16().count() as u64,
        columns: unicode_width::UnicodeWidthStr::width(name) as u64,
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

/// For a skill below the project (`<project>/<folder>/.claude/skills/<name>/SKILL.md`): the
/// folder as a Read's announcement quotes it, relative to the project, and the same segments
/// of its shared path (renaming keeps every `/`).
fn announced_folder(
    path: &str,
    shared_path: &str,
    project: Option<&str>,
) -> Option<(String, String)> {
    let project = project?.trim_end_matches('/');
    let owner = &path[..path.rfind("/.claude/skills/")?];
    let folder = owner.strip_prefix(project)?.strip_prefix('/')?;
    if folder.is_empty() {
        return None;
    }
    let skip = project.split('/').count();
    let take = folder.split('/').count();
    let shared_folder: Vec<&str> = shared_path.split('/').skip(skip).take(take).collect();
    (shared_folder.len() == take).then(|| (folder.to_owned(), shared_folder.join("/")))
}
