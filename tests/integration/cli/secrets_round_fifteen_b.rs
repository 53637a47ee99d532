//! Round fifteen (b) of the secret shapes (a recheck's findings, F3, F5,
//! F8, F9, F10), through the real binary: each file alone in a project,
//! `build` refuses it and names its line, never echoing the secret — a
//! docker login whose password is built of placeholder words (plain,
//! `.dockerconfigjson`, legacy `.dockercfg`, `username`/`password`), a
//! PKCS#12 keystore in base64, a byte order mark before a first-line
//! password, Yarn 1's `.yarnrc`, YAML block scalars, a WordPress salt, a
//! lowercase age key, a `.pgpass` line by `echo`, a Heroku key under
//! `apiKey`. The near misses build: a type annotation in a parameter list
//! (the `cryptography` package's), prose under a password key, the
//! WordPress sample, a certificate in base64. The values are made here.

use crate::common;

use common::{Project, base64, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &str = "0123456789abcdef";
const BECH32: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// Bytes that look random, `n` of them.
fn noise(seed: u64, n: usize) -> Vec<u8> {
    random(HEX, seed, 2 * n)
        .as_bytes()
        .chunks(2)
        .map(|h| u8::from_str_radix(std::str::from_utf8(h).unwrap_or("00"), 16).unwrap_or(0))
        .collect()
}

/// A PKCS#12 file's DER as `openssl pkcs12 -export` writes it: SEQUENCE,
/// version 3, the pkcs7-data content info, then `body` (lengths of two
/// bytes).
fn pkcs12(body: &[u8]) -> Vec<u8> {
    let len = |n: usize| [0x82, (n >> 8) as u8, n as u8];
    let oid = [
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01,
    ];
    let mut content = vec![0xa0];
    content.extend(len(body.len()));
    content.extend_from_slice(body);
    let mut auth_safe = vec![0x30];
    auth_safe.extend(len(oid.len() + content.len()));
    auth_safe.extend_from_slice(&oid);
    auth_safe.extend(content);
    let mut inner = vec![0x02, 0x01, 0x03];
    inner.extend(auth_safe);
    let mut der = vec![0x30];
    der.extend(len(inner.len()));
    der.extend(inner);
    der
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    // The recheck's password: placeholder words, as a person makes one.
    let login = base64(b"bob:S3cr3tPassw0rd!x");
    let auths = format!("{{\"auths\":{{\"reg.example.com\":{{\"auth\":\"{login}\"}}}}}}");
    let legacy = format!("{{\"reg.example.com\":{{\"auth\":\"{login}\",\"email\":\"a@b\"}}}}");
    let members = "{\"auths\":{\"reg.example.com\":{\"username\":\"bob\",\"password\":\"S3cr3tPassw0rd!x\"}}}";
    let pass = format!("Vb6{}", random(ALNUM, 51, 13));
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        random(HEX, 52, 8),
        random(HEX, 53, 4),
        random(HEX, 54, 3),
        random(HEX, 55, 3),
        random(HEX, 56, 12)
    );
    vec![
        ("d1.json", format!("{auths}\n"), 1),
        (
            "s10.yaml",
            format!("data:\n  .dockerconfigjson: {}\n", base64(auths.as_bytes())),
            2,
        ),
        (
            "s11.yaml",
            format!(
                "type: kubernetes.io/dockercfg\ndata:\n  .dockercfg: {}\n",
                base64(legacy.as_bytes())
            ),
            3,
        ),
        (
            "d2.yaml",
            format!(
                "data:\n  .dockerconfigjson: {}\n",
                base64(members.as_bytes())
            ),
            2,
        ),
        (
            "x3.yaml",
            format!(
                "data:\n  keystore.p12: {}\n",
                base64(&pkcs12(&noise(57, 2400)))
            ),
            2,
        ),
        ("b3.properties", format!("\u{feff}DB_PASSWORD={pass}\n"), 1),
        ("b1.yml", format!("\u{feff}password: {pass}\n"), 1),
        (
            "yarnrc.txt",
            format!("\"//reg.example.com/:_authToken\" \"{uuid}\"\n"),
            1,
        ),
        (
            "c3.yml",
            format!(
                "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: >-\n        {pass}\n"
            ),
            4,
        ),
        (
            "c5.yml",
            format!("a: 1\nsecret:\n  password: |\n    {pass}\n"),
            3,
        ),
        ("c6.yml", format!("password:\n  {pass}\n"), 1),
        (
            "wp4.php",
            "<?php\ndefine('SECURE_AUTH_SALT', 'k]9{Lq|2Vw#8Zr!4Xp@6Mn^0');\n".to_string(),
            2,
        ),
        (
            "a2.txt",
            format!("age = \"age-secret-key-1{}\"\n", random(BECH32, 58, 58)),
            1,
        ),
        (
            "pg2.sh",
            format!("echo \"*:*:*:postgres:{pass}\" > ~/.pgpass\n"),
            1,
        ),
        (
            "h3.json",
            format!("{{\"heroku\":{{\"apiKey\":\"{uuid}\"}}}}\n"),
            1,
        ),
    ]
}

#[test]
fn round_fifteen_b_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_fifteen_b_near_misses_build() {
    let p = Project::fixture();
    // The continuation line of `cryptography`'s `ssh.py:488`.
    p.write(
        "n.py",
        "class K:\n    def encode_private(\n        self, private_key: ed25519.Ed25519PrivateKey, f_priv: _FragList\n    ) -> None:\n        pass\n",
    );
    p.write(
        "docs.yml",
        "password:\n  str\ntoken: |\n  The token to use, with 8 characters\n",
    );
    p.write(
        "wp-sample.php",
        "<?php\ndefine('AUTH_SALT', 'put your unique phrase here');\n",
    );
    let mut cert = vec![0x30, 0x82, 0x09, 0x00, 0x30, 0x82, 0x08, 0x00];
    cert.extend([0xa0, 0x03, 0x02, 0x01, 0x02]);
    cert.extend(noise(59, 2300));
    p.write("ca.yaml", &format!("data:\n  ca.crt: {}\n", base64(&cert)));
    p.ok(&["add", "n.py", "docs.yml", "wp-sample.php", "ca.yaml"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
