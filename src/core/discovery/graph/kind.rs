//! How an import is used — run at the top of a module, passed on, inside a
//! function, or only for the type checker — and what that weighs on the
//! edge it makes: ranking follows runtime imports before the others.

use serde::Serialize;

/// How an import is used, which says how much the importer needs the
/// file: a runtime import at the top of a module runs with it; a re-export
/// only passes names on; an import inside a function runs only when that
/// function does; a type-only import (Python's `if TYPE_CHECKING:`,
/// TypeScript's `import type`) never runs at all. Ranking weighs the edges
/// by it (see [`ImportKind::weight`]), strongest first in this order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportKind {
    /// A top-level import that runs when the importer does.
    #[default]
    Runtime,
    /// Names passed on (`from .x import *`, a package `__init__` importing
    /// its modules, `export … from`).
    ReExport,
    /// Inside a function or method: runs only when it is called.
    Local,
    /// Only for the type checker: never runs.
    TypeOnly,
}

impl ImportKind {
    /// The factor on an edge's weight: a file needed only for types or
    /// inside one function counts for less than one the importer runs.
    pub fn weight(self) -> f64 {
        match self {
            ImportKind::Runtime => 1.0,
            ImportKind::ReExport => 0.5,
            ImportKind::Local => 0.35,
            ImportKind::TypeOnly => 0.2,
        }
    }

    /// Whether the importer needs the file when it runs at top level.
    pub fn is_runtime(self) -> bool {
        self == ImportKind::Runtime
    }

    /// The record's spelling (the cache's line format).
    pub fn code(self) -> &'static str {
        match self {
            ImportKind::Runtime => "r",
            ImportKind::ReExport => "x",
            ImportKind::Local => "l",
            ImportKind::TypeOnly => "t",
        }
    }

    /// The kind a record spells; an unknown spelling (an older record) is
    /// a runtime import.
    pub fn from_code(code: &str) -> Self {
        match code {
            "x" => ImportKind::ReExport,
            "l" => ImportKind::Local,
            "t" => ImportKind::TypeOnly,
            _ => ImportKind::Runtime,
        }
    }
}

impl std::fmt::Display for ImportKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ImportKind::Runtime => "runtime",
            ImportKind::ReExport => "re-export",
            ImportKind::Local => "function-local",
            ImportKind::TypeOnly => "type-only",
        })
    }
}
