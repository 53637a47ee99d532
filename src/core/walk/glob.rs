//! Glob expansion: a preset's entries (paths, globs, exclusions) turned
//! into concrete files against one sorted walk, so a preset renders the
//! same files in the same order on every machine.

use std::collections::HashSet;

use globset::{GlobBuilder, GlobMatcher};

use super::{is_blacklisted, is_sensitive};
use crate::core::model::FileItem;

/// `true` when `s` contains glob syntax.
pub fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '[', '{'])
}

/// Compile a preset glob: `*` stays within one directory, `**` crosses them.
pub fn compile_glob(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    Ok(GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher())
}

/// A preset entry resolved to one concrete file.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedItem {
    /// The concrete relative path.
    pub path: String,
    /// The entry's settings (for a glob entry: the glob's, with `path`
    /// replaced by the concrete file).
    pub item: FileItem,
    /// Index of the preset entry this file came from.
    pub entry: usize,
}

/// What went wrong while expanding a preset's entries.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpandProblem {
    /// The glob itself is malformed.
    BadGlob { pattern: String, message: String },
    /// The glob matched no file.
    NoMatch { pattern: String },
}

impl std::fmt::Display for ExpandProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandProblem::BadGlob { pattern, message } => {
                write!(f, "bad glob `{pattern}`: {message}")
            }
            ExpandProblem::NoMatch { pattern } => write!(f, "glob `{pattern}` matches no file"),
        }
    }
}

/// Expand a preset's entries into concrete files, in entry order with each
/// glob's matches sorted. An explicitly named file keeps its own entry even
/// when a glob also matches it; otherwise the first entry naming a file
/// wins. Blacklisted files never appear; [`is_sensitive`] ones only when
/// named explicitly. `walk` is called only when some
/// entry is a glob.
pub fn expand_items(
    entries: &[FileItem],
    exclude: &[String],
    walk: impl FnOnce() -> Vec<String>,
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    if entries.iter().any(|e| is_glob(&e.path)) {
        expand_over(entries, exclude, &walk())
    } else {
        expand_over(entries, exclude, &[])
    }
}

/// [`expand_items`] over a known, sorted file list. Glob matches that an
/// `exclude` path or glob names are skipped; explicit entries never are.
pub fn expand_over(
    entries: &[FileItem],
    exclude: &[String],
    files: &[String],
) -> (Vec<ResolvedItem>, Vec<ExpandProblem>) {
    let excluded = Excluder::new(exclude);
    let explicit: HashSet<&str> = entries
        .iter()
        .filter(|e| !is_glob(&e.path) || files.binary_search(&e.path).is_ok())
        .map(|e| e.path.as_str())
        .collect();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        // `[id].tsx` is a file name before it is a pattern.
        let literal = !is_glob(&entry.path) || files.binary_search(&entry.path).is_ok();
        if literal {
            if !is_blacklisted(&entry.path) && seen.insert(entry.path.as_str()) {
                out.push(ResolvedItem {
                    path: entry.path.clone(),
                    item: entry.clone(),
                    entry: index,
                });
            }
            continue;
        }
        let matcher = match compile_glob(&entry.path) {
            Ok(m) => m,
            Err(e) => {
                problems.push(ExpandProblem::BadGlob {
                    pattern: entry.path.clone(),
                    message: e.kind().to_string(),
                });
                continue;
            }
        };
        let mut matched = false;
        for path in files.iter().filter(|p| matcher.is_match(p.as_str())) {
            matched = true;
            if is_blacklisted(path)
                || is_sensitive(path)
                || explicit.contains(path.as_str())
                || excluded.matches(path)
                || !seen.insert(path.as_str())
            {
                continue;
            }
            let mut item = entry.clone();
            item.path = path.clone();
            out.push(ResolvedItem {
                path: path.clone(),
                item,
                entry: index,
            });
        }
        if !matched {
            problems.push(ExpandProblem::NoMatch {
                pattern: entry.path.clone(),
            });
        }
    }
    (out, problems)
}

/// A preset's `exclude` list: exact paths, folders (everything below) and
/// globs. A malformed glob excludes nothing.
struct Excluder {
    exact: HashSet<String>,
    globs: Vec<GlobMatcher>,
}

impl Excluder {
    fn new(exclude: &[String]) -> Self {
        let mut exact = HashSet::new();
        let mut globs = Vec::new();
        for e in exclude {
            if is_glob(e) {
                globs.extend(compile_glob(e).ok());
            } else {
                exact.insert(e.trim_end_matches('/').to_string());
            }
        }
        Excluder { exact, globs }
    }

    fn matches(&self, path: &str) -> bool {
        if self.exact.contains(path) {
            return true;
        }
        if !self.exact.is_empty() {
            for (i, _) in path.match_indices('/') {
                if self.exact.contains(&path[..i]) {
                    return true;
                }
            }
        }
        self.globs.iter().any(|g| g.is_match(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(paths: &[&str]) -> Vec<FileItem> {
        paths.iter().map(|p| FileItem::new(*p)).collect()
    }

    #[test]
    fn credential_files_need_an_explicit_entry() {
        let files: Vec<String> = [
            ".env",
            "app/.env.local",
            "certs/server.pem",
            "deploy/id_rsa",
            "deploy/id_ed25519.pub",
            "prod.env",
            "src/env.py",
            "src/keys.py",
            "tls.KEY",
            "deploy/server.ppk",
            "ops/.kube/config",
            "ops/prod.kubeconfig",
            "kubeconfig",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let (out, _) = expand_over(&items(&["**"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/env.py", "src/keys.py"]);
        let (out, _) = expand_over(&items(&["**", "certs/server.pem", ".env"]), &[], &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(
            paths,
            ["src/env.py", "src/keys.py", "certs/server.pem", ".env"]
        );
    }

    #[test]
    fn globs_expand_sorted_and_explicit_wins() {
        let walk = || {
            vec![
                "src/a.py".to_string(),
                "src/b.py".into(),
                "src/sub/c.py".into(),
                "x_history.toml".into(),
            ]
        };
        let mut entries = items(&["src/*.py", "src/b.py", "src/**/*.py", "nope/*.rs"]);
        entries[1].view_mode = crate::core::model::ViewMode::Skeleton;
        let (out, problems) = expand_items(&entries, &[], walk);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["src/a.py", "src/b.py", "src/sub/c.py"]);
        assert_eq!(
            out[1].item.view_mode,
            crate::core::model::ViewMode::Skeleton
        );
        assert_eq!(out.iter().map(|r| r.entry).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(
            problems,
            [ExpandProblem::NoMatch {
                pattern: "nope/*.rs".into()
            }]
        );
    }

    #[test]
    fn no_walk_without_globs() {
        let (out, _) = expand_items(&items(&["a", "history.toml", "a"]), &[], || {
            panic!("walked")
        });
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn file_names_with_glob_characters_are_literal() {
        let files: Vec<String> = ["pages/[id].tsx", "pages/i.tsx"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (out, problems) = expand_over(&items(&["pages/[id].tsx"]), &[], &files);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].path, "pages/[id].tsx");
        assert!(problems.is_empty());
    }

    #[test]
    fn excludes_apply_to_globs_only() {
        let files: Vec<String> = ["a/x.py", "a/y.py", "b/gen/z.py", "b/k.py"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let entries = items(&["**/*.py", "a/y.py"]);
        let exclude = vec!["a/y.py".to_string(), "b/gen".into(), "b/*.py".into()];
        let (out, _) = expand_over(&entries, &exclude, &files);
        let paths: Vec<_> = out.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["a/x.py", "a/y.py"]);
    }
}
