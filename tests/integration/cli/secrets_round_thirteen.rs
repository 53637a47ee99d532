//! Round thirteen of the secret shapes (recheck of round twelve, section
//! 2), through the real binary: each file alone in a project, `build`
//! refuses it and names its line, never echoing the secret; the near
//! misses (prose after a password key, ordinary concatenations, public
//! keys, documentation's hash shapes) build. The values are made here.

use crate::common;

use common::{Project, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX: &str = "0123456789abcdef";

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let ghp = format!("{}_{}", "ghp", random(ALNUM, 1, 36));
    let ntn = random(ALNUM, 2, 46);
    let d = random(BASE64URL, 3, 43);
    let x = random(BASE64URL, 4, 43);
    let label = ["RSA", "PRIVATE", "KEY"].join(" ");
    vec![
        ("glued.txt", format!("log: TOKEN_{ghp}\n"), 1),
        (
            "split.py",
            format!(
                "import os\n\nNOTION = \"ntn_{}\" + \\\n    \"{}\"\n",
                &ntn[..20],
                &ntn[20..]
            ),
            3,
        ),
        (
            "settings.ini",
            "[db]\nhost = db\npassword = correct horse battery staple\n".to_string(),
            3,
        ),
        (
            "docker-compose.yml",
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=correct horse battery staple\n"
                .to_string(),
            4,
        ),
        (
            "config.xml",
            "<config>\n  <password>correct horse battery staple</password>\n</config>\n"
                .to_string(),
            2,
        ),
        (
            "jwk.yaml",
            format!("signing:\n  kty: EC\n  crv: P-256\n  x: {x}\n  d: {d}\n"),
            5,
        ),
        (
            "key.html",
            format!(
                "<pre>-----BEGIN {label}-----<br>MIIEowIBAAKCAQEA{}<br>{}<br>-----END {label}-----</pre>\n",
                random(ALNUM, 5, 48),
                random(ALNUM, 6, 64)
            ),
            1,
        ),
        (
            "users.json",
            format!(
                "[{{\"model\": \"auth.user\",\n  \"fields\": {{\"password\": \"pbkdf2_sha256$600000${}${}=\"}}}}]\n",
                random(ALNUM, 7, 22),
                random(ALNUM, 8, 43)
            ),
            2,
        ),
        (
            "dump.txt",
            format!(
                "Administrator:500:aad3b435b51404eeaad3b435b51404ee:{}:::\n",
                random(HEX, 9, 32)
            ),
            1,
        ),
    ]
}

#[test]
fn round_thirteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_thirteen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "settings.yaml",
        "db:\n  password: the user's password\n  admin_password: required string value\n  \
         help: {password: Enter your password}\n",
    );
    p.write(
        "app.ini",
        "[labels]\npassword = Password for the database user\n",
    );
    p.write(
        "strings.py",
        "MSG = \"Token \" + \"value is missing\"\nPREFIX = \"ghp_\" + suffix\nSEP = \" \" + \"+\"\n",
    );
    p.write(
        "public.yaml",
        &format!(
            "jwk:\n  kty: EC\n  crv: P-256\n  x: {}\n  y: {}\n",
            random(BASE64URL, 11, 43),
            random(BASE64URL, 12, 43)
        ),
    );
    p.write(
        "hashes.md",
        "Django stores `pbkdf2_sha256$<iterations>$<salt>$<hash>`; crypt `$6$salt$hash`.\n",
    );
    p.ok(&[
        "add",
        "settings.yaml",
        "app.ini",
        "strings.py",
        "public.yaml",
        "hashes.md",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
