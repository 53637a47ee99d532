//! Round eighteen of the secret shapes: passwords people choose (a word,
//! then digits or symbols: `Summer2024`, `Welcome1!`) under a password's
//! name on config and assignment lines, with the placeholders that look
//! alike left quiet. The values are made here.

use super::{found, quiet};

/// Item 1: a word and digits or symbols under a name that says password,
/// passwd, pwd, pass or secret, quoted or opening a config line.
#[test]
fn round_eighteen_human_chosen_passwords_are_found() {
    let mut missed = Vec::new();
    for (text, line) in [
        ("DB_PASSWORD=Summer2024\n", 1),
        ("password: P@ssw0rd2024\n", 1),
        ("PASSWORD=\"Welcome1!\"\n", 1),
        ("admin_pass = Winter2023!\n", 1),
        ("database:\n  host: db\n  password: Summer2024\n", 3),
        ("DB_PASSWORD = \"Summer2024\"\n", 1),
        ("PASSWORD = 'Welcome1!'\n", 1),
        ("{\n  \"password\": \"Welcome1!\"\n}\n", 2),
        ("const dbPassword = \"Summer2024\";\n", 1),
        (
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Summer2024\n",
            4,
        ),
        (
            "    environment:\n      - \"POSTGRES_PASSWORD=Welcome1!\"\n",
            2,
        ),
        ("DB_PASSWORD := Summer2024\n", 1),
        ("db.password=Summer2024\n", 1),
        ("db.password:Summer2024\n", 1),
        ("export DB_PASS=Spring2025!\n", 1),
        ("client_secret: Autumn2022#\n", 1),
        ("SECRET=\"Monday123\"\n", 1),
        ("[db]\nuser = app\npassword = Welcome1!\n", 3),
        ("    conn = connect(host, password=\"Summer2024\")\n", 1),
        ("mysql_pwd: Bluebird77\n", 1),
    ] {
        let got = found(text);
        if got.len() != 1 || got[0].0 != line {
            missed.push(format!("{text:?} (want line {line}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 1's near misses: placeholders, variables, format strings, types,
/// calls, code's names, names that are not a password's.
#[test]
fn round_eighteen_human_password_near_misses_stay_quiet() {
    quiet(
        &[
            "password=changeme\n",
            "password: password\n",
            "PASSWORD=example123\n",
            "password: <password>\n",
            "DB_PASSWORD=${DB_PASSWORD}\n",
            "password = \"%(password)s\"\n",
            "password: xxx\n",
            "password = \"your_password_here\"\n",
            "password = None\n",
            "password: True\n",
            "password: str\n",
            "password = getpass.getpass()\n",
            "password = \"Password123\"\n",
            "password: \"P@ssw0rd\"\n",
            "PASSWORD=Passw0rd!\n",
            "admin_pass = admin123\n",
            "password: changeme2024\n",
            "password = \"secret123\"\n",
            "password: Test1234\n",
            "password: hunter22\n",
            "secret = \"mysecret1\"\n",
            "token = \"Summer2024\"\n",
            "api_key: Summer2024\n",
            "if password == \"Summer2024\":\n",
            "    conn = connect(password=password1)\n",
            "    password = password2\n",
            "secret_name: Summer2024\n",
            "password_hash_algorithm: SHA256\n",
            "PASSWORD_MIN_LENGTH = 8\n",
            "vault_password_file: vault2.txt\n",
            "pwd: /home/user2\n",
            "secret: v1beta1\n",
            "keystore_pass = \"changeit\"\n",
            "password = \"YourPass123\"\n",
            "User.objects.filter(password__startswith=\"bcrypt$$\")\n",
            "    password1_field_name=\"password1\",\n",
            "SECRET_KEY = \"Summer2024\"\n",
        ]
        .map(String::from),
    );
}

/// The rules' findings in `text` as the text of the file at `path`.
fn found_as(path: &str, text: &str) -> Vec<(usize, String)> {
    crate::core::secret_scan::scan_file(text, path)
        .into_iter()
        .map(|h| (h.line, h.rule.to_string()))
        .collect()
}

/// Item 2: values that only a file's kind says are config: an indented
/// INI value, a `.properties` value after a blank, a Make target's
/// variable, a YAML password without a digit.
#[test]
fn round_eighteen_values_in_config_files_by_kind_are_found() {
    let mut missed = Vec::new();
    for (path, text, line, rule) in [
        (
            "Makefile",
            "deploy: DB_PASSWORD := Tq8-Lw3-Zx5-Rb\n",
            1,
            "make-target-value",
        ),
        (
            "build/rules.mk",
            "all:\n\techo\n\ndeploy prod: export API_TOKEN ?= Xk9-mQ2/vLp+7\n",
            4,
            "make-target-value",
        ),
        (
            "GNUmakefile",
            "release: private DB_PASSWORD = a8-Kq2-Lm9-Zp4-Wx7\n",
            1,
            "make-target-value",
        ),
        (
            "app.ini",
            "[db]\n  password = Tq8-Lw3-Zx5-Rb\n",
            2,
            "ini-indented-value",
        ),
        (
            "setup.cfg",
            "[auth]\n\tapi_token = Xk9-mQ2/vLp+7\n",
            2,
            "ini-indented-value",
        ),
        (
            "etc/my.cnf",
            "[client]\n    password = a8-Kq2-Lm9-Zp4-Wx7\n",
            2,
            "ini-indented-value",
        ),
        (
            "conf/App.CONF",
            "[server]\n  secret_key = Tq8-Lw3-Zx5-Rb  ; set by ops\n",
            2,
            "ini-indented-value",
        ),
        (
            "db.properties",
            "db.user app\ndb.password Tq8-Lw3-Zx5-Rb\n",
            2,
            "properties-blank-value",
        ),
        (
            "app.properties",
            "  api.token    Xk9-mQ2/vLp+7\n",
            1,
            "properties-blank-value",
        ),
        (
            "config.yaml",
            "db:\n  password: correcthorsebatterystaple\n",
            2,
            "yaml-word-password",
        ),
        (
            "a.yml",
            "admin_pass: \"Correcthorsebatterystaple\"\n",
            1,
            "yaml-word-password",
        ),
        (
            "b.yaml",
            "- db_passwd: 'trombonemarshmallowkite'\n",
            1,
            "yaml-word-password",
        ),
        (
            "app.ini",
            "[db]\n  password = Summer2024\n",
            2,
            "human-password-ini",
        ),
        (
            "my.cnf",
            "[client]\n\tpassword = Welcome1!  ; ops\n",
            2,
            "human-password-ini",
        ),
    ] {
        let got = found_as(path, text);
        if got.len() != 1 || got[0].0 != line || got[0].1 != rule {
            missed.push(format!(
                "{path}: {text:?} (want {rule} on line {line}): {got:?}"
            ));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 2's near misses: the same lines in code or in no file, and lines
/// of the right kind of file that hold no value.
#[test]
fn round_eighteen_values_by_kind_stay_quiet_elsewhere() {
    let mut loud = Vec::new();
    let lines = [
        "deploy: DB_PASSWORD := Tq8-Lw3-Zx5-Rb\n",
        "[db]\n  password = Tq8-Lw3-Zx5-Rb\n",
        "db.password Tq8-Lw3-Zx5-Rb\n",
        "[db]\n  password = Summer2024\n",
        "db:\n  password: correcthorsebatterystaple\n",
    ];
    for text in lines {
        for path in ["app.py", "main.js", "notes.txt", "Makefile.py"] {
            if !found_as(path, text).is_empty() {
                loud.push(format!("{path}: {text:?}"));
            }
        }
        if !super::found(text).is_empty() {
            loud.push(format!("(no file): {text:?}"));
        }
    }
    for (path, text) in [
        (
            "app.ini",
            "[db]\n  password = ${DB_PASSWORD}\n  password_file = /etc/app/pass\n  token = %(token)s\n",
        ),
        (
            "app.ini",
            "[db]\n  secret_key = changeme\n  api_key = <your key>\n  password =\n",
        ),
        (
            "app.ini",
            "[db]\n  password = Password123\n  password = changeme2024\n  token = Summer2024\n",
        ),
        (
            "db.properties",
            "db.password ${db.password}\napi.token.file /etc/app/token\n",
        ),
        (
            "Makefile",
            "deploy: SECRET_KEY := $(shell openssl rand -hex 32)\nclean: TOKEN_FILE := $(HOME)/.tok\n",
        ),
        (
            "Makefile",
            "passwd.o: passwd.c secret2.h\n\t$(CC) -c passwd.c\n",
        ),
        (
            "config.yaml",
            "password: notconfiguredyetplease\nsecret: kubernetesdefaultsecret\n",
        ),
        (
            "config.yaml",
            "password: passwordplaceholder\nsecretName: letsencryptproduction\n",
        ),
        (
            "config.yaml",
            "api_token: correcthorsebatterystaple\npassword: short\n",
        ),
    ] {
        if !found_as(path, text).is_empty() {
            loud.push(format!("{path}: {text:?}: {:?}", found_as(path, text)));
        }
    }
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

/// Bytes from their hex digits (a made-up stream written here).
pub(super) fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

/// `bytes` in base64 as a Kubernetes Secret's value, on line 2.
pub(super) fn secret_yaml(bytes: &[u8]) -> String {
    format!("data:\n  blob: {}\n", super::base64(bytes))
}

/// bzip2 of `LOG_LEVEL=info` and a `DB_PASSWORD=…` line (Python's `bz2`).
const BZIP2_ENV: &str = "425a683931415926535959624064000008cf80001029423684f990912b8240200031400000000c31a993264c8d3351fa9a0c4c1de54f1557d8bda9902f9986dffe0d56403a7b4482251322ee48a70a120b2c480c80";
/// bzip2 of `LOG_LEVEL=info` and `NOTE=hello world`: no secret.
const BZIP2_CLEAN: &str = "425a6839314159265359203058c4000005df80001040000002028585008765908020003140d34323262111a640c83108e076ca0a12dc094cd5bafc0863881f3fbe2ee48a70a1204060b188";
/// xz of the same `.env` as `BZIP2_ENV` (Python's `lzma`).
const XZ_ENV: &str = "fd377a585a000004e6d6b4460200210116000000742fe5a301002a4c4f475f4c4556454c3d696e666f0a44425f50415353574f52443d5662366e5131785a386b4c6d3357750a000051cb3abd800777280001432bad506e571fb6f37d010000000004595a";

/// Item 3: bzip2, xz and zstd streams in base64 are never passed unread
/// (round twenty reads bzip2 and zstd: a `.env` in bzip2 is found, one
/// without a secret is quiet, a zstd frame cut short is unchecked; xz is
/// still refused); a Bouncy Castle keystore with a key entry (BKS, or
/// UBER) is a key, in base64 or in a zip.
#[test]
fn round_eighteen_compressed_streams_and_bks_keystores_are_refused() {
    use crate::core::secret_scan::{test_bks, test_zip};
    let zstd = [&[0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x2c, 0x61][..], &[0x41; 40]].concat();
    let key_store = test_bks(&[(1, "ca"), (2, "server")]);
    let mut uber = test_bks(&[(1, "ca")])[..32].to_vec();
    uber.extend((0u8..60).map(|i| i.wrapping_mul(151) ^ 0xa5));
    let mut wrong = Vec::new();
    for (text, rule) in [
        (secret_yaml(&unhex(BZIP2_ENV)), "base64-compressed"),
        (secret_yaml(&unhex(XZ_ENV)), "unchecked-encoded"),
        (secret_yaml(&zstd), "unchecked-encoded"),
        (secret_yaml(&key_store), "base64-bks-keystore"),
        (secret_yaml(&uber), "base64-bks-keystore"),
        (
            secret_yaml(&test_zip(&[
                ("README", b"notes\n", false),
                ("res/raw/app.bks", &key_store, false),
            ])),
            "base64-credentials",
        ),
        (
            secret_yaml(&test_zip(&[("res/raw/app.bks", &key_store, true)])),
            "base64-credentials",
        ),
    ] {
        let got = found(&text);
        if got.len() != 1 || got[0] != (2, rule.to_string()) {
            wrong.push(format!("{text:?} (want {rule}): {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    quiet(&[secret_yaml(&unhex(BZIP2_CLEAN))]);
}

/// Item 3's near misses: a BKS truststore (certificates alone), in base64
/// or in a zip; base64 opening as a BKS header would but holding none.
#[test]
fn round_eighteen_bks_truststores_stay_quiet() {
    use crate::core::secret_scan::{test_bks, test_zip};
    let trust = test_bks(&[(1, "ca"), (1, "intermediate")]);
    let mut not_bks = trust.clone();
    not_bks[8 + 20..12 + 20].copy_from_slice(&9u32.to_be_bytes());
    quiet(&[
        secret_yaml(&trust),
        secret_yaml(&test_zip(&[("res/raw/trust.bks", &trust, true)])),
        secret_yaml(&not_bks),
    ]);
}

/// Item 4: base64 three times over (a `.env` encoded by three tools in
/// turn) is read; four times is not (the bound), nor is harmless text
/// three times over reported.
#[test]
fn round_eighteen_base64_three_times_is_read() {
    use super::base64;
    let env = "LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let thrice = base64(base64(base64(env.as_bytes()).as_bytes()).as_bytes());
    let hits = crate::core::secret_scan::scan(&format!("data:\n  env: {thrice}\n"));
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].line, 2);
    assert!(hits[0].kind.ends_with("(base64 three times)"), "{hits:?}");
    let four = base64(thrice.as_bytes());
    let harmless =
        base64(base64(base64(b"LOG_LEVEL=info\nNOTE=hello world\n").as_bytes()).as_bytes());
    quiet(&[
        format!("data:\n  env: {four}\n"),
        format!("data:\n  env: {harmless}\n"),
    ]);
}

/// Item 4: names bound by a tuple of literals written over lines, then
/// joined, are read joined; the same of harmless words is not.
#[test]
fn round_eighteen_tuples_over_lines_are_read() {
    let (a, b) = ("ghp_Vb6nQ1xZ8kLm3W", "uR4tY7pA2sD5fG8hJ0kL1z");
    let mut wrong = Vec::new();
    for (text, line) in [
        (
            format!("a, b = (\n    \"{a}\",\n    \"{b}\",\n)\ntoken = a + b\n"),
            5,
        ),
        (
            format!("a, b = (\n    \"{a}\",\n    \"{b}\"\n)\ntoken = f\"{{a}}{{b}}\"\n"),
            5,
        ),
        (
            format!(
                "const [a, b] = [\n  \"{a}\",\n  \"{b}\",\n];\nconst token = `${{a}}${{b}}`;\n"
            ),
            5,
        ),
        (
            "k1, k2 = (\n    \"AKIAZ7QW3ERT\",\n    \"YU5IOPLK\",\n)\nkey_id = k1 + k2\n"
                .to_string(),
            5,
        ),
    ] {
        let got = found(&text);
        if got.len() != 1 || got[0].0 != line {
            wrong.push(format!("{text:?} (want line {line}): {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    quiet(&[
        "a, b = (\n    \"abc\",\n    \"def\",\n)\nx = a + b\n".to_string(),
        format!("a, b = (\n    \"{a}\",\n    {b},\n)\ntoken = a + b\n"),
        format!(
            "a, b = (\n    \"{a}\",\n{}    \"{b}\",\n)\ntoken = a + b\n",
            "    None,\n".repeat(40)
        ),
    ]);
}

/// Item 4: a dict or object of parts joined by its values is read joined
/// (found where the dict is written); a dict of words is not.
#[test]
fn round_eighteen_dicts_joined_by_their_values_are_read() {
    let (a, b) = ("ghp_Vb6nQ1xZ8kLm3W", "uR4tY7pA2sD5fG8hJ0kL1z");
    let mut wrong = Vec::new();
    for (text, line) in [
        (
            format!(
                "parts = {{\"a\": \"{a}\", \"b\": \"{b}\"}}\ntoken = \"\".join(parts.values())\n"
            ),
            1,
        ),
        (
            format!(
                "parts = {{\n    \"a\": \"{a}\",\n    \"b\": \"{b}\",\n}}\ntoken = \"\".join(parts.values())\n"
            ),
            2,
        ),
        (
            format!(
                "const parts = {{ a: '{a}', b: '{b}' }};\nconst token = Object.values(parts).join('');\n"
            ),
            1,
        ),
        (
            "k = {'x': 'AKIAZ7QW3ERT', 'y': 'YU5IOPLK'}\nkey_id = ''.join(k.values())\n"
                .to_string(),
            1,
        ),
    ] {
        let got = found(&text);
        if got.len() != 1 || got[0].0 != line {
            wrong.push(format!("{text:?} (want line {line}): {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    quiet(&[
        "parts = {\"a\": \"abc\", \"b\": \"def\"}\nx = \"\".join(parts.values())\n".to_string(),
        format!("parts = {{\"a\": \"{a}\", \"b\": \"{b}\"}}\nprint(parts)\n"),
        format!(
            "parts = {{\"a\": \"{a}\", \"b\": \"{b}\"}}\nfor v in parts.values():\n    use(v)\n"
        ),
    ]);
}
