//! What a task names: the paths, commit scopes, modules and identifiers in
//! its text (`words`), matched to project files (`matching`) — a file
//! whose path is named, the files of a `fix(scope):`, a module's own file,
//! the files that define a named identifier (as aider boosts them), each
//! list ranked source first — and the human languages it names, matched to
//! their locale files (`languages`). Packing puts those files right after the
//! targets' direct imports and seeds the ranking with them; the stats say
//! which mentions matched, so a typo is visible.

mod languages;
mod matching;
mod words;

use std::collections::HashSet;

use serde::Serialize;

use crate::core::sources::Codebase;

pub use matching::is_auxiliary;

/// Whether a word of a task is a path (an extension of the language
/// table or a text file, or a `/`): `tree_test.go`, `src/app`.
pub fn is_path_word(word: &str) -> bool {
    words::looks_like_path(word)
}

/// How a mention names files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MentionKind {
    /// A path, a path suffix, a file or a folder name: `operations/prepare.py`.
    Path,
    /// A conventional-commit scope, `fix(docker_context): …`: the files and
    /// folders of that name.
    Scope,
    /// A module's name: `crate::a::b`, `pkg.sub.mod`, a marked bare word
    /// that is a file's stem: the module's own file.
    Module,
    /// A name a file defines: `prepare_linked_requirement`, `BuildTracker`.
    Identifier,
    /// A human language, `Japanese`: its locale files, `locales/ja.ts`.
    Language,
}

/// One mention in the task and the files it matched (empty: none).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mention {
    pub text: String,
    pub kind: MentionKind,
    /// Matched files, ranked: source before tests, benchmarks, fixtures,
    /// examples and generated files (and code before other text), then by
    /// path; at most [`MAX_FILES`] ([`MAX_DEFINING_FILES`] for an
    /// identifier).
    pub files: Vec<String>,
    /// How many files it matched in all, `files` and those past the cap.
    pub total: usize,
}

/// A path, scope or module matching more files than this says little
/// about any of them; it keeps the best ones.
pub const MAX_FILES: usize = 8;

/// An identifier keeps this many of the files that define it, the best
/// first: the ranking weighs them, so a common name costs little.
pub const MAX_DEFINING_FILES: usize = 64;

/// The mentions of `task` matched against `codebase`'s walked files: paths,
/// scopes, modules (only those that matched a file: they are guesses),
/// then identifiers (one whose word already named a module's file is kept
/// only when some file defines it).
pub fn find(codebase: &Codebase, task: &str) -> Vec<Mention> {
    let walked = codebase.files();
    let words = words::read(task);
    let mut out = Vec::new();
    let mut push = |text: String, kind, m: matching::Matched| {
        out.push(Mention {
            text,
            kind,
            files: m.files,
            total: m.total,
        })
    };
    for text in words.paths {
        let m = matching::path(&text, walked, MAX_FILES);
        push(text, MentionKind::Path, m);
    }
    for text in words.scopes {
        let m = matching::scope(&text, walked, MAX_FILES);
        push(text, MentionKind::Scope, m);
    }
    let mut named_languages: Vec<&str> = Vec::new();
    for (name, _) in languages::named(task) {
        if !named_languages.contains(&name) && named_languages.len() < languages::MAX_NAMED {
            named_languages.push(name);
        }
    }
    if !named_languages.is_empty() {
        let found = matching::languages(&named_languages, walked, MAX_FILES);
        for (name, m) in named_languages.iter().zip(found) {
            if !m.files.is_empty() {
                push(name.to_string(), MentionKind::Language, m);
            }
        }
    }
    let mut named_modules = HashSet::new();
    for text in words.modules {
        let m = matching::module(&text, walked, MAX_FILES);
        if m.files.is_empty() {
            continue;
        }
        if let Some(last) = words::module_parts(&text).last() {
            named_modules.insert(last.to_string());
        }
        push(text, MentionKind::Module, m);
    }
    if !words.idents.is_empty() {
        let mut defined = matching::definitions(codebase, &words.idents);
        for text in words.idents {
            let mut files = defined.remove(&text).unwrap_or_default();
            if files.is_empty() && named_modules.contains(&text) {
                continue;
            }
            files.sort_by_key(|f| (is_auxiliary(f), f.clone()));
            let total = files.len();
            files.truncate(MAX_DEFINING_FILES);
            push(
                text,
                MentionKind::Identifier,
                matching::Matched { files, total },
            );
        }
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

#[cfg(test)]
mod tests;
