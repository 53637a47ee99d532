//! Round twelve (recheck of sweep 10, F2 and F17): shapes that still
//! passed. An Alibaba key without a digit, Notion's `ntn_` and Sentry's
//! `sntrys_` tokens in their other forms, libpq's key=value password of
//! letters alone, passwords with blanks or in braces, private keys as JSON
//! Web Keys, PEM with its newlines escaped for XML or a URL, password
//! hashes, and a gzipped key in base64. The values are made here.

use super::found;
use super::round_eleven::{alnum, check, random};

const LETTERS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CRYPT: &str = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A key-shaped PEM body line (PKCS#8's header, then random base64).
fn pem_lines(seed: u64) -> Vec<String> {
    let mut lines = vec![format!(
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC{}",
        alnum(seed, 32)
    )];
    lines.extend((1..6).map(|i| alnum(seed + i, 64)));
    lines
}

fn begin(label: &str) -> String {
    format!("-----BEGIN {label}-----")
}

fn end(label: &str) -> String {
    format!("-----END {label}-----")
}

#[test]
fn round_twelve_tokens_are_found() {
    let cases = [
        (
            format!("ACCESS_KEY_ID = \"LTAI{}\"\n", random(LETTERS, 1, 20)),
            "LTAI",
            "alibaba-access-key",
        ),
        (
            format!("ak = 'LTAI{}'\n", alnum(2, 20)),
            "LTAI",
            "alibaba-access-key",
        ),
        (
            format!("N=\"ntn_{}\"\n", alnum(3, 46)),
            "ntn_",
            "notion-token",
        ),
        (
            format!("T=\"sntrys_{}\"\n", alnum(4, 64)),
            "sntrys_",
            "sentry-token",
        ),
        (
            format!(
                "DSN = \"host=db port=5432 dbname=app user=app password={} sslmode=require\"\n",
                random(LETTERS, 5, 16)
            ),
            "DSN",
            "libpq-password",
        ),
    ];
    check(&cases);
}

#[test]
fn round_twelve_token_near_misses_are_not_flagged() {
    let lines = [
        "LTAIMPLEMENTATIONDETAILS = 1",
        "class LTAIStatusCodesHandler:",
        "x = LTAIabcdefghijklmnopqrst",
        "ntn_abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrst = 1",
        "T = \"sntrys_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
        "dsn = \"host=db user=app password=secret sslmode=require\"",
        "dsn = \"host=db user=app password=dbPassword sslmode=require\"",
        "dsn = \"host=db user=app password=DB_PASSWORD sslmode=require\"",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

#[test]
fn round_twelve_passwords_with_blanks_or_braces_are_found() {
    let braced = alnum(11, 15);
    let cases = [
        (
            "database:\n  password: P@ss w0rd #1\n".to_string(),
            "password",
            "spaced-password-bare",
        ),
        (
            "DB_PASSWORD: \"correct horse battery staple\"\n".to_string(),
            "DB_PASSWORD",
            "spaced-password",
        ),
        (
            "{\"db_pass\": \"Tr0ub4dor &3 x\"}\n".to_string(),
            "db_pass",
            "spaced-password",
        ),
        (
            "{\"password\": \"Pa$$w0rd2024\"}\n".to_string(),
            "password",
            "secret-assignment",
        ),
        (
            format!("password: \"{{{braced}}}\"\n"),
            "password",
            "secret-assignment",
        ),
    ];
    check(&cases);
}

#[test]
fn round_twelve_password_near_misses_are_not_flagged() {
    let lines = [
        "password: ${DB_PASSWORD}",
        "password: \"${DB_PASSWORD}\"",
        "password: \"{{ vault_pw }}\"",
        "password: {env: X}",
        "password: the user's password",
        "\"password\": \"string\"",
        "password: <your password>",
        "password: \"<your password>\"",
        "password: \"{password}\"",
        "password: \"{DB_PASSWORD}\"",
        "\"password\": \"Enter your password\"",
        "\"password\": \"Mot de passe\"",
        "\"confirm_password\": \"Confirm Password\"",
        "\"password\": \"P@ssw0rd\"",
        "password_hint: \"first pet name and year\"",
        "    password: The password to use when logging in.",
        "    password: str or bytes",
        "password: required string value",
        "passphrase: \"used to encrypt the key\"",
        "    password: str = None",
        "    password: Optional[str] = None,",
        "  password: process.env.DB_PASSWORD || 'x y'",
        "password = \"%s %s\" % (a, b)",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

#[test]
fn round_twelve_json_web_keys_are_found() {
    let d = random(BASE64URL, 21, 43);
    let x = random(BASE64URL, 22, 43);
    let n = random(BASE64URL, 23, 342);
    let cases = [
        (
            format!(
                "{{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"{x}\", \"y\": \"{x}\", \"d\": \"{d}\"}}\n"
            ),
            "kty",
            "jwk-private-key",
        ),
        (
            format!(
                "{{\n  \"keys\": [\n    {{\n      \"kty\": \"RSA\",\n      \"n\": \"{n}\",\n      \"e\": \"AQAB\",\n      \"d\": \"{n}\",\n      \"p\": \"{d}\",\n      \"q\": \"{x}\",\n      \"dp\": \"{d}\"\n    }}\n  ]\n}}\n"
            ),
            "\"d\"",
            "jwk-private-key",
        ),
        (
            format!("{{\"crv\": \"Ed25519\", \"d\": \"{d}\", \"kty\": \"OKP\", \"x\": \"{x}\"}}\n"),
            "kty",
            "jwk-private-key",
        ),
    ];
    check(&cases);
    let x = random(BASE64URL, 24, 43);
    for text in [
        format!("{{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \"{x}\", \"y\": \"{x}\"}}"),
        format!("{{\"kty\": \"RSA\", \"n\": \"{x}\", \"e\": \"AQAB\"}}"),
        "data = {\"kty\": \"oct\", \"k\": \"...\"}".to_string(),
        "if \"kty\" in data: key_type = data[\"kty\"]".to_string(),
    ] {
        assert!(found(&text).is_empty(), "{text}: {:?}", found(&text));
    }
}

#[test]
fn round_twelve_escaped_pem_is_found() {
    let lines = pem_lines(31);
    let label = ["PRIVATE", "KEY"].join(" ");
    let xml = format!(
        "<key>{}&#10;{}&#10;{}</key>\n",
        begin(&label),
        lines.join("&#10;"),
        end(&label)
    );
    let url = format!(
        "key={}%0A{}%0A{}\n",
        begin(&label).replace(' ', "%20"),
        lines.join("%0A").replace('+', "%2B"),
        end(&label).replace(' ', "%20")
    );
    let spaced = format!(
        "KEY=\"{} {} {}\"\n",
        begin(&label),
        lines.join(" "),
        end(&label)
    );
    let rsa = format!(
        "<k>{}&#13;&#10;{}</k>\n",
        begin(&["RSA", "PRIVATE", "KEY"].join(" ")),
        lines.join("&#13;&#10;")
    );
    let cases = [
        (xml, "key", "private-key"),
        (url, "key", "private-key"),
        (spaced, "KEY", "private-key"),
        (rsa, "<k>", "private-key"),
    ];
    check(&cases);
    // Prose, and documentation's bodies cut short.
    for text in [
        format!("Paste it between {} and {}.", begin(&label), end(&label)),
        format!(
            "\"PrivateKey\": \"{}\\nMIIEowIABAKCAQEAqKpRgnn6yq26U3yt5YFZquyukfRjbMXDcNOK4rMCxDR...fvY4+te\\n{}\\n\"",
            begin(&["RSA", "PRIVATE", "KEY"].join(" ")),
            end(&["RSA", "PRIVATE", "KEY"].join(" "))
        ),
        "\"PrivateKeyPlaintext\": \"MIIG/QIBADANBgkqhkiG9w0BAQEFAASCBucwggbjAgEAAoIBgQDcDd4YzI+u9Kfv4t2UkTWhShBXkekS4cBVt07I0P42ZgMf+YvU5IgS4ut...\",".to_string(),
    ] {
        assert!(found(&text).is_empty(), "{text}: {:?}", found(&text));
    }
}

#[test]
fn round_twelve_password_hashes_are_found() {
    let cases = [
        (
            format!(
                "admin:$apr1${}${}\n",
                random(CRYPT, 41, 8),
                random(CRYPT, 42, 22)
            ),
            "admin",
            "password-hash",
        ),
        (
            format!(
                "root:$6${}${}:19000:0:99999:7:::\n",
                random(CRYPT, 43, 16),
                random(CRYPT, 44, 86)
            ),
            "root",
            "password-hash",
        ),
        (
            format!("H=\"$2b$12${}\"\n", random(CRYPT, 45, 53)),
            "H=",
            "password-hash",
        ),
    ];
    check(&cases);
    for line in [
        "The hash looks like `$2b$12$` and 53 more characters.",
        "root:$6$:19000:0:99999:7:::",
        "    'md5_crypt': '$1$',",
        "x = \"user:$apr1$\" + salt",
    ] {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Gzip of `text`, base64-encoded.
fn gzip_base64(text: &str) -> String {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).expect("in memory");
    super::base64(&gz.finish().expect("in memory"))
}

#[test]
fn round_twelve_a_gzipped_key_in_base64_is_found() {
    let label = ["PRIVATE", "KEY"].join(" ");
    let key = format!(
        "{}\n{}\n{}\n",
        begin(&label),
        pem_lines(51).join("\n"),
        end(&label)
    );
    let text = format!(
        "import gzip, base64\nK = gzip.decompress(base64.b64decode(\"{}\"))\n",
        gzip_base64(&key)
    );
    check(&[(text, "K =", "base64-credentials")]);
    // Gzip of anything else is no secret.
    let text = format!("DATA = \"{}\"\n", gzip_base64(&"hello world\n".repeat(40)));
    assert!(found(&text).is_empty(), "{:?}", found(&text));
}

/// Passwords built on a run of letters or digits are passwords: the
/// filter for documentation's made-up values (`a1b2c3d4`) let them pass
/// (recheck of round twelve: each was found before the filter).
#[test]
fn round_twelve_passwords_built_on_a_run_are_found() {
    let cases: Vec<(String, &str, &str)> = [
        "DB_PASSWORD = 'Acme123456!'\n",
        "DB_PASSWORD = 'Rc56789efgh'\n",
        "DB_PASSWORD = 'Tr7#abcdefg'\n",
        "SECRET_KEY = 'k9Pq2XvL0123456789abcdefXyZ'\n",
    ]
    .into_iter()
    .map(|text| {
        let name = text.split(' ').next().unwrap_or_default();
        (text.to_string(), name, "secret-assignment")
    })
    .collect();
    check(&cases);
}

/// A token glued to an escape (`\n` in a JSON string, a URL's `%3D` or
/// `%20`) has no word boundary before it, and went out (recheck of round
/// twelve); the plain `&token=ghp_…` form was found.
#[test]
fn round_twelve_tokens_glued_to_an_escape_are_found() {
    let ghp = format!("ghp_{}", alnum(41, 36));
    let pat = format!("github_pat_{}", alnum(42, 60));
    let cases = [
        (
            format!("{{\"log\": \"auth ok\\n{ghp} used\"}}\n"),
            "ghp_",
            "github-token",
        ),
        (format!("x = \"a\\t{ghp}\"\n"), "ghp_", "github-token"),
        (
            format!("GET /api?access_token%3D{ghp} HTTP/1.1\n"),
            "ghp_",
            "github-token",
        ),
        (
            format!("curl -H Authorization:Bearer%20{ghp}\n"),
            "ghp_",
            "github-token",
        ),
        (
            format!("u = \"/cb?t%3D{pat}\"\n"),
            "github_pat_",
            "github-fine-grained-token",
        ),
    ];
    check(&cases);
}
