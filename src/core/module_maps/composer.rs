//! PHP's class names and composer's autoload maps: the class names of
//! `use` statements (`use A\B\C;`, `use A\B\{C, D as E};`), and the
//! files the `autoload`/`autoload-dev` maps of a project's
//! `composer.json` files place them in (PSR-4, and PSR-0 whose class
//! names map underscores to folders). `use function`/`use const` name
//! functions and constants, which no autoload map places, and are left
//! out; so are closures' `use ($x)`.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::{join, manifests, parent, read_resolver_config};

/// The class names `use` statements import, fully qualified without the
/// leading `\`.
pub fn use_names(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement: Option<String> = None;
    for line in source.lines() {
        let code = line.split("//").next().unwrap_or(line);
        if let Some(open) = statement.as_mut() {
            open.push(' ');
            open.push_str(code);
        } else {
            let t = code.trim_start();
            match t.strip_prefix("use ") {
                Some(rest) if !rest.trim_start().starts_with(['(', '$']) => {
                    statement = Some(rest.to_string());
                }
                _ => continue,
            }
        }
        if let Some(text) = statement.take_if(|s| s.contains(';')) {
            let body = text.split(';').next().unwrap_or("").trim();
            if body.starts_with("function ") || body.starts_with("const ") {
                continue;
            }
            names(body, &mut out);
        } else if statement.as_ref().is_some_and(|s| s.len() > 4096) {
            statement = None;
        }
    }
    out
}

/// The names of one `use` body: `A\B`, `A\B as C`, `A\{B, C\D}`, `A, B`.
fn names(body: &str, out: &mut Vec<String>) {
    let clean = |name: &str| {
        let name = name.split(" as ").next().unwrap_or(name).trim();
        let name = name.trim_start_matches('\\');
        let ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '\\');
        ok.then(|| name.to_string())
    };
    if let Some((head, group)) = body.split_once('{') {
        let head = head.trim().trim_end_matches('\\');
        for item in group.trim_end_matches('}').split(',') {
            let item = item.trim();
            // `use A\{function f, const C}` inside a group.
            if item.is_empty() || item.starts_with("function ") || item.starts_with("const ") {
                continue;
            }
            out.extend(clean(&format!("{head}\\{item}")));
        }
    } else {
        out.extend(body.split(',').filter_map(clean));
    }
}

/// The autoload maps of the project's `composer.json` files: namespace
/// prefix (with its trailing `\`) to folders, root-relative.
#[derive(Debug, Default)]
pub struct Autoload {
    /// PSR-4, the longest prefix first.
    psr4: Vec<(String, Vec<String>)>,
    /// PSR-0, the longest prefix first.
    psr0: Vec<(String, Vec<String>)>,
    /// What a bound cut ([`super::MAX_MANIFESTS`], [`MAX_PREFIXES`],
    /// [`MAX_FOLDERS`]), for the user to hear about.
    pub limits: Vec<String>,
}

impl Autoload {
    /// Read the `composer.json` files among `files` outside `vendor/` (as
    /// many as [`manifests`] allows); one that does not parse is skipped.
    /// A prefix several files name is one prefix, as in composer's class
    /// loader, with the folders of all of them.
    pub fn read(root: &Path, files: &[String]) -> Self {
        let mut autoload = Autoload::default();
        let read = manifests(files, &["composer.json"], "vendor", &mut autoload.limits);
        for f in read {
            let Some(value): Option<Value> = read_resolver_config(root, f, &mut autoload.limits)
                .and_then(|t| serde_json::from_str(&t).ok())
            else {
                continue;
            };
            let dir = parent(f);
            for section in ["autoload", "autoload-dev"] {
                let section = value.get(section);
                for (standard, into) in
                    [("psr-4", &mut autoload.psr4), ("psr-0", &mut autoload.psr0)]
                {
                    let map = section.and_then(|s| s.get(standard));
                    let (found, cut) = prefixes(dir, map);
                    into.extend(found);
                    autoload
                        .limits
                        .extend(cut.map(|cut| format!("{f}: {standard}: {cut}")));
                }
            }
        }
        for (standard, map) in [("psr-4", &mut autoload.psr4), ("psr-0", &mut autoload.psr0)] {
            *map = merged(std::mem::take(map), standard, &mut autoload.limits);
            map.sort_by_key(|(prefix, _)| std::cmp::Reverse(prefix.len()));
        }
        autoload
    }

    /// A class name's candidate files, in the order the autoloader tries
    /// them: under the folders of each matching PSR-4 prefix, the longest
    /// first (`A\B\C` with `A\` in `src/` is `src/B/C.php`), then of
    /// PSR-0 (`src/A/B/C.php`, `_` in the class name a folder); and
    /// whether a prefix of the project other than the fallback `""` named
    /// it (then a name with no file is the project's, not a dependency's).
    pub fn candidates(&self, class: &str) -> (Vec<String>, bool) {
        let mut named = false;
        let mut out = Vec::new();
        for (prefix, dirs) in &self.psr4 {
            let Some(rest) = class.strip_prefix(prefix.as_str()) else {
                continue;
            };
            // The fallback prefix `""` takes any class: one it does not
            // find is a dependency's, not a missing project file.
            named |= !prefix.is_empty();
            let rel = format!("{}.php", rest.replace('\\', "/"));
            out.extend(dirs.iter().map(|d| join(d, &rel)));
        }
        for (prefix, dirs) in &self.psr0 {
            if !class.starts_with(prefix.as_str()) {
                continue;
            }
            named |= !prefix.is_empty();
            let (namespace, name) = class.rsplit_once('\\').unwrap_or(("", class));
            let mut rel = namespace.replace('\\', "/");
            rel = join(&rel, &format!("{}.php", name.replace('_', "/")));
            out.extend(dirs.iter().map(|d| join(d, &rel)));
        }
        (out, named)
    }
}

/// At most this many prefixes of one map, and folders of one prefix, are
/// read: real `composer.json` files hold a few, and each class name is
/// looked for in every folder of its prefix (a `""` over 120,000 folders
/// took minutes).
const MAX_PREFIXES: usize = 1_000;
const MAX_FOLDERS: usize = 16;

/// At most this many prefixes of one standard in all the files read:
/// every class name is tried against each (2,000 files of 1,000 prefixes
/// would be 2 million).
const MAX_ALL_PREFIXES: usize = 10 * MAX_PREFIXES;

/// The prefixes of `map` (of every file read) with one entry per prefix,
/// in first-seen order, the first [`MAX_ALL_PREFIXES`], each holding at
/// most [`MAX_FOLDERS`] folders in all; what that cuts is named in
/// `limits`. Thousands of files each naming `""` gave every class name a
/// candidate per file (recheck 22, F3).
fn merged(
    map: Vec<(String, Vec<String>)>,
    standard: &str,
    limits: &mut Vec<String>,
) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut totals: Vec<usize> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut left_out = 0;
    for (prefix, folders) in map {
        let i = match at.get(&prefix) {
            Some(i) => *i,
            None if out.len() == MAX_ALL_PREFIXES => {
                left_out += 1;
                continue;
            }
            None => {
                at.insert(prefix.clone(), out.len());
                out.push((prefix, Vec::new()));
                totals.push(0);
                out.len() - 1
            }
        };
        totals[i] += folders.len();
        let room = MAX_FOLDERS.saturating_sub(out[i].1.len());
        out[i].1.extend(folders.into_iter().take(room));
    }
    if left_out > 0 {
        limits.push(format!(
            "composer.json files: {standard}: more than {MAX_ALL_PREFIXES} prefixes in all; \
             {left_out} more are not read"
        ));
    }
    if let Some(((prefix, _), count)) = out.iter().zip(&totals).find(|(_, n)| **n > MAX_FOLDERS) {
        limits.push(format!(
            "composer.json files: {standard}: prefix `{}` names {count} folders; only the \
             first {MAX_FOLDERS} of a prefix are read",
            prefix.replace('\\', "\\\\"),
        ));
    }
    out
}

/// The prefixes of one `psr-4`/`psr-0` map (`"A\\": "src/"` or a list of
/// folders), folders relative to the root; folders that leave it dropped.
/// Past the bounds the rest is left out, and said in the second value.
fn prefixes(dir: &str, map: Option<&Value>) -> (Vec<(String, Vec<String>)>, Option<String>) {
    let Some(map) = map.and_then(Value::as_object) else {
        return (Vec::new(), None);
    };
    let mut cut = (map.len() > MAX_PREFIXES).then(|| {
        format!(
            "{} prefixes; only the first {MAX_PREFIXES} are read",
            map.len()
        )
    });
    let found = map
        .iter()
        .take(MAX_PREFIXES)
        .map(|(prefix, folders)| {
            let folders: Vec<&str> = match folders {
                Value::String(s) => vec![s.as_str()],
                Value::Array(items) => {
                    if items.len() > MAX_FOLDERS && cut.is_none() {
                        cut = Some(format!(
                            "prefix `{}` names {} folders; only the first {MAX_FOLDERS} \
                             of a prefix are read",
                            prefix.replace('\\', "\\\\"),
                            items.len()
                        ));
                    }
                    items
                        .iter()
                        .filter_map(Value::as_str)
                        .take(MAX_FOLDERS)
                        .collect()
                }
                _ => Vec::new(),
            };
            let folders = folders
                .into_iter()
                .filter_map(|f| super::join_rel(dir, f.trim_end_matches('/')))
                .collect();
            (prefix.trim_start_matches('\\').to_string(), folders)
        })
        // A prefix whose folders all leave the root (or are not strings)
        // places nothing.
        .filter(|(_, folders): &(String, Vec<String>)| !folders.is_empty())
        .collect();
    (found, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thousands of nested `composer.json` files, each with PSR-4 `""`
    /// (recheck 22, F3: `map` took 35 s at 8,000, with no note): as many
    /// are read as `package.json` files, with the same note, and a prefix
    /// they share keeps [`MAX_FOLDERS`] folders in all, not one per file.
    #[test]
    fn composer_files_past_the_cap_are_left_out_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let count = 2001;
        let mut files = Vec::new();
        for i in 0..count {
            std::fs::create_dir_all(dir.path().join(format!("pk/{i}"))).unwrap();
            let file = format!("pk/{i}/composer.json");
            std::fs::write(
                dir.path().join(&file),
                format!(
                    "{{\"autoload\": {{\"psr-4\": {{\"W{i}\\\\\": \"src/\", \"\": \"../{}/src/\"}}}}}}",
                    (i + 1) % count
                ),
            )
            .unwrap();
            files.push(file);
        }
        let a = Autoload::read(dir.path(), &files);
        assert!(
            a.limits.contains(
                &"the project holds 2001 composer.json files; only the first 2000 are read"
                    .to_string()
            ),
            "{:?}",
            a.limits
        );
        assert_eq!(a.candidates("W5\\X").0[0], "pk/5/src/X.php");
        assert_eq!(a.candidates("W1999\\X").0[0], "pk/1999/src/X.php");
        // The 2001st file is not read: its prefix names nothing.
        let (candidates, named) = a.candidates("W2000\\X");
        assert!(!named);
        // Every file's `""`: one prefix, its first 16 folders.
        assert_eq!(candidates.len(), MAX_FOLDERS, "{candidates:?}");
        assert_eq!(candidates[0], "pk/1/src/W2000/X.php");
        assert!(
            a.limits
                .iter()
                .any(|l| l.contains("prefix `` names 2000 folders; only the first 16")),
            "{:?}",
            a.limits
        );
    }

    /// Prefixes past [`MAX_ALL_PREFIXES`] over all files are left out,
    /// with a note; a prefix already kept still gains folders.
    #[test]
    fn prefixes_of_all_files_are_bounded() {
        let many = |from: usize| -> Vec<(String, Vec<String>)> {
            (from..from + MAX_ALL_PREFIXES)
                .map(|i| (format!("P{i}\\"), vec![format!("d{i}")]))
                .collect()
        };
        let mut map = many(0);
        map.extend(many(5));
        let mut limits = Vec::new();
        let out = merged(map, "psr-4", &mut limits);
        assert_eq!(out.len(), MAX_ALL_PREFIXES);
        assert_eq!(out[7].1, ["d7", "d7"]);
        assert_eq!(
            limits,
            ["composer.json files: psr-4: more than 10000 prefixes in all; 5 more are not read"]
        );
    }

    #[test]
    fn use_statements_name_classes() {
        let src = "<?php\nnamespace App;\n\nuse Symfony\\Component\\Console\\Command\\Command;\n\
                   use App\\Model\\{User, Role as R};\nuse \\Psr\\Log\\LoggerInterface as Log, App\\Util;\n\
                   use function App\\helper;\nuse const App\\VERSION;\nuse App\\Long\\{\n    One,\n    Two,\n};\n\
                   $f = function () use ($x) {};\nclass A {\n    use App\\Traits\\Greets;\n}\n";
        assert_eq!(
            use_names(src),
            [
                "Symfony\\Component\\Console\\Command\\Command",
                "App\\Model\\User",
                "App\\Model\\Role",
                "Psr\\Log\\LoggerInterface",
                "App\\Util",
                "App\\Long\\One",
                "App\\Long\\Two",
                "App\\Traits\\Greets",
            ]
        );
    }
}
