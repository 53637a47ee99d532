//! Round sixteen (b), a recheck's findings (RECHECK_trust15 F2, F4): the
//! base64 of a plain-text credential file (`.env`, `.npmrc`, `.pgpass`)
//! in a Kubernetes Secret, and unquoted config values of short groups
//! joined by `-`, `+` or `/` (`Tq8-Lw3-Zx5-Rb`). Each with its near
//! misses. The values are made here.

use super::base64;
use super::round_eleven::{alnum, check};
use super::{found, quiet};

/// A Kubernetes Secret holding `file` as `key`, as `kubectl create secret
/// generic --from-file` writes it.
fn secret(key: &str, file: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ndata:\n  {key}: {}\n",
        base64(file.as_bytes())
    )
}

#[test]
fn round_sixteen_b_base64_credential_files_are_found() {
    let pass = format!("Vb6{}", alnum(21, 13));
    let aws = alnum(22, 40);
    let npm = format!("npm_{}", alnum(23, 36));
    let ghp = format!("ghp_{}", alnum(24, 36));
    let auth = base64(format!("bob:{pass}").as_bytes());
    let files = [
        (
            ".env",
            format!("DB_PASSWORD={pass}\nAWS_SECRET_ACCESS_KEY={aws}\n"),
        ),
        (".env", format!("DB_HOST=db\nDB_PASSWORD={pass}\n")),
        (".npmrc", format!("//registry.npmjs.org/:_authToken={npm}")),
        ("config", format!("//registry.npmjs.org/:_authToken={ghp}")),
        (".pgpass", format!("db.example.com:5432:app:bob:{pass}")),
        (".npmrc", format!("_auth={auth}\nemail=a@b.c\n")),
    ];
    // The value's line is the one naming its key.
    let mut cases: Vec<(String, &str, &str)> = files
        .iter()
        .map(|(key, file)| (secret(key, file), *key, "base64-text"))
        .collect();
    // Wrapped at 76 columns under a block scalar, the secret past the
    // first line.
    let env = format!("{}DB_PASSWORD={pass}\n", "LOG_LEVEL=info\n".repeat(8));
    let b64 = base64(env.as_bytes());
    let wrapped: Vec<&str> = b64
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    cases.push((
        format!("data:\n  .env: |\n    {}\n", wrapped.join("\n    ")),
        &wrapped[0][..8],
        "base64-text",
    ));
    // Any base64 value that decodes to such a text, a quoted constant.
    cases.push((
        format!(
            "ENV_B64 = \"{}\"\n",
            base64(format!("DB_PASSWORD={pass}\n").as_bytes())
        ),
        "ENV_B64",
        "base64-text",
    ));
    check(&cases);
}

#[test]
fn round_sixteen_b_base64_of_plain_texts_stays_quiet() {
    let text = |s: &str| format!("data:\n  notes.txt: {}\n", base64(s.as_bytes()));
    let mut png = vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10];
    png.extend((0u8..200).map(|i| i.wrapping_mul(37)));
    quiet(&[
        text("LOG_LEVEL=info\nDB_HOST=db.example.com\nDB_PORT=5432\n"),
        text("DB_PASSWORD=${DB_PASSWORD}\nAPI_TOKEN=changeme\n"),
        text("The quick brown fox jumps over the lazy dog.\n"),
        // HTTP Basic's `user:password` of documentation.
        format!("Authorization: Basic {}\n", base64(b"user:password")),
        format!("icon: {}\n", base64(&png)),
        // A certificate's PEM is public.
        text("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n"),
    ]);
}

#[test]
fn round_sixteen_b_operator_joined_config_values_are_found() {
    let values = [
        "Tq8-Lw3-Zx5-Rb",
        "Xk9-mQ2/vLp+7",
        "Tq8-Lw3+Zx5/Rb",
        "a8-Kq2-Lm9-Zp4-Wx7",
    ];
    let mut cases = Vec::new();
    for v in values {
        for text in [
            format!("services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD={v}\n"),
            format!("services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: {v}\n"),
            format!("DB_PASSWORD={v}\n"),
            format!("export DB_PASSWORD={v}\n"),
            format!("spring.datasource.password={v}\n"),
            format!("db:\n  password: {v}\n"),
            format!("[db]\npassword = {v}\n"),
            format!("DB_PASSWORD={v}\r\n"),
        ] {
            cases.push((text, v, "secret-config-plain-value"));
        }
        // A Dockerfile, XML, a Kubernetes name/value pair (recheck 15b,
        // F4b): the structured-value rule reads them.
        for text in [
            format!("FROM alpine\nENV DB_PASSWORD={v}\n"),
            format!("FROM alpine\nARG DB_PASSWORD={v}\n"),
            format!("<config>\n  <password>{v}</password>\n</config>\n"),
        ] {
            cases.push((text, v, "secret-structured-value"));
        }
    }
    check(&cases);
    // A Kubernetes name/value pair: reported on the name's line.
    for v in values {
        let text = format!("env:\n  - name: DB_PASSWORD\n    value: {v}\n");
        assert_eq!(
            found(&text),
            [(2, "secret-structured-value".to_string())],
            "{text}"
        );
    }
}

#[test]
fn round_sixteen_b_code_expressions_stay_quiet() {
    quiet(&[
        // Code: spaces around the operators, a keyword argument indented,
        // a call.
        "password = a - b\n".to_string(),
        "def f():\n    token_a = tok1-tok2\n".to_string(),
        "conn = connect(\n    password=salt2+pepper3\n)\n".to_string(),
        "key = os.environ.get('KEY')\n".to_string(),
        // Numbers joined by operators, words, templates.
        "JWT_SECRET_TTL=60*60*24\n".to_string(),
        "DB_PASSWORD=${DB_PASS}-suffix\n".to_string(),
        "db:\n  password: not-a-real-one\n".to_string(),
        "SECRET_KEY=django-insecure-change-me\n".to_string(),
        "TOKEN_VERSION=1.2.3-4\n".to_string(),
        // A secret's settings named beside it (recheck 15b, F4c).
        "token.version=1.2.3-rc.1+build.5\n".to_string(),
        "password.hasher=argon2-v19+m65536\n".to_string(),
        "secret.mount=kv-v2/app-eu\n".to_string(),
        "vault:\n  secret_engine: kv-v2/app-eu\n".to_string(),
    ]);
}
