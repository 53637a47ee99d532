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
    // `sh < /dev/stdin`, `sh 9<Makefile`, `sh >out`: as without them
    // (recheck 28); and the values of options that take one (`sh -o
    // errexit`, `python3 -W ignore`), which are no script.
    let args = option_values_dropped(name, base, without_redirections(args));
    if code_reads_input(base, &args) || repl_reads_input(base, &args) {
        return true;
    }
    // The input by a name (`sh /dev/stdin`, `awk -f -`: recheck 26).
    let names_input = |a: &String| names_input(a);
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

/// `args` without their redirections (of any descriptor, in or out)
/// and the words they name.
fn without_redirections(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = args.into_iter();
    while let Some(word) = words.next() {
        let after_fd = word.trim_start_matches(|c: char| c.is_ascii_digit());
        if after_fd.starts_with(['<', '>']) {
            // `<`, `2>`: the next word is its target; `<&0`, `>f`: none.
            if after_fd.trim_start_matches(['<', '>', '&', '|']).is_empty() {
                words.next();
            }
            continue;
        }
        out.push(word);
    }
    out
}

/// The options of a shell, Python, Ruby or Node that take the next word
/// as their value.
const VALUE_OPTIONS: &[(&str, &[&str])] = &[
    ("sh", &["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]),
    ("python", &["-W", "-X", "--check-hash-based-pycs"]),
    ("ruby", &["-I", "-r", "-C", "-E", "--encoding"]),
    (
        "node",
        &[
            "-r",
            "--require",
            "--import",
            "--loader",
            "-C",
            "--conditions",
            "--input-type",
        ],
    ),
];

/// `args` without the values of the options that take one, and a
/// shell's `+e`-style options read as options (`-x`).
fn option_values_dropped(name: &str, base: &str, args: Vec<String>) -> Vec<String> {
    let shell = SHELLS.contains(&name);
    let family = match base {
        _ if shell => "sh",
        "nodejs" => "node",
        other => other,
    };
    let takes: &[&str] = VALUE_OPTIONS
        .iter()
        .find(|(f, _)| *f == family)
        .map_or(&[], |(_, o)| o);
    let mut out = Vec::new();
    let mut words = args.into_iter();
    while let Some(word) = words.next() {
        if takes.contains(&word.as_str()) {
            words.next();
            continue;
        }
        match word.strip_prefix('+') {
            Some(rest) if shell && !rest.is_empty() => out.push(format!("-{rest}")),
            _ => out.push(word),
        }
    }
    out
}

/// Whether the code an interpreter is given on its line runs what it
/// reads on its input (`python3 -c "exec(sys.stdin.read())"`, `perl -e
/// 'eval join "", <STDIN>'`: recheck 28).
fn code_reads_input(base: &str, args: &[String]) -> bool {
    if !["python", "perl", "ruby", "node", "nodejs", "php"].contains(&base) {
        return false;
    }
    args.iter().any(|a| {
        let runs = ["exec", "eval", "compile", "Function("]
            .iter()
            .any(|w| a.contains(w));
        let input = ["stdin", "STDIN", "readFileSync(0", "fileinput"]
            .iter()
            .any(|w| a.contains(w));
        runs && input
    })
}

/// Whether a program that reads commands on its input, some of which run
/// programs (`sqlite3`'s `.shell`, `psql`'s `\!`, `ed`'s `!`, `gdb`'s
/// `shell`), is given no commands of its own (recheck 28).
fn repl_reads_input(base: &str, args: &[String]) -> bool {
    let plain = args.iter().filter(|a| !a.starts_with('-')).count();
    let has = |options: &[&str]| {
        args.iter().any(|a| {
            options
                .iter()
                .any(|o| a == o || a.starts_with(&format!("{o}=")))
        })
    };
    match base {
        // `sqlite3 DB [SQL]`: with no SQL, its input.
        "sqlite" => !has(&["-cmd", "-init"]) && plain <= 1,
        "psql" => !has(&["-c", "--command", "-f", "--file"]),
        "mysql" | "mariadb" => !has(&["-e", "--execute"]),
        "ed" | "ex" | "red" => true,
        "gdb" => !has(&["-batch", "--batch"]),
        _ => false,
    }
}

/// Whether `args` redirect the program's input from something other
/// than its own input (`< tools/s.py`, `<<EOF`; not `< /dev/stdin`).
fn redirected_elsewhere(args: &[String]) -> bool {
    let Some(at) = args.iter().position(|a| is_input_redirection(a)) else {
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
    !target.is_empty() && target != "&0" && !names_input(target)
}

/// Whether shell word `word` redirects the standard input (`<`, `0<f`,
/// `<<`; not `9<f`).
fn is_input_redirection(word: &str) -> bool {
    let fd = &word[..word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len()];
    (fd.is_empty() || fd == "0") && word[fd.len()..].starts_with('<')
}

/// Whether `word` names a program's own input: `-`, `/dev/stdin`,
/// `/dev/fd/0`, `/proc/…/fd/0`, however its slashes are written.
pub(super) fn names_input(word: &str) -> bool {
    let parts: Vec<&str> = word
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    word == "-"
        || word.starts_with('/')
            && matches!(
                parts.as_slice(),
                ["dev", "stdin"] | ["dev", "fd", "0"] | ["proc", _, "fd", "0"]
            )
}

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
