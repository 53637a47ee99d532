//! Round 18b of the secret shapes through the real binary (recheck
//! F17-2): a private key shipped as a byte array — `xxd -i key.der` and
//! `xxd -i key.pem` C headers as ESP-IDF and Arduino samples ship them,
//! Go `[]byte{…}`, Rust `&[…]`, Python `bytes([…])` and `b"\x30…"`, C
//! strings of escapes, JS and decimal arrays — refused by `build` at the
//! line of the array's first byte, never echoing it; a CA certificate and random
//! tables as byte arrays build.
//!
//! No key is committed: a real one from `openssl` when the machine has
//! it, else a DER header and pseudo-random bytes.

use std::process::Command;

use crate::common;

use common::{Project, base64, noise, stderr};

/// A PKCS#8 private key's DER: `openssl genpkey`'s, else a header and
/// pseudo-random bytes.
fn pkcs8() -> Vec<u8> {
    let made = Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-outform", "DER"])
        .output()
        .ok()
        .filter(|o| o.status.success() && o.stdout.len() > 64)
        .map(|o| o.stdout);
    made.unwrap_or_else(|| {
        let mut der = vec![
            0x30, 0x82, 0x04, 0xbd, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48,
            0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xa7,
        ];
        der.extend(noise(21, 1192));
        der
    })
}

/// A PKCS#1 RSA private key's DER (header and pseudo-random bytes).
fn pkcs1() -> Vec<u8> {
    let mut der = vec![
        0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00,
    ];
    der.extend(noise(22, 1180));
    der
}

/// `der` in PEM under `label`.
fn pem(label: &str, der: &[u8]) -> String {
    let mut text = format!("-----BEGIN {label}-----\n");
    for line in base64(der).as_bytes().chunks(64) {
        text.push_str(&String::from_utf8_lossy(line));
        text.push('\n');
    }
    text + &format!("-----END {label}-----\n")
}

/// `bytes` as `xxd -i` writes them, array `name`.
fn xxd(name: &str, bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .chunks(12)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|b| format!("0x{b:02x}")).collect();
            format!("  {}", cells.join(", "))
        })
        .collect();
    format!(
        "unsigned char {name}[] = {{\n{}\n}};\nunsigned int {name}_len = {};\n",
        lines.join(",\n"),
        bytes.len()
    )
}

fn hex_list(bytes: &[u8]) -> String {
    let cells: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    cells.join(", ")
}

fn dec_list(bytes: &[u8]) -> String {
    let cells: Vec<String> = bytes.iter().map(u8::to_string).collect();
    cells.join(", ")
}

fn escapes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// Each file holds one key as bytes, its first byte on line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let der = pkcs8();
    let key = pem(&["PRIVATE", "KEY"].join(" "), &der);
    vec![
        ("main/key_der.h", xxd("key_der", &der), 2),
        ("main/rsa_der.h", xxd("rsa_der", &pkcs1()), 2),
        ("main/server_key.h", xxd("server_key", key.as_bytes()), 2),
        (
            "key.go",
            format!("package k\n\nvar Key = []byte{{{}}}\n", hex_list(&der)),
            3,
        ),
        (
            "key.rs",
            format!("pub const KEY: &[u8] = &[{}];\n", hex_list(&der)),
            1,
        ),
        ("key.py", format!("KEY = bytes([{}])\n", dec_list(&der)), 1),
        ("key_b.py", format!("KEY = b\"{}\"\n", escapes(&der)), 1),
        (
            "key.c",
            format!(
                "static const char pem[] =\n  \"{}\";\n",
                escapes(key.as_bytes())
            ),
            2,
        ),
        ("key.js", format!("const key = [{}];\n", dec_list(&der)), 1),
        (
            "pem.c",
            format!(
                "static const unsigned char pem[] = {{{}}};\n",
                dec_list(key.as_bytes())
            ),
            1,
        ),
    ]
}

#[test]
fn round_eighteen_b_keys_as_byte_arrays_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_eighteen_b_byte_tables_build() {
    let p = Project::fixture();
    let mut cert = vec![0x30, 0x82, 0x03, 0x0d, 0x30, 0x82, 0x01, 0xf5, 0xa0, 0x03];
    cert.extend(noise(23, 770));
    let ca = pem("CERTIFICATE", &cert);
    p.write("main/ca_der.h", &xxd("ca_der", &cert));
    p.write("main/ca_pem.h", &xxd("ca_pem", ca.as_bytes()));
    p.write("main/font.h", &xxd("font", &noise(24, 4096)));
    p.write(
        "table.py",
        &format!("TABLE = bytes([{}])\n", dec_list(&noise(25, 512))),
    );
    p.ok(&[
        "add",
        "main/ca_der.h",
        "main/ca_pem.h",
        "main/font.h",
        "table.py",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Item 2 (recheck F17-4): config values behind their format's syntax,
/// each on line `line` of its file.
fn config_syntax() -> Vec<(&'static str, &'static str, usize)> {
    vec![
        ("c.yaml", "\"password\": Tq8Lw3Zx5Rb9Kp\n", 1),
        ("n.yaml", "db:\n  password: &dbpw Tq8Lw3Zx5Rb9Kp\n", 2),
        ("b.yaml", "password: !!str Tq8Lw3Zx5Rb9Kp\n", 1),
        (
            "c7.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<properties>\n<entry key=\"db.password\">Tq8Lw3Zx5Rb9Kp</entry>\n</properties>\n",
            3,
        ),
        (
            "c8.toml",
            "[db]\npassword = \"\"\"Tq8Lw3Zx5Rb9Kp\"\"\"\n",
            2,
        ),
        (
            "c10.toml",
            "[db]\npassword = \"\"\"\nTq8Lw3Zx5Rb9Kp\"\"\"\n",
            2,
        ),
        (
            "r.yaml",
            "env:\n  - name: DB_PASSWORD\n    value: >-\n      Tq8Lw3Zx5Rb9Kp\n",
            2,
        ),
    ]
}

#[test]
fn round_eighteen_b_config_syntax_refuses_the_build() {
    for (name, text, line) in config_syntax() {
        common::assert_build_refuses_planted(name, text, line);
    }
}

#[test]
fn round_eighteen_b_config_syntax_near_misses_build() {
    let p = Project::fixture();
    // The same lines in code and in docs are theirs; but for a
    // triple-quoted value, read everywhere since round 21 (in Python
    // `password = """…"""` is a hard-coded password).
    let code: String = config_syntax()
        .iter()
        .map(|(_, text, _)| *text)
        .filter(|text| !text.contains("\"\"\""))
        .collect();
    p.write("notes.md", &code);
    p.write(
        "values.yaml",
        "db:\n  password: *pw\n  \"password_file\": /etc/app/pass2\n  \"secret\": ${DB_SECRET}\n",
    );
    p.write(
        "deploy.yaml",
        "env:\n  - name: DB_PASSWORD\n    value: >-\n      {{ .Values.db.password }}\n",
    );
    p.write("c.toml", "[db]\npassword = '''${DB_PASSWORD}'''\n");
    p.ok(&["add", "notes.md", "values.yaml", "deploy.yaml", "c.toml"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
