//! Heuristic summaries: instant, offline, per file type. Code gets its
//! module docstring line and an outline of its top-level symbols; Markdown
//! its heading tree; TOML and JSON their key paths; anything else its first
//! lines with line and byte counts.

use std::fmt::Write;

use crate::core::syntax::{self, Lang};

/// Lines of a plain text file kept in its summary.
const HEAD_LINES: usize = 10;
/// Scalar values longer than this are cut in key-path summaries.
const SHORT_VALUE: usize = 40;
/// At most this many key paths are listed.
const MAX_KEYS: usize = 80;

/// A summary of `text`, chosen by the extension of `path`.
pub fn summarize(path: &str, text: &str) -> String {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let body = if let Some(lang) = Lang::detect(path, text) {
        code_summary(lang, text)
    } else {
        match ext.as_str() {
            "md" | "markdown" => markdown_summary(text),
            "toml" => toml_summary(text),
            "json" => json_summary(text),
            _ => None,
        }
        .unwrap_or_else(|| head_summary(text))
    };
    let mut out = body.trim_end().to_string();
    let _ = write!(
        out,
        "\n({}, {})\n",
        plural(line_count(text), "line"),
        plural(text.len(), "byte")
    );
    out
}

/// `1 line`, `2 lines`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn line_count(text: &str) -> usize {
    text.lines().count()
}

fn code_summary(lang: Lang, text: &str) -> String {
    let tree = syntax::parse(lang, text);
    let mut out = String::new();
    if let Some(doc) = &tree.module_doc {
        let _ = writeln!(out, "{doc}");
    }
    for sym in &tree.symbols {
        let _ = writeln!(
            out,
            "- {} `{}` (L{}-{}, {})",
            sym.kind.as_str(),
            sym.signature,
            sym.start_line,
            sym.end_line,
            plural(sym.end_line + 1 - sym.start_line, "line")
        );
    }
    if tree.symbols.is_empty() && tree.module_doc.is_none() {
        return head_summary(text);
    }
    out
}

/// Heading tree with the first sentence under each heading.
fn markdown_summary(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut want_sentence = false;
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let level = trimmed.chars().take_while(|c| *c == '#').count();
        if (1..=6).contains(&level) && trimmed[level..].starts_with(' ') {
            let _ = writeln!(
                out,
                "{}- {}",
                "  ".repeat(level - 1),
                trimmed[level..].trim()
            );
            want_sentence = true;
        } else if want_sentence && !trimmed.is_empty() {
            let _ = writeln!(out, "  {}", first_sentence(trimmed));
            want_sentence = false;
        }
    }
    (!out.is_empty()).then_some(out)
}

fn first_sentence(text: &str) -> &str {
    let end = text
        .match_indices(['.', '!', '?'])
        .map(|(i, _)| i + 1)
        .find(|&i| text[i..].is_empty() || text[i..].starts_with(' '))
        .unwrap_or(text.len());
    clip(&text[..end], 160)
}

fn clip(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn toml_summary(text: &str) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let json = serde_json::to_value(value).ok()?;
    Some(key_paths(&json))
}

fn json_summary(text: &str) -> Option<String> {
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(key_paths(&json))
}

/// `a.b.c = value` lines for every scalar, `a.list = [N items]` for arrays.
fn key_paths(value: &serde_json::Value) -> String {
    let mut lines = Vec::new();
    collect_keys(value, String::new(), &mut lines);
    let total = lines.len();
    lines.truncate(MAX_KEYS);
    let mut out = lines.join("\n");
    if total > MAX_KEYS {
        let _ = write!(out, "\n… {} more keys", total - MAX_KEYS);
    }
    out
}

fn collect_keys(value: &serde_json::Value, prefix: String, out: &mut Vec<String>) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            if map.is_empty() && !prefix.is_empty() {
                out.push(format!("{prefix} = {{}}"));
            }
            for (k, v) in map {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                collect_keys(v, key, out);
            }
        }
        Value::Array(items) => out.push(format!("{prefix} = [{} items]", items.len())),
        Value::String(s) => out.push(format!("{prefix} = {:?}", clip(s, SHORT_VALUE))),
        other => out.push(format!("{prefix} = {other}")),
    }
}

fn head_summary(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().take(HEAD_LINES) {
        let _ = writeln!(out, "{}", clip(line, 200));
    }
    if line_count(text) > HEAD_LINES {
        out.push_str("…\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_headings_and_sentences() {
        let md =
            "# Title\n\nIntro here. More text.\n\n```\n# not a heading\n```\n## Part\nBody line!\n";
        assert_eq!(
            summarize("README.md", md),
            "- Title\n  Intro here.\n  - Part\n  Body line!\n(9 lines, 76 bytes)\n"
        );
    }

    #[test]
    fn toml_key_paths() {
        let s = summarize("c.toml", "[a]\nx = 1\nname = \"n\"\nlist = [1, 2]\n");
        assert_eq!(
            s,
            "a.list = [2 items]\na.name = \"n\"\na.x = 1\n(4 lines, 35 bytes)\n"
        );
    }

    #[test]
    fn plain_text_head() {
        let text: String = (1..=12).map(|i| format!("line {i}\n")).collect();
        let s = summarize("notes.txt", &text);
        assert!(s.starts_with("line 1\n"));
        assert!(s.contains("line 10\n…\n(12 lines, "));
        assert!(!s.contains("line 11"));
    }

    #[test]
    fn broken_json_falls_back_to_head() {
        assert_eq!(summarize("x.json", "{oops"), "{oops\n(1 line, 5 bytes)\n");
    }
}
