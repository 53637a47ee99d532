//! Round fifteen of the secret shapes (issue 37, what round fourteen
//! left), through the real binary: each file alone in a project, `build`
//! refuses it and names its line, never echoing the secret — a key in a
//! base64 `.tar.gz` after a binary member, secrets built by f-strings,
//! `+=`, SQL's `||` and `CONCAT(…)`, `"".join([…])`; a tar member
//! compressed again is refused as not fully checked. The near misses
//! build: a tar of a binary and a README, ordinary joins of those kinds,
//! a leet-shaped password in a docstring or comment of code. The values
//! are made here.

use crate::common;

use common::{Project, base64, gzip, noise, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// A ustar archive of `members` (name, bytes).
pub(super) fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, data) in members {
        let mut header = vec![0u8; 512];
        header[..name.len()].copy_from_slice(name.as_bytes());
        header[100..108].copy_from_slice(b"0000644\0");
        header[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
        header[156] = b'0';
        header[257..263].copy_from_slice(b"ustar\0");
        header[263..265].copy_from_slice(b"00");
        out.extend_from_slice(&header);
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

fn pem_key(seed: u64) -> String {
    let body = random(BASE64, seed, 64 * 20);
    let lines: Vec<&str> = (0..20).map(|i| &body[i * 64..(i + 1) * 64]).collect();
    format!(
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA{}\n{}\n-----END RSA PRIVATE KEY-----\n",
        &lines[0][16..],
        lines[1..].join("\n")
    )
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let ghp = format!("{}_{}", "ghp", random(ALNUM, 51, 36));
    let akia = format!("AKIA{}", random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 52, 16));
    let (g1, g2) = ghp.split_at(14);
    let (a1, a2) = akia.split_at(8);
    let archive = tar(&[
        ("logo.png", &noise(53, 5000)),
        ("id_rsa", pem_key(54).as_bytes()),
    ]);
    vec![
        (
            "backup.yaml",
            format!("kind: Backup\ndata: {}\n", base64(&gzip(&archive))),
            2,
        ),
        (
            "token.py",
            format!(
                "a = \"{}\"\nb = \"{g2}\"\ntoken = f\"ghp_{{a}}{{b}}\"\n",
                &g1[4..]
            ),
            3,
        ),
        ("keys.js", format!("let k = '{a1}';\nk += '{a2}';\n"), 1),
        ("seed.sql", format!("SELECT '{g1}' || '{g2}' AS t;\n"), 1),
        (
            "init.sql",
            format!("INSERT INTO k VALUES (CONCAT('{a1}', '{a2}'));\n"),
            1,
        ),
        (
            "join.py",
            format!("t = \"\".join([\"{g1}\", \"{g2}\"])\n"),
            1,
        ),
    ]
}

#[test]
fn round_fifteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

/// A tar member compressed again that cannot be read (a corrupt bzip2
/// stream; round seventeen reads gzip, zip and tar members, round twenty
/// bzip2): the build is refused and says why.
#[test]
fn round_fifteen_a_tar_member_packed_again_is_refused_as_unchecked() {
    let p = Project::fixture();
    let archive = tar(&[
        ("README", b"notes\n"),
        (
            "keys.tar.bz2",
            b"BZh91AY&SY\x12\x34\x56\x78\x00\x00nothing to see",
        ),
    ]);
    p.write(
        "backup.yaml",
        &format!("data:\n  blob: {}\n", base64(&gzip(&archive))),
    );
    p.ok(&["add", "backup.yaml"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("backup.yaml:2: "), "{err}");
    assert!(err.contains("could not be fully checked"), "{err}");
}

#[test]
fn round_fifteen_near_misses_build() {
    let p = Project::fixture();
    let archive = tar(&[
        ("logo.png", &noise(55, 5000)),
        ("README", b"Nothing secret here.\n"),
    ]);
    p.write(
        "assets.yaml",
        &format!("data:\n  blob: {}\n", base64(&gzip(&archive))),
    );
    p.write(
        "greet.py",
        "name = \"world\"\nmsg = f\"Hello {name}\"\npath = \"\".join([\"usr\", \"/\", \"bin\"])\n\
         s = \"abc\"\ns += \"def\"\n",
    );
    p.write(
        "report.sql",
        "SELECT first_name || ' ' || last_name, CONCAT('Hello', ' ', 'world') FROM users;\n",
    );
    p.write(
        "auth.py",
        "def login(user, password):\n    \"\"\"Log in.\n\n    password: Tr0ub4dor&3 with space\n    \"\"\"\n    \
         # password: Tr0ub4dor&3 with space\n    return user\n",
    );
    p.write(
        "auth.js",
        "/**\n * Logs in.\n * password: Tr0ub4dor&3 with space\n */\nfunction login() {}\n",
    );
    p.ok(&[
        "add",
        "assets.yaml",
        "greet.py",
        "report.sql",
        "auth.py",
        "auth.js",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
