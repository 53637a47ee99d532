//! Key-path summaries of configuration files: `a.b.c = value` for every
//! scalar (short values, long ones cut), `a.list = [N items]` for arrays.
//! TOML and JSON are parsed properly; YAML and INI are read line by line
//! (indentation and `[sections]`), which is enough to say what a file
//! configures without a parser for every dialect.

use std::fmt::Write;

use super::clip;

/// Scalar values longer than this are cut.
const SHORT_VALUE: usize = 40;
/// At most this many key paths are listed.
const MAX_KEYS: usize = 80;

pub(super) fn toml(text: &str) -> Option<String> {
    let value: toml::Table = toml::from_str(text).ok()?;
    let json = serde_json::to_value(value).ok()?;
    Some(json_paths(&json))
}

pub(super) fn json(text: &str) -> Option<String> {
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    Some(json_paths(&json))
}

fn json_paths(value: &serde_json::Value) -> String {
    let mut lines = Vec::new();
    collect_json(value, String::new(), &mut lines);
    listing(lines)
}

/// The first [`MAX_KEYS`] lines, then how many more there were.
fn listing(mut lines: Vec<String>) -> String {
    let total = lines.len();
    lines.truncate(MAX_KEYS);
    let mut out = lines.join("\n");
    if total > MAX_KEYS {
        let _ = write!(out, "\n… {} more keys", total - MAX_KEYS);
    }
    out
}

fn collect_json(value: &serde_json::Value, prefix: String, out: &mut Vec<String>) {
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
                collect_json(v, key, out);
            }
        }
        Value::Array(items) => out.push(format!("{prefix} = [{}]", items_word(items.len()))),
        Value::String(s) => out.push(format!("{prefix} = {:?}", clip(s, SHORT_VALUE))),
        other => out.push(format!("{prefix} = {other}")),
    }
}

fn items_word(n: usize) -> String {
    if n == 1 {
        "1 item".into()
    } else {
        format!("{n} items")
    }
}

/// A scalar as written, cut to [`SHORT_VALUE`] characters.
fn short(value: &str) -> String {
    let v = value.trim();
    let cut = clip(v, SHORT_VALUE);
    if cut.len() < v.len() {
        format!("{cut}…")
    } else {
        cut.to_string()
    }
}

/// YAML, line by line: `key:` opens a nesting level (by indentation),
/// `key: value` is a scalar, `- item` lines under a key count as its
/// array. Comments, documents markers and block scalars' bodies are
/// skipped. `None` when no key was found (not YAML after all).
pub(super) fn yaml(text: &str) -> Option<String> {
    // (indent, key) of the open levels; the array length of the latest key.
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let mut array: Option<(usize, String, usize)> = None; // (line index, path, count)
    let mut block_indent: Option<usize> = None;
    for raw in text.lines() {
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
            continue;
        }
        if let Some(b) = block_indent {
            if indent > b {
                continue;
            }
            block_indent = None;
        }
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or((trimmed == "-").then_some(""))
        {
            if let Some((at, path, n)) = &mut array
                && stack.last().is_some_and(|(i, _)| *i < indent)
            {
                *n += 1;
                lines[*at] = format!("{path} = [{}]", items_word(*n));
            }
            let _ = item;
            continue;
        }
        let Some((key, value)) = split_key(trimmed, ':') else {
            continue;
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let path = join_path(stack.iter().map(|(_, k)| k.as_str()), key);
        let value = value.trim();
        if value.is_empty() {
            // A mapping or a list follows; a list makes this line its count.
            lines.push(format!("{path}:"));
            array = Some((lines.len() - 1, path.clone(), 0));
            stack.push((indent, key.to_string()));
        } else {
            if value.starts_with('|') || value.starts_with('>') {
                block_indent = Some(indent);
                lines.push(format!("{path} = (text block)"));
            } else {
                lines.push(format!("{path} = {}", short(value)));
            }
            array = None;
        }
    }
    // A key that opened a mapping says nothing by itself.
    lines.retain(|l| !l.ends_with(':'));
    (!lines.is_empty()).then(|| listing(lines))
}

/// INI: `[section]` headers and `key = value` / `key: value` lines, as
/// `section.key = value`. `None` when no key was found.
pub(super) fn ini(text: &str) -> Option<String> {
    let mut section = String::new();
    let mut lines = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = name.trim().to_string();
            continue;
        }
        if raw.starts_with([' ', '\t']) {
            // A continuation of the previous value.
            continue;
        }
        let sep = match (line.find('='), line.find(':')) {
            (Some(a), Some(b)) => {
                if a < b {
                    '='
                } else {
                    ':'
                }
            }
            (Some(_), None) => '=',
            (None, Some(_)) => ':',
            (None, None) => continue,
        };
        if let Some((key, value)) = split_key(line, sep) {
            let path = join_path(std::iter::once(section.as_str()), key);
            lines.push(format!("{path} = {}", short(value)));
        }
    }
    (!lines.is_empty()).then(|| listing(lines))
}

/// `key<sep> value` with a plausible key (no spaces inside, not quoted
/// prose), or `None`.
fn split_key(line: &str, sep: char) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(sep)?;
    let key = key.trim().trim_matches(['"', '\'']);
    let plausible = !key.is_empty()
        && key.len() <= 80
        && !key.contains(char::is_whitespace)
        && (sep != ':' || value.is_empty() || value.starts_with([' ', '\t']));
    plausible.then_some((key, value))
}

/// `a.b.key` from the non-empty parents and the key.
fn join_path<'a>(parents: impl Iterator<Item = &'a str>, key: &str) -> String {
    let mut out = String::new();
    for p in parents.filter(|p| !p.is_empty()) {
        out.push_str(p);
        out.push('.');
    }
    out.push_str(key);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_nesting_lists_and_blocks() {
        let src = "# comment\nname: demo\nserver:\n  host: example.org\n  ports:\n    - 80\n    - 443\n  motd: |\n    hello: not a key\n    there\ndebug: true\n";
        assert_eq!(
            yaml(src).unwrap(),
            "name = demo\nserver.host = example.org\nserver.ports = [2 items]\nserver.motd = (text block)\ndebug = true"
        );
        assert_eq!(yaml("just prose, no keys here\n"), None);
    }

    #[test]
    fn ini_sections_and_keys() {
        let src = "; c\n[core]\neditor = vim\nname: x\n  continued\n[remote \"origin\"]\nurl = https://example.org/a/very/long/path/that/goes/on/and/on.git\n";
        assert_eq!(
            ini(src).unwrap(),
            "core.editor = vim\ncore.name = x\nremote \"origin\".url = https://example.org/a/very/long/path/tha…"
        );
    }

    #[test]
    fn toml_and_json_paths() {
        assert_eq!(
            toml("[a]\nx = 1\nlist = [1]\n").unwrap(),
            "a.list = [1 item]\na.x = 1"
        );
        assert_eq!(json("{\"a\": {}}").unwrap(), "a = {}");
        assert_eq!(json("{oops"), None);
    }
}
