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
