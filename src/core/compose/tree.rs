//! The directory tree before the files (`[project] tree`): the shape of
//! the project as a compact, indented list, so the model sees where each
//! file sits before it reads them.
//!
//! Compact means: two spaces per level, folders first and marked with a
//! trailing `/`, and a chain of folders that each hold only one folder
//! joined on one line (`src/core/`). Each name is one line of
//! [`escape_line`], so a file named `a\n## Files` is one entry showing
//! `a␊## Files`, never a forged heading; a top-level name starting with
//! `#` is written `./#…`, so no tree line starts like a heading.

use crate::core::model::TreeMode;
use crate::text::sanitize::escape_line;

use super::{ComposeOptions, RenderedFile};

/// The paths the tree shows under `opts` for a context of `files` and
/// `plain` (files shown whole with nothing more to tell, kept by path
/// only: see [`super::Parts::plain`]): the files themselves (`included`),
/// the whole project (`all`, the walk handed over in
/// `Sections::project_files`) or none.
///
/// The tree tells the model what it is about to read, so a file whose
/// text is not in the context is not in it ([`in_tree`]): one left out
/// as binary or oversize, one that could not be read (not found, outside
/// the root, not a regular file, an I/O error; its `ERROR:` block says
/// why) and one listed by name only (`auto_aggregate = false`, named under
/// "not included" after the files). `all` shows the project as the walk
/// sees it, included or not, so a skipped file there is one more file of
/// the project, as it should be.
pub fn paths<'a>(
    files: &'a [RenderedFile],
    plain: &'a [String],
    opts: &'a ComposeOptions,
) -> Vec<&'a str> {
    let present = || {
        files
            .iter()
            .filter(|f| in_tree(f))
            .map(|f| f.path.as_str())
            .chain(plain.iter().map(String::as_str))
    };
    // Sized once: at 100,000 files a list grown by doubling holds a
    // megabyte it never uses.
    let listed = match opts.sections.tree {
        TreeMode::None => return Vec::new(),
        TreeMode::Included => 0,
        TreeMode::All => opts.sections.project_files.len(),
    };
    let mut all = Vec::with_capacity(listed + present().count());
    if opts.sections.tree == TreeMode::All {
        all.extend(opts.sections.project_files.iter().map(String::as_str));
    }
    // In `all`, files of the context outside the walk (an entry the walk
    // ignores, a focus file) are in the project as the model sees it.
    all.extend(present());
    all
}

/// Whether `f` is in the `included` tree: the one rule for every front
/// end (the CLI, the TUI's preview and gauge, MCP), since they all
/// compose here. A file in the `none` view keeps its place: the user
/// named it on purpose, and its block says its content is left out.
pub fn in_tree(f: &RenderedFile) -> bool {
    f.aggregate && f.error.is_none() && f.skipped.is_none()
}

/// `paths` (root-relative, `/`-separated, in any order, duplicates
/// allowed) as the compact tree, one entry a line, each line ending in a
/// newline; empty for no paths.
///
/// The paths are sorted part by part and each folder is a run of them,
/// so the tree of 100,000 files needs no map of folders beside the list.
pub fn render(paths: Vec<&str>) -> String {
    // A path with empty parts (`a//b`, `/a`, `a/`) is written plain
    // first, so that the order of bytes with `/` lowest is the order of
    // the parts.
    let spelled: Vec<String> = paths
        .iter()
        .filter(|p| !is_plain(p))
        .map(|p| {
            p.split('/')
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    let mut paths = paths;
    let mut spelled_plain = spelled.iter();
    for p in paths.iter_mut().filter(|p| !is_plain(p)) {
        if let Some(plain) = spelled_plain.next() {
            *p = plain;
        }
    }
    paths.retain(|p| !p.is_empty());
    paths.sort_unstable_by(|a, b| tree_order(a, b));
    paths.dedup();
    let mut out = String::new();
    write_level(&paths, 0, 0, &mut out);
    out
}

/// No part of `path` is empty.
fn is_plain(path: &str) -> bool {
    path.split('/').all(|c| !c.is_empty())
}

/// Part by part, each part by its bytes: for plain paths, their bytes
/// with `/` below every other byte.
fn tree_order(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |c: u8| if c == b'/' { 0 } else { u16::from(c) + 1 };
    a.bytes().map(key).cmp(b.bytes().map(key))
}

/// The part of `path` that starts at byte `at` (a part's start: `0`, or
/// just after a `/`).
fn part(path: &str, at: usize) -> &str {
    let rest = path.get(at..).unwrap_or_default();
    rest.split('/').next().unwrap_or_default()
}

/// Whether the part that starts at byte `at` is `path`'s last (a file at
/// that level).
fn ends_at(path: &str, at: usize) -> bool {
    !path.get(at..).unwrap_or_default().contains('/')
}

/// The runs of `paths` (sorted, each with a part at byte `at`) that share
/// the part at `at`: (its name, the run).
fn runs<'p, 'a>(paths: &'p [&'a str], at: usize) -> impl Iterator<Item = (&'a str, &'p [&'a str])> {
    let mut rest = paths;
    std::iter::from_fn(move || {
        let first = *rest.first()?;
        let name = part(first, at);
        let len = rest
            .iter()
            .position(|p| part(p, at) != name)
            .unwrap_or(rest.len());
        let (run, after) = rest.split_at(len);
        rest = after;
        Some((name, run))
    })
}

/// The entries of one folder, written `depth` levels in, folders first.
/// `paths` share their first parts, so their next part starts at the
/// same byte `at` in each: kept as a byte, not as a count of parts, as
/// finding the n-th part anew at each level made the tree of deep paths
/// quadratic in their depth (4 times slower than the map of folders at
/// 60 levels).
fn write_level(paths: &[&str], at: usize, depth: usize, out: &mut String) {
    for (name, run) in runs(paths, at) {
        // A file of that name sorts before the folder's paths.
        let sub = match run.first() {
            Some(first) if ends_at(first, at) => &run[1..],
            _ => run,
        };
        if sub.is_empty() {
            continue;
        }
        // Join a chain of folders that each hold only one folder: the
        // first and the last path share the next part, and the first does
        // not end there (a file of that name would sort first).
        let mut label = escape_line(name).into_owned();
        let mut next = at + name.len() + 1;
        while let (Some(first), Some(last)) = (sub.first(), sub.last())
            && part(first, next) == part(last, next)
            && !ends_at(first, next)
        {
            let name = part(first, next);
            label.push('/');
            label.push_str(&escape_line(name));
            next += name.len() + 1;
        }
        push_line(out, depth, &format!("{}/", unheading(label, depth)));
        write_level(sub, next, depth + 1, out);
    }
    for (name, run) in runs(paths, at) {
        if run.first().is_some_and(|first| ends_at(first, at)) {
            push_line(
                out,
                depth,
                &unheading(escape_line(name).into_owned(), depth),
            );
        }
    }
}

/// A top-level name that starts with `#` as `./#…`, so no line of the
/// tree reads as a Markdown heading to a tool that scans lines.
fn unheading(name: String, depth: usize) -> String {
    if depth == 0 && name.starts_with('#') {
        format!("./{name}")
    } else {
        name
    }
}

fn push_line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::walk::FileProblem;

    #[test]
    fn folders_first_chains_joined_two_spaces_a_level() {
        let tree = render(vec![
            "src/pkg/core/b.py",
            "README.md",
            "src/pkg/core/a.py",
            "src/pkg/cli.py",
            "docs/guide/intro.md",
            "src/pkg/core/a.py",
        ]);
        assert_eq!(
            tree,
            "docs/guide/\n  intro.md\nsrc/pkg/\n  core/\n    a.py\n    b.py\n  cli.py\nREADME.md\n"
        );
    }

    fn file(path: &str) -> RenderedFile {
        RenderedFile {
            path: path.into(),
            mode: crate::core::model::ViewMode::Full,
            text: std::sync::Arc::from("x\n"),
            error: None,
            skipped: None,
            notes: Vec::new(),
            aggregate: true,
            key: String::new(),
            body_at: None,
        }
    }

    /// Only files whose text the context holds (or that the user named in
    /// `none`) are in the `included` tree; `all` shows the project.
    #[test]
    fn the_included_tree_leaves_out_what_the_context_does_not_hold() {
        let mut none = file("src/none.py");
        none.mode = crate::core::model::ViewMode::None;
        let mut listed = file("src/listed.py");
        listed.aggregate = false;
        let mut blob = file("src/blob.bin");
        blob.error = Some(FileProblem::Binary.to_string());
        blob.skipped = Some(FileProblem::Binary);
        let mut huge = file("big/huge.py");
        let too_large = FileProblem::TooLarge { bytes: 9, limit: 1 };
        huge.error = Some(too_large.to_string());
        huge.skipped = Some(too_large);
        let mut errors = Vec::new();
        for (path, problem) in [
            ("gone.py", FileProblem::NotFound),
            ("up.py", FileProblem::OutsideRoot),
            ("src/fifo", FileProblem::NotAFile),
            ("src/locked.py", FileProblem::Io("permission denied".into())),
        ] {
            let mut f = file(path);
            f.error = Some(problem.to_string());
            errors.push(f);
        }
        let mut files = vec![file("src/a.py"), none, listed, blob, huge];
        files.extend(errors);
        let mut opts = ComposeOptions::from_settings(&Default::default());
        assert_eq!(opts.sections.tree, TreeMode::Included);
        assert_eq!(paths(&files, &[], &opts), ["src/a.py", "src/none.py"]);
        opts.sections.tree = TreeMode::All;
        opts.sections.project_files =
            std::sync::Arc::from(["big/huge.py".to_string(), "src/blob.bin".to_string()]);
        assert_eq!(
            paths(&files, &[], &opts),
            ["big/huge.py", "src/blob.bin", "src/a.py", "src/none.py"]
        );
        opts.sections.tree = TreeMode::None;
        assert!(paths(&files, &[], &opts).is_empty());
    }

    /// The tree as a map of folders makes it (the way it was made before
    /// 100,000-file builds): the oracle for the sorted runs.
    mod by_map {
        use std::collections::BTreeMap;

        use super::super::{push_line, unheading};
        use crate::text::sanitize::escape_line;

        #[derive(Default)]
        struct Folder<'a> {
            folders: BTreeMap<&'a str, Folder<'a>>,
            files: BTreeMap<&'a str, ()>,
        }

        pub fn render(paths: &[&str]) -> String {
            let mut root = Folder::default();
            for path in paths {
                let mut parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
                let Some(name) = parts.pop() else { continue };
                let mut folder = &mut root;
                for part in parts {
                    folder = folder.folders.entry(part).or_default();
                }
                folder.files.insert(name, ());
            }
            let mut out = String::new();
            write_folder(&root, 0, &mut out);
            out
        }

        fn write_folder(folder: &Folder, depth: usize, out: &mut String) {
            for (name, sub) in &folder.folders {
                let mut label = escape_line(name).into_owned();
                let mut sub = sub;
                while sub.files.is_empty() && sub.folders.len() == 1 {
                    let Some((next, deeper)) = sub.folders.iter().next() else {
                        break;
                    };
                    label.push('/');
                    label.push_str(&escape_line(next));
                    sub = deeper;
                }
                push_line(out, depth, &format!("{}/", unheading(label, depth)));
                write_folder(sub, depth + 1, out);
            }
            for name in folder.files.keys() {
                push_line(
                    out,
                    depth,
                    &unheading(escape_line(name).into_owned(), depth),
                );
            }
        }
    }

    /// The files under `dir`, relative to it (`/`-separated).
    fn files_under(dir: &std::path::Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut todo = vec![dir.to_path_buf()];
        while let Some(at) = todo.pop() {
            let Ok(entries) = std::fs::read_dir(&at) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                match entry.file_type() {
                    Ok(t) if t.is_dir() => todo.push(path),
                    Ok(_) => {
                        if let Ok(rel) = path.strip_prefix(dir) {
                            out.push(rel.to_string_lossy().replace('\\', "/"));
                        }
                    }
                    Err(_) => {}
                }
            }
        }
        out
    }

    /// Byte for byte the tree the map made, on names that sort across
    /// `/` (`a-b` before `a/`), files that are also folders, empty parts,
    /// duplicates, and on the real trees of this machine (the C headers,
    /// the Python standard library) in the walk's order and reversed.
    #[test]
    fn the_sorted_runs_draw_the_tree_the_map_drew() {
        let odd = [
            "a",
            "a/b",
            "a-b/c",
            "a/b/c",
            "a//b",
            "/x",
            "x/",
            "",
            "/",
            "#h/i",
            "a.b",
            "a/b.c/d",
            "a/b",
            "z/y/x/w",
            "z/y/x/v/u",
            "q/r/s",
            "q/r/t",
            "a0/b",
            "a/",
            "\u{e9}/x",
            "A/b",
            "a b/c",
            "a\tb/c",
            "m/n/o/p/q",
        ];
        assert_eq!(render(odd.to_vec()), by_map::render(&odd));
        let stdlib = std::process::Command::new("python3")
            .args([
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
            ])
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| std::path::PathBuf::from(s.trim()));
        let mut checked = 0;
        for dir in [Some("/usr/include".into()), stdlib].into_iter().flatten() {
            let mut paths = files_under(&dir);
            if paths.is_empty() {
                continue;
            }
            paths.sort();
            let mut refs: Vec<&str> = paths.iter().map(String::as_str).collect();
            assert_eq!(
                render(refs.clone()),
                by_map::render(&refs),
                "{}",
                dir.display()
            );
            refs.reverse();
            assert_eq!(
                render(refs.clone()),
                by_map::render(&refs),
                "{}",
                dir.display()
            );
            checked += paths.len();
        }
        assert!(
            checked > 1000,
            "this machine has real trees to check ({checked} files)"
        );
    }

    /// Parts that sort on both sides of `/` and of each other, empty
    /// parts (`a//b`, `/a`, `a/`), a heading's `#`, a name cut by a
    /// newline, non-ASCII.
    const PARTS: &[&str] = &[
        "a", "a-b", "a.b", "a0", "b", "A", "#x", "a b", "\u{e9}", "a\nb", "",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Any list of paths: the tree the map drew.
        #[test]
        fn any_paths_draw_the_tree_the_map_drew(
            paths in proptest::collection::vec(
                proptest::collection::vec(0..PARTS.len(), 1..6), 0..24),
        ) {
            let paths: Vec<String> = paths
                .iter()
                .map(|p| p.iter().map(|&i| PARTS[i]).collect::<Vec<_>>().join("/"))
                .collect();
            let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(render(refs.clone()), by_map::render(&refs));
        }
    }

    #[test]
    fn no_paths_no_tree() {
        assert_eq!(render(Vec::new()), "");
        assert_eq!(render(vec!["", "/"]), "");
    }

    #[test]
    fn names_cannot_break_lines() {
        let tree = render(vec!["a\n## Files/x\r.py", "b\u{1b}[2J.py"]);
        assert_eq!(tree.lines().count(), 3, "{tree:?}");
        assert!(!tree.contains(['\u{1b}', '\r']), "{tree:?}");
        assert!(tree.starts_with("a␊## Files/\n  x"), "{tree:?}");
        assert_eq!(render(vec!["### ", "#x/#y"]), "./#x/\n  #y\n./### \n");
    }
}
