//! Round 22 of the secret shapes (issue 37's last secrets items): raw
//! deflate in base64 (PHP's `gzdeflate`, .NET's `DeflateStream`, no header
//! to know it by) is inflated and read; a value in a heredoc (Ruby, PHP,
//! Perl, Terraform), a triple-quoted value closed on the next line, a
//! template literal alone on its line, and a key whose `:` opens the next
//! line (JSON, YAML's `? key`) are read as the assignments they are.

use super::round_eighteen::secret_yaml;
use super::round_fifteen::pem_key;
use super::{base64, found, quiet};

/// A password line as a `.env` holds it.
const ENV: &[u8] = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";

/// Raw deflate of `bytes` (no zlib or gzip header), as PHP's `gzdeflate`
/// and .NET's `DeflateStream` write it.
fn deflate(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut out = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    out.write_all(bytes).expect("in memory");
    out.finish().expect("in memory")
}

/// Fails naming the texts among `cases` (named) with no finding.
pub(super) fn each_found<T: AsRef<str>>(cases: &[(&str, T)]) {
    let missed: Vec<String> = cases
        .iter()
        .filter(|(_, text)| found(text.as_ref()).is_empty())
        .map(|(what, text)| format!("{what}: {:?}", text.as_ref()))
        .collect();
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

#[test]
fn round_twenty_two_raw_deflate_in_base64_is_inflated_and_read() {
    let env = base64(&deflate(ENV));
    let key = base64(&deflate(pem_key(7).as_bytes()));
    each_found::<String>(&[
        (
            "php gzinflate",
            format!("<?php\neval(gzinflate(base64_decode('{env}')));\n"),
        ),
        ("yaml secret", secret_yaml(&deflate(ENV))),
        ("pem key", secret_yaml(&deflate(pem_key(7).as_bytes()))),
        (
            "c# DeflateStream",
            format!("var packed = Convert.FromBase64String(\"{key}\");\n"),
        ),
    ]);
    // A decoy inflating past the allowance before it hides nothing: what
    // is not read is unchecked (recheck 22b).
    let decoy = base64(&deflate(&b"word salad text line\n".repeat(120_000)));
    let hidden = format!("<?php\n$a = '{decoy}';\neval(gzinflate(base64_decode('{env}')));\n");
    assert!(!found(&hidden).is_empty(), "a decoy hid the value after it");
    // Deflate of a harmless text, and binary that inflates to nothing
    // readable, are quiet.
    let prose = b"The quick brown fox jumps over the lazy dog, again and again.\n".repeat(4);
    let noise: Vec<u8> = (0u32..600)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    quiet(&[
        secret_yaml(&deflate(&prose)),
        secret_yaml(&noise),
        format!(
            "<?php\neval(gzinflate(base64_decode('{}')));\n",
            base64(&deflate(&prose))
        ),
    ]);
}

#[test]
fn round_twenty_two_a_heredoc_value_is_read_as_its_assignment() {
    each_found::<String>(&[
        (
            "ruby squiggly",
            "PASSWORD = <<~EOS\n  Vb6nQ1xZ8kLm3Wu\nEOS\n".into(),
        ),
        (
            "ruby dash",
            "db_password = <<-EOS.strip\n  Vb6nQ1xZ8kLm3Wu\n  EOS\n".into(),
        ),
        (
            "ruby quoted",
            "PASSWORD = <<~'EOS'.chomp\nVb6nQ1xZ8kLm3Wu\nEOS\n".into(),
        ),
        (
            "ruby hash",
            "config = {\n  password: <<~EOS,\n    Vb6nQ1xZ8kLm3Wu\n  EOS\n}\n".into(),
        ),
        (
            "php",
            "<?php\n$password = <<<EOT\nVb6nQ1xZ8kLm3Wu\nEOT;\n".into(),
        ),
        (
            "php nowdoc",
            "<?php\n$db_password = <<<'EOT'\n    Vb6nQ1xZ8kLm3Wu\n    EOT;\n".into(),
        ),
        (
            "php array",
            "<?php\n$c = ['password' => <<<EOT\nVb6nQ1xZ8kLm3Wu\nEOT,\n];\n".into(),
        ),
        (
            "perl",
            "my $password = <<'EOF';\nVb6nQ1xZ8kLm3Wu\nEOF\n".into(),
        ),
        (
            "terraform",
            "resource \"x\" \"y\" {\n  password = <<-EOF\n    Vb6nQ1xZ8kLm3Wu\n  EOF\n}\n".into(),
        ),
    ]);
    quiet(&[
        "SQL = <<~SQL\n  SELECT password FROM users\nSQL\n".into(),
        "PASSWORD_HELP = <<~EOS\n  Enter your password below.\nEOS\n".into(),
        "password = <<~EOS\n  #{ENV.fetch('DB_PASSWORD')}\nEOS\n".into(),
        "<?php\n$password = <<<EOT\n{$config['password']}\nEOT;\n".into(),
        "x = a << b\npassword = <<~EOS\nEOS\n".into(),
        "banner = <<~EOS\n  Vb6nQ1xZ8kLm3Wu\nEOS\n".into(),
    ]);
}

#[test]
fn round_twenty_two_a_quoted_value_closed_on_another_line_is_read() {
    each_found::<String>(&[
        (
            "triple closed below",
            "PASSWORD = \"\"\"Vb6nQ1xZ8kLm3Wu\n\"\"\"\n".into(),
        ),
        (
            "single triple closed below",
            "db_password = '''Vb6nQ1xZ8kLm3Wu\n    '''\n".into(),
        ),
        (
            "template literal",
            "const password = `\n  Vb6nQ1xZ8kLm3Wu\n`;\n".into(),
        ),
        (
            "json colon below",
            "{\"db\": {\"password\"\n  : \"Vb6nQ1xZ8kLm3Wu\"}}\n".into(),
        ),
        (
            "yaml explicit key",
            "db:\n  ? password\n  : Vb6nQ1xZ8kLm3Wu\n".into(),
        ),
        (
            "json value below",
            "{\n  \"password\":\n    \"Vb6nQ1xZ8kLm3Wu\"\n}\n".into(),
        ),
        (
            "js value below",
            "const c = {\n  password:\n    'Vb6nQ1xZ8kLm3Wu',\n};\n".into(),
        ),
        (
            "js template below",
            "const c = { apiKey:\n  `Vb6nQ1xZ8kLm3WuQ9`,\n};\n".into(),
        ),
    ]);
    quiet(&[
        "PASSWORD_DOC = \"\"\"Enter your password\n\"\"\"\n".into(),
        "const password = `\n  ${process.env.DB_PASSWORD}\n`;\n".into(),
        "x = cond ? \"password\"\n  : \"other\"\n".into(),
        "db:\n  ? password\n  : ${DB_PASSWORD}\n".into(),
        "class Password:\n    \"\"\"Holds the password.\"\"\"\n".into(),
        "def password(self):\n    \"Vb6nQ1xZ8kLm3Wu\"\n".into(),
        "if x:\n    password = y\nelse:\n    'Vb6nQ1xZ8kLm3Wu'\n".into(),
    ]);
}

#[test]
fn round_twenty_two_a_key_far_into_a_byte_table_is_found() {
    use super::round_eighteen_b::xxd;
    // A resource table (`xxd -i` of a bundle): a font's worth of bytes,
    // then a key file, past the first 256 KiB that were read.
    let mut blob: Vec<u8> = (0u32..300 << 10)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 11) as u8)
        .collect();
    blob.extend_from_slice(pem_key(9).as_bytes());
    blob.extend_from_slice(&[0u8; 64]);
    let hits = found(&xxd("bundle", &blob));
    assert_eq!(
        hits.iter().filter(|(_, rule)| rule == "byte-array").count(),
        1,
        "{hits:?}"
    );
    // The same table without the key is quiet.
    blob.truncate(300 << 10);
    quiet(&[xxd("bundle", &blob)]);
}

/// A file whose name says nothing of its kind (no extension, `.local`,
/// `.bak`) is read as the kind of config its lines show, as a discussion
/// message is: a secret the rules for that kind find in `app.yaml` or
/// `db.properties` is found in `deploy/production` or `conf/vars` too.
#[test]
fn round_twenty_two_a_config_file_named_for_no_kind_is_read_as_its_lines_show() {
    use crate::core::secret_scan::scan_file;
    let yaml = "db:\n  host: localhost\n  password: correcthorsebatterystaple\n";
    let properties = "db.host localhost\ndb.password Xk9mQ2vLw8\n";
    for (named, unnamed, text) in [
        ("app.yaml", "deploy/production", yaml),
        ("app.yaml", "deploy/settings.local", yaml),
        ("db.properties", "conf/vars", properties),
        ("db.properties", "conf/vars.bak", properties),
    ] {
        assert!(!scan_file(text, named).is_empty(), "{named}");
        let hits = scan_file(text, unnamed);
        assert_eq!(hits.len(), 1, "{unnamed}: {hits:?}");
    }
    // Code and prose are read as they are named.
    for (path, text) in [
        (
            "tools/build.py",
            "password = 'x'\nname = correcthorsebatterystaple\n",
        ),
        (
            "NOTES",
            "The password is set in the vault.\nSee the wiki.\n",
        ),
    ] {
        assert!(scan_file(text, path).is_empty(), "{path}");
    }
}

/// Recheck 22: every text one scanner reads (a build's files in every
/// batch, the map, the text around the bodies) shares one decode budget:
/// once bombs spent it, a later text's value is reported unchecked without
/// being decoded (each streamed stretch had a budget of its own, so 300
/// small files of bombs took minutes). A new scanner (the next build)
/// starts afresh.
#[test]
fn round_twenty_two_one_scanner_shares_one_decode_budget() {
    use super::round_eighteen::secret_yaml;
    use super::round_fifteen::gzip;
    use super::round_twenty::zstd;
    use crate::core::secrets::Scanner;
    use crate::core::sources::{Codebase, Sources};
    let bomb = base64(&zstd(&vec![b'a'; 17 << 20]));
    let bombs = format!("data:\n  a: {bomb}\n  b: {bomb}\n");
    let small = secret_yaml(&gzip(b"LOG_LEVEL=info\nNOTE=hello world\n"));
    let dir = tempfile::tempdir().expect("tempdir");
    let sources = Sources::new();
    let codebase = Codebase::new(dir.path(), &sources);
    let scanner = Scanner::new(&codebase);
    assert!(scanner.map(&small).is_empty());
    assert_eq!(scanner.map(&bombs).len(), 2);
    let later = scanner.map(&small);
    assert_eq!(later.len(), 1, "{later:?}");
    assert_eq!(&*later[0].rule, "unchecked-encoded");
    assert!(Scanner::new(&codebase).map(&small).is_empty());
}
