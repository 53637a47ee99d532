//! Ruby's imports: `require_relative 'x'` is a path from the requiring
//! file's folder (`.rb` added); `require 'x'` names a file on the load
//! path, which for a project's own code is a `lib/` folder (a gem's), so
//! it is looked for in the `lib/` above the requiring file and in the
//! project's top `lib/`. A `require` found in neither is a gem or the
//! standard library (external), unless its first segment is the folder
//! right below that `lib/` (`require 'rack/missing'` from
//! `lib/rack/utils.rb`, not `require 'digest/md5'` from
//! `lib/rack/auth/digest/md5.rb`): that names the project, and no file of
//! it. `autoload :X, 'x'` is a `require` on first use.
//! Read off the text line by line, like the other languages' imports.

use std::sync::LazyLock;

use regex::Regex;

use super::{Resolution, join, parent};
use crate::core::discovery::graph::resolve::FileSet;
use crate::core::module_maps::join_rel;

/// `require 'x'`, `require_relative("x")`, `autoload :X, 'x'` (a require
/// on first use) at the start of a statement; a name with interpolation
/// (`"#{dir}/x"`) is not a path to follow.
static REQUIRE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r##"^\s*(?:require(_relative)?|autoload\s*\(?\s*:\w+\s*,)\s*\(?\s*(?:'([^'#]+)'|"([^"#]+)")"##,
    )
    .expect("a constant pattern")
});

/// The records of a Ruby file: `rbrel\tx` for each `require_relative
/// 'x'`, `rb\tx` for each `require 'x'` and `autoload :X, 'x'`.
pub(super) fn encode(source: &str) -> String {
    let mut relative = Vec::new();
    let mut required = Vec::new();
    for line in source.lines() {
        let Some(c) = REQUIRE.captures(line) else {
            continue;
        };
        let (Some(whole), Some(name)) = (c.get(0), c.get(2).or(c.get(3))) else {
            continue;
        };
        // `require "rack/" + name` names a file only at run time.
        if line[whole.end()..].trim_start().starts_with('+') {
            continue;
        }
        let name = name.as_str().trim().to_string();
        if c.get(1).is_some() {
            relative.push(name);
        } else {
            required.push(name);
        }
    }
    super::records("rbrel", relative) + &super::records("rb", required)
}

/// `x` with `.rb` unless it has it.
fn with_extension(name: &str) -> String {
    if name.ends_with(".rb") {
        name.to_string()
    } else {
        format!("{name}.rb")
    }
}

/// The folder right below the nearest `lib/` above a file (`rack` for
/// `lib/rack/auth/digest/md5.rb`): the gem's own namespace.
fn lib_namespace(file: &str) -> Option<&str> {
    let parts: Vec<&str> = parent(file).split('/').collect();
    let lib = parts.iter().rposition(|p| *p == "lib")?;
    parts.get(lib + 1).copied()
}

/// `require_relative 'x'`: the file beside the requiring one, else
/// unresolved (it names a project file by its path).
pub(super) fn resolve_relative<'a>(
    set: &FileSet<'a>,
    from_file: &str,
    name: &str,
) -> Resolution<'a> {
    let found = join_rel(parent(from_file), &with_extension(name)).and_then(|p| set.get(&p));
    match found {
        Some(f) => Resolution::Files(vec![(f, 1.0)]),
        None => Resolution::Unresolved,
    }
}

/// `require 'x'`: `lib/x.rb` in the `lib/` folders above the requiring
/// file, then the project's top `lib/`; see the module header for the
/// rest.
pub(super) fn resolve_require<'a>(
    set: &FileSet<'a>,
    from_file: &str,
    name: &str,
) -> Resolution<'a> {
    let file = with_extension(name);
    let mut dir = parent(from_file);
    let mut candidates = Vec::new();
    loop {
        if dir == "lib" || dir.ends_with("/lib") {
            candidates.push(join(dir, &file));
        }
        if dir.is_empty() {
            break;
        }
        dir = parent(dir);
    }
    candidates.push(join("lib", &file));
    if let Some(f) = candidates.iter().find_map(|c| set.get(c)) {
        return Resolution::Files(vec![(f, 1.0)]);
    }
    let first = name.split('/').next().unwrap_or(name);
    let names_project = name.contains('/') && lib_namespace(from_file) == Some(first);
    if names_project {
        Resolution::Unresolved
    } else {
        Resolution::External
    }
}
