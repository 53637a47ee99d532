//! Round seventeen of the secret shapes through the real binary: plain
//! values on the config lines of a Makefile, a systemd unit, nginx and
//! Apache, `.properties` with `:`, an htpasswd `{PLAIN}` line; base64
//! variants (URL-safe, wrapped by `\n` escapes in JSON, twice over, a
//! short credential line); tokens split through names bound in other
//! spellings (Go's `:=`, Java's typed fields, destructuring, declaration
//! lists) or joined through names alone; each refused by `build` with its
//! line, never echoing the secret; a `.env` in a zip in a tar.gz, base64
//! in a Kubernetes Secret, is found in it. Make's functions, paths, a web
//! server's variables, names joined into no token and a clean zip in a
//! tar.gz build.

use crate::common;

use common::{Project, base64, gzip, stderr};

use super::secrets_round_fifteen::tar;
use super::secrets_round_sixteen::zip;

/// Base64 variants of a `.env`, each on line 2 of its file.
fn encoded() -> Vec<(&'static str, String, usize)> {
    let env = "A=1\nNOTE=~~~??>>\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let url = base64(env.as_bytes())
        .trim_end_matches('=')
        .replace('+', "-")
        .replace('/', "_");
    let long = "A=1\n".repeat(40) + env;
    let wrapped = base64(long.as_bytes())
        .as_bytes()
        .chunks(76)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("\\n");
    vec![
        ("u.yaml", format!("data:\n  env: {url}\n"), 2),
        (
            "j.json",
            format!("{{\n  \"app.env\": \"{wrapped}\\n\"\n}}\n"),
            2,
        ),
        (
            "t.yaml",
            format!(
                "data:\n  env: {}\n",
                base64(base64(env.as_bytes()).as_bytes())
            ),
            2,
        ),
        (
            "s.yaml",
            format!("data:\n  env: {}\n", base64(b"TOKEN=Xk9mQ2vLp7")),
            2,
        ),
    ]
}

/// Each file holds one secret, on its line `line`.
fn planted() -> Vec<(&'static str, String, usize)> {
    vec![
        (
            "Makefile",
            "all:\n\techo hi\n\nDB_PASSWORD := Tq8-Lw3-Zx5-Rb\n".into(),
            4,
        ),
        ("q.mk", "export API_TOKEN ?= Xk9-mQ2/vLp+7\n".into(), 1),
        (
            "app.service",
            "[Service]\nEnvironment=LANG=C DB_PASSWORD=Tq8-Lw3-Zx5-Rb\nExecStart=/usr/bin/app\n"
                .into(),
            2,
        ),
        (
            "site.conf",
            "server {\n  location / {\n    proxy_set_header X-Api-Key Tq8-Lw3-Zx5-Rb;\n  }\n}\n"
                .into(),
            3,
        ),
        (
            "vhost.conf",
            "<VirtualHost *:80>\n  SetEnv DB_PASSWORD a8-Kq2-Lm9-Zp4-Wx7\n</VirtualHost>\n".into(),
            2,
        ),
        (
            "db.properties",
            "db.user:app\ndb.password:Tq8-Lw3-Zx5-Rb\n".into(),
            2,
        ),
        ("htpasswd", "alice:{PLAIN}Tq8-Lw3-Zx5-Rb\n".into(), 1),
    ]
}

/// Tokens split through names, each found on the join's line.
fn through_names() -> Vec<(&'static str, String, usize)> {
    let (a, b) = ("ghp_Vb6nQ1xZ8kLm3W", "uR4tY7pA2sD5fG8hJ0kL1z");
    vec![
        (
            "two.py",
            format!("a = \"{a}\"\nb = \"{b}\"\ntoken = a + b\n"),
            3,
        ),
        (
            "main.go",
            format!(
                "package main\n\nfunc main() {{\n\ta := \"{a}\"\n\ttoken := a + \"{b}\"\n\t_ = token\n}}\n"
            ),
            5,
        ),
        (
            "T.java",
            format!(
                "class T {{\n    static final String A = \"{a}\";\n    static final String TOKEN = A + \"{b}\";\n}}\n"
            ),
            3,
        ),
        (
            "keys.js",
            format!("const [a, b] = [\"{a}\", \"{b}\"];\nconst token = `${{a}}${{b}}`;\n"),
            2,
        ),
        (
            "aws.py",
            "k1 = \"AKIAZ7QW3ERT\"\nk2 = \"YU5IOPLK\"\nkey_id = k1 + k2\n".into(),
            3,
        ),
    ]
}

/// A `.env` in a zip in a tar.gz, and in a tar.gz in a zip.
fn nested() -> Vec<(&'static str, String, usize)> {
    let env = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let inner = zip(&[("README", b"notes\n", false), (".env", env, true)]);
    let tgz = gzip(&tar(&[("README", b"notes\n"), ("conf.zip", &inner)]));
    let outer = zip(&[("conf.tgz", &gzip(&tar(&[(".env", env)])), false)]);
    vec![
        (
            "backup.yaml",
            format!("data:\n  blob: {}\n", base64(&tgz)),
            2,
        ),
        (
            "bundle.yaml",
            format!("data:\n  blob: {}\n", base64(&outer)),
            2,
        ),
    ]
}

#[test]
fn round_seventeen_secret_shapes_refuse_the_build() {
    for (name, text, line) in planted()
        .into_iter()
        .chain(encoded())
        .chain(through_names())
        .chain(nested())
    {
        common::assert_build_refuses_planted(name, &text, line);
    }
}

#[test]
fn round_seventeen_near_misses_build() {
    let p = Project::fixture();
    p.write(
        "Makefile",
        "SECRET_KEY := $(shell openssl rand -hex 32)\nTOKEN_FILE := $(HOME)/.token\n\
         PASSWORD_SRCS += passwd.c\nAPI_KEY ?= ${API_KEY}\n",
    );
    p.write(
        "app.service",
        "[Service]\nEnvironment=TOKEN_PATH=/run/secrets/token2\nEnvironment=\"SECRET_FILE=%d/db-pass\"\n",
    );
    p.write(
        "site.conf",
        "server {\n  proxy_set_header X-Api-Key $http_x_api_key;\n  fastcgi_param SECRET_KEY_FILE /etc/app/secret.key;\n}\n",
    );
    p.write(
        "join.py",
        "a = \"abc\"\nb = \"def\"\nx = a + b\nhost = \"example.com\"\nurl = \"https://\" + host + \"/p\"\ni = 0\ni = i + 1\n",
    );
    let clean = zip(&[("README", b"notes\n", false), ("a.txt", b"hello\n", true)]);
    p.write(
        "backup.yaml",
        &format!(
            "data:\n  blob: {}\n",
            base64(&gzip(&tar(&[("README", b"notes\n"), ("a.zip", &clean)])))
        ),
    );
    p.ok(&[
        "add",
        "Makefile",
        "app.service",
        "site.conf",
        "join.py",
        "backup.yaml",
    ]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
