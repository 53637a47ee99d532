//! The words of a shell line that the shell expands into file names
//! (`tools/summ?rize.py`, `*.sh`, `{a,b}.sh`): what a consent cannot
//! cover, since a file added later matches. Read by `trust/scripts.rs`
//! for a command's own words and by `trust/unknown.rs` for the words that
//! name what a script runs (moved out of `scripts.rs` in recheck 25, so
//! the two read it without reading each other).

/// The words of a shell line that the shell expands into file names:
/// those with `*`, `?` or `[` outside quotes, or a `{…,…}` outside
/// quotes. Quotes and backslashes are read as `sh` reads them. The
/// patterns of a `case` (`"go1".[0-5]*)`, `*.c|*.h)`, `*)`) match a word,
/// not file names: they are none.
pub(super) fn shell_patterns(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut glob = false;
    let mut brace = false;
    let mut quote: Option<char> = None;
    let mut case = Case::None;
    // Whether the next word starts a command (where `case` is a keyword).
    let mut command = true;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, '\\') => word.extend(chars.next()),
            (None, c) if c.is_whitespace() || ";&|<>()`".contains(c) => {
                // In a case's pattern list, a word ends at `|` or `)`.
                let pattern = case == Case::Patterns && !word.is_empty();
                if (glob || brace) && !pattern && !out.contains(&word) {
                    out.push(word.clone());
                }
                case = case.after(&word, command, c, chars.peek().copied());
                if !word.is_empty() {
                    command = COMMAND_KEYWORDS.contains(&word.as_str());
                }
                command |= ";&|(\n".contains(c);
                word.clear();
                glob = false;
                brace = false;
            }
            (None, c) => {
                // `$?`, `$*` (a recipe's `$$?`) are the shell's parameters;
                // a `[` is a bracket only with its `]` (`[ -d x ]` is `test`).
                glob |= matches!(c, '*' | '?') && !word.ends_with('$');
                glob |= c == ']' && word.contains('[');
                brace |= c == ',' && word.contains('{');
                word.push(c);
            }
        }
    }
    if (glob || brace) && case != Case::Patterns && !out.contains(&word) {
        out.push(word);
    }
    out
}

/// The words after which a command starts.
const COMMAND_KEYWORDS: &[&str] = &["then", "do", "else", "elif", "if", "while", "until", "!"];

/// Where a shell line is in a `case … in … esac`.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    None,
    /// After `case`: the word matched comes next.
    Word,
    /// After the word matched (its parts, for a `$(…)`): `in` comes next.
    In,
    /// Before a branch's `)`: its patterns.
    Patterns,
    /// A branch's commands, until `;;`.
    Body,
}

impl Case {
    /// The state after `word` (which starts a command when `command`),
    /// ended by `sep` (`next` the character after it).
    fn after(self, word: &str, command: bool, sep: char, next: Option<char>) -> Case {
        if word.is_empty() {
            return match self {
                Case::Body if sep == ';' && next == Some(';') => Case::Patterns,
                state => state,
            };
        }
        match (self, word) {
            (Case::None | Case::Body, "case") if command => Case::Word,
            (Case::Word, _) => Case::In,
            (Case::In, "in") => Case::Patterns,
            // The word may be a `$(…)` (split at its parentheses); a
            // command's end without `in` is no case.
            (Case::In, _) if ";&|\n".contains(sep) => Case::None,
            (_, "esac") => Case::None,
            (Case::Patterns, _) if sep == ')' => Case::Body,
            (Case::Body, _) if sep == ';' && next == Some(';') => Case::Patterns,
            (state, _) => state,
        }
    }
}
