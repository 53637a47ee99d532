//! Tar headers, for reading a tar by its members (round seventeen): a
//! member's size, in octal or GNU's base-256, and whether a block opens
//! with a header. What a member holds is read by the caller.

/// A tar block's size: headers and members start on its multiples.
pub(super) const BLOCK: usize = 512;

/// Whether `block` opens with a tar header (POSIX `ustar\0` or GNU's
/// `ustar  ` at byte 257).
pub(super) fn is_header(block: &[u8]) -> bool {
    block.get(257..262) == Some(b"ustar")
}

/// The size of the member whose header is `block`: the octal digits of
/// bytes 124–135 (blanks and NULs around them), or GNU's base-256 (the
/// first byte's high bit set). `None` when it is neither, or not a header.
pub(super) fn member_size(block: &[u8]) -> Option<u64> {
    if !is_header(block) {
        return None;
    }
    let field = block.get(124..136)?;
    if field[0] & 0x80 != 0 {
        // Base-256: the rest big-endian (a size past 8 GiB).
        return field[1..]
            .iter()
            .try_fold(u64::from(field[0] & 0x7f), |n, &b| {
                n.checked_mul(256)?.checked_add(u64::from(b))
            });
    }
    let digits = field
        .iter()
        .skip_while(|&&b| b == b' ' || b == 0)
        .take_while(|&&b| b != b' ' && b != 0);
    let mut size: u64 = 0;
    let mut any = false;
    for &b in digits {
        if !(b'0'..=b'7').contains(&b) {
            return None;
        }
        size = size.checked_mul(8)?.checked_add(u64::from(b - b'0'))?;
        any = true;
    }
    any.then_some(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(size: &[u8]) -> Vec<u8> {
        let mut h = vec![0u8; BLOCK];
        h[..5].copy_from_slice(b"a.env");
        h[124..124 + size.len()].copy_from_slice(size);
        h[257..263].copy_from_slice(b"ustar\0");
        h
    }

    #[test]
    fn sizes_are_read() {
        assert_eq!(member_size(&header(b"00000000012\0")), Some(10));
        assert_eq!(member_size(&header(b" 17 ")), Some(15));
        let mut big = header(b"");
        big[124] = 0x80;
        big[135] = 2;
        big[134] = 1;
        assert_eq!(member_size(&big), Some(258));
        assert_eq!(member_size(&header(b"00000000019\0")), None);
        assert_eq!(member_size(&header(b"")), None);
        assert_eq!(member_size(&[0u8; BLOCK]), None);
    }
}
