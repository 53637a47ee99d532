//! What a front end asks about one file or one preset besides a build:
//! the block a file would add (the TUI's preview of a file outside the
//! context), a file's view for the clipboard (`Y`), the blocks' counts
//! ahead of a composition, and a preset's total (the gauge, the picker).

use crate::core::compose::{self, ComposeOptions, Composition, RenderedFile};
use crate::core::discovery::context::MapOptions;
use crate::core::model::{FileItem, Format, Preset, TokenizerKind};
use crate::core::secrets::{Finding, Scanner};
use crate::core::walk::ResolvedItem;

use super::Workspace;

/// Compositions up to this size are counted exactly as a whole; larger
/// ones sum their files' (cached) counts so a gauge stays fast.
pub const EXACT_TOTAL_LIMIT: usize = 2 * 1024 * 1024;

/// The block one file adds to a composition.
#[derive(Debug, Clone)]
pub struct FileBlock {
    /// The file as rendered (its mode, key, error and notes).
    pub file: RenderedFile,
    /// The block as the composition lays it out, in the output format;
    /// empty for a binary or oversize file, which a build leaves out
    /// with a note.
    pub text: String,
    pub tokens: usize,
}

/// One file's view, ready for the clipboard.
#[derive(Debug, Clone)]
pub struct FileCopy {
    pub text: String,
    /// `path [mode]`.
    pub label: String,
    pub tokens: usize,
    pub findings: Vec<Finding>,
}

impl Workspace<'_> {
    /// `item` read and rendered on its own (as a composition renders it).
    pub fn render(&self, item: FileItem, opts: &ComposeOptions) -> RenderedFile {
        let resolved = ResolvedItem::new(item, 0);
        compose::render_file(&self.codebase(), &resolved, opts)
    }

    /// The block `item` would add to the composition, in `opts.format`,
    /// and its tokens.
    pub fn block(
        &self,
        item: FileItem,
        opts: &ComposeOptions,
        tokenizer: TokenizerKind,
    ) -> FileBlock {
        let file = self.render(item, opts);
        if file.skipped.is_some() {
            return FileBlock {
                file,
                text: String::new(),
                tokens: 0,
            };
        }
        let text = match opts.format {
            Format::Markdown => compose::markdown_file(&file),
            Format::Xml => compose::xml_document(1, &file),
        };
        FileBlock {
            tokens: self.sources.count(tokenizer, &text),
            text,
            file,
        }
    }

    /// `item`'s view for the clipboard (an error in place of a file that
    /// cannot be shown), counted and scanned for secrets.
    pub fn file_copy(
        &self,
        item: FileItem,
        opts: &ComposeOptions,
        tokenizer: TokenizerKind,
    ) -> FileCopy {
        let file = self.render(item, opts);
        let text = match &file.error {
            Some(e) => format!("ERROR: {e}: {}", file.path),
            None => file.text.to_string(),
        };
        FileCopy {
            tokens: self.sources.count(tokenizer, &text),
            findings: Scanner::new(&self.codebase()).file(&file),
            label: format!("{} [{}]", file.path, file.mode),
            text,
        }
    }

    /// The Markdown block counts of a few files: (path, render key,
    /// tokens); a binary or oversize file counts 0 (a build leaves it out).
    pub fn block_tokens(
        &self,
        files: &[ResolvedItem],
        opts: &ComposeOptions,
        tokenizer: TokenizerKind,
    ) -> Vec<(String, String, usize)> {
        let codebase = self.codebase();
        files
            .iter()
            .map(|r| {
                let f = compose::render_file(&codebase, r, opts);
                let n = match f.skipped {
                    Some(_) => 0,
                    None => self.sources.count(tokenizer, &compose::markdown_file(&f)),
                };
                (f.path, f.key, n)
            })
            .collect()
    }

    /// The tokens of a composition as a gauge counts them: the whole
    /// text, or past [`EXACT_TOTAL_LIMIT`] the sum of its files' (cached)
    /// counts (`false`: not exact).
    pub fn total(&self, c: &Composition, tokenizer: TokenizerKind) -> (usize, bool) {
        if c.text.len() <= EXACT_TOTAL_LIMIT {
            (self.sources.count(tokenizer, &c.text), true)
        } else {
            let files = c.files.iter().filter(|f| f.aggregate);
            let sum = files
                .map(|f| self.sources.count(tokenizer, &compose::markdown_file(f)))
                .sum();
            (sum, false)
        }
    }

    /// [`Workspace::total`] of `preset`'s composition (the picker's
    /// totals).
    pub fn preset_total(
        &self,
        preset: &Preset,
        opts: &ComposeOptions,
        map: &MapOptions,
        tokenizer: TokenizerKind,
    ) -> (usize, bool) {
        self.total(&self.compose(preset, opts, map), tokenizer)
    }

    /// Empty the on-disk cache and the views made from it (summaries are
    /// made again); how many entries went.
    pub fn clear_cache(&self) -> std::io::Result<usize> {
        let cleared = self.sources.summarizer().disk().clear();
        self.sources.clear_views();
        cleared
    }
}
