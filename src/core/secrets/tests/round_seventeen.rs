//! Round seventeen of the secret shapes: plain values on the config lines
//! of Make, systemd units, web servers and `.properties`; base64 variants
//! (URL-safe, after a `\n` escape, twice over, short credential lines);
//! split secrets bound by other forms than `name = "literal"`; archives
//! inside gzip and tar. Each with its near misses. The values are made
//! here.

use super::round_eleven::check;
use super::{base64, found, quiet};

/// Item 1: Make's assignments, systemd's `Environment=`, a web server's
/// directives, `.properties` with `:`, an htpasswd `{PLAIN}` line.
#[test]
fn round_seventeen_plain_values_on_config_lines_are_found() {
    let values = ["Tq8-Lw3-Zx5-Rb", "Xk9-mQ2/vLp+7", "a8-Kq2-Lm9-Zp4-Wx7"];
    let mut cases = Vec::new();
    for v in values {
        for text in [
            format!("DB_PASSWORD := {v}\n"),
            format!("DB_PASSWORD ?= {v}\n"),
            format!("DB_PASSWORD += {v}\n"),
            format!("DB_PASSWORD ::= {v}\n"),
            format!("DB_PASSWORD:={v}\n"),
            format!("export DB_PASSWORD := {v}\n"),
            format!("override API_TOKEN = {v}\n"),
            format!("all:\n\techo hi\n\nexport DB_PASSWORD ?= {v}\n"),
            format!("[Service]\nEnvironment=DB_PASSWORD={v}\n"),
            format!("[Service]\nEnvironment=A=1 DB_PASSWORD={v} B=2\n"),
            format!("[Service]\nEnvironment=\"A=1\" DB_PASSWORD={v}\n"),
            format!("server {{\n  proxy_set_header X-Api-Key {v};\n}}\n"),
            format!("location / {{\n  fastcgi_param DB_PASSWORD {v};\n}}\n"),
            format!("server {{\n  set $api_token {v};\n}}\n"),
            format!("env DB_PASSWORD={v};\n"),
            format!("<VirtualHost *:80>\n  SetEnv DB_PASSWORD {v}\n</VirtualHost>\n"),
            format!("<Location />\n  RequestHeader set X-Api-Key \"{v}\"\n</Location>\n"),
            format!("db.password:{v}\n"),
            format!("db.password : {v}\n"),
        ] {
            cases.push((text, v, "secret-config-plain-value"));
        }
    }
    cases.push((
        "alice:{PLAIN}Tq8-Lw3-Zx5-Rb\n".to_string(),
        "alice",
        "htpasswd-plain",
    ));
    check(&cases);
}

/// Item 1, forms that were found before this round: kept as guards.
#[test]
fn round_seventeen_config_forms_found_before_stay_found() {
    let v = "Tq8-Lw3-Zx5-Rb";
    let mut found_any = Vec::new();
    for text in [
        format!("export DB_PASSWORD = {v}\n"),
        format!("[Service]\nEnvironment=\"DB_PASSWORD={v}\"\n"),
        format!("[Service]\nEnvironment=\"A=1\" \"DB_PASSWORD={v}\"\n"),
        format!("DB_PASSWORD={v}\n"),
        format!("[db]\npassword = {v}\n"),
        format!("db.password={v}\n"),
        format!("resource \"aws_db_instance\" \"x\" {{\n  password = \"{v}\"\n}}\n"),
        format!("locals {{\n  db_password = \"{v}\"\n}}\n"),
        "alice:$apr1$Jm3x9Kq2$Vq8rT5yLw2Zx7Np4Hs6Mb1\n".to_string(),
    ] {
        if found(&text).is_empty() {
            found_any.push(text);
        }
    }
    assert!(found_any.is_empty(), "{found_any:?}");
}

/// Item 1's near misses: Make's functions and variables, paths, systemd
/// specifiers, a web server's variables, code.
#[test]
fn round_seventeen_config_lines_without_a_value_stay_quiet() {
    quiet(&[
        "SECRET_KEY := $(shell openssl rand -hex 32)\n".to_string(),
        "TOKEN_FILE := $(HOME)/.token\n".to_string(),
        "API_KEY ?= ${API_KEY}\n".to_string(),
        "PASSWORD_SRCS += passwd.c\n".to_string(),
        "KEYS_DIR := build/keys2\n".to_string(),
        "SECRET_OBJS += secret2.o\n".to_string(),
        "TOKEN != cat token.txt\n".to_string(),
        "[Service]\nEnvironment=TOKEN_PATH=/run/secrets/token2\n".to_string(),
        "[Service]\nEnvironment=\"SECRET_FILE=%d/db-pass\"\n".to_string(),
        "[Service]\nEnvironment=PASSWORD_STORE_DIR=%h/.password-store\n".to_string(),
        "server {\n  proxy_set_header X-Api-Key $http_x_api_key;\n}\n".to_string(),
        "server {\n  set $token_v2 $arg_token;\n}\n".to_string(),
        "location / {\n  fastcgi_param SECRET_KEY_FILE /etc/app/secret.key;\n}\n".to_string(),
        "SetEnv PASSWORD_FILE /run/secrets/db2\n".to_string(),
        "token.version:1.2.3-rc.1\n".to_string(),
        "password.length : 12\n".to_string(),
        "func f() {\n\ttoken := tok1-tok2\n}\n".to_string(),
        "alice:{PLAIN}${HTPASSWD}\n".to_string(),
        "alice:{PLAIN}changeme\n".to_string(),
    ]);
}

/// URL-safe base64 (`-`, `_`, no padding) of `bytes`.
fn base64url(bytes: &[u8]) -> String {
    base64(bytes)
        .trim_end_matches('=')
        .replace('+', "-")
        .replace('/', "_")
}

/// `b64` wrapped at 76 columns with `\n` escapes, as JSON holds
/// `base64`'s output.
fn json_wrapped(b64: &str) -> String {
    b64.as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\\n")
}

/// Each text holds one finding, rule `base64-text`, on its line `line`.
fn base64_found(cases: &[(String, usize)]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter(|(t, line)| found(t) != [(*line, "base64-text".to_string())])
        .map(|(t, line)| format!("{t:?} (want line {line}): {:?}", found(t)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Item 2: URL-safe base64, base64 wrapped by `\n` escapes or after one,
/// base64 twice over, runs shorter than 24 that decode to a credential
/// line.
#[test]
fn round_seventeen_base64_variants_are_found() {
    // `~~~??>>` makes the URL-safe alphabet's `-` and `_` appear.
    let env = "A=1\nNOTE=~~~??>>\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let url = base64url(env.as_bytes());
    assert!(url.contains(['-', '_']), "{url}");
    let long = "A=1\n".repeat(40) + "DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let plain = "LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let wrapped_twice = base64(long.as_bytes())
        .as_bytes()
        .chunks(76)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    base64_found(&[
        (format!("data:\n  env: {url}\n"), 2),
        (format!("{{\"env\": \"{url}\"}}\n"), 1),
        (
            format!(
                "{{\"data\": {{\"app.env\": \"{}\\n\"}}}}\n",
                json_wrapped(&base64(long.as_bytes()))
            ),
            1,
        ),
        (
            format!(
                "{{\"note\": \"the env follows\\n{}\"}}\n",
                base64(plain.as_bytes())
            ),
            1,
        ),
        (
            format!(
                "data:\n  env: {}\n",
                base64(base64(plain.as_bytes()).as_bytes())
            ),
            2,
        ),
        (
            format!("data:\n  env: {}\n", base64(wrapped_twice.as_bytes())),
            2,
        ),
        (
            format!("data:\n  env: {}\n", base64(b"TOKEN=Xk9mQ2vLp7")),
            2,
        ),
        (format!("data:\n  env: {}\n", base64(b"pwd=Xk9mQ2vL")), 2),
        (format!("AUTH=\"{}\"\n", base64(b"DB_PASS=x9Kq2Lm4\n")), 1),
    ]);
    let twice = format!(
        "data:\n  env: {}\n",
        base64(base64(plain.as_bytes()).as_bytes())
    );
    assert!(
        crate::core::secret_scan::scan(&twice)[0]
            .kind
            .ends_with("(base64 twice)"),
        "{:?}",
        crate::core::secret_scan::scan(&twice)
    );
}

/// Item 2's near misses: harmless text in URL-safe base64 and twice over,
/// short runs that decode to no credential line, identifiers and words
/// with `-` and `_`.
#[test]
fn round_seventeen_base64_variants_without_a_secret_stay_quiet() {
    let harmless = "LOG_LEVEL=info\nNOTE=~~~??>>\nDB_HOST=db.example.com\n";
    quiet(&[
        format!("data:\n  env: {}\n", base64url(harmless.as_bytes())),
        format!(
            "data:\n  env: {}\n",
            base64(base64(harmless.as_bytes()).as_bytes())
        ),
        format!("{{\"a\": \"x\\n{}\"}}\n", base64(harmless.as_bytes())),
        format!("data:\n  v: {}\n", base64(b"hello world, ok")),
        format!("data:\n  v: {}\n", base64(b"user:${PASSWORD}")),
        format!("data:\n  v: {}\n", base64(b"pwd=changeme")),
        "import some_long_module_name_here_ok\n".to_string(),
        "x = \"well-known-configuration-endpoint-name\"\n".to_string(),
        "  - --enable-feature-gate-for-tokens\n".to_string(),
        "---\ndata:\n  v: dGhpcyBpcyBmaW5lLCBub3RoaW5nIHRvIHNlZSBoZXJl\n---\n".to_string(),
    ]);
}

/// Item 3: a token split through names bound by other spellings than
/// `name = "literal"` alone, or joined through names alone.
#[test]
fn round_seventeen_splits_through_names_are_found() {
    let (a, b) = ("ghp_Vb6nQ1xZ8kLm3W", "uR4tY7pA2sD5fG8hJ0kL1z");
    let (k1, k2) = ("AKIAZ7QW3ERT", "YU5IOPLK");
    let cases = [
        (
            format!("const a = \"{a}\", b = \"{b}\";\nconst token = `${{a}}${{b}}`;\n"),
            "github-token",
        ),
        (
            format!("const [a, b] = [\"{a}\", \"{b}\"];\nconst token = `${{a}}${{b}}`;\n"),
            "github-token",
        ),
        (
            format!("a, b = \"{a}\", \"{b}\"\ntoken = f\"{{a}}{{b}}\"\n"),
            "github-token",
        ),
        (
            format!("func main() {{\n\ta := \"{a}\"\n\tb := \"{b}\"\n\ttoken := a + b\n}}\n"),
            "github-token",
        ),
        (
            format!("func main() {{\n\ta := \"{a}\"\n\ttoken := a + \"{b}\"\n}}\n"),
            "github-token",
        ),
        (
            format!(
                "fn main() {{\n    let a = \"{a}\";\n    let token = format!(\"{{a}}{b}\");\n}}\n"
            ),
            "github-token",
        ),
        (
            format!(
                "fn main() {{\n    let a: &str = \"{a}\";\n    let b: &str = \"{b}\";\n    let t = format!(\"{{a}}{{b}}\");\n}}\n"
            ),
            "github-token",
        ),
        (
            format!(
                "class T {{\n    void f() {{\n        String a = \"{a}\";\n        String token = a + \"{b}\";\n    }}\n}}\n"
            ),
            "github-token",
        ),
        (
            format!(
                "class T {{\n    static final String A = \"{a}\";\n    static final String TOKEN = A + \"{b}\";\n}}\n"
            ),
            "github-token",
        ),
        (
            format!("a: str = \"{a}\"\ntoken = a + \"{b}\"\n"),
            "github-token",
        ),
        (
            format!("a = \"{a}\"\nb = \"{b}\"\ntoken = a + b\n"),
            "github-token",
        ),
        (
            format!("const a = \"{a}\";\nconst b = \"{b}\";\nconst token = a + b;\n"),
            "github-token",
        ),
        (
            format!("k1 = \"{k1}\"\nk2 = \"{k2}\"\nkey_id = k1 + k2\n"),
            "aws-access-key",
        ),
        (
            format!("const k1 = \"{k1}\", k2 = \"{k2}\";\nconst id = `${{k1}}${{k2}}`;\n"),
            "aws-access-key",
        ),
    ];
    // The marker: the line of the join (the last line naming the token
    // or the key id).
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(text, rule)| {
            let got = found(text);
            let line = text
                .lines()
                .collect::<Vec<_>>()
                .iter()
                .rposition(|l| l.contains(" + ") || l.contains("${") || l.contains("{a}"))
                .map_or(0, |i| i + 1);
            (got != [(line, rule.to_string())])
                .then(|| format!("{text:?} (want {rule} on {line}): {got:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Item 3's near misses: names joined into no token, a name bound
/// nowhere, words, arithmetic.
#[test]
fn round_seventeen_joins_through_names_without_a_token_stay_quiet() {
    quiet(&[
        "a = \"abc\"\nb = \"def\"\nx = a + b\n".to_string(),
        "host = \"example.com\"\nurl = \"https://\" + host + \"/path\"\n".to_string(),
        "prefix = \"ghp_\"\nname = prefix + user_input\n".to_string(),
        "String greeting = \"Hello\";\nString msg = greeting + \" world\";\n".to_string(),
        "a := \"AKIA\"\nb := \"EXAMPLE\"\nid := a + b\n".to_string(),
        "const [a, b] = [\"left\", \"right\"];\nconst side = a + b;\n".to_string(),
        "i = 0\ni = i + 1\nj = i + k\n".to_string(),
        "const char *a = \"abc\";\nputs(a + 1);\n".to_string(),
        "sep = \"-\"\nlabel = first + sep + last\n".to_string(),
        "let a = \"x\";\nlet s = format!(\"{a} and {b}\");\n".to_string(),
    ]);
}

/// Item 4: a zip inside a tar or a gzip stream, a gzip or tar inside a
/// zip or a tar, read member by member; a zip64 (sizes in its extra
/// field, as `zip -fz` writes).
#[test]
fn round_seventeen_archives_inside_archives_are_read() {
    use super::round_fifteen::{gzip, tar};
    use crate::core::secret_scan::test_zip;
    let env = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let zip = test_zip(&[("README", b"notes\n", false), (".env", env, true)]);
    let tgz_of_zip = gzip(&tar(&[("README", b"notes\n"), ("conf.zip", &zip)]));
    let zip_gz = gzip(&zip);
    let tgz = gzip(&tar(&[(".env", env)]));
    let zip_of_tgz = test_zip(&[("README", b"notes\n", true), ("conf.tgz", &tgz, false)]);
    let tgz_of_gz = gzip(&tar(&[("README", b"notes\n"), ("env.gz", &gzip(env))]));
    let zip64 = crate::core::secret_scan::test_zip64(".env", env);
    let mut cases = Vec::new();
    for bytes in [&tgz_of_zip, &zip_gz, &zip_of_tgz, &tgz_of_gz, &zip64] {
        cases.push((
            format!("backup: {}\n", base64(bytes)),
            "backup",
            "base64-credentials",
        ));
    }
    check(&cases);
}

/// Item 4's bounds: nesting past the bound, more members than are read
/// (a secret among the first is still found), a zip in a gzip stream
/// inflating past the bound: unchecked, never passed; harmless nested
/// archives are quiet.
#[test]
fn round_seventeen_nested_archives_past_the_bounds_are_unchecked() {
    use super::round_fifteen::{gzip, tar};
    use crate::core::secret_scan::test_zip;
    let env = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let mut deep = b"LOG_LEVEL=info\n".to_vec();
    for _ in 0..7 {
        deep = gzip(&deep);
    }
    // A tar is read whole (its members bounded by the bytes inflated); a
    // zip past 1,000 members is read that far.
    let names: Vec<String> = (0..1001).map(|i| format!("f{i}.txt")).collect();
    let mut members: Vec<(&str, &[u8], bool)> = names
        .iter()
        .map(|n| (n.as_str(), &b"x\n"[..], false))
        .collect();
    let many = gzip(&test_zip(&members));
    members[3] = (".env", env, true);
    let many_with_secret = gzip(&test_zip(&members));
    let tar_members: Vec<(&str, &[u8])> = members.iter().map(|m| (m.0, m.1)).collect();
    let many_tar = gzip(&tar(&tar_members));
    // 20,000 members of a 512-byte header and a block each: 20 MiB.
    let files: Vec<String> = (0..20_000).map(|i| format!("f{i}")).collect();
    let big: Vec<(&str, &[u8])> = files.iter().map(|n| (n.as_str(), &b"x\n"[..])).collect();
    let big_tar = gzip(&tar(&big));
    let zeros = vec![0u8; 17 << 20];
    let bomb = gzip(&test_zip(&[("zeros", &zeros, true)]));
    check(&[
        (
            format!("backup: {}\n", base64(&deep)),
            "backup",
            "unchecked-encoded",
        ),
        (
            format!("backup: {}\n", base64(&many)),
            "backup",
            "unchecked-encoded",
        ),
        (
            format!("backup: {}\n", base64(&many_with_secret)),
            "backup",
            "base64-credentials",
        ),
        (
            format!("backup: {}\n", base64(&bomb)),
            "backup",
            "unchecked-encoded",
        ),
        (
            format!("backup: {}\n", base64(&big_tar)),
            "backup",
            "unchecked-encoded",
        ),
        (
            format!("backup: {}\n", base64(&many_tar)),
            "backup",
            "base64-credentials",
        ),
    ]);
    let zip = test_zip(&[("README", b"notes\n", false), ("a.txt", b"hello\n", true)]);
    quiet(&[
        format!(
            "backup: {}\n",
            base64(&gzip(&tar(&[("README", b"notes\n"), ("a.zip", &zip)])))
        ),
        format!("backup: {}\n", base64(&gzip(&zip))),
        format!(
            "backup: {}\n",
            base64(&gzip(&tar(&[("a.gz", &gzip(b"nothing to see\n"))])))
        ),
    ]);
}

/// Recheck 16 F-CR: lines ended by a carriage return alone (classic Mac)
/// were one line to the rules anchored at a line's start. Each is found on
/// its own line; CRLF and LF texts read as before.
#[test]
fn round_seventeen_lines_ended_by_a_carriage_return_alone_are_lines() {
    let v = "Zr7kQ2wLp9xQ";
    for text in [
        format!("a=1\rdb.password={v}\r"),
        format!("X=1\rDB_PASSWORD={v}\r"),
        format!("a: 1\rpassword: {v}\r"),
        format!("#!/bin/sh\rexport DB_PASSWORD={v}\r"),
    ] {
        let got = found(&text);
        assert_eq!(got.len(), 1, "{text:?}: {got:?}");
        // Named on the line as the rest of the tool counts lines (by line
        // feed: the whole file is one).
        assert_eq!(got[0].0, 1, "{text:?}: {got:?}");
        let crlf = text.replace('\r', "\r\n");
        let by_lines = found(&crlf);
        assert_eq!(by_lines.len(), 1, "{crlf:?}: {by_lines:?}");
        assert_eq!((by_lines[0].0, &by_lines[0].1), (2, &got[0].1), "{crlf:?}");
    }
    quiet(&["a=1\rb=2\rname=plain words\r".to_string()]);
    // YAML's other line breaks (recheck 16b F-CR2).
    for brk in ['\u{85}', '\u{2028}', '\u{2029}'] {
        let text = format!("a: 1{brk}password: {v}{brk}");
        let got = found(&text);
        assert_eq!(got.len(), 1, "{text:?}: {got:?}");
        assert_eq!(got[0].0, 1, "{text:?}: {got:?}");
    }
}

/// Recheck 16 F-APPJSON: Heroku's `app.json` gives each variable an object
/// whose `value` is the default: a key there passed.
#[test]
fn round_seventeen_app_json_env_values_are_found() {
    let uuid = "0f3b6c9e-2a41-4d7b-9e35-8c1d2f7a6b50";
    let random = "k7Qw2Zr9Lp4Xv8Nm3Bt6Yc1H";
    for text in [
        format!("{{\"env\":{{\"HEROKU_API_KEY\":{{\"value\":\"{uuid}\"}}}}}}\n"),
        format!(
            "{{\n  \"env\": {{\n    \"STRIPE_SECRET_KEY\": {{\n      \"value\": \"{random}\"\n    }}\n  }}\n}}\n"
        ),
    ] {
        let got = found(&text);
        assert_eq!(got.len(), 1, "{text:?}: {got:?}");
        assert_eq!(got[0].1, "secret-structured-value", "{text:?}: {got:?}");
    }
    quiet(&[
        "{\"env\":{\"SECRET_TOKEN\":{\"generator\":\"secret\"}}}\n".to_string(),
        "{\"env\":{\"API_KEY\":{\"value\":\"changeme\"}}}\n".to_string(),
        "{\"env\":{\"WEB_CONCURRENCY\":{\"value\":\"5\"}}}\n".to_string(),
    ]);
}
