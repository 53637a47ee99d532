//! The data model of a curation, exactly as it is stored in
//! `ctxcurate.toml` (see docs/ARCHITECTURE.md, "core::model"): the presets
//! (`model/preset.rs`: view modes, mask states, slices, file items,
//! discussion) and the settings (`model/settings.rs`: the `[project]`
//! table of each file and the resolved [`Settings`]), tied together by
//! [`ProjectFile`], one whole file.
//!
//! Every struct keeps the keys it does not know in an `extra` table (the
//! settings layer is a table itself), so a file written by a newer version
//! (or edited by hand) survives a load → save round trip.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Unknown keys of a table, kept for round-tripping.
pub type Extra = toml::Table;

/// Declares a string-like enum with serde names, `Display`, `FromStr`, a
/// list of all variants and cyclic `next`/`prev`. One place names each
/// variant, so the CLI, the TOML and the TUI can never disagree.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        // By hand rather than derived: a value of another type (`5`, a
        // table) is then "invalid type: integer `5`, expected a string",
        // not serde's "unit variant" wording, and a wrong name still
        // lists the right ones.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
                const NAMES: &[&str] = &[$($text),+];
                let text = <std::borrow::Cow<'de, str>>::deserialize(de)?;
                match text.as_ref() {
                    $($text => Ok($name::$variant),)+
                    other => Err(serde::de::Error::unknown_variant(other, NAMES)),
                }
            }
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

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<$name> for toml::Value {
            fn from(v: $name) -> toml::Value {
                toml::Value::String(v.as_str().to_owned())
            }
        }

        impl std::str::FromStr for $name {
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

mod preset;
mod settings;

pub use preset::*;
pub use settings::*;

/// A whole `ctxcurate.toml` (or the global `config.toml`), as stored,
/// with the user's own settings for this checkout beside it.
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
    /// The user's own choices in this checkout (the active preset, the
    /// tokenizer and strategy toggles): a layer over `project`, kept in
    /// the user's state directory (`core::project::personal`), never in
    /// this file. It travels with the file so that a snapshot of it (an
    /// undo step) covers a preset switch as it covers an edit; compare
    /// what a file holds with [`ProjectFile::same_shared`].
    #[serde(skip)]
    pub personal: SettingsLayer,
}

impl ProjectFile {
    /// Whether `self` and `other` hold the same shared file (the
    /// [`ProjectFile::personal`] layers may differ): what a save compares.
    pub fn same_shared(&self, other: &ProjectFile) -> bool {
        // Destructured, so a new field must be placed on one side.
        let ProjectFile {
            project,
            presets,
            syntax,
            extra,
            personal: _,
        } = self;
        *project == other.project
            && *presets == other.presets
            && *syntax == other.syntax
            && *extra == other.extra
    }
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
