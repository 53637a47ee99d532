//! Round twelve of the secret shapes (recheck of sweep 10, F2, F17, F3),
//! through the real binary: each file alone in a project, `build`
//! refuses it and names its line, never echoing the secret; the near
//! misses (templates, prose, placeholders, AWS documentation's example
//! values) build. The values are made here.

use std::io::Write;

use crate::common;

use common::{Project, base64, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A key-shaped PEM private key (PKCS#8's header, random base64).
fn pem_key(seed: u64) -> (String, Vec<String>, String) {
    let label = ["PRIVATE", "KEY"].join(" ");
    let mut lines = vec![format!(
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{}",
        random(ALNUM, seed, 32)
    )];
    lines.extend((1..8).map(|i| random(ALNUM, seed + i, 64)));
    (
        format!("-----BEGIN {label}-----"),
        lines,
        format!("-----END {label}-----"),
    )
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let (begin, body, end) = pem_key(100);
    let pem = format!("{begin}\n{}\n{end}\n", body.join("\n"));
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(pem.as_bytes()).expect("in memory");
    let gzipped = base64(&gz.finish().expect("in memory"));
    let d = random(BASE64URL, 7, 43);
    let x = random(BASE64URL, 8, 43);
    vec![
        (
            "alibaba.py",
            format!("ACCESS_KEY_ID = \"LTAI{}\"\n", random(LETTERS, 1, 20)),
            1,
        ),
        (
            "notion.py",
            format!("N=\"ntn_{}\"\n", random(ALNUM, 2, 46)),
            1,
        ),
        (
            "sentry.py",
            format!("T=\"sntrys_{}\"\n", random(ALNUM, 3, 64)),
            1,
        ),
        (
            "dsn.py",
            format!(
                "import psycopg\n\nDSN = \"host=db port=5432 user=app password={} sslmode=require\"\n",
                random(LETTERS, 4, 16)
            ),
            3,
        ),
        (
            "db.yaml",
            "database:\n  host: db\n  password: P@ss w0rd #1\n".to_string(),
            3,
        ),
        (
            "compose.yaml",
            "DB_PASSWORD: \"correct horse battery staple\"\n".to_string(),
            1,
        ),
        (
            "login.json",
            "{\"password\": \"Pa$$w0rd2024\"}\n".to_string(),
            1,
        ),
        (
            "braced.yaml",
            format!("password: \"{{{}}}\"\n", random(ALNUM, 5, 15)),
            1,
        ),
        (
            "jwk.json",
            format!(
                "{{\n  \"kty\": \"EC\",\n  \"crv\": \"P-256\",\n  \"x\": \"{x}\",\n  \"y\": \"{x}\",\n  \"d\": \"{d}\"\n}}\n"
            ),
            6,
        ),
        (
            "key.xml",
            format!(
                "<config>\n<key>{begin}&#10;{}&#10;{end}</key>\n</config>\n",
                body.join("&#10;")
            ),
            2,
        ),
        (
            "key_url.txt",
            format!(
                "key={}%0A{}%0A{}\n",
                begin.replace(' ', "%20"),
                body.join("%0A").replace('+', "%2B"),
                end.replace(' ', "%20")
            ),
            1,
        ),
        (
            "htpasswd.txt",
            format!(
                "admin:$apr1${}${}\n",
                random(ALNUM, 9, 8),
                random(ALNUM, 10, 22)
            ),
            1,
        ),
        (
            "gz_key.py",
            format!("import gzip, base64\nK = gzip.decompress(base64.b64decode(\"{gzipped}\"))\n"),
            2,
        ),
    ]
}

#[test]
fn round_twelve_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_twelve_near_misses_and_aws_examples_build() {
    let p = Project::fixture();
    p.write(
        "config.yaml",
        "db:\n  password: ${DB_PASSWORD}\n  admin_password: \"{{ vault_pw }}\"\n  \
         replica_password: {env: REPLICA_PASSWORD}\n  note_password: the user's password\n  \
         form_password: <your password>\n",
    );
    p.write(
        "locale.json",
        "{\"password\": \"Mot de passe\", \"confirm_password\": \"Confirm Password\", \
         \"type\": {\"password\": \"string\"}}\n",
    );
    p.write(
        "aws-examples.rst",
        "Output::\n\n    {\n        \"ApiKeySelectionExpression\": \"$request.header.x-api-key\",\n        \
         \"LockToken\":\"1eb5ec48-0000-0000-0000-ee9b906c541e\",\n        \
         \"ClientToken\": \"5236cffc-ee13-4a32-bb5b-388d9da09d96\",\n        \
         \"RequestToken\": \"e1a6b86e-46bd-41ac-bfba-633abcdfdbd7\",\n        \
         \"authKey\": \"0xC_ukbCerl6EYA0example\",\n        \
         \"passphrase\": \"AB1C2defGHijkLMNo3PqQRstUvwxyzaBCDEfghh4ijklMN5opqrStuVWxyzAbCDEfghIJ\"\n    }\n",
    );
    p.write(
        "jwk_public.json",
        &format!(
            "{{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"{}\", \"y\": \"{}\"}}\n",
            random(BASE64URL, 11, 43),
            random(BASE64URL, 12, 43)
        ),
    );
    p.ok(&[
        "add",
        "config.yaml",
        "locale.json",
        "aws-examples.rst",
        "jwk_public.json",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
