//! The private keys RFCs publish as PEM examples, by SHA-256 digest of
//! their DER bytes: keys test suites and documentation copy (ASN.1
//! libraries test their parsers on them), no one's secret since the RFC
//! printed them. A key body found by the private-key rules
//! (`published_keys = true`) or as a body without its `BEGIN` line is
//! passed when its bytes are one of them; any other key is found as
//! before. Only keys whose text could be read from a package here are
//! listed (see each digest's comment).

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of each published key's DER bytes.
const PUBLISHED: &[&str] = &[
    // RFC 8410, Section 10.3: the Ed25519 private key, without its public
    // key. Text as pyasn1-modules 0.4.2 copies it (sdist,
    // tests/test_rfc8410.py, `no_pub_key_pem_text`).
    "80b885d1af82668ad76d1c5a1a916b5bfc23d247e2f7f450e45b5c1024843e96",
    // RFC 8410, Section 10.3: the same key with its public key and the
    // "Curdle Chairs" attribute (OneAsymmetricKey). Text as pyasn1-modules
    // 0.4.2 copies it (sdist, tests/test_rfc5958.py, `priv_key_pem_text`).
    "78f1cd2051065b209431249093f218b0e01a5fd0b9e756db820d4893d9dbbf55",
];

/// How much base64 a body is read for: more than a 4096-bit RSA key's.
const MAX_BODY: usize = 8 << 10;

/// Whether the key body whose base64 starts `tail` (a PEM file's lines,
/// or literals joined in code: `"MC4C…" "…"`, `"…\n" + "…"`) is one an
/// RFC publishes.
pub(super) fn is_published(tail: &str) -> bool {
    // Blanks and joins between the lines count too: a body is read
    // within a bounded stretch of text.
    let tail = &tail[..tail.floor_char_boundary(4 * MAX_BODY)];
    let Some(base64) = body(tail) else {
        return false;
    };
    let digest = Sha256::digest(super::key_body::decode(&base64));
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    PUBLISHED.contains(&hex.as_str())
}

/// The base64 of the body opening `tail`: in a file, base64 and line
/// breaks up to anything else (`-----END`); in code (the text before
/// `tail` opened a literal), the literals' base64, their `\n` escapes
/// aside, up to what is neither a literal nor a join between two. `None`
/// past [`MAX_BODY`].
fn body(tail: &str) -> Option<String> {
    let mut base64 = String::new();
    // The quote of the literals the body stands in: `tail` ends one
    // before any line break.
    let quote = tail
        .find(['"', '\'', '\n'])
        .and_then(|i| tail[i..].chars().next())
        .filter(|&c| c != '\n');
    let mut inside = true;
    let mut chars = tail.chars().peekable();
    while let Some(c) = chars.next() {
        if base64.len() > MAX_BODY {
            return None;
        }
        match c {
            ' ' | '\t' | '\r' | '\n' => {}
            _ if Some(c) == quote => inside = !inside,
            'A'..='Z' | 'a'..='z' | '0'..='9' | '/' | '=' | '+' if inside => base64.push(c),
            '\\' if inside && quote.is_some() && matches!(chars.peek(), Some('n' | 'r')) => {
                chars.next();
            }
            // Between two literals: a join.
            '+' | '(' | ')' | '\\' | '.' | ',' if !inside => {}
            _ => break,
        }
    }
    Some(base64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RFC8410: &str = "MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC";

    #[test]
    fn the_published_keys_are_known_in_a_file_or_in_code() {
        assert!(is_published(&format!(
            "{RFC8410}\n-----END PRIVATE KEY-----\n"
        )));
        assert!(is_published(
            "MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwo\"\n        \"y/HU++CXqI9EdVhC\")\n"
        ));
        assert!(is_published(&format!("{RFC8410}\\n\" +\n  \"-----END")));
        assert!(is_published(
            "MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
             oB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrB\n\
             Z9w7lshQhqowtrbLDFw4rXAxZuE=\n"
        ));
    }

    #[test]
    fn another_key_is_not() {
        // One character changed.
        let other = RFC8410.replace("EdVhC", "EdVhD");
        assert!(!is_published(&format!(
            "{other}\n-----END PRIVATE KEY-----\n"
        )));
        // The published key with more after it is another key.
        assert!(!is_published(&format!("{RFC8410}\nAAAA\n")));
    }
}
