//! Round sixteen (what round fifteen left): joins by JavaScript template
//! literals and backtick halves, `+=`/`.=` chains, `"-".join(…)` with a
//! separator and tuples, a split through one variable bound to a literal,
//! f-strings whose names make a token without a keyword of their own.
//! Each with its near misses. The values are made here.

use super::found;
use super::round_eleven::{alnum, check, random};

fn quiet(lines: &[String]) {
    let loud: Vec<String> = lines
        .iter()
        .filter(|l| !found(l).is_empty())
        .map(|l| format!("{l:?}: {:?}", found(l)))
        .collect();
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

fn akia(seed: u64) -> String {
    format!(
        "AKIA{}",
        random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", seed, 16)
    )
}

#[test]
fn round_sixteen_secrets_built_by_more_joins_are_found() {
    let ghp = format!("{}_{}", "ghp", alnum(61, 36));
    let (g1, g2) = ghp.split_at(14);
    let (m1, rest) = g2.split_at(10);
    let a = akia(62);
    let (a1, a2) = a.split_at(8);
    let (a2a, a2b) = a2.split_at(5);
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!(
                "const a = \"{}\";\nconst b = '{g2}';\nconst token = `ghp_${{a}}${{b}}`;\n",
                &g1[4..]
            ),
            "token",
            "github-token",
        ),
        (
            format!("const a = \"{g1}\";\nlet b = \"{g2}\";\nconst t = `${{a}}${{b}}`;\n"),
            "const t",
            "github-token",
        ),
        (
            format!("const k = `{a1}` + `{a2}`;\n"),
            "const",
            "aws-access-key",
        ),
        (
            format!("let k = \"{a1}\"; k += \"{a2}\";\n"),
            "let",
            "aws-access-key",
        ),
        (
            format!("k = \"{a1}\"\nk += \"{a2a}\"\nk += \"{a2b}\"\n"),
            "k = ",
            "aws-access-key",
        ),
        (
            format!("$k = '{a1}';\n$k .= '{a2}';\n"),
            "$k = ",
            "aws-access-key",
        ),
        (
            format!("k = \"{a1}\"\nk = k + \"{a2a}\"\nk = k + \"{a2b}\"\n"),
            "k = \"",
            "aws-access-key",
        ),
        (
            format!("$k = '{a1}';\n$k = $k . '{a2}';\n"),
            "$k = '",
            "aws-access-key",
        ),
        (
            format!("t = \"_\".join([\"ghp\", \"{}\"])\n", &ghp[4..]),
            "join",
            "github-token",
        ),
        (
            format!("t = \"\".join((\"{g1}\", \"{g2}\"))\n"),
            "join",
            "github-token",
        ),
        (
            format!("mid = \"{m1}\"\ntoken = \"{g1}\" + mid + \"{rest}\"\n"),
            "token",
            "github-token",
        ),
        (
            format!("a = \"{g1}\"\nb = \"{g2}\"\nt = f\"{{a}}{{b}}\"\n"),
            "t = f",
            "github-token",
        ),
    ];
    check(&cases);
}

#[test]
fn round_sixteen_ordinary_joins_of_those_kinds_stay_quiet() {
    quiet(
        &[
            "const name = \"world\";\nconst msg = `Hello ${name}, you have ${count} items`;\n",
            "Run `git add` `git commit` and `git push` in turn.\n",
            "const cls = `btn` + `-primary`;\n",
            "d = \"-\".join([\"2024\", \"01\", \"01\"])\n",
            "host = \"example.com\"\nurl = \"https://\" + host + \"/api/v1/users/list\"\n",
            "a = \"ghp_\"\nt = f\"{a}{b}\"\n",
            "a = \"hello\"\nb = \"world\"\nt = f\"{a}{b}\"\n",
            "$s = 'abc';\n$s .= 'def';\n",
            "k = \"AKIA\"\nk += \"EXAMPLE\"\n",
            "sep = \", \"\nline = \"first\" + sep + \"second\"\n",
        ]
        .map(String::from),
    );
}

/// `n` pseudo-random bytes: a binary file's.
fn binary(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn ghp(seed: u64) -> String {
    format!("{}_{}", "ghp", alnum(seed, 36))
}

fn zip_base64(members: &[(&str, &[u8], bool)]) -> String {
    super::base64(&crate::core::secret_scan::test_zip(members))
}

/// A Java keystore of `entries` (tag, alias) with `magic`, as Java writes
/// one (an entry's data made up).
fn keystore(magic: u8, entries: &[(u32, &str)]) -> Vec<u8> {
    let mut out = if magic == 0xFE {
        vec![0xFE, 0xED, 0xFE, 0xED]
    } else {
        vec![magic; 4]
    };
    out.extend(2u32.to_be_bytes());
    out.extend(u32::try_from(entries.len()).expect("few").to_be_bytes());
    for (i, (tag, alias)) in entries.iter().enumerate() {
        out.extend(tag.to_be_bytes());
        out.extend(u16::try_from(alias.len()).expect("short").to_be_bytes());
        out.extend(alias.as_bytes());
        out.extend([0u8; 8]);
        if *tag == 2 {
            out.extend(5u16.to_be_bytes());
            out.extend(b"X.509");
        }
        let data = binary(70 + i as u64, 600);
        out.extend(u32::try_from(data.len()).expect("small").to_be_bytes());
        out.extend(data);
        if *tag == 1 {
            out.extend(0u32.to_be_bytes());
        }
    }
    out.extend(binary(80, 20));
    out
}

#[test]
fn round_sixteen_a_secret_in_a_base64_zip_is_found() {
    let env = format!("GITHUB_TOKEN={}\n", ghp(63));
    let class = binary(64, 3000);
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!(
                "bundle: {}\n",
                zip_base64(&[
                    ("README.md", b"notes\n", false),
                    (".env", env.as_bytes(), true)
                ])
            ),
            "bundle",
            "base64-credentials",
        ),
        (
            format!(
                "JAR = \"{}\"\n",
                zip_base64(&[
                    ("A.class", &class, true),
                    ("app.properties", env.as_bytes(), false)
                ])
            ),
            "JAR",
            "base64-credentials",
        ),
    ];
    check(&cases);
}

#[test]
fn round_sixteen_a_base64_zip_not_read_whole_is_unchecked() {
    // Round seventeen reads a zip member (a jar); xz is still not read.
    let inner = b"\xfd7zXZ\x00\x00\x04nothing";
    let whole = zip_base64(&[("README", b"notes\n", false), ("lib.tar.xz", inner, false)]);
    let mut encrypted = crate::core::secret_scan::test_zip(&[("secret.txt", b"xyz\n", false)]);
    encrypted[6] = 1;
    let central = encrypted.len() - 22 - 46 - "secret.txt".len();
    encrypted[central + 8] = 1;
    let cut = zip_base64(&[("README", &binary(65, 3000), true)]);
    check(&[
        (format!("blob: {whole}\n"), "blob", "unchecked-encoded"),
        (
            format!("blob: {}\n", super::base64(&encrypted)),
            "blob",
            "unchecked-encoded",
        ),
        (
            format!("blob: {}\n", &cut[..cut.len() / 2]),
            "blob",
            "unchecked-encoded",
        ),
    ]);
}

#[test]
fn round_sixteen_a_zip_without_a_secret_stays_quiet() {
    quiet(&[
        format!(
            "docx: {}\n",
            zip_base64(&[
                ("[Content_Types].xml", b"<Types/>\n", true),
                (
                    "word/document.xml",
                    b"<w:document>Hello</w:document>\n",
                    true
                ),
                ("media/logo.png", &binary(66, 5000), false),
            ])
        ),
        format!(
            "truststore: {}\n",
            super::base64(&keystore(0xFE, &[(2, "ca"), (2, "intermediate")]))
        ),
    ]);
}

#[test]
fn round_sixteen_a_java_keystore_with_a_key_is_found() {
    let jks = keystore(0xFE, &[(2, "ca"), (1, "server")]);
    let jceks = keystore(0xCE, &[(3, "aes-key")]);
    let trust = keystore(0xFE, &[(2, "ca")]);
    check(&[
        (
            format!("keystore.jks: {}\n", super::base64(&jks)),
            "keystore",
            "base64-java-keystore",
        ),
        (
            format!("KEYS = '{}'\n", super::base64(&jceks)),
            "KEYS",
            "base64-java-keystore",
        ),
        (
            format!("truststore: {}\n", super::base64(&trust[..trust.len() / 2])),
            "truststore",
            "unchecked-encoded",
        ),
        (
            format!("bundle: {}\n", zip_base64(&[("server.jks", &jks, false)])),
            "bundle",
            "base64-credentials",
        ),
    ]);
}

#[test]
fn round_sixteen_small_shapes_are_found() {
    let pw = random(
        "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789",
        90,
        14,
    );
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!("db_1.internal:5432:app:alice:{}\\:{}\n", &pw[..6], &pw[6..]),
            "db_1",
            "pgpass-password",
        ),
        (
            format!(
                "steps:\n  - run: |\n      cat > ~/.pgpass <<EOF\n      db.internal:5432:app:alice:{pw}\n      EOF\n"
            ),
            "cat >",
            "pgpass-nearby",
        ),
        (
            format!(
                "with open(os.path.expanduser(\"~/.pgpass\"), \"w\") as f:\n    f.write(\"db.internal:5432:app:alice:{pw}\\n\")\n"
            ),
            "with open",
            "pgpass-nearby",
        ),
        (
            format!("tee ~/.pgpass > /dev/null <<EOF\n  db.internal:*:app:alice:{pw}\nEOF\n"),
            "tee",
            "pgpass-nearby",
        ),
        (
            "db:\n  password: |\n    CorrectHorseBatteryStaple!\n".to_string(),
            "password",
            "yaml-block-password",
        ),
        (
            "db:\n  password:\n    \"Xq9vR2mKz7Lp4tBw\"\n".to_string(),
            "password",
            "yaml-block-password",
        ),
        (
            "db:\n  api_token:\n    'Xq9vR2mKz7Lp4tBwZ3'\n".to_string(),
            "api_token",
            "yaml-block-password",
        ),
    ];
    check(&cases);
}

#[test]
fn round_sixteen_small_shapes_near_misses_stay_quiet() {
    quiet(
        &[
            "Create ~/.pgpass with one line per server:\n\n    hostname:port:database:username:password\n",
            "# the format of .pgpass\n# host:5432:db:user:changeme\n",
            "password: |\n  CorrectHorseBatteryStaple\n",
            "token: >\n  some_token_file_name\n",
            "secret:\n  name: db-credentials\n",
            "password: |\n  NotASecret!\n",
            "password:\n  \"${DB_PASSWORD}\"\n",
            "token:\n  \"{{ vault_token }}\"\n",
            "password:\n  'changeme123'\n",
            "secret:\n  \"/etc/secrets/db.txt\"\n",
        ]
        .map(String::from),
    );
    // A docker login whose password is a template.
    let auth = super::base64(b"bob:${REGISTRY_PASSWORD}");
    let config = format!("{{\"auths\": {{\"reg.example.com\": {{\"auth\": \"{auth}\"}}}}}}\n");
    assert!(found(&config).is_empty(), "{:?}", found(&config));
    let auth = super::base64(b"bob:{{ registry_password }}");
    let config = format!("{{\"auths\": {{\"reg.example.com\": {{\"auth\": \"{auth}\"}}}}}}\n");
    assert!(found(&config).is_empty(), "{:?}", found(&config));
}

/// How many findings the scan of a project's file `path` holding `text`
/// reports (its path tells its type).
fn reported(path: &str, text: &str) -> usize {
    use super::super::{Codebase, RenderedFile, Scanner, ViewMode};
    use crate::core::sources::Sources;
    let dir = tempfile::tempdir().expect("tempdir");
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let file = RenderedFile {
        path: path.into(),
        mode: ViewMode::Full,
        text: text.into(),
        error: None,
        skipped: None,
        notes: Vec::new(),
        aggregate: true,
        key: String::new(),
        body_at: None,
    };
    Scanner::new(&codebase).file(&file).len()
}

#[test]
fn round_sixteen_a_leet_password_in_a_comment_after_code_is_prose() {
    let py = "def f():\n    x = 1  # password = \"Tr0ub4dor&3 with space\"\n";
    let js = "function f() {\n  x = 1;  // password = 'Tr0ub4dor&3 with space'\n}\n";
    assert_eq!(found(py).len(), 1, "{:?}", found(py));
    assert_eq!(reported("auth.py", py), 0);
    assert_eq!(reported("auth.js", js), 0);
    // The code before the comment, or a `#` inside a string, is no comment.
    let code = "x = \"# not a comment\"; password = \"Tr0ub4dor&3 with space\"\n";
    assert_eq!(reported("auth.py", code), 1);
    let url = "const u = \"https://x\"; const password = \"Tr0ub4dor&3 with space\";\n";
    assert_eq!(reported("auth.js", url), 1);
}
