//! What a task names: the paths and identifiers in its text, matched to
//! project files — a file whose path is named, a file that defines a named
//! identifier (as aider boosts them). Packing puts those files right after
//! the targets' direct imports and seeds the ranking with them; the stats
//! say which mentions matched, so a typo is visible.

use std::collections::{BTreeSet, HashSet};

use serde::Serialize;

use crate::core::sources::Codebase;
use crate::core::syntax::{Lang, Symbol};

/// How a mention names files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MentionKind {
    /// A path, a path suffix or a file name: `operations/prepare.py`.
    Path,
    /// A name a file defines: `prepare_linked_requirement`, `BuildTracker`.
    Identifier,
}

/// One mention in the task and the files it matched (empty: none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mention {
    pub text: String,
    pub kind: MentionKind,
    /// Matched files, sorted; at most [`MAX_FILES`].
    pub files: Vec<String>,
}

/// A mention matching more files than this says little about any of them;
/// it keeps the first ones.
pub const MAX_FILES: usize = 8;

/// Extensions that make a word a path mention.
const PATH_EXTENSIONS: &[&str] = &[
    "py", "pyi", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "rs", "md", "toml", "txt",
    "json", "yaml", "yml", "cfg", "ini", "js", "ts",
];

/// The mentions of `task` matched against `codebase`'s walked files.
pub fn find(codebase: &Codebase, task: &str) -> Vec<Mention> {
    let walked = codebase.files();
    let (paths, idents) = candidates(task);
    let mut out: Vec<Mention> = paths
        .into_iter()
        .map(|text| {
            let files = match_path(&text, walked);
            Mention {
                text,
                kind: MentionKind::Path,
                files,
            }
        })
        .collect();
    if !idents.is_empty() {
        let defined = defining_files(codebase, &idents);
        out.extend(idents.into_iter().map(|text| {
            let files = defined
                .iter()
                .filter(|(name, _)| *name == text)
                .map(|(_, file)| file.clone())
                .take(MAX_FILES)
                .collect();
            Mention {
                text,
                kind: MentionKind::Identifier,
                files,
            }
        }));
    }
    out
}

/// The files every mention matched, each once, in mention order.
pub fn matched_files(mentions: &[Mention]) -> Vec<String> {
    let mut seen = HashSet::new();
    mentions
        .iter()
        .flat_map(|m| m.files.iter())
        .filter(|f| seen.insert(f.as_str()))
        .cloned()
        .collect()
}

/// The words of `task` that look like paths, and those that look like
/// identifiers of code (not English): with `_`, camelCase or several
/// capitals, followed by `(`, or in backticks. Each once, in order.
fn candidates(task: &str) -> (Vec<String>, Vec<String>) {
    let mut paths = Vec::new();
    let mut idents = Vec::new();
    let mut seen = HashSet::new();
    let mut in_code = false;
    for raw in task.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let ticks = raw.matches('`').count();
        let quoted = in_code || raw.starts_with('`');
        if ticks % 2 == 1 {
            in_code = !in_code;
        }
        let word = raw
            .trim_start_matches(|c: char| !(c.is_alphanumeric() || "_/.".contains(c)))
            .trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
        if word.is_empty() || !seen.insert(word.to_string()) {
            continue;
        }
        if looks_like_path(word) {
            paths.push(word.trim_start_matches("./").to_string());
            continue;
        }
        // `a.b.c` names its last part; `f(` a call.
        let called = raw.contains('(');
        for part in word.split(['.', '/']) {
            if is_identifier(part)
                && (quoted || called || looks_like_code(part))
                && !idents.iter().any(|i| i == part)
            {
                idents.push(part.to_string());
            }
        }
    }
    (paths, idents)
}

fn looks_like_path(word: &str) -> bool {
    let ext = word.rsplit_once('.').map(|(_, e)| e);
    let has_ext = ext.is_some_and(|e| PATH_EXTENSIONS.contains(&e));
    has_ext || (word.contains('/') && !word.starts_with("http") && word.len() > 2)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() >= 3
}

/// `snake_case`, `camelCase`, `PascalCase` with two capitals: code, not
/// prose.
fn looks_like_code(s: &str) -> bool {
    let snake = s.contains('_') && s.trim_matches('_').len() > 1;
    let interior_upper = s.chars().skip(1).any(|c| c.is_ascii_uppercase());
    snake || (interior_upper && s.chars().any(|c| c.is_ascii_lowercase()))
}

/// The walked files `text` names: the path itself, files ending with
/// `/text`, or, for a bare name, files of that name.
fn match_path(text: &str, walked: &[String]) -> Vec<String> {
    let text = text.trim_start_matches('/');
    if walked.iter().any(|f| f == text) {
        return vec![text.to_string()];
    }
    let suffix = format!("/{text}");
    walked
        .iter()
        .filter(|f| f.ends_with(&suffix))
        .take(MAX_FILES)
        .cloned()
        .collect()
}

/// (name, file) for every code file that defines one of `idents`, sorted.
/// A file is parsed only when its text holds one of the names.
fn defining_files(codebase: &Codebase, idents: &[String]) -> BTreeSet<(String, String)> {
    let Codebase { root, sources, .. } = *codebase;
    let wanted: HashSet<&str> = idents.iter().map(String::as_str).collect();
    let mut out = BTreeSet::new();
    for path in codebase
        .files()
        .iter()
        .filter(|p| Lang::from_path(p).is_some_and(Lang::is_code))
    {
        let file = sources.file(root, path);
        let Some(text) = file.text() else {
            continue;
        };
        if !idents.iter().any(|i| text.contains(i.as_str())) {
            continue;
        }
        let Some(tree) = sources.symbols(root, path) else {
            continue;
        };
        let mut stack: Vec<&Symbol> = tree.symbols.iter().collect();
        while let Some(s) = stack.pop() {
            if wanted.contains(s.name.as_str()) {
                out.insert((s.name.clone(), path.clone()));
            }
            stack.extend(s.children.iter());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_look_like_code_or_paths() {
        let (paths, idents) = candidates(
            "Fix the bug in `prepare.py`: prepare_linked_requirement calls \
             BuildTracker.add() and the Reader is slow; see pip/_internal/req, \
             `Link` and run(). Then update README.md.",
        );
        assert_eq!(paths, ["prepare.py", "pip/_internal/req", "README.md"]);
        assert_eq!(
            idents,
            [
                "prepare_linked_requirement",
                "BuildTracker",
                "add",
                "Link",
                "run"
            ]
        );
    }

    #[test]
    fn paths_match_exactly_by_suffix_or_name() {
        let walked: Vec<String> = ["a/prepare.py", "b/prepare.py", "x/y/z.c"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(match_path("x/y/z.c", &walked), ["x/y/z.c"]);
        assert_eq!(match_path("y/z.c", &walked), ["x/y/z.c"]);
        assert_eq!(
            match_path("prepare.py", &walked),
            ["a/prepare.py", "b/prepare.py"]
        );
        assert!(match_path("nope.py", &walked).is_empty());
    }
}
