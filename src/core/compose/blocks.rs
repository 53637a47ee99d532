//! The files section, one block at a time, in either format: the
//! in-memory composition and the streamed build (`core::engine::stream`)
//! both write through [`FilesSection`], so a file's block is laid out in
//! one place whichever way the text goes.

use super::options::ComposeOptions;
use super::out::Out;
use super::{Bodies, RenderedFile, markdown, xml};
use crate::core::model::Format;

/// The files section being written.
#[derive(Debug)]
pub struct FilesSection {
    format: Format,
    /// Blocks written so far (an XML document's index is one more).
    written: usize,
    /// Files named but not included (`auto_aggregate = false`), listed at
    /// the end of a Markdown section.
    listed: Vec<String>,
}

impl FilesSection {
    /// Start the section in `opts.format`.
    pub fn start(out: &mut Out, opts: &ComposeOptions) -> Self {
        if opts.format == Format::Markdown {
            markdown::files_start(out, opts);
        }
        FilesSection {
            format: opts.format,
            written: 0,
            listed: Vec::new(),
        }
    }

    /// The next file of the composition (binary and oversize ones are
    /// already left out): its block when it is included, its body's place
    /// noted in `f.body_at` and, with [`Bodies::Release`], its body
    /// dropped; else its name for the list at the end.
    pub fn file(&mut self, out: &mut Out, f: &mut RenderedFile, bodies: Bodies) {
        if !f.aggregate {
            if self.format == Format::Markdown {
                self.listed.push(f.path.clone());
            }
            return;
        }
        let at = match self.format {
            Format::Markdown => {
                out.push_str("\n\n");
                markdown::write_markdown_file(out, f)
            }
            Format::Xml => xml::write_document(out, self.written + 1, f),
        };
        self.written += 1;
        f.body_at = at.map(|from| from..from + f.text.len());
        if bodies == Bodies::Release {
            f.text = super::no_text();
        }
    }

    /// End the section.
    pub fn end(self, out: &mut Out) {
        if self.format == Format::Markdown {
            markdown::files_end(out, self.written > 0, &self.listed);
        }
    }
}
