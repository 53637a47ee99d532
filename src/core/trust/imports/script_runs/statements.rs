//! The statements of a script that go on over lines (recheck 21, item
//! 4): a call whose `(` is on the next line (PHP's `system⏎($w)`), whose
//! parentheses close lines later, or whose arguments go on after a
//! trailing comma (`system('sh',⏎ $w)`). Each is joined into one text,
//! read besides its lines (a quote misread on one line then hides
//! nothing that its own line shows). Bounded: a statement joins at most
//! [`MAX_LINES`] lines and [`MAX_BYTES`] bytes.

const MAX_LINES: usize = 32;
const MAX_BYTES: usize = 16 * 1024;

/// The statements of `lines` that span more than one line, each joined
/// with spaces.
pub(super) fn joined(lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut bytes = 0;
    let mut depth = 0usize;
    for (n, line) in lines.iter().enumerate() {
        current.push(line);
        bytes += line.len();
        depth = depth_after(line, depth);
        let t = line.trim_end();
        let next_opens = lines
            .get(n + 1)
            .is_some_and(|l| l.trim_start().starts_with('('));
        let goes_on = depth > 0 || t.ends_with([',', '.', '(']) || next_opens;
        if goes_on && current.len() < MAX_LINES && bytes < MAX_BYTES {
            continue;
        }
        if current.len() > 1 {
            out.push(one_text(&current));
        }
        current.clear();
        bytes = 0;
        depth = 0;
    }
    if current.len() > 1 {
        out.push(one_text(&current));
    }
    out
}

fn one_text(lines: &[&str]) -> String {
    lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ")
}

/// The depth of `(` open after `line`, from `depth` before it; quotes
/// on the line are read, a backslash escaping the next character.
fn depth_after(line: &str, depth: usize) -> usize {
    let mut depth = depth;
    let mut quote = None;
    let mut escaped = false;
    for c in line.chars() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (_, '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_over_lines_is_one_statement() {
        assert_eq!(joined(&["system", "($w);", "x();"]), ["system ($w);"]);
        assert_eq!(
            joined(&["system('sh',", "  $w", ");", "y();"]),
            ["system('sh', $w );"]
        );
        assert_eq!(joined(&["a();", "b(')');"]), Vec::<String>::new());
        let long = vec!["f("; 100];
        assert_eq!(joined(&long).len(), 4);
    }
}
