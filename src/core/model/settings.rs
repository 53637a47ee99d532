//! Settings: the `[project]` table of each file (a [`SettingsLayer`]:
//! only the keys that file names, as written), the named values they
//! hold, and the resolved [`Settings`] every core call reads.
//!
//! Resolution merges TOML tables and deserializes once, as helix merges
//! its config: the `[project]` table of the embedded `config/config.toml`
//! (which names every key) ← the global config ← the project file (whose
//! guarded keys `core::trust` strips until the user trusts the project).
//! Adding a setting is adding one field to [`Settings`] and its default to
//! `config/config.toml`; nothing else names the keys.
//!
//! A layer is checked when its file is loaded ([`SettingsLayer::check`]):
//! a value of the wrong type or name is an error naming the key, which the
//! loader (`core::project`) turns into `file:line:col`. A key no setting
//! has is kept (and reported), never an error.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::ProjectFile;

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
    /// Which directory tree goes before the files (see `compose::tree`).
    TreeMode {
        /// The files of the context.
        Included => "included",
        /// Every file of the project (the walk).
        All => "all",
        /// No tree.
        None => "none",
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

named_enum! {
    /// The `clipboard` setting: where the TUI's yank goes (see
    /// `tui::clipboard`).
    ClipboardMode {
        /// OSC 52 over SSH or without a display, else system then OSC 52.
        Auto => "auto",
        /// The system clipboard only; its errors are reported.
        System => "system",
        /// Always the terminal's clipboard via OSC 52.
        Osc52 => "osc52",
        /// Copy nothing.
        Off => "off",
    }
}

#[allow(clippy::derivable_impls)]
impl Default for ClipboardMode {
    fn default() -> Self {
        ClipboardMode::Auto
    }
}

/// A command as written in the config: a shell line (`"llm -s 'Summarize'"`,
/// run by `sh -c`) or an argument vector (`["llm", "-s", "Summarize"]`).
/// An empty line or vector means no command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum CommandLine {
    Shell(String),
    Argv(Vec<String>),
}

// By hand rather than `untagged`: a value of neither shape is then
// "invalid type: integer `3`, expected a command line ...", not serde's
// "did not match any variant of untagged enum".
impl<'de> Deserialize<'de> for CommandLine {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Shape;

        impl<'de> serde::de::Visitor<'de> for Shape {
            type Value = CommandLine;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a command line string or an array of strings")
            }

            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<CommandLine, E> {
                Ok(CommandLine::Shell(s.to_owned()))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CommandLine, A::Error> {
                let mut argv = Vec::new();
                while let Some(arg) = seq.next_element::<String>()? {
                    argv.push(arg);
                }
                Ok(CommandLine::Argv(argv))
            }
        }

        de.deserialize_any(Shape)
    }
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

/// The resolved settings every core call reads: the merged `[project]`
/// tables, deserialized once. Each field is a key of `[project]`, with its
/// default (and its documentation for users) in `config/config.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Output files are `{output_dir}/{namespace}_{NNN}.md`.
    pub namespace: String,
    pub output_dir: String,
    pub strategy: Strategy,
    /// Read by strategy `auto`: render every file as a summary.
    pub summary_only: bool,
    pub tokenizer: TokenizerKind,
    pub budget: usize,
    /// The model's context window in tokens (0: think in `budget`): when
    /// set, a pack's budget is the window minus `output_reserve` minus
    /// the task.
    pub model_window: usize,
    /// Tokens of the window kept for the model's answer.
    pub output_reserve: usize,
    pub format: Format,
    pub active_preset: String,
    /// Only the newest N discussion messages are rendered (0: all).
    pub max_messages: usize,
    /// Extra directories searched for `#include "…"`.
    pub include_dirs: Vec<String>,
    /// Where the TUI's yank goes.
    pub clipboard: ClipboardMode,
    /// Bytes of text one OSC 52 copy may carry, by terminal name
    /// (`kitty`, `tabby`, `termux`, `other`), over the built-in limits
    /// (`tui::clipboard::limits`).
    pub osc52_limits: std::collections::BTreeMap<String, usize>,
    /// The TUI captures the mouse: a click focuses a pane and picks a
    /// row, the wheel scrolls (off: the terminal selects text as usual).
    pub mouse: bool,
    /// Tokens of the repo map (`ctxcurate map`, and at least this much of
    /// a packed build).
    pub repo_map_budget: usize,
    /// An external summarizer: the file on stdin, the summary on stdout.
    pub summary_command: CommandLine,
    /// Seconds the external summarizer may take per file.
    pub summary_timeout: u64,
    /// Byte cap on reading a file (`force_full` entries may exceed it).
    pub max_file_size: u64,
    /// MiB one process keeps in memory (`core::cache`'s LRU bound).
    pub memory_cache: usize,
    /// Whether entries outside the project root may be read (global config
    /// or a trusted project file; see `core::trust`).
    pub allow_outside_root: bool,
    /// More paths every walk skips (gitignore syntax, from the root), on
    /// top of the built-in ignores and `.ctxcurateignore`.
    pub ignore: Vec<IgnorePattern>,
    /// Paths every walk keeps although a built-in ignore or `ignore`
    /// skips them (gitignore syntax, from the root).
    pub unignore: Vec<IgnorePattern>,
    /// The directory tree before the files.
    pub tree: TreeMode,
    /// Whether the output file may be written outside the project root.
    /// Not a key of any file: `core::trust` sets it when `output_dir` /
    /// `namespace` leave the root and come from the global config or a
    /// trusted project file. `false` everywhere else.
    #[serde(skip)]
    pub output_outside_root: bool,
    /// Not a key of any file: `core::trust` sets it when the
    /// `summary_command` in force is the project file's (trusted), whose
    /// scripts are named relative to the root; the user's own global
    /// command runs from a neutral folder instead (`core::summary`).
    #[serde(skip)]
    pub summary_command_from_project: bool,
}

/// The longest pattern taken, in bytes.
const LONG_PATTERN: usize = 4096;

/// One line of gitignore syntax (`[project] ignore`/`unignore`), checked
/// when the settings are loaded, so a malformed pattern is an error that
/// names its file and line rather than a pattern that silently matches
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct IgnorePattern(String);

impl IgnorePattern {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for IgnorePattern {
    type Error = String;
    fn try_from(line: String) -> Result<Self, String> {
        // As a preset's globs, at most 4 KiB: a longer one could compile
        // past the matcher's bound, and compiling each to check it took
        // 8 ms for a long one (1,000 of them: 8 s to load a repository's
        // file, recheck 16b) and 100 µs for a short one (100,000: 10 s).
        // `add_line` parses the glob, where a malformed one fails.
        if line.len() > LONG_PATTERN {
            let shown: String = line.chars().take(80).collect();
            return Err(format!(
                "bad pattern `{shown}…`: a pattern may be at most {LONG_PATTERN} bytes"
            ));
        }
        let mut probe = ignore::gitignore::GitignoreBuilder::new("/");
        match probe.add_line(None, &line) {
            Ok(_) => Ok(IgnorePattern(line)),
            Err(e) => Err(format!("bad pattern `{line}`: {e}")),
        }
    }
}

impl From<IgnorePattern> for String {
    fn from(p: IgnorePattern) -> String {
        p.0
    }
}

/// The built-in defaults, `config/config.toml`, compiled in. Its
/// `[project]` table names every setting; it is the one source of defaults.
pub const DEFAULT_CONFIG: &str = include_str!("../../../config/config.toml");

/// The `[project]` table of [`DEFAULT_CONFIG`]: every key, parsed once.
fn default_table() -> &'static toml::Table {
    static TABLE: OnceLock<toml::Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Embedded, not user data: `embedded_defaults_name_every_key`
        // proves it parses and names every setting.
        let file: ProjectFile =
            toml::from_str(DEFAULT_CONFIG).expect("embedded config.toml parses");
        file.project.0
    })
}

impl Default for Settings {
    /// The `[project]` table of [`DEFAULT_CONFIG`], deserialized once.
    fn default() -> Self {
        static DEFAULTS: OnceLock<Settings> = OnceLock::new();
        DEFAULTS
            .get_or_init(|| {
                Settings::from_table(default_table().clone())
                    .unwrap_or_else(|e| panic!("embedded config.toml: {}", e.message()))
            })
            .clone()
    }
}

impl Settings {
    fn from_table(table: toml::Table) -> Result<Settings, toml::de::Error> {
        table.try_into()
    }

    /// The embedded defaults with `layers` merged over them, each later
    /// layer winning key by key, deserialized once. Layers read from a
    /// file were checked when loaded, so this cannot fail for them; a key
    /// whose value does not fit (a layer changed in memory) is left out
    /// and named in the second value, and the rest still applies.
    pub fn merge(layers: &[&SettingsLayer]) -> (Settings, Vec<String>) {
        let mut table = default_table().clone();
        for layer in layers {
            for (key, value) in &layer.0 {
                table.insert(key.clone(), value.clone());
            }
        }
        if let Ok(settings) = Settings::from_table(table) {
            return (settings, Vec::new());
        }
        // Key by key, keeping what fits: slow, and only for broken input.
        let mut table = default_table().clone();
        let mut bad = Vec::new();
        for layer in layers {
            for (key, value) in &layer.0 {
                let old = table.insert(key.clone(), value.clone());
                if Settings::from_table(table.clone()).is_err() {
                    match old {
                        Some(old) => table.insert(key.clone(), old),
                        None => table.remove(key),
                    };
                    bad.push(key.clone());
                }
            }
        }
        let settings = Settings::from_table(table).unwrap_or_default();
        (settings, bad)
    }
}

/// The `[project]` table as one file writes it: only the keys it names,
/// with their values as written (unknown keys too, so a round trip loses
/// nothing). Typed values come from [`Settings::merge`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SettingsLayer(toml::Table);

/// A `[project]` value that does not fit its setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSetting {
    /// The key, e.g. `clipboard`.
    pub key: String,
    /// What is wrong with its value.
    pub message: String,
}

impl SettingsLayer {
    /// A layer holding exactly `table`.
    pub fn from_table(table: toml::Table) -> Self {
        SettingsLayer(table)
    }

    /// The keys and values as written.
    pub fn table(&self) -> &toml::Table {
        &self.0
    }

    /// The value of `key`, if this layer names it.
    pub fn get(&self, key: &str) -> Option<&toml::Value> {
        self.0.get(key)
    }

    /// The value of `key` if this layer names it as a string.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(toml::Value::as_str)
    }

    /// Name `key` in this layer with `value` (the user's own change, e.g.
    /// the TUI's strategy key or applying a preset).
    pub fn set(&mut self, key: &str, value: impl Into<toml::Value>) {
        debug_assert!(default_table().contains_key(key), "no setting `{key}`");
        self.0.insert(key.to_owned(), value.into());
    }

    /// Stop naming `key`; its value falls through to the layers below.
    pub fn remove(&mut self, key: &str) -> Option<toml::Value> {
        self.0.remove(key)
    }

    /// Whether this layer names nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The keys no setting has (a typo, or a newer version's setting).
    pub fn unknown_keys(&self) -> impl Iterator<Item = &str> {
        let known = default_table();
        self.0
            .keys()
            .map(String::as_str)
            .filter(|k| !known.contains_key(*k))
    }

    /// Whether every value this layer names fits its setting; the first
    /// that does not is the error.
    pub fn check(&self) -> Result<(), BadSetting> {
        let Err(whole) = Settings::merge_checked(&self.0) else {
            return Ok(());
        };
        for (key, value) in &self.0 {
            let mut one = toml::Table::new();
            one.insert(key.clone(), value.clone());
            if let Err(e) = Settings::merge_checked(&one) {
                return Err(BadSetting {
                    key: key.clone(),
                    message: e.message().trim_end().to_owned(),
                });
            }
        }
        Err(BadSetting {
            key: String::new(),
            message: whole.message().trim_end().to_owned(),
        })
    }
}

impl Settings {
    /// The defaults with `table` over them, deserialized.
    fn merge_checked(table: &toml::Table) -> Result<Settings, toml::de::Error> {
        let mut merged = default_table().clone();
        for (key, value) in table {
            merged.insert(key.clone(), value.clone());
        }
        Settings::from_table(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(src: &str) -> SettingsLayer {
        toml::from_str(src).unwrap()
    }

    #[test]
    fn embedded_defaults_name_every_key() {
        let file: ProjectFile = toml::from_str(DEFAULT_CONFIG).unwrap();
        assert!(file.presets.is_empty() && file.extra.is_empty());
        // Every key of the defaults is a setting, and every setting has a
        // default: the serialized settings name exactly the same keys.
        let settings = Settings::from_table(file.project.table().clone()).unwrap();
        let back = toml::Table::try_from(&settings).unwrap();
        let keys = |t: &toml::Table| t.keys().cloned().collect::<std::collections::BTreeSet<_>>();
        assert_eq!(keys(&back), keys(file.project.table()));
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
        assert_eq!(settings.clipboard, ClipboardMode::Auto);
        assert_eq!(settings.summary_command.argv(), None);
        assert_eq!(settings.summary_timeout, 30);
        assert_eq!(settings.max_file_size, 1_048_576);
        assert!(!settings.allow_outside_root);
        assert!(settings.ignore.is_empty() && settings.unignore.is_empty());
        assert_eq!(settings.tree, TreeMode::Included);
        // No layer at all is exactly the embedded defaults.
        assert_eq!(Settings::merge(&[]), (settings, Vec::new()));
    }

    #[test]
    fn later_layers_win_key_by_key() {
        let global = layer("budget = 5\nclipboard = \"osc52\"\nignore = [\"a\"]\n");
        let project = layer("budget = 7\nformat = \"xml\"\n");
        let (s, bad) = Settings::merge(&[&global, &project]);
        assert!(bad.is_empty());
        assert_eq!(s.budget, 7);
        assert_eq!(s.clipboard, ClipboardMode::Osc52);
        assert_eq!(s.format, Format::Xml);
        assert_eq!(s.ignore, [IgnorePattern("a".into())]);
        assert_eq!(s.tokenizer, TokenizerKind::O200k, "default");
    }

    #[test]
    fn a_bad_value_names_its_key() {
        let bad = layer("budget = 3\nclipboard = \"OSC52\"\n")
            .check()
            .unwrap_err();
        assert_eq!(bad.key, "clipboard");
        assert!(bad.message.contains("osc52"), "{}", bad.message);
        let bad = layer("budget = \"lots\"\n").check().unwrap_err();
        assert_eq!(bad.key, "budget");
        let bad = layer("clipboard = 5\n").check().unwrap_err();
        assert_eq!(bad.key, "clipboard");
        assert!(bad.message.contains("expected a string"), "{}", bad.message);
        let bad = layer("ignore = [\"ok/\", \"{a\"]\n").check().unwrap_err();
        assert_eq!(bad.key, "ignore");
        assert!(bad.message.contains("bad pattern `{a`"), "{}", bad.message);
        let long = format!("ignore = [\"{}\"]\n", "*a".repeat(2_100));
        let bad = layer(&long).check().unwrap_err();
        assert!(
            bad.message.contains("at most 4096 bytes"),
            "{}",
            bad.message
        );
        assert!(layer("budget = 3\nfuture = 1\n").check().is_ok());
        assert_eq!(
            layer("future = 1\nbudget = 3\n")
                .unknown_keys()
                .collect::<Vec<_>>(),
            ["future"]
        );
    }

    #[test]
    fn a_value_changed_in_memory_that_does_not_fit_is_left_out() {
        let mut project = layer("budget = 7\n");
        project.set("tokenizer", "nope");
        let (s, bad) = Settings::merge(&[&project]);
        assert_eq!(bad, ["tokenizer"]);
        assert_eq!((s.budget, s.tokenizer), (7, TokenizerKind::O200k));
    }

    #[test]
    fn summary_command_as_line_or_argv() {
        let s = |src: &str| Settings::merge(&[&layer(src)]).0.summary_command;
        let argv = s("summary_command = \"llm -s 'Sum up'\"\n").argv().unwrap();
        assert_eq!(argv, ["sh", "-c", "llm -s 'Sum up'"]);
        let argv = s("summary_command = [\"llm\", \"-s\", \"x\"]\n")
            .argv()
            .unwrap();
        assert_eq!(argv, ["llm", "-s", "x"]);
        assert_eq!(CommandLine::Argv(vec![]).argv(), None);
        let bad = layer("summary_command = 3\n").check().unwrap_err();
        assert!(
            bad.message
                .contains("expected a command line string or an array of strings"),
            "{}",
            bad.message
        );
    }
}
