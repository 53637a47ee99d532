//! The files a script only writes (recheck 25): a summarizer that keeps a
//! log or its last input (`open("tools/summaries.log", "a")`,
//! `fs.appendFileSync("tools/log.txt", …)`, `echo … >> tools/run.log`,
//! `tee -a sum.log`) creates or changes that file each time it runs. Such
//! a file is no code the script runs, so it is not covered: covered, the
//! consent lapsed after the first run with nothing edited. A path the
//! script also names anywhere else (reads, runs, sources) stays covered.

/// How far before a path's opening quote its writing call is looked for.
const BEFORE: usize = 48;

/// How far after a path's closing quote its write mode is looked for.
const AFTER: usize = 40;

/// Whether every place `path` appears in `text` writes it (and it appears
/// at least once so).
pub(in crate::core::trust) fn only_written(text: &str, path: &str) -> bool {
    if path.is_empty() {
        return false;
    }
    let mut seen = false;
    for (at, _) in text.match_indices(path) {
        let before = &text[floor(text, at.saturating_sub(BEFORE))..at];
        let after = &text[at + path.len()..ceil(text, at + path.len() + AFTER)];
        // The path whole: not part of a longer name.
        let whole = !before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || "_./-".contains(c))
            && !after
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || "_/-".contains(c));
        if !whole {
            continue;
        }
        if !written_here(before, after) {
            return false;
        }
        seen = true;
    }
    seen
}

/// Whether the text just `before` and `after` a path writes it.
fn written_here(before: &str, after: &str) -> bool {
    let line_before = before.rsplit('\n').next().unwrap_or(before);
    let opened = line_before.trim_end_matches(['"', '\'', '`']).trim_end();
    let after = after.trim_start_matches(['"', '\'', '`']);
    // A shell's redirection or `tee` (`>> f`, `2>f`, `tee -a f`).
    let redirected = opened.ends_with('>') && !opened.ends_with("<>");
    let teed = {
        let words: Vec<&str> = opened.split_whitespace().collect();
        words
            .iter()
            .rev()
            .take_while(|w| w.starts_with('-'))
            .count()
            < words.len()
            && words
                .iter()
                .rev()
                .find(|w| !w.starts_with('-'))
                .is_some_and(|w| *w == "tee")
    };
    // Node's writing calls, the path their first argument.
    let node = [
        "appendFileSync(",
        "writeFileSync(",
        "appendFile(",
        "writeFile(",
        "createWriteStream(",
    ]
    .iter()
    .any(|call| opened.ends_with(call));
    // Python's `open(path, "a")`, `open(path, mode="w")`, and a path
    // object written (`Path("f").write_text(…)`, `.open("a")`).
    let mode = after.trim_start().strip_prefix(',').map(|rest| {
        let rest = rest.trim_start();
        let rest = rest.strip_prefix("mode").map_or(rest, |m| {
            m.trim_start().trim_start_matches('=').trim_start()
        });
        rest.trim_start_matches(['"', '\''])
            .starts_with(['w', 'a', 'x'])
    });
    let python_open =
        (opened.ends_with("open(") || opened.ends_with("io.open(")) && mode == Some(true);
    let path_written = opened.ends_with("Path(")
        && [
            ").write_text(",
            ").write_bytes(",
            ").open(\"a",
            ").open('a",
            ").open(\"w",
            ").open('w",
        ]
        .iter()
        .any(|w| after.starts_with(w));
    redirected || teed || node || python_open || path_written
}

/// `i`, moved back to a character's start.
fn floor(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `i`, at most the text's length, moved on to a character's start.
fn ceil(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_or_output_the_script_only_writes_is_written_only() {
        for (text, path) in [
            (
                "with open(\"tools/summaries.log\", \"a\") as f:\n",
                "tools/summaries.log",
            ),
            ("open('summ.log', mode='w').write(x)\n", "summ.log"),
            ("Path(\"out/last.txt\").write_text(s)\n", "out/last.txt"),
            (
                "fs.appendFileSync(\"tools/log.txt\", line);\n",
                "tools/log.txt",
            ),
            (
                "echo done >> tools/run.log\ncat x 2>tools/err.log\n",
                "tools/run.log",
            ),
            ("cat > last_input.txt; echo s\n", "last_input.txt"),
            ("sh tools/x.sh | tee -a sum.log\n", "sum.log"),
        ] {
            assert!(only_written(text, path), "{text}");
        }
    }

    #[test]
    fn a_path_also_read_or_run_is_not_written_only() {
        for (text, path) in [
            (
                "open('tools/h.py', 'a').write(x)\nexec(open('tools/h.py').read())\n",
                "tools/h.py",
            ),
            ("echo 'x' > tools/gen.sh\nsh tools/gen.sh\n", "tools/gen.sh"),
            ("with open(\"tools/conf.py\") as f:\n", "tools/conf.py"),
            ("open(\"tools/a.py\", \"r\")\n", "tools/a.py"),
            ("sh tools/w.sh < tools/input.txt\n", "tools/input.txt"),
            ("tee_config = 'tools/w.sh'\n", "tools/w.sh"),
            ("nothing here\n", "tools/w.sh"),
        ] {
            assert!(!only_written(text, path), "{text}");
        }
    }
}
