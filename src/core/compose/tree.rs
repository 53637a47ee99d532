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

use std::collections::BTreeMap;

use crate::core::model::TreeMode;
use crate::text::sanitize::escape_line;

use super::{ComposeOptions, RenderedFile};

/// The paths the tree shows under `opts` for a context of `files`: the
/// files themselves (`included`), the whole project (`all`, the walk
/// handed over in `Sections::project_files`) or none.
///
/// The tree tells the model what it is about to read, so a file whose
/// text is not in the context is not in it ([`in_tree`]): one left out
/// as binary or oversize, one that could not be read (not found, outside
/// the root, not a regular file, an I/O error; its `ERROR:` block says
/// why) and one listed by name only (`auto_aggregate = false`, named under
/// "not included" after the files). `all` shows the project as the walk
/// sees it, included or not, so a skipped file there is one more file of
/// the project, as it should be.
pub fn paths<'a>(files: &'a [RenderedFile], opts: &'a ComposeOptions) -> Vec<&'a str> {
    let present = files.iter().filter(|f| in_tree(f)).map(|f| f.path.as_str());
    match opts.sections.tree {
        TreeMode::None => Vec::new(),
        TreeMode::Included => present.collect(),
        TreeMode::All => {
            let mut all: Vec<&str> = opts
                .sections
                .project_files
                .iter()
                .map(String::as_str)
                .collect();
            // Files of the context outside the walk (an entry the walk
            // ignores, a focus file) are in the project as the model sees it.
            all.extend(present);
            all
        }
    }
}

/// Whether `f` is in the `included` tree: the one rule for every front
/// end (the CLI, the TUI's preview and gauge, MCP), since they all
/// compose here. A file in the `none` view keeps its place: the user
/// named it on purpose, and its block says its content is left out.
pub fn in_tree(f: &RenderedFile) -> bool {
    f.aggregate && f.error.is_none() && f.skipped.is_none()
}

/// A folder of the tree: its subfolders and its files, by name.
#[derive(Default)]
struct Folder<'a> {
    folders: BTreeMap<&'a str, Folder<'a>>,
    files: BTreeMap<&'a str, ()>,
}

/// `paths` (root-relative, `/`-separated, in any order, duplicates
/// allowed) as the compact tree, one entry a line, each line ending in a
/// newline; empty for no paths.
pub fn render(paths: &[&str]) -> String {
    let mut root = Folder::default();
    for path in paths {
        let mut parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some(name) = parts.pop() else { continue };
        let mut folder = &mut root;
        for part in parts {
            folder = folder.folders.entry(part).or_default();
        }
        // A path that is both a file and a folder's prefix shows as both.
        folder.files.insert(name, ());
    }
    let mut out = String::new();
    write_folder(&root, 0, &mut out);
    out
}

fn write_folder(folder: &Folder, depth: usize, out: &mut String) {
    for (name, sub) in &folder.folders {
        // Join a chain of folders that each hold only one folder.
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
        let tree = render(&[
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
        assert_eq!(paths(&files, &opts), ["src/a.py", "src/none.py"]);
        opts.sections.tree = TreeMode::All;
        opts.sections.project_files =
            std::sync::Arc::from(["big/huge.py".to_string(), "src/blob.bin".to_string()]);
        assert_eq!(
            paths(&files, &opts),
            ["big/huge.py", "src/blob.bin", "src/a.py", "src/none.py"]
        );
        opts.sections.tree = TreeMode::None;
        assert!(paths(&files, &opts).is_empty());
    }

    #[test]
    fn no_paths_no_tree() {
        assert_eq!(render(&[]), "");
        assert_eq!(render(&["", "/"]), "");
    }

    #[test]
    fn names_cannot_break_lines() {
        let tree = render(&["a\n## Files/x\r.py", "b\u{1b}[2J.py"]);
        assert_eq!(tree.lines().count(), 3, "{tree:?}");
        assert!(!tree.contains(['\u{1b}', '\r']), "{tree:?}");
        assert!(tree.starts_with("a␊## Files/\n  x"), "{tree:?}");
        assert_eq!(render(&["### ", "#x/#y"]), "./#x/\n  #y\n./### \n");
    }
}
