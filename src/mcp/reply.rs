//! Engine results as tool results: a built context becomes its text and a
//! JSON summary of its stats (files, tokens, what was left out and why); a
//! refusal becomes a tool error worded for the model, naming each likely
//! secret by file and line (masked, never the secret itself).

use ctxcurate::core::engine::{BuildError, Built, Refused};
use ctxcurate::core::secrets::Finding;
use ctxcurate::core::walk;
use ctxcurate::text::words::plural;
use serde_json::{Value, json};

use super::error::ToolError;

/// What a tool answers: a text (the context, a file's view, a JSON
/// document) and, for a build, its stats.
#[derive(Debug, Clone, Default)]
pub struct Reply {
    pub text: Option<String>,
    pub stats: Option<Value>,
}

impl Reply {
    /// A JSON document as the text.
    pub fn json(value: &impl serde::Serialize) -> Result<Reply, ToolError> {
        let text = serde_json::to_string_pretty(value)
            .map_err(|e| ToolError::new(format!("cannot write the result as JSON: {e}")))?;
        Ok(Reply {
            text: Some(text),
            stats: None,
        })
    }
}

/// A built context: its text, and the stats a person reads on stderr from
/// `ctxcurate build`, as data. `notes` are the caller's own (a preset file
/// not found, the diff's notes); `held` says which paths the agent named
/// wait for the user's consent.
pub fn built(built: Built, mut notes: Vec<String>, held: Option<String>) -> Reply {
    let mut left_out: Vec<String> = held.into_iter().collect();
    left_out.extend(built.changes_dropped.iter().cloned());
    left_out.extend(built.held.iter().cloned());
    left_out.extend(built.problems.iter().cloned());
    for f in &built.files {
        if let Some(why) = &f.skipped {
            left_out.push(format!("{}: {why}", f.path));
        }
    }
    notes.extend(walk::notes_lines(&built.walk_notes));
    for f in &built.files {
        notes.extend(f.notes.iter().map(|n| format!("{}: {n}", f.path)));
    }
    let errors: Vec<Value> = built
        .files
        .iter()
        .filter_map(|f| {
            f.error
                .as_ref()
                .map(|e| json!({"path": f.path, "error": e}))
        })
        .collect();
    let pack = built.packed.as_ref().map(|p| {
        left_out.extend(p.missing_targets.iter().map(ToString::to_string));
        let s = &p.stats;
        left_out.extend(s.dropped_note());
        left_out.extend(s.held_note());
        notes.extend(
            [s.unresolved_note(), s.excluded_note(), s.sensitive_note()]
                .into_iter()
                .flatten(),
        );
        notes.extend(s.limits.iter().cloned());
        json!({"stats": s, "items": p.items})
    });
    let mut stats = json!({
        "files": built.rendered(),
        "tokens": built.tokens,
        "exact": built.exact,
        "tokenizer": built.tokenizer.as_str(),
        "bytes": built.text.len(),
        "left_out": left_out,
        "notes": notes,
    });
    if !errors.is_empty() {
        stats["files_with_errors"] = json!(errors);
    }
    if !built.findings.is_empty() {
        // Only when the server allows secrets does a build get here with
        // findings: say where they are all the same.
        stats["likely_secrets"] = json!(findings(&built.findings));
    }
    if let Some(pack) = pack {
        stats["pack"] = pack;
    }
    // A file's name is the repository's: its controls (an OSC 52's ESC,
    // U+202E) go to the client visible, in the pack's items as in every
    // note (recheck 25).
    visible_strings(&mut stats);
    Reply {
        text: Some(built.text),
        stats: Some(stats),
    }
}

/// Every string in `value` with its controls and invisible characters
/// (U+202E, ESC) made visible.
pub(super) fn visible_strings(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(shown) = ctxcurate::text::sanitize::escape_line(s) {
                *s = shown;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(visible_strings),
        Value::Object(map) => map.values_mut().for_each(visible_strings),
        _ => {}
    }
}

/// Each finding as one line: file, line, the kind of secret, masked.
fn findings(found: &[Finding]) -> Vec<String> {
    found.iter().map(ToString::to_string).collect()
}

/// A refused build as the tool error the model reads.
pub fn refused(refused: Refused) -> ToolError {
    let Refused { why, so_far } = refused;
    let said = match &why {
        BuildError::Secrets { count, .. } => format!(
            "refused: the context holds {}; remove {} or exclude \
             the files (this server was started without --allow-secrets):\n{}",
            plural(*count, "likely secret"),
            if *count == 1 { "it" } else { "them" },
            findings(&so_far.findings)
                .iter()
                .map(|f| format!("- {f}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
        BuildError::ChangesOverBudget { .. } => format!(
            "{why}: raise `budget`, diff against a nearer ref, or pass `allow_partial` to \
             leave out the largest files' diffs"
        ),
        BuildError::TargetsDoNotFit { missing } => {
            let also = match missing.len() {
                0 | 1 => String::new(),
                n => format!(" (and {} more targets)", n - 1),
            };
            format!("{why}{also}: raise `budget`, or pass `allow_partial` to build without it")
        }
        other => other.to_string(),
    };
    ToolError::new(said)
}
