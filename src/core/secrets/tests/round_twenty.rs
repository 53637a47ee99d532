//! Round 20 of the secret shapes (issue 37): bzip2 and zstd streams are
//! read, every stream and frame of them, instead of refused unread; one
//! that cannot be read whole (cut, corrupt, a dictionary, a window past
//! the bound, a bomb) is still not fully checked.

use std::io::Write;

use super::round_eighteen::secret_yaml;
use super::round_eighteen_b::{noise, xxd};
use super::round_fifteen::{gzip, tar};
use super::{found, quiet};

const ENV: &[u8] = b"LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
/// An `.env` whose password line zstd codes as a match to the comment
/// before it: no `DB_PASSWORD=` in the compressed bytes (the test checks),
/// so only decoding finds it. (A short text alone is stored raw.)
const PACKED_ENV: &[u8] = b"# DB_PASSWORD is rotated monthly; DB_PASSWORD is in the vault\n\
    LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";
const CLEAN: &[u8] = b"LOG_LEVEL=info\nNOTE=hello world\n";

/// `bytes` bzip2-compressed (one stream).
pub(super) fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut out = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    out.write_all(bytes).expect("in memory");
    out.finish().expect("in memory")
}

/// `bytes` zstd-compressed (one frame).
pub(super) fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// A zstd frame by hand: `window` (`None` for a single segment),
/// `dictionary` id, then `bytes` in raw blocks of at most 128 KiB.
fn zstd_frame(window: Option<u8>, dictionary: Option<u8>, bytes: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd];
    // Frame header descriptor: single segment (content size on 8 bytes)
    // or a window descriptor; a one-byte dictionary id.
    let descriptor = match window {
        None => 0b1110_0000,
        Some(_) => 0b0000_0000,
    } | u8::from(dictionary.is_some());
    frame.push(descriptor);
    if let Some(w) = window {
        frame.push(w);
    }
    frame.extend(dictionary);
    if window.is_none() {
        frame.extend((bytes.len() as u64).to_le_bytes());
    }
    let chunks: Vec<&[u8]> = bytes.chunks(128 << 10).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let last = u32::from(i + 1 == chunks.len());
        let header = (chunk.len() as u32) << 3 | last;
        frame.extend(&header.to_le_bytes()[..3]);
        frame.extend(*chunk);
    }
    frame
}

/// A zstd skippable frame holding `bytes`.
fn skippable(bytes: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x53, 0x2a, 0x4d, 0x18];
    frame.extend((bytes.len() as u32).to_le_bytes());
    frame.extend(bytes);
    frame
}

/// What each text is found as, `(line, rule)` wanted; the misses named.
fn each_found(cases: &[(&str, String, usize, &str)]) {
    let mut missed = Vec::new();
    for (what, text, line, rule) in cases {
        let got = found(text);
        if got != vec![(*line, rule.to_string())] {
            missed.push(format!("{what} (want {line} {rule}): {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
}

/// Item 1: a credential in bzip2 or zstd, in base64 or a byte array, in
/// any stream or frame of it, or in a tar or gzip inside it, is found.
#[test]
fn round_twenty_bzip2_and_zstd_are_read() {
    let two_streams = [bzip2(b"LOG_LEVEL=info\n"), bzip2(ENV)].concat();
    let packed = zstd(PACKED_ENV);
    assert!(
        !packed.windows(12).any(|w| w == b"DB_PASSWORD="),
        "{packed:?}"
    );
    let two_frames = [zstd(b"LOG_LEVEL=info\n"), packed.clone()].concat();
    let skipped_first = [skippable(&[0, 0, 1, 0]), packed.clone()].concat();
    let in_skippable = [zstd(CLEAN), skippable(ENV)].concat();
    let windowed = zstd_frame(Some(0x50), None, ENV);
    let tarred = tar(&[("README", b"notes\n"), (".env", ENV)]);
    let mut padded = bzip2(ENV);
    padded.resize(512, 0);
    // The rule that found the stream names what it holds.
    each_found(&[
        ("bzip2", secret_yaml(&bzip2(ENV)), 2, "base64-compressed"),
        ("zstd", secret_yaml(&packed), 2, "base64-compressed"),
        (
            "bzip2 2nd stream",
            secret_yaml(&two_streams),
            2,
            "base64-compressed",
        ),
        (
            "zstd 2nd frame",
            secret_yaml(&two_frames),
            2,
            "base64-compressed",
        ),
        (
            "zstd after skip",
            secret_yaml(&skipped_first),
            2,
            "base64-compressed",
        ),
        (
            "zstd skip data",
            secret_yaml(&in_skippable),
            2,
            "base64-compressed",
        ),
        (
            "zstd 1 MiB window",
            secret_yaml(&windowed),
            2,
            "base64-compressed",
        ),
        (
            "tar.bz2",
            secret_yaml(&bzip2(&tarred)),
            2,
            "base64-compressed",
        ),
        (
            "tar.zst",
            secret_yaml(&zstd(&tarred)),
            2,
            "base64-compressed",
        ),
        (
            "gz.zst",
            secret_yaml(&zstd(&gzip(ENV))),
            2,
            "base64-compressed",
        ),
        (
            "zst.gz",
            secret_yaml(&gzip(&packed)),
            2,
            "base64-credentials",
        ),
        ("bz2 padded", secret_yaml(&padded), 2, "base64-compressed"),
        ("bzip2 bytes", xxd("env_bz2", &bzip2(ENV)), 2, "byte-array"),
        ("zstd bytes", xxd("env_zst", &two_frames), 2, "byte-array"),
        (
            "tar member .zst",
            secret_yaml(&gzip(&tar(&[
                ("README", b"notes\n"),
                (".env.zst", &packed),
            ]))),
            2,
            "base64-credentials",
        ),
    ]);
}

/// Item 1: bzip2 and zstd that cannot be read whole are not fully checked:
/// cut short, corrupt, bytes after the stream, a frame that needs a
/// dictionary, a window past 8 MiB, a stream decoding past 16 MiB.
#[test]
fn round_twenty_bzip2_and_zstd_not_read_whole_are_unchecked() {
    let bz = bzip2(CLEAN);
    let mut corrupt = bz.clone();
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0x10;
    let zs = zstd_frame(None, None, CLEAN);
    let bz_bomb = bzip2(&vec![b'a'; 17 << 20]);
    let zstd_bomb = zstd(&vec![b'a'; 17 << 20]);
    let mut cases = vec![
        ("bzip2 cut", secret_yaml(&bz[..bz.len() - 8])),
        ("bzip2 corrupt", secret_yaml(&corrupt)),
        (
            "bzip2 + text",
            secret_yaml(&[&bz[..], b"DB_PASSWORD=x"].concat()),
        ),
        ("bzip2 bomb", secret_yaml(&bz_bomb)),
        ("zstd cut", secret_yaml(&zs[..zs.len() - 5])),
        (
            "zstd + text",
            secret_yaml(&[&zs[..], b"more text here"].concat()),
        ),
        (
            "zstd dictionary",
            secret_yaml(&zstd_frame(Some(0x50), Some(7), CLEAN)),
        ),
        (
            "zstd 16 MiB window",
            secret_yaml(&zstd_frame(Some(0x70), None, ENV)),
        ),
        ("zstd bomb", secret_yaml(&zstd_bomb)),
        ("zstd skip cut", secret_yaml(&skippable(CLEAN)[..20])),
    ]
    .into_iter()
    .map(|(what, text)| (what, text, 2, "unchecked-encoded"))
    .collect::<Vec<_>>();
    cases.push((
        "bzip2 bytes cut",
        xxd("bz", &bz[..bz.len() - 8]),
        2,
        "unchecked-byte-array",
    ));
    cases.push((
        "zstd bytes bomb",
        xxd("zs", &zstd_bomb),
        2,
        "unchecked-byte-array",
    ));
    each_found(&cases);
}

/// Item 1's near misses: bzip2 and zstd of text without a secret, of
/// binary data, several streams or frames, padded with zeros to a block.
#[test]
fn round_twenty_readable_bzip2_and_zstd_stay_quiet() {
    let mut padded = zstd(CLEAN);
    padded.resize(512, 0);
    let tarred = tar(&[("README", b"notes\n"), ("logo.bin", &noise(41, 3000))]);
    quiet(&[
        secret_yaml(&bzip2(CLEAN)),
        secret_yaml(&zstd(CLEAN)),
        secret_yaml(&[bzip2(CLEAN), bzip2(CLEAN)].concat()),
        secret_yaml(&[zstd(CLEAN), skippable(&[0, 0, 1, 0]), zstd(CLEAN)].concat()),
        secret_yaml(&zstd_frame(Some(0x50), None, CLEAN)),
        secret_yaml(&padded),
        secret_yaml(&bzip2(&tarred)),
        secret_yaml(&zstd(&noise(42, 5000))),
        xxd("page_bz2", &bzip2(CLEAN)),
        xxd("page_zst", &padded),
    ]);
}

/// A text's encoded values share one decode budget (32 MiB): a file of
/// many small bombs costs what two values read to their bound do, so the
/// values past it are not fully checked; each value alone, in a text of
/// its own, is read (and quiet).
#[test]
fn round_twenty_a_text_of_many_streams_shares_one_decode_budget() {
    let big = bzip2(&b"LOG_LEVEL=info\n".repeat(12 << 20 >> 4));
    let value = super::base64(&big);
    quiet(&[secret_yaml(&big)]);
    let text = format!(
        "data:\n{}",
        (0..4)
            .map(|i| format!("  blob{i}: {value}\n"))
            .collect::<String>()
    );
    assert_eq!(found(&text), vec![(5, "unchecked-encoded".to_string())]);
}

/// Item 2: a value assigned into the environment (`os.environ["X"] =
/// "…"`) or written as an f-string without fields is an assignment like
/// any other; reading the environment, comparing with it and f-strings
/// built from fields stay quiet.
#[test]
fn round_twenty_environ_assignments_and_plain_f_strings_are_found() {
    let value = "Vb6nQ1xZ8kLm3Wu";
    let mut missed = Vec::new();
    for text in [
        format!("import os\nos.environ[\"DB_PASSWORD\"] = \"{value}\"\n"),
        format!("import os\nos.environ['API_TOKEN']='{value}'\n"),
        format!("x = 1\npassword = f\"{value}\"\n"),
        format!("x = 1\nDB_PASSWORD = rf'{value}'\n"),
        format!("x = 1\nclient_secret: str = F\"{value}\"\n"),
    ] {
        if found(&text) != vec![(2, "secret-assignment".to_string())] {
            missed.push(format!("{text:?}: {:?}", found(&text)));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    quiet(&[
        "password = os.environ[\"DB_PASSWORD\"]\n".to_string(),
        format!("if os.environ[\"DB_PASSWORD\"] == \"{value}\":\n    pass\n"),
        "token = f\"{prefix}{value}\"\n".to_string(),
        "password = f\"{settings.DB_PASSWORD}\"\n".to_string(),
        "api_key = f\"{base}/{key_id}\"\n".to_string(),
        "os.environ[\"DJANGO_SETTINGS_MODULE\"] = \"project.settings\"\n".to_string(),
    ]);
}

/// Item 3: a value on the line after its assignment (`= (`, `=`, `= \`,
/// `=>` ending the line) is read as the assignment, named on its line;
/// a value on the next line that is no assignment's stays quiet.
#[test]
fn round_twenty_a_value_on_the_line_after_its_assignment_is_found() {
    let value = "Vb6nQ1xZ8kLm3Wu";
    let mut missed = Vec::new();
    for (text, line) in [
        (format!("x = 1\nDB_PASSWORD = (\n    \"{value}\"\n)\n"), 2),
        (format!("const x = 1;\nconst apiToken =\n  '{value}';\n"), 2),
        (format!("x = 1\nSECRET_KEY = \\\n    '{value}'\n"), 2),
        (
            format!("$c = [\n  'db_password' =>\n    '{value}',\n];\n"),
            2,
        ),
        (
            format!("x = 1\nclient_secret = (\n    f\"{value}\"\n)\n"),
            2,
        ),
    ] {
        let got = found(&text);
        if got.len() != 1 || got[0].0 != line {
            missed.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    quiet(&[
        format!("if password ==\n    \"{value}\":\n    pass\n"),
        format!("password = get(\n    \"{value}\"\n)\n"),
        "password = (\n    \"{password}\"\n)\n".to_string(),
        "token = (\n    \"ghost-writer\"\n)\n".to_string(),
        format!("msg = 'x ='\n\"{value}\"\n"),
    ]);
}

/// `bytes` as decimal 16- or 32-bit words, as [`words`] writes them in
/// hex (`12418` for `0x3082`).
fn decimal_words(bytes: &[u8], width: usize, big_endian: bool) -> String {
    super::round_nineteen::words(bytes, width, big_endian)
        .split(", ")
        .map(|hex| {
            let digits = hex.trim_start_matches("0x");
            u32::from_str_radix(digits, 16).map_or_else(|_| hex.to_string(), |v| v.to_string())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Item 4: a key as decimal 16- or 32-bit words, in either byte order, is
/// found as its hex words are; decimal tables that hold no key (ports,
/// sizes, a certificate, random words) stay quiet.
#[test]
fn round_twenty_decimal_word_arrays_are_read() {
    use super::round_eighteen_b::{noise, pem, pkcs8};
    let der = pkcs8();
    let key = pem(&["PRIVATE", "KEY"].join(" "), &der);
    let mut missed = Vec::new();
    for (width, ty) in [(2, "uint16_t"), (4, "uint32_t")] {
        for big in [true, false] {
            for (text, line) in [
                (
                    format!(
                        "static const {ty} k[] = {{\n  {}\n}};\n",
                        decimal_words(&der, width, big)
                    ),
                    2,
                ),
                (
                    format!(
                        "const {ty} p[] = {{{}}};\n",
                        decimal_words(key.as_bytes(), width, big)
                    ),
                    1,
                ),
            ] {
                let got = found(&text);
                if got != vec![(line, "byte-array".to_string())] {
                    let head: String = text.chars().take(60).collect();
                    missed.push(format!("{head:?}… ({width}, {big}): {got:?}"));
                }
            }
        }
    }
    assert!(missed.is_empty(), "{}", missed.join("\n"));
    let mut cert = vec![0x30, 0x82, 0x03, 0x0d, 0x30, 0x82, 0x01, 0xf5, 0xa0, 0x03];
    cert.extend(noise(33, 700));
    let ports: Vec<String> = (0..200u32).map(|k| (1024 + k * 37).to_string()).collect();
    quiet(&[
        format!("PORTS = [{}]\n", ports.join(", ")),
        format!(
            "const uint32_t t[] = {{{}}};\n",
            decimal_words(&noise(37, 800), 4, true)
        ),
        format!(
            "const uint16_t t[] = {{{}}};\n",
            decimal_words(&noise(38, 800), 2, false)
        ),
        format!(
            "const uint32_t ca[] = {{{}}};\n",
            decimal_words(&cert, 4, true)
        ),
        "SIZES = [4294967295, 65536, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]\n".to_string(),
    ]);
}
