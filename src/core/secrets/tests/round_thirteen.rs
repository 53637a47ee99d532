//! Round thirteen (recheck of round twelve, section 2): shapes that still
//! passed. A token glued after a word character, a secret split over
//! string concatenation, lowercase passphrases unquoted in config files,
//! passwords with blanks in XML and connection strings, private JSON Web
//! Keys in YAML, TOML and Go, PEM with `<br>` for its newlines, and
//! password hashes in their other shapes. Each with its near misses. The
//! values are made here.

use super::round_eleven::{alnum, check, random};
use super::{Codebase, RenderedFile, Scanner, Sources, ViewMode, found};

const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const CRYPT: &str = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const HEX: &str = "0123456789ABCDEF";

fn quiet(lines: &[String]) {
    let loud: Vec<String> = lines
        .iter()
        .filter(|l| !found(l).is_empty())
        .map(|l| format!("{l:?}: {:?}", found(l)))
        .collect();
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

#[test]
fn round_thirteen_tokens_glued_to_a_word_are_found() {
    let ghp = format!("{}_{}", "ghp", alnum(1, 36));
    let pat = format!("{}_{}_{}", "github_pat", alnum(2, 22), alnum(3, 59));
    let stripe = format!("{}_{}", "sk_live", alnum(4, 24));
    let cases = [
        (format!("TOKEN_{ghp}\n"), "TOKEN_", "github-token-glued"),
        (format!("value X{ghp} end\n"), "value", "github-token-glued"),
        (
            format!("GITHUB_TOKEN{pat}\n"),
            "GITHUB",
            "github-token-glued",
        ),
        (format!("key=STRIPE{stripe}\n"), "key=", "stripe-key-glued"),
    ];
    check(&cases);
}

#[test]
fn round_thirteen_identifiers_ending_in_a_prefix_are_not_tokens() {
    let lower = random("abcdefghijklmnopqrstuvwxyz0123456789", 5, 36);
    let letters = random(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        6,
        36,
    );
    quiet(&[
        // No capital, no digit: an identifier.
        format!("weighs_{lower} = 1"),
        format!("THINGS_{letters} = 2"),
        // Short of the full length, or past it.
        format!("TOKEN_ghp_{}", alnum(7, 35)),
        format!("TOKEN_ghp_{}", alnum(8, 37)),
        // A test key is no live one.
        format!("MOCKsk_test_{}", alnum(9, 24)),
    ]);
}

#[test]
fn round_thirteen_secrets_split_over_concatenation_are_found() {
    let ntn = alnum(11, 46);
    let pat = format!("{}_{}_{}", "github_pat", alnum(12, 22), alnum(13, 59));
    let ghp = format!("{}_{}", "ghp", alnum(14, 36));
    let cases = [
        (
            format!("NOTION = \"ntn_{}\" + \"{}\"\n", &ntn[..20], &ntn[20..]),
            "NOTION",
            "notion-token",
        ),
        (
            format!("GH = \"{}\" + \\\n     \"{}\"\n", &pat[..40], &pat[40..]),
            "GH =",
            "github-fine-grained-token",
        ),
        (
            format!("const t = \"{}\" +\n  \"{}\";\n", &ghp[..12], &ghp[12..]),
            "const",
            "github-token",
        ),
        (
            format!(
                "TOKEN = (\"{}\"\n         \"{}\")\n",
                &ghp[..10],
                &ghp[10..]
            ),
            "TOKEN",
            "github-token",
        ),
        (
            "DB_PASSWORD = (\"correct horse \" \"battery staple\")\n".to_string(),
            "DB_PASSWORD",
            "spaced-password",
        ),
    ];
    check(&cases);
}

#[test]
fn round_thirteen_concatenations_of_ordinary_strings_are_quiet() {
    quiet(&[
        "msg = \"Token \" + \"value is missing\"".to_string(),
        "x = \"ghp_\" + token".to_string(),
        "y = (\"a\" \"b\")".to_string(),
        "sep = \" \" + \"+\" + \" \"".to_string(),
        "password = \"%s\" \"%s\" % (a, b)".to_string(),
        "print('Enter the ' 'password: ')".to_string(),
    ]);
}

#[test]
fn round_thirteen_unquoted_passphrases_are_found() {
    let cases: Vec<(String, &str, &str)> = [
        ("[db]\npassword=correct horse battery staple\n", "password"),
        ("db.password=correct horse battery staple\n", "password"),
        ("db:\n  password: correct horse battery staple\n", "password"),
        ("DB_PASSWORD=purple monkey dishwasher\n", "PASSWORD"),
        (
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=correct horse battery staple\n",
            "PASSWORD",
        ),
        (
            "all:\n  vars:\n    ansible_become_password: correct horse battery staple\n",
            "become",
        ),
    ]
    .into_iter()
    .map(|(text, marker)| (text.to_string(), marker, "spaced-password-words"))
    .collect();
    check(&cases);
    // Quoted whole in a compose list.
    check(&[(
        "environment:\n  - \"POSTGRES_PASSWORD=correct horse battery staple\"\n".to_string(),
        "PASSWORD",
        "spaced-password",
    )]);
}

#[test]
fn round_thirteen_prose_after_a_password_key_is_quiet() {
    quiet(
        &[
            "password: Enter your password",
            "password: the user's password",
            "    password: the password to use",
            "    password: str or bytes",
            "password: required string value",
            "password = Password for the database user",
            "    password: hashed password of the user",
            "    login_password: mysql login password",
            "password: please change me now",
            "password: plain text here",
            "passwords: one two",
            "password = %(db_password)s",
        ]
        .map(String::from),
    );
}

#[test]
fn round_thirteen_passwords_with_blanks_in_xml_and_json_are_found() {
    let cases = [
        (
            "<db>\n  <password>correct horse battery staple</password>\n</db>\n".to_string(),
            "<password>",
            "spaced-password",
        ),
        (
            "<config>\n  <password>my secret pass 42</password>\n</config>\n".to_string(),
            "<password>",
            "spaced-password",
        ),
        (
            "<add key=\"DbPassword\" value=\"correct horse battery staple\"/>\n".to_string(),
            "DbPassword",
            "spaced-password",
        ),
        (
            "<add name=\"db\" connectionString=\"Server=db;User Id=sa;Password=correct horse battery;\"/>\n"
                .to_string(),
            "Password",
            "connection-string-spaced-password",
        ),
        (
            "{\n  \"Smtp\": {\n    \"Password\": \"Pa$$w0rd 2024!\"\n  }\n}\n".to_string(),
            "Password",
            "spaced-password",
        ),
        (
            "{\"password\": \"Pa$$w0rd 2024\"}\n".to_string(),
            "password",
            "spaced-password",
        ),
    ];
    check(&cases);
    quiet(
        &[
            "<password>Enter your password</password>",
            "<password>${db.password}</password>",
            "<add key=\"DbPassword\" value=\"The database password\"/>",
            "connectionString=\"Server=db;Password=your password here;\"",
            "\"password\": \"$HOME/x y\"",
        ]
        .map(String::from),
    );
}

#[test]
fn round_thirteen_json_web_keys_outside_json_are_found() {
    let d = random(BASE64URL, 21, 43);
    let x = random(BASE64URL, 22, 43);
    let cases = [
        (
            format!(
                "jwk:\n  d: \"{d}\"\n  kty: \"EC\"\n  crv: \"P-256\"\n  x: \"{x}\"\n  y: \"{x}\"\n"
            ),
            "d:",
            "jwk-private-key",
        ),
        (
            format!("jwk: {{kty: EC, crv: P-256, x: {x}, y: {x}, d: {d}}}\n"),
            "jwk",
            "jwk-private-key",
        ),
        (
            format!("keys:\n  - kty: EC\n    x: {x}\n  - kty: EC\n    crv: P-256\n    d: {d}\n"),
            "d:",
            "jwk-private-key",
        ),
        (
            format!("[jwk]\nkty = \"EC\"\ncrv = \"P-256\"\nx = \"{x}\"\nd = \"{d}\"\n"),
            "d =",
            "jwk-private-key",
        ),
        (
            format!("jwk = {{ kty = \"EC\", x = \"{x}\", d = \"{d}\" }}\n"),
            "jwk",
            "jwk-private-key",
        ),
        (
            format!(
                "var Key = JWK{{\n\tKty: \"EC\",\n\tCrv: \"P-256\",\n\tX:   \"{x}\",\n\tD:   \"{d}\",\n}}\n"
            ),
            "D:",
            "jwk-private-key",
        ),
    ];
    check(&cases);
    quiet(&[
        format!("jwk:\n  kty: EC\n  crv: P-256\n  x: {x}\n  y: {x}\n"),
        "jwk:\n  kty: EC\n  d: \"<private exponent>\"\n".to_string(),
        // The `d` of the item before is not this key's.
        format!("keys:\n  - kty: EC\n    x: {x}\n  - d: {d}\n    note: not a key\n"),
        format!("[public]\nkty = \"EC\"\nx = \"{x}\"\n\n[other]\nd = \"{d}\"\n"),
    ]);
}

#[test]
fn round_thirteen_pem_with_html_breaks_is_found() {
    let label = ["RSA", "PRIVATE", "KEY"].join(" ");
    let body: Vec<String> = (0..6).map(|i| alnum(30 + i, 64)).collect();
    let html = format!(
        "<pre>-----BEGIN {label}-----<br>MIIEowIBAAKCAQEA{}<br>{}<br>-----END {label}-----</pre>\n",
        alnum(29, 48),
        body.join("<br>")
    );
    check(&[(html, "BEGIN", "private-key")]);
    quiet(&[format!(
        "<p>Paste it between -----BEGIN {label}-----<br> and the END line.</p>"
    )]);
}

#[test]
fn round_thirteen_password_hashes_in_their_other_shapes_are_found() {
    let cases = [
        (
            format!(
                "{{\"fields\": {{\"password\": \"pbkdf2_sha256$600000${}${}=\"}}}}\n",
                alnum(41, 22),
                alnum(42, 43)
            ),
            "pbkdf2",
            "password-hash",
        ),
        (
            format!(
                "H = '$pbkdf2-sha256$29000${}${}'\n",
                random(CRYPT, 43, 22),
                random(CRYPT, 44, 43)
            ),
            "H =",
            "password-hash",
        ),
        (
            format!(
                "H = '$scrypt$ln=16,r=8,p=1${}${}'\n",
                random(CRYPT, 45, 22),
                random(CRYPT, 46, 43)
            ),
            "H =",
            "password-hash",
        ),
        (
            format!(
                "H = '$argon2id$v=19$m=65536,t=3,p=4${}${}'\n",
                alnum(47, 22),
                alnum(48, 43)
            ),
            "H =",
            "password-hash",
        ),
        (
            format!(
                "dn: uid=bob,dc=ex\nuserPassword: {{SSHA}}{}\n",
                random(B64, 49, 32)
            ),
            "userPassword",
            "password-hash",
        ),
        (
            format!(
                "dn: uid=bob,dc=ex\nuserPassword:: {}\n",
                random(B64, 50, 40)
            ),
            "userPassword",
            "password-hash",
        ),
        (
            format!(
                "CREATE USER 'app'@'%' IDENTIFIED WITH mysql_native_password AS '*{}';\n",
                random(HEX, 51, 40)
            ),
            "CREATE",
            "mysql-password-hash",
        ),
        (
            format!(
                "Administrator:500:aad3b435b51404eeaad3b435b51404ee:{}:::\n",
                random(HEX, 52, 32).to_ascii_lowercase()
            ),
            "Administrator",
            "ntlm-hash",
        ),
        (
            format!(
                "H = \"$6$rounds=5000${}${}\"\n",
                random(CRYPT, 53, 16),
                random(CRYPT, 54, 86)
            ),
            "H =",
            "password-hash",
        ),
        (
            format!(
                "H = \"$6${}${}\"\n",
                random(CRYPT, 55, 16),
                random(CRYPT, 56, 86)
            ),
            "H =",
            "password-hash",
        ),
    ];
    check(&cases);
    quiet(
        &[
            "The hash looks like `$6$salt$hash`.",
            "Django stores pbkdf2_sha256$<iterations>$<salt>$<hash>.",
            "H = '$pbkdf2-sha256$29000$...$...'",
            "Guest:501:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0:::",
            "userPassword: {SSHA}",
            "x = re.sub(r'(a)(b)', r'$1$2', s)",
            "password: '*' * 40",
        ]
        .map(String::from),
    );
    // A salt that is a word is a test vector's (passlib's self-checks).
    quiet(&[
        format!(
            "_test_hash = (\"test\", \"$5$rounds=1000$test${}\")",
            random(CRYPT, 57, 43)
        ),
        format!(
            "encoded = \"pbkdf2_sha256$1000000$seasalt${}=\"",
            alnum(58, 43)
        ),
    ]);
}

/// A password hash in a project's tests or documents is a fixture or an
/// example (Django's documentation shows this one; its test suite checks
/// its hashers against such): the scan of the text finds it, the scan of
/// the project reports it only outside tests and documents.
#[test]
fn round_thirteen_a_password_hash_in_tests_or_docs_is_a_fixture() {
    let line = "    ADMIN_PASSWORD = 'pbkdf2_sha256$30000$Vo0VlMnkR4Bk$qEvtdyZRWTcOsCnI/oQ7fVOu1XAURIZYoOZ3iq8Dr4M='\n";
    assert_eq!(found(line), [(1, "password-hash".to_string())]);
    let dir = tempfile::tempdir().expect("tempdir");
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let scanner = Scanner::new(&codebase);
    let reported = |path: &str| {
        let file = RenderedFile {
            path: path.into(),
            mode: ViewMode::Full,
            text: line.into(),
            error: None,
            skipped: None,
            notes: Vec::new(),
            aggregate: true,
            key: String::new(),
            body_at: None,
        };
        scanner.file(&file).len()
    };
    assert_eq!(reported("docs/topics/auth/customizing.txt"), 0);
    assert_eq!(reported("tests/auth_tests/test_hashers.py"), 0);
    assert_eq!(reported("settings.py"), 1);
    assert_eq!(reported("app/fixtures/users.json"), 1);
    // Other secrets in tests are reported as anywhere.
    let ghp = format!("{}_{}", "ghp", alnum(61, 36));
    let token = RenderedFile {
        path: "tests/test_api.py".into(),
        mode: ViewMode::Full,
        text: format!("TOKEN = \"{ghp}\"\n").into(),
        error: None,
        skipped: None,
        notes: Vec::new(),
        aggregate: true,
        key: String::new(),
        body_at: None,
    };
    assert_eq!(scanner.file(&token).len(), 1);
}
