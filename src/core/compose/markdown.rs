//! The Markdown output (`format = "markdown"`): the directory tree, the
//! files section with one heading and fenced block per file, then the repo
//! map, screenshots, discussion and changes. Every one-line field (a path in a heading, a screenshot
//! name, a role, a note) goes through [`escape_line`], so a file named
//! `a\n### b.py` is one heading showing `a␊### b.py`; a fence is longer
//! than any run of backticks in the body it holds.

use std::fmt::Write;

use super::changes::Changes;
use super::options::ComposeOptions;
use super::out::Out;
use super::{RenderedFile, section_line, visible_discussion};
use crate::core::model::{Format, Preset, ViewMode};
use crate::core::syntax::Lang;
use crate::core::views;
use crate::text::sanitize::escape_line;

/// The heading of the files section.
pub fn files_heading(opts: &ComposeOptions) -> &'static str {
    if opts.focused() {
        "## Files (Focused)"
    } else if opts.summarizes() {
        "## Files (Summary)"
    } else {
        "## Files"
    }
}

/// The text before the files section: the directory `tree`, if any
/// (made in place: at 100,000 files it is megabytes).
pub(super) fn head(mut tree: String) -> String {
    if tree.is_empty() {
        return tree;
    }
    let fence = fence_for(&tree);
    let open = format!("## Directory Tree\n\n{fence}\n");
    tree.reserve_exact(open.len() + fence.len() + 2);
    tree.insert_str(0, &open);
    tree.push_str(&fence);
    tree.push_str("\n\n");
    tree
}

/// The text after the files section: `map`, screenshots, discussion,
/// changes and the task, then the final line break.
pub(super) fn tail(preset: &Preset, opts: &ComposeOptions, map: Option<&str>) -> String {
    let mut out = String::new();
    let mut sections = Vec::new();
    if let Some(map) = map.filter(|m| !m.is_empty()) {
        sections.push(map.trim_end().to_string());
    }
    if let Some(note) = &opts.sections.left_out {
        sections.push(note.to_string());
    }
    if !preset.screenshots.is_empty() {
        let shots: Vec<String> = preset
            .screenshots
            .iter()
            .map(|p| format!("![{}]({})", escape_line(file_name(p)), escape_line(p)))
            .collect();
        sections.push(format!("## Screenshots\n\n{}", shots.join("\n")));
    }
    let messages = visible_discussion(&preset.discussion, opts.max_messages);
    if !messages.is_empty() {
        let excerpts: Vec<String> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                format!(
                    "### Discussion Excerpt {}\n\n{}: {}",
                    i + 1,
                    escape_line(&m.role),
                    m.content.trim()
                )
            })
            .collect();
        sections.push(format!(
            "## Discussion History\n\n{}",
            excerpts.join("\n\n---\n\n")
        ));
    }
    if let Some(changes) = &opts.sections.changes {
        sections.push(changes.markdown());
    }
    sections.extend(task_markdown(&preset.task));
    for section in sections {
        out.push_str("\n\n");
        out.push_str(&section);
    }
    out.push('\n');
    out
}

/// The `## Task` section: last, after the discussion and the changes, so
/// everything before it stays a stable, cacheable prefix; the task
/// verbatim (trimmed).
pub fn task_markdown(task: &str) -> Option<String> {
    let task = task.trim();
    (!task.is_empty()).then(|| format!("## Task\n\n{task}"))
}

/// The start of the files section.
pub(super) fn files_start(out: &mut Out, opts: &ComposeOptions) {
    out.push_str(files_heading(opts));
}

/// The end of the files section: a note when no file was written, then
/// the files `listed` (named, not included).
pub(super) fn files_end(out: &mut Out, written: bool, listed: &[String]) {
    if !written {
        out.push_str("\n\n(no files)");
    }
    if !listed.is_empty() {
        out.push_str("\n\nAlso in this project, not included (ask for them if needed):\n");
        let names: Vec<String> = listed
            .iter()
            .map(|path| format!("- `{}`", escape_line(path)))
            .collect();
        out.push_str(&names.join("\n"));
    }
}

/// One file as a Markdown block: heading, fenced body, notes.
pub fn markdown_file(f: &RenderedFile) -> String {
    let mut text = String::with_capacity(f.text.len() + f.path.len() + 64);
    write_markdown_file(&mut Out::new(&mut text), f);
    text
}

/// [`markdown_file`], appended to `out`; where its body starts in `out`
/// (the body is there verbatim, up to a last line break).
pub(super) fn write_markdown_file(out: &mut Out, f: &RenderedFile) -> Option<usize> {
    out.push_str(&section_line(&f.path, Format::Markdown));
    if f.error.is_none() && f.mode != ViewMode::Full {
        let _ = write!(out, " [{}]", f.mode);
    }
    out.push_str("\n\n");
    if let Some(err) = &f.error {
        out.push_str(&escape_line(&format!("ERROR: {err}: {}", f.path)));
        return None;
    }
    if f.mode == ViewMode::None {
        out.push_str(views::EXCLUDED);
        return None;
    }
    let fence = fence_for(&f.text);
    // Summaries and outlines are prose about the code, not code.
    let lang = match f.mode {
        ViewMode::Full | ViewMode::Skeleton | ViewMode::Masked | ViewMode::Custom => {
            // A `.h` written in C++ is fenced as C++.
            match Lang::detect(&f.path, &f.text) {
                Some(Lang::Cpp) => "cpp",
                _ => fence_lang(&f.path),
            }
        }
        _ => "",
    };
    let body = f.text.strip_suffix('\n').unwrap_or(&f.text);
    let _ = writeln!(out, "{fence}{lang}");
    let at = out.body(body);
    let _ = write!(out, "\n{fence}");
    for note in &f.notes {
        let _ = write!(out, "\n\n> note: {}", escape_line(note));
    }
    Some(at)
}

/// A backtick fence longer than any run of backticks in `text` (at least 3).
pub fn fence_for(text: &str) -> String {
    let (mut longest, mut run, mut last) = (0, 0, usize::MAX);
    // Every body of the output passes here: the backticks are found with
    // memchr (a `char` pattern), not by looking at every byte.
    for (at, _) in text.match_indices('`') {
        run = if last.checked_add(1) == Some(at) {
            run + 1
        } else {
            1
        };
        longest = longest.max(run);
        last = at;
    }
    "`".repeat((longest + 1).max(3))
}

/// The fence info string for a path, by extension ("" when unknown).
pub fn fence_lang(path: &str) -> &'static str {
    let name = file_name(path);
    if name == "Makefile" || name == "makefile" {
        return "make";
    }
    if name == "Dockerfile" {
        return "dockerfile";
    }
    // The languages with a grammar have their extensions in one table,
    // `Lang::from_path`.
    match crate::core::syntax::Lang::from_path(name) {
        Some(crate::core::syntax::Lang::Python) => return "python",
        Some(crate::core::syntax::Lang::C) => return "c",
        Some(crate::core::syntax::Lang::Cpp) => return "cpp",
        _ => {}
    }
    let Some((_, ext)) = name.rsplit_once('.') else {
        return "";
    };
    match ext.to_ascii_lowercase().as_str() {
        "rs" => "rust",
        "go" => "go",
        "js" | "mjs" | "cjs" => "javascript",
        "ts" => "typescript",
        "tsx" => "tsx",
        "jsx" => "jsx",
        "java" => "java",
        "kt" => "kotlin",
        "rb" => "ruby",
        "sh" | "bash" => "bash",
        "md" | "markdown" => "markdown",
        "toml" => "toml",
        "json" => "json",
        "yaml" | "yml" => "yaml",
        "ini" | "cfg" => "ini",
        "html" | "htm" => "html",
        "css" => "css",
        "sql" => "sql",
        "xml" => "xml",
        _ => "",
    }
}

/// The last component of a `/`-separated path.
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

impl Changes {
    /// The Markdown section.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "## Changes\n\nThe working tree against `{}`:",
            escape_line(&self.against)
        );
        let diff = self.diff();
        if diff.is_empty() {
            out.push_str(" no changes to tracked files.");
        } else {
            let fence = fence_for(&diff);
            let body = diff.strip_suffix('\n').unwrap_or(&diff);
            let _ = write!(out, "\n\n{fence}diff\n{body}\n{fence}");
        }
        if !self.untracked.is_empty() {
            out.push_str("\n\nUntracked files (not in the diff):\n");
            let names: Vec<String> = self
                .untracked
                .iter()
                .map(|p| format!("- `{}`", escape_line(p)))
                .collect();
            out.push_str(&names.join("\n"));
        }
        for note in &self.notes {
            let _ = write!(out, "\n\n> note: {}", escape_line(note));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Settings;

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ``` b"), "````");
        assert_eq!(fence_for("`````"), "``````");
        assert_eq!(fence_for("`` x ```` y ``` `"), "`````");
        assert_eq!(fence_for("é`é``é"), "```");
        assert_eq!(fence_for("````\n`"), "`````");
    }

    #[test]
    fn the_files_heading_names_the_strategy() {
        let mut o = ComposeOptions::from_settings(&Settings::default());
        assert_eq!(files_heading(&o), "## Files");
        o.summary_only = true;
        assert_eq!(files_heading(&o), "## Files (Summary)");
        o.focus = vec!["a.py".into()];
        assert_eq!(files_heading(&o), "## Files (Focused)");
    }
}
