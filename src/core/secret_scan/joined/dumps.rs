//! A file's bytes shown as a hex dump (round 25): `xxd` (any `-g`, `-c`,
//! `-u`), `hexdump -C` and `od -A x -t x1z` print a `.env` sixteen bytes a
//! line, each line's text in a column after its hex, so a password or a
//! token runs across lines and no rule sees it whole. The text columns of
//! two lines or more in a row are joined: the offsets, hex and column
//! marks between them are cut, and a newline's `.` stands for the newline
//! it is (a carriage return's for nothing), so the copy reads the dumped
//! text as it was. A line counts as a dump's only when its column is
//! exactly what its hex spells (a printable byte as itself, any other as
//! `.`), so text that merely looks like one is left alone. `xxd -p`
//! prints hex alone, 30 bytes a line: lines of hex alone and of one length
//! (the last may be shorter) are joined by cutting their line ends, so the
//! hex rule reads and decodes them as one run.

use std::ops::Range;

use super::Cut;

/// The longest line read as a dump's (`xxd -c 256` prints about 900
/// bytes; longer lines are something else).
const MAX_LINE: usize = 1 << 10;

/// The most bytes one dump line shows.
const MAX_BYTES: usize = 256;

/// The fewest hex digits of a line of `xxd -p` (it prints 60).
const MIN_PLAIN: usize = 32;

/// The cuts joining each run of two dump lines or more into the text
/// they show. One pass over the lines; each line is read a bounded number
/// of times.
pub(super) fn cuts(text: &str) -> Vec<Cut> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // The run of dump lines read so far: each line's range and its
    // column's, with the bytes the column shows.
    let mut run: Vec<(Range<usize>, Range<usize>, Vec<u8>)> = Vec::new();
    // The line ends of lines of hex alone in a row, with their length.
    let mut plain: Option<(usize, Vec<Range<usize>>)> = None;
    let mut start = 0;
    while start < bytes.len() {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |n| start + n);
        let mut line = start..end;
        if bytes[..end].ends_with(b"\r") && end > start {
            line.end -= 1;
        }
        match dump_line(bytes, line.clone()) {
            Some((column, shown)) => run.push((line.clone(), column, shown)),
            None => flush(&mut run, &mut out),
        }
        let hex_alone = line.len() >= 2
            && line.len() % 2 == 0
            && bytes[line.clone()].iter().all(u8::is_ascii_hexdigit);
        plain = match plain.take() {
            // The line before was as long: join this one to it.
            Some((len, mut ends)) if hex_alone && line.len() <= len => {
                ends.push(ends_before(bytes, line.start));
                if line.len() < len {
                    out.extend(ends.into_iter().map(Cut::removed));
                    None
                } else {
                    Some((len, ends))
                }
            }
            before => {
                if let Some((_, ends)) = before {
                    out.extend(ends.into_iter().map(Cut::removed));
                }
                (hex_alone && line.len() >= MIN_PLAIN).then(|| (line.len(), Vec::new()))
            }
        };
        start = end + 1;
    }
    flush(&mut run, &mut out);
    if let Some((_, ends)) = plain {
        out.extend(ends.into_iter().map(Cut::removed));
    }
    out.sort_by_key(|c| c.range.start);
    out
}

/// The line end (`\n` or `\r\n`) just before the line starting at `start`.
fn ends_before(bytes: &[u8], start: usize) -> Range<usize> {
    let from = if start >= 2 && bytes[start - 2] == b'\r' {
        start - 2
    } else {
        start - 1
    };
    from..start
}

/// The cuts of a finished run (emptied): nothing for a single line.
fn flush(run: &mut Vec<(Range<usize>, Range<usize>, Vec<u8>)>, out: &mut Vec<Cut>) {
    if run.len() >= 2 {
        let mut from = run[0].0.start;
        for (_, column, shown) in run.iter() {
            if from < column.start {
                out.push(Cut::removed(from..column.start));
            }
            for (i, &b) in shown.iter().enumerate() {
                let at = column.start + i;
                match b {
                    b'\n' => out.push(Cut::standing(at..at + 1, '\n')),
                    b'\r' => out.push(Cut::removed(at..at + 1)),
                    _ => {}
                }
            }
            from = column.end;
        }
        if let Some((line, _, _)) = run.last()
            && from < line.end
        {
            out.push(Cut::removed(from..line.end));
        }
    }
    run.clear();
}

/// The text column of a dump line and the bytes it shows, when `line`
/// is an offset, groups of hex and a column that is what they spell.
fn dump_line(bytes: &[u8], line: Range<usize>) -> Option<(Range<usize>, Vec<u8>)> {
    if line.len() > MAX_LINE {
        return None;
    }
    let text = &bytes[line.clone()];
    let offset = text.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    if !(4..=16).contains(&offset) {
        return None;
    }
    let mut i = offset + usize::from(text.get(offset) == Some(&b':'));
    let mut shown = Vec::new();
    loop {
        let spaces = text[i..].iter().take_while(|&&b| b == b' ').count();
        if spaces == 0 {
            return None;
        }
        // The column may open here: after the hex read so far.
        if !shown.is_empty()
            && let Some(column) = column_at(text, i + spaces, &shown)
        {
            return Some((line.start + column.start..line.start + column.end, shown));
        }
        if spaces > 2 || shown.len() >= MAX_BYTES {
            return None;
        }
        i += spaces;
        let digits = text[i..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        if digits == 0 || digits % 2 == 1 || digits > 16 {
            return None;
        }
        for pair in text[i..i + digits].chunks(2) {
            shown.push(hex(pair[0])? << 4 | hex(pair[1])?);
        }
        i += digits;
    }
}

/// The range of `text` holding the column from `at` to the line's end
/// (its `|…|` or `>…<` marks left out), when it shows `shown`.
fn column_at(text: &[u8], at: usize, shown: &[u8]) -> Option<Range<usize>> {
    let rest = &text[at..];
    let marked = |open: u8, close: u8| {
        (rest.first() == Some(&open)
            && rest.len() == shown.len() + 2
            && rest.last() == Some(&close))
        .then(|| at + 1..at + 1 + shown.len())
    };
    let column = marked(b'|', b'|')
        .or_else(|| marked(b'>', b'<'))
        .or_else(|| (rest.len() == shown.len()).then_some(at..at + shown.len()))?;
    let spells = text[column.clone()].iter().zip(shown).all(|(&c, &b)| {
        let printable = (0x20..0x7f).contains(&b);
        if printable { c == b } else { c == b'.' }
    });
    spells.then_some(column)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> String {
        super::super::with_cuts_made(text, cuts(text))
    }

    /// What the dumps below show, the carriage return left out.
    const DUMPED: &str = "DB_HOST=db.internal\nDB_PASSWORD=CvFRCHQVgGAHn7in\nAPI_KEY=ghp_abc9\n";

    #[test]
    fn xxd_hexdump_and_od_read_as_the_text_they_show() {
        let xxd = "00000000: 4442 5f48 4f53 543d 6462 2e69 6e74 6572  DB_HOST=db.inter\n\
                   00000010: 6e61 6c0a 4442 5f50 4153 5357 4f52 443d  nal.DB_PASSWORD=\n\
                   00000020: 4376 4652 4348 5156 6747 4148 6e37 696e  CvFRCHQVgGAHn7in\n\
                   00000030: 0d0a 4150 495f 4b45 593d 6768 705f 6162  ..API_KEY=ghp_ab\n\
                   00000040: 6339 0a                                  c9.\n";
        assert_eq!(read(xxd), format!("{DUMPED}\n"));
        let hexdump = "00000000  44 42 5f 48 4f 53 54 3d  64 62 2e 69 6e 74 65 72  |DB_HOST=db.inter|\n\
                       00000010  6e 61 6c 0a 44 42 5f 50  41 53 53 57 4f 52 44 3d  |nal.DB_PASSWORD=|\n\
                       00000020  43 76 46 52 43 48 51 56  67 47 41 48 6e 37 69 6e  |CvFRCHQVgGAHn7in|\n\
                       00000030  0d 0a 41 50 49 5f 4b 45  59 3d 67 68 70 5f 61 62  |..API_KEY=ghp_ab|\n\
                       00000040  63 39 0a                                          |c9.|\n\
                       00000043\n";
        assert_eq!(read(hexdump), format!("{DUMPED}\n00000043\n"));
        let od = "000000 44 42 5f 48 4f 53 54 3d 64 62 2e 69 6e 74 65 72  >DB_HOST=db.inter<\r\n\
                  000010 6e 61 6c 0a 44 42 5f 50 41 53 53 57 4f 52 44 3d  >nal.DB_PASSWORD=<\r\n";
        assert_eq!(read(od), "DB_HOST=db.internal\nDB_PASSWORD=\r\n");
        let line = "4142434445464748".repeat(3);
        let plain = format!("{line}\r\n{line}\n4142\n{line}\n");
        assert_eq!(read(&plain), format!("{line}{line}4142\n{line}\n"));
    }

    #[test]
    fn lines_whose_column_is_not_their_hex_stay() {
        for text in [
            // One line alone: the plain scan reads it.
            "00000000: 4442 5f48  DB_H\n",
            // A column that does not spell the hex.
            "00000000: 4442 5f48  DB_X\n00000004: 4442 5f48  DB_H\n",
            "0000: 41 42\n0002: 41 42\n",
            "commit 4442 5f48 DB_H\nmore 4442 DB\n",
            "1234 5678\n9abc def0\n",
            // Hex alone, but short lines, or a longer one after.
            "4142434445464748\n4142434445464748\n",
            "41424344454647484142434445464748414243444546\n41424344454647484142434445464748414243444546414243\n",
        ] {
            assert_eq!(read(text), text, "{text:?}");
        }
    }

    /// A megabyte of lines that almost make a dump, and one long line of
    /// hex: read in bounded time, nothing cut.
    #[test]
    fn hostile_dumps_read_in_bounded_time() {
        let text =
            "00000000: 4142 4344 4546 4748 4142 4344 4546 4748  ABCDEFGHABCDEFGX\n".repeat(1 << 14);
        assert!(cuts(&text).is_empty());
        let text = format!("00000000:{}\n", " 41".repeat(1 << 18));
        assert!(cuts(&text).is_empty());
    }
}
