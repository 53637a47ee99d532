//! Round sixteen (b) of the secret shapes (a recheck's findings, F2, F4,
//! F9), through the real binary: the base64 of a `.env`, an `.npmrc` or a
//! `.pgpass` in a Kubernetes Secret, and unquoted config values of short
//! groups joined by `-`, `+` or `/` (compose list and map, `.env`-like,
//! `.properties`, YAML), each refused by `build` with its line, never
//! echoing the secret; code's expressions and a base64 image build. A
//! preset's description holding a key is withheld from the agent in MCP
//! `resources/list` and `list_presets`. The values are made here.

use serde_json::json;

use crate::common;

use common::mcp_stdio::McpServer;
use common::{Project, base64, random, stderr};

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// `file` as `key` in a Kubernetes Secret (`kubectl create secret generic
/// --from-file`).
fn secret(key: &str, file: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Secret\ndata:\n  {key}: {}\n",
        base64(file.as_bytes())
    )
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    let pass = format!("Vb6{}", random(ALNUM, 61, 13));
    let aws = random(ALNUM, 62, 40);
    let npm = format!("npm_{}", random(ALNUM, 63, 36));
    let ghp = format!("ghp_{}", random(ALNUM, 64, 36));
    let auth = base64(format!("bob:{pass}").as_bytes());
    vec![
        (
            "s5.yaml",
            secret(
                ".env",
                &format!("DB_PASSWORD={pass}\nAWS_SECRET_ACCESS_KEY={aws}\n"),
            ),
            4,
        ),
        (
            "s4.yaml",
            secret(".npmrc", &format!("//registry.npmjs.org/:_authToken={npm}")),
            4,
        ),
        (
            "s3.yaml",
            secret("config", &format!("//registry.npmjs.org/:_authToken={ghp}")),
            4,
        ),
        (
            "s6.yaml",
            secret(".pgpass", &format!("db.example.com:5432:app:bob:{pass}")),
            4,
        ),
        (
            "s7.yaml",
            secret(".npmrc", &format!("_auth={auth}\nemail=a@b.c\n")),
            4,
        ),
        (
            "f5.yml",
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Tq8-Lw3-Zx5-Rb\n".into(),
            4,
        ),
        (
            "f6.yml",
            "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: Tq8-Lw3-Zx5-Rb\n".into(),
            4,
        ),
        ("e6.sh", "DB_PASSWORD=Xk9-mQ2/vLp+7\n".into(), 1),
        (
            "application.properties",
            "spring.datasource.password=Tq8-Lw3+Zx5/Rb\n".into(),
            1,
        ),
        ("e10.yml", "db:\n  password: Tq8-Lw3-Zx5-Rb\n".into(), 2),
        ("h3.sh", "DB_PASSWORD=a8-Kq2-Lm9-Zp4-Wx7\n".into(), 1),
    ]
}

#[test]
fn round_sixteen_b_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted() {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_sixteen_b_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "calc.py",
        "def f(a, b):\n    password = a - b\n    conn = connect(\n        password=salt2+pepper3\n    )\n    return conn\n",
    );
    let mut png = vec![0x89, b'P', b'N', b'G', 13, 10, 26, 10];
    png.extend((0u8..=255).map(|i| i.wrapping_mul(37)));
    p.write(
        "cm.yaml",
        &format!(
            "data:\n  app.env: {}\n  icon.png: {}\n",
            base64(b"LOG_LEVEL=info\nDB_HOST=db.example.com\nDB_PASSWORD=${DB_PASSWORD}\n"),
            base64(&png)
        ),
    );
    p.write("ttl.env", "JWT_SECRET_TTL=60*60*24\n");
    p.ok(&["add", "calc.py", "cm.yaml", "ttl.env"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A description holding an AWS key and a base64 private key reaches the
/// agent withheld, in `resources/list` and in `list_presets`; the
/// findings are named, masked.
#[test]
fn round_sixteen_b_a_description_with_a_secret_is_withheld() {
    let aws = random(ALNUM, 65, 40);
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.p2]\ndescription = \"prod deploy; AWS_SECRET_ACCESS_KEY={aws}\"\n\
             [[presets.p2.files]]\npath = \"a.py\"\n\
             [presets.default]\ndescription = \"the usual\"\n\
             [[presets.default.files]]\npath = \"a.py\"\n"
        ),
    );
    let mut server = McpServer::start(&p, &[]);
    let answer = server
        .request("resources/list", json!({}))
        .expect("an answer");
    let listed = answer.to_string();
    assert!(!listed.contains(&aws[..20]), "{listed}");
    assert!(listed.contains("withheld"), "{listed}");
    assert!(listed.contains("the usual"), "{listed}");
    let presets = server.call("list_presets", json!({}));
    assert!(!presets.text.contains(&aws[..20]), "{}", presets.text);
    assert!(presets.text.contains("withheld"), "{}", presets.text);
    assert!(presets.text.contains("AWS secret key"), "{}", presets.text);
}

/// A preset *named* with a token (recheck 15b, F9b) is left out of what
/// lists presets to the agent: it went out as the resource's `uri`,
/// `name` and `title`. `list_presets` says how many were left out; with
/// `--allow-secrets` it is listed.
#[test]
fn round_sixteen_b_a_preset_named_with_a_secret_is_left_out() {
    let token = format!("ghp_{}", random(ALNUM, 66, 36));
    let p = Project::empty();
    p.write("a.py", "x = 1\n");
    p.write(
        "ctxcurate.toml",
        &format!(
            "[presets.{token}]\n[[presets.{token}.files]]\npath = \"a.py\"\n\
             [presets.default]\ndescription = \"the usual\"\n\
             [[presets.default.files]]\npath = \"a.py\"\n"
        ),
    );
    let mut server = McpServer::start(&p, &[]);
    let answer = server
        .request("resources/list", json!({}))
        .expect("an answer");
    let listed = answer.to_string();
    assert!(!listed.contains(&token[..12]), "{listed}");
    assert!(listed.contains("the usual"), "{listed}");
    let presets = server.call("list_presets", json!({}));
    assert!(!presets.text.contains(&token[..12]), "{}", presets.text);
    assert!(
        presets
            .text
            .contains("1 preset left out: the name holds a likely secret"),
        "{}",
        presets.text
    );
    let mut allowed = McpServer::start(&p, &["--allow-secrets"]);
    let presets = allowed.call("list_presets", json!({}));
    assert!(presets.text.contains(&token[..12]), "{}", presets.text);
}
