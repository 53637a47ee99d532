//! Round fourteen (issue 37, what round thirteen left): a password with
//! blanks whose first word is a password's, before words prose also uses;
//! secrets split over concatenation without a keyword in their line, and
//! over PHP's, Lua's and VB's operators; the RFC's published example keys;
//! gzip past the inflate bound. Each with its near misses. The values are
//! made here.

use super::found;
use super::round_eleven::{alnum, check};

fn quiet(lines: &[String]) {
    let loud: Vec<String> = lines
        .iter()
        .filter(|l| !found(l).is_empty())
        .map(|l| format!("{l:?}: {:?}", found(l)))
        .collect();
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

#[test]
fn round_fourteen_a_password_word_before_prose_words_is_found() {
    let cases: Vec<(String, &str, &str)> = [
        "password=Tr0ub4dor&3 with space\n",
        "db.password=Tr0ub4dor&3 with space\n",
        "[db]\nhost = db\npassword = Tr0ub4dor&3 with space\n",
        "db:\n  password: Tr0ub4dor&3 with space\n",
        "DB_PASSWORD=Summer2024! and the rest\n",
        "environment:\n  - POSTGRES_PASSWORD=k9Pq@rT7 for all\n",
        "password: \"Tr0ub4dor&3 with space\"\n",
        "self.password = 'Xk7$pL9q with a space'\n",
    ]
    .into_iter()
    .map(|text| (text.to_string(), "ass", "spaced-password-leet"))
    .collect();
    check(&cases);
}

#[test]
fn round_fourteen_prose_after_a_password_key_stays_quiet() {
    quiet(
        &[
            "password: the user's password, with a minimum of 8 characters",
            "    password: utf-8 encoded bytes, with the salt",
            "    password: sha256 hash of the password",
            "    password: base64-encoded value of the password",
            "    password: x86_64 builds with it",
            "    password: k8s secret with the password",
            "password: P@ssw0rd with a space",
            "password = \"Passw0rd! is the default\"",
            "password: s3cr3t123 for the tests",
            "password = \"%s with %s\"",
            "password: $DB_PASSWORD with quotes",
            "password = \"{{ vault_pass }} with x\"",
        ]
        .map(String::from),
    );
    // A password alone is the other rules' (one finding, not two).
    let lone = format!("password=Tr0{}\n", alnum(1, 10));
    assert_eq!(found(&lone).len(), 1, "{:?}", found(&lone));
}

const HEX: &str = "0123456789abcdef";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

#[test]
fn round_fourteen_secrets_split_without_a_keyword_or_over_other_operators_are_found() {
    use super::round_eleven::random;
    let sk = format!("SK{}", random(HEX, 21, 32));
    // A Discord bot token: the base64 of an 18-digit id, then its parts.
    let discord = format!(
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.{}.{}",
        random(BASE64URL, 22, 6),
        random(BASE64URL, 23, 30)
    );
    let ghp = format!("{}_{}", "ghp", alnum(24, 36));
    let slack = format!("xoxb-{}-{}", random(HEX, 25, 12), alnum(26, 24));
    let cases = [
        (
            format!("SID = \"{}\" + \"{}\"\n", &sk[..10], &sk[10..]),
            "SID",
            "twilio-key",
        ),
        (
            format!("const t = '{}' + '{}';\n", &discord[..20], &discord[20..]),
            "const",
            "discord-bot-token",
        ),
        (
            format!("<?php $t = \"{}\" . \"{}\";\n", &ghp[..12], &ghp[12..]),
            "php",
            "github-token",
        ),
        (
            format!("local t = '{}' .. '{}'\n", &ghp[..12], &ghp[12..]),
            "local",
            "github-token",
        ),
        (
            format!("Dim t = \"{}\" & _\n    \"{}\"\n", &ghp[..12], &ghp[12..]),
            "Dim",
            "github-token",
        ),
        (
            format!("$s = 'xo' .\n  '{}';\n", &slack[2..]),
            "$s",
            "slack-token",
        ),
        (
            format!("$k = \"{}\" . \"{}\";\n", &sk[..20], &sk[20..]),
            "$k",
            "twilio-key",
        ),
    ];
    check(&cases);
}

#[test]
fn round_fourteen_ordinary_joins_stay_quiet() {
    quiet(
        &[
            "$msg = \"Hello \" . \"world\";",
            "local s = \"a\" .. \"b\" .. \"c\"",
            "x = \"The quick brown fox \" & \"jumps over\"",
            "$url = \"https://example.com/\" . \"path/to/resource/index.html\";",
            "h = \"0123456789abcdef\" + \"0123456789abcdef\"",
            "echo \"$a\".\"$b\"",
        ]
        .map(String::from),
    );
}

#[test]
fn round_fourteen_the_rfc_example_keys_are_quiet_others_are_found() {
    // RFC 8037, Appendix A.1, as printed.
    let rfc = "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\n \
               \"d\":\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\",\n \
               \"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}\n";
    assert!(found(rfc).is_empty(), "{:?}", found(rfc));
    // The same split over implicit concatenation, as test suites print it.
    let split = "KEY = {\"kty\": \"OKP\", \"crv\": \"Ed25519\",\n       \
                 \"d\": \"nWGxne_9WmC6hEr0kuwsxE\"\n            \"RJxWl7MmkZcDusAxyuf2A\",\n       \
                 \"x\": \"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}\n";
    assert!(found(split).is_empty(), "{:?}", found(split));
    let own = format!(
        "{{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\n \"d\":\"{}\",\n \
         \"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}}\n",
        super::round_eleven::random(BASE64URL, 27, 43)
    );
    check(&[(own, "\"d\"", "jwk-private-key")]);
}

/// Gzip of `text`, base64-encoded, compressed fast.
fn gzip_base64(text: &[u8]) -> String {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text).expect("in memory");
    super::base64(&gz.finish().expect("in memory"))
}

/// Lines of text with no secret, `n` bytes or a little more.
fn filler(n: usize) -> String {
    let mut text = String::with_capacity(n + 32);
    let mut i = 0;
    while text.len() < n {
        text.push_str(&format!("# line {i} of the notes, nothing here\n"));
        i += 1;
    }
    text
}

#[test]
fn round_fourteen_a_secret_past_the_inflate_window_is_found() {
    let ghp = format!("{}_{}", "ghp", alnum(31, 36));
    // 300 KB of text, then the token: past the 256 KiB window.
    let inside = format!("{}token = {ghp}\n{}", filler(300 << 10), filler(1000));
    let text = format!("BLOB = \"{}\"\n", gzip_base64(inside.as_bytes()));
    check(&[(text, "BLOB", "base64-credentials")]);
    // As long a stream without a secret is read to its end, and clean.
    let clean = format!("BLOB = \"{}\"\n", gzip_base64(filler(600 << 10).as_bytes()));
    assert!(found(&clean).is_empty(), "{:?}", found(&clean));
}

#[test]
fn round_fourteen_a_stream_past_the_inflate_bound_is_not_passed_unread() {
    // 17 MiB of blank lines: more than the scanner inflates (a bomb).
    let bomb = format!("BLOB = \"{}\"\n", gzip_base64(&vec![b'\n'; 17 << 20]));
    check(&[(bomb, "BLOB", "unchecked-encoded")]);
}
