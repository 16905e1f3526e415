//! Absolute virtual paths: the one way the core names a file.

use std::fmt;

/// An absolute, normalised path inside the virtual tree.
///
/// Unix-style paths start with `/` (`/home/alice/.claude/CLAUDE.md`); Windows snapshots use a
/// drive prefix with forward slashes (`C:/Users/alice/.claude/CLAUDE.md`). The only way to
/// make one is [`VPath::new`] (or [`VPath::join`], which goes through it), so every value in
/// the tree is normalised the same way and compares byte for byte.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VPath(String);

/// Why a string is not a valid virtual path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The path does not start with `/` or a drive letter such as `C:/`.
    NotAbsolute(String),
    /// A `..` segment would climb above the root.
    Escapes(String),
    /// A segment holds a NUL character.
    Nul(String),
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::NotAbsolute(p) => write!(f, "not an absolute path: {p:?}"),
            PathError::Escapes(p) => write!(f, "path climbs above its root: {p:?}"),
            PathError::Nul(p) => write!(f, "path holds a NUL character: {p:?}"),
        }
    }
}

impl std::error::Error for PathError {}

impl VPath {
    /// Normalises `raw` into a virtual path.
    ///
    /// Repeated slashes and `.` segments are dropped, `..` climbs one segment, a trailing slash
    /// is removed. On a drive path (`C:\Users`) backslashes become slashes and the drive letter
    /// is upper-cased; on a Unix path a backslash is an ordinary character.
    ///
    /// # Errors
    /// A relative path, a `..` that climbs above the root, or a NUL character.
    pub fn new(raw: &str) -> Result<VPath, PathError> {
        // Most paths arrive normalised already (every listed file of a large tree): one
        // scan and one copy, instead of splitting and joining.
        if raw.len() > 1
            && raw.starts_with('/')
            && !raw.contains('\0')
            && raw[1..]
                .split('/')
                .all(|segment| !segment.is_empty() && segment != "." && segment != "..")
        {
            return Ok(VPath(raw.to_owned()));
        }
        if raw.contains('\0') {
            return Err(PathError::Nul(raw.to_owned()));
        }
        let (root, rest) = split_root(raw).ok_or_else(|| PathError::NotAbsolute(raw.to_owned()))?;
        let rest = if root.len() > 1 {
            rest.replace('\\', "/")
        } else {
            rest.to_owned()
        };
        let mut segments: Vec<&str> = Vec::new();
        for segment in rest.split('/') {
            match segment {
                "" | "." => {}
                ".." => {
                    if segments.pop().is_none() {
                        return Err(PathError::Escapes(raw.to_owned()));
                    }
                }
                s => segments.push(s),
            }
        }
        let mut path = root;
        path.push_str(&segments.join("/"));
        Ok(VPath(path))
    }

    /// A path from text known to be normal: a normal path, or one cut at a slash (the
    /// folder holding it), as the tree makes its folders.
    pub(crate) fn from_normal(text: String) -> VPath {
        VPath(text)
    }

    /// The path as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for `/` and for a drive root such as `C:/`.
    pub fn is_root(&self) -> bool {
        self.0.ends_with('/')
    }

    /// The root this path hangs from: `/` or `C:/`.
    pub fn root(&self) -> &str {
        if self.0.starts_with('/') {
            "/"
        } else {
            &self.0[..3]
        }
    }

    /// The containing directory, or `None` for a root.
    pub fn parent(&self) -> Option<VPath> {
        if self.is_root() {
            return None;
        }
        let cut = self.0.rfind('/').expect("a non-root path holds a slash");
        let parent = if cut < self.root().len() {
            self.root().to_owned()
        } else {
            self.0[..cut].to_owned()
        };
        Some(VPath(parent))
    }

    /// The last segment, or `""` for a root.
    pub fn file_name(&self) -> &str {
        if self.is_root() {
            return "";
        }
        let cut = self.0.rfind('/').expect("a non-root path holds a slash");
        &self.0[cut + 1..]
    }

    /// The extension of the last segment without its dot, if it has one.
    pub fn extension(&self) -> Option<&str> {
        let name = self.file_name();
        match name.rfind('.') {
            Some(0) | None => None,
            Some(i) => Some(&name[i + 1..]),
        }
    }

    /// Appends a relative path (which may hold `..` and several segments).
    ///
    /// # Errors
    /// When the result climbs above the root or holds a NUL.
    pub fn join(&self, relative: &str) -> Result<VPath, PathError> {
        if self.is_root() {
            VPath::new(&format!("{}{relative}", self.0))
        } else {
            VPath::new(&format!("{}/{relative}", self.0))
        }
    }

    /// Appends one known-good segment such as `CLAUDE.md`.
    ///
    /// Panics on a segment that would not survive normalisation; callers pass constants.
    pub fn child(&self, name: &str) -> VPath {
        // One segment (the usual case) is appended as it is, without normalising.
        self.join_segment(name)
            .unwrap_or_else(|| self.join(name).expect("a constant segment is a valid path"))
    }

    /// Appends `name` when it is exactly one segment of this path: not empty, `.` or `..`,
    /// without a slash (nor, on a drive path, a backslash) or a NUL. What a folder listing
    /// uses for each name it reads: the same answer as [`VPath::join`] giving a child of
    /// `self`, without normalising.
    pub fn join_segment(&self, name: &str) -> Option<VPath> {
        let drive = !self.0.starts_with('/');
        if name.is_empty()
            || name == "."
            || name == ".."
            || name.contains(['/', '\0'])
            || (drive && name.contains('\\'))
        {
            return None;
        }
        let mut path = String::with_capacity(self.0.len() + 1 + name.len());
        path.push_str(&self.0);
        if !self.is_root() {
            path.push('/');
        }
        path.push_str(name);
        Some(VPath(path))
    }

    /// True when `self` is `ancestor` or lies below it.
    pub fn starts_with(&self, ancestor: &VPath) -> bool {
        if ancestor.is_root() {
            return self.0.starts_with(&ancestor.0);
        }
        self.0 == ancestor.0
            || (self.0.starts_with(&ancestor.0) && self.0.as_bytes()[ancestor.0.len()] == b'/')
    }

    /// The part of `self` below `ancestor`, without a leading slash (`""` when equal).
    pub fn strip_prefix(&self, ancestor: &VPath) -> Option<&str> {
        if !self.starts_with(ancestor) {
            return None;
        }
        let rest = &self.0[ancestor.0.len()..];
        Some(rest.strip_prefix('/').unwrap_or(rest))
    }

    /// The segments below the root.
    pub fn segments(&self) -> impl Iterator<Item = &str> {
        self.0[self.root().len()..]
            .split('/')
            .filter(|s| !s.is_empty())
    }

    /// This path and every directory above it, nearest first, ending with the root.
    pub fn ancestors(&self) -> impl Iterator<Item = VPath> {
        std::iter::successors(Some(self.clone()), VPath::parent)
    }
}

/// A path compares, orders and hashes as its text, so a set of paths can be searched with a
/// `&str` (a prefix of a path) without building a path for it.
impl std::borrow::Borrow<str> for VPath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for VPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for VPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl serde::Serialize for VPath {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

/// Splits `raw` into its root (`/` or `C:/`) and the rest.
fn split_root(raw: &str) -> Option<(String, &str)> {
    if let Some(rest) = raw.strip_prefix('/') {
        return Some(("/".to_owned(), rest));
    }
    let bytes = raw.as_bytes();
    if bytes.len() >= 3
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes[2] == b'/' || bytes[2] == b'\\')
    {
        let drive = (bytes[0] as char).to_ascii_uppercase();
        return Some((format!("{drive}:/"), &raw[3..]));
    }
    if bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        let drive = (bytes[0] as char).to_ascii_uppercase();
        return Some((format!("{drive}:/"), ""));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        VPath::new(s)
            .map(|p| p.0)
            .unwrap_or_else(|e| format!("error: {e}"))
    }

    #[test]
    fn normalises() {
        assert_eq!(p("/home//alice/./x/"), "/home/alice/x");
        assert_eq!(p("/a/b/../c"), "/a/c");
        assert_eq!(p("/"), "/");
        assert_eq!(p("c:\\Users\\foo\\"), "C:/Users/foo");
        assert_eq!(p("C:"), "C:/");
        assert_eq!(p("/a\\b"), "/a\\b");
    }

    #[test]
    fn rejects() {
        assert_eq!(
            p("/a/../.."),
            "error: path climbs above its root: \"/a/../..\""
        );
        assert!(p("relative/x").starts_with("error: not an absolute"));
        assert!(p("/a\0b").starts_with("error: path holds a NUL"));
        assert!(p("").starts_with("error"));
    }

    #[test]
    fn navigates() {
        let path = VPath::new("/home/alice/CLAUDE.md").unwrap();
        assert_eq!(path.parent().unwrap().as_str(), "/home/alice");
        assert_eq!(path.file_name(), "CLAUDE.md");
        assert_eq!(path.extension(), Some("md"));
        assert_eq!(VPath::new("/x").unwrap().parent().unwrap().as_str(), "/");
        assert_eq!(
            VPath::new("C:/x").unwrap().parent().unwrap().as_str(),
            "C:/"
        );
        assert_eq!(VPath::new("/.bashrc").unwrap().extension(), None);
        let home = VPath::new("/home/alice").unwrap();
        assert!(path.starts_with(&home));
        assert!(!VPath::new("/home/alicex").unwrap().starts_with(&home));
        assert_eq!(path.strip_prefix(&home), Some("CLAUDE.md"));
        let ancestors: Vec<_> = path.ancestors().map(|a| a.0).collect();
        assert_eq!(
            ancestors,
            ["/home/alice/CLAUDE.md", "/home/alice", "/home", "/"]
        );
        assert_eq!(home.join("../bob/x.md").unwrap().as_str(), "/home/bob/x.md");
    }

    #[test]
    fn a_listed_name_joins_as_one_segment_exactly_when_join_gives_a_child() {
        let names = [
            // (A listed name never ends in a slash, which `join` would drop.)
            "a",
            "CLAUDE.md",
            "",
            ".",
            "..",
            "a/b",
            "a\\b",
            "x\0y",
            "...",
            ".hidden",
        ];
        for dir in ["/", "/home/alice", "C:/", "C:/Users"] {
            let dir = VPath::new(dir).unwrap();
            for name in names {
                let joined = dir
                    .join(name)
                    .ok()
                    .filter(|path| path.parent().as_ref() == Some(&dir));
                assert_eq!(dir.join_segment(name), joined, "{dir} + {name:?}");
            }
        }
    }
}
