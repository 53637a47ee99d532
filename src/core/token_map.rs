//! Where the tokens go: the included files of a composition by their
//! token count, largest first, each with its share of the budget, then
//! the repo map and the rest. The `stats` command prints it; the TUI
//! shows the same rows.

use serde::Serialize;

use crate::core::compose::{self, Composition};
use crate::core::model::{TokenizerKind, ViewMode};
use crate::core::sources::Sources;
use crate::text::words::{plural, thousands};

/// One rendered file of the composition.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenRow {
    pub path: String,
    pub mode: ViewMode,
    /// Tokens of the file's whole section (heading, fence and body).
    pub tokens: usize,
    /// The file could not be rendered (its section holds the reason).
    pub error: bool,
}

/// The composition's token use, file by file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenMap {
    pub tokenizer: TokenizerKind,
    pub budget: usize,
    /// Tokens of the whole composed text.
    pub total: usize,
    /// Tokens of the repo map section (0: no map).
    pub repo_map: usize,
    /// What is neither a file's section nor the repo map: the header,
    /// tree, discussion, task.
    pub other: usize,
    /// Largest first; equal counts by path.
    pub files: Vec<TokenRow>,
}

impl TokenMap {
    /// Count every rendered file of `c` and the whole text with `kind`
    /// (counts come from `sources` where the same text was counted before).
    pub fn of(c: &Composition, sources: &Sources, kind: TokenizerKind, budget: usize) -> Self {
        let files: Vec<TokenRow> = c
            .files
            .iter()
            .filter(|f| f.aggregate)
            .map(|f| TokenRow {
                path: f.path.clone(),
                mode: f.mode,
                tokens: sources.count(kind, &compose::markdown_file(f)),
                error: f.error.is_some(),
            })
            .collect();
        let map = c.map.as_deref().map_or(0, |m| sources.count(kind, m));
        TokenMap::from_rows(files, sources.count(kind, &c.text), kind, budget).with_repo_map(map)
    }

    /// The map of file rows counted elsewhere (the TUI's counts, which
    /// are these same counts made on its worker) and the `total` of the
    /// whole text: sorted largest first, the rest is what is not a file.
    pub fn from_rows(
        mut files: Vec<TokenRow>,
        total: usize,
        kind: TokenizerKind,
        budget: usize,
    ) -> Self {
        files.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.path.cmp(&b.path)));
        let in_files: usize = files.iter().map(|f| f.tokens).sum();
        TokenMap {
            tokenizer: kind,
            budget,
            total,
            repo_map: 0,
            // Sections counted alone can tokenize a token or two apart
            // from the whole: never below zero.
            other: total.saturating_sub(in_files),
            files,
        }
    }

    /// The map with `tokens` of its rest told apart as the repo map's.
    pub fn with_repo_map(mut self, tokens: usize) -> Self {
        let tokens = tokens.min(self.other + self.repo_map);
        self.other = self.other + self.repo_map - tokens;
        self.repo_map = tokens;
        self
    }

    /// `tokens` as a share of the whole text (0 when it is empty).
    pub fn share_of_total(&self, tokens: usize) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            tokens as f64 / self.total as f64
        }
    }

    /// `tokens` as a share of the budget (0 when there is no budget).
    pub fn share(&self, tokens: usize) -> f64 {
        if self.budget == 0 {
            0.0
        } else {
            tokens as f64 / self.budget as f64
        }
    }

    /// The map as a plain-text table: tokens, share of the budget, a bar
    /// of `bar_width` cells scaled to the largest file, the path and the
    /// mode; then the rest of the text and the total against the budget.
    pub fn table(&self, bar_width: usize) -> String {
        let mut out = String::new();
        for f in &self.files {
            out.push_str(&self.row(f.tokens, &row_label(f), bar_width));
            out.push('\n');
        }
        if self.repo_map > 0 {
            out.push_str(&self.row(self.repo_map, REPO_MAP_LABEL, bar_width));
            out.push('\n');
        }
        out.push_str(&self.row(self.other, OTHER_LABEL, bar_width));
        out.push('\n');
        out.push_str(&format!(
            "{:>9}  {:>6}  {}\n",
            thousands(self.total),
            percent(self.share(self.total)),
            self.total_label(),
        ));
        out
    }

    /// One line of the table: `tokens`, their share of the budget, a bar
    /// of `bar_width` cells scaled to the largest row, and `label`.
    pub fn row(&self, tokens: usize, label: &str, bar_width: usize) -> String {
        let largest = self
            .files
            .first()
            .map_or(0, |f| f.tokens)
            .max(self.other)
            .max(self.repo_map)
            .max(1);
        let cells = tokens.min(largest) * bar_width * 8 / largest;
        format!(
            "{:>9}  {:>6}  {:<bar_width$}  {label}",
            thousands(tokens),
            percent(self.share(tokens)),
            bar(cells),
        )
    }

    /// What the total line says after the numbers.
    pub fn total_label(&self) -> String {
        format!(
            "total of a {} token budget, {}, {}",
            thousands(self.budget),
            plural(self.files.len(), "file"),
            self.tokenizer
        )
    }
}

/// The label of the row that is neither a file nor the repo map.
pub const OTHER_LABEL: &str = "(header, tree, discussion, task)";

/// The label of the repo map's row (shown when there is a map).
pub const REPO_MAP_LABEL: &str = "(repo map)";

/// A file row's label: its path, and its mode unless full (or `[error]`).
pub fn row_label(f: &TokenRow) -> String {
    let mut label = f.path.clone();
    if f.error {
        label.push_str(" [error]");
    } else if f.mode != ViewMode::Full {
        label.push_str(&format!(" [{}]", f.mode));
    }
    label
}

/// A share as the table prints it (`12.3%`).
pub fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// A bar of `eighths` eighth-cells, in block characters.
fn bar(eighths: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let mut out = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        out.push(PARTS[eighths % 8]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::compose::RenderedFile;

    fn file(path: &str, mode: ViewMode, text: &str) -> RenderedFile {
        RenderedFile {
            path: path.into(),
            mode,
            text: text.into(),
            error: None,
            skipped: None,
            notes: Vec::new(),
            aggregate: true,
            key: String::new(),
            body_at: None,
        }
    }

    #[test]
    fn largest_first_with_shares_and_the_rest() {
        let files = vec![
            file("small.py", ViewMode::Full, "x = 1\n"),
            file("big.py", ViewMode::Skeleton, &"def f(): pass\n".repeat(50)),
            RenderedFile {
                aggregate: false,
                ..file("listed.py", ViewMode::Full, "not rendered\n")
            },
        ];
        let text = format!(
            "# Context\n\n{}{}",
            compose::markdown_file(&files[0]),
            compose::markdown_file(&files[1])
        );
        let c = Composition {
            text,
            files,
            problems: Vec::new(),
            left_out_notes: 0,
            skipped: Vec::new(),
            map: None,
        };
        let map = TokenMap::of(&c, &Sources::new(), TokenizerKind::O200k, 1_000);
        let paths: Vec<&str> = map.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["big.py", "small.py"]);
        assert!(map.files[0].tokens > 10 * map.files[1].tokens);
        assert!(map.other > 0 && map.other < 10, "{}", map.other);
        let table = map.table(10);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(
            lines[0].contains("██████████  big.py [skeleton]"),
            "{table}"
        );
        assert!(lines[1].ends_with("small.py"), "{table}");
        assert!(
            lines[3].contains("total of a 1,000 token budget, 2 files, o200k"),
            "{table}"
        );
    }

    #[test]
    fn the_repo_map_has_its_own_row() {
        let rows = vec![TokenRow {
            path: "a.py".into(),
            mode: ViewMode::Full,
            tokens: 100,
            error: false,
        }];
        let map = TokenMap::from_rows(rows, 1_000, TokenizerKind::O200k, 2_000).with_repo_map(850);
        assert_eq!((map.repo_map, map.other), (850, 50));
        let table = map.table(8);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert_eq!(
            lines[1], "      850   42.5%  ████████  (repo map)",
            "{table}"
        );
        assert!(
            lines[2].ends_with("(header, tree, discussion, task)"),
            "{table}"
        );
        // A map counted alone a token over the rest takes all of it.
        let map = map.with_repo_map(5_000);
        assert_eq!((map.repo_map, map.other), (900, 0));
        // No map: no row.
        let none = TokenMap::from_rows(Vec::new(), 10, TokenizerKind::O200k, 0);
        assert!(!none.table(8).contains("(repo map)"));
    }

    #[test]
    fn bars_in_eighths() {
        assert_eq!(bar(0), "");
        assert_eq!(bar(17), "██▏");
    }
}
