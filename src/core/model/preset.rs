//! Presets: what a curation is made of — its files (path or glob, view
//! mode, symbol masks, slices), screenshots, exclusions, targets and
//! discussion — as stored under `[presets.NAME]`.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::Extra;

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

impl ViewMode {
    /// Whether this mode reads the file's symbol tree (skeleton, outline,
    /// masked). On a file without a grammar such a mode would only repeat
    /// its summary, so that file offers full, summary, custom and none
    /// (`core::views::no_grammar` says why).
    pub fn needs_grammar(self) -> bool {
        matches!(
            self,
            ViewMode::Skeleton | ViewMode::Outline | ViewMode::Masked
        )
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
    /// A rolling hash of the slice's lines (16 hex digits, see
    /// `core::anchor`): finds a moved slice in one pass over the file.
    /// Optional: slices made before it existed are found without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
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
            FileEntry::Path(p) => FileItem::new(tidy_path(&p)),
            FileEntry::Item(i) => FileItem {
                path: tidy_path(&i.path),
                ..i
            },
        })
        .collect())
}

/// Paths (or globs) written by hand, each as [`tidy_path`] makes it.
fn deserialize_paths<'de, D>(de: D) -> Result<Vec<String>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let paths = Vec::<String>::deserialize(de)?;
    Ok(paths.iter().map(|p| tidy_path(p)).collect())
}

/// A root-relative path (or glob) as the walk spells it: `./`, empty
/// parts and a trailing `/` dropped, `x/..` taken out
/// (`./src//a/../b.py` is `src/b.py`), so an entry written by hand names
/// the file once, not twice beside the walk's spelling. A `..` above the
/// root stays (the entry is outside, and held for consent); an absolute
/// path, and one that would be left empty, stay as written. In a glob,
/// `..` and a trailing `/` stay too: `a/**/..` is not `a`.
pub fn tidy_path(path: &str) -> String {
    if path.starts_with('/') {
        return path.to_string();
    }
    // The characters of `walk::is_glob` (a layer above this one).
    let glob = path.contains(['*', '?', '[', '{']);
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if !glob && parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return path.to_string();
    }
    if glob && path.ends_with('/') {
        parts.push("");
    }
    parts.join("/")
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
    #[serde(
        default,
        deserialize_with = "deserialize_paths",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub exclude: Vec<String>,
    /// Files the user is working on: discovery and packing start from
    /// them (see `core::discovery::pack`).
    #[serde(
        default,
        deserialize_with = "deserialize_paths",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub targets: Vec<String>,
    /// Tokens of a repo map after the files: the project's other files
    /// ranked around the targets (and the files the task names), the top
    /// ones outlined (see `core::discovery::context`). 0: no map. Accepting
    /// a discovery whose pack had a map sets it, so the preset composes to
    /// what was packed.
    #[serde(default, skip_serializing_if = "is_default")]
    pub repo_map: usize,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::ProjectFile;

    /// Entries written by hand name files as the walk spells them.
    #[test]
    fn hand_written_paths_are_tidied() {
        for (written, tidy) in [
            ("./a.py", "a.py"),
            ("sub//b.py", "sub/b.py"),
            ("sub/../sub/b.py", "sub/b.py"),
            ("./src/**/*.py", "src/**/*.py"),
            ("src//**/*.py", "src/**/*.py"),
            ("a/**/../b", "a/**/../b"),
            ("gen/**/", "gen/**/"),
            ("src/", "src"),
            ("../up.py", "../up.py"),
            ("a/../../up.py", "../up.py"),
            ("/etc/hosts", "/etc/hosts"),
            (".", "."),
            ("a.py", "a.py"),
        ] {
            assert_eq!(tidy_path(written), tidy, "{written}");
        }
        let file: ProjectFile = toml::from_str(
            "[presets.p]\nfiles = [\"./a.py\", { path = \"sub//b.py\", view_mode = \"outline\" }]\n\
             exclude = [\"./gen/**\"]\ntargets = [\"./a.py\"]\n",
        )
        .expect("parse");
        let p = &file.presets["p"];
        let paths: Vec<&str> = p.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.py", "sub/b.py"]);
        assert_eq!(p.files[1].view_mode, ViewMode::Outline);
        assert_eq!(p.exclude, ["gen/**"]);
        assert_eq!(p.targets, ["a.py"]);
    }

    #[test]
    fn enums_parse_and_cycle() {
        assert_eq!("skeleton".parse::<ViewMode>(), Ok(ViewMode::Skeleton));
        assert!("bogus".parse::<ViewMode>().unwrap_err().contains("full"));
        assert_eq!(ViewMode::None.next(), ViewMode::Full);
        assert_eq!(ViewMode::Full.prev(), ViewMode::None);
        assert_eq!(MaskState::Hide.to_string(), "hide");
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
        assert_eq!(f.project.get_str("future_setting"), Some("x"));
        let again: ProjectFile = toml::from_str(&toml::to_string(&f).unwrap()).unwrap();
        assert_eq!(f, again);
        let item = &again.presets["default"].files[0];
        assert_eq!(item.extra["pinned"].as_bool(), Some(true));
        assert_eq!(item.custom_slices[0].extra["weight"].as_integer(), Some(2));
        assert_eq!(item.ast_mask["A.run"], MaskState::Def);
    }
}
