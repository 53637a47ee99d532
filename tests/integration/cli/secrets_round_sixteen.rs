//! Round sixteen of the secret shapes (what round fifteen left), through
//! the real binary: each file alone in a project, `build` refuses it and
//! names its line, never echoing the secret — secrets built by template
//! literals, backtick halves, PHP's `.=`, `"_".join([…])`, a split through
//! one name, an f-string of names only; a `.env` in a base64 zip, a Java
//! keystore with a private key in base64, `.pgpass` lines near the word or
//! escaped, a YAML block password without a digit; a zip holding a jar is
//! refused as not fully checked. The near misses build: a truststore, a
//! docx, a docker login whose password is a template, a leet-shaped
//! password in a comment after code. The values are made here.

use crate::common;

use common::{Project, base64, noise, random, stderr};

/// A zip of `members` (name, bytes, deflated or stored), its CRCs left
/// zero (the scanner does not check them).
pub(super) fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
    use std::io::Write;
    let n = |x: usize| u32::try_from(x).expect("small").to_le_bytes();
    let short = |x: usize| u16::try_from(x).expect("small").to_le_bytes();
    let (mut out, mut central) = (Vec::new(), Vec::new());
    for (name, data, deflate) in members {
        let body = if *deflate {
            let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            d.write_all(data).expect("in memory");
            d.finish().expect("in memory")
        } else {
            data.to_vec()
        };
        let method = short(if *deflate { 8 } else { 0 });
        let offset = out.len();
        out.extend(b"PK\x03\x04\x14\x00\x00\x00");
        out.extend(method);
        out.extend([0u8; 8]);
        out.extend(n(body.len()));
        out.extend(n(data.len()));
        out.extend(short(name.len()));
        out.extend([0u8; 2]);
        out.extend(name.as_bytes());
        out.extend(&body);
        central.extend(b"PK\x01\x02\x14\x00\x14\x00\x00\x00");
        central.extend(method);
        central.extend([0u8; 8]);
        central.extend(n(body.len()));
        central.extend(n(data.len()));
        central.extend(short(name.len()));
        central.extend([0u8; 12]);
        central.extend(n(offset));
        central.extend(name.as_bytes());
    }
    let dir = out.len();
    out.extend(&central);
    out.extend(b"PK\x05\x06\x00\x00\x00\x00");
    out.extend(short(members.len()));
    out.extend(short(members.len()));
    out.extend(n(central.len()));
    out.extend(n(dir));
    out.extend([0u8; 2]);
    out
}

/// A JKS keystore of `entries` (tag: 1 a private key, 2 a certificate).
fn jks(entries: &[u32]) -> Vec<u8> {
    let mut out = vec![0xFE, 0xED, 0xFE, 0xED, 0, 0, 0, 2];
    out.extend(u32::try_from(entries.len()).expect("few").to_be_bytes());
    for (i, tag) in entries.iter().enumerate() {
        out.extend(tag.to_be_bytes());
        out.extend(3u16.to_be_bytes());
        out.extend(format!("k{i:02}").as_bytes());
        out.extend([0u8; 8]);
        if *tag == 2 {
            out.extend(5u16.to_be_bytes());
            out.extend(b"X.509");
        }
        let data = noise(170 + i as u64, 700);
        out.extend(u32::try_from(data.len()).expect("small").to_be_bytes());
        out.extend(data);
        if *tag == 1 {
            out.extend(0u32.to_be_bytes());
        }
    }
    out.extend(noise(180, 20));
    out
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let ghp = format!("{}_{}", "ghp", random(ALNUM, 161, 36));
    let akia = format!(
        "AKIA{}",
        random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 162, 16)
    );
    let (g1, g2) = ghp.split_at(14);
    let (m1, rest) = g2.split_at(10);
    let (a1, a2) = akia.split_at(8);
    vec![
        (
            "token.js",
            format!(
                "const a = \"{}\";\nconst b = '{g2}';\nconst token = `ghp_${{a}}${{b}}`;\n",
                &g1[4..]
            ),
            3,
        ),
        ("keys.ts", format!("const k = `{a1}` + `{a2}`;\n"), 1),
        (
            "keys.php",
            format!("<?php\n$k = '{a1}';\n$k .= '{a2}';\n"),
            2,
        ),
        (
            "chain.py",
            format!(
                "k = \"{a1}\"\nk = k + \"{}\"\nk = k + \"{}\"\n",
                &a2[..5],
                &a2[5..]
            ),
            1,
        ),
        (
            "sep.py",
            format!("t = \"_\".join([\"ghp\", \"{}\"])\n", &ghp[4..]),
            1,
        ),
        (
            "mid.py",
            format!("mid = \"{m1}\"\ntoken = \"{g1}\" + mid + \"{rest}\"\n"),
            2,
        ),
        (
            "names.py",
            format!("a = \"{g1}\"\nb = \"{g2}\"\nt = f\"{{a}}{{b}}\"\n"),
            3,
        ),
        (
            "bundle.yaml",
            format!(
                "kind: Bundle\ndata: {}\n",
                base64(&zip(&[
                    ("README.md", b"notes\n", false),
                    (".env", format!("GITHUB_TOKEN={ghp}\n").as_bytes(), true),
                ]))
            ),
            2,
        ),
        (
            "keystore.yaml",
            format!("data:\n  keystore.jks: {}\n", base64(&jks(&[2, 1]))),
            2,
        ),
        (
            "ci.yml",
            format!(
                "steps:\n  - run: |\n      cat > ~/.pgpass <<EOF\n      db.internal:5432:app:alice:{}\n      EOF\n",
                random(ALNUM, 163, 14)
            ),
            3,
        ),
        (
            ".pgpass",
            format!(
                "db_1.internal:5432:app:alice:{}\\:x\n",
                random(ALNUM, 164, 12)
            ),
            1,
        ),
        (
            "values.yaml",
            "db:\n  password: |\n    CorrectHorseBatteryStaple!\n".to_string(),
            2,
        ),
    ]
}

/// A zip holding an archive of a kind not read (xz; round seventeen reads
/// a jar, a gzip or a tar inside) cannot be read whole: the build is
/// refused and says why.
#[test]
fn round_sixteen_a_zip_holding_an_xz_archive_is_refused_as_unchecked() {
    let p = Project::fixture();
    let inner: &[u8] = b"\xfd7zXZ\x00\x00\x04nothing";
    let outer = zip(&[
        ("README", b"notes\n", false),
        ("lib/app.tar.xz", inner, false),
    ]);
    p.write(
        "bundle.yaml",
        &format!("data:\n  blob: {}\n", base64(&outer)),
    );
    p.ok(&["add", "bundle.yaml"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bundle.yaml:2: "), "{err}");
    assert!(err.contains("could not be fully checked"), "{err}");
}

#[test]
fn round_sixteen_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_sixteen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "greet.js",
        "const name = \"world\";\nconst msg = `Hello ${name}, you have ${count} items`;\n\
         const cls = `btn` + `-primary`;\n",
    );
    p.write(
        "dates.py",
        "d = \"-\".join([\"2024\", \"01\", \"01\"])\nhost = \"example.com\"\n\
         url = \"https://\" + host + \"/api/v1/users/list\"\na = \"hello\"\nb = \"world\"\nt = f\"{a}{b}\"\n",
    );
    p.write(
        "notes.md",
        "Run `git add` `git commit` and `git push` in turn.\n",
    );
    p.write(
        "trust.yaml",
        &format!(
            "truststore.jks: {}\ndocx: {}\n",
            base64(&jks(&[2, 2])),
            base64(&zip(&[
                (
                    "word/document.xml",
                    b"<w:document>Hello</w:document>\n",
                    true
                ),
                ("media/logo.png", &noise(165, 4000), false),
            ]))
        ),
    );
    p.write(
        "config.json",
        &format!(
            "{{\"auths\": {{\"reg.example.com\": {{\"auth\": \"{}\"}}}}}}\n",
            base64(b"bob:${REGISTRY_PASSWORD}")
        ),
    );
    p.write(
        "auth.py",
        "def login(user):\n    x = 1  # password = \"Tr0ub4dor&3 with space\"\n    return user\n",
    );
    p.ok(&[
        "add",
        "greet.js",
        "dates.py",
        "notes.md",
        "trust.yaml",
        "config.json",
        "auth.py",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
