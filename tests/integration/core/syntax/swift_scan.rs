//! Swift symbols against a line scan, on the Swift that React Native
//! modules ship for iOS (`expo-modules-core`, `expo-image`,
//! `expo-notifications`, unpacked by `.ci/run` into
//! `target/corpora/npm/NAME/`). This machine's universal-ctags (5.9) has
//! no Swift parser, so the oracle is a scan written here, independent of
//! tree-sitter: comments and string literals blanked (nested block
//! comments, `"""` strings, `#"raw"#` strings, interpolation), then every
//! line whose first word after attributes and modifiers is `func`,
//! `class`, `struct`, `enum`, `protocol`, `extension`, `actor`,
//! `typealias`, `init`, `deinit` or `subscript` is a declaration, named by
//! the word after the keyword (`init`, `deinit`, `subscript` by the
//! keyword). Each must be a symbol of that name whose lines contain the
//! declaration's line (≥ 98% per project, the issue's target); the
//! skeleton of a file that parses cleanly parses cleanly, no skeleton is
//! larger than its file, and a project's skeletons are smaller than it.
//!
//! `CTXCURATE_SLOW_TESTS=1 cargo test --test integration swift_scan --
//! --nocapture` prints the table and the first misses.

use std::path::{Path, PathBuf};

use ctxcurate::core::syntax::{self, Lang, SymbolTree};

use crate::common::{corpus, machine};

/// The issue's recall target.
const RECALL_TARGET: f64 = 98.0;

/// Words that may stand before a declaration's keyword.
const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "fileprivate",
    "internal",
    "open",
    "package",
    "static",
    "final",
    "override",
    "mutating",
    "nonmutating",
    "convenience",
    "required",
    "optional",
    "lazy",
    "weak",
    "unowned",
    "dynamic",
    "nonisolated",
    "indirect",
    "prefix",
    "postfix",
    "infix",
    "distributed",
    "consuming",
    "borrowing",
];

/// The keywords that start a declaration the symbols must show.
const KEYWORDS: &[&str] = &[
    "func",
    "class",
    "struct",
    "enum",
    "protocol",
    "extension",
    "actor",
    "typealias",
    "init",
    "deinit",
    "subscript",
];

/// `source` with comments and the insides of string literals replaced by
/// spaces (line breaks kept, so line numbers hold).
fn blank_comments_and_strings(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    // Open string literals: (pounds of a raw string, multi-line), and the
    // parenthesis depth of each interpolation `\( ... )` we are inside.
    let mut strings: Vec<(usize, bool)> = Vec::new();
    let mut interpolations: Vec<usize> = Vec::new();
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let rest = &chars[i..];
        let starts = |s: &str| rest.iter().take(s.len()).copied().eq(s.chars());
        let in_string = strings.len() > interpolations.len();
        if in_string {
            let (pounds, multi) = strings[strings.len() - 1];
            let close: String =
                if multi { "\"\"\"" } else { "\"" }.to_string() + &"#".repeat(pounds);
            let escape = format!("\\{}", "#".repeat(pounds));
            if starts(&close) {
                strings.pop();
                out.push_str(&close);
                i += close.chars().count();
            } else if starts(&format!("{escape}(")) {
                interpolations.push(0);
                out.push_str(&format!("{escape}("));
                i += escape.chars().count() + 1;
            } else if starts(&escape) && rest.len() > escape.len() {
                out.push(' ');
                out.push(blank(rest[escape.chars().count()]));
                i += escape.chars().count() + 1;
            } else {
                out.push(blank(rest[0]));
                i += 1;
            }
            continue;
        }
        if starts("//") {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
            continue;
        }
        if starts("/*") {
            let mut depth = 0;
            while i < chars.len() {
                let r = &chars[i..];
                if r.starts_with(&['/', '*']) {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if r.starts_with(&['*', '/']) {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(r[0]));
                    i += 1;
                }
            }
            continue;
        }
        let pounds = rest.iter().take_while(|c| **c == '#').count();
        if rest.get(pounds) == Some(&'"') {
            let multi = rest[pounds..].starts_with(&['"', '"', '"']);
            let open = pounds + if multi { 3 } else { 1 };
            out.extend(rest[..open].iter());
            i += open;
            strings.push((pounds, multi));
            continue;
        }
        if let Some(depth) = interpolations.last_mut() {
            match rest[0] {
                '(' => *depth += 1,
                ')' if *depth == 0 => {
                    interpolations.pop();
                }
                ')' => *depth -= 1,
                _ => {}
            }
        }
        out.push(rest[0]);
        i += 1;
    }
    out
}

/// The declaration a (blanked) line starts, as (keyword, name).
fn declaration(line: &str) -> Option<(&'static str, String)> {
    let mut rest = line.trim_start();
    loop {
        if let Some(attribute) = rest.strip_prefix('@') {
            // `@objc`, `@MainActor`, `@available(iOS 13, *)`.
            let word_end = attribute
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(attribute.len());
            rest = &attribute[word_end..];
            if let Some(args) = rest.strip_prefix('(') {
                rest = &args[args.find(')')? + 1..];
            }
            rest = rest.trim_start();
            continue;
        }
        let word_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let word = &rest[..word_end];
        let after = rest[word_end..].trim_start();
        // `private(set)`, `unowned(unsafe)`.
        let after = match after.strip_prefix('(') {
            Some(args) if MODIFIERS.contains(&word) => args[args.find(')')? + 1..].trim_start(),
            _ => after,
        };
        let next = after
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        // `class func`, `class var`: `class` as a modifier.
        let class_modifier = word == "class" && !next.is_empty() && !is_type_name(next);
        if MODIFIERS.contains(&word) || class_modifier {
            rest = after;
            continue;
        }
        let keyword = *KEYWORDS.iter().find(|k| **k == word)?;
        let name = match keyword {
            "init" | "deinit" | "subscript" => keyword.to_string(),
            // A name in backticks may hold anything (Swift 6 test names).
            "func" if after.starts_with('`') => after[1..].split('`').next()?.to_string(),
            "func" => after
                .split(|c: char| c == '(' || c == '<' || c.is_whitespace())
                .next()?
                .to_string(),
            _ if keyword == "extension" => after
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .next()?
                .to_string(),
            _ => next.to_string(),
        };
        return (!name.is_empty()).then_some((keyword, name));
    }
}

/// Whether a word after `class` names a class rather than being a
/// declaration keyword (`class func`, `class var`, `class let`).
fn is_type_name(word: &str) -> bool {
    !matches!(
        word,
        "func"
            | "var"
            | "let"
            | "subscript"
            | "override"
            | "final"
            | "public"
            | "private"
            | "open"
            | "internal"
            | "fileprivate"
            | "static"
    )
}

/// Every declaration of `source` the scan finds: (1-based line, name).
fn declarations(source: &str) -> Vec<(usize, String)> {
    blank_comments_and_strings(source)
        .lines()
        .enumerate()
        .filter_map(|(i, line)| declaration(line).map(|(_, name)| (i + 1, name)))
        .collect()
}

/// Whether a symbol of this name holds the line (its start at most 2
/// lines after it, as in the ctags comparison).
fn found(tree: &SymbolTree, line: usize, name: &str) -> bool {
    tree.iter()
        .any(|s| s.name == name && s.start_line <= line + 2 && line <= s.end_line)
}

#[test]
fn the_scan_reads_declarations_and_skips_comments_and_strings() {
    let source = r##"
/* block /* nested */ func inComment() {} */
let s = "func inString() {}"
let r = #"func inRaw() \(x)"#
let m = """
    class InMultiLine {}
    """
@objc(Name) public final class Shown: NSObject {
  @available(iOS 13, *)
  public class func classMethod() {}
  private(set) static func + (a: A, b: A) -> A { a }
  required init?(coder: NSCoder) {}
  let x = "\(value.map { "func nope()" })" ; func afterInterpolation() {}
}
extension Foo.Bar: P {}
func `emit: no payload`() {}
"##;
    let found: Vec<String> = declarations(source)
        .into_iter()
        .map(|(line, name)| format!("{line} {name}"))
        .collect();
    assert_eq!(
        found,
        [
            "8 Shown",
            "10 classMethod",
            "11 +",
            "12 init",
            "15 Foo.Bar",
            "16 emit: no payload"
        ]
    );
}

struct Score {
    files: usize,
    noted: usize,
    declarations: usize,
    recalled: usize,
    misses: Vec<String>,
    bad_skeletons: Vec<String>,
    /// The project's size, and its skeletons'.
    bytes: usize,
    skeleton_bytes: usize,
}

fn score(dir: &Path) -> Score {
    let files = corpus::files_under(dir, &|p: &Path| p.extension().is_some_and(|e| e == "swift"));
    let (sources, _) = corpus::read_sources(&files);
    let mut s = Score {
        files: 0,
        noted: 0,
        declarations: 0,
        recalled: 0,
        misses: Vec::new(),
        bad_skeletons: Vec::new(),
        bytes: 0,
        skeleton_bytes: 0,
    };
    for (path, text) in &sources {
        let short = Path::new(path).strip_prefix(dir).unwrap_or(Path::new(path));
        let tree = syntax::parse(Lang::Swift, text);
        s.files += 1;
        s.noted += usize::from(tree.has_errors);
        let skeleton = syntax::skeleton(&tree, text);
        let worse = !tree.has_errors && syntax::parse(Lang::Swift, &skeleton).has_errors;
        s.bytes += text.len();
        s.skeleton_bytes += skeleton.len();
        if worse || skeleton.len() > text.len() {
            s.bad_skeletons.push(short.display().to_string());
        }
        for (line, name) in declarations(text) {
            s.declarations += 1;
            if found(&tree, line, &name) {
                s.recalled += 1;
            } else {
                s.misses.push(format!("{}:{line} {name}", short.display()));
            }
        }
    }
    s
}

#[test]
fn swift_declarations_are_symbols_and_skeletons_reparse() {
    let Some(npm) = machine::downloaded("npm") else {
        return;
    };
    let projects: [(&str, PathBuf); 3] = [
        (
            "expo-modules-core",
            npm.join("expo-modules-core/package/ios"),
        ),
        ("expo-image", npm.join("expo-image/package/ios")),
        (
            "expo-notifications",
            npm.join("expo-notifications/package/ios"),
        ),
    ];
    println!(
        "{:<20} {:>5} {:>6} {:>8} {:>6} {:>9} {:>9}",
        "project", "files", "decls", "recall", "noted", "bad skel.", "skeleton"
    );
    let mut failures = Vec::new();
    for (name, dir) in projects {
        let s = score(&dir);
        if s.files == 0 {
            failures.push(format!(
                "{name}: no Swift under {} (.ci/run)",
                dir.display()
            ));
            continue;
        }
        let recall = 100.0 * s.recalled as f64 / s.declarations.max(1) as f64;
        let share = 100.0 * s.skeleton_bytes as f64 / s.bytes.max(1) as f64;
        println!(
            "{:<20} {:>5} {:>6} {:>7.2}% {:>6} {:>9} {:>8.1}%",
            name,
            s.files,
            s.declarations,
            recall,
            s.noted,
            s.bad_skeletons.len(),
            share
        );
        if s.skeleton_bytes >= s.bytes {
            failures.push(format!("{name}: skeletons not smaller than the sources"));
        }
        if !s.misses.is_empty() {
            let head: Vec<&str> = s.misses.iter().take(12).map(String::as_str).collect();
            println!("  {} missed: {}", s.misses.len(), head.join(", "));
        }
        if recall < RECALL_TARGET {
            failures.push(format!("{name}: recall {recall:.2}% < {RECALL_TARGET}%"));
        }
        if !s.bad_skeletons.is_empty() {
            failures.push(format!(
                "{name}: skeletons worse than the file: {}",
                s.bad_skeletons.join(", ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
