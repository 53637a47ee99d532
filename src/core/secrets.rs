//! Likely secrets in text about to leave the machine: private key blocks,
//! provider tokens (AWS, GCP, GitHub, Slack, OpenAI, Anthropic) and
//! high-entropy values assigned to names like `password`, `secret`, `token`.
//!
//! The CLI's `build` refuses to write a composition with findings (unless
//! `--allow-secrets`) and the TUI asks before copying one. A finding names
//! the file and line and a *masked* form of the match: the secret itself is
//! never echoed in full, so the warning cannot leak it into a terminal
//! scrollback or a log.
//!
//! The scan is line by line, in linear time (look-arounds are bounded), so
//! a 10 MB minified line costs about as much as reading it. It errs towards
//! silence on code: an assignment counts only when its value is a literal
//! that looks random, not an expression, a placeholder or a word.

use std::fmt;

use crate::core::compose::{Composition, RenderedFile};
use crate::core::model::ViewMode;

/// What a finding looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SecretKind {
    PrivateKey,
    AwsAccessKey,
    GcpApiKey,
    GitHubToken,
    SlackToken,
    OpenAiKey,
    AnthropicKey,
    /// A random-looking literal assigned to a name like `password`.
    Assignment,
}

impl SecretKind {
    /// A short human name.
    pub fn as_str(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "private key",
            SecretKind::AwsAccessKey => "AWS access key",
            SecretKind::GcpApiKey => "Google API key",
            SecretKind::GitHubToken => "GitHub token",
            SecretKind::SlackToken => "Slack token",
            SecretKind::OpenAiKey => "OpenAI key",
            SecretKind::AnthropicKey => "Anthropic key",
            SecretKind::Assignment => "secret-looking assignment",
        }
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One match in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    /// 1-based line of the text scanned.
    pub line: usize,
    pub kind: SecretKind,
    /// The match with all but its first few characters hidden.
    pub masked: String,
}

/// One match in a composition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The file (as in the composition), or `discussion`.
    pub path: String,
    /// 1-based line in the file's rendered view; the file's own line when
    /// `mode` is `full`.
    pub line: usize,
    /// The view the line is counted in.
    pub mode: ViewMode,
    pub kind: SecretKind,
    pub masked: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path, self.line)?;
        if self.mode != ViewMode::Full {
            write!(f, " (of the {} view)", self.mode)?;
        }
        write!(f, ": {} {}", self.kind, self.masked)
    }
}

/// The findings in every rendered file of `c`, in file order.
pub fn scan_composition(c: &Composition) -> Vec<Finding> {
    c.files.iter().flat_map(scan_file).collect()
}

/// The findings in one rendered file (none when it is not rendered).
pub fn scan_file(f: &RenderedFile) -> Vec<Finding> {
    if !f.aggregate || f.error.is_some() {
        return Vec::new();
    }
    scan(&f.text)
        .into_iter()
        .map(|h| Finding {
            path: f.path.clone(),
            line: h.line,
            mode: f.mode,
            kind: h.kind,
            masked: h.masked,
        })
        .collect()
}

/// Every likely secret in `text`, by line.
pub fn scan(text: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let next = lines.peek().map(|(_, l)| *l);
        let before = hits.len();
        if let Some(masked) = private_key(line, next) {
            hits.push(Hit {
                line: i + 1,
                kind: SecretKind::PrivateKey,
                masked,
            });
        }
        tokens(line, i + 1, &mut hits);
        if hits.len() == before {
            assignments(line, i + 1, &mut hits);
        }
    }
    hits
}

/// `first4…(N chars)`: enough to recognise, not enough to use.
pub fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    let shown: String = secret.chars().take(if n > 20 { 4 } else { 2 }).collect();
    format!("{shown}…({n} chars)")
}

/// A `-----BEGIN … PRIVATE KEY-----` header followed by key material (on
/// the next line, or after a literal `\n` as in a JSON service account).
fn private_key(line: &str, next: Option<&str>) -> Option<String> {
    let start = line.find("-----BEGIN ")?;
    let rest = &line[start + 11..];
    let end = rest.find("-----")?;
    let label = &rest[..end];
    if !label.ends_with("PRIVATE KEY") && !label.ends_with("PRIVATE KEY BLOCK") {
        return None;
    }
    let after = &rest[end + 5..];
    let inline = after
        .strip_prefix("\\n")
        .is_some_and(|a| base64_run(a) >= 20);
    let below = next.is_some_and(|n| {
        let n = n.trim();
        base64_run(n) >= 20 || n.starts_with("Proc-Type:") || n.starts_with("Version:")
    });
    (inline || below).then(|| format!("-----BEGIN {label}----- …"))
}

fn base64_run(s: &str) -> usize {
    s.bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count()
}

/// Provider token shapes: a fixed prefix, then a run of token characters
/// of at least a minimum length, not glued to a longer word.
struct TokenShape {
    prefix: &'static str,
    kind: SecretKind,
    min: usize,
    /// Extra characters allowed in the body besides ASCII alphanumerics.
    extra: &'static [u8],
    /// The body must mix letters and digits (cuts prose like `sk-some-name`).
    mixed: bool,
}

const SHAPES: &[TokenShape] = &[
    TokenShape {
        prefix: "AKIA",
        kind: SecretKind::AwsAccessKey,
        min: 16,
        extra: b"",
        mixed: false,
    },
    TokenShape {
        prefix: "ASIA",
        kind: SecretKind::AwsAccessKey,
        min: 16,
        extra: b"",
        mixed: false,
    },
    TokenShape {
        prefix: "AIza",
        kind: SecretKind::GcpApiKey,
        min: 35,
        extra: b"_-",
        mixed: true,
    },
    TokenShape {
        prefix: "ghp_",
        kind: SecretKind::GitHubToken,
        min: 36,
        extra: b"",
        mixed: true,
    },
    TokenShape {
        prefix: "gho_",
        kind: SecretKind::GitHubToken,
        min: 36,
        extra: b"",
        mixed: true,
    },
    TokenShape {
        prefix: "ghu_",
        kind: SecretKind::GitHubToken,
        min: 36,
        extra: b"",
        mixed: true,
    },
    TokenShape {
        prefix: "ghs_",
        kind: SecretKind::GitHubToken,
        min: 36,
        extra: b"",
        mixed: true,
    },
    TokenShape {
        prefix: "ghr_",
        kind: SecretKind::GitHubToken,
        min: 36,
        extra: b"",
        mixed: true,
    },
    TokenShape {
        prefix: "github_pat_",
        kind: SecretKind::GitHubToken,
        min: 40,
        extra: b"_",
        mixed: true,
    },
    TokenShape {
        prefix: "xoxb-",
        kind: SecretKind::SlackToken,
        min: 10,
        extra: b"-",
        mixed: true,
    },
    TokenShape {
        prefix: "xoxp-",
        kind: SecretKind::SlackToken,
        min: 10,
        extra: b"-",
        mixed: true,
    },
    TokenShape {
        prefix: "xoxa-",
        kind: SecretKind::SlackToken,
        min: 10,
        extra: b"-",
        mixed: true,
    },
    TokenShape {
        prefix: "xoxr-",
        kind: SecretKind::SlackToken,
        min: 10,
        extra: b"-",
        mixed: true,
    },
    TokenShape {
        prefix: "xoxs-",
        kind: SecretKind::SlackToken,
        min: 10,
        extra: b"-",
        mixed: true,
    },
    TokenShape {
        prefix: "hooks.slack.com/services/",
        kind: SecretKind::SlackToken,
        min: 20,
        extra: b"/",
        mixed: true,
    },
    // Before `sk-`, which would also match it.
    TokenShape {
        prefix: "sk-ant-",
        kind: SecretKind::AnthropicKey,
        min: 32,
        extra: b"_-",
        mixed: true,
    },
    TokenShape {
        prefix: "sk-",
        kind: SecretKind::OpenAiKey,
        min: 32,
        extra: b"_-",
        mixed: true,
    },
];

fn tokens(line: &str, line_no: usize, hits: &mut Vec<Hit>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // Tokens start at a word boundary, with a prefix's first letter.
        if !matches!(bytes[i], b'A' | b'g' | b'x' | b'h' | b's') || (i > 0 && is_word(bytes[i - 1]))
        {
            i += 1;
            continue;
        }
        let found = SHAPES.iter().find_map(|shape| {
            let rest = bytes[i..].strip_prefix(shape.prefix.as_bytes())?;
            let body = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || shape.extra.contains(b))
                .count();
            let glued = rest.get(body).is_some_and(|b| is_word(*b));
            let body_bytes = &rest[..body];
            let mixed = body_bytes.iter().any(u8::is_ascii_digit)
                && body_bytes.iter().any(u8::is_ascii_alphabetic);
            let upper_ok = shape.kind != SecretKind::AwsAccessKey
                || body_bytes
                    .iter()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
            (body >= shape.min && !glued && upper_ok && (mixed || !shape.mixed))
                .then(|| (shape.kind, shape.prefix.len() + body))
        });
        match found {
            Some((kind, len)) => {
                hits.push(Hit {
                    line: line_no,
                    kind,
                    masked: mask(&line[i..i + len]),
                });
                i += len;
            }
            None => i += 1,
        }
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Name fragments that make an assigned literal sensitive.
const SENSITIVE_NAMES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "api_key",
    "api-key",
    "access_key",
    "auth_key",
    "private_key",
    "credential",
];

/// How far (bytes) the name and the value may extend from the operator.
const LOOK: usize = 256;

fn assignments(line: &str, line_no: usize, hits: &mut Vec<Hit>) {
    let bytes = line.as_bytes();
    for (op, &b) in bytes.iter().enumerate() {
        if b != b'=' && b != b':' {
            continue;
        }
        // `==`, `!=`, `<=`, `>=`, `::`, `=>`/`:=` handled by the neighbours.
        let prev = op.checked_sub(1).map(|p| bytes[p]);
        let next = bytes.get(op + 1).copied();
        if matches!(prev, Some(b'=' | b'!' | b'<' | b'>' | b':'))
            || matches!(next, Some(b'=' | b':'))
        {
            continue;
        }
        let Some(name) = name_before(line, op) else {
            continue;
        };
        let lower = name.to_ascii_lowercase();
        if !SENSITIVE_NAMES.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let after = if next == Some(b'>') { op + 2 } else { op + 1 };
        if let Some(value) = literal_after(line, after)
            && looks_random(value)
        {
            hits.push(Hit {
                line: line_no,
                kind: SecretKind::Assignment,
                masked: format!("{name} = {}", mask(value)),
            });
            return;
        }
    }
}

/// The identifier (possibly quoted, as a dict key) right before `op`.
fn name_before(line: &str, op: usize) -> Option<&str> {
    let bytes = line.as_bytes();
    let mut end = op;
    while end > 0 && bytes[end - 1] == b' ' {
        end -= 1;
    }
    if end > 0 && matches!(bytes[end - 1], b'"' | b'\'') {
        end -= 1;
    }
    let mut start = end;
    while start > 0
        && end - start < LOOK
        && (is_word(bytes[start - 1]) || matches!(bytes[start - 1], b'-' | b'.'))
    {
        start -= 1;
    }
    (start < end).then(|| &line[start..end])
}

/// A quoted string literal after the operator, or (in `KEY=value` files)
/// a bare value running to the end of the line.
fn literal_after(line: &str, from: usize) -> Option<&str> {
    let rest = line.get(from..)?.trim_start();
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    if matches!(first, '"' | '\'' | '`') {
        let body = &rest[1..];
        let end = body
            .char_indices()
            .take_while(|(i, _)| *i < LOOK)
            .find(|(_, c)| *c == first)
            .map(|(i, _)| i)?;
        return Some(&body[..end]);
    }
    // A bare value counts only when it is the whole rest of the line, as
    // in `.env` and INI files: code would have an expression here.
    if rest.len() > LOOK {
        return None;
    }
    let value = rest.trim_end().trim_end_matches([';', ',']);
    (!value.contains([' ', '(', ')', '[', ']', '{', '}'])).then_some(value)
}

/// Long enough, varied enough, and not a placeholder, path or word.
fn looks_random(value: &str) -> bool {
    let len = value.chars().count();
    if !(10..=200).contains(&len) || value.contains(char::is_whitespace) {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    const PLACEHOLDERS: &[&str] = &[
        "example",
        "xxxx",
        "your",
        "change",
        "dummy",
        "sample",
        "test",
        "fake",
        "secret",
        "password",
        "token",
        "placeholder",
        "redacted",
        "<",
        ">",
        "$",
        "{",
        "%",
        "*",
        "/",
        "\\",
        "...",
        "…",
    ];
    if PLACEHOLDERS.iter().any(|p| lower.contains(p)) {
        return false;
    }
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        value.bytes().any(|b| b.is_ascii_digit()),
        value.bytes().any(|b| b.is_ascii_punctuation()),
    ];
    let has_digit = classes[2];
    let kinds = classes.iter().filter(|c| **c).count();
    // Identifiers like `MY_CONFIG_VALUE` or `some.module.name` are not secrets.
    if !has_digit && kinds < 3 {
        return false;
    }
    kinds >= 2 && entropy(value) >= 3.0
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut n = 0.0;
    for c in s.chars() {
        *counts.entry(c).or_insert(0.0) += 1.0;
        n += 1.0;
    }
    counts
        .values()
        .map(|&k: &f64| {
            let p = k / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(usize, SecretKind)> {
        scan(text).into_iter().map(|h| (h.line, h.kind)).collect()
    }

    #[test]
    fn finds_provider_tokens() {
        let text = "\
aws = AKIAIOSFODNN7EXAMPL3
gh = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"
slack: xoxb-1234567890-abcdefghij
openai = sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z
anthropic = sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z
gcp = AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q
";
        assert_eq!(
            kinds(text),
            [
                (1, SecretKind::AwsAccessKey),
                (2, SecretKind::GitHubToken),
                (3, SecretKind::SlackToken),
                (4, SecretKind::OpenAiKey),
                (5, SecretKind::AnthropicKey),
                (6, SecretKind::GcpApiKey),
            ]
        );
    }

    #[test]
    fn finds_private_key_blocks() {
        let pem = "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv8nCq3c0ZJmY0y3S8u8b\n-----END RSA PRIVATE KEY-----\n";
        assert_eq!(kinds(pem), [(2, SecretKind::PrivateKey)]);
        let json = r#"  "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n","#;
        assert_eq!(kinds(json), [(1, SecretKind::PrivateKey)]);
        // Code that merely names the header is not a key.
        let code = "if line.startswith('-----BEGIN PRIVATE KEY-----'):\n    return True\n";
        assert!(kinds(code).is_empty());
        assert!(kinds("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n").is_empty());
    }

    #[test]
    fn finds_random_assignments_but_not_code() {
        let text = "\
DB_PASSWORD=hU8#kq2LmZ9pXv
api_key = 'f3Jk9QmZ2xLp7Rt4'
config = {\"client_secret\": \"Zq8Lm3Xv9Kp2Rt7W\"}
password = os.environ['PASSWORD']
token = get_token(user)
password = 'changeme123'
secret_key = 'django-insecure-example-key'
PASSWORD_FIELD = 'password_confirmation'
if password == 'hU8#kq2LmZ9pXv': pass
TOKEN_TYPE = \"Bearer\"
";
        assert_eq!(
            kinds(text),
            [
                (1, SecretKind::Assignment),
                (2, SecretKind::Assignment),
                (3, SecretKind::Assignment)
            ]
        );
    }

    #[test]
    fn the_secret_is_never_shown_in_full() {
        let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let hits = scan(key);
        assert_eq!(hits.len(), 1);
        assert!(!hits[0].masked.contains(key));
        assert_eq!(hits[0].masked, "ghp_…(40 chars)");
        let hits = scan("password = \"hU8#kq2LmZ9pXv\"");
        assert_eq!(hits[0].masked, "password = hU…(14 chars)");
    }

    #[test]
    fn glued_or_short_tokens_are_not_keys() {
        assert!(kinds("task-management-is-a-long-word-without-digits").is_empty());
        assert!(kinds("xAKIAIOSFODNN7EXAMPL3").is_empty());
        assert!(kinds("ghp_short").is_empty());
        assert!(kinds("risk-assessment-2024-final-version-copy").is_empty());
    }

    #[test]
    fn a_huge_line_is_scanned_in_linear_time() {
        // Not timed: a quadratic scan of 4 MB would not finish in the test
        // run, a linear one is instant.
        let line = "a=\"=:".repeat(1 << 18);
        assert!(scan(&line).is_empty());
    }
}
