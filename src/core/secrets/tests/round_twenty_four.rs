//! Round 24 of the secret shapes (recheck 23's residuals): values spelled
//! in escapes (`\uXXXX`, `\xXX`, a run of `%XX`, YAML's `''`), raw and
//! verbatim string literals, a value decoded where it is assigned (base64
//! or hex), hex bytes apart, a Kubernetes pair with its value first, a
//! JSON array of keys, a Gmail login over lines, a password written to a
//! file, base64 of `user:password` under a credentials name, a shell's
//! `"$A$B"`, an SQL row's password, a YAML value of one name after `/`,
//! a flow map's value below its key; and keys with no name on their line
//! (`--secret`, a key below `secret:`, Tweepy's arguments, a Solana
//! keypair file).

use super::quiet;
use super::round_twenty_two::each_found;

#[test]
fn round_twenty_four_values_spelled_in_escapes_are_read() {
    each_found(&[
        (
            "json unicode escapes",
            "{\"password\": \"\\u0056\\u0062\\u0036nQ1xZ8kLm3Wu\"}\n",
        ),
        (
            "properties unicode escapes",
            "db.password=\\u0056\\u0062\\u0036\\u006eQ1xZ8kLm3Wu\n",
        ),
        (
            "hex escapes",
            "DB_PASSWORD = \"\\x56\\x62\\x36nQ1xZ8kLm3Wu\"\n",
        ),
        (
            "url password in percent escapes",
            "DATABASE_URL = 'postgresql://app:%56%62%36%6E%51%31xZ8kLm3Wu@db:5432/app'\n",
        ),
        (
            "yaml doubled quote",
            "db:\n  password: 'Vb6nQ1''xZ8kLm3Wu'\n",
        ),
        (
            "rust raw string",
            "const PASSWORD: &str = r#\"Vb6nQ1xZ8kLm3Wu\"#;\n",
        ),
        ("swift raw string", "let password = #\"Vb6nQ1xZ8kLm3Wu\"#\n"),
        (
            "c# verbatim below",
            "var password = @\"\nVb6nQ1xZ8kLm3Wu\";\n",
        ),
        ("c# verbatim", "var password = @\"Vb6nQ1xZ8kLm3Wu\";\n"),
    ]);
    quiet(&[
        "{\"password\": \"\\u0024{DB_PASSWORD}\"}\n".into(),
        "s = \"\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\"\n".into(),
        "fmt = '%4d%4d%4d%4d'\nprefix_token = 'a%20b'\n".into(),
        "msg = 'it''s the password'\n".into(),
        "var password = @\"\n${DB_PASSWORD}\";\n".into(),
    ]);
}

#[test]
fn round_twenty_four_values_decoded_where_they_are_assigned_are_read() {
    each_found(&[
        (
            "b64decode",
            "DB_PASSWORD = base64.b64decode('VmI2blExeFo4a0xtM1d1').decode()\n",
        ),
        (
            "fromhex",
            "DB_PASSWORD = bytes.fromhex('5662366e5131785a386b4c6d335775').decode()\n",
        ),
        ("atob", "const apiToken = atob('VmI2blExeFo4a0xtM1d1');\n"),
        (
            "Buffer.from",
            "const secret = Buffer.from('VmI2blExeFo4a0xtM1d1', 'base64').toString();\n",
        ),
        (
            "base64 user:pass",
            "const CREDS = 'YWRtaW46VmI2blExeFo4a0xtM1d1';\n",
        ),
        (
            "hex bytes apart",
            "44 42 5f 50 41 53 53 3d 56 62 36 6e 51 31 78 5a 38 6b 4c 6d 33 57 75 0a\n",
        ),
    ]);
    quiet(&[
        // What decodes to a placeholder, a template or bytes is no value.
        "DB_PASSWORD = base64.b64decode('Y2hhbmdlbWU=').decode()\n".into(),
        "TOKEN = base64.b64decode('AAECAwQFBgcICQoLDA0ODw==')\n".into(),
        "const CREDS = 'Ym9iOiR7UkVHSVNUUllfUEFTU1dPUkR9';\n".into(),
        "const AUTH_HEADER_NAME = 'QXV0aG9yaXphdGlvbg==';\n".into(),
        // Numbers in a table are no hex text holding a secret.
        "20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41\n".into(),
    ]);
}

#[test]
fn round_twenty_four_values_set_apart_from_their_names_are_read() {
    each_found(&[
        (
            "k8s value before name",
            "  env:\n    - value: \"Vb6nQ1xZ8kLm3Wu\"\n      name: POSTGRES_PASSWORD\n",
        ),
        (
            "ecs value before name",
            "{\"value\": \"Vb6nQ1xZ8kLm3Wu\", \"name\": \"API_TOKEN\"}\n",
        ),
        (
            "json array of keys",
            "{\n  \"apiKeys\": [\n    \"Vb6nQ1xZ8kLm3WuTq8Rz5Yc2\",\n    \"x\"\n  ]\n}\n",
        ),
        (
            "nodemailer",
            "auth: {\n    user: 'me@gmail.com',\n    pass: 'tyfvejexfntiionr',\n}\n",
        ),
        (
            "heredoc to a password file",
            "cat > /etc/app/db_password <<'EOF'\nVb6nQ1xZ8kLm3Wu\nEOF\n",
        ),
        (
            "echo to a token file",
            "echo 'Vb6nQ1xZ8kLm3Wu' > /run/secrets/api_token\n",
        ),
        (
            "shell variables joined",
            "P1='Vb6nQ1xZ'\nP2='8kLm3Wu'\nexport DB_PASSWORD=\"$P1${P2}\"\n",
        ),
        (
            "sql insert",
            "INSERT INTO users (email, password) VALUES ('a@acme.com', 'Vb6nQ1xZ8kLm3Wu');\n",
        ),
        (
            "yaml value after a slash",
            "db:\n  password: /Vb6nQ1xZ8kLm3Wu\n",
        ),
        (
            "flow map value below its key",
            "db: { user: app, password:\n      Vb6nQ1xZ8kLm3Wu }\n",
        ),
    ]);
    quiet(&[
        "  env:\n    - value: \"$(DB_PASSWORD)\"\n      name: POSTGRES_PASSWORD\n".into(),
        "  - value: production\n    name: NODE_ENV\n".into(),
        "{\n  \"apiKeys\": [\n    \"${API_KEY}\"\n  ]\n}\n".into(),
        "cat > /etc/app/db_password <<'EOF'\n$DB_PASSWORD\nEOF\n".into(),
        "echo \"$DB_PASSWORD\" > /run/secrets/db_password\n".into(),
        "echo 'db password set' > /tmp/password.log\n".into(),
        "P1='ab'\nexport DB_PASSWORD=\"$P1$HOME\"\n".into(),
        "INSERT INTO users (email, password_hash) VALUES ('a@acme.com', 'Vb6nQ1xZ8kLm3Wu');\n"
            .into(),
        "INSERT INTO users (email, password) VALUES ('a@acme.com', crypt('x', gen_salt('bf')));\n"
            .into(),
        "db:\n  password: /run/secrets/db_password\n  secret: /secrets\n".into(),
        "db: { user: app, password:\n      ${DB_PASSWORD} }\n".into(),
        "const o = {\n  password:\n    process.env.DB_PASSWORD,\n};\n".into(),
    ]);
}

#[test]
fn round_twenty_four_keys_without_a_name_on_their_line_are_read() {
    let keypair: Vec<String> = (0..64).map(|i| ((i * 37 + 11) % 256).to_string()).collect();
    each_found::<String>(&[
        (
            "serverless --secret",
            "serverless config credentials --provider aws --key $KEY --secret ifqCWFXLThD+cYG6EBJiDMY4D9kgPxSeynXaWHfH\n".into(),
        ),
        (
            "aws secret below its name",
            "prod s3 uploader secret:\nHuLOKpXhvv5EO84jg2W2j3AJGdJ4DshvrGzPqmJF\n".into(),
        ),
        (
            "tweepy",
            "auth = tweepy.OAuthHandler('Liy7xqFTUFJNDflpwGkH6HRbP', '37MvfsWwh7dC8WKUrozWkG45CttPO6sV1GD0cVIoyYeqcz1oa3')\n".into(),
        ),
        ("solana keypair", format!("[{}]\n", keypair.join(","))),
    ]);
    quiet(&[
        "docker build --secret id=npmrc,src=$HOME/.npmrc .\n".into(),
        "gh secret set --secret DEPLOY_TOKEN_VALUE\n".into(),
        "the commit secret:\nd670460b4b4aece5915caf5c68d12f560a9fe3e4\n".into(),
        "const client = algoliasearch('EINNB48QCH', '0444bd860bf89f15cfb5b7a070b160a4');\n".into(),
        format!("const key = [{}];\n", keypair.join(",")),
        format!("[{}]\n", keypair[..32].join(",")),
    ]);
}

/// A short random password (8 to 11 characters) cannot reach the 3 bits of
/// entropy a longer one must: one that mixes capitals, small letters and
/// digits, changing between them often, needs half a bit under its
/// length's bound.
#[test]
fn round_twenty_four_short_random_passwords_are_found() {
    each_found(&[
        ("yaml, one repeat", "db:\n  password: 1Dt1y5ny\n"),
        ("dotenv", "DB_PASSWORD=k3Rx9mQk\n"),
        ("code", "password = \"aB3dE5gB3\"\n"),
    ]);
    quiet(&[
        "token = \"Summer2024\"\n".into(),
        "api_key: Release2024\n".into(),
        "password = \"aaaaBBBB1111\"\n".into(),
    ]);
}

/// An attack on round 24's rules (recheck 24): the variants a user would
/// expect caught, and the innocent files they first refused.
#[test]
fn round_twenty_four_recheck_variants_are_found_and_near_misses_stay_quiet() {
    each_found(&[
        (
            "java new String",
            "String DB_PASSWORD = new String(Base64.getDecoder().decode(\"VmI2blExeFo4a0xtM1d1\"));\n",
        ),
        (
            "go two results",
            "dbPassword, _ := base64.StdEncoding.DecodeString(\"VmI2blExeFo4a0xtM1d1\")\n",
        ),
        (
            "c# GetString",
            "var dbPassword = Encoding.UTF8.GetString(Convert.FromBase64String(\"VmI2blExeFo4a0xtM1d1\"));\n",
        ),
        (
            "codecs hex",
            "DB_PASSWORD = codecs.decode('5662366e5131785a386b4c6d335775', 'hex').decode()\n",
        ),
        (
            "sqlite insert or replace",
            "INSERT OR REPLACE INTO users (email, password) VALUES ('a@acme.com', 'Vb6nQ1xZ8kLm3Wu');\n",
        ),
        (
            "oauth1",
            "auth = OAuth1('Liy7xqFTUFJNDflpwGkH6', '37MvfsWwh7dC8WKUrozWkG45CttPO6sV1')\n",
        ),
        (
            "tee to /dev/null",
            "echo 'Vb6nQ1xZ8kLm3Wu' | sudo tee /etc/app/db_password > /dev/null\n",
        ),
        (
            "heredoc, sudo tee",
            "sudo tee /etc/app/db_password > /dev/null <<'EOF'\nVb6nQ1xZ8kLm3Wu\nEOF\n",
        ),
        (
            "heredoc marker first",
            "cat <<'EOF' > /etc/app/db_password\nVb6nQ1xZ8kLm3Wu\nEOF\n",
        ),
        (
            "docker secret create",
            "printf 'Vb6nQ1xZ8kLm3Wu' | docker secret create db_password -\n",
        ),
        (
            "es6 brace escapes",
            "const dbPassword = \"\\u{56}\\u{62}6nQ1xZ8kLm3Wu\";\n",
        ),
        (
            "ecs value then name below",
            "[\n  {\n    \"value\": \"Vb6nQ1xZ8kLm3Wu\",\n    \"name\": \"DB_PASSWORD\"\n  }\n]\n",
        ),
    ]);
    let jpeg = "16,11,10,16,24,40,51,61,12,12,14,19,26,58,60,55,14,13,16,24,40,57,69,56,14,17,22,29,51,87,80,62,18,22,37,56,68,109,103,77,24,35,55,64,81,104,113,92,49,64,78,87,103,121,120,101,72,92,95,98,112,100,103,99";
    quiet(&[
        "cat > /etc/myapp/secrets.env <<EOF\nAPP_ENV=production\nDB_PASSWORD=${DB_PASSWORD}\nEOF\n".into(),
        "cat > /usr/local/bin/rotate-token <<'EOF'\n#!/bin/bash\nset -eu\nEOF\n".into(),
        "echo v2.14.0-rc1 > build/api_key_schema_version\n".into(),
        "gcloud secrets versions access latest --secret=projects/shop-prod-2231/secrets/db-password\n".into(),
        format!("[{jpeg}]\n"),
        format!("[{}]\n", ["0"; 64].join(",")),
        "TOKEN_HEADER = base64.urlsafe_b64decode(\"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\")\n".into(),
        "{\n  \"tokens\": [\n    \"color.brand.500\",\n    \"spacing.4x\"\n  ]\n}\n".into(),
        "INSERT INTO users (id, email, secret_question) VALUES (7, 'ann@acme.io', 'FirstPet2Name');\n".into(),
        "reset_password_hint: 'Don''t4get: use8chars'\nsecret_hint: 'it''sAlways2FA'\n".into(),
        "static const char *password = \"\\x70\\x61\\x73\\x73\\x77\\x6f\\x72\\x64\";\n".into(),
        "BASE='/opt/app'\nVER='v2.3.1'\nexport TOKEN_CACHE=\"$BASE$VER\"\n".into(),
    ]);
}
