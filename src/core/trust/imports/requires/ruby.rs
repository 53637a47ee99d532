//! What a Ruby script loads from the project: `require_relative` beside
//! the script, `require "./x"` and `load` from the root, a bare
//! `require` in each `$LOAD_PATH` folder the command or a script adds.
//! Moved out of `requires.rs` (consent round 7); no change of
//! behaviour.

use super::{
    Candidates, MAX_LOAD_PATH, call_args, code_lines, file_name, leading_quoted, leading_string,
};
use crate::core::paths::lexical;
use std::path::{Path, PathBuf};

/// Ruby: what each `require_relative`, `require` and `load` names, for
/// the script `file` run from `root`; the folders it adds to
/// `$LOAD_PATH` are added to `load_path` (the process's, which the files
/// it loads share) before its bare `require`s are looked for there.
pub(in crate::core::trust::imports) fn ruby(
    text: &str,
    file: &Path,
    root: &Path,
    load_path: &mut Vec<PathBuf>,
    unknown: &mut Vec<String>,
) -> Vec<Candidates> {
    let here = file.parent().unwrap_or(root);
    // A path built of literals and the script's folder
    // (`File.join(__dir__, "x")`) is known; any other computed name is
    // a refusal.
    let built = |arg: &str| {
        let arg = arg.trim_start_matches('(').trim_start();
        arg.starts_with("File.") && ruby_dir(&format!("$: << {arg}"), file, root).is_some()
    };
    // Comments blanked by a lexer (recheck 21, item 5).
    let code = super::super::comments::blanked(text, super::super::kinds::Kind::Ruby);
    unknown.extend(super::super::run_loads::ruby_unknown(&code, built));
    for line in code_lines(text, '#') {
        let Some(at) = ["$LOAD_PATH", "$:"].iter().find_map(|v| line.find(v)) else {
            continue;
        };
        let rest = &line[at..];
        let adds = [
            "<<", ".unshift", ".push", ".prepend", ".insert", ".concat", ".append",
        ]
        .iter()
        .any(|op| rest.contains(op));
        let dir = adds.then(|| ruby_dir(rest, file, root));
        if dir == Some(None) {
            unknown.push(line.trim().chars().take(80).collect());
        }
        if let Some(dir) = dir.flatten()
            && !load_path.contains(&dir)
            && load_path.len() < MAX_LOAD_PATH
        {
            load_path.push(dir);
        }
    }
    let mut out = Vec::new();
    for line in code_lines(text, '#') {
        for (keyword, relative) in [
            ("require_relative", true),
            ("require", false),
            ("load", false),
        ] {
            for arg in call_args(line, keyword) {
                // `require 'bundler/setup'` evaluates the project's
                // Gemfile (recheck 21, item 9): covered.
                if matches!(
                    leading_string(arg),
                    Some("bundler/setup" | "bundler/inline")
                ) {
                    out.push(vec![root.join("Gemfile"), root.join("gems.rb")]);
                    // Bundler's settings may name another Gemfile
                    // (round 12): the settings and that file.
                    out.push(vec![root.join(".bundle/config")]);
                    out.extend(configured_gemfile(root).map(|g| vec![g]));
                }
                let Some(name) = leading_string(arg) else {
                    let arg = arg.trim_start_matches('(').trim_start();
                    if built(arg)
                        && let Some(path) = ruby_dir(&format!("$: << {arg}"), file, root)
                    {
                        let rb = path.with_file_name(format!("{}.rb", file_name(&path)));
                        out.push(vec![rb, path]);
                    }
                    continue;
                };
                let with_rb = |base: &Path| {
                    let path = base.join(name);
                    if name.ends_with(".rb") {
                        vec![path]
                    } else {
                        vec![
                            path.with_file_name(format!("{}.rb", file_name(&path))),
                            path,
                        ]
                    }
                };
                if relative {
                    out.push(with_rb(here));
                } else if keyword == "load" || name.starts_with("./") || name.starts_with("../") {
                    out.push(with_rb(root));
                } else if !name.starts_with('/') && !load_path.is_empty() {
                    out.push(load_path.iter().flat_map(|dir| with_rb(dir)).collect());
                }
            }
        }
    }
    out
}

/// The folder a `$LOAD_PATH` addition names (`rest` from the variable
/// on): its string from the root; from the script's folder with
/// `__dir__`, `File.dirname(__FILE__)` or `#{__dir__}`; from the script
/// itself with `File.expand_path("../lib", __FILE__)`. `None` for one
/// built otherwise.
pub(super) fn ruby_dir(rest: &str, file: &Path, root: &Path) -> Option<PathBuf> {
    let here = file.parent().unwrap_or(root);
    // Only these words may build the folder (`ENV["X"]`, a variable or
    // another call make it one known at run time only).
    const KNOWN: [&str; 13] = [
        "LOAD_PATH",
        "unshift",
        "push",
        "prepend",
        "insert",
        "concat",
        "append",
        "File",
        "expand_path",
        "join",
        "dirname",
        "__dir__",
        "__FILE__",
    ];
    let mut unquoted = String::new();
    let mut quote = None;
    for c in rest.split(';').next().unwrap_or("").chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => unquoted.push(c),
        }
    }
    let words_known = unquoted
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .all(|w| KNOWN.contains(&w));
    if !words_known {
        return None;
    }
    let string = rest
        .find(['\'', '"'])
        .and_then(|at| leading_quoted(&rest[at..]));
    let from_file = rest.contains("expand_path") && rest.contains("__FILE__");
    let from_dir = rest.contains("__dir__") || rest.contains("dirname(__FILE__)");
    let dir = match string {
        Some(s) if s.starts_with("#{__dir__}") || s.starts_with("#{File.dirname(__FILE__)}") => {
            here.join(s.split_once('}')?.1.trim_start_matches('/'))
        }
        Some(s) if s.contains("#{") || s.starts_with('/') => return None,
        Some(s) if from_file => file.join(s),
        Some(s) if from_dir => here.join(s.trim_start_matches('/')),
        Some(s) => root.join(s),
        None if from_dir => here.to_path_buf(),
        None => return None,
    };
    Some(lexical(&dir))
}

/// The Gemfile the project's `.bundle/config` names
/// (`BUNDLE_GEMFILE: "tools/Gemfile.ci"`), from the root.
fn configured_gemfile(root: &Path) -> Option<std::path::PathBuf> {
    let text = super::super::small_text(&root.join(".bundle/config"))?;
    text.lines().take(1000).find_map(|line| {
        let value = line.trim().strip_prefix("BUNDLE_GEMFILE:")?;
        let value = value.trim().trim_matches(['"', '\'']);
        (!value.is_empty() && !value.starts_with('/')).then(|| root.join(value))
    })
}
