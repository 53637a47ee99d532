//! Round fifteen (issue 37, what round fourteen left): inflated data that
//! is not UTF-8 text (a tar with a binary member before a key file); joins
//! by f-strings, `+=`, SQL's `||`, `concat(…)` and `"".join([…])`; more
//! published example keys; a leet-shaped word in documentation. Each with
//! its near misses. The values are made here.

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

/// Gzip of `bytes`.
pub(super) fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).expect("in memory");
    gz.finish().expect("in memory")
}

/// Gzip of `bytes`, base64-encoded.
fn gzip_base64(bytes: &[u8]) -> String {
    super::base64(&gzip(bytes))
}

/// A ustar archive of `members` (name, bytes), as `tar` writes one.
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

pub(super) fn pem_key(seed: u64) -> String {
    let body = random(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        seed,
        64 * 20,
    );
    let lines: Vec<&str> = (0..20).map(|i| &body[i * 64..(i + 1) * 64]).collect();
    format!(
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA{}\n{}\n-----END RSA PRIVATE KEY-----\n",
        &lines[0][16..],
        lines[1..].join("\n")
    )
}

#[test]
fn round_fifteen_a_key_in_a_tar_after_a_binary_member_is_found() {
    let pem = pem_key(41);
    let env = format!("GITHUB_TOKEN={}_{}\n", "ghp", alnum(42, 36));
    let cases: Vec<(String, &str, &str)> = [
        tar(&[("logo.png", &binary(40, 5000)), ("id_rsa", pem.as_bytes())]),
        tar(&[("app.bin", &binary(43, 300_000)), (".env", env.as_bytes())]),
        // A binary file alone, gzipped, with the token's text in it.
        [binary(44, 2000), env.clone().into_bytes(), binary(45, 2000)].concat(),
    ]
    .into_iter()
    .map(|bytes| {
        (
            format!("backup: {}\n", gzip_base64(&bytes)),
            "backup",
            "base64-credentials",
        )
    })
    .collect();
    check(&cases);
}

#[test]
fn round_fifteen_binary_inflated_data_without_a_secret_stays_quiet() {
    let archive = tar(&[
        ("logo.png", &binary(46, 5000)),
        ("README", b"Nothing secret here.\n"),
    ]);
    quiet(&[
        format!("backup: {}\n", gzip_base64(&archive)),
        format!("blob: {}\n", gzip_base64(&binary(47, 400_000))),
    ]);
}

#[test]
fn round_fifteen_a_tar_member_packed_again_is_not_passed_unread() {
    // Round seventeen reads a gzip member (and a zip, a tar), round
    // twenty a bzip2 one: this one is corrupt.
    let inner = b"BZh91AY&SY\x12\x34\x56\x78\x00\x00nothing to see";
    let archive = tar(&[("README", b"notes\n"), ("keys.tar.bz2", inner)]);
    check(&[(
        format!("backup: {}\n", gzip_base64(&archive)),
        "backup",
        "unchecked-encoded",
    )]);
}

const HEX: &str = "0123456789abcdef";

#[test]
fn round_fifteen_secrets_built_by_other_joins_are_found() {
    let ghp = format!("{}_{}", "ghp", alnum(51, 36));
    let akia = format!("AKIA{}", random("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 52, 16));
    let sk = format!("SK{}", random(HEX, 53, 32));
    let (g1, g2) = ghp.split_at(14);
    let (a1, a2) = akia.split_at(8);
    let cases: Vec<(String, &str, &str)> = vec![
        (
            format!(
                "a = \"{}\"\nb = \"{}\"\ntoken = f\"ghp_{{a}}{{b}}\"\n",
                &g1[4..],
                g2
            ),
            "token",
            "github-token",
        ),
        (
            format!("token = f\"ghp_{{'{}'}}{{'{}'}}\"\n", &g1[4..], g2),
            "token",
            "github-token",
        ),
        (
            format!("k = \"{a1}\"\nk += \"{a2}\"\n"),
            "k = ",
            "aws-access-key",
        ),
        (
            format!("let k = '{a1}'; k += '{a2}';\n"),
            "let",
            "aws-access-key",
        ),
        (
            format!("SELECT '{g1}' || '{g2}' AS t;\n"),
            "SELECT",
            "github-token",
        ),
        (
            format!("SELECT CONCAT('{a1}', '{a2}');\n"),
            "SELECT",
            "aws-access-key",
        ),
        (
            format!("t = concat!(\"{g1}\", \"{g2}\");\n"),
            "concat",
            "github-token",
        ),
        (
            format!("const t = \"{g1}\".concat(\"{g2}\");\n"),
            "const",
            "github-token",
        ),
        (
            format!("t = \"\".join([\"{g1}\", \"{g2}\"])\n"),
            "join",
            "github-token",
        ),
        (
            format!(
                "sid = ''.join((\n    '{}',\n    '{}',\n))\n",
                &sk[..17],
                &sk[17..]
            ),
            "'SK",
            "twilio-key",
        ),
    ];
    check(&cases);
}

#[test]
fn round_fifteen_ordinary_joins_of_those_kinds_stay_quiet() {
    quiet(
        &[
            "name = \"world\"\nmsg = f\"Hello {name}, welcome {name}\"\n",
            "msg = f\"{'abc'}{'def'}\"\n",
            "s = \"abc\"\ns += \"def\"\n",
            "s = 'The quick brown fox'\nt += ' jumps over the lazy dog'\n",
            "SELECT first_name || ' ' || last_name FROM users;\n",
            "SELECT CONCAT('Hello', ' ', 'world');\n",
            "path = \"\".join([\"usr\", \"/\", \"local\", \"/\", \"bin\"])\n",
            "ids = [\"0123456789abcdef\", \"0123456789abcdef\"]\n",
            "x = \", \".join([\"SK0123456789\", \"abcdef0123456789abcdef\"])\n",
        ]
        .map(String::from),
    );
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
fn round_fifteen_a_leet_password_in_documentation_of_code_is_prose() {
    let docstring = "def login(user, password):\n    \"\"\"Log in.\n\n    password: Tr0ub4dor&3 with space\n    \"\"\"\n";
    let comment = "# e.g. password = \"Tr0ub4dor&3 with space\"\nx = 1\n";
    let jsdoc =
        "/**\n * Logs in, e.g. {password: 'Tr0ub4dor&3 with space'}\n */\nfunction login() {}\n";
    let block = "/*\npassword: Tr0ub4dor&3 with space\n*/\nlet x = 1;\n";
    let slashes = "// login({password: 'Tr0ub4dor&3 with space'})\nlet x = 1;\n";
    for (path, text) in [
        ("auth.py", docstring),
        ("auth.py", comment),
        ("auth.js", jsdoc),
        ("auth.c", block),
        ("auth.ts", slashes),
    ] {
        // The text's own scan finds the shape; the file's type says it is
        // documentation.
        assert_eq!(found(text).len(), 1, "{path}: {text:?}");
        assert_eq!(reported(path, text), 0, "{path}: {text:?}");
    }
}

#[test]
fn round_fifteen_a_leet_password_in_config_or_code_is_still_found() {
    for (path, text) in [
        ("settings.ini", "[db]\npassword = Tr0ub4dor&3 with space\n"),
        (".env", "DB_PASSWORD=Summer2024! and the rest\n"),
        ("auth.py", "self.password = 'Xk7$pL9q with a space'\n"),
        (
            "auth.py",
            "CONFIG = \"\"\"\npassword = Tr0ub4dor&3 with space\n\"\"\"\n",
        ),
        (
            "auth.js",
            "const g = \"src/*.js\";\nconst c = {password: 'Tr0ub4dor&3 with space'};\n",
        ),
        (
            "docker-compose.yml",
            "environment:\n  - POSTGRES_PASSWORD=k9Pq@rT7 for all\n",
        ),
    ] {
        assert_eq!(reported(path, text), 1, "{path}: {text:?}");
    }
}

#[test]
fn round_fifteen_the_rfc_8410_example_keys_are_quiet_others_are_found() {
    // RFC 8410, Section 10.3, as printed (and as pyasn1-modules' tests
    // copy it).
    let pem = "-----BEGIN PRIVATE KEY-----\n\
               MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
               -----END PRIVATE KEY-----\n";
    let split = "class T:\n    text = (\"MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwo\"\n\
                 \x20           \"y/HU++CXqI9EdVhC\")\n";
    let with_public = "-----BEGIN PRIVATE KEY-----\n\
                       MHICAQEwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
                       oB8wHQYKKoZIhvcNAQkJFDEPDA1DdXJkbGUgQ2hhaXJzgSEAGb9ECWmEzf6FQbrB\n\
                       Z9w7lshQhqowtrbLDFw4rXAxZuE=\n\
                       -----END PRIVATE KEY-----\n";
    quiet(&[pem, split, with_public].map(String::from));
    // Another Ed25519 key in the same shape is found.
    let own = format!(
        "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI{}\n-----END PRIVATE KEY-----\n",
        random(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
            56,
            43
        )
    );
    check(&[(own, "BEGIN", "private-key")]);
}

/// pyasn1-modules re-exports ASN.1 types under their own names: a name
/// given the same name from a module is an alias, no secret.
#[test]
fn round_fifteen_a_name_aliased_from_a_module_is_no_secret() {
    quiet(
        &[
            "EncryptedPrivateKeyInfo = rfc5958.EncryptedPrivateKeyInfo\n",
            "TimeStampToken = rfc3161.TimeStampToken\n",
            "RSAPrivateKey = rfc3447.RSAPrivateKey\n",
        ]
        .map(String::from),
    );
    // Another value after a module's name is judged as before.
    let value = format!("SECRET_KEY = 'mod.{}'\n", alnum(57, 40));
    assert_eq!(found(&value).len(), 1, "{:?}", found(&value));
}

#[test]
fn round_fifteen_the_rfc_7518_example_key_is_quiet_others_are_found() {
    // RFC 7518, Appendix C: Bob's key, as joserfc's tests copy it.
    let bob = "{\n  \"kty\": \"EC\",\n  \"crv\": \"P-256\",\n  \
               \"x\": \"weNJy2HscCSM6AEDTDg04biOvhFhyyWvOHQfeF_PxMQ\",\n  \
               \"y\": \"e8lnCO-AlStT-NJVX-crhB7QRYhiix03illJOVAOyck\",\n  \
               \"d\": \"VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw\"\n}\n";
    assert!(found(bob).is_empty(), "{:?}", found(bob));
    let own = bob.replace(
        "VEmDZpDXXK8p8N0Cndsxs924q6nS1RXFASRl6BfUqdw",
        &random(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
            58,
            43,
        ),
    );
    check(&[(own, "\"d\"", "jwk-private-key")]);
}
