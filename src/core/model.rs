//! The data model of a curation: view modes, mask states, slices, file
//! items, presets and the project settings, exactly as they are stored in
//! `ctxcurate.toml` (see docs/ARCHITECTURE.md, "core::model").
//!
//! Every struct keeps the keys it does not know in an `extra` table, so a
//! file written by a newer version (or edited by hand) survives a
//! load → save round trip. Settings in `[project]` are all optional here;
//! [`Settings`] is the resolved view after embedded defaults, the global
//! config and the project file are layered.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Unknown keys of a table, kept for round-tripping.
pub type Extra = toml::Table;

/// Declares a string-like enum with serde names, `Display`, `FromStr`, a
/// list of all variants and cyclic `next`/`prev`. One place names each
/// variant, so the CLI, the TOML and the TUI can never disagree.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// Every variant, in cycling order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used in TOML, on the command line and in the UI.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// The next variant, wrapping around.
            pub fn next(self) -> Self {
                let i = Self::ALL.iter().position(|v| *v == self).unwrap_or(0);
                Self::ALL[(i + 1) % Self::ALL.len()]
            }

            /// The previous variant, wrapping around.
            pub fn prev(self) -> Self {
                let i = Self::ALL.iter().position(|v| *v == self).unwrap_or(0);
                Self::ALL[(i + Self::ALL.len() - 1) % Self::ALL.len()]
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => {
                        let names: Vec<&str> = Self::ALL.iter().map(|v| v.as_str()).collect();
                        Err(format!("unknown {} `{}` (expected one of: {})",
                            stringify!($name), s, names.join(", ")))
                    }
                }
            }
        }
    };
}

named_enum! {
    /// How much of a file the model sees (see `core::views`).
    ViewMode {
        Full => "full",
        Summary => "summary",
        Skeleton => "skeleton",
        Outline => "outline",
        Masked => "masked",
        Custom => "custom",
        None => "none",
    }
}

named_enum! {
    /// How one symbol is rendered in the `masked` view.
    MaskState {
        /// The whole definition.
        Def => "def",
        /// Signature plus docstring / leading comment.
        Sig => "sig",
        /// Signature plus a one-line summary.
        Agg => "agg",
        /// Absent.
        Hide => "hide",
    }
}

named_enum! {
    /// How the files section is rendered as a whole (see `core::compose`).
    Strategy {
        Auto => "auto",
        Summarize => "summarize",
        Full => "full",
    }
}

named_enum! {
    /// The output format of a composition.
    Format {
        Markdown => "markdown",
        Xml => "xml",
    }
}

named_enum! {
    /// Which tokenizer counts tokens.
    TokenizerKind {
        O200k => "o200k",
        Cl100k => "cl100k",
        /// characters / 4, rounded up.
        Estimate => "estimate",
    }
}

// `named_enum!` derives no `Default` (most of its enums have none), so the
// default variant is named by hand.
#[allow(clippy::derivable_impls)]
impl Default for ViewMode {
    fn default() -> Self {
        ViewMode::Full
    }
}

#[allow(clippy::derivable_impls)]
impl Default for MaskState {
    /// Masking is subtractive: a symbol nobody named shows in full.
    fn default() -> Self {
        MaskState::Def
    }
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

fn is_true(v: &bool) -> bool {
    *v
}

fn yes() -> bool {
    true
}

/// A line range of a file that the user picked by hand, with what is needed
/// to find it again after the file changed (see `core::anchor`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Slice {
    /// 1-based, inclusive.
    pub start_line: usize,
    /// 1-based, inclusive.
    pub end_line: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// SHA-256 (hex) of the slice's text when it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anchor_before: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub anchor_after: Vec<String>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// One entry of a preset: a path (or glob) and how to render it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileItem {
    /// Relative to the project root, `/`-separated; may be a glob.
    pub path: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub view_mode: ViewMode,
    /// Overrides `view_mode` with `full`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub force_full: bool,
    /// `false`: listed but not rendered.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub auto_aggregate: bool,
    /// The state of symbols not named in `ast_mask`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub mask_default: MaskState,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub ast_mask: BTreeMap<String, MaskState>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom_slices: Vec<Slice>,
    #[serde(flatten)]
    pub extra: Extra,
}

impl FileItem {
    /// A new entry for `path` in `full` mode with every other field default.
    pub fn new(path: impl Into<String>) -> Self {
        FileItem {
            path: path.into(),
            view_mode: ViewMode::Full,
            force_full: false,
            auto_aggregate: true,
            mask_default: MaskState::default(),
            ast_mask: BTreeMap::new(),
            custom_slices: Vec::new(),
            extra: Extra::new(),
        }
    }

    /// The mode that actually renders: `force_full` wins over everything.
    pub fn effective_mode(&self) -> ViewMode {
        if self.force_full {
            ViewMode::Full
        } else {
            self.view_mode
        }
    }
}

/// A preset's file entry as written: either a bare path string or a table.
///
/// Deserialized by hand rather than with `#[serde(untagged)]`: an untagged
/// enum buffers the entry and replaces every error inside it with "did not
/// match any variant", losing the key and the line of, say, a bad
/// `view_mode`. Dispatching on the value's type keeps the inner error.
enum FileEntry {
    Path(String),
    Item(FileItem),
}

impl<'de> Deserialize<'de> for FileEntry {
    fn deserialize<D>(de: D) -> Result<Self, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        struct EntryVisitor;

        impl<'de> serde::de::Visitor<'de> for EntryVisitor {
            type Value = FileEntry;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a path string or a table with a `path` key")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<FileEntry, E> {
                Ok(FileEntry::Path(s.to_owned()))
            }

            fn visit_map<A>(self, map: A) -> Result<FileEntry, A::Error>
            where
                A: serde::de::MapAccess<'de>,
            {
                let de = serde::de::value::MapAccessDeserializer::new(map);
                FileItem::deserialize(de).map(FileEntry::Item)
            }
        }

        de.deserialize_any(EntryVisitor)
    }
}

fn deserialize_files<'de, D>(de: D) -> Result<Vec<FileItem>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let entries = Vec::<FileEntry>::deserialize(de)?;
    Ok(entries
        .into_iter()
        .map(|e| match e {
            FileEntry::Path(p) => FileItem::new(p),
            FileEntry::Item(i) => i,
        })
        .collect())
}

/// One message of the discussion history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiscussionEntry {
    pub role: String,
    #[serde(default)]
    pub content: String,
    #[serde(flatten)]
    pub extra: Extra,
}

impl DiscussionEntry {
    /// The role that marks a compaction point: it replaces everything
    /// before it in the rendered history.
    pub const COMPACTION: &'static str = "Compaction";
}

/// A named, saved composition.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Preset {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub screenshots: Vec<String>,
    #[serde(
        default,
        deserialize_with = "deserialize_files",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub files: Vec<FileItem>,
    /// Paths or globs that glob entries must not pull in (explicitly named
    /// files are never excluded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Files the user is working on: discovery and packing start from
    /// them (see `core::pack`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discussion: Vec<DiscussionEntry>,
    /// What the model is asked to do: rendered verbatim as `## Task` after
    /// the discussion, counted first when packing, never dropped; the
    /// identifiers and paths it names steer discovery.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub task: String,
    #[serde(flatten)]
    pub extra: Extra,
}

impl Preset {
    /// The entry for exactly `path`, if the preset lists it.
    pub fn item(&self, path: &str) -> Option<&FileItem> {
        self.files.iter().find(|f| f.path == path)
    }

    /// The entry for exactly `path`, if the preset lists it.
    pub fn item_mut(&mut self, path: &str) -> Option<&mut FileItem> {
        self.files.iter_mut().find(|f| f.path == path)
    }
}

/// The `[project]` table as written in a file: every key optional, so a
/// layer names only what it overrides.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SettingsLayer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_dir: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<TokenizerKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<usize>,
    /// The model's context window in tokens (0: think in `budget`): when
    /// set, a pack's budget is the window minus `output_reserve` minus
    /// the task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_window: Option<usize>,
    /// Tokens of the window kept for the model's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_reserve: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Format>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_preset: Option<String>,
    /// Only the newest N discussion messages are rendered (0: all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_messages: Option<usize>,
    /// Extra directories searched for `#include "…"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_dirs: Option<Vec<String>>,
    /// Where the TUI's yank goes: auto | system | osc52 | off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clipboard: Option<String>,
    /// Tokens of the repo map (`ctxcurate map`, and at least this much of
    /// a packed build).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repo_map_budget: Option<usize>,
    /// An external summarizer: the file on stdin, the summary on stdout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_command: Option<CommandLine>,
    /// Seconds the external summarizer may take per file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_timeout: Option<u64>,
    /// Files larger than this many bytes are not read (a note is shown
    /// instead) unless their entry has `force_full = true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_file_size: Option<u64>,
    /// Read entries that resolve outside the project root. Honoured only
    /// from the global config or a trusted project file (`core::trust`): a
    /// cloned repository cannot turn it on by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_outside_root: Option<bool>,
    #[serde(flatten)]
    pub extra: Extra,
}

/// A command as written in the config: a shell line (`"llm -s 'Summarize'"`,
/// run by `sh -c`) or an argument vector (`["llm", "-s", "Summarize"]`).
/// An empty line or vector means no command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CommandLine {
    Shell(String),
    Argv(Vec<String>),
}

impl CommandLine {
    /// The program and its arguments, or `None` when empty.
    pub fn argv(&self) -> Option<Vec<String>> {
        match self {
            CommandLine::Shell(line) if line.trim().is_empty() => None,
            CommandLine::Shell(line) => Some(vec!["sh".into(), "-c".into(), line.clone()]),
            CommandLine::Argv(v) if v.is_empty() || v[0].is_empty() => None,
            CommandLine::Argv(v) => Some(v.clone()),
        }
    }
}

impl SettingsLayer {
    /// `self` with every key it lacks taken from `under`.
    pub fn over(&self, under: &SettingsLayer) -> SettingsLayer {
        SettingsLayer {
            namespace: self.namespace.clone().or_else(|| under.namespace.clone()),
            output_dir: self.output_dir.clone().or_else(|| under.output_dir.clone()),
            strategy: self.strategy.or(under.strategy),
            summary_only: self.summary_only.or(under.summary_only),
            tokenizer: self.tokenizer.or(under.tokenizer),
            budget: self.budget.or(under.budget),
            model_window: self.model_window.or(under.model_window),
            output_reserve: self.output_reserve.or(under.output_reserve),
            format: self.format.or(under.format),
            active_preset: self
                .active_preset
                .clone()
                .or_else(|| under.active_preset.clone()),
            max_messages: self.max_messages.or(under.max_messages),
            include_dirs: self
                .include_dirs
                .clone()
                .or_else(|| under.include_dirs.clone()),
            clipboard: self.clipboard.clone().or_else(|| under.clipboard.clone()),
            repo_map_budget: self.repo_map_budget.or(under.repo_map_budget),
            summary_command: self
                .summary_command
                .clone()
                .or_else(|| under.summary_command.clone()),
            summary_timeout: self.summary_timeout.or(under.summary_timeout),
            max_file_size: self.max_file_size.or(under.max_file_size),
            allow_outside_root: self.allow_outside_root.or(under.allow_outside_root),
            extra: self.extra.clone(),
        }
    }
}

/// The resolved settings every core call reads.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub namespace: String,
    pub output_dir: String,
    pub strategy: Strategy,
    pub summary_only: bool,
    pub tokenizer: TokenizerKind,
    pub budget: usize,
    /// See [`SettingsLayer::model_window`].
    pub model_window: usize,
    pub output_reserve: usize,
    pub format: Format,
    pub active_preset: String,
    pub max_messages: usize,
    pub include_dirs: Vec<String>,
    pub clipboard: String,
    pub repo_map_budget: usize,
    pub summary_command: CommandLine,
    pub summary_timeout: u64,
    /// Byte cap on reading a file (`force_full` entries may exceed it).
    pub max_file_size: u64,
    /// Whether entries outside the project root may be read (global config
    /// or a trusted project file; see `core::trust`).
    pub allow_outside_root: bool,
    /// Whether the output file may be written outside the project root.
    /// Not a key of any file: `core::trust` sets it when `output_dir` /
    /// `namespace` leave the root and come from the global config or a
    /// trusted project file. `false` everywhere else.
    pub output_outside_root: bool,
}

/// The built-in defaults, `config/config.toml`, compiled in. Its
/// `[project]` table names every setting; it is the one source of defaults.
pub const DEFAULT_CONFIG: &str = include_str!("../../config/config.toml");

impl Settings {
    /// Settings from a layer that must name every key (the embedded
    /// defaults); the first missing key is the error.
    fn complete(layer: SettingsLayer) -> Result<Settings, &'static str> {
        Ok(Settings {
            namespace: layer.namespace.ok_or("namespace")?,
            output_dir: layer.output_dir.ok_or("output_dir")?,
            strategy: layer.strategy.ok_or("strategy")?,
            summary_only: layer.summary_only.ok_or("summary_only")?,
            tokenizer: layer.tokenizer.ok_or("tokenizer")?,
            budget: layer.budget.ok_or("budget")?,
            model_window: layer.model_window.ok_or("model_window")?,
            output_reserve: layer.output_reserve.ok_or("output_reserve")?,
            format: layer.format.ok_or("format")?,
            active_preset: layer.active_preset.ok_or("active_preset")?,
            max_messages: layer.max_messages.ok_or("max_messages")?,
            include_dirs: layer.include_dirs.ok_or("include_dirs")?,
            clipboard: layer.clipboard.ok_or("clipboard")?,
            repo_map_budget: layer.repo_map_budget.ok_or("repo_map_budget")?,
            summary_command: layer.summary_command.ok_or("summary_command")?,
            summary_timeout: layer.summary_timeout.ok_or("summary_timeout")?,
            max_file_size: layer.max_file_size.ok_or("max_file_size")?,
            allow_outside_root: layer.allow_outside_root.ok_or("allow_outside_root")?,
            output_outside_root: false,
        })
    }
}

impl Default for Settings {
    /// The `[project]` table of [`DEFAULT_CONFIG`], parsed once.
    fn default() -> Self {
        static DEFAULTS: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
        DEFAULTS
            .get_or_init(|| {
                // Embedded, not user data: the `embedded_defaults_name_every_key`
                // test proves it parses and is complete.
                let file: ProjectFile =
                    toml::from_str(DEFAULT_CONFIG).expect("embedded config.toml parses");
                Settings::complete(file.project)
                    .unwrap_or_else(|key| panic!("embedded config.toml lacks `{key}`"))
            })
            .clone()
    }
}

impl Settings {
    /// Fill every key a layer leaves out from the built-in defaults.
    pub fn resolve(layer: &SettingsLayer) -> Settings {
        let d = Settings::default();
        Settings {
            namespace: layer.namespace.clone().unwrap_or(d.namespace),
            output_dir: layer.output_dir.clone().unwrap_or(d.output_dir),
            strategy: layer.strategy.unwrap_or(d.strategy),
            summary_only: layer.summary_only.unwrap_or(d.summary_only),
            tokenizer: layer.tokenizer.unwrap_or(d.tokenizer),
            budget: layer.budget.unwrap_or(d.budget),
            model_window: layer.model_window.unwrap_or(d.model_window),
            output_reserve: layer.output_reserve.unwrap_or(d.output_reserve),
            format: layer.format.unwrap_or(d.format),
            active_preset: layer.active_preset.clone().unwrap_or(d.active_preset),
            max_messages: layer.max_messages.unwrap_or(d.max_messages),
            include_dirs: layer.include_dirs.clone().unwrap_or(d.include_dirs),
            clipboard: layer.clipboard.clone().unwrap_or(d.clipboard),
            repo_map_budget: layer.repo_map_budget.unwrap_or(d.repo_map_budget),
            summary_command: layer.summary_command.clone().unwrap_or(d.summary_command),
            summary_timeout: layer.summary_timeout.unwrap_or(d.summary_timeout),
            max_file_size: layer.max_file_size.unwrap_or(d.max_file_size),
            allow_outside_root: layer.allow_outside_root.unwrap_or(d.allow_outside_root),
            output_outside_root: false,
        }
    }
}

/// A whole `ctxcurate.toml` (or the global `config.toml`), as stored.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ProjectFile {
    #[serde(default)]
    pub project: SettingsLayer,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub presets: BTreeMap<String, Preset>,
    /// `[syntax]`: parsing options (see [`SyntaxConfig`]).
    #[serde(default, skip_serializing_if = "SyntaxConfig::is_empty")]
    pub syntax: SyntaxConfig,
    #[serde(flatten)]
    pub extra: Extra,
}

/// The `[syntax]` table of `ctxcurate.toml` or the global config.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SyntaxConfig {
    /// Extra C/C++ macros the parser blanks, in the format of
    /// `src/core/syntax/queries/ignored_macros.txt` (`MY_API`,
    /// `MY_ATTR()`, `unwrap MY_PROTO`, `spread MY_EXPORT`). The global
    /// and the project lists add up.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub c_macros: Vec<String>,
}

impl SyntaxConfig {
    pub fn is_empty(&self) -> bool {
        self.c_macros.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_parse_and_cycle() {
        assert_eq!("skeleton".parse::<ViewMode>(), Ok(ViewMode::Skeleton));
        assert!("bogus".parse::<ViewMode>().unwrap_err().contains("full"));
        assert_eq!(ViewMode::None.next(), ViewMode::Full);
        assert_eq!(ViewMode::Full.prev(), ViewMode::None);
        assert_eq!(MaskState::Hide.to_string(), "hide");
    }

    #[test]
    fn embedded_defaults_name_every_key() {
        let file: ProjectFile = toml::from_str(DEFAULT_CONFIG).unwrap();
        assert!(file.project.extra.is_empty(), "{:?}", file.project.extra);
        assert!(file.presets.is_empty() && file.extra.is_empty());
        let settings = Settings::complete(file.project).unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(settings.namespace, "context");
        assert_eq!(settings.output_dir, ".ctxcurate/out");
        assert_eq!(settings.strategy, Strategy::Auto);
        assert!(!settings.summary_only);
        assert_eq!(settings.tokenizer, TokenizerKind::O200k);
        assert_eq!(settings.budget, 100_000);
        assert_eq!(settings.format, Format::Markdown);
        assert_eq!(settings.active_preset, "default");
        assert_eq!(settings.max_messages, 0);
        assert!(settings.include_dirs.is_empty());
        assert_eq!(settings.clipboard, "auto");
        assert_eq!(settings.summary_command.argv(), None);
        assert_eq!(settings.summary_timeout, 30);
        assert_eq!(settings.max_file_size, 1_048_576);
        assert!(!settings.allow_outside_root);
        // An empty layer resolves to exactly the embedded defaults.
        assert_eq!(Settings::resolve(&SettingsLayer::default()), settings);
    }

    #[test]
    fn summary_command_as_line_or_argv() {
        let f: ProjectFile =
            toml::from_str("[project]\nsummary_command = \"llm -s 'Sum up'\"\n").unwrap();
        let argv = f.project.summary_command.unwrap().argv().unwrap();
        assert_eq!(argv, ["sh", "-c", "llm -s 'Sum up'"]);
        let f: ProjectFile =
            toml::from_str("[project]\nsummary_command = [\"llm\", \"-s\", \"x\"]\n").unwrap();
        assert_eq!(
            f.project.summary_command.unwrap().argv().unwrap(),
            ["llm", "-s", "x"]
        );
        assert_eq!(CommandLine::Argv(vec![]).argv(), None);
    }

    #[test]
    fn a_bad_file_entry_keeps_its_own_error() {
        let src = "[presets.a]\nfiles = [\"a\", { path = \"y\", view_mode = \"bogus\" }]\n";
        let err = toml::from_str::<ProjectFile>(src).unwrap_err();
        assert!(err.message().contains("unknown variant `bogus`"), "{err}");
        let span = err.span().unwrap();
        assert_eq!(&src[span], "\"bogus\"");
        let err = toml::from_str::<ProjectFile>("[presets.a]\nfiles = [3]\n").unwrap_err();
        assert!(err.message().contains("a path string or a table"), "{err}");
    }

    #[test]
    fn bare_path_entries_become_items() {
        let f: ProjectFile = toml::from_str(
            r#"
            [presets.a]
            files = ["src/x.py", { path = "y.c", view_mode = "skeleton" }]
            "#,
        )
        .unwrap();
        let files = &f.presets["a"].files;
        assert_eq!(files[0], FileItem::new("src/x.py"));
        assert_eq!(files[1].view_mode, ViewMode::Skeleton);
    }

    #[test]
    fn unknown_keys_round_trip() {
        let src = r#"
[project]
budget = 5000
future_setting = "x"

[presets.default]
color = "blue"

[[presets.default.files]]
path = "a.py"
view_mode = "masked"
mask_default = "hide"
pinned = true
ast_mask = { "A.run" = "def" }

[[presets.default.files.custom_slices]]
start_line = 3
end_line = 4
weight = 2
"#;
        let f: ProjectFile = toml::from_str(src).unwrap();
        assert_eq!(f.project.extra["future_setting"].as_str(), Some("x"));
        let again: ProjectFile = toml::from_str(&toml::to_string(&f).unwrap()).unwrap();
        assert_eq!(f, again);
        let item = &again.presets["default"].files[0];
        assert_eq!(item.extra["pinned"].as_bool(), Some(true));
        assert_eq!(item.custom_slices[0].extra["weight"].as_integer(), Some(2));
        assert_eq!(item.ast_mask["A.run"], MaskState::Def);
    }
}
