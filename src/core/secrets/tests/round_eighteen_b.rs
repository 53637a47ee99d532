//! Round 18b of the secret shapes (recheck F17-2): a private key written
//! as a byte array — `xxd -i` of the DER or of the PEM file, Go, Rust,
//! Python, JS and Java arrays, strings of `\x` escapes — and the byte
//! tables code is full of (certificates, fonts, random tables) left quiet.
//! The keys are made here: a real DER header and pseudo-random bytes.

use super::{base64, found, quiet};

/// Pseudo-random bytes (a fixed xorshift per `seed`).
pub(super) fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A PKCS#8 RSA private key's DER (its header and random bytes).
pub(super) fn pkcs8() -> Vec<u8> {
    let mut der = vec![
        0x30, 0x82, 0x04, 0xbd, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
        0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xa7, 0x30, 0x82, 0x04, 0xa3,
        0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00,
    ];
    der.extend(noise(1, 1180));
    der
}

/// A PKCS#1 RSA private key's DER.
fn pkcs1() -> Vec<u8> {
    let mut der = vec![
        0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00,
    ];
    der.extend(noise(2, 1180));
    der
}

/// An EC P-256 private key's DER (SEC1).
fn sec1() -> Vec<u8> {
    let mut der = vec![0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
    der.extend(noise(3, 114));
    der
}

/// An Ed25519 private key's DER (PKCS#8: 48 bytes, the smallest).
fn ed25519() -> Vec<u8> {
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend(noise(9, 32));
    der
}

/// A certificate-shaped DER (public: no secret).
fn certificate() -> Vec<u8> {
    let mut der = vec![0x30, 0x82, 0x03, 0x0d, 0x30, 0x82, 0x01, 0xf5, 0xa0, 0x03];
    der.extend(noise(4, 700));
    der
}

/// `der` in PEM under `label`, wrapped at 64 columns.
pub(super) fn pem(label: &str, der: &[u8]) -> String {
    let mut text = format!("-----BEGIN {label}-----\n");
    for line in base64(der).as_bytes().chunks(64) {
        text.push_str(&String::from_utf8_lossy(line));
        text.push('\n');
    }
    text + &format!("-----END {label}-----\n")
}

/// `bytes` as `xxd -i` writes them, array `name`.
pub(super) fn xxd(name: &str, bytes: &[u8]) -> String {
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

fn hex_list(bytes: &[u8], suffix: &str) -> String {
    let cells: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}{suffix}")).collect();
    cells.join(", ")
}

pub(super) fn dec_list(bytes: &[u8], sep: &str) -> String {
    let cells: Vec<String> = bytes.iter().map(u8::to_string).collect();
    cells.join(sep)
}

pub(super) fn escapes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// The round's shapes, each with the line of the array's first byte.
fn shapes() -> Vec<(String, usize)> {
    let key = pem(&["PRIVATE", "KEY"].join(" "), &pkcs8());
    let env = b"# app\nAPP_ENV=production\nDB_HOST=db.internal\nDB_PASSWORD=Tq8Lw3Zx5Rb9Kp\nDB_USER=app\n";
    let esc = escapes(&pkcs8());
    let (a, z) = esc.split_at(64 * 4);
    vec![
        (xxd("key_der", &pkcs8()), 2),
        (xxd("rsa_der", &pkcs1()), 2),
        (format!("// ec\n{}", xxd("ec_der", &sec1())), 3),
        (xxd("server_key", key.as_bytes()), 2),
        (xxd("env", env), 2),
        (
            format!("var Key = []byte{{{}}}\n", hex_list(&pkcs8(), "")),
            1,
        ),
        (
            format!("var Ed = []byte{{{}}}\n", hex_list(&ed25519(), "")),
            1,
        ),
        (
            format!("pub const KEY: &[u8] = &[{}];\n", hex_list(&pkcs8(), "")),
            1,
        ),
        (
            format!("const KEY: [u8; 1218] = [{}];\n", hex_list(&pkcs8(), "u8")),
            1,
        ),
        (format!("KEY = bytes([{}])\n", dec_list(&pkcs8(), ", ")), 1),
        (format!("KEY = b\"{esc}\"\n"), 1),
        (
            format!("static const char key[] =\n    \"{a}\"\n    \"{z}\";\n"),
            2,
        ),
        (format!("const key = [{}];\n", dec_list(&pkcs8(), ",")), 1),
        (
            format!(
                "static const uint8_t pem[] = {{{}}};\n",
                dec_list(key.as_bytes(), ",")
            ),
            1,
        ),
        (format!("PEM = \"{}\"\n", escapes(key.as_bytes())), 1),
        (
            format!(
                "byte[] key = {{{}}};\n",
                pkcs8()
                    .iter()
                    .map(|&b| format!("(byte) 0x{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            1,
        ),
    ]
}

/// F17-2: a private key (DER or PEM) or a credential file as a byte
/// array in C, Go, Rust, Python, JS, Java is found at its first byte.
#[test]
fn round_eighteen_b_keys_as_byte_arrays_are_found() {
    let mut missed = Vec::new();
    for (text, line) in shapes() {
        let got = found(&text);
        if got.len() != 1 || got[0].0 != line {
            let head: String = text.chars().take(60).collect();
            missed.push(format!("{head:?}… (want line {line}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Byte tables that hold no secret: a certificate (DER and PEM), a public
/// key, random bytes (a font, a table), a short array, text as bytes.
#[test]
fn round_eighteen_b_byte_tables_stay_quiet() {
    let cert = pem("CERTIFICATE", &certificate());
    let public = pem(&["PUBLIC", "KEY"].join(" "), &noise(5, 294));
    let text = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt";
    let crc: Vec<String> = (0..256u32)
        .map(|k| format!("0x{:08x}", k.wrapping_mul(0x04c1_1db7)))
        .collect();
    quiet(&[
        xxd("ca_der", &certificate()),
        xxd("ca_pem", cert.as_bytes()),
        xxd("pub_pem", public.as_bytes()),
        xxd("font", &noise(6, 4096)),
        format!(
            "const uint8_t table[] = {{{}}};\n",
            dec_list(&noise(7, 512), ", ")
        ),
        xxd("short", &pkcs8()[..47]),
        xxd("banner", text),
        format!("KEY = b\"{}\"\n", escapes(&noise(8, 300))),
        format!("static const uint32_t crc[] = {{{}}};\n", crc.join(", ")),
        format!("CA = \"{}\"\n", escapes(cert.as_bytes())),
    ]);
}

/// The rules' findings in `text` as the text of the file at `path`.
fn found_as(path: &str, text: &str) -> Vec<(usize, String)> {
    crate::core::secret_scan::scan_file(text, path)
        .into_iter()
        .map(|h| (h.line, h.rule.to_string()))
        .collect()
}

/// The shapes of item 2 (recheck F17-4), each with its file and line.
const CONFIG_SHAPES: [(&str, &str, usize); 13] = [
    ("c.yaml", "\"password\": Tq8Lw3Zx5Rb9Kp\n", 1),
    ("c.yml", "db:\n  'password': Tq8Lw3Zx5Rb9Kp\n", 2),
    (
        "app.yaml",
        "spring:\n  datasource:\n    spring.datasource.\"password\": Tq8Lw3Zx5Rb9Kp\n",
        3,
    ),
    ("n.yaml", "password: &pw Tq8Lw3Zx5Rb9Kp\n", 1),
    ("n.yaml", "db:\n  password: &dbpw Tq8Lw3Zx5Rb9Kp\n", 2),
    ("b.yaml", "password: !!str Tq8Lw3Zx5Rb9Kp\n", 1),
    ("b.yaml", "api_token: !!str \"Xk9mQ2vLp7Tz4W\"\n", 1),
    (
        "c7.xml",
        "<properties>\n<entry key=\"db.password\">Tq8Lw3Zx5Rb9Kp</entry>\n</properties>\n",
        2,
    ),
    (
        "c8.toml",
        "[db]\npassword = \"\"\"Tq8Lw3Zx5Rb9Kp\"\"\"\n",
        2,
    ),
    ("c9.toml", "[db]\npassword = '''Tq8Lw3Zx5Rb9Kp'''\n", 2),
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
    (
        "r.yml",
        "env:\n  - name: API_TOKEN\n    value: |\n      Xk9mQ2vLp7Tz4W\n",
        2,
    ),
];

/// Item 2 (F17-4): config values behind their format's syntax — YAML
/// quoted keys, anchors, tags, a k8s value in a block scalar, TOML
/// multi-line strings, Java Properties XML — are found in those files.
#[test]
fn round_eighteen_b_config_syntax_values_are_found() {
    let mut missed = Vec::new();
    for (path, text, line) in CONFIG_SHAPES {
        let got = found_as(path, text);
        if got.len() != 1 || got[0].0 != line {
            missed.push(format!("{path}: {text:?} (want line {line}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// The same lines in code and docs stay quiet, and so do the formats'
/// lines without a value: aliases, templates, variables, placeholders,
/// block scalars of prose, a TOML multi-line string of words.
#[test]
fn round_eighteen_b_config_syntax_near_misses_stay_quiet() {
    let mut loud = Vec::new();
    for (_, text, _) in CONFIG_SHAPES {
        // A triple-quoted value is read everywhere since round 21: in
        // Python `password = """…"""` is the same hard-coded password.
        if text.contains("\"\"\"") || text.contains("'''") {
            continue;
        }
        for path in ["app.py", "main.go", "README.md", "notes.txt"] {
            if !found_as(path, text).is_empty() {
                loud.push(format!("{path}: {text:?}: {:?}", found_as(path, text)));
            }
        }
    }
    for (path, text) in [
        (
            "a.yaml",
            "password: *pw\n\"password\": '{{ vault_db_password }}'\n",
        ),
        (
            "a.yaml",
            "\"password\": ${DB_PASSWORD}\n'secret': changeme\n",
        ),
        (
            "a.yaml",
            "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n",
        ),
        (
            "a.yaml",
            "password: &pw\n\"token\": null\n\"api_key\": <your-key>\n",
        ),
        (
            "a.yaml",
            "\"password_file\": /etc/app/pass2\n\"secretName\": db-secret-2\n",
        ),
        (
            "k.yaml",
            "env:\n  - name: DB_PASSWORD\n    value: >-\n      {{ .Values.db.password }}\n",
        ),
        (
            "k.yaml",
            "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n",
        ),
        (
            "c.toml",
            "[db]\npassword = \"\"\"\nthe password of the db\n\"\"\"\n",
        ),
        ("c.toml", "password = '''${DB_PASSWORD}'''\n"),
        (
            "p.xml",
            "<entry key=\"db.password\">${db.password}</entry>\n<entry key=\"token.ttl\">3600</entry>\n",
        ),
    ] {
        if !found_as(path, text).is_empty() {
            loud.push(format!("{path}: {text:?}: {:?}", found_as(path, text)));
        }
    }
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}
