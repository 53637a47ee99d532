//! Documentation in code: whether a line of a source file is a comment
//! or (in Python) a docstring, or a secret stands in a comment after code
//! on its line (`x = 1  # password = "…"`), where a rule that reads
//! prose's shapes (`in_prose = "quiet"`) reports nothing. Read only for
//! such a rule's findings; config files and the code's own lines stay as
//! they are.

/// How a file's language writes documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// `#` comments and `"""` docstrings.
    Python,
    /// `//` and `/* … */` comments.
    Slashes,
    /// `#` comments only.
    Hash,
}

fn family(path: &str) -> Option<Family> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" | "pyi" | "pyw" => Family::Python,
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "java" | "kt" | "kts"
        | "scala" | "go" | "rs" | "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "cs"
        | "swift" | "php" | "dart" => Family::Slashes,
        "rb" | "pl" | "pm" => Family::Hash,
        _ => return None,
    })
}

/// Whether 1-based `line` of `text`, the source of `path`, is
/// documentation: a comment line of code, or a line of a Python
/// docstring (a triple-quoted string standing as a statement, not one
/// assigned or passed: `CONFIG = """…"""` is the program's text).
pub fn is_documentation(path: &str, text: &str, line: usize) -> bool {
    let Some(family) = family(path) else {
        return false;
    };
    let Some(at) = line_start(text, line) else {
        return false;
    };
    let this = text[at..].lines().next().unwrap_or("").trim_start();
    match family {
        Family::Python => this.starts_with('#') || in_docstring(text, at),
        Family::Hash => this.starts_with('#'),
        Family::Slashes => {
            this.starts_with("//")
                || this.starts_with("/*")
                || this.starts_with('*')
                || in_block_comment(text, at)
        }
    }
}

/// Whether `secret` stands on 1-based `line` of `text`, the source of
/// `path`, only inside a comment that follows code there: after a `#`
/// (Python, Ruby, Perl) or `//` (C's family, JavaScript…) that no string
/// literal holds (`"https://…"`, `"# not a comment"` open none).
pub fn in_comment_after_code(path: &str, text: &str, line: usize, secret: &str) -> bool {
    let Some(family) = family(path) else {
        return false;
    };
    let Some(at) = line_start(text, line) else {
        return false;
    };
    let this = text[at..].lines().next().unwrap_or("");
    let Some(comment) = comment_start(this, family) else {
        return false;
    };
    !secret.is_empty() && !this[..comment].contains(secret) && this[comment..].contains(secret)
}

/// Where the comment on `line` starts, outside string literals.
fn comment_start(line: &str, family: Family) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if matches!(b, b'"' | b'\'' | b'`') => quote = Some(b),
            None if family == Family::Slashes && line[i..].starts_with("//") => return Some(i),
            None if family != Family::Slashes && b == b'#' => return Some(i),
            None => {}
        }
        i += 1;
    }
    None
}

/// Byte offset where 1-based `line` starts.
fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    if line == 1 {
        return Some(0);
    }
    text.match_indices('\n')
        .nth(line - 2)
        .map(|(i, _)| i + 1)
        .filter(|&i| i <= text.len())
}

/// How far back a block comment's opening line is looked for.
const BLOCK_LINES: usize = 200;

/// Whether the line at `at` is inside a `/* … */` block whose opening
/// line starts with `/*` (a `/*` inside a string, `"src/*.js"`, opens
/// nothing).
fn in_block_comment(text: &str, at: usize) -> bool {
    for line in text[..at].lines().rev().take(BLOCK_LINES) {
        if line.contains("*/") {
            return false;
        }
        if line.trim_start().starts_with("/*") {
            return true;
        }
    }
    false
}

/// Whether byte `at` of Python `text` is inside a docstring: the
/// triple-quoted strings are followed from the start (the file is read
/// once per question, and only a finding asks).
fn in_docstring(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let mut i = 0;
    while i + 2 < bytes.len() && i <= line_end {
        let b = bytes[i];
        if b == b'#' {
            // A comment runs to its line's end.
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n + 1);
            continue;
        }
        if (b == b'"' || b == b'\'') && bytes[i + 1] == b && bytes[i + 2] == b {
            let delimiter = &text[i..i + 3];
            let end = text[i + 3..]
                .find(delimiter)
                .map_or(bytes.len(), |n| i + 3 + n + 3);
            if at < end {
                return stands_alone(text, i);
            }
            i = end;
            continue;
        }
        if b == b'"' || b == b'\'' {
            // A one-line string: to its closing quote or the line's end.
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b && bytes[j] != b'\n' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            i = j + 1;
            continue;
        }
        i += 1;
    }
    false
}

/// Whether the triple-quoted string opening at `open` stands as a
/// statement: only a string prefix before it on its line, and the line
/// before does not go on into it (`=`, `(`, `,`, `+`, `\`…).
fn stands_alone(text: &str, open: usize) -> bool {
    let start = text[..open].rfind('\n').map_or(0, |i| i + 1);
    let before = text[start..open].trim_start();
    if !before.chars().all(|c| matches!(c, 'r' | 'R' | 'u' | 'U')) {
        return false;
    }
    let previous = text[..start]
        .lines()
        .rev()
        .map(str::trim_end)
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    !previous.is_some_and(|l| {
        l.ends_with(['=', '(', '[', '{', ',', '+', '\\', '%']) || l.ends_with("return")
    })
}

#[cfg(test)]
mod tests {
    use super::is_documentation;

    #[test]
    fn comments_and_docstrings_are_documentation() {
        let py = "def login(user, password):\n    \"\"\"Log in.\n\n    password: Tr0ub4dor&3 with space\n    \"\"\"\n    # password: Tr0ub4dor&3 with space\n    x = 1\n";
        assert!(is_documentation("a.py", py, 4));
        assert!(is_documentation("a.py", py, 6));
        assert!(!is_documentation("a.py", py, 7));
        let js =
            "/**\n * password: Tr0ub4dor&3 with space\n */\nconst a = 1;\n/*\npassword: x y\n*/\n";
        assert!(is_documentation("a.js", js, 2));
        assert!(!is_documentation("a.js", js, 4));
        assert!(is_documentation("a.js", js, 6));
        // Config files have no documentation here.
        assert!(!is_documentation("a.ini", "# password: x y\n", 1));
    }

    #[test]
    fn a_comment_after_code_is_told_from_strings() {
        use super::in_comment_after_code;
        let py = "x = 1  # password = \"a b\"\n";
        assert!(in_comment_after_code("a.py", py, 1, "a b"));
        let py = "x = \"# no\"; password = \"a b\"\n";
        assert!(!in_comment_after_code("a.py", py, 1, "a b"));
        let js = "u = \"https://x\"; p = 'a b'; // see p = 'a b'\n";
        assert!(!in_comment_after_code("a.js", js, 1, "a b"));
        let js = "f(); // password = 'a b'\n";
        assert!(in_comment_after_code("a.js", js, 1, "a b"));
        assert!(!in_comment_after_code(
            "a.ini",
            "x = 1 # p = a b\n",
            1,
            "a b"
        ));
    }

    #[test]
    fn strings_the_program_uses_are_no_docstrings() {
        let py = "CONFIG = \"\"\"\npassword = Tr0ub4dor&3 with space\n\"\"\"\nrun(\n    '''\n    password: Tr0ub4dor&3 with space\n    ''')\n";
        assert!(!is_documentation("a.py", py, 2));
        assert!(!is_documentation("a.py", py, 6));
        let glob = "const g = \"src/*.js\";\nconst p = 'password: Tr0ub4dor&3 with space';\n";
        assert!(!is_documentation("a.js", glob, 2));
    }
}
