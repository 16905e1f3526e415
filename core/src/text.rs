//! Parsing: pure text-to-value functions. Nothing here knows about the tree or about
//! Claude Code's loading policy; discovery and measurement call these.

pub(crate) mod frontmatter;
pub(crate) mod glob;
pub(crate) mod js_regex;
pub(crate) mod measure;
pub(crate) mod memory_index;
pub(crate) mod plugins;
pub(crate) mod references;
pub(crate) mod reserved;
pub(crate) mod settings;
