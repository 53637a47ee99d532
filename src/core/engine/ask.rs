//! A build as the user said it ([`BuildAsk`]: a preset's name, a ref for
//! `--changed` or `--diff`, a task or a task file, targets as typed) made
//! into a [`BuildRequest`] here, so that a front end turns its flags into
//! an ask and the result into lines, and looks nothing up itself. What
//! resolving found worth saying comes back as [`Said`], in order; why it
//! stopped as an [`AskError`], which the front end words.
//!
//! [`build_asked`] is one command's whole build: the ask resolved, the
//! project's run cache opened, the request built on it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;

use crate::core::git::GitError;
use crate::core::model::{FileItem, Format, Preset, Strategy, TokenizerKind, TreeMode};
use crate::core::paths;
use crate::core::progress::Progress;
use crate::core::project::{Project, ProjectError};
use crate::core::sources::Sources;
use crate::core::trust::entries::EntryConsent;
use crate::core::walk;

use super::Workspace;
use super::error::Refused;
use super::request::{BuildRequest, Built, Destination};

/// The task of a build, as the user gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskText {
    /// The text itself (`--task`).
    Text(String),
    /// A file holding it (`--task-file`), relative to the ask's `cwd`.
    File(PathBuf),
}

/// What the user asked to build, before anything is looked up.
#[derive(Debug, Clone, Default)]
pub struct BuildAsk {
    /// Where relative paths (targets, the task file) start.
    pub cwd: PathBuf,
    /// The preset named, or the active one.
    pub preset: Option<String>,
    /// Add the files git sees changed against this ref that the preset
    /// does not already show, in full, for this build (`--changed`).
    pub changed: Option<String>,
    /// Show git's changes against this ref (`--diff`).
    pub diff: Option<String>,
    /// The task, in place of the preset's.
    pub task: Option<TaskText>,
    /// Targets as typed: relative to `cwd`, or absolute.
    pub targets: Vec<PathBuf>,
    /// More to leave out, root-relative (a watch's own output).
    pub exclude: Vec<String>,
    pub strategy: Option<Strategy>,
    pub format: Option<Format>,
    pub focus: Vec<String>,
    pub tree: Option<TreeMode>,
    pub tokenizer: Option<TokenizerKind>,
    pub budget: Option<usize>,
    pub map_budget: Option<usize>,
    pub allow_partial: bool,
    pub allow_secrets: bool,
    pub destination: Destination,
}

/// What resolving an ask found worth telling, in the order it found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// git's note on the changed files it left out (`--changed`).
    ChangedNote(String),
    /// `files` changed against `rev`, `added` of them on top of the preset.
    ChangedOnTop {
        files: usize,
        rev: String,
        added: usize,
    },
    /// The preset has no files, targets, focus or task.
    Empty { preset: String },
    /// An entry named by path (not a glob) that is not on disk, and that
    /// the build only lists (so never reads).
    Missing(String),
    /// A note of git's diff (`--diff`).
    DiffNote(String),
    /// The task file (as typed) holds no task: the build has none.
    EmptyTaskFile(PathBuf),
}

/// Why an ask could not become a request.
#[derive(Debug, Error)]
pub enum AskError {
    /// No preset has the name asked for.
    #[error(transparent)]
    Preset(#[from] ProjectError),
    /// git failed for `--changed` (`diff: false`) or `--diff`.
    #[error("{error}")]
    Git { diff: bool, error: GitError },
    /// The task file could not be read.
    #[error("cannot read the task file {}: {source}", path.display())]
    TaskFile {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A target that is no file of the project.
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// Why a path typed as a target is no target.
#[derive(Debug, Error)]
pub enum TargetError {
    #[error("{} is outside the project root {}", arg.display(), root.display())]
    Outside { arg: PathBuf, root: PathBuf },
    #[error("{} is the project root {}, not a file in it", arg.display(), root.display())]
    Root { arg: PathBuf, root: PathBuf },
    /// Root-relative.
    #[error("{0} is a folder: targets are files")]
    Folder(String),
    /// Root-relative.
    #[error("target not found: {0}")]
    NotFound(String),
}

/// An ask that stopped: what was said until then, and why.
#[derive(Debug)]
pub struct AskRefused {
    pub said: Vec<Said>,
    pub why: AskError,
}

/// An ask made into its request.
#[derive(Debug)]
pub struct Asked {
    pub req: BuildRequest,
    pub said: Vec<Said>,
}

/// One command's build: what resolving said, and the build's outcome.
#[derive(Debug)]
pub struct Answered {
    pub said: Vec<Said>,
    pub outcome: Result<Built, Box<Refused>>,
}

/// `ask` resolved on `project` and built on the project's run cache;
/// `watch` gets the sources' progress for the build's length (what it
/// returns is dropped when the build ends: a progress line's guard).
pub fn build_asked<G>(
    project: &Project,
    ask: BuildAsk,
    watch: impl FnOnce(Arc<Progress>) -> G,
) -> Result<Answered, Box<AskRefused>> {
    let Asked { req, said } = resolve(project, ask)?;
    let sources = project.run_cache();
    let mut workspace = Workspace::open(project, &sources);
    let shown = watch(sources.progress());
    let outcome = workspace.build(req);
    drop(shown);
    Ok(Answered { said, outcome })
}

/// `ask` as a request on `project`: the preset chosen (with the consent for
/// its entries), the changed files on top, the task, the diff, the targets
/// as root-relative files, the flags' overrides.
pub fn resolve(project: &Project, ask: BuildAsk) -> Result<Asked, Box<AskRefused>> {
    let mut said = Vec::new();
    match resolve_saying(project, ask, &mut said) {
        Ok(req) => Ok(Asked { req, said }),
        Err(why) => Err(Box::new(AskRefused { said, why })),
    }
}

fn resolve_saying(
    project: &Project,
    ask: BuildAsk,
    said: &mut Vec<Said>,
) -> Result<BuildRequest, AskError> {
    let name = ask
        .preset
        .clone()
        .unwrap_or_else(|| project.active_preset_name().to_string());
    let (mut preset, consent) = preset_named(project, ask.preset.as_deref())?;
    preset.exclude.extend(ask.exclude.iter().cloned());
    if let Some(rev) = &ask.changed {
        on_top(project, &mut preset, rev, said)?;
    }
    if let Some(task) = &ask.task {
        preset.task = task_text(&ask.cwd, task)?;
        if let TaskText::File(file) = task
            && preset.task.trim().is_empty()
        {
            said.push(Said::EmptyTaskFile(file.clone()));
        }
    }
    if preset.files.is_empty()
        && ask.targets.is_empty()
        && ask.focus.is_empty()
        && preset.task.trim().is_empty()
    {
        said.push(Said::Empty { preset: name });
    }
    // A missing entry the build renders gets its warning with the other
    // files'; one listed by name only is never read. Each path's first
    // entry decides, looked up once (80,000 entries looked up one by one
    // took ten seconds).
    let mut first_entry: HashMap<&str, bool> = HashMap::new();
    for item in &preset.files {
        first_entry
            .entry(item.path.as_str())
            .or_insert(item.auto_aggregate);
    }
    for missing in project.missing_files(&preset) {
        if first_entry.get(missing.as_str()) == Some(&false) {
            said.push(Said::Missing(missing));
        }
    }
    let mut req = BuildRequest::new(preset, &project.settings);
    let opts = &mut req.compose;
    opts.consent = consent;
    if let Some(s) = ask.strategy {
        opts.strategy = s;
    }
    if let Some(f) = ask.format {
        opts.format = f;
    }
    opts.focus = ask.focus;
    if let Some(tree) = ask.tree {
        opts.sections.tree = tree;
    }
    if let Some(rev) = &ask.diff {
        let sources = Sources::new();
        let notes = diff_onto(&mut Workspace::open(project, &sources), &mut req, rev)
            .map_err(|error| AskError::Git { diff: true, error })?;
        said.extend(notes.into_iter().map(Said::DiffNote));
    }
    req.map.tokenizer = ask.tokenizer.unwrap_or(project.settings.tokenizer);
    for t in &ask.targets {
        let rel = target(project, &ask.cwd, t)?;
        if !req.targets.contains(&rel) {
            req.targets.push(rel);
        }
    }
    req.budget = ask.budget;
    req.map_budget = ask.map_budget;
    req.allow_partial = ask.allow_partial;
    req.allow_secrets = ask.allow_secrets;
    req.destination = ask.destination;
    Ok(req)
}

/// `--diff REV` (the server's `diff`): git's changes against `rev` on
/// `req` as its `## Changes`, the preset's exclusions holding, fetched in
/// `ws` (whose walk the build can then reuse); git's notes on them come
/// back.
pub fn diff_onto(
    ws: &mut Workspace,
    req: &mut BuildRequest,
    rev: &str,
) -> Result<Vec<String>, GitError> {
    let changes = ws.diff(rev, &req.preset.exclude)?;
    let notes = changes.notes.clone();
    req.changes = Some(changes);
    Ok(notes)
}

/// The preset named, or the active one (a missing active preset is simply
/// empty: a fresh project), with the consent for its explicit entries.
pub fn preset_named(
    project: &Project,
    name: Option<&str>,
) -> Result<(Preset, EntryConsent), ProjectError> {
    let consent = project.entry_consent(name.unwrap_or(project.active_preset_name()));
    let preset = match name {
        None => project.active_preset(),
        Some(name) => match project.preset(name) {
            Some((p, _)) => p.clone(),
            None => return Err(project.no_such_preset(name)),
        },
    };
    Ok((preset, consent))
}

/// A typed target (relative to `cwd`, or absolute) as a root-relative path
/// to a file of the project.
pub fn target(project: &Project, cwd: &Path, arg: &Path) -> Result<String, TargetError> {
    let root = &project.root;
    let abs = if arg.is_absolute() {
        arg.to_path_buf()
    } else {
        cwd.join(arg)
    };
    let rel = match paths::normalize_rel(root, &abs) {
        None => {
            return Err(TargetError::Outside {
                arg: arg.to_path_buf(),
                root: root.clone(),
            });
        }
        Some(rel) if rel.is_empty() => {
            return Err(TargetError::Root {
                arg: arg.to_path_buf(),
                root: root.clone(),
            });
        }
        Some(rel) => rel,
    };
    let path = root.join(&rel);
    if path.is_dir() {
        return Err(TargetError::Folder(rel));
    }
    if !path.is_file() {
        return Err(TargetError::NotFound(rel));
    }
    Ok(rel)
}

/// The task's text: as given, or read from its file.
fn task_text(cwd: &Path, task: &TaskText) -> Result<String, AskError> {
    match task {
        TaskText::Text(text) => Ok(text.clone()),
        TaskText::File(file) => {
            let path = cwd.join(file);
            std::fs::read_to_string(&path).map_err(|source| AskError::TaskFile { path, source })
        }
    }
}

/// `--changed REV`: the changed files the preset does not already show,
/// added in full (for this build only).
fn on_top(
    project: &Project,
    preset: &mut Preset,
    rev: &str,
    said: &mut Vec<Said>,
) -> Result<(), AskError> {
    let sources = Sources::new();
    let changed = Workspace::open(project, &sources)
        .changed_files(rev, &preset.exclude)
        .map_err(|error| AskError::Git { diff: false, error })?;
    said.extend(changed.notes().into_iter().map(Said::ChangedNote));
    let files = changed.paths;
    let walked = project.walk();
    let (resolved, _) = walk::expand_over(&preset.files, &preset.exclude, &walked);
    let shown: std::collections::HashSet<&str> = resolved.iter().map(|r| r.path.as_str()).collect();
    let new: Vec<String> = files
        .iter()
        .filter(|p| !shown.contains(p.as_str()))
        .cloned()
        .collect();
    said.push(Said::ChangedOnTop {
        files: files.len(),
        rev: rev.to_string(),
        added: new.len(),
    });
    preset.files.extend(new.into_iter().map(FileItem::new));
    Ok(())
}
