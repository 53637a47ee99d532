//! Numbers and counted nouns as people read them: `97,649`, `1 file`,
//! `3 files`, `1 entry`, `2 entries`, `2.1 MB`.

/// `n` with thousands separators: `97,649`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes, in decimal units with one decimal past a thousand:
/// `768 B`, `6.1 KB`, `2.1 MB`, `1.5 GB` (the units terminals' limits and
/// file managers use).
pub fn bytes(n: usize) -> String {
    const UNITS: [(f64, &str); 3] = [(1e9, "GB"), (1e6, "MB"), (1e3, "KB")];
    if n < 1000 {
        return format!("{n} B");
    }
    let x = n as f64;
    for (size, unit) in UNITS {
        // Rounded as shown: 999,960 bytes is `1.0 MB`, not `1000.0 KB`.
        if (x / size * 10.0).round() >= 10.0 {
            return format!("{:.1} {unit}", x / size);
        }
    }
    format!("{n} B")
}

/// `n` and `noun`, plural unless `n` is 1: `1 file`, `0 files`,
/// `2 entries`, `1,200 matches`.
pub fn plural(n: usize, noun: &str) -> String {
    format!("{} {}", thousands(n), noun_for(n, noun))
}

/// `noun` as the count `n` wants it: `file` for 1, `files` otherwise
/// (English rules for the nouns we use: `entries`, `matches`, `keys`).
/// For a count written some other way than [`plural`]'s.
pub fn noun_for(n: usize, noun: &str) -> String {
    if n == 1 {
        return noun.to_owned();
    }
    if let Some(stem) = noun
        .strip_suffix('y')
        .filter(|s| !s.ends_with(['a', 'e', 'i', 'o', 'u']))
    {
        format!("{stem}ies")
    } else if noun.ends_with(['s', 'x']) || noun.ends_with("ch") || noun.ends_with("sh") {
        format!("{noun}es")
    } else {
        format!("{noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_nouns() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(97_649), "97,649");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(plural(1, "file"), "1 file");
        assert_eq!(plural(0, "target"), "0 targets");
        assert_eq!(plural(2, "entry"), "2 entries");
        assert_eq!(plural(2, "key"), "2 keys");
        assert_eq!(plural(3, "match"), "3 matches");
        assert_eq!(plural(1_500, "file"), "1,500 files");
        assert_eq!(noun_for(1, "line"), "line");
        assert_eq!(noun_for(4062, "byte"), "bytes");
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(768), "768 B");
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(6_138), "6.1 KB");
        assert_eq!(bytes(768_000), "768.0 KB");
        assert_eq!(bytes(999_960), "1.0 MB");
        assert_eq!(bytes(2_100_000), "2.1 MB");
        assert_eq!(bytes(1_500_000_000), "1.5 GB");
    }
}
