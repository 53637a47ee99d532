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
        ("services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Summer2024\n", 4),
        ("    environment:\n      - \"POSTGRES_PASSWORD=Welcome1!\"\n", 2),
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
        ("Makefile", "deploy: DB_PASSWORD := Tq8-Lw3-Zx5-Rb\n", 1, "make-target-value"),
        ("build/rules.mk", "all:\n\techo\n\ndeploy prod: export API_TOKEN ?= Xk9-mQ2/vLp+7\n", 4, "make-target-value"),
        ("GNUmakefile", "release: private DB_PASSWORD = a8-Kq2-Lm9-Zp4-Wx7\n", 1, "make-target-value"),
        ("app.ini", "[db]\n  password = Tq8-Lw3-Zx5-Rb\n", 2, "ini-indented-value"),
        ("setup.cfg", "[auth]\n\tapi_token = Xk9-mQ2/vLp+7\n", 2, "ini-indented-value"),
        ("etc/my.cnf", "[client]\n    password = a8-Kq2-Lm9-Zp4-Wx7\n", 2, "ini-indented-value"),
        ("conf/App.CONF", "[server]\n  secret_key = Tq8-Lw3-Zx5-Rb  ; set by ops\n", 2, "ini-indented-value"),
        ("db.properties", "db.user app\ndb.password Tq8-Lw3-Zx5-Rb\n", 2, "properties-blank-value"),
        ("app.properties", "  api.token    Xk9-mQ2/vLp+7\n", 1, "properties-blank-value"),
        ("config.yaml", "db:\n  password: correcthorsebatterystaple\n", 2, "yaml-word-password"),
        ("a.yml", "admin_pass: \"Correcthorsebatterystaple\"\n", 1, "yaml-word-password"),
        ("b.yaml", "- db_passwd: 'trombonemarshmallowkite'\n", 1, "yaml-word-password"),
    ] {
        let got = found_as(path, text);
        if got.len() != 1 || got[0].0 != line || got[0].1 != rule {
            missed.push(format!("{path}: {text:?} (want {rule} on line {line}): {got:?}"));
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
        ("app.ini", "[db]\n  password = ${DB_PASSWORD}\n  password_file = /etc/app/pass\n  token = %(token)s\n"),
        ("app.ini", "[db]\n  secret_key = changeme\n  api_key = <your key>\n  password =\n"),
        ("db.properties", "db.password ${db.password}\napi.token.file /etc/app/token\n"),
        ("Makefile", "deploy: SECRET_KEY := $(shell openssl rand -hex 32)\nclean: TOKEN_FILE := $(HOME)/.tok\n"),
        ("Makefile", "passwd.o: passwd.c secret2.h\n\t$(CC) -c passwd.c\n"),
        ("config.yaml", "password: notconfiguredyetplease\nsecret: kubernetesdefaultsecret\n"),
        ("config.yaml", "password: passwordplaceholder\nsecretName: letsencryptproduction\n"),
        ("config.yaml", "api_token: correcthorsebatterystaple\npassword: short\n"),
    ] {
        if !found_as(path, text).is_empty() {
            loud.push(format!("{path}: {text:?}: {:?}", found_as(path, text)));
        }
    }
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}
