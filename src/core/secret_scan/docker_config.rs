//! Registry logins in a docker config: `auths` → registry → `auth` (the
//! base64 of `user:password`, what `docker login` and `kubectl create
//! secret docker-registry` write) or `password`, also the legacy
//! `.dockercfg` (registry → `auth` at the top). The object holding the
//! member is named by a registry (a host, `host:port` or a URL): that
//! shape is a machine-written login, so its password is judged more
//! strictly than a bare `"auth"` anywhere: only a plain placeholder
//! (`user:password`, `admin:admin`, `P@ssw0rd1`, `${PASS}`) passes, not a
//! password built of placeholder words (`S3cr3tPassw0rd!x`). The text is
//! read by hand, not parsed: a config pasted into YAML or a document is
//! found as well as a `config.json`.

use std::ops::Range;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

/// One registry login: the member's name and its value in the text.
pub(super) struct Login {
    pub name: Range<usize>,
    pub span: Range<usize>,
}

/// How far before a member its object's `{` is looked for.
const BACK: usize = 1024;

/// Every registry login in `text` whose password is no placeholder.
pub(super) fn find(text: &str) -> Vec<Login> {
    static MEMBERS: OnceLock<AhoCorasick> = OnceLock::new();
    let members = MEMBERS
        .get_or_init(|| AhoCorasick::new(["\"auth\"", "\"password\""]).expect("two needles"));
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for m in members.find_iter(text) {
        let Some(span) = string_value(bytes, m.end()) else {
            continue;
        };
        let value = &text[span.clone()];
        let password = if m.pattern().as_usize() == 0 {
            match basic_password(value) {
                Some(p) => p,
                None => continue,
            }
        } else {
            value.to_string()
        };
        if placeholder(&password) || !in_registry_object(bytes, m.start()) {
            continue;
        }
        found.push(Login {
            name: m.start() + 1..m.end() - 1,
            span,
        });
    }
    found
}

/// The range of the string after `pos` (`: "value"`), one line, no
/// escapes, at most 4 KiB.
fn string_value(bytes: &[u8], pos: usize) -> Option<Range<usize>> {
    let mut i = pos;
    let skip = |i: &mut usize| {
        while bytes.get(*i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
            *i += 1;
        }
    };
    skip(&mut i);
    if bytes.get(i) != Some(&b':') {
        return None;
    }
    i += 1;
    skip(&mut i);
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let start = i + 1;
    let len = bytes
        .get(start..)?
        .iter()
        .take(4096)
        .position(|&b| matches!(b, b'"' | b'\\' | b'\n' | b'\r'))?;
    (bytes.get(start + len) == Some(&b'"') && len > 0).then_some(start..start + len)
}

/// The password of `value`, the base64 of `user:password`.
fn basic_password(value: &str) -> Option<String> {
    if value.len() < 8
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    {
        return None;
    }
    let text = String::from_utf8(super::key_body::decode(value)).ok()?;
    let (user, password) = text.split_once(':')?;
    let printable = |s: &str| !s.is_empty() && !s.chars().any(char::is_control);
    (printable(user) && printable(password)).then(|| password.to_string())
}

/// Whether the member at `at` is one of an object named by a registry:
/// `"reg.example.com": {` (or `"localhost:5000"`, `"https://…"`) before
/// it, with only members of strings between.
fn in_registry_object(bytes: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(BACK);
    let Some(open) = bytes[from..at]
        .iter()
        .rposition(|&b| matches!(b, b'{' | b'}' | b'[' | b']'))
        .map(|i| from + i)
    else {
        return false;
    };
    if bytes[open] != b'{' {
        return false;
    }
    let mut i = open;
    let back = |i: &mut usize| {
        while *i > 0 && matches!(bytes[*i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            *i -= 1;
        }
    };
    back(&mut i);
    if i == 0 || bytes[i - 1] != b':' {
        return false;
    }
    i -= 1;
    back(&mut i);
    if i == 0 || bytes[i - 1] != b'"' {
        return false;
    }
    let end = i - 1;
    let Some(start) = bytes[end.saturating_sub(256)..end]
        .iter()
        .rposition(|&b| b == b'"')
        .map(|k| end.saturating_sub(256) + k + 1)
    else {
        return false;
    };
    let key = &bytes[start..end];
    let hostish = key
        .iter()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b':' | b'/' | b'-' | b'_'));
    hostish
        && (key.contains(&b'.') || key.contains(&b':') || key == b"localhost")
        && key.iter().any(u8::is_ascii_alphabetic)
}

/// The words documentation's logins are made of.
const PLACEHOLDERS: [&str; 24] = [
    "password", "passwd", "pass", "pwd", "secret", "example", "username", "user", "test",
    "changeme", "dummy", "fake", "sample", "your", "xxx", "123", "foo", "bar", "admin", "my",
    "token", "docker", "registry", "login",
];

/// Whether `password` is a placeholder: short, a variable or a template,
/// one character repeated, fewer than four letters and digits left once
/// the placeholder words are cut out (read as written: leetspeak is how
/// a real password is made of words), or one placeholder word in
/// leetspeak with digits or symbols after (`P@ssw0rd1`, `s3cr3t!`).
fn placeholder(password: &str) -> bool {
    static LEET: OnceLock<Regex> = OnceLock::new();
    static TEMPLATE: OnceLock<Regex> = OnceLock::new();
    if password.chars().count() < 6 {
        return true;
    }
    let template = TEMPLATE
        .get_or_init(|| Regex::new(r"^\$|\{\{|^<.*>$|^%|\.\.\.|…").unwrap_or_else(|_| never()));
    let lower = password.to_ascii_lowercase();
    let first = password.chars().next();
    if template.is_match(password) || password.chars().all(|c| Some(c) == first) {
        return true;
    }
    let mut rest = lower.clone();
    for word in PLACEHOLDERS {
        if rest.contains(word) {
            rest = rest.replace(word, " ");
        }
    }
    if rest.chars().filter(char::is_ascii_alphanumeric).count() < 4 {
        return true;
    }
    let leet = LEET.get_or_init(|| {
        Regex::new(
            r"^(?:p[a@4][s$5]{2}(?:w[o0]rd|wd)?|s[e3]cr[e3]t|ch[a4]ng[e3]_?m[e3]|l[e3]tm[e3][i1!]n|[a@4]dm[i1!]n|t[e3][s$5]t|[e3]x[a@4]mpl[e3]|qw[e3]rty|d[e3]f[a@4]ult|us[e3]r)[0-9!@#$%^&*?._-]*$",
        )
        .unwrap_or_else(|_| never())
    });
    leet.is_match(&lower)
}

/// A regex that matches nothing (the fallback of a pattern that is a
/// constant here: never used, the tests compile each).
fn never() -> Regex {
    Regex::new(r"[^\s\S]").expect("an empty class")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(text: &str) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in text.as_bytes().chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for k in 0..=chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * k)) as usize & 63]));
            }
        }
        out
    }

    fn logins(text: &str) -> usize {
        find(text).len()
    }

    #[test]
    fn a_login_under_a_registry_is_found() {
        let auth = b64("bob:S3cr3tPassw0rd!x");
        for text in [
            format!("{{\"auths\":{{\"reg.example.com\":{{\"auth\":\"{auth}\"}}}}}}"),
            format!("{{\"reg.example.com\":{{\"auth\":\"{auth}\",\"email\":\"a@b\"}}}}"),
            format!(
                "{{\n  \"auths\": {{\n    \"https://index.docker.io/v1/\": {{\n      \"auth\": \"{auth}\"\n    }}\n  }}\n}}"
            ),
            "{\"auths\":{\"localhost:5000\":{\"username\":\"bob\",\"password\":\"S3cr3tPassw0rd!x\"}}}"
                .to_string(),
        ] {
            assert_eq!(logins(&text), 1, "{text}");
        }
    }

    #[test]
    fn placeholders_and_other_objects_are_not_logins() {
        for password in [
            "password",
            "pass1234",
            "P@ssw0rd1",
            "s3cr3t!",
            "${PASS}",
            "<password>",
            "xxxxxxxx",
            "mypassword",
            "testpassword",
            "abc",
            "changeme",
            "{{ pass }}",
        ] {
            let text = format!(
                "{{\"auths\":{{\"reg.example.com\":{{\"auth\":\"{}\",\"password\":\"{password}\"}}}}}}",
                b64(&format!("user:{password}"))
            );
            assert_eq!(logins(&text), 0, "{password}");
        }
        let auth = b64("bob:S3cr3tPassw0rd!x");
        for text in [
            // Not named by a registry, or not an object's member.
            format!("{{\"settings\":{{\"auth\":\"{auth}\"}}}}"),
            format!("{{\"auth\":\"{auth}\"}}"),
            format!("[\"reg.example.com\", {{\"auth\":\"{auth}\"}}]"),
            // Not the base64 of `user:password`.
            "{\"reg.example.com\":{\"auth\":\"bearer-token-here\"}}".to_string(),
        ] {
            assert_eq!(logins(&text), 0, "{text}");
        }
    }
}
