//! Round 21 of the secret shapes (issue 37, recheck 20): a control byte
//! before a credential line in decoded data no longer hides it, a short
//! zstd frame in a byte array is read, URL-safe base64 of a compressed
//! stream is decoded, and the false alarms of real projects' same-line
//! forms are quiet.

use super::round_eighteen::secret_yaml;
use super::round_eighteen_b::xxd;
use super::round_fifteen::{gzip, tar};
use super::round_twenty::{bzip2, zstd};
use super::{found, quiet};

/// A password line as a `.env` holds it, after a NUL byte (what a C
/// string table, a record file or a padded blob has before it).
const NUL_ENV: &[u8] = b"\0DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";

/// The rule that finds gzip's base64 (`H4sI`), and bzip2's and zstd's.
const GZIP: &str = "base64-credentials";
const PACKED: &str = "base64-compressed";

/// What each text is found as (the rule); the misses named.
fn each_found(cases: &[(&str, String, &str)]) {
    let mut missed = Vec::new();
    for (what, text, rule) in cases {
        let got = found(text);
        if !got.iter().any(|(_, r)| r == rule) {
            missed.push(format!("{what} (want {rule}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 1 (High): a NUL (or another control byte) before a generic
/// `DB_PASSWORD=…` line in decoded data, gzip, bzip2, zstd or a tar
/// member, in base64 or in a byte array, is found as the same line
/// without it is.
#[test]
fn round_twenty_one_a_control_byte_before_a_credential_hides_nothing() {
    let others: &[&[u8]] = &[
        NUL_ENV,
        b"LOG=1\x01DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n",
        b"\x1b[0mDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n",
        b"LOG=1\n\0\0\0\0DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\0\0\n",
    ];
    let mut cases = Vec::new();
    for (i, env) in others.iter().enumerate() {
        let tarred = tar(&[(".env", env)]);
        cases.extend([
            (format!("gzip {i}"), secret_yaml(&gzip(env)), GZIP),
            (format!("bzip2 {i}"), secret_yaml(&bzip2(env)), PACKED),
            (format!("zstd {i}"), secret_yaml(&zstd(env)), PACKED),
            (format!("tar.gz {i}"), secret_yaml(&gzip(&tarred)), GZIP),
            (format!("tar.zst {i}"), secret_yaml(&zstd(&tarred)), PACKED),
        ]);
    }
    let cases: Vec<(&str, String, &str)> = cases
        .iter()
        .map(|(what, text, rule)| (what.as_str(), text.clone(), *rule))
        .collect();
    each_found(&cases);
    each_found(&[
        ("gzip bytes", xxd("blob", &gzip(NUL_ENV)), "byte-array"),
        ("zstd bytes", xxd("blob", &zstd(NUL_ENV)), "byte-array"),
        ("bzip2 bytes", xxd("blob", &bzip2(NUL_ENV)), "byte-array"),
    ]);
}

/// Item 2 (High): one password line in zstd (a raw block: the frame is
/// shorter than most arrays a scanner reads), as a byte array in the
/// forms C, Python, Rust, Java and JavaScript write, is found.
#[test]
fn round_twenty_one_one_line_of_zstd_in_a_byte_array_is_found() {
    let frame = zstd(b"DB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n");
    let hex: Vec<String> = frame.iter().map(|b| format!("0x{b:02x}")).collect();
    let signed: Vec<String> = frame.iter().map(|&b| (b as i8).to_string()).collect();
    let dec: Vec<String> = frame.iter().map(u8::to_string).collect();
    let escaped: String = frame.iter().map(|b| format!("\\x{b:02x}")).collect();
    each_found(&[
        ("xxd", xxd("blob", &frame), "byte-array"),
        (
            "python bytes",
            format!("x = 1\nBLOB = bytes([{}])\n", dec.join(", ")),
            "byte-array",
        ),
        (
            "rust",
            format!(
                "const X: u8 = 1;\nconst BLOB: &[u8] = &[{}];\n",
                hex.join(", ")
            ),
            "byte-array",
        ),
        (
            "java signed",
            format!(
                "class A {{\n  static final byte[] BLOB = {{{}}};\n}}\n",
                signed.join(", ")
            ),
            "byte-array",
        ),
        (
            "js",
            format!(
                "const x = 1;\nconst blob = new Uint8Array([{}]);\n",
                dec.join(",")
            ),
            "byte-array",
        ),
        (
            "escapes",
            format!("x = 1\nBLOB = b\"{escaped}\"\n"),
            "byte-array",
        ),
    ]);
}

/// Item 3: URL-safe base64 (`-`, `_`, no padding) of a compressed
/// stream is decoded as the standard alphabet is.
#[test]
fn round_twenty_one_url_safe_base64_of_a_stream_is_decoded() {
    let env = b"# DB_PASSWORD is rotated monthly; DB_PASSWORD is in the vault\n\
                LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
    let url_safe = |bytes: &[u8]| {
        super::base64(bytes)
            .replace('+', "-")
            .replace('/', "_")
            .trim_end_matches('=')
            .to_string()
    };
    let mut cases = Vec::new();
    for (what, packed) in [
        ("gzip", gzip(env)),
        ("bzip2", bzip2(env)),
        ("zstd", zstd(env)),
    ] {
        // Enough bytes that the URL-safe alphabet shows in the value.
        let mut packed = packed;
        for i in 0..64u8 {
            if url_safe(&packed).contains(['-', '_']) {
                break;
            }
            packed = match what {
                "gzip" => gzip(&[env.as_slice(), &[b'#', i, b'\n']].concat()),
                "bzip2" => bzip2(&[env.as_slice(), &[b'#', i, b'\n']].concat()),
                _ => zstd(&[env.as_slice(), &[b'#', i, b'\n']].concat()),
            };
        }
        let rule = if what == "gzip" { GZIP } else { PACKED };
        cases.push((
            what,
            format!("data:\n  blob: {}\n", url_safe(&packed)),
            rule,
        ));
    }
    each_found(&cases);
}

/// Item 4: the same-line forms real projects write that are no secret
/// (recheck 20's false alarms) stay quiet.
#[test]
fn round_twenty_one_real_projects_false_alarms_are_quiet() {
    quiet(&[
        // Laravel's validation rules.
        "$rules = [\n    'password' => 'required|string|min:8|confirmed',\n];\n".into(),
        "'password' => ['required', 'string', 'min:8'],\n".into(),
        "'password_confirmation' => 'required_with:password|same:password|min:6',\n".into(),
        // A setting naming a hash algorithm.
        "password_hash_algorithm = \"pbkdf2_sha256\"\n".into(),
        "PASSWORD_HASHER = 'argon2id'\n".into(),
        // A name assigned a variable (Python, no quotes).
        "credentials = ec2_metadata_credentials_json\n".into(),
        // net/ftp's anonymous login: an e-mail as the password.
        "passwd = \"anonymous@\"\n".into(),
    ]);
}

/// A `.env` whose password line the compressors code as a match to the
/// comment before it: only decoding finds it.
const PACKED_ENV: &[u8] = b"# DB_PASSWORD is rotated monthly; DB_PASSWORD is in the vault\n\
    LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";

/// `bytes` zlib-compressed (`78 DA`).
fn zlib(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut out = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    out.write_all(bytes).expect("in memory");
    out.finish().expect("in memory")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Item 5 (medium): a compressed value wrapped by `\n` escapes in a JSON
/// string, in hex digits, in base64 twice over, or a zlib stream in
/// base64, is read; a gzip value cut short is not fully checked (it
/// passed as clean: gzip's reader took an error for the end).
#[test]
fn round_twenty_one_compressed_values_in_more_encodings_are_read() {
    let lines = |b64: String| -> String {
        let rows: Vec<&str> = b64
            .as_bytes()
            .chunks(76)
            .map(|row| std::str::from_utf8(row).expect("base64"))
            .collect();
        rows.join("\\n")
    };
    let b64 = super::base64;
    each_found(&[
        (
            "json zstd",
            format!("{{\"blob\": \"{}\"}}\n", lines(b64(&zstd(PACKED_ENV)))),
            PACKED,
        ),
        (
            "json gzip",
            format!("{{\"blob\": \"{}\"}}\n", lines(b64(&gzip(PACKED_ENV)))),
            GZIP,
        ),
        (
            "hex zstd",
            format!("BLOB = \"{}\"\n", hex(&zstd(PACKED_ENV))),
            "hex-compressed",
        ),
        (
            "hex gzip",
            format!("blob: {}\n", hex(&gzip(PACKED_ENV)).to_uppercase()),
            "hex-compressed",
        ),
        (
            "hex bzip2",
            format!("BLOB = '{}'\n", hex(&bzip2(PACKED_ENV))),
            "hex-compressed",
        ),
        (
            "base64 twice zstd",
            secret_yaml(b64(&zstd(PACKED_ENV)).as_bytes()),
            "base64-text",
        ),
        (
            "base64 twice gzip",
            secret_yaml(b64(&gzip(PACKED_ENV)).as_bytes()),
            "base64-text",
        ),
        ("zlib", secret_yaml(&zlib(PACKED_ENV)), "base64-zlib"),
        (
            "gzip cut",
            secret_yaml(&gzip(PACKED_ENV)[..40]),
            "unchecked-encoded",
        ),
    ]);
}

/// Item 5's near misses: hex and zlib-looking base64 that hold no secret,
/// or are no stream at all, stay quiet.
#[test]
fn round_twenty_one_more_encodings_without_a_secret_are_quiet() {
    let clean = b"LOG_LEVEL=info\nNOTE=hello world\nCOLOR=blue\nSIZE=large\n";
    quiet(&[
        format!("BLOB = \"{}\"\n", hex(&zstd(clean))),
        secret_yaml(&zlib(clean)),
        // Base64 that opens as zlib does (`eJy…`) but is none.
        "data:\n  blob: eJyAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp\n".into(),
        // A SHA-256 in hex, and one that opens as gzip's magic would.
        "sha256 = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n".into(),
    ]);
}

/// Item 6 (medium): a key as signed 32-bit words (Java's `int[]`, C's
/// `int32_t`) and as 64-bit words (`uint64_t`, `0x…ULL`, `long[]`), in
/// either byte order, is found.
#[test]
fn round_twenty_one_signed_and_64_bit_word_arrays_are_read() {
    // The key's DER: bytes past 0x7f make negative words.
    let der = super::round_eighteen_b::pkcs8();
    let bytes = der.as_slice();
    let mut missed = Vec::new();
    for big in [false, true] {
        let i32s: Vec<String> = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                let v = if big {
                    i32::from_be_bytes(w)
                } else {
                    i32::from_le_bytes(w)
                };
                v.to_string()
            })
            .collect();
        let u64s: Vec<String> = bytes
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                let v = if big {
                    u64::from_be_bytes(w)
                } else {
                    u64::from_le_bytes(w)
                };
                format!("0x{v:016x}ULL")
            })
            .collect();
        let i64s: Vec<String> = bytes
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                let v = if big {
                    i64::from_be_bytes(w)
                } else {
                    i64::from_le_bytes(w)
                };
                format!("{v}L")
            })
            .collect();
        for text in [
            format!("int x = 1;\nint32_t k[] = {{{}}};\n", i32s.join(", ")),
            format!("int x = 1;\nuint64_t k[] = {{{}}};\n", u64s.join(", ")),
            format!(
                "int x = 1;\nstatic final long[] K = {{{}}};\n",
                i64s.join(", ")
            ),
        ] {
            let got = found(&text);
            if got != vec![(2, "byte-array".to_string())] {
                let head: String = text.chars().take(60).collect();
                missed.push(format!("{head:?}… ({big}): {got:?}"));
            }
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    // 64-bit constants that are no key: SipHash's, a CRC-64 table's start.
    quiet(&[
        "const uint64_t K[] = {0x736f6d6570736575ULL, 0x646f72616e646f6dULL, \
         0x6c7967656e657261ULL, 0x7465646279746573ULL, 0x0000000000000000ULL, \
         0x42f0e1eba9ea3693ULL, 0x85e1c3d753d46d26ULL, 0xc711223cfa3e5bb5ULL};\n"
            .into(),
    ]);
}

/// Item 7 (medium): the texts of one job (a composition's files) share
/// one decode budget: once files of bombs spent it, a later file's value
/// is not decoded but reported unchecked (it was decoded again per file,
/// so N small files of bombs cost N times a text's budget).
#[test]
fn round_twenty_one_a_jobs_texts_share_one_decode_budget() {
    use crate::core::secret_scan::DecodeBudget;
    let bomb = super::base64(&zstd(&vec![b'a'; 17 << 20]));
    let bombs = format!("data:\n  a: {bomb}\n  b: {bomb}\n");
    let small = secret_yaml(&gzip(b"LOG_LEVEL=info\nNOTE=hello world\n"));
    assert!(found(&small).is_empty(), "{:?}", found(&small));
    let job = DecodeBudget::new();
    let got: Vec<Vec<(usize, String)>> = job.run(|| vec![found(&bombs), found(&small)]);
    let unchecked = |line| vec![(line, "unchecked-encoded".to_string())];
    assert_eq!(got[0], [unchecked(2), unchecked(3)].concat(), "{got:?}");
    assert_eq!(got[1], unchecked(2), "{got:?}");
    // Outside the job, and in a new one, the thread's budget is its own.
    assert!(found(&small).is_empty());
    assert!(DecodeBudget::new().run(|| found(&small)).is_empty());
}

/// Item 8 (medium): a value set apart from its assignment is read: in
/// parentheses or `str(…)` on its line, past a blank or comment line
/// after `(`, a key whose `=>` opens the next line, an INI continuation or
/// Make's `:= \`, triple quotes, a `%`/`.format(…)` filled with the
/// literal, `os.environ.update(…)`.
#[test]
fn round_twenty_one_values_set_apart_from_their_assignment_are_found() {
    let v = "Vb6nQ1xZ8kLm3Wu";
    let mut missed = Vec::new();
    for (text, line) in [
        (format!("x = 1\nDB_PASSWORD = (\"{v}\")\n"), 2),
        (format!("x = 1\nDB_PASSWORD = str(\"{v}\")\n"), 2),
        (
            format!("import os\nos.environ.update(DB_PASSWORD=\"{v}\")\n"),
            2,
        ),
        (
            format!("import os\nos.environ.update({{\"DB_PASSWORD\": \"{v}\"}})\n"),
            2,
        ),
        (format!("x = 1\nDB_PASSWORD = (\n\n    \"{v}\"\n)\n"), 2),
        (
            format!("x = 1\nDB_PASSWORD = (  # the db\n    # rotated\n    \"{v}\"\n)\n"),
            2,
        ),
        (format!("$c = [\n  'db_password'\n    => '{v}',\n];\n"), 2),
        (format!("DB_PASSWORD := \\\n\t{v}\n"), 1),
        (format!("x = 1\nDB_PASSWORD = \"\"\"{v}\"\"\"\n"), 2),
        (format!("x = 1\nDB_PASSWORD = '''\n{v}\n'''\n"), 2),
        (format!("x = 1\nDB_PASSWORD = \"%s\" % \"{v}\"\n"), 2),
        (
            format!("x = 1\nDB_PASSWORD = \"{{}}\".format(\"{v}\")\n"),
            2,
        ),
    ] {
        let got = found(&text);
        if got.first().map(|(l, _)| *l) != Some(line) {
            missed.push(format!("{text:?}: {got:?}"));
        }
    }
    // An INI continuation line (the rule for its shape reads it).
    let ini = format!("[db]\nhost = x\npassword =\n  {v}\n");
    if found(&ini).is_empty() {
        missed.push(format!("{ini:?}"));
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    quiet(&[
        "password = (\n    get_password()\n)\n".into(),
        "password = str(uuid.uuid4())\n".into(),
        "PASSWORD_HELP = '''\nEnter your password twice\n'''\n".into(),
        "password = \"%s\" % password_from_vault\n".into(),
        "token = \\\n    settings.AUTH_TOKEN_SETTING\n".into(),
        "password =\n    hashlib.sha256(raw).hexdigest()\n".into(),
        "value = os.environ.get(\"DB_PASSWORD\", \"\")\n".into(),
        "'password'\n    => 'required|string|min:8',\n".into(),
    ]);
}
