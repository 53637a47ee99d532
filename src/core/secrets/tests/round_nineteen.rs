//! Round 19 of the secret shapes (issue 37, items left by round 18b):
//! archives in byte arrays that cannot be read whole are refused as not
//! fully checked, as base64 ones are; archives that read whole and hold
//! no secret (a web page gzipped into firmware) stay quiet.

use super::round_eighteen_b::{dec_list, noise, xxd};
use super::round_fifteen::{gzip, tar};
use super::{found, quiet};
use crate::core::secret_scan::test_zip;

const ENV: &[u8] = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";

/// What each text is found as, `(line, rule)` wanted; the misses named.
fn each_found(cases: &[(String, usize, &str)]) {
    let mut missed = Vec::new();
    for (text, line, rule) in cases {
        let got = found(text);
        if got != vec![(*line, rule.to_string())] {
            let head: String = text.chars().take(60).collect();
            missed.push(format!("{head:?}… (want {line} {rule}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 1: a zip cut short, a gzip bomb, a tar holding a zip that cannot
/// be read, an array longer than the scanner keeps holding a gzip stream:
/// each is not fully checked. A key in a gzip stream's second member is
/// found (gzip reads every member; the scanner read the first alone).
#[test]
fn round_nineteen_archives_in_byte_arrays_not_read_whole_are_unchecked() {
    let zip = test_zip(&[("README", b"notes\n", false), (".env", ENV, true)]);
    let cut_zip = zip[..zip.len() - 40].to_vec();
    let bomb = gzip(&vec![0u8; 17 << 20]);
    let tar_of_cut = tar(&[("README", b"notes\n"), ("conf.zip", &cut_zip)]);
    // Random bytes gzip to about their size: past what a run keeps.
    let long_gz = gzip(&noise(31, 300 << 10));
    let two_members = [gzip(b"LOG_LEVEL=info\n"), gzip(ENV)].concat();
    each_found(&[
        (xxd("conf_zip", &cut_zip), 2, "unchecked-byte-array"),
        (xxd("zeros_gz", &bomb), 2, "unchecked-byte-array"),
        (xxd("conf_tar", &tar_of_cut), 2, "unchecked-byte-array"),
        (
            format!(
                "static const uint8_t blob[] = {{{}}};\n",
                dec_list(&long_gz, ",")
            ),
            1,
            "unchecked-byte-array",
        ),
        (xxd("env_gz", &two_members), 2, "byte-array"),
    ]);
}

/// Item 1's near misses: firmware assets that read whole — a gzipped web
/// page (ESP32's `index_html_gz`), one padded with zeros to a block, a
/// zip and a tar of text, a key file's neighbours — stay quiet.
#[test]
fn round_nineteen_readable_archives_in_byte_arrays_stay_quiet() {
    let page = "<!DOCTYPE html><html><head><title>Setup</title></head><body>\
                <form action=\"/save\"><input name=\"ssid\"><input type=\"password\" name=\"pass\">\
                </form></body></html>\n"
        .repeat(20);
    let gz = gzip(page.as_bytes());
    let mut padded = gz.clone();
    padded.resize(gz.len().div_ceil(512) * 512, 0);
    let zip = test_zip(&[
        ("index.html", page.as_bytes(), true),
        ("a.txt", b"hi\n", false),
    ]);
    let tarred = tar(&[
        ("index.html", page.as_bytes()),
        ("logo.gz", &gzip(b"logo\n")),
    ]);
    quiet(&[
        xxd("index_html_gz", &gz),
        xxd("index_html_gz", &padded),
        xxd("site_zip", &zip),
        xxd("site_tar", &tarred),
        xxd("site_tgz", &gzip(&tarred)),
        xxd("set", &noise(32, 600)),
    ]);
}

/// `bytes` as 16- or 32-bit words (`width` 2 or 4), each word's bytes
/// read big-endian (as written: `0x3082` for `30 82`) or little-endian
/// (as the words lie in memory on every common host), padded with zeros.
pub(super) fn words(bytes: &[u8], width: usize, big_endian: bool) -> String {
    let cells: Vec<String> = bytes
        .chunks(width)
        .map(|chunk| {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            let word = &mut word[..width];
            if !big_endian {
                word.reverse();
            }
            let hex: String = word.iter().map(|b| format!("{b:02x}")).collect();
            format!("0x{hex}")
        })
        .collect();
    cells.join(", ")
}

/// `bytes` as octal escapes (`\060\202…`).
fn octal(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\{b:03o}")).collect()
}

/// Item 2: a DER or PEM key as octal escapes (C, Python, Ruby, PHP) and
/// as 16- or 32-bit word arrays in either byte order is found at the
/// line of its first byte.
#[test]
fn round_nineteen_octal_escapes_and_word_arrays_are_found() {
    use super::round_eighteen_b::{pem, pkcs8};
    let der = pkcs8();
    let key = pem(&["PRIVATE", "KEY"].join(" "), &der);
    let oct = octal(&der);
    let (a, z) = oct.split_at(64 * 4);
    let mut cases = vec![
        (format!("static const char key[] = \"{oct}\";\n"), 1),
        (format!("KEY = b'{oct}'\n"), 1),
        (format!("key = \"{oct}\"\n"), 1),
        (format!("$key = \"{oct}\";\n"), 1),
        (
            format!("static const char k[] =\n    \"{a}\"\n    \"{z}\";\n"),
            2,
        ),
        (format!("PEM = \"{}\"\n", octal(key.as_bytes())), 1),
    ];
    for (width, ty) in [(2, "uint16_t"), (4, "uint32_t")] {
        for big in [true, false] {
            cases.push((
                format!(
                    "static const {ty} k[] = {{\n  {}\n}};\n",
                    words(&der, width, big)
                ),
                2,
            ));
            cases.push((
                format!(
                    "const {ty} p[] = {{{}}};\n",
                    words(key.as_bytes(), width, big)
                ),
                1,
            ));
        }
    }
    // One wide number among the bytes of an `xxd -i` list.
    let widened = xxd("key_der", &der).replacen("\n};", ", 0x100\n};", 1);
    cases.push((widened, 2));
    cases.push((
        format!(
            "let k: [u16; 609] = [{}];\n",
            words(&der, 2, true).replace(", ", "u16, ")
        ),
        1,
    ));
    let mut missed = Vec::new();
    for (text, line) in cases {
        let got = found(&text);
        if got != vec![(line, "byte-array".to_string())] {
            let head: String = text.chars().take(60).collect();
            missed.push(format!("{head:?}… (want line {line}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 2's near misses: octal strings and word tables that hold no key
/// (a certificate, random words, a CRC table, Unicode tables, a string of
/// `\0` padding) stay quiet.
#[test]
fn round_nineteen_octal_strings_and_word_tables_stay_quiet() {
    use super::round_eighteen_b::pem;
    let mut cert = vec![0x30, 0x82, 0x03, 0x0d, 0x30, 0x82, 0x01, 0xf5, 0xa0, 0x03];
    cert.extend(noise(33, 700));
    let ca = pem("CERTIFICATE", &cert);
    let unicode: Vec<String> = (0..300u32)
        .map(|k| format!("0x{:04x}", 0x0400 + k * 3))
        .collect();
    quiet(&[
        format!("CA = \"{}\"\n", octal(&cert)),
        format!("CA = \"{}\"\n", octal(ca.as_bytes())),
        format!("PAD = \"{}\"\n", "\\0".repeat(200)),
        format!("KEY = b'{}'\n", octal(&noise(34, 400))),
        format!(
            "const uint16_t t[] = {{{}}};\n",
            words(&noise(35, 800), 2, true)
        ),
        format!(
            "const uint32_t t[] = {{{}}};\n",
            words(&noise(36, 800), 4, false)
        ),
        format!("const uint16_t cp1251[] = {{{}}};\n", unicode.join(", ")),
        format!("const uint32_t ca[] = {{{}}};\n", words(&cert, 4, true)),
    ]);
}

/// The shapes only a rule for some kind of file finds (round 18's and 18b's
/// `files` rules), each as the text of a file of that kind would hold it.
const BY_KIND: [&str; 6] = [
    "[db]\n  password = Tq8-Lw3-Zx5-Rb\n  host = db.internal\n",
    "db.host db.internal\ndb.password Tq8-Lw3-Zx5-Rb\n",
    "deploy: DB_PASSWORD := Tq8Lw3Zx5Rb9Kp\n\t./deploy.sh\n",
    "db:\n  password: &pw Tq8Lw3Zx5Rb9Kp\n  user: app\n",
    "env:\n  - name: API_TOKEN\n    value: |\n      Xk9mQ2vLp7Tz4W\n",
    "[db]\npassword = \"\"\"Tq8Lw3Zx5Rb9Kp\"\"\"\n",
];

fn found_unnamed(text: &str) -> Vec<(usize, String)> {
    crate::core::secret_scan::scan_unnamed(text)
        .into_iter()
        .map(|h| (h.line, h.rule.to_string()))
        .collect()
}

/// Item 3: a text with no file name (a discussion message, a file whose
/// name says no kind) gets the kind its lines show, and so does a fenced
/// block of a Markdown message: the rules for that kind find what they
/// find in a named file; the summary gate withholds such a file.
#[test]
fn round_nineteen_texts_without_a_name_get_their_kind() {
    let mut missed = Vec::new();
    for text in BY_KIND {
        // Only the rule for its kind finds it (the plain scan does not;
        // a triple-quoted value it reads since round 21).
        let triple = text.contains("\"\"\"");
        assert!(
            triple || found(text).is_empty(),
            "{text:?}: {:?}",
            found(text)
        );
        if found_unnamed(text).len() != 1 {
            missed.push(format!("{text:?}: {:?}", found_unnamed(text)));
        }
        let message = format!("Here is the config:\n\n```\n{text}```\n\nWhy does it fail?\n");
        if found_unnamed(&message).len() != 1 {
            missed.push(format!("{message:?}: {:?}", found_unnamed(&message)));
        }
        for path in ["deploy/db", "notes/settings.txt"] {
            if crate::core::summary::gate::withheld(path, text).is_none() {
                missed.push(format!("gate {path}: {text:?}"));
            }
        }
    }
    let fenced = "Prose first.\n\n```ini\n[db]\n  password = Tq8-Lw3-Zx5-Rb\n```\n";
    if found_unnamed(fenced) != vec![(5, "ini-indented-value".to_string())] {
        missed.push(format!("{fenced:?}: {:?}", found_unnamed(fenced)));
    }
    for (path, text) in [("conf/app.ini", BY_KIND[0]), ("app.yaml", BY_KIND[3])] {
        if crate::core::summary::gate::withheld(path, text).is_none() {
            missed.push(format!("gate {path}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 3's near misses: prose, code, and code in a fence keep the plain
/// rules alone (a keyword argument is not an INI value).
#[test]
fn round_nineteen_prose_and_code_without_a_name_stay_quiet() {
    for text in [
        "The password is in the vault; ask ops.\nThe token expires daily.\n",
        "def connect(user, password):\n    return db.open(user=user, password=password_of(user))\n",
        "```python\nclient = Client(\n    password=settings.DB_PASSWORD,\n    token=token_for(user),\n)\n```\n",
        "```yaml\npassword: ${DB_PASSWORD}\ntoken: '{{ vault_token }}'\n```\n",
        "[db]\n  password = ${DB_PASSWORD}\n",
    ] {
        assert!(
            found_unnamed(text).is_empty(),
            "{text:?}: {:?}",
            found_unnamed(text)
        );
    }
}

/// Item 4's shapes: a secret set through a chain of subscripts, the last
/// key naming it (Python, JS, Go, Ruby, PHP, Perl, Lua), each on line 1 or 2.
const SUBSCRIPTS: [(&str, usize); 14] = [
    ("cfg[\"db\"][\"password\"] = \"Tq8Lw3Zx5Rb9Kp\"\n", 1),
    (
        "settings['DATABASES']['default']['PASSWORD'] = 'Tq8Lw3Zx5Rb9Kp'\n",
        1,
    ),
    (
        "import json\nconf['APP']['api_key'] = 'Xk9mQ2vLp7Tz4Wb'\n",
        2,
    ),
    ("config.db[\"password\"] = \"Tq8Lw3Zx5Rb9Kp\";\n", 1),
    ("cfg[ \"db\" ][ \"password\" ] = \"Tq8Lw3Zx5Rb9Kp\";\n", 1),
    ("config[:db][:password] = \"Tq8Lw3Zx5Rb9Kp\"\n", 1),
    ("config[:db][:password] = 'Tq8Lw3Zx5Rb9Kp'\n", 1),
    ("<?php\n$cfg['db']['password'] = 'Tq8Lw3Zx5Rb9Kp';\n", 2),
    (
        "$config[\"mail\"][\"smtp\"][\"secret\"] = \"Tq8Lw3Zx5Rb9Kp\";\n",
        1,
    ),
    ("$cfg{db}{password} = 'Tq8Lw3Zx5Rb9Kp';\n", 1),
    ("$cfg->{db}->{password} = \"Tq8Lw3Zx5Rb9Kp\";\n", 1),
    ("cfg.db[\"api_token\"] = \"Xk9mQ2vLp7Tz4Wb\"\n", 1),
    ("$cfg->{db}{'password'} = \"Tq8Lw3Zx5Rb9Kp\";\n", 1),
    ("cfg['db']['password'] ||= 'Tq8Lw3Zx5Rb9Kp'\n", 1),
];

/// Item 4: a secret assigned through a chain of subscripts is found.
#[test]
fn round_nineteen_subscript_chains_are_found() {
    let mut missed = Vec::new();
    for (text, line) in SUBSCRIPTS {
        let got = found(text);
        if got.len() != 1 || got[0].0 != line {
            missed.push(format!("{text:?} (want line {line}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 4's near misses: the last key names no secret, the value is read
/// from elsewhere or a placeholder, a lookup, a comparison.
#[test]
fn round_nineteen_subscript_chains_without_a_secret_stay_quiet() {
    quiet(&[
        "cfg[\"password\"][\"min_length\"] = \"twelve12\"\n".to_string(),
        "cfg['db']['password'] = os.environ['DB_PASSWORD']\n".to_string(),
        "$cfg['db']['password'] = getenv('DB_PASSWORD');\n".to_string(),
        "cfg[\"db\"][\"password\"] = \"changeme\"\n".to_string(),
        "if cfg['db']['password'] == 'Tq8Lw3Zx5Rb9Kp':\n    pass\n".to_string(),
        "settings['auth']['token_url'] = 'https://example.org/oauth/token'\n".to_string(),
        "$cfg{db}{password_file} = '/etc/app/db.pass2';\n".to_string(),
    ]);
}
