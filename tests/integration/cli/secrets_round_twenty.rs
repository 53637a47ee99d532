//! Round 20 of the secret shapes through the real binary (issue 37):
//! bzip2 and zstd are read, every stream and frame of them, so a key in
//! one refuses the build as that key (it was refused unread before) and
//! one without a secret builds; a frame that cannot be read whole still
//! refuses it as not fully checked.

use std::io::Write;

use crate::common;

use common::{Project, base64, stderr};

const ENV: &[u8] = b"# DB_PASSWORD is rotated monthly; DB_PASSWORD is in the vault\n\
    LOG_LEVEL=info\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\n";

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut out = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    out.write_all(bytes).expect("in memory");
    out.finish().expect("in memory")
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// `bytes` as a C array on line 2.
fn c_array(name: &str, bytes: &[u8]) -> String {
    let cells: Vec<String> = bytes.iter().map(|b| format!("0x{b:02x}")).collect();
    format!(
        "#include <stdint.h>\nstatic const uint8_t {name}[] = {{{}}};\n",
        cells.join(", ")
    )
}

/// Item 1: a `.env` in the second stream of a pbzip2 file (base64) or in
/// a zstd frame (a firmware array) refuses the build as found; a zstd
/// frame cut short refuses it as not fully checked; the same streams of
/// a harmless text build.
#[test]
fn round_twenty_bzip2_and_zstd_are_read_by_build() {
    let streams = [bzip2(b"LOG_LEVEL=info\n"), bzip2(ENV)].concat();
    let frame = zstd(ENV);
    for (name, text) in [
        (
            "k8s/backup.yaml",
            format!("data:\n  env: {}\n", base64(&streams)),
        ),
        ("main/env.h", c_array("env_zst", &frame)),
    ] {
        common::assert_build_refuses_planted(name, &text, 2);
    }

    let p = Project::fixture();
    let cut = &frame[..frame.len() - 6];
    p.write("k8s/cut.yaml", &format!("data:\n  env: {}\n", base64(cut)));
    p.ok(&["add", "k8s/cut.yaml"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("likely secret: k8s/cut.yaml:2: encoded data that could not be fully checked"),
        "{err}"
    );

    let notes = b"LOG_LEVEL=info\nNOTE=hello world\n".repeat(20);
    let p = Project::fixture();
    p.write(
        "k8s/notes.yaml",
        &format!(
            "data:\n  notes: {}\n",
            base64(&[bzip2(&notes), bzip2(&notes)].concat())
        ),
    );
    p.write("main/notes.h", &c_array("notes_zst", &zstd(&notes)));
    p.ok(&["add", "k8s/notes.yaml", "main/notes.h"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
