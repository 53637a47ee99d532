//! Round 19 of the secret shapes through the real binary (issue 37, the
//! items round 18b left): an archive in a byte array that cannot be read
//! whole refuses the build, as its base64 does; one that reads whole (a
//! gzipped web page in firmware) builds, and so does a broken archive in a
//! project's tests (archive libraries test with them).

use crate::common;

use common::{Project, gzip, stderr};

/// `bytes` as `xxd -i` writes them, array `name`.
fn xxd(name: &str, bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .chunks(12)
        .map(|row| {
            let cells: Vec<String> = row.iter().map(|b| format!("0x{b:02x}")).collect();
            format!("  {}", cells.join(", "))
        })
        .collect();
    format!(
        "unsigned char {name}[] = {{\n{}\n}};\nunsigned int {name}_len = {};\n",
        lines.join(",\n"),
        bytes.len()
    )
}

fn escapes(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("\\x{b:02x}")).collect()
}

/// Item 1: a gzip bomb in firmware refuses the build, as not fully
/// checked; a gzipped page builds, and the bomb as a test's fixture too.
#[test]
fn round_nineteen_an_unreadable_archive_in_a_byte_array_refuses_the_build() {
    let bomb = gzip(&vec![0u8; 17 << 20]);
    let p = Project::fixture();
    p.write("main/assets.h", &xxd("assets_gz", &bomb));
    p.ok(&["add", "main/assets.h"]);
    let out = p.run(&["build", "-q"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "likely secret: main/assets.h:2: encoded data that could not be fully checked"
        ),
        "{err}"
    );

    let page =
        "<!DOCTYPE html><html><body><form action=\"/save\"></form></body></html>\n".repeat(40);
    let p = Project::fixture();
    p.write(
        "main/index.h",
        &xxd("index_html_gz", &gzip(page.as_bytes())),
    );
    p.write(
        "tests/test_gzip.py",
        &format!("BOMB = b\"{}\"\n", escapes(&bomb)),
    );
    p.ok(&["add", "main/index.h", "tests/test_gzip.py"]);
    let out = p.run(&["build", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
}
