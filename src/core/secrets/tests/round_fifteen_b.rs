//! Round fifteen (b), a recheck's findings (RECHECK_trust14 F3, F5, F8,
//! F9, F10): docker logins whose password is built of placeholder words,
//! plain and base64 (also twice); a PKCS#12 keystore in base64; a byte
//! order mark before a first-line assignment; Yarn 1's `.yarnrc`; YAML
//! block scalars; WordPress salts; a lowercase age key; a `.pgpass` line
//! written by `echo`; a Heroku key under `apiKey`; and a type annotation
//! that is no value. Each with its near misses. The values are made here.

use super::base64;
use super::quiet;
use super::round_eleven::{alnum, check, random};

const HEX: &str = "0123456789abcdef";

/// A docker config's `auths` holding `login` (a JSON object's members).
fn auths(login: &str) -> String {
    format!("{{\"auths\":{{\"reg.example.com\":{{{login}}}}}}}")
}

fn auth(user_password: &str) -> String {
    format!("\"auth\":\"{}\"", base64(user_password.as_bytes()))
}

#[test]
fn round_fifteen_b_docker_logins_are_found() {
    // A password of placeholder words, as a person makes one.
    let pass = "S3cr3tPassw0rd!x";
    let login = auth(&format!("bob:{pass}"));
    let secret_yaml = |json: &str, key: &str| {
        format!(
            "apiVersion: v1\nkind: Secret\ndata:\n  {key}: {}\n",
            base64(json.as_bytes())
        )
    };
    let cases = vec![
        (
            format!("{}\n", auths(&login)),
            "auth",
            "docker-config-login",
        ),
        (
            format!(
                "{{\n  \"auths\": {{\n    \"https://index.docker.io/v1/\": {{\n      {login}\n    }}\n  }}\n}}\n"
            ),
            "\"auth\"",
            "docker-config-login",
        ),
        (
            secret_yaml(&auths(&login), ".dockerconfigjson"),
            ".dockerconfigjson",
            "base64-credentials",
        ),
        (
            secret_yaml(
                &format!("{{\"reg.example.com\":{{{login},\"email\":\"a@b\"}}}}"),
                ".dockercfg",
            ),
            ".dockercfg",
            "base64-credentials",
        ),
        (
            secret_yaml(
                &auths(&format!("\"username\":\"bob\",\"password\":\"{pass}\"")),
                ".dockerconfigjson",
            ),
            ".dockerconfigjson",
            "base64-credentials",
        ),
        (
            format!(
                "{}\n",
                auths(&format!("\"username\":\"bob\",\"password\":\"{pass}\""))
            ),
            "password",
            "docker-config-login",
        ),
    ];
    check(&cases);
}

#[test]
fn round_fifteen_b_docker_placeholders_stay_quiet() {
    let mut texts: Vec<String> = [
        "user:password",
        "username:password",
        "admin:admin",
        "myuser:mypassword",
        "janedoe:xxxxxxxxxxx",
        "bob:P@ssw0rd1",
    ]
    .iter()
    .map(|login| auths(&auth(login)))
    .collect();
    texts.push(auths(
        "\"username\":\"janedoe\",\"password\":\"<your-password>\"",
    ));
    // `auth` outside an object named by a registry is the older rule's.
    texts.push(format!(
        "{{\"settings\":{{{}}}}}",
        auth("bob:S3cr3tPassw0rd!x")
    ));
    quiet(&texts);
}

/// A PKCS#12 file's DER: version 3, pkcs7-data, then `body`; `long` picks
/// the length form (`30 82`, `30 83`, or BER's indefinite `30 80`).
fn pkcs12(body: &[u8], form: u8) -> Vec<u8> {
    let oid = [
        0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01,
    ];
    let len = |n: usize| -> Vec<u8> {
        match form {
            0x82 => vec![0x82, (n >> 8) as u8, n as u8],
            0x83 => vec![0x83, (n >> 16) as u8, (n >> 8) as u8, n as u8],
            _ => vec![0x80],
        }
    };
    let mut content = vec![0xa0];
    content.extend(len(body.len()));
    content.extend_from_slice(body);
    let mut auth_safe = vec![0x30];
    auth_safe.extend(len(oid.len() + content.len()));
    auth_safe.extend_from_slice(&oid);
    auth_safe.extend(content);
    let mut inner = vec![0x02, 0x01, 0x03];
    inner.extend(auth_safe);
    let mut der = vec![0x30];
    der.extend(len(inner.len()));
    der.extend(inner);
    der
}

fn noise(seed: u64, n: usize) -> Vec<u8> {
    random(HEX, seed, n * 2)
        .as_bytes()
        .chunks(2)
        .map(|h| u8::from_str_radix(std::str::from_utf8(h).unwrap_or("00"), 16).unwrap_or(0))
        .collect()
}

#[test]
fn round_fifteen_b_a_pkcs12_keystore_in_base64_is_found() {
    let mut cases = Vec::new();
    for (seed, form, size) in [(1, 0x82, 2400), (2, 0x83, 70_000), (3, 0x80, 2400)] {
        let b64 = base64(&pkcs12(&noise(seed, size), form));
        cases.push((
            format!("apiVersion: v1\nkind: Secret\ndata:\n  keystore.p12: {b64}\n"),
            "keystore",
            "base64-pkcs12",
        ));
    }
    // Wrapped at 76 columns under a block scalar.
    let b64 = base64(&pkcs12(&noise(4, 2400), 0x82));
    let wrapped: Vec<&str> = b64
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    cases.push((
        format!("data:\n  keystore.p12: |\n    {}\n", wrapped.join("\n    ")),
        "MI",
        "base64-pkcs12",
    ));
    check(&cases);
}

#[test]
fn round_fifteen_b_other_der_in_base64_stays_quiet() {
    // A certificate (SEQUENCE, SEQUENCE, [0] version) and PKCS#7
    // signed data (a CA bundle) are public.
    let mut cert = vec![0x30, 0x82, 0x09, 0x00, 0x30, 0x82, 0x08, 0x00];
    cert.extend([0xa0, 0x03, 0x02, 0x01, 0x02]);
    cert.extend(noise(5, 2300));
    let mut p7 = vec![0x30, 0x82, 0x09, 0x00, 0x06, 0x09];
    p7.extend([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]);
    p7.extend(noise(6, 2300));
    quiet(&[
        format!("data:\n  ca.crt: {}\n", base64(&cert)),
        format!("data:\n  bundle.p7b: {}\n", base64(&p7)),
    ]);
}

#[test]
fn round_fifteen_b_config_values_are_found() {
    let pass = format!("Vb6{}", alnum(7, 13));
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        random(HEX, 8, 8),
        random(HEX, 9, 4),
        random(HEX, 10, 3),
        random(HEX, 11, 3),
        random(HEX, 12, 12)
    );
    let salt = "k]9{Lq|2Vw#8Zr!4Xp@6Mn^0";
    let cases = vec![
        (
            format!("\u{feff}DB_PASSWORD={pass}\n"),
            "DB_",
            "secret-config-value",
        ),
        (
            format!("\u{feff}password: {pass}\nuser: app\n"),
            "password",
            "secret-config-value",
        ),
        (
            format!("\"//reg.example.com/:_authToken\" \"{uuid}\"\n"),
            "_auth",
            "yarnrc-auth",
        ),
        (
            format!("registry \"https://reg.example.com\"\n\"_authToken\" {uuid}\n"),
            "_auth",
            "yarnrc-auth",
        ),
        (
            format!(
                "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: >-\n        {pass}\n"
            ),
            "POSTGRES",
            "yaml-block-password",
        ),
        (
            format!("a: 1\nsecret:\n  password: |\n    {pass}\n"),
            "password",
            "yaml-block-password",
        ),
        (
            format!("password:\n  {pass}\n"),
            "password",
            "yaml-block-password",
        ),
        (
            format!("<?php\ndefine('SECURE_AUTH_SALT', '{salt}');\n"),
            "SALT",
            "wordpress-salt",
        ),
        (
            format!("define( \"NONCE_SALT\",  \"{salt}\" );\n"),
            "SALT",
            "wordpress-salt",
        ),
    ];
    check(&cases);
}

#[test]
fn round_fifteen_b_config_near_misses_stay_quiet() {
    quiet(
        &[
            "\u{feff}# settings\nname: app\n",
            "password:\n  str\n",
            "password: |\n  The password to use, with 8 characters\n",
            "    password:\n        Optional[str]\n",
            "token:\n    os.environ.get('TOKEN')\n",
            "password:\n  ${DB_PASSWORD}\n",
            "password:\n  host2:\n    a: 1\n",
            "secret:\n  ./scripts/make_secret2.sh\n",
            "password:\n  - one\n  - two\n",
            "password: >-\n  {{ vault_db_password }}\n",
            "define('AUTH_SALT', 'put your unique phrase here');\n",
            "define('AUTH_SALT', getenv('AUTH_SALT'));\n",
            "\"//reg.example.com/:_authToken\" \"${NPM_TOKEN}\"\n",
        ]
        .map(String::from),
    );
}

#[test]
fn round_fifteen_b_other_spellings_are_found() {
    const BECH32: &str = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    let pass = format!("Vb6{}", alnum(13, 13));
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        random(HEX, 14, 8),
        random(HEX, 15, 4),
        random(HEX, 16, 3),
        random(HEX, 17, 3),
        random(HEX, 18, 12)
    );
    let cases = vec![
        (
            format!("age = \"age-secret-key-1{}\"\n", random(BECH32, 19, 58)),
            "age",
            "age-secret-key-lower",
        ),
        (
            format!("echo \"*:*:*:postgres:{pass}\" > ~/.pgpass\n"),
            "pgpass",
            "pgpass-echo",
        ),
        (
            format!("printf 'db.internal:5432:app:app:{pass}\\n' >> \"$HOME/.pgpass\"\n"),
            "pgpass",
            "pgpass-echo",
        ),
        (
            format!("{{\"heroku\":{{\"apiKey\":\"{uuid}\"}}}}\n"),
            "heroku",
            "heroku-key-member",
        ),
        (
            format!("{{\n  \"heroku\": {{\n    \"apiKey\": \"{uuid}\"\n  }}\n}}\n"),
            "heroku",
            "heroku-key-member",
        ),
    ];
    check(&cases);
}

#[test]
fn round_fifteen_b_other_spellings_near_misses_stay_quiet() {
    // A made-up key (counting up, as the recheck's) not under Heroku; a
    // UUID under another name.
    let made_up = "01234567-89ab-cdef-0123-456789abcded";
    let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    quiet(&[
        format!("{{\"stripe\":{{\"apiKey\":\"{made_up}\"}}}}\n"),
        format!("{{\"heroku\":{{\"requestId\":\"{uuid}\"}}}}\n"),
        "echo \"*:*:*:postgres:$PGPASS\" > ~/.pgpass\n".to_string(),
        "echo \"localhost:5432:db:user:password\" > ~/.pgpass\n".to_string(),
        "# see age-secret-key-1 in the docs\n".to_string(),
    ]);
}

#[test]
fn round_fifteen_b_a_type_annotation_is_no_value() {
    quiet(&[
        "class K:\n    def encode_private(\n        self, private_key: ed25519.Ed25519PrivateKey, f_priv: _FragList\n    ) -> None:\n        pass\n".to_string(),
        "def f(self, private_key: rsa.RSAPrivateKey, password: bytes) -> None:\n".to_string(),
    ]);
    // A value in a flow mapping with a dot is still one.
    let value = format!("abc1.X{}", alnum(20, 15));
    check(&[(
        format!("x = {{password: {value}, a: 1}}\n"),
        "password",
        "secret-structured-value",
    )]);
}
