//! Round eighteen of the secret shapes through the real binary: passwords
//! people choose (`Summer2024`, `Welcome1!`, `P@ssw0rd2024`) under a
//! password's name in a shell script, YAML, Python, JSON and a compose
//! file; values that only the file's kind says are config's (an indented
//! INI value, a `.properties` value after a blank, a Make target's
//! variable, a YAML password without a digit); each refused by `build`
//! with its line, never echoing the secret; a bzip2 stream in base64 and a
//! BKS keystore with a key entry; a token split into a dict joined by its
//! values or a tuple over lines, a `.env` in base64 three times over.
//! Placeholders, variables, calls, names that are not a password's, the
//! same lines in code and a BKS truststore build.

use crate::common;

use common::{Project, base64, stderr};

/// Each file holds one chosen password, on its line `line`.
fn chosen() -> Vec<(&'static str, String, usize)> {
    vec![
        ("deploy.sh", "#!/bin/sh\nDB_PASSWORD=Summer2024\n".into(), 2),
        ("config.yaml", "db:\n  password: P@ssw0rd2024\n".into(), 2),
        (
            "settings.py",
            "DEBUG = False\nPASSWORD = \"Welcome1!\"\n".into(),
            2,
        ),
        (
            "app.json",
            "{\n  \"password\": \"Welcome1!\"\n}\n".into(),
            2,
        ),
        (
            "compose.yaml",
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Summer2024\n".into(),
            4,
        ),
    ]
}

/// Values that the file's kind says are config's, on their line `line`.
fn by_kind() -> Vec<(&'static str, String, usize)> {
    vec![
        (
            "app.ini",
            "[db]\nhost = db\n  password = Tq8-Lw3-Zx5-Rb\n".into(),
            3,
        ),
        (
            "db.properties",
            "db.user app\ndb.password Tq8-Lw3-Zx5-Rb\n".into(),
            2,
        ),
        (
            "Makefile",
            "all:\n\techo hi\n\ndeploy: DB_PASSWORD := Tq8-Lw3-Zx5-Rb\n".into(),
            4,
        ),
        (
            "secrets.yaml",
            "db:\n  password: correcthorsebatterystaple\n".into(),
            2,
        ),
    ]
}

/// Bytes from their hex digits.
fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A Bouncy Castle BKS store: a certificate entry, then a key entry when
/// `key`, then its end and a MAC.
fn bks(key: bool) -> Vec<u8> {
    let mut out = [2u32, 20].map(u32::to_be_bytes).concat();
    out.extend((0u8..20).map(|i| i.wrapping_mul(37)));
    out.extend(1500u32.to_be_bytes());
    out.extend([1, 0, 2, b'c', b'a', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    out.extend([0, 5, b'X', b'.', b'5', b'0', b'9', 0, 0, 0, 3, 0x30, 1, 0]);
    if key {
        out.extend([2, 0, 1, b'k', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        out.extend([
            0, 0, 5, b'P', b'K', b'C', b'S', b'8', 0, 3, b'R', b'S', b'A',
        ]);
        out.extend([0, 0, 0, 4, 0x30, 2, 1, 0]);
    }
    out.push(0);
    out.extend([0x5a; 20]);
    out
}

/// A bzip2 stream in base64 (refused as not fully checked until round
/// twenty, which reads it and finds the `.env` in it) and a BKS keystore
/// with a key entry, each on line 2.
fn packed() -> Vec<(&'static str, String, usize)> {
    // bzip2 of `LOG_LEVEL=info` and a `DB_PASSWORD=…` line (Python's bz2).
    let bz = unhex(
        "425a683931415926535959624064000008cf80001029423684f990912b8240200031400000000c31a993264c8d\
         3351fa9a0c4c1de54f1557d8bda9902f9986dffe0d56403a7b4482251322ee48a70a120b2c480c80",
    );
    vec![
        ("backup.yaml", format!("data:\n  env: {}\n", base64(&bz)), 2),
        (
            "store.yaml",
            format!("data:\n  app.bks: {}\n", base64(&bks(true))),
            2,
        ),
    ]
}

/// A token split into a dict joined by its values, into a tuple over
/// lines, and a `.env` in base64 three times over.
fn joins() -> Vec<(&'static str, String, usize)> {
    let (a, b) = ("ghp_Vb6nQ1xZ8kLm3W", "uR4tY7pA2sD5fG8hJ0kL1z");
    let env = "LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let thrice = base64(base64(base64(env.as_bytes()).as_bytes()).as_bytes());
    vec![
        (
            "parts.py",
            format!(
                "parts = {{\"a\": \"{a}\", \"b\": \"{b}\"}}\ntoken = \"\".join(parts.values())\n"
            ),
            1,
        ),
        (
            "pair.py",
            format!("a, b = (\n    \"{a}\",\n    \"{b}\",\n)\ntoken = a + b\n"),
            5,
        ),
        ("thrice.yaml", format!("data:\n  env: {thrice}\n"), 2),
    ]
}

#[test]
fn round_eighteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in chosen()
        .into_iter()
        .chain(by_kind())
        .chain(packed())
        .chain(joins())
    {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_eighteen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "config.yaml",
        "db:\n  password: changeme\n  user_password: <password>\n  admin_password: ${ADMIN_PASSWORD}\n\
         \x20 api_key: Summer2024\n  secret_name: Summer2024\n",
    );
    p.write(
        "settings.py",
        "import getpass\nPASSWORD = getpass.getpass()\nDB_PASSWORD = None\nfmt = {\"password\": \"%(password)s\"}\n\
         DEFAULT = \"Password123\"\npassword = \"your_password_here\"\n",
    );
    // The INI, `.properties` and Make lines in code are code's.
    p.write(
        "client.py",
        "def connect():\n  password = Tq8-Lw3-Zx5-Rb\n  db.password Tq8-Lw3-Zx5-Rb\n",
    );
    p.write(
        "app.ini",
        "[db]\n  password = ${DB_PASSWORD}\n  password_file = /etc/app/pass\n",
    );
    // A BKS truststore: certificates alone.
    p.write(
        "trust.yaml",
        &format!("data:\n  trust.bks: {}\n", base64(&bks(false))),
    );
    p.ok(&[
        "add",
        "config.yaml",
        "settings.py",
        "client.py",
        "app.ini",
        "trust.yaml",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A text found clean in a `.py` and remembered so is scanned again as an
/// `.ini`'s, where more rules read it.
#[test]
fn round_eighteen_a_text_clean_in_code_is_read_again_in_an_ini_file() {
    let p = Project::fixture();
    let text = "[db]\n  password = Tq8-Lw3-Zx5-Rb\n";
    p.write("client.py", text);
    p.ok(&["add", "client.py"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    p.write("app.ini", text);
    p.ok(&["add", "app.ini"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("likely secret: app.ini:2: "), "{err}");
    assert!(!err.contains("client.py"), "{err}");
}
