//! The rules on single texts: a table of planted secrets that must be
//! found and a table of ordinary code lines that must not be.

use super::*;
use crate::core::sources::Sources;

fn found(text: &str) -> Vec<(usize, String)> {
    scan(text)
        .into_iter()
        .map(|h| (h.line, h.rule.to_string()))
        .collect()
}

/// The texts among `texts` with a finding, named; none expected.
fn quiet(texts: &[String]) {
    let loud: Vec<String> = texts
        .iter()
        .filter(|t| !found(t).is_empty())
        .map(|t| format!("{t:?}: {:?}", found(t)))
        .collect();
    assert!(loud.is_empty(), "{}", loud.join("\n"));
}

/// A JWT as services issue them: a few hundred characters.
pub(crate) fn long_jwt() -> String {
    let payload =
        "c3ViIjoiMTIzNDU2Nzg5MCIsIm5hbWUiOiJKb2huIERvZSIsImlhdCI6MTUxNjIzOTAyMn0".repeat(8);
    format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{payload}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )
}

const PPK: &str = "\
PuTTY-User-Key-File-3: ssh-ed25519
Encryption: none
Comment: deploy@build
Public-Lines: 2
AAAAC3NzaC1lZDI1NTE5AAAAIOq0Jx1mN8pYzW4kB7vQ2rT5sL9dF3gH6jK1cV0bX8nE
Private-Lines: 1
AAAAIFqT8mZ2xLp7Rt4vW9cK3nB6yH1jD5gF0sQ8eA4uI7oP
Private-MAC: 6f1c2e9a0b8d7c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e
";

const KUBECONFIG: &str = "\
users:
- name: admin
  user:
    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM4akNDQWRxZ0F3SUJBZ0lJ
    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB
";

/// Each planted secret of issue 10 §7, with the rule and line it is found on.
#[test]
fn planted_secrets_are_found() {
    let jwt = long_jwt();
    let cases: Vec<(String, &str, usize)> = vec![
        // AWS secret keys contain `/` and `+`.
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3kLmP9aB".into(),
            "aws-secret-key",
            1,
        ),
        (
            "x = 1\nAWS_SECRET_ACCESS_KEY = \"k7MDENG+bPxRfiCYzQ3kLmP9aBwJalrXUtnFEMI/\"".into(),
            "aws-secret-key",
            2,
        ),
        (
            r#"{"AccessKeyId": "x", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ3kLmP9aB"}"#
                .into(),
            "aws-secret-key",
            1,
        ),
        // Passwords with `$ * % <`, quoted in code and bare in a .env file.
        (
            "DB_PASSWORD = \"hU8$kq*2Lm%Z9<pXv\"".into(),
            "secret-assignment",
            1,
        ),
        (
            "DEBUG=1\nDB_PASSWORD=hU8$kq*2Lm%Z9<pXv\n".into(),
            "secret-config-value",
            2,
        ),
        // Passwords holding the word "test".
        (
            "db:\n  password: \"Test-Xq9!vR2#mK\"\n".into(),
            "secret-assignment",
            2,
        ),
        (
            "SMTP_PASSWORD=mytest4Vq9Zr2Lk\n".into(),
            "secret-config-value",
            1,
        ),
        // Long JWTs, bare and assigned.
        (format!("const session = '{jwt}';"), "jwt", 1),
        (format!("Cookie: a=1\nX-Token: {jwt}\n"), "jwt", 2),
        // `Authorization: Bearer` headers.
        (
            "curl -H \"Authorization: Bearer 4f9a1c7e2b8d6a0f3e5c9b1d7a2e8f4c\" https://api".into(),
            "bearer-token",
            1,
        ),
        (
            "headers = {\"Authorization\": \"Bearer AbC9dEf2GhI7jKl4MnO1pQr8\"}".into(),
            "bearer-token",
            1,
        ),
        // PuTTY keys and kubeconfig client keys.
        (PPK.into(), "putty-private-key", 6),
        (KUBECONFIG.into(), "kubeconfig-client-key", 5),
        // The shapes found before stay found.
        (
            "x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAv8nCq3c0ZJmY0y3S8u8b\n-----END RSA PRIVATE KEY-----\n".into(),
            "private-key",
            2,
        ),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\nMIIEowIBAAKCAQEAv8nCq3c0ZJmY0y3S8u8b\n".into(),
            "private-key",
            1,
        ),
        (
            r#"  "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n","#.into(),
            "private-key",
            1,
        ),
        ("aws = AKIAIOSFODNN7EXAMPL3".into(), "aws-access-key", 1),
        (
            "gh = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"".into(),
            "github-token",
            1,
        ),
        ("slack: xoxb-1234567890-abcdefghij".into(), "slack-token", 1),
        (
            "openai = sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z".into(),
            "openai-key",
            1,
        ),
        (
            "anthropic = sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z".into(),
            "anthropic-key",
            1,
        ),
        (
            "gcp = AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q".into(),
            "gcp-api-key",
            1,
        ),
        (
            "api_key = 'f3Jk9QmZ2xLp7Rt4'".into(),
            "secret-assignment",
            1,
        ),
        (
            "config = {\"client_secret\": \"Zq8Lm3Xv9Kp2Rt7W\"}".into(),
            "secret-assignment",
            1,
        ),
        (
            "postgres://app:Zq8Lm3Xv9Kp2@db.internal:5432/app".into(),
            "url-password",
            1,
        ),
    ];
    for (text, rule, line) in &cases {
        assert_eq!(found(text), [(*line, rule.to_string())], "in {text:?}");
    }
}

/// Ordinary code from real projects that must never block a build.
#[test]
fn ordinary_code_is_not_flagged() {
    let lines = [
        // pygments' lexers and sqlite's tokenizer: the two reported alarms.
        "        self.tokentype = Name.Function",
        "    nToken = iEnd-iStart;",
        "  nToken = 2*nToken+10;",
        "    pTokenizer->iOffset = iStart2;",
        // axios's config merge: object members in code, not config values.
        "  withCredentials: defaultToConfig2,",
        "  withXSRFToken: defaultToConfig2,",
        "token_count = prev_count2+extra3",
        "password = os.environ['PASSWORD']",
        "token = get_token(user)",
        "password = 'changeme123'",
        "password = 'testpassword123'",
        "secret_key = 'django-insecure-example-key'",
        "PASSWORD_FIELD = 'password_confirmation'",
        "if password == 'hU8#kq2LmZ9pXv': pass",
        "TOKEN_TYPE = \"Bearer\"",
        "headers[\"Authorization\"] = f\"Bearer {token}\"",
        "Authorization: Bearer <token>",
        "Authorization: Bearer YOUR_ACCESS_TOKEN",
        "password = \"${DB_PASSWORD}\"",
        "password: \"{{ .Values.password }}\"",
        "api_key = \"%(api_key)s\"",
        "secret = secrets.token_hex(16)",
        "key = \"sk-\" + name",
        "url = 'https://user:password@example.com/'",
        "if line.startswith('-----BEGIN PRIVATE KEY-----'):",
        "token_url: https://oauth2.googleapis.com/token",
        "password = '********'",
        "PASSWORD=...",
        "task-management-is-a-long-word-without-digits",
        "xAKIAIOSFODNN7EXAMPL3",
        "ghp_short",
        "risk-assessment-2024-final-version-copy",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A",
        "Private-Lines: %d\\n",
        "    token = tokens[i + 1]",
        "    const char *zToken = pToken->z;",
        "static int sqlite3GetToken(const unsigned char *z, int *tokenType){",
        "keyfile = 'tests/keycert.pem'",
        // Real lines of the corpora that once raised alarms.
        "//[00061848:error] !!! syntax error: invalid token: '0xabcdefg'",
        "                      passwd='geheim$parole')",
        "(\"http://user%2Dname:pass%2Eword@example.com/\", (\"user-name\", \"pass.word\")),",
        "(\"http://user%20space:pass%3Acolon@example.com/\", (\"user space\", \"pass:colon\")),",
        // Issue 22: Django's template docstring (the value is a template
        // expression closed by its own quote), and the shapes of Django's,
        // numpy's and urllib3's other alarms.
        "        >>> token = 'variable|default:\"Default value\"|date:\"Y-m-d\"'",
        "    password_change_template = \"custom_admin/password_change_form.html\"",
        "    _csrf_id_token = MASKED_TEST_SECRET2",
        "                \"password\": \"1234567890\",",
        "            \"PASSWORD\": \"superS3cret\",",
        "<assemblyIdentity publicKeyToken=\"1fc8b3b9a1e18e3b\"></assemblyIdentity>",
        "            ({\"basic_auth\": \"user:pass\"}, {\"authorization\": \"Basic dXNlcjpwYXNz6Q==\"}),",
        "            \"authorization\": \"Basic 0ZbQvCfRjzrQv9Cw0YDQvtC70Yw=\"",
        "The Authorization: Basic Authentication header",
        "bypass_cache = 'x9Kq2LmZ8vWp'",
        "redis://:password@localhost:6379/0",
        "TWILIO_ACCOUNT_SID = 'ACxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'",
        "sha = 'AC0123456789012345678901234567890123'",
        "\"auth\": \"dXNlcjpwYXNzd29yZA==\"",
        // awscli's and botocore's examples: resource names and page tokens.
        "    \"encryptionKey\": \"arn:aws:kms:us-west-2:111122223333:key/a1b2c3d4-5678-90ab\",",
        "    \"NextToken\": \"eyJNYXJrZXIiOiBudWxsLCAiYm90b190cnVuY2F0ZV9hbW91bnQiOiAyfQ3x\",",
        "    \"ChangeToken\": \"abcd12f2-46da-4fdb-b8d5-fbd4c466928f\",",
    ];
    for line in lines {
        assert!(
            found(line).is_empty(),
            "flagged: {line:?}: {:?}",
            found(line)
        );
    }
}

#[test]
fn the_secret_is_never_shown_in_full() {
    let key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let hits = scan(key);
    assert_eq!(hits.len(), 1);
    assert!(!hits[0].masked.contains(key));
    assert_eq!(hits[0].masked, "ghp_…(40 chars)");
    assert!(!format!("{:?}", hits[0]).contains(key), "Debug leaks it");
    let hits = scan("password = \"hU8#kq2LmZ9pXv\"");
    assert_eq!(hits[0].masked, "password = hU…(14 chars)");
}

#[test]
fn one_secret_matched_by_two_rules_is_one_finding() {
    let hits = found("TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"");
    assert_eq!(hits, [(1, "github-token".to_string())]);
    let text = format!("auth_token = \"{}\"", long_jwt());
    assert_eq!(found(&text), [(1, "jwt".to_string())]);
}

#[test]
fn a_huge_line_is_scanned_in_linear_time() {
    // Not timed: a quadratic scan of 4 MB would not finish in the test
    // run, a linear one is instant.
    let line = "a=\"=:".repeat(1 << 18);
    assert!(scan(&line).is_empty());
    let line = "token=\"".repeat(1 << 17);
    assert!(scan(&line).is_empty());
    // The second round's shapes on adversarial input: keywords repeated
    // on one line, and a megabyte of full-width base64 lines.
    for piece in [
        "authorization: basic ",
        ";password=",
        "?sv=2020-01-01&sig=",
        "\"auth\":\"",
        "redis://:",
        "db_pass=",
        "x-api-key: ",
    ] {
        let line = piece.repeat((1 << 20) / piece.len());
        assert!(scan(&line).is_empty(), "{piece}");
    }
    let block = format!("{}\n", "QUJD".repeat(16)).repeat(1 << 14);
    assert!(scan(&block).is_empty(), "one repeated line is no key");
}

#[test]
fn the_line_of_a_view_is_located_in_its_source() {
    let source = "import os\n\ndef f():\n    return 1\n\nTOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n";
    let view =
        "import os\n\ndef f(): ...\n\nTOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n";
    let hit = &scan(view)[0];
    assert_eq!(hit.line, 5);
    assert_eq!(Locator::new(source).line_of(view, hit), Some(6));
    // A secret the source lacks is not located.
    assert_eq!(Locator::new("x = 1\n").line_of(view, hit), None);
    // Two equal lines are claimed in turn.
    let twice = format!("{view}{view}");
    let source_twice = format!("{source}{source}");
    let mut locator = Locator::new(&source_twice);
    let lines: Vec<Option<usize>> = scan(&twice)
        .iter()
        .map(|h| locator.line_of(&twice, h))
        .collect();
    assert_eq!(lines, [Some(6), Some(12)]);
}

#[test]
fn sections_of_the_output_are_named() {
    let text = "## Files\n\n### a.py\n\nx\n\n## Discussion History\n\n### Discussion Excerpt 1\n\nUser: hi\n";
    let names: Vec<String> = section_starts(text).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["## Files", "## Discussion History"]);
    let xml = "<documents>\n</documents>\n<discussion>\n<message index=\"1\" role=\"User\">\nhi\n";
    let names: Vec<String> = section_starts(xml).into_iter().map(|(_, n)| n).collect();
    assert_eq!(names, ["<documents>", "<discussion>", "<message>"]);
    assert_eq!(unescape_xml("a&lt;b&amp;c"), "a<b&c");
}

/// A secret in a part no other scan covers (a file name in a heading) is
/// reported from the output, under its section.
#[test]
fn the_whole_output_is_scanned_last() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "ghp_abcdefghijklmnopqrstuvwxyz0123456789.txt";
    std::fs::write(dir.path().join(name), "hello\n").expect("write");
    let preset = Preset {
        files: vec![crate::core::model::FileItem::new(name)],
        ..Preset::default()
    };
    let opts = crate::core::compose::ComposeOptions::from_settings(&Default::default());
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let c = crate::core::compose::compose_with(&codebase, &preset, &opts);
    let findings = Scanner::new(&codebase).composition(&c, &preset, opts.max_messages);
    let places: Vec<String> = findings.iter().map(|f| f.place.to_string()).collect();
    // First seen in the directory tree, before its heading under `## Files`.
    assert_eq!(places, ["context line 4 (## Directory Tree)"]);
}

/// A view that rewrote the secret's line (an external summary) and a
/// source that lacks it: the finding names the view's line and mode.
#[test]
fn a_secret_only_in_the_view_names_the_view() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("notes.md"), "# Notes\n\nNothing here.\n").expect("write");
    let file = RenderedFile {
        path: "notes.md".into(),
        mode: ViewMode::Summary,
        text: "Notes.\nThe summarizer said: ghp_abcdefghijklmnopqrstuvwxyz0123456789\n".into(),
        error: None,
        skipped: None,
        notes: Vec::new(),
        aggregate: true,
        key: String::new(),
        body_at: None,
    };
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let findings = Scanner::new(&codebase).file(&file);
    let shown: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    assert_eq!(
        shown,
        ["notes.md (line 2 of the summary view): GitHub token ghp_…(40 chars)"]
    );
}

/// The last pass reads only what the per-file scans did not: the file
/// bodies (verbatim in the output) are skipped but for a few lines at
/// their edges, and a secret after a long body still gets its line of
/// the whole output.
#[test]
fn the_output_is_scanned_around_the_bodies_not_through_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut body = String::new();
    for i in 0..400 {
        body.push_str(&format!("value_{i} = {i}\n"));
    }
    body.push_str("token = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n");
    for i in 0..400 {
        body.push_str(&format!("other_{i} = {i}\n"));
    }
    std::fs::write(dir.path().join("a.py"), &body).expect("write");
    let name = "glpat-abcdefghij0123456789.txt";
    std::fs::write(dir.path().join(name), "hello\n").expect("write");
    let preset = Preset {
        files: vec![
            crate::core::model::FileItem::new("a.py"),
            crate::core::model::FileItem::new(name),
        ],
        ..Preset::default()
    };
    let settings = crate::core::model::Settings {
        tree: crate::core::model::TreeMode::None,
        ..Default::default()
    };
    let opts = crate::core::compose::ComposeOptions::from_settings(&settings);
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let c = crate::core::compose::compose_with(&codebase, &preset, &opts);
    let scanner = Scanner::new(&codebase);
    let parts = scanner.uncovered(&c.text, &c.files, &HashSet::new());
    let covered: usize = parts.iter().map(|r| r.len()).sum();
    assert!(
        covered * 4 < c.text.len(),
        "the body is read once: {covered} of {} bytes again",
        c.text.len()
    );
    let findings = scanner.composition(&c, &preset, opts.max_messages);
    let places: Vec<String> = findings.iter().map(|f| f.place.to_string()).collect();
    let heading = c
        .text
        .lines()
        .position(|l| l.starts_with("### glpat-"))
        .expect("the second file's heading")
        + 1;
    assert_eq!(
        places,
        [
            "a.py:401".to_string(),
            format!("context line {heading} (## Files)")
        ]
    );
}

/// A build scans the files, then assembles the text as it lets their
/// bodies go: the same findings at the same places as a whole
/// composition's scan, and the bodies are still not read twice. A
/// released composition scanned as a whole (its bodies never scanned)
/// trusts none of its body places: the secret is found in the text.
#[test]
fn files_first_then_the_text_without_their_bodies() {
    use crate::core::compose::{self, Bodies};
    let dir = tempfile::tempdir().expect("tempdir");
    let mut body = "value = 1\n".repeat(300);
    body.push_str("token = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\"\n");
    body.push_str(&"other = 2\n".repeat(300));
    std::fs::write(dir.path().join("a.py"), &body).expect("write");
    let name = "glpat-abcdefghij0123456789.txt";
    std::fs::write(dir.path().join(name), "hello\n").expect("write");
    let preset = Preset {
        files: vec![
            crate::core::model::FileItem::new("a.py"),
            crate::core::model::FileItem::new(name),
        ],
        task: "deploy with xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx".into(),
        ..Preset::default()
    };
    for format in [
        crate::core::model::Format::Markdown,
        crate::core::model::Format::Xml,
    ] {
        let mut opts = compose::ComposeOptions::from_settings(&Default::default());
        opts.format = format;
        let sources = Sources::new();
        let codebase = Codebase::new(dir.path(), &sources);
        let whole = compose::compose_with(&codebase, &preset, &opts);
        let scanner = Scanner::new(&codebase);
        let want = scanner.composition(&whole, &preset, opts.max_messages);
        assert_eq!(want.len(), 3, "{format:?}: {want:?}");

        let parts = compose::render_parts(&codebase, &preset, &opts, |_, _, _| {
            compose::MapPart::default()
        });
        let in_files = scanner.files(&parts.files);
        let released = parts.assemble(&preset, &opts, Bodies::Release);
        assert_eq!(released.text, whole.text, "{format:?}");
        assert!(
            released.files.iter().all(|f| f.text.is_empty()),
            "{format:?}"
        );
        let scanned: HashSet<String> = ["a.py".to_string(), name.to_string()].into();
        let read: usize = scanner
            .uncovered(&released.text, &released.files, &scanned)
            .iter()
            .map(|r| r.len())
            .sum();
        assert!(
            read * 4 < released.text.len(),
            "{format:?}: {read} bytes read again"
        );
        let got = scanner.composition_after(in_files, &released, &preset, opts.max_messages);
        assert_eq!(got, want, "{format:?}");

        let blind = scanner.composition(&released, &preset, opts.max_messages);
        assert_eq!(blind.len(), 3, "{format:?}: {blind:?}");
        assert!(
            blind
                .iter()
                .all(|f| matches!(f.place, Place::Output { .. })),
            "{format:?}: {blind:?}"
        );
    }
}

/// A key file named in a preset is one finding: the last pass reads the
/// edges of its body again (without its `BEGIN` line at the far edge) and
/// must not report the body's tail as a second, headless key.
#[test]
fn a_key_file_is_one_finding() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let b64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut key = String::from("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA");
    for i in 16..25 * 64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        key.push(b64[(x % 64) as usize] as char);
        if (i + 1) % 64 == 0 {
            key.push('\n');
        }
    }
    key.push_str("-----END RSA PRIVATE KEY-----\n");
    std::fs::write(dir.path().join("deploy.key"), &key).expect("write");
    std::fs::write(dir.path().join("a.py"), "x = 1\n").expect("write");
    let preset = Preset {
        files: ["deploy.key", "a.py"]
            .map(crate::core::model::FileItem::new)
            .to_vec(),
        ..Preset::default()
    };
    // The user's own preset: the key file is read (`trust::entries`).
    let opts = crate::core::compose::ComposeOptions {
        consent: crate::core::trust::entries::EntryConsent::own(),
        ..crate::core::compose::ComposeOptions::from_settings(&Default::default())
    };
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let c = crate::core::compose::compose_with(&codebase, &preset, &opts);
    assert!(c.text.contains(&key), "the key is in the context verbatim");
    let findings = Scanner::new(&codebase).composition(&c, &preset, opts.max_messages);
    let shown: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    assert_eq!(shown, ["deploy.key:1: private key MIIE…(64 chars)"]);
}

/// Round 3's config-value shapes and round 2's last planted shapes: each
/// found, by the rule named. Built from parts so no line of this file is
/// a secret a scanner of this repository would flag.
#[test]
fn round_three_shapes_are_found() {
    let hex32 = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    let age_body: String = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
        .chars()
        .cycle()
        .skip(5)
        .step_by(3)
        .take(58)
        .collect();
    let cases: Vec<(String, &str, usize)> = vec![
        // docker-compose's list form.
        (
            "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=Zq8vN2xR7kLp4s\n".into(),
            "secret-config-value",
            4,
        ),
        // A `#` inside an unquoted YAML value is no comment.
        (
            "db_password: Zq8v#N2xR7kLp\n".into(),
            "secret-config-value",
            1,
        ),
        // One `-`, `+` or `/` inside a value is no expression.
        ("DB_PASSWORD=Xk9-mP2q7Lz\n".into(), "secret-config-value", 1),
        ("API_TOKEN=Xk9+mP2q7Lz\n".into(), "secret-config-value", 1),
        ("app_secret: Xk9/mP2q7Lz\n".into(), "secret-config-value", 1),
        // npm's legacy and UUID credentials.
        (
            "registry=https://registry.npmjs.org/\n_auth=ZGVwbG95OlpxOHZOMnhSN2s=\n".into(),
            "npmrc-auth",
            2,
        ),
        (
            "//npm.example.com/:_password=WnE4dk4yeFI3aw==\n".into(),
            "npmrc-auth",
            1,
        ),
        (
            "//registry.npmjs.org/:_authToken=5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81\n".into(),
            "npmrc-auth",
            1,
        ),
        // Round 2's remaining shapes.
        (
            format!("# created: 2024\nAGE-SECRET-KEY-1{age_body}\n"),
            "age-secret-key",
            2,
        ),
        (
            format!(
                "client.run(\"{}.GhJk3L.{}\")\n",
                "MTA4NjE2NTY2NjE4MDUzNjM4Mg", "Zq8vN2xR7kLp4sWt9bYcQ3mJ5hF1dEa"
            ),
            "discord-bot-token",
            1,
        ),
        (format!("MAILGUN_KEY = \"key-{hex32}\"\n"), "mailgun-key", 1),
        (
            "HEROKU_API_KEY=5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81\n".into(),
            "heroku-key",
            1,
        ),
        (
            "heroku config --api-key 5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81\n".into(),
            "heroku-key",
            1,
        ),
        (
            format!(
                "SENTRY_DSN = \"https://{hex32}:{}@o1.ingest.sentry.io/42\"\n",
                "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
            ),
            "url-password",
            1,
        ),
        (
            "db.internal:5432:app:admin:Zq8vN2xR7kLp\n".into(),
            "pgpass-password",
            1,
        ),
        (
            "mysql -u root -pZq8vN2xR7k app < dump.sql\n".into(),
            "cli-password",
            1,
        ),
        (
            "sshpass -p 'Zq8vN2xR7k' ssh deploy@host\n".into(),
            "cli-password",
            1,
        ),
        (
            "curl -u admin:Zq8vN2xR7k https://api.example.com/v1\n".into(),
            "cli-password",
            1,
        ),
        (
            "aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8vN2xR7k\n"
                .into(),
            "aws-secret-key",
            1,
        ),
    ];
    let mut wrong = Vec::new();
    for (text, rule, line) in &cases {
        let got = found(text);
        if got != [(*line, rule.to_string())] {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the round-3 rules must leave alone: expressions and words in
/// config-like lines, CLI lines naming a variable, UUIDs that are ids.
#[test]
fn round_three_near_misses_are_not_flagged() {
    let lines = [
        "token: self.tokenValue+1",
        "PASSWORD_MIN_LENGTH=8",
        "secret_key: base_dir/key2",
        "mysql -u root -p\"$MYSQL_PASSWORD\" app",
        "mysql -u root -p app",
        "sshpass -p \"$PASS\" ssh host",
        "curl -u \"$USER:$TOKEN\" https://example.com",
        "curl -u admin: https://example.com",
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
        "request_id = 5f3e9a2c-8b1d-4e7f-a6c3-0d9b2e4f7a81",
        "a:1:b:c:d",
        "#define KEY_MAX 0x1ff",
    ];
    for line in lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Standard base64 (with padding) of `bytes`, for the encoded shapes.
pub(super) fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Shapes still passing in round four (issue 37's re-check): a compose
/// list entry or flow list quoted whole, `docker run -e "NAME=value"`,
/// Mailgun's current key format, and the base64 of a key file whose
/// `BEGIN` line is not its first (what `openssl pkcs12` writes).
#[test]
fn round_four_shapes_are_found() {
    let value = "Zq8vN2xR7kLp4s";
    let hex32 = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    let body = "MIIEpAIBAAKCAQEAx7Lq9dV2mN8pYzW4kB7vQ2rT5sL9dF3gH6jK1cV0bX8nE\n";
    let key = format!(
        "Bag Attributes\n    localKeyID: 01 00 00 00\n-----BEGIN {} KEY-----\n{}-----END {} KEY-----\n",
        "PRIVATE",
        body.repeat(12),
        "PRIVATE"
    );
    let cases: Vec<(String, &str, usize)> = vec![
        (
            format!(
                "services:\n  db:\n    environment:\n      - \"MYSQL_ROOT_PASSWORD={value}\"\n"
            ),
            "secret-assignment",
            4,
        ),
        (
            format!("    environment:\n      - 'POSTGRES_PASSWORD={value}'\n"),
            "secret-assignment",
            2,
        ),
        (
            format!("    environment: [ \"POSTGRES_PASSWORD={value}\", \"TZ=UTC\" ]\n"),
            "secret-assignment",
            1,
        ),
        (
            format!("docker run -e \"DB_PASSWORD={value}\" app\n"),
            "secret-assignment",
            1,
        ),
        (
            format!("auth=(\"api\", \"{hex32}-0a1b2c3d-4e5f6a7b\")\n"),
            "mailgun-key",
            1,
        ),
        (
            format!("data:\n  tls.key: {}\n", base64(key.as_bytes())),
            "base64-private-key",
            2,
        ),
        (
            format!(
                "data:\n  tls.key: {}\n",
                base64(format!("\n{key}").as_bytes())
            ),
            "base64-private-key",
            2,
        ),
        // Wrapped at 76 columns: the BEGIN line ends the first line, cut.
        (
            format!(
                "data:\n  tls.key: |\n{}",
                base64(key.as_bytes())
                    .as_bytes()
                    .chunks(76)
                    .map(|c| format!("    {}\n", String::from_utf8_lossy(c)))
                    .collect::<String>()
            ),
            "base64-private-key",
            3,
        ),
    ];
    let mut wrong = Vec::new();
    for (text, rule, line) in &cases {
        let got = found(text);
        if got != [(*line, rule.to_string())] {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the round-four rules must leave alone: a quoted assignment of a
/// variable or a word, a UUID-like id with other groups, the base64 of a
/// certificate after a comment line.
#[test]
fn round_four_near_misses_are_not_flagged() {
    let cert = format!(
        "subject=CN = example\n-----BEGIN CERTIFICATE-----\n{}-----END CERTIFICATE-----\n",
        "MIIC8jCCAdqgAwIBAgIIcFq9dV2mN8pYzW4kB7vQ2rT5sL9dF3gH6jK1cV0bX8n\n".repeat(8)
    );
    let lines = [
        "      - \"POSTGRES_PASSWORD=${POSTGRES_PASSWORD}\"".to_string(),
        "      - \"POSTGRES_PASSWORD_FILE=/run/secrets/db_password\"".to_string(),
        "      - 'DB_PASSWORD=changeme'".to_string(),
        "id = \"9f8e7d6c5b4a39281706f5e4d3c2b1a0-0a1b2c3d\"".to_string(),
        format!("data:\n  tls.crt: {}", base64(cert.as_bytes())),
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Shapes still passing in round five (issue 37's third re-attack): a
/// `.dockerconfigjson` wrapped over a block scalar's lines or written
/// with spaces (`{ "auths"`), a key file base64-encoded twice, YAML flow
/// collections with a bare value, a Dockerfile's `ENV`/`ARG`, name and
/// value pairs (Kubernetes, ECS), XML settings, a command line's password
/// in an exec list or for redis/htpasswd/psql, Mailgun's older keys.
#[test]
fn round_five_shapes_are_found() {
    let value = "Zq8vN2xR7kLp4s";
    let auth = base64(format!("deploy:{value}").as_bytes());
    let login = format!("{{\"auths\":{{\"registry.example.com\":{{\"auth\":\"{auth}\"}}}}}}");
    let wrapped = |text: &str, width: usize| -> String {
        base64(text.as_bytes())
            .as_bytes()
            .chunks(width)
            .map(|c| format!("    {}\n", String::from_utf8_lossy(c)))
            .collect()
    };
    let body = "MIIEpAIBAAKCAQEAx7Lq9dV2mN8pYzW4kB7vQ2rT5sL9dF3gH6jK1cV0bX8nE\n";
    let key = format!(
        "-----BEGIN {} KEY-----\n{}-----END {} KEY-----\n",
        "PRIVATE",
        body.repeat(12),
        "PRIVATE"
    );
    let cases: Vec<(String, &str, usize)> = vec![
        (
            format!("data:\n  .dockerconfigjson: |\n{}", wrapped(&login, 40)),
            "base64-credentials",
            3,
        ),
        (
            format!("data:\n  .dockerconfigjson: >-\n{}", wrapped(&login, 76)),
            "base64-credentials",
            3,
        ),
        (
            format!(
                "  .dockerconfigjson: {}\n",
                base64(
                    format!("{{ \"auths\": {{ \"r.io\": {{ \"auth\": \"{auth}\" }} }} }}")
                        .as_bytes()
                )
            ),
            "base64-credentials",
            1,
        ),
        (
            format!(
                "  .dockerconfigjson: {}\n",
                base64(
                    format!("{{\r\n  \"auths\": {{\"r.io\": {{\"auth\": \"{auth}\"}}}}}}")
                        .as_bytes()
                )
            ),
            "base64-credentials",
            1,
        ),
        (
            format!("  tls.key: {}\n", base64(base64(key.as_bytes()).as_bytes())),
            "base64-credentials",
            1,
        ),
        (
            format!("    environment: [POSTGRES_PASSWORD={value}, TZ=UTC]\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("    environment: {{POSTGRES_PASSWORD: {value}, TZ: UTC}}\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("FROM alpine\nENV DB_PASSWORD={value}\n"),
            "secret-structured-value",
            2,
        ),
        (
            format!("ENV DB_PASSWORD {value}\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("ENV TZ=UTC API_TOKEN={value} X=1\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("ARG SIGNING_KEY={value}\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("env:\n  - name: DB_PASSWORD\n    value: {value}\n"),
            "secret-structured-value",
            2,
        ),
        (
            format!("env:\n- name: \"API_KEY\"\n  value: \"{value}\"\n"),
            "secret-structured-value",
            2,
        ),
        (
            format!(
                "\"environment\": [\n  {{\n    \"name\": \"DB_PASSWORD\",\n    \"value\": \"{value}\"\n  }}\n]\n"
            ),
            "secret-structured-value",
            3,
        ),
        (
            format!("[{{\"name\": \"DB_PASSWORD\", \"value\": \"{value}\"}}]\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("<server>\n  <password>{value}</password>\n</server>\n"),
            "secret-structured-value",
            2,
        ),
        (
            format!("<add key=\"DbPassword\" value=\"{value}\" />\n"),
            "secret-structured-value",
            1,
        ),
        (
            format!("      test: [\"CMD\", \"mysqladmin\", \"ping\", \"-uroot\", \"-p{value}\"]\n"),
            "cli-password",
            1,
        ),
        (
            format!("subprocess.run(['curl', '-u', 'admin:{value}', url])\n"),
            "cli-password",
            1,
        ),
        (
            format!("    command: redis-server --appendonly yes --requirepass {value}\n"),
            "cli-password",
            1,
        ),
        (
            format!("redis-cli -h cache -a {value} ping\n"),
            "cli-password",
            1,
        ),
        (
            format!("htpasswd -b -c /etc/nginx/.htpasswd admin {value}\n"),
            "cli-password",
            1,
        ),
        (
            format!("PGPASSWORD={value} psql -h db -U app\n"),
            "cli-password",
            1,
        ),
        (
            "mg = Mailgun('key-3ax6xnjp29jd6fds4gc373sgvjxteol0')\n".to_string(),
            "mailgun-key",
            1,
        ),
    ];
    let mut wrong = Vec::new();
    for (text, rule, line) in &cases {
        let got = found(text);
        if got != [(*line, rule.to_string())] {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the round-five rules must leave alone: code that passes a
/// variable, a flow list of references, a Dockerfile `ARG` without a
/// value or from the build, a name and value pair read from a secret,
/// XML naming a setting, a password prompt, base64 lines after a login
/// that are another value.
#[test]
fn round_five_near_misses_are_not_flagged() {
    let lines = [
        "    const client = new Client({ token: token2, retries: 3 });",
        "  login({password: hashedPassword, user})",
        "    environment: [POSTGRES_PASSWORD=${POSTGRES_PASSWORD}, TZ=UTC]",
        "    environment: {POSTGRES_PASSWORD_FILE: /run/secrets/db_password}",
        "ARG NPM_TOKEN",
        "ENV NPM_TOKEN=${NPM_TOKEN}",
        "ENV PASSWORD_FILE /run/secrets/pw",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db",
        "  - name: DB_PASSWORD\n    value: changeme",
        "<password>${env.DB_PASSWORD}</password>",
        "<passwordEncoder>bcrypt</passwordEncoder>",
        "mysql -u root -p app < dump.sql",
        "redis-cli -a \"$REDIS_PASSWORD\" ping",
        "PGPASSWORD=$PGPASS psql -h db",
        "htpasswd -c /etc/nginx/.htpasswd admin",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Round eight's command-line shapes (issue 37, a fresh re-attack): a
/// password option of any program, spaced or with `=`, also in an exec
/// list; `docker login -p`, `sqlcmd -P`, `ldapsearch -w`, keytool's
/// `-storepass`, openssl's `-pass pass:`, `docker run -e …PASSWORD=`.
#[test]
fn round_eight_password_options_are_found() {
    let value = "Xk9vQ2mLr7TzWq4N";
    let cases = [
        format!("docker login -u deploy -p {value} registry.example.com\n"),
        format!("mysql -u root --password {value} app\n"),
        format!("wget --user=deploy --password={value} https://example.com/a\n"),
        format!("pg_dumpall --db-password {value}\n"),
        format!("  args: [\"--password\", \"{value}\"]\n"),
        format!("sqlcmd -S db -U sa -P {value} -Q 'select 1'\n"),
        format!("ldapsearch -x -D cn=admin,dc=example -w {value} -b dc=example\n"),
        format!("keytool -list -keystore app.jks -storepass {value}\n"),
        format!("openssl pkcs12 -in a.p12 -passin pass:{value} -nodes\n"),
        format!("docker run -d -e MYSQL_ROOT_PASSWORD={value} mysql:8\n"),
    ];
    let mut wrong = Vec::new();
    for text in &cases {
        let got = found(text);
        if got.len() != 1 || got[0].0 != 1 {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the round-eight rule leaves alone: an option declared, read
/// from a variable or stdin, a placeholder, a prompt, a port.
#[test]
fn round_eight_near_misses_are_not_flagged() {
    let lines = [
        "parser.add_argument('--password', help='the password to use')",
        "parser.add_argument(\"--password\", default=None, dest=\"pw\")",
        "echo \"$PW\" | docker login -u deploy --password-stdin registry.example.com",
        "mysql -u root --password \"$DB_PASSWORD\" app",
        "cmd = f\"mysql --password={password} app\"",
        "cmd = \"mysql --password=%s app\" % pw",
        "  --password <PASSWORD>   the password",
        "sqlcmd -S db -U sa -P \"$SA_PASSWORD\"",
        "ldapsearch -x -W -b dc=example",
        "keytool -list -storepass:env STOREPASS",
        "openssl pkcs12 -in a.p12 -passin env:P12_PASS",
        "docker run -e MYSQL_ROOT_PASSWORD -p 3306:3306 mysql:8",
        "mysql -h db -P 3306 -u app",
        "      --pass-through-headers enabled",
        "        --username and --password options instead of via the URL.",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Round eight: a secret passed as a call's arguments (`define`,
/// `Setenv`, `setProperty`), a login call's password, SQL's
/// `IDENTIFIED BY` and `WITH PASSWORD`, redis.conf's `requirepass`.
#[test]
fn round_eight_secret_arguments_are_found() {
    let value = "Xk9vQ2mLr7TzWq4N";
    let cases = [
        format!("define( 'DB_PASSWORD', '{value}' );\n"),
        format!("os.environ.setdefault(\"DB_PASSWORD\", \"{value}\")\n"),
        format!("props.setProperty(\"password\", \"{value}\");\n"),
        format!("os.Setenv(\"API_TOKEN\", \"{value}\")\n"),
        format!("smtp.login('me@example.com', '{value}')\n"),
        format!("var cred = new NetworkCredential(\"admin\", \"{value}\");\n"),
        format!("CREATE USER app IDENTIFIED BY '{value}';\n"),
        format!("ALTER USER postgres WITH PASSWORD '{value}';\n"),
        format!("requirepass {value}\n"),
    ];
    let mut wrong = Vec::new();
    for text in &cases {
        let got = found(text);
        if got.len() != 1 || got[0].0 != 1 {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the argument rule leaves alone: a name and a lookup default or a
/// label, a variable passed, a placeholder in SQL, a commented setting.
#[test]
fn round_eight_argument_near_misses_are_not_flagged() {
    let lines = [
        "fields = ('username', 'password')",
        "os.environ.get(\"DB_PASSWORD\", \"\")",
        "getattr(settings, 'SECRET_KEY', None)",
        "labels = {'password': 'Password', 'token': 'API token'}",
        "self.assertEqual(form.errors['password'], ['This field is required.'])",
        "smtp.login(user, password)",
        "CREATE USER app IDENTIFIED BY '${DB_PASSWORD}';",
        "ALTER USER postgres WITH PASSWORD :'pw';",
        "# requirepass foobared",
        "define('AUTH_KEY', 'put your unique phrase here');",
        "    for name in (\"symbol2number\", \"tokens\", \"symbol2label\"):",
        "    (None, 'joe', 'password', 'proxy.example.com:3128')),",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// Round eight: a default assigned only when unset (`||=` in Ruby and
/// JavaScript, `??=` in JavaScript, PHP and C#) is assigned all the same.
#[test]
fn round_eight_defaulting_assignments_are_found() {
    let value = "Xk9vQ2mLr7TzWq4N";
    for text in [
        format!("ENV['DB_PASSWORD'] ||= '{value}'\n"),
        format!("config.apiToken ??= \"{value}\";\n"),
        format!("$settings['db_password'] ??= '{value}';\n"),
    ] {
        assert_eq!(
            found(&text),
            [(1, "secret-assignment".to_string())],
            "{text:?}"
        );
    }
    assert!(found("options.password ||= prompt('Password: ')").is_empty());
}

/// Round nine: passwords that command lines, build scripts and code pass
/// in shapes of their own: smbclient's `-U user%PASS`, openssl's `-k
/// PASS`, rclone's `secret_access_key`, Windows' `setx`, a Gradle
/// `credentials` block's `password 'PASS'`, requests' `auth=('user',
/// 'PASS')`, `echo PASS | sudo -S`, PowerShell's `ConvertTo-SecureString
/// 'PASS' -AsPlainText`, configparser's `config.set(section, 'password',
/// 'PASS')`.
#[test]
fn round_nine_secret_shapes_are_found() {
    let value = "Xk9vQ2mLr7TzWq4N";
    let aws = "Zq8lm3xv9kp2rt7w/Hj4Kd+9sLp0Qm3Xv7Rt2YbN";
    let cases = [
        format!("smbclient //fs01/backup -U deploy%{value} -c 'ls'\n"),
        format!("smbclient -L fs01 --user=CORP\\\\deploy%{value}\n"),
        format!("rpcclient -U 'admin%{value}' 10.0.0.5\n"),
        format!("openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -k {value}\n"),
        format!("openssl enc -d -aes-256-cbc -k \"{value}\" -in a.enc\n"),
        format!(
            "[backup]\ntype = s3\nprovider = AWS\naccess_key_id = deploy\nsecret_access_key = {aws}\n"
        ),
        format!("rclone config create backup s3 access_key_id deploy secret_access_key {aws}\n"),
        format!("rclone config create backup s3 access_key_id=deploy secret_access_key={aws}\n"),
        format!("rclone config create backup s3 secret_access_key {value}\n"),
        format!("rclone sync . remote:b --s3-secret-access-key {value}\n"),
        format!("secret_access_key = {value}\n"),
        format!("setx API_KEY {value}\n"),
        format!("setx DB_PASSWORD \"{value}\" /M\n"),
        format!(
            "    credentials {{\n        username 'deploy'\n        password '{value}'\n    }}\n"
        ),
        format!("        storePassword \"{value}\"\n"),
        format!("r = requests.get(url, auth=('deploy', '{value}'))\n"),
        format!("session.auth = (\"deploy\", \"{value}\")\n"),
        format!("r = requests.get(url, auth=HTTPBasicAuth('deploy', '{value}'))\n"),
        format!("echo {value} | sudo -S apt-get update\n"),
        format!("echo \"{value}\" | sudo -S -k systemctl restart app\n"),
        format!("$pw = ConvertTo-SecureString '{value}' -AsPlainText -Force\n"),
        format!("$pw = ConvertTo-SecureString -String \"{value}\" -AsPlainText -Force\n"),
        format!("config.set('database', 'password', '{value}')\n"),
        format!("parser.set(\"db\", \"api_token\", \"{value}\")\n"),
    ];
    let mut wrong = Vec::new();
    for text in &cases {
        let got = found(text);
        let line = text.lines().count().min(
            text.lines()
                .position(|l| l.contains(value) || l.contains(aws))
                .map_or(0, |i| i + 1),
        );
        if got.len() != 1 || got[0].0 != line {
            wrong.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What the round-nine rules leave alone: the same commands with the
/// password read from a variable, a file or a prompt, a user without a
/// password, curl's `-k` (insecure, no key), `setx` of a path, a Gradle
/// password from a property, a placeholder.
#[test]
fn round_nine_near_misses_are_not_flagged() {
    let lines = [
        "smbclient //fs01/backup -U deploy -c 'ls'",
        "smbclient //fs01/backup -U \"$SMB_USER%$SMB_PASS\"",
        "smbclient -N -L fs01",
        "date +%Y-%m-%d -u",
        "openssl enc -aes-256-cbc -kfile key.txt -in a -out a.enc",
        "openssl enc -aes-256-cbc -k \"$KEY\" -in a -out a.enc",
        "openssl s_client -connect example.com:443 -key client.key",
        "curl -k https://example.com/status",
        "secret_access_key = ",
        "rclone config create backup s3 env_auth true",
        "setx PATH \"%PATH%;C:\\tools\\bin\"",
        "setx API_KEY %API_KEY%",
        "setx JAVA_HOME \"C:\\Program Files\\Java\\jdk-17\"",
        "        password project.findProperty('repoPassword')",
        "        password System.getenv(\"REPO_PASSWORD\")",
        "        password \"$repoPassword\"",
        "        password 'password'",
        "        password 'changeme'",
        "r = requests.get(url, auth=('deploy', password))",
        "r = requests.get(url, auth=(user, pw))",
        "session.auth = ('user', 'pass')",
        "r = requests.get(url, auth=HTTPBasicAuth(user, os.environ['PW']))",
        "echo \"$PASSWORD\" | sudo -S true",
        "echo 3 | sudo tee /proc/sys/vm/drop_caches",
        "cat pw.txt | sudo -S true",
        "$pw = ConvertTo-SecureString $env:DEPLOY_PW -AsPlainText -Force",
        "$pw = Read-Host -AsSecureString",
        "$pw = ConvertTo-SecureString $plain -AsPlainText -Force",
        "config.set('database', 'password', password)",
        "config.set('database', 'host', 'db.example.com')",
        "config.set('database', 'password', '')",
        "config.set('section', 'password', 'secret')",
        "    for name in (\"symbol2number\", \"tokens\", \"symbol2label\"):",
        "rclone config create backup s3 env_auth true secret_access_key $AWS_SECRET",
        "rclone sync . remote:b --s3-secret-access-key \"$AWS_SECRET_ACCESS_KEY\"",
        "  --s3-secret-access-key string   AWS Secret Access Key (password)",
    ];
    for line in &lines {
        assert!(found(line).is_empty(), "{line:?}: {:?}", found(line));
    }
}

/// The round-nine rules on adversarial lines: their keywords and
/// openings repeated over a megabyte with no value to end them (each
/// run of a lazy `(?:[ \t]+word)*?` could rescan the rest of the line).
/// Not timed: a quadratic scan would not finish in the test run.
#[test]
fn round_nine_rules_stay_linear_on_a_huge_line() {
    for piece in [
        "smbclient -U a ",
        "smbclient x ",
        "openssl -k ",
        "openssl x ",
        "echo x | sudo -",
        "echo x ",
        "setx /M a ",
        "rclone config create x ",
        "ConvertTo-SecureString 'x' ",
        "auth=('a', ",
        "BasicAuth(\"a\", ",
        "config.set('a', ",
        "('password', ",
    ] {
        let line = piece.repeat((1 << 20) / piece.len());
        let started = std::time::Instant::now();
        let hits = scan(&line);
        eprintln!("{piece:?}: {:?}, {} hits", started.elapsed(), hits.len());
        assert!(hits.is_empty(), "{piece}: {hits:?}");
    }
    let lines = "        password 'x'\n".repeat(1 << 16);
    assert!(scan(&lines).is_empty());
}

/// Tens of thousands of hits on one minified line are kept in
/// `n log n`: the overlap check compared each hit with every hit kept on
/// its line before (100,000 took 55 s in a debug build; now 5.5 s).
#[test]
fn a_hundred_thousand_hits_on_one_line_are_kept_quickly() {
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let line = format!("{token}, ").repeat(100_000);
    let started = std::time::Instant::now();
    let hits = scan(&line);
    eprintln!("{} hits in {:?}", hits.len(), started.elapsed());
    assert_eq!(hits.len(), 100_000);
    assert!(
        hits.iter()
            .all(|h| &*h.rule == "github-token" && h.line == 1)
    );
}

mod false_alarms;
mod round_eighteen;
mod round_eighteen_b;
mod round_eleven;
mod round_fifteen;
mod round_fifteen_b;
mod round_fourteen;
mod round_nineteen;
mod round_seventeen;
mod round_sixteen;
mod round_sixteen_b;
mod round_thirteen;
mod round_twelve;
mod round_twenty;
mod round_twenty_five;
mod round_twenty_four;
mod round_twenty_one;
mod round_twenty_three;
mod round_twenty_two;
mod shown;
