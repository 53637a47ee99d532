//! The kind of config file a text without a file name reads as (round 19):
//! the rules limited to some kinds of file (an INI file's indented values,
//! a `.properties` value after a blank, a Make target's variable, YAML's
//! and TOML's own syntax) run on a file by its name, and a text with no
//! name (a discussion message, a file going to the summary command under a
//! name that says nothing) would pass them all. Such a text is given the
//! kind its lines show, and so is each fenced block of it (its info string,
//! `ini`, `yaml`, …, or else its lines). A text of prose or code shows
//! none, and only the rules for every file run on it, as before.

use std::ops::Range;
use std::sync::OnceLock;

use regex::Regex;

/// How many of a text's lines are read to tell its kind.
const LINES: usize = 400;

/// A name standing for a text of the kind its lines show (`sniffed.ini`),
/// for [`super::RuleSet::scan_file`]; `None` when they show none.
pub(super) fn kind(text: &str) -> Option<&'static str> {
    let lines: Vec<&str> = text
        .lines()
        .take(LINES)
        .map(str::trim_end)
        .filter(|l| {
            let t = l.trim_start();
            !t.is_empty() && !t.starts_with(['#', ';', '!']) && !t.starts_with("//")
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    let share =
        |re: &Regex| lines.iter().filter(|l| re.is_match(l)).count() * 10 >= lines.len() * 7;
    let p = patterns();
    let first = lines[0].trim_start();
    if first.starts_with("<?xml") || first.starts_with("<properties") {
        return Some("sniffed.xml");
    }
    if lines.iter().any(|l| p.section.is_match(l)) && share(&p.ini) {
        let toml = text.contains("\"\"\"") || text.contains("'''");
        return Some(if toml { "sniffed.toml" } else { "sniffed.ini" });
    }
    if lines.iter().any(|l| p.target.is_match(l)) && lines.iter().any(|l| l.starts_with('\t')) {
        return Some("Makefile");
    }
    if lines.iter().any(|l| p.code_end.is_match(l)) {
        return None;
    }
    if share(&p.properties) {
        return Some("sniffed.properties");
    }
    if first == "---" || share(&p.yaml) {
        return Some("sniffed.yaml");
    }
    None
}

/// Extensions that say what a file is: code, prose (`.txt` notes are
/// prose: a config kind's rules stay off them), data, and the kinds of
/// config the rules know by name. A file with another (`.local`,
/// `.bak`, `.production`) or none says nothing of its kind.
const TELLING: [&str; 65] = [
    "py",
    "pyi",
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hh",
    "hpp",
    "hxx",
    "rs",
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "cjs",
    "go",
    "java",
    "cs",
    "sh",
    "bash",
    "zsh",
    "php",
    "kt",
    "kts",
    "swift",
    "rb",
    "rake",
    "gemspec",
    "lua",
    "pl",
    "pm",
    "scala",
    "dart",
    "vue",
    "svelte",
    "sql",
    "md",
    "markdown",
    "txt",
    "log",
    "adoc",
    "rst",
    "html",
    "htm",
    "css",
    "scss",
    "json",
    "jsonc",
    "csv",
    "tsv",
    "svg",
    "ipynb",
    "tex",
    "ini",
    "cfg",
    "conf",
    "cnf",
    "yaml",
    "yml",
    "toml",
    "xml",
    "properties",
    "mk",
];

/// The name the file at `path` is read under besides its own when its name
/// says nothing of its kind and its lines show one (round 22): its path
/// with that kind's extension (`deploy/production.yaml`), so the rules
/// for the kind run and what the path says (a test's fixture) still holds.
pub(super) fn named_kind(path: &str, text: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name.eq_ignore_ascii_case("makefile") {
        return None;
    }
    let telling = name
        .rsplit_once('.')
        .filter(|(stem, _)| !stem.is_empty())
        .is_some_and(|(_, ext)| TELLING.contains(&ext.to_ascii_lowercase().as_str()));
    if telling {
        return None;
    }
    let kind = kind(text)?;
    let ext = kind
        .rsplit_once('.')
        .map_or(".mk", |(_, ext)| &kind[kind.len() - ext.len() - 1..]);
    Some(format!("{path}{ext}"))
}

/// A fenced block of a Markdown text (```` ```ini ````): its body and the
/// name its info string or its lines give it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Block {
    pub body: Range<usize>,
    pub name: &'static str,
}

/// The fenced blocks of `text` that are of a kind of config file.
pub(super) fn blocks(text: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<(usize, &str, &str)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let trimmed = line.trim();
        let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
        match (open, fence) {
            (None, Some(f)) => open = Some((at, f, trimmed[f.len()..].trim())),
            (Some((body, f, info)), Some(g))
                if f == g && trimmed.trim_start_matches(g).is_empty() =>
            {
                let name = by_info(info).or_else(|| kind(&text[body..start]));
                if let Some(name) = name {
                    found.push(Block {
                        body: body..start,
                        name,
                    });
                }
                open = None;
            }
            _ => {}
        }
    }
    found
}

/// The name a fence's info string (`ini`, `yaml title="app.yml"`) gives.
fn by_info(info: &str) -> Option<&'static str> {
    let word = info
        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
        .next()?
        .to_ascii_lowercase();
    Some(match word.as_str() {
        "ini" | "cfg" | "conf" | "dosini" | "cnf" => "sniffed.ini",
        "properties" | "props" | "java-properties" => "sniffed.properties",
        "make" | "makefile" | "mk" => "Makefile",
        "yaml" | "yml" => "sniffed.yaml",
        "toml" => "sniffed.toml",
        "xml" => "sniffed.xml",
        _ => return None,
    })
}

/// The line shapes of each kind.
struct Patterns {
    /// An INI section (`[db]`, `[client "x"]`).
    section: Regex,
    /// An INI line: a section, a `key = value`, or an indented one.
    ini: Regex,
    /// A Make rule (`deploy: build`, not `X := y`).
    target: Regex,
    /// A `.properties` line: a dotted key and its value.
    properties: Regex,
    /// A YAML line: a `key:`, a list item, or an indented value.
    yaml: Regex,
    /// A line as code ends one (`;`, a brace or a parenthesis): no
    /// config of these kinds.
    code_end: Regex,
}

fn patterns() -> &'static Patterns {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        // The patterns are constants of this file, tested below: a
        // failure is a build defect, not bad input.
        let re = |p: &str| Regex::new(p).expect("a valid sniffing pattern");
        Patterns {
            section: re(r#"^[ \t]*\[[A-Za-z0-9_. "'-]+\][ \t]*$"#),
            ini: re(r#"^(?:[ \t]*\[[A-Za-z0-9_. "'-]+\][ \t]*|[ \t]*[A-Za-z0-9_.-]+(?:[ \t]+[A-Za-z0-9_.-]+)*[ \t]*[=:].*|[ \t]+\S.*)$"#),
            target: re(r"^[A-Za-z0-9_./%$() -]+::?(?:[ \t]|$)"),
            properties: re(r"^[ \t]*[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+[ \t]*(?:[=:]|[ \t])[ \t]*\S"),
            yaml: re(r#"^(?:[ \t]*(?:-[ \t]+)?(?:[A-Za-z0-9_.-]+|"[^"]*"|'[^']*')[ \t]*:(?:[ \t].*)?|[ \t]*-(?:[ \t].*)?|[ \t]+\S.*)$"#),
            code_end: re(r"[;{}()]\s*$|^\s*[)}\]]"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_texts_show_their_kind() {
        for (text, want) in [
            ("[db]\n  password = x\nhost = h\n", "sniffed.ini"),
            ("; c\n[client]\nuser=u\n", "sniffed.ini"),
            ("[db]\npassword = \"\"\"v\"\"\"\n", "sniffed.toml"),
            ("db.password Tq8\ndb.user = app\n", "sniffed.properties"),
            ("deploy: DB_PASSWORD := v\n\t./deploy.sh\n", "Makefile"),
            ("db:\n  password: &pw v\n  user: app\n", "sniffed.yaml"),
            ("---\nkey: v\n", "sniffed.yaml"),
            ("<?xml version=\"1.0\"?>\n<properties/>\n", "sniffed.xml"),
        ] {
            assert_eq!(kind(text), Some(want), "{text:?}");
        }
    }

    #[test]
    fn prose_and_code_show_none() {
        for text in [
            "The build failed: the password is wrong.\nTry again later.\n",
            "def f(x):\n    return x\n",
            "fn main() {\n    let x = 1;\n}\n",
            "if x:\n    y = f(password=p)\nelse:\n    pass\n",
            "",
        ] {
            assert_eq!(kind(text), None, "{text:?}");
        }
    }

    #[test]
    fn fenced_blocks_are_named_by_info_or_lines() {
        let text = "See:\n```ini\n[db]\n  password = v\n```\nand\n```\nkey: v\nother: w\n```\n```python\nx = 1\n```\n";
        let got: Vec<(&str, &str)> = blocks(text)
            .into_iter()
            .map(|b| (&text[b.body], b.name))
            .collect();
        assert_eq!(
            got,
            vec![
                ("[db]\n  password = v\n", "sniffed.ini"),
                ("key: v\nother: w\n", "sniffed.yaml"),
            ]
        );
    }
}
