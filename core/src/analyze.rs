//! The analysis loop: run discovery, say which contents are missing, or finish the report.

use std::fmt;

use crate::report::{Os, Report};
use crate::tree::{ContentSource, Tree};
use crate::vpath::VPath;

/// What the analysis is told about the host; everything else comes from the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The home directory, absolute (`/home/alice`, `C:/Users/alice`).
    pub home: String,
    /// The project directory, absolute. Without one only user-level sources and the memory
    /// folders are listed.
    pub project: Option<String>,
    /// The Claude config directory; `<home>/.claude` when `None` (as `CLAUDE_CONFIG_DIR`).
    pub config_dir: Option<String>,
    /// The operating system; it decides the managed policy path.
    pub os: Os,
}

/// One turn of the analysis loop.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Read these files and hand them to [`Tree::set_contents`], then call [`analyze`] again.
    NeedsContents(Vec<VPath>),
    /// The analysis is complete.
    Done(Box<Report>),
}

/// Why an analysis cannot start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeError {
    /// An input path is not absolute or climbs above its root.
    BadInput(String),
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::BadInput(why) => write!(f, "bad input: {why}"),
        }
    }
}

impl std::error::Error for AnalyzeError {}

/// Runs one turn of the analysis over `tree`.
///
/// # Errors
/// When an input path is not a valid absolute path.
pub fn analyze(tree: &Tree, input: &Input) -> Result<Step, AnalyzeError> {
    let _ = (tree, input);
    todo!("in progress")
}

/// Runs the analysis to completion, reading each requested file from `source`.
///
/// # Errors
/// When an input path is not a valid absolute path.
pub fn analyze_with(
    tree: &mut Tree,
    input: &Input,
    source: &mut dyn ContentSource,
) -> Result<Report, AnalyzeError> {
    loop {
        match analyze(tree, input)? {
            Step::Done(report) => return Ok(*report),
            Step::NeedsContents(paths) => {
                for path in paths {
                    let contents = source.read(&path);
                    tree.set_contents(&path, contents);
                }
            }
        }
    }
}
