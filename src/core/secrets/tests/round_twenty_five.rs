//! Round 25 of the secret shapes (round 24's residuals): a `.env` shown
//! as a hex dump (`xxd`, `hexdump -C`, `od`, `xxd -p`), a shell word of
//! bare variables (`DB_PASSWORD=$P1$P2`), and a flow map's key alone on
//! its line with its `:` below.

use super::quiet;
use super::round_twenty_two::each_found;

const ENV: &[u8] = b"DB_HOST=db.internal\nDB_PASSWORD=Vb6nQ1xZ8kLm3Wu\nGITHUB_TOKEN=ghp_4mXq9rT2vB7nK1pL8sW3yZ6cF0hJ5dG2aE9u\n";

/// `bytes` as `xxd` prints them (`group` bytes a group, 16 a line), or as
/// `hexdump -C` does when `canonical`.
fn dump(bytes: &[u8], group: usize, canonical: bool) -> String {
    let mut out = String::new();
    for (n, line) in bytes.chunks(16).enumerate() {
        let mut hex = String::new();
        for (i, b) in line.iter().enumerate() {
            let apart = if canonical { i == 8 } else { i % group == 0 };
            if i > 0 && apart {
                hex.push(' ');
            }
            if canonical {
                hex.push(' ');
            }
            hex.push_str(&format!("{b:02x}"));
        }
        let shown: String = line
            .iter()
            .map(|&b| {
                if (0x20..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        let width = if canonical {
            49
        } else {
            16 * 2 + 16 / group - 1
        };
        if canonical {
            out.push_str(&format!("{:08x} {hex:<width$}  |{shown}|\n", n * 16));
        } else {
            out.push_str(&format!("{:08x}: {hex:<width$}  {shown}\n", n * 16));
        }
    }
    out
}

#[test]
fn round_twenty_five_a_dotenv_in_a_hex_dump_is_read() {
    let plain: String = ENV
        .chunks(30)
        .map(|l| l.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    each_found(&[
        ("xxd", dump(ENV, 2, false)),
        ("xxd -g1", dump(ENV, 1, false)),
        ("xxd -g4", dump(ENV, 4, false)),
        ("hexdump -C", dump(ENV, 1, true)),
        ("xxd -p", plain),
    ]);
    quiet(&[
        dump(
            b"DB_HOST=db.internal\nDB_PASSWORD=\nAPI_KEY=your-key-here\n",
            2,
            false,
        ),
        dump(b"# Configuration\nLOG_LEVEL=debug\nWORKERS=4\n", 1, true),
        dump(&(0..=255u8).collect::<Vec<u8>>(), 2, false),
    ]);
}

#[test]
fn round_twenty_five_bare_variables_and_a_lone_flow_key_are_read() {
    each_found(&[
        (
            "bare shell variables",
            "P1='Vb6nQ1xZ'\nP2='8kLm3Wu4'\nexport DB_PASSWORD=$P1$P2\n",
        ),
        (
            "braced bare variables",
            "P1='Vb6nQ1xZ'\nP2='8kLm3Wu4'\nDB_PASSWORD=${P1}${P2} ./run\n",
        ),
        (
            "flow map key alone",
            "db: {\n  user: app,\n  password\n    : Vb6nQ1xZ8kLm3Wu\n}\n",
        ),
    ]);
    quiet(&[
        "A='usr'\nB='local'\nPREFIX=$A$B\nINSTALL_DIR=$PREFIX$B\n".into(),
        "const pw = isProd ?\n  password\n  : fallbackPassword1\n".into(),
    ]);
}
