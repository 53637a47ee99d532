//! Numbers as the TUI shows them in tight columns: compact counts (`1.2k`).
//! Full counts with thousands separators are `text::words::thousands`.

/// `1234` → `1.2k`, for tight columns.
pub fn compact(n: usize) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=99_999 => format!("{:.1}k", n as f64 / 1000.0),
        100_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(compact(1234), "1.2k");
        assert_eq!(compact(250_000), "250k");
    }
}
