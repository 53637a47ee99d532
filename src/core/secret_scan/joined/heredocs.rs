//! A value in a heredoc (round 22): `PASSWORD = <<~EOS` (Ruby's `<<~`,
//! `<<-`, `<<`, quoted or not), PHP's `$password = <<<EOT` and nowdoc
//! `<<<'EOT'`, Perl's `my $password = <<'EOF';`, Terraform's `password =
//! <<-EOF`, a hash's `password: <<~EOS` or `'password' => <<<EOT`, whose
//! body is one line and whose end marker is the line after. The opener
//! (with what follows it on its line: `.strip`, `;`, `,`) and the body's
//! indent are cut for a `"`, and so are the body's line end and the end
//! marker, so the copy reads `PASSWORD ="…"` and the rules judge the
//! assignment as they judge a quoted literal. A body of several lines is
//! not read this way (a key's PEM lines are found as they stand). A body
//! that is itself one quoted literal (`"v1"`) has its quotes cut too.

use std::ops::Range;

use super::Cut;

/// How far a line's parts are looked through: the blanks before the
/// opener, the rest of its line, the end marker's indent.
const NEAR: usize = 64;

/// The longest body read as a value (a passphrase, a token).
const MAX_BODY: usize = 1024;

/// The longest end marker.
const MAX_MARKER: usize = 64;

/// The cuts that make each one-line heredoc assigned in `text` a quoted
/// literal. Each `<<` reads a bounded number of bytes after its cheap
/// checks (an assignment before it, a marker after it), and a heredoc
/// found is skipped past, so the pass is linear.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text.get(from..).and_then(|rest| rest.find("<<")) {
        let opener = from + at;
        from = opener + 2;
        if opener > 0 && bytes[opener - 1] == b'<' {
            continue;
        }
        let Some(value) = assigned_at(bytes, opener) else {
            continue;
        };
        let Some((marker, line_end)) = marker(bytes, opener) else {
            continue;
        };
        let Some((body, end)) = one_line_body(bytes, line_end, &bytes[marker.clone()]) else {
            continue;
        };
        out.push(Cut::quoted(value..body.start));
        out.push(Cut::quoted(body.end..end));
        from = end;
    }
    out
}

/// Where the value starts when the `<<` at `opener` is what an assignment
/// assigns: past blanks back from it, an `=` (not `==`, `!=`, `<=`,
/// `>=`), an `=>`, or a key's `:` (not `::`).
fn assigned_at(bytes: &[u8], opener: usize) -> Option<usize> {
    let mut i = opener;
    while i > 0 && opener - i < NEAR && matches!(bytes[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    let op = i.checked_sub(1)?;
    let before = op.checked_sub(1).map(|b| bytes[b]);
    let assigns = match bytes[op] {
        b'=' => !matches!(before, Some(b'=' | b'!' | b'<' | b'>')),
        b'>' => before == Some(b'='),
        b':' => {
            before.is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'"' | b'\''))
        }
        _ => false,
    };
    assigns.then_some(op + 1)
}

/// The end marker's name of the heredoc opened at `opener` (`<<~EOS`,
/// `<<-'EOS'`, `<<"EOS"`, `<<<EOT`, `<<<'EOT'`) and where its line ends
/// (the `\n`), within [`NEAR`] bytes.
fn marker(bytes: &[u8], opener: usize) -> Option<(Range<usize>, usize)> {
    let mut i = opener + 2;
    if bytes.get(i) == Some(&b'<') {
        i += 1;
        while matches!(bytes.get(i), Some(b' ' | b'\t')) && i - opener < NEAR {
            i += 1;
        }
    } else if matches!(bytes.get(i), Some(b'~' | b'-')) {
        i += 1;
    }
    let quote = bytes.get(i).copied().filter(|b| matches!(b, b'\'' | b'"'));
    if quote.is_some() {
        i += 1;
    }
    let start = i;
    if !bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return None;
    }
    while bytes.get(i).is_some_and(|&b| is_word(b)) && i - start < MAX_MARKER {
        i += 1;
    }
    let name = start..i;
    if let Some(q) = quote {
        if bytes.get(i) != Some(&q) {
            return None;
        }
        i += 1;
    } else if bytes.get(i).is_some_and(|&b| is_word(b)) {
        return None;
    }
    let line_end = i + bytes[i..].iter().take(NEAR).position(|&b| b == b'\n')?;
    Some((name, line_end))
}

/// The body of a heredoc whose opener's line ends at `line_end`, when it
/// is one line of at most [`MAX_BODY`] bytes (its indent and trailing
/// blanks aside, no `"` in it) followed by the line ending it with
/// `marker`: the body's range and the end of that marker.
fn one_line_body(bytes: &[u8], line_end: usize, marker: &[u8]) -> Option<(Range<usize>, usize)> {
    let start = past_blanks(bytes, line_end + 1);
    let newline = start
        + bytes[start..]
            .iter()
            .take(MAX_BODY + 2)
            .position(|&b| b == b'\n')?;
    let mut end = newline;
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b'\r') {
        end -= 1;
    }
    // A body that is one quoted literal (`"v1"`, `'v1'`) is read as that
    // literal: its quotes are cut with the rest.
    let (start, end) = match bytes[start..end] {
        [q @ (b'"' | b'\''), ref inner @ .., last] if last == q && !inner.contains(&q) => {
            (start + 1, end - 1)
        }
        _ => (start, end),
    };
    // A body that interpolates (`#{…}`, `${…}`, PHP's `{$…}`) is no
    // literal.
    let body = &bytes[start..end];
    let interpolates = [&b"#{"[..], b"${", b"{$"]
        .iter()
        .any(|mark| body.windows(2).any(|w| w == *mark));
    if end == start || body.contains(&b'"') || interpolates {
        return None;
    }
    let close = past_blanks(bytes, newline + 1);
    let after = close + marker.len();
    let ends = bytes[close..].starts_with(marker) && !bytes.get(after).is_some_and(|&b| is_word(b));
    ends.then_some((start..end, after))
}

/// Past at most [`NEAR`] spaces and tabs from `i`.
fn past_blanks(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j - i < NEAR && matches!(bytes.get(j), Some(b' ' | b'\t')) {
        j += 1;
    }
    j
}

/// A byte of a marker's name.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` with its cuts made, each stand-in in place.
    fn cut(text: &str) -> String {
        super::super::with_cuts_made(text, cuts(text))
    }

    #[test]
    fn a_one_line_heredoc_reads_as_a_quoted_literal() {
        assert_eq!(cut("P = <<~EOS\n  v1\nEOS\n"), "P =\"v1\"\n");
        assert_eq!(cut("P = <<-'E'.strip\n v1 \n  E\n"), "P =\"v1\"\n");
        assert_eq!(cut("$p = <<<EOT\nv1\nEOT;\n"), "$p =\"v1\";\n");
        assert_eq!(cut("$p = <<< \"EOT\"\nv1\nEOT;\n"), "$p =\"v1\";\n");
        assert_eq!(cut("  p: <<~E,\n  v1\n  E\n"), "  p:\"v1\"\n");
        assert_eq!(cut("'p' => <<<E\nv1\nE,\n"), "'p' =>\"v1\",\n");
        // A body that is one quoted literal is that literal.
        assert_eq!(cut("P = <<~EOS\n  \"v1\"\nEOS\n"), "P =\"v1\"\n");
        assert_eq!(cut("P = <<~EOS\n  'v1'\nEOS\n"), "P =\"v1\"\n");
        for text in [
            "x = a << b\nv1\nb\n",
            "x == <<E\nv1\nE\n",
            "p = <<~EOS\n  v1\n  v2\nEOS\n",
            "p = <<~EOS\n  \"v1\" \"v2\"\nEOS\n",
            "p = <<~EOS\n  \"\"\nEOS\n",
            "$p = <<<EOT\n{$this->vault->p}\nEOT;\n",
            "p = <<~EOS\nv1\nEOSX\n",
            "p = <<~'EOS\nv1\nEOS\n",
            "p = <<<<EOS\nv1\nEOS\n",
            "cout << a;\n",
            "std::x :<<E\nv\nE\n",
        ] {
            assert_eq!(cut(text), text, "{text:?}");
        }
    }

    #[test]
    fn a_hostile_line_of_openers_reads_in_bounded_time() {
        // A megabyte of openers with no line end: each reads a bounded
        // number of bytes (a quadratic pass would not end here).
        let line = "=<<A=<<<B :<<~C ".repeat(1 << 16);
        assert!(cuts(&line).is_empty());
        let lines = "p = <<~E\nv1\nE\n".repeat(1 << 16);
        assert_eq!(cuts(&lines).len(), 2 << 16);
    }
}
