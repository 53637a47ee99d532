//! The files section, one block at a time, in either format: the
//! in-memory composition and the streamed build (`core::engine::stream`)
//! both write through [`FilesSection`], so a file's block is laid out in
//! one place whichever way the text goes.

use super::options::ComposeOptions;
use super::out::Out;
use super::{Bodies, RenderedFile, markdown, xml};
use crate::core::model::Format;
use crate::core::views::{MISSING_SYMBOLS_NAMED, NoteKind};

/// The files section being written.
#[derive(Debug)]
pub struct FilesSection {
    format: Format,
    /// Blocks written so far (an XML document's index is one more).
    written: usize,
    /// Files named but not included (`auto_aggregate = false`), listed at
    /// the end of a Markdown section.
    listed: Vec<String>,
    /// Notes on masked symbols not found, written so far: past
    /// [`MISSING_SYMBOLS_NAMED`] a file's are left out (2,000 files each
    /// masking 33 missing names put 66,000 notes in the context, recheck
    /// 16b), and the files so cut counted for [`FilesSection::end`].
    missing_named: usize,
    missing_unnamed_files: usize,
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
            missing_named: 0,
            missing_unnamed_files: 0,
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
        self.bound_missing_symbols(f);
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

    /// `f`'s notes on masked symbols it does not have, left out once the
    /// composition named [`MISSING_SYMBOLS_NAMED`] (the file's own are
    /// bounded so when it is rendered).
    fn bound_missing_symbols(&mut self, f: &mut RenderedFile) {
        let missing = f
            .notes
            .iter()
            .filter(|n| n.kind == NoteKind::MissingSymbol)
            .count();
        if missing == 0 {
            return;
        }
        if self.missing_named >= MISSING_SYMBOLS_NAMED {
            f.notes.retain(|n| n.kind != NoteKind::MissingSymbol);
            self.missing_unnamed_files += 1;
        } else {
            self.missing_named += missing;
        }
    }

    /// End the section; a note for the composition's problems when some
    /// files' masked symbols not found went unnamed.
    pub fn end(self, out: &mut Out) -> Option<String> {
        if self.format == Format::Markdown {
            markdown::files_end(out, self.written > 0, &self.listed);
        }
        (self.missing_unnamed_files > 0).then(|| {
            format!(
                "masked symbols not found in {} more {} are not named (`ctxcurate symbols FILE` lists a file's)",
                self.missing_unnamed_files,
                if self.missing_unnamed_files == 1 { "file" } else { "files" }
            )
        })
    }
}
