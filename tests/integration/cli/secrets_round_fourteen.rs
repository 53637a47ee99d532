//! Round fourteen of the secret shapes (issue 37, what round thirteen
//! left), through the real binary: each file alone in a project, `build`
//! refuses it and names its line, never echoing the secret — a password
//! whose first word is a password's before prose words, secrets split over
//! concatenation without a keyword or over PHP's, Lua's and VB's
//! operators, a private JWK of one's own, a token in gzip past the
//! scanner's window, and a gzip stream past its bound (refused as not
//! fully checked). The near misses build: prose after a password key,
//! ordinary joins, the RFCs' published example keys, a long clean gzip
//! stream. The values are made here.

use crate::common;

use common::{Project, base64, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX: &str = "0123456789abcdef";

/// Gzip of `bytes`, base64-encoded.
fn gzip_base64(bytes: &[u8]) -> String {
    base64(&common::gzip(bytes))
}

/// Lines of text with no secret, `n` bytes or a little more.
fn filler(n: usize) -> String {
    let mut text = String::with_capacity(n + 40);
    let mut i = 0;
    while text.len() < n {
        text.push_str(&format!("# line {i} of the notes, nothing here\n"));
        i += 1;
    }
    text
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let ghp = format!("{}_{}", "ghp", random(ALNUM, 41, 36));
    let sk = format!("SK{}", random(HEX, 42, 32));
    let d = random(BASE64URL, 43, 43);
    let x = random(BASE64URL, 44, 43);
    let inside = format!("{}token = {ghp}\n", filler(300 << 10));
    vec![
        (
            "settings.ini",
            "[db]\nhost = db\npassword = Tr0ub4dor&3 with space\n".to_string(),
            3,
        ),
        (
            "app.properties",
            "db.user=app\ndb.password=Tr0ub4dor&3 with space\n".to_string(),
            2,
        ),
        (
            "split.py",
            format!("import os\n\nSID = \"{}\" + \"{}\"\n", &sk[..10], &sk[10..]),
            3,
        ),
        (
            "token.php",
            format!("<?php\n$t = \"{}\" . \"{}\";\n", &ghp[..12], &ghp[12..]),
            2,
        ),
        (
            "token.lua",
            format!("local t = '{}' .. '{}'\n", &ghp[..12], &ghp[12..]),
            1,
        ),
        (
            "Token.vb",
            format!("Dim t = \"{}\" & _\n    \"{}\"\n", &ghp[..12], &ghp[12..]),
            1,
        ),
        (
            "own.jwk.json",
            format!(
                "{{\"kty\": \"OKP\", \"crv\": \"Ed25519\",\n \"x\": \"{x}\",\n \"d\": \"{d}\"}}\n"
            ),
            3,
        ),
        (
            "blob.yaml",
            format!("data:\n  notes: {}\n", gzip_base64(inside.as_bytes())),
            2,
        ),
    ]
}

#[test]
fn round_fourteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

/// A gzip stream that inflates past what the scanner reads (a bomb) is
/// not passed unread: the build is refused and says why.
#[test]
fn round_fourteen_a_stream_past_the_inflate_bound_is_refused_as_unchecked() {
    let p = Project::fixture();
    p.write(
        "bomb.yaml",
        &format!("data:\n  blob: {}\n", gzip_base64(&vec![b'\n'; 17 << 20])),
    );
    p.ok(&["add", "bomb.yaml"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bomb.yaml:2: "), "{err}");
    assert!(err.contains("could not be fully checked"), "{err}");
}

#[test]
fn round_fourteen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "settings.yaml",
        "db:\n  password: the user's password, with a minimum of 8 characters\n  \
         admin_password: utf-8 encoded bytes, with the salt\n",
    );
    p.write(
        "strings.php",
        "<?php\n$msg = \"Hello \" . \"world\";\n$url = \"https://example.com/\" . \"path/to/index.html\";\n",
    );
    p.write("strings.lua", "local s = \"a\" .. \"b\" .. \"c\"\n");
    // RFC 8037, Appendix A.1 and RFC 7520, Section 3.5, as printed there.
    p.write(
        "rfc.json",
        "{\"keys\": [\n {\"kty\":\"OKP\",\"crv\":\"Ed25519\",\n  \
         \"d\":\"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A\",\n  \
         \"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"},\n \
         {\"kty\": \"oct\", \"kid\": \"018c0ae5-4d9b-471b-bfd6-eef314bc7037\", \"use\": \"sig\", \
         \"alg\": \"HS256\", \"k\": \"hJtXIZ2uSN5kbQfbtTNWbpdmhkV8FJG-Onbc6mxCcYg\"}\n]}\n",
    );
    p.write(
        "clean.yaml",
        &format!(
            "data:\n  notes: {}\n",
            gzip_base64(filler(600 << 10).as_bytes())
        ),
    );
    p.ok(&[
        "add",
        "settings.yaml",
        "strings.php",
        "strings.lua",
        "rfc.json",
        "clean.yaml",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
