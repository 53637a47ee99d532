//! The XML output (`format = "xml"`) and its escaping: every byte of
//! the XML output that comes from a file, a path, the repo map or the
//! discussion goes through [`escape`], so no content can close a tag, forge
//! a `<document>` or a `role="System"` message, or make the output
//! ill-formed. A strict XML 1.0 parser reads the output into exactly one
//! `<document>` per file, whatever the files contain.
//!
//! Two contexts, chosen for what a model reads best:
//!
//! * [`Kind::Body`] — file content, the repo map, discussion text. Code is
//!   full of `<` and `&` (`#include <stdio.h>`, `a && b`), and `&lt;`
//!   everywhere would make it harder to read and cost tokens. So a body
//!   that is already legal XML text (no `<`, no `&`, no `]]>`) is written
//!   as is, and any other body becomes one CDATA section, in which the
//!   code reads verbatim; a `]]>` inside it is split as
//!   `]]]]><![CDATA[>` (the CDATA closes after `]]` and reopens before `>`).
//! * [`Kind::Field`] — attribute values and one-line elements (`<source>`,
//!   `<note>`, `<screenshot>`, roles): entity-escaped (`&amp; &lt; &gt;
//!   &quot;`) with tab, newline and CR as character references, so a path
//!   stays on its `<source>` line (the TUI preview finds a file's section
//!   by that line) and comes back exact from a parser.
//!
//! Characters XML 1.0 forbids anywhere, even as references (U+0000–U+001F
//! except tab, LF and CR; U+FFFE and U+FFFF), are written as the Unicode
//! Control Pictures (`\x1b` → `␛`, U+2400 + code) and U+FFFD respectively:
//! visible to the model, the same convention as the TUI's display, never a
//! parse error. That is the one lossy step; everything else round-trips
//! (up to XML's own line-end normalisation of CR in bodies).

use std::borrow::Cow;
use std::fmt::Write;

use super::changes::Changes;
use super::out::Out;
use super::{self as compose, ComposeOptions, RenderedFile};
use crate::core::model::{Format, Preset, ViewMode};

/// Where an escaped string goes in the XML output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Element content that may span lines: raw when legal, else CDATA.
    Body,
    /// An attribute value or a one-line element: entity-escaped.
    Field,
}

/// `s` made safe for its place `kind` in the XML output (see the module
/// docs). Text that needs no change comes back borrowed.
pub fn escape(s: &str, kind: Kind) -> Cow<'_, str> {
    let s = legal_chars(s);
    match kind {
        Kind::Body => {
            if s.contains(['<', '&']) || s.contains("]]>") {
                Cow::Owned(format!(
                    "<![CDATA[{}]]>",
                    s.replace("]]>", "]]]]><![CDATA[>")
                ))
            } else {
                s
            }
        }
        Kind::Field => {
            if !s.contains(['&', '<', '>', '"', '\t', '\n', '\r']) {
                return s;
            }
            let mut out = String::with_capacity(s.len() + 16);
            for c in s.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '"' => out.push_str("&quot;"),
                    '\t' => out.push_str("&#9;"),
                    '\n' => out.push_str("&#10;"),
                    '\r' => out.push_str("&#13;"),
                    c => out.push(c),
                }
            }
            Cow::Owned(out)
        }
    }
}

/// The character XML 1.0 allows in place of `c` (itself when allowed).
pub fn legal_char(c: char) -> char {
    match c {
        '\t' | '\n' | '\r' => c,
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
        '\u{fffe}' | '\u{ffff}' => '\u{fffd}',
        c => c,
    }
}

fn is_legal(c: char) -> bool {
    legal_char(c) == c
}

/// `s` with every character XML 1.0 forbids replaced by [`legal_char`].
fn legal_chars(s: &str) -> Cow<'_, str> {
    if s.chars().all(is_legal) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().map(legal_char).collect())
    }
}

/// One file as an XML `<document>` numbered `index`.
pub fn document(index: usize, f: &RenderedFile) -> String {
    let mut text = String::with_capacity(f.text.len() + f.path.len() + 128);
    write_document(&mut Out::new(&mut text), index, f);
    text
}

/// [`document`], appended to `out`; where the file's text starts in `out`
/// when it is there verbatim (plain or in one CDATA section).
pub(super) fn write_document(out: &mut Out, index: usize, f: &RenderedFile) -> Option<usize> {
    let _ = write!(out, "<document index=\"{index}\"");
    if f.error.is_none() && f.mode != ViewMode::Full {
        let _ = write!(out, " view=\"{}\"", f.mode);
    }
    let _ = writeln!(out, ">\n{}", compose::section_line(&f.path, Format::Xml));
    out.push_str("<document_content>\n");
    let body: Cow<'_, str> = match &f.error {
        Some(err) => format!("ERROR: {err}: {}\n", f.path).into(),
        None if f.text.ends_with('\n') => (*f.text).into(),
        None => format!("{}\n", f.text).into(),
    };
    let escaped = escape(&body, Kind::Body);
    let in_cdata = escaped
        .strip_prefix(CDATA_OPEN)
        .and_then(|e| e.strip_suffix(CDATA_CLOSE))
        .filter(|inner| **inner == *body);
    let verbatim = if f.error.is_some() {
        out.push_str(&escaped);
        None
    } else if *escaped == *body {
        Some(out.body(&escaped))
    } else if let Some(inner) = in_cdata {
        out.push_str(CDATA_OPEN);
        let at = out.body(inner);
        out.push_str(CDATA_CLOSE);
        Some(at)
    } else {
        out.push_str(&escaped);
        None
    };
    out.push_str("</document_content>\n");
    for note in &f.notes {
        let _ = writeln!(out, "<note>{}</note>", escape(note, Kind::Field));
    }
    out.push_str("</document>\n");
    verbatim
}

const CDATA_OPEN: &str = "<![CDATA[";
const CDATA_CLOSE: &str = "]]>";

/// The text before the documents: the strategy's comment, the root
/// `<documents>` and the directory tree.
pub(super) fn head(tree: &str, opts: &ComposeOptions) -> String {
    let mut out = String::new();
    if opts.focused() {
        out.push_str("<!-- focused: focus files in full, other code as skeletons -->\n");
    } else if opts.summarizes() {
        out.push_str("<!-- files as summaries -->\n");
    }
    out.push_str("<documents>\n");
    if !tree.is_empty() {
        let _ = writeln!(
            out,
            "<directory_tree>\n{}</directory_tree>",
            escape(tree, Kind::Body)
        );
    }
    out
}

/// The text after the documents: the repo map, screenshots, discussion,
/// changes and task, and the end of the root.
pub(super) fn tail(preset: &Preset, opts: &ComposeOptions, map: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(map) = map.filter(|m| !m.is_empty()) {
        // A body like the documents' content; the Markdown heading is the tag.
        let body = match map.split_once("\n\n") {
            Some((heading, rest)) if heading.starts_with("## ") => rest,
            _ => map,
        };
        let body = format!("{}\n", body.trim_end());
        let _ = writeln!(out, "<repo_map>\n{}</repo_map>", escape(&body, Kind::Body));
    }
    if let Some(note) = &opts.sections.left_out {
        // Escaped by its renderer (`core::discovery::pack::left_out`).
        let _ = writeln!(out, "{note}");
    }
    if !preset.screenshots.is_empty() {
        out.push_str("<screenshots>\n");
        for p in &preset.screenshots {
            let _ = writeln!(out, "<screenshot>{}</screenshot>", escape(p, Kind::Field));
        }
        out.push_str("</screenshots>\n");
    }
    let messages = compose::visible_discussion(&preset.discussion, opts.max_messages);
    if !messages.is_empty() {
        out.push_str("<discussion>\n");
        for (i, m) in messages.iter().enumerate() {
            let content = format!("{}\n", m.content.trim());
            let _ = writeln!(
                out,
                "<message index=\"{}\" role=\"{}\">\n{}</message>",
                i + 1,
                escape(&m.role, Kind::Field),
                escape(&content, Kind::Body)
            );
        }
        out.push_str("</discussion>\n");
    }
    if let Some(changes) = &opts.sections.changes {
        out.push_str(&changes.xml());
    }
    let task = preset.task.trim();
    if !task.is_empty() {
        // Last, as in Markdown: what comes before stays a cacheable prefix.
        let body = format!("{task}\n");
        let _ = writeln!(out, "<task>\n{}</task>", escape(&body, Kind::Body));
    }
    // One root, so a strict parser reads the whole output.
    out.push_str("</documents>\n");
    out
}

impl Changes {
    /// The XML element, a child of the root `<documents>`.
    pub fn xml(&self) -> String {
        let mut out = format!(
            "<changes against=\"{}\">\n",
            escape(&self.against, Kind::Field)
        );
        let diff = self.diff();
        if !diff.is_empty() {
            let _ = writeln!(out, "<diff>\n{}</diff>", escape(&diff, Kind::Body));
        }
        for path in &self.untracked {
            let _ = writeln!(out, "<untracked>{}</untracked>", escape(path, Kind::Field));
        }
        for note in &self.notes {
            let _ = writeln!(out, "<note>{}</note>", escape(note, Kind::Field));
        }
        out.push_str("</changes>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_is_written_as_is() {
        let out = escape("def f(x):\n    return x > 1\n", Kind::Body);
        assert!(matches!(out, Cow::Borrowed(_)), "{out}");
        assert!(matches!(
            escape("src/app.py", Kind::Field),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn code_with_markup_characters_reads_verbatim_in_cdata() {
        assert_eq!(
            escape("#include <stdio.h>\nif (a && b) {}\n", Kind::Body),
            "<![CDATA[#include <stdio.h>\nif (a && b) {}\n]]>"
        );
    }

    #[test]
    fn a_cdata_end_inside_content_is_split() {
        assert_eq!(escape("x]]>y", Kind::Body), "<![CDATA[x]]]]><![CDATA[>y]]>");
        // `]]>` alone is illegal in plain text too.
        assert_eq!(escape("a]]>", Kind::Body), "<![CDATA[a]]]]><![CDATA[>]]>");
    }

    #[test]
    fn fields_are_entity_escaped_on_one_line() {
        assert_eq!(
            escape("a&b<c>\"d\"\n\te\r", Kind::Field),
            "a&amp;b&lt;c&gt;&quot;d&quot;&#10;&#9;e&#13;"
        );
    }

    #[test]
    fn forbidden_characters_become_pictures() {
        assert_eq!(escape("a\0b\x1b[2J\u{fffe}", Kind::Body), "a␀b␛[2J\u{fffd}");
        assert_eq!(escape("\x07", Kind::Field), "␇");
        assert_eq!(legal_char('\u{ffff}'), '\u{fffd}');
        assert_eq!(legal_char('\u{9b}'), '\u{9b}');
    }
}
