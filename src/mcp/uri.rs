//! The presets' resource URIs (`ctxcurate://preset/NAME`), which the
//! server lists and reads and the tools name in their results.

/// Where a preset is as a resource.
pub const PRESET_URI: &str = "ctxcurate://preset/";

/// Preset `name`'s resource URI: the name percent-encoded (a preset name
/// comes from the project file and may hold anything, control characters
/// included; an ordinary name reads as itself).
pub fn preset_uri(name: &str) -> String {
    let mut uri = String::from(PRESET_URI);
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The preset name a resource URI names ([`preset_uri`]'s inverse);
/// `None` for another URI or a bad escape.
pub fn preset_of(uri: &str) -> Option<String> {
    let encoded = uri.strip_prefix(PRESET_URI)?.as_bytes();
    let mut name = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while i < encoded.len() {
        if encoded[i] == b'%' {
            let hex = std::str::from_utf8(encoded.get(i + 1..i + 3)?).ok()?;
            name.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            name.push(encoded[i]);
            i += 1;
        }
    }
    String::from_utf8(name).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preset_uri_escapes_the_name_and_reads_back() {
        assert_eq!(preset_uri("default"), "ctxcurate://preset/default");
        let hostile = "a\u{1b}[2J b/\n..é";
        let uri = preset_uri(hostile);
        assert!(uri.chars().all(|c| c.is_ascii_graphic()), "{uri:?}");
        assert_eq!(preset_of(&uri).as_deref(), Some(hostile));
        assert_eq!(preset_of("ctxcurate://preset/x%G1"), None);
        assert_eq!(preset_of("ctxcurate://preset/x%4"), None);
        assert_eq!(preset_of("file:///x"), None);
    }
}
