//! Scripts named by a command's input, not its words: `xargs python3 <
//! list` and `find … -exec sh {} \;` hand an interpreter the names they
//! read or find, which a new line or file can be; a shell or interpreter
//! given no script reads its program from its input.

use super::SHELLS;
use super::expansions::is_interpreter;
use super::shell_words::unquote;

/// The programs that read their program from their input when given no
/// script (`sh`, `python3`, `perl`, …).
const READ_INPUT: &[&str] = &[
    "python", "node", "nodejs", "ruby", "perl", "php", "lua", "luajit", "tclsh", "R", "pwsh",
    "deno", "bun",
];

/// Whether shell or interpreter `name` run with `args` reads its program
/// from its input (recheck 26: `summary_command = "sh"` runs the file it
/// summarizes; `… | python3` what the pipe gives): no script, no code on
/// the line (`-c`, `-e`, `-m`, `-r`, bundled as `-ec`), no input from a
/// file or a heredoc. `-` and `-s` read the input too.
pub(super) fn program_from_input(name: &str, args: &[String]) -> bool {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let args: Vec<String> = args.iter().map(|a| unquote(a)).collect();
    // `python3 - < tools/s.py`: its input is a file the line names.
    if redirected_elsewhere(&args) {
        return false;
    }
    // `sh < /dev/stdin`: as without it.
    let mut args = args;
    if let Some(at) = args.iter().position(|a| is_redirection(a)) {
        let bare = args[at]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('<')
            .is_empty();
        args.drain(at..(at + 1 + usize::from(bare)).min(args.len()));
    }
    // The input by a name (`sh /dev/stdin`, `awk -f -`: recheck 26).
    let names_input = |a: &String| INPUT_NAMES.contains(&a.as_str());
    if ["awk", "gawk", "mawk", "nawk"].contains(&base) {
        return args
            .windows(2)
            .any(|w| ["-f", "--file"].contains(&w[0].as_str()) && names_input(&w[1]));
    }
    if (SHELLS.contains(&name) || READ_INPUT.contains(&base))
        && args
            .iter()
            .find(|a| !a.starts_with('-') || *a == "-")
            .is_some_and(names_input)
    {
        return true;
    }
    if !SHELLS.contains(&name) && !READ_INPUT.contains(&base) {
        return false;
    }
    // The bundled letters that give the program on the line.
    let letters: &[char] = match base {
        _ if SHELLS.contains(&name) => &['c'],
        "python" => &['c', 'm'],
        "node" | "nodejs" => &['e', 'p'],
        "php" => &['r'],
        "pwsh" => &['c', 'f', 'C', 'F'],
        _ => &['e', 'E'],
    };
    args.iter().all(|a| {
        let code =
            a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a[1..].contains(letters);
        let long_code = ["--eval", "--print", "--command", "--module"]
            .iter()
            .any(|o| a == *o || a.starts_with(&format!("{o}=")));
        a.starts_with('-') && !code && !long_code && !a.starts_with('<')
    }) && !args.iter().any(|a| a.starts_with('<'))
}

/// Whether `args` redirect the program's input from something other
/// than its own input (`< tools/s.py`, `<<EOF`; not `< /dev/stdin`).
fn redirected_elsewhere(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| is_redirection(a)) else {
        return false;
    };
    let target = args[at]
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches('<');
    // The words keep a here-document as `<<` alone: its text is below.
    if args[at] == "<<" {
        return true;
    }
    let target = match target {
        "" => args.get(at + 1).map_or("", String::as_str),
        t => t,
    };
    !target.is_empty() && !INPUT_NAMES.contains(&target)
}

/// Whether shell word `word` redirects input (`<`, `0<f`, `<<<`).
fn is_redirection(word: &str) -> bool {
    word.trim_start_matches(|c: char| c.is_ascii_digit())
        .starts_with('<')
}

/// The names of a program's own input.
const INPUT_NAMES: &[&str] = &["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"];

/// Whether `program` run with `args` runs a script that is not written
/// there: one that comes in place of `placeholder` (`xargs -I{}`, `find
/// -exec … {}`), or, when the input's names are `appended` (plain
/// `xargs`), a shell or interpreter given no script of its own.
fn chooses_script(
    program: &str,
    args: &[String],
    placeholder: Option<&str>,
    appended: bool,
) -> bool {
    let holds = |word: &str| placeholder.is_some_and(|p| !p.is_empty() && word.contains(p));
    // Its words stop at a redirection (`xargs python3 < list`).
    let redirection = |w: &String| {
        w.trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(['<', '>'])
    };
    let args = &args[..args.iter().position(redirection).unwrap_or(args.len())];
    let plain = unquote(program);
    let name = plain.rsplit('/').next().unwrap_or(&plain);
    if holds(program) {
        return true;
    }
    let shell = SHELLS.contains(&name);
    if !shell && !is_interpreter(name) {
        return false;
    }
    if shell && args.iter().any(|a| holds(a)) {
        // `sh -c 'python3 {}'`: the line itself runs what comes in.
        return true;
    }
    let mut options = args.iter().take_while(|a| a.starts_with('-'));
    if shell && options.any(|o| !o.starts_with("--") && o.contains('c')) {
        return false;
    }
    match args.iter().find(|a| !a.starts_with('-')) {
        Some(script) => holds(script),
        None => appended,
    }
}

/// The program `xargs` runs (its first word that is no option nor an
/// option's value), when it runs a script its input names (`xargs
/// python3 < list`, `xargs -I{} sh {}`); `None` for a program that runs
/// no file it is given (`xargs rm`, `xargs python3 tools/s.py`).
pub(super) fn xargs_chooses(args: &[String]) -> Option<String> {
    // Options of GNU and BSD xargs that take a value as the next word.
    const VALUED: &[&str] = &[
        "-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "-J", "-R", "-S",
    ];
    let mut placeholder = None;
    let mut at = 0;
    while let Some(word) = args.get(at) {
        let plain = unquote(word);
        if plain == "--" {
            at += 1;
            break;
        }
        if !plain.starts_with('-') {
            break;
        }
        if plain == "-I" || plain == "-J" {
            placeholder = args.get(at + 1).map(|p| unquote(p));
        } else if let Some(p) = plain
            .strip_prefix("-I")
            .or_else(|| plain.strip_prefix("--replace="))
        {
            placeholder = Some(p.to_string());
        } else if plain == "-i" || plain == "--replace" {
            placeholder = Some("{}".into());
        }
        at += if VALUED.contains(&plain.as_str()) {
            2
        } else {
            1
        };
    }
    let program = args.get(at)?;
    let appended = placeholder.is_none();
    chooses_script(program, &args[at + 1..], placeholder.as_deref(), appended)
        .then(|| program.clone())
}

/// The program `find … -exec PROGRAM … {} ;` (or `-execdir`, `-ok`,
/// `-okdir`) runs, when it runs the files `find` finds as scripts: files
/// a pattern matches, which a new file can be.
pub(super) fn find_chooses(args: &[String]) -> Option<String> {
    let words: Vec<String> = args.iter().map(|a| unquote(a)).collect();
    let mut at = 0;
    while at < words.len() {
        if !["-exec", "-execdir", "-ok", "-okdir"].contains(&words[at].as_str()) {
            at += 1;
            continue;
        }
        let program = words.get(at + 1)?;
        let end = words[at + 2..]
            .iter()
            .position(|w| w == ";" || w == "\\;" || w == "+")
            .map_or(words.len(), |n| at + 2 + n);
        if chooses_script(program, &words[at + 2..end], Some("{}"), false) {
            return Some(program.clone());
        }
        at = end;
    }
    None
}
