//! The engine kept warm between calls: the project is opened again for
//! each call (a person in the TUI may have changed a preset, or the
//! settings), but the per-file `Sources` stay, so an unchanged file is
//! not read, parsed or counted again; a file changed on disk is re-read
//! (the sources stamp each file with its size and mtime). New sources are
//! made only when the settings change, since they shape every read.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ctxcurate::core::model::Settings;
use ctxcurate::core::project::Project;
use ctxcurate::core::sources::Sources;

use super::error::ToolError;

/// A preset's token total, with what it was counted for.
#[derive(Debug, Clone)]
struct Total {
    /// The preset and settings as counted (serialized): a change counts
    /// again.
    key: String,
    tokens: usize,
    exact: bool,
}

/// What the server keeps from one call to the next.
#[derive(Debug)]
pub struct Warm {
    start: PathBuf,
    sources: Option<(Settings, Arc<Sources>)>,
    totals: HashMap<String, Total>,
    /// The project's warnings already sent to the client (each is sent
    /// once, not on every call).
    said: HashSet<String>,
}

/// A call's view of the project: opened now, over the warm sources.
pub struct Opened {
    pub project: Project,
    pub sources: Arc<Sources>,
}

impl Warm {
    /// Warm state for the project around `start`.
    pub fn new(start: &Path) -> Self {
        Warm {
            start: start.to_path_buf(),
            sources: None,
            totals: HashMap::new(),
            said: HashSet::new(),
        }
    }

    /// The project as it is now, and the sources to read it through; the
    /// project's warnings not yet sent go to `logs` (an untrusted
    /// setting ignored, a broken global config).
    pub fn open(&mut self, logs: &mut Vec<String>) -> Result<Opened, ToolError> {
        // With its causes, as the CLI says it ("cannot read …: larger
        // than 4 MiB, …"), not the first line alone.
        let project = Project::open(&self.start)
            .map_err(|e| ToolError::new(ctxcurate::text::error_chain(&e)))?;
        for w in &project.warnings {
            if self.said.insert(w.clone()) {
                logs.push(w.clone());
            }
        }
        let sources = match &self.sources {
            Some((settings, sources)) if *settings == project.settings => sources.clone(),
            _ => {
                let sources = Arc::new(project.file_cache());
                self.sources = Some((project.settings.clone(), sources.clone()));
                self.totals.clear();
                sources
            }
        };
        Ok(Opened { project, sources })
    }

    /// The total counted before for preset `name` when `key` (what it was
    /// counted from) is unchanged.
    pub fn total(&self, name: &str, key: &str) -> Option<(usize, bool)> {
        self.totals
            .get(name)
            .filter(|t| t.key == key)
            .map(|t| (t.tokens, t.exact))
    }

    /// Remember preset `name`'s total, counted from `key`.
    pub fn remember_total(&mut self, name: &str, key: String, tokens: usize, exact: bool) {
        self.totals
            .insert(name.to_string(), Total { key, tokens, exact });
    }
}
