//! The tools' arguments as the client sends them: each struct is one
//! tool's JSON schema (derived, so the schema and the parser cannot drift
//! apart) and refuses fields it does not know, so a typo is a tool error
//! rather than an argument silently ignored.

use schemars::JsonSchema;
use serde::Deserialize;

/// No arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// One file or glob of an ad-hoc request.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileArg {
    /// A path or glob relative to the project root, e.g. `src/app.py` or `src/**/*.py`.
    pub path: String,
    /// How much of the file the model sees: full, summary, skeleton, outline, masked, custom or none (default: full).
    #[serde(default)]
    pub mode: Option<String>,
}

/// `build`: a preset, or an ad-hoc list of files, composed (or packed when
/// targets or a budget are given).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildArgs {
    /// The preset to build (default: the active one); ignored when `files` is given.
    #[serde(default)]
    pub preset: Option<String>,
    /// Build these files or globs instead of a preset (an ad-hoc request).
    #[serde(default)]
    pub files: Option<Vec<FileArg>>,
    /// Target files (root-relative): the build packs around them, adding what they import.
    #[serde(default)]
    pub targets: Vec<String>,
    /// Token budget; giving one packs the context to fit it.
    #[serde(default)]
    pub budget: Option<usize>,
    /// The task for the model, rendered last; with no files in the preset (or a model window
    /// set) it packs: every project file is ranked for it and the best fill the budget.
    #[serde(default)]
    pub task: Option<String>,
    /// Output format: markdown or xml (default: the project's).
    #[serde(default)]
    pub format: Option<String>,
    /// The file tree section: included, all or none (default: the project's).
    #[serde(default)]
    pub tree: Option<String>,
    /// Add a `## Changes` section with git's diff against this ref (e.g. HEAD).
    #[serde(default)]
    pub diff: Option<String>,
    /// Build without the targets or diffs that do not fit the budget rather than refuse.
    #[serde(default)]
    pub allow_partial: bool,
}

/// `pack`: targets and/or a task packed into a budget.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PackArgs {
    /// The preset whose files, exclusions and targets the pack starts from (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
    /// Target files (root-relative) to pack around.
    #[serde(default)]
    pub targets: Vec<String>,
    /// The task for the model: every project file is ranked for it (its words, the paths and
    /// identifiers it names, the import graph) and the best fill the budget, each with its
    /// reasons in the report.
    #[serde(default)]
    pub task: Option<String>,
    /// Token budget (default: what the model window leaves, else the project's budget).
    #[serde(default)]
    pub budget: Option<usize>,
    /// Output format: markdown or xml (default: the project's).
    #[serde(default)]
    pub format: Option<String>,
    /// Build without the targets that do not fit rather than refuse.
    #[serde(default)]
    pub allow_partial: bool,
}

/// `symbols`: one file's symbol tree.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolsArgs {
    /// A Python, C or C++ file, relative to the project root.
    pub path: String,
}

/// `view`: one file rendered in a view mode.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewArgs {
    /// The file, relative to the project root.
    pub path: String,
    /// full, summary, skeleton, outline, masked, custom or none (default: the file's mode in the preset, else full).
    #[serde(default)]
    pub mode: Option<String>,
    /// The preset whose entry for the file (masks, slices) applies (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `token_map`: where a preset's tokens go.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenMapArgs {
    /// The preset to count (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `changed`: the files git sees changed.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangedArgs {
    /// Compare against this ref (default: HEAD, i.e. the working tree and index).
    #[serde(default)]
    pub against: Option<String>,
    /// Leave out the files this preset excludes (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `more`: the next part of a long result.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoreArgs {
    /// The cursor a previous result returned.
    pub cursor: String,
}

/// `include`: files, folders or globs into a preset (`--allow-edits`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IncludeArgs {
    /// Files, folders or globs relative to the project root.
    pub paths: Vec<String>,
    /// The view mode of the new entries: full, summary, skeleton, outline, masked, custom or none.
    #[serde(default)]
    pub mode: Option<String>,
    /// The preset to change (default: the active one; a new name creates it).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `exclude`: files, folders or globs out of a preset (`--allow-edits`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExcludeArgs {
    /// Files, folders or globs relative to the project root.
    pub paths: Vec<String>,
    /// The preset to change (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `set_mode`: how one file of a preset renders (`--allow-edits`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetModeArgs {
    /// The file, relative to the project root.
    pub path: String,
    /// full, summary, skeleton, outline, masked, custom or none.
    pub mode: String,
    /// The preset to change (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `mask`: how one symbol of a file renders (`--allow-edits`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MaskArgs {
    /// The file, relative to the project root.
    pub path: String,
    /// The symbol's path as `symbols` lists it, e.g. `App.run`.
    pub symbol: String,
    /// def (whole definition), sig (signature and docstring), agg (signature and a one-line summary) or hide.
    pub state: String,
    /// The preset to change (default: the active one).
    #[serde(default)]
    pub preset: Option<String>,
}

/// `save_preset`: the active preset copied under a new name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavePresetArgs {
    /// The new preset's name; it becomes the active preset.
    pub name: String,
}
