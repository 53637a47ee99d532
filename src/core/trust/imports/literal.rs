//! The project files a script names as it runs them, beyond what it
//! imports or sources: a shell script's `sh tools/w.sh`, `./tools/w.sh`,
//! `python3 "$(dirname "$0")/w.py"`, `LIB=tools/lib.sh`; a Python
//! script's `exec(open("tools/conf.py").read())`,
//! `runpy.run_path("tools/other.py")`, `subprocess.run(["sh",
//! "tools/w.sh"])`. Each is looked for beside the script and in the root
//! (a file there is covered, and read in turn; "nothing" is recorded, so
//! one that appears later changes the fingerprint). A shell word naming
//! scripts by a pattern (`tools/conf.d/*.sh`) is a pattern: a script
//! added later would run unreviewed.

/// The extensions of files a script runs or loads, for a word without
/// a `/` (`w.sh`).
const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "ksh", "py", "pyw", "js", "mjs", "cjs", "ts", "mts", "cts", "rb", "pl",
    "pm", "php", "lua", "mk", "awk", "sed", "jq", "tcl", "r", "R", "ps1",
];

/// The most words read from one script.
const MAX_WORDS: usize = 20_000;

/// What a script names: paths (relative, as written) and patterns.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Named {
    pub(super) paths: Vec<String>,
    pub(super) patterns: Vec<String>,
    /// Folders put in `PATH` (`PATH=bin:$PATH`), as written: every
    /// program in them may run by its bare name.
    pub(super) folders: Vec<String>,
}

/// How deep quoted lines inside quoted lines are read.
const MAX_DEPTH: usize = 4;

impl Named {
    /// Take `word` (quotes dropped) as a path, a pattern, or nothing.
    fn take(&mut self, word: &str) {
        self.take_at(word, 0);
    }

    /// [`Named::take`] inside `depth` quoted lines: a word holding blanks
    /// is a line of its own (`bash -c "sh tools/w.sh"`, `R="sh
    /// tools/w.sh"` run as `$R`), each of its words taken.
    fn take_at(&mut self, word: &str, depth: usize) {
        if depth < MAX_DEPTH {
            self.take_expansions(word, depth);
        }
        // `LIB=tools/lib.sh`: the value.
        let (name, word) = match word.split_once('=') {
            Some((name, value))
                if !name.is_empty()
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') =>
            {
                (name, value)
            }
            _ => ("", word),
        };
        // `PATH=bin:$PATH`: a folder the commands after it are looked
        // for in.
        if name == "PATH" {
            for part in word.split(':') {
                let part = match part.contains('$') {
                    true => super::after_expansion(part).unwrap_or(""),
                    false => part,
                };
                if !part.is_empty() && !part.starts_with(['/', '~']) && !part.contains('$') {
                    let part = part.trim_end_matches('/').to_string();
                    if !self.folders.contains(&part) {
                        self.folders.push(part);
                    }
                }
            }
            return;
        }
        if word.contains(char::is_whitespace) && depth < MAX_DEPTH {
            let inner = shell_words(word);
            // A blank inside `$(…)` is no line of words.
            if inner.len() > 1 {
                for inner in inner {
                    self.take_at(&inner, depth + 1);
                }
                return;
            }
        }
        // `"$(dirname "$0")/w.sh"`, `$HERE/w.sh`: the part after the folder.
        let word = match word.contains('$') {
            true => super::after_expansion(word).unwrap_or(""),
            false => word,
        };
        let word = word.trim_matches(|c: char| "(){};,`".contains(c));
        if word.is_empty()
            || word.len() > 4096
            || word.starts_with(['/', '-', '~', '$'])
            || word.contains([':', '$', '\\', '\n'])
            || word.contains("://")
        {
            return;
        }
        let script_like = word.contains('/')
            || word
                .rsplit_once('.')
                .is_some_and(|(stem, ext)| !stem.is_empty() && SCRIPT_EXTENSIONS.contains(&ext));
        if !script_like {
            return;
        }
        let list = match word.contains(['*', '?', '[']) {
            true => &mut self.patterns,
            false => &mut self.paths,
        };
        if !list.iter().any(|w| w == word) {
            list.push(word.to_string());
        }
    }
}

impl Named {
    /// Without the paths `text` only writes (a log, a last input:
    /// [`super::written`]), which it does not run.
    fn without_written(mut self, text: &str) -> Self {
        self.paths
            .retain(|p| !super::written::only_written(text, p));
        self
    }

    /// What the expansions inside `word` run or name: a command
    /// substitution's line (`x=$(sh tools/w.sh)`, `"$(python3
    /// tools/w.py)"`) is a command line of its own, each of its words
    /// taken; the word a parameter expansion falls back to
    /// (`${S:-tools/w.sh}`) is a value the variable takes, taken as a
    /// literal assignment's is.
    fn take_expansions(&mut self, word: &str, depth: usize) {
        let unknown = crate::core::trust::unknown::substitutions;
        for body in unknown(word) {
            for inner in shell_words(&body) {
                self.take_at(&inner, depth + 1);
            }
        }
        for value in crate::core::trust::unknown::parameter_words(word) {
            self.take_at(&value, depth + 1);
        }
    }
}

/// What a shell script names: each word of each command, comments left
/// out. Only a pattern of scripts (`*.sh`, `plugins/*/run.py`) counts as
/// one: `rm -f *.o` runs nothing.
pub(super) fn shell(text: &str) -> Named {
    let mut out = Named::default();
    // The patterns of lines that pipe into a shell (`cat tools/conf.d/* |
    // sh`, recheck 25): whatever they match is run, extension or not.
    let mut piped = Vec::new();
    let mut words = 0;
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('#') {
            continue;
        }
        let before = out.patterns.len();
        let line_words = shell_words(line);
        for word in &line_words {
            words += 1;
            if words > MAX_WORDS {
                break;
            }
            out.take(word);
        }
        // A program file given inside an option (`awk -ftools/p.awk`).
        for (file, _) in awk_read(&line_words) {
            out.take(&file);
        }
        // `run-parts tools/conf.d`: every program in the folder runs, as
        // one in a folder put in `PATH` may (recheck 25).
        for (at, word) in line_words.iter().enumerate() {
            if word.rsplit('/').next() == Some("run-parts")
                && let Some(folder) = line_words[at + 1..].iter().find(|w| !w.starts_with('-'))
            {
                let folder = folder.trim_end_matches('/').to_string();
                if !folder.is_empty() && !folder.contains('$') && !out.folders.contains(&folder) {
                    out.folders.push(folder);
                }
            }
        }
        if pipes_into_a_shell(line) {
            piped.extend(out.patterns[before..].iter().cloned());
        }
        if words > MAX_WORDS {
            break;
        }
    }
    out.patterns.retain(|p| {
        piped.contains(p)
            || p.rsplit_once('.')
                .is_some_and(|(_, ext)| SCRIPT_EXTENSIONS.contains(&ext))
    });
    out.without_written(text)
}

/// Whether a shell line hands what it prints to a shell or an
/// interpreter to run (`… | sh`, `… | bash -s`, `… | python3 -`).
fn pipes_into_a_shell(line: &str) -> bool {
    line.split('|').skip(1).any(|part| {
        let program = part.split_whitespace().next().unwrap_or("");
        let program = program.rsplit('/').next().unwrap_or(program);
        ["sh", "bash", "dash", "zsh", "ksh", "source", "."].contains(&program)
            || ["python", "node", "perl", "ruby", "php", "lua"]
                .iter()
                .any(|i| {
                    program
                        .strip_prefix(i)
                        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
                })
    })
}

/// What a Python script names in its string literals: paths to files it
/// may run or read as code. A pattern in a string is not read here (a
/// `glob` call's is data as often as code).
pub(super) fn python(text: &str) -> Named {
    let mut out = words_of_literals(text, "#", &['\'', '"']);
    out.patterns.clear();
    out.without_written(text)
}

/// What a JavaScript or TypeScript file names in its string literals
/// (`'…'`, `"…"`, `` `…` ``): the files `child_process.execSync("sh
/// tools/w.sh")` or `spawnSync("node", ["tools/w.js"])` runs, read as
/// a Python script's are ([`python`]).
pub(super) fn js(text: &str) -> Named {
    // `__dirname + "/helper.js"`, `` `${__dirname}/helper.js` ``: the path
    // after the script's folder, looked for beside the script (recheck
    // 25: read as `/helper.js`, an absolute path, it named nothing).
    let text = &beside_the_script(text);
    let mut out = words_of_literals(text, "//", &['\'', '"', '`']);
    out.patterns.clear();
    out.folders.clear();
    out.without_written(text)
}

/// `text` with `__dirname + "/` and `${__dirname}/` cut to the quote
/// they open, so the literal reads as a path from the script's folder.
fn beside_the_script(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("__dirname") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("__dirname") {
        let after = &rest[at + "__dirname".len()..];
        let joined = after.trim_start().strip_prefix('+').map(str::trim_start);
        match joined {
            Some(lit) if lit.len() > 1 && matches!(&lit[..2], "\"/" | "'/" | "`/") => {
                // Drop the name, the `+` and the `/`: keep the quote.
                let before = &rest[..at];
                let before = before.strip_suffix("${").unwrap_or(before);
                out.push_str(before);
                out.push_str(&lit[..1]);
                rest = &lit[2..];
            }
            _ if after.starts_with("}/") && rest[..at].ends_with("${") => {
                out.push_str(&rest[..at - 2]);
                rest = &after[2..];
            }
            _ => {
                out.push_str(&rest[..at + "__dirname".len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// What a Perl, Ruby, PHP or Lua script names in its string literals
/// (`system('sh tools/w.sh')`, `` `sh tools/w.sh` ``, `os.execute("sh
/// tools/w.sh")`), read as a Python script's are ([`python`]): `comment`
/// starts its comment lines (round 7: these were not read, so an edit of
/// a script such a line runs ran unreviewed).
pub(super) fn script(text: &str, comment: &str) -> Named {
    let mut out = words_of_literals(text, comment, &['\'', '"', '`']);
    out.patterns.clear();
    out.folders.clear();
    out.without_written(text)
}

/// The words of the string literals (quoted by `quotes`) on the lines of
/// `text` that are no comment (starting with `comment`), each taken as a
/// name it may hold (`"sh tools/w.sh"` in `os.system`: each word); at
/// most [`MAX_WORDS`] literals.
fn words_of_literals(text: &str, comment: &str, quotes: &[char]) -> Named {
    let mut out = Named::default();
    let mut words = 0;
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with(comment) {
            continue;
        }
        for literal in literals(line, quotes) {
            words += 1;
            if words > MAX_WORDS {
                return out;
            }
            for word in literal.split_whitespace() {
                out.take(word);
            }
        }
    }
    out
}

/// The modules a script's string literals run with `python -m`
/// (`os.system("python3 -m tools.w")`, `subprocess.run([sys.executable,
/// "-m", "vv"])`): the word after each `-m` among a line's literals.
pub(super) fn python_modules(text: &str, quotes: &[char]) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().take(MAX_WORDS) {
        let mut after_m = false;
        for word in literals(line, quotes)
            .into_iter()
            .flat_map(str::split_whitespace)
        {
            if after_m && !out.iter().any(|m| m == word) {
                out.push(word.to_string());
            }
            after_m = word == "-m";
        }
    }
    out
}

/// The Python source a script's string literals hold when they hold an
/// import (`exec("import helper")`, `exec('from tools import h\nh.f()')`),
/// its `\n` read as line ends: what `exec` would run.
pub(super) fn python_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        for literal in string_literals(line) {
            if literal.contains("import") {
                out.push_str(&literal.replace("\\n", "\n").replace(';', "\n"));
                out.push('\n');
            }
        }
        if out.len() > 1 << 20 {
            break;
        }
    }
    out
}

/// The contents of the string literals (`'…'`, `"…"`) on a line of code.
pub(super) fn string_literals(line: &str) -> Vec<&str> {
    literals(line, &['\'', '"'])
}

/// The programs that read a script (a shell, `python`, `node`, …, as
/// `imports.rs` knows them by a `#!` line).
const SCRIPT_PROGRAMS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "python", "python3", "node", "nodejs", "ruby", "perl",
    "php", "lua",
];

/// The file each program among `words` that reads a script runs
/// (`python3 tools/app`, `sh tools/app`: the first word after it that is
/// no option, as written), with the program's name (`python3.11`:
/// `python`): a file without an extension or `#!` line is read as that
/// program reads it.
pub fn run_with(words: &[String]) -> Vec<(String, String)> {
    let mut out = ruby_required(words);
    out.extend(ruby_read(words));
    out.extend(awk_read(words));
    for (at, word) in words.iter().enumerate() {
        let name = word.rsplit('/').next().unwrap_or(word);
        let program = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !SCRIPT_PROGRAMS.contains(&program) && !SCRIPT_PROGRAMS.contains(&name) {
            continue;
        }
        if let Some(script) = words[at + 1..].iter().find(|w| !w.starts_with('-')) {
            out.push((script.clone(), program.to_string()));
        }
    }
    out
}

/// The files rake and Bundler read as Ruby whatever their name (round
/// 12, item 3): `rake -f tools/Buildfile` (`--rakefile`), and the Gemfile
/// `BUNDLE_GEMFILE=` names.
fn ruby_read(words: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rake = false;
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        let file = if let Some(gemfile) = word.strip_prefix("BUNDLE_GEMFILE=") {
            Some(gemfile)
        } else if word.rsplit('/').next() == Some("rake") {
            rake = true;
            None
        } else if rake && (word == "-f" || word == "--rakefile") {
            rest.next().map(String::as_str)
        } else if rake {
            word.strip_prefix("--rakefile=")
                .or_else(|| word.strip_prefix("-f").filter(|f| !f.is_empty()))
        } else {
            None
        };
        out.extend(file.map(|f| (f.to_string(), "ruby".to_string())));
    }
    out
}

/// The program files awk reads (recheck 26): `-f FILE`, `-fFILE`,
/// `--file=FILE`, gawk's `-i`/`--include` and `-E`/`--exec` the same ways.
fn awk_read(words: &[String]) -> Vec<(String, String)> {
    const AWKS: [&str; 4] = ["awk", "gawk", "mawk", "nawk"];
    let mut out = Vec::new();
    let mut awk = false;
    let mut rest = words.iter();
    while let Some(word) = rest.next() {
        if AWKS.contains(&word.rsplit('/').next().unwrap_or(word)) {
            awk = true;
            continue;
        }
        if !awk {
            continue;
        }
        let file = match word.as_str() {
            "-f" | "--file" | "-i" | "--include" | "-E" | "--exec" => {
                rest.next().map(String::as_str)
            }
            w => ["--file=", "--include=", "--exec=", "-f", "-i", "-E"]
                .iter()
                .find_map(|p| w.strip_prefix(p))
                .filter(|f| !f.is_empty()),
        };
        out.extend(file.map(|f| (f.to_string(), "awk".to_string())));
    }
    out
}

/// The project files Ruby requires before its script (recheck 21, item
/// 9): `ruby -r./tools/q x.rb`, `-r ./q.rb`, and the same in `RUBYOPT=`;
/// a library by a bare name is a gem's (its `-I` folders are searched
/// by the requires reader only for the script's own requires).
fn ruby_required(words: &[String]) -> Vec<(String, String)> {
    let mut options: Vec<&str> = Vec::new();
    let mut ruby = false;
    for word in words {
        if let Some(value) = word.strip_prefix("RUBYOPT=") {
            options.extend(value.split_whitespace());
        } else if word
            .rsplit('/')
            .next()
            .is_some_and(|n| n.starts_with("ruby"))
        {
            ruby = true;
        } else if ruby {
            options.push(word);
        }
    }
    let mut out = Vec::new();
    let mut options = options.into_iter();
    while let Some(option) = options.next() {
        let library = match option.strip_prefix("-r") {
            Some("") => options.next(),
            Some(name) => Some(name),
            None => None,
        };
        let Some(library) = library.filter(|l| l.starts_with("./") || l.starts_with("../")) else {
            continue;
        };
        let file = match library.ends_with(".rb") {
            true => library.to_string(),
            false => format!("{library}.rb"),
        };
        out.push((file, "ruby".to_string()));
    }
    out
}

/// [`run_with`] of each line of a Python script, read in its string
/// literals, where `sys.executable` is Python, and so is what
/// `runpy.run_path(…)` and `exec(open(…)…)` run
/// (`subprocess.run([sys.executable, "tools/app"])`).
pub(super) fn python_programs(text: &str) -> Vec<(String, String)> {
    let stand_ins = [
        ("sys.executable", "'python3'"),
        ("run_path(", "run_path('python3', "),
        ("exec(open(", "exec('python3', open("),
    ];
    programs_in_literals(text, "#", &['\'', '"'], &stand_ins)
}

/// [`run_with`] of each line of a JavaScript or TypeScript file, read
/// in its string literals, where `process.execPath` is Node
/// (`spawnSync("node", ["tools/app"])`).
pub(super) fn js_programs(text: &str) -> Vec<(String, String)> {
    let stand_ins = [("process.execPath", "'node'")];
    programs_in_literals(text, "//", &['\'', '"', '`'], &stand_ins)
}

/// [`run_with`] of each line of a shell script (`python3 tools/app`,
/// `sh "$(dirname "$0")/app"`: the part after the folder).
pub(super) fn shell_programs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().take(MAX_WORDS) {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for (word, program) in run_with(&shell_words(line)) {
            let word = match word.contains('$') {
                true => super::after_expansion(&word).map(str::to_string),
                false => Some(word),
            };
            out.extend(word.map(|w| (w, program)));
        }
    }
    out
}

/// [`run_with`] of the words of each line's string literals (quoted by
/// `quotes`; lines starting with `comment` left out), with each
/// `stand_ins` text put in place first.
fn programs_in_literals(
    text: &str,
    comment: &str,
    quotes: &[char],
    stand_ins: &[(&str, &str)],
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().take(MAX_WORDS) {
        if line.trim_start().starts_with(comment) {
            continue;
        }
        let mut line = std::borrow::Cow::Borrowed(line);
        for (from, to) in stand_ins {
            if line.contains(from) {
                line = std::borrow::Cow::Owned(line.replace(from, to));
            }
        }
        let words: Vec<String> = literals(&line, quotes)
            .into_iter()
            .flat_map(str::split_whitespace)
            .map(str::to_string)
            .collect();
        if words.len() > 1 {
            out.extend(run_with(&words));
        }
    }
    out
}

/// The contents of the string literals on a line of code, quoted by any
/// of `quotes`.
fn literals<'a>(line: &'a str, quotes: &[char]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find(quotes) {
        let quote = rest[at..].chars().next().unwrap_or('"');
        let body = &rest[at + 1..];
        match body.find(quote) {
            Some(end) => {
                out.push(&body[..end]);
                rest = &body[end + 1..];
            }
            None => break,
        }
    }
    out
}

/// The words of a shell line, quotes dropped: split at blanks and at
/// `;`, `&`, `|` outside quotes and `$(…)`/`${…}`.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for c in line.chars() {
        let after = std::mem::replace(&mut previous, c);
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => quote = Some(c),
            // Only `$(…)`/`${…}` hold a word together: a function's
            // `{ … }` and a subshell's `( … )` hold commands.
            (None, '(' | '{') if after == '$' || depth > 0 => {
                depth += 1;
                word.push(c);
            }
            (None, '(' | ')' | '{' | '}') if depth == 0 => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            (None, ')' | '}') => {
                depth = depth.saturating_sub(1);
                word.push(c);
            }
            (None, c) if depth == 0 && (c.is_whitespace() || ";&|<>".contains(c)) => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            (None, c) => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_script_names_what_it_runs() {
        let named = shell(
            "#!/bin/sh\n# sh tools/commented.sh\nsh tools/w.sh && ./tools/x.sh\n\
             python3 \"$(dirname \"$0\")\"/w.py --out /tmp/o.txt\nLIB=tools/lib.sh; . \"$LIB\"\n\
             for f in tools/conf.d/*.sh; do . \"$f\"; done\nrm -f *.o build/*.tmp\n\
             echo done > out.txt; curl https://x.example/a.sh\nload() { . tools/fn.sh; }\n",
        );
        assert_eq!(
            named.paths,
            [
                "tools/w.sh",
                "./tools/x.sh",
                "w.py",
                "tools/lib.sh",
                "tools/fn.sh"
            ]
        );
        assert_eq!(named.patterns, ["tools/conf.d/*.sh"]);
        let named = shell("run-parts --verbose tools/conf.d/\n");
        assert_eq!(named.folders, ["tools/conf.d"]);
        // Recheck 25: a pattern piped into a shell, extension or not.
        let named = shell(
            "cat tools/conf.d/* | sh
cat docs/* | wc -l
cat lib/[a-z]* | bash -s
",
        );
        assert_eq!(named.patterns, ["tools/conf.d/*", "lib/[a-z]*"]);
    }

    #[test]
    fn a_shell_script_s_expansions_name_what_they_run() {
        let named = shell(
            "x=$(sh tools/a.sh)\necho \"$(python3 tools/b.py \"$(sh tools/c.sh)\")\"\n\
             S=${S:-tools/d.sh}; . \"${L:=tools/e.sh}\"; sh ${X:+tools/f.sh}\n\
             d=$(dirname \"$0\"); n=${#S}; p=${S%/*}\n",
        );
        assert_eq!(
            named.paths,
            [
                "tools/a.sh",
                "tools/b.py",
                "tools/c.sh",
                "tools/d.sh",
                "tools/e.sh",
                "tools/f.sh"
            ]
        );
    }

    /// Recheck 25: a path built from the script's folder and a literal
    /// is read from the script's folder.
    #[test]
    fn a_js_path_after_the_script_s_folder_is_read_beside_it() {
        let named = js(
            "eval(fs.readFileSync(__dirname + \"/helper.js\", \"utf8\"))\n\
             const p = `${__dirname}/lib/x.cjs`\nconst d = __dirname\n",
        );
        assert_eq!(named.paths, ["helper.js", "lib/x.cjs"]);
    }

    #[test]
    fn a_python_script_names_the_files_its_strings_hold() {
        let named = python(
            "exec(open(\"tools/conf.py\").read())\nrunpy.run_path('tools/other.py')\n\
             subprocess.run([\"python3\", \"tools/w.py\"])\nos.system(\"sh tools/w.sh\")\n\
             print('hello world', \"a/b\") # 'x/y.py'\nglob.glob('plugins/*.py')\n",
        );
        assert_eq!(
            named.paths,
            // A comment after code is read too: more, never less.
            [
                "tools/conf.py",
                "tools/other.py",
                "tools/w.py",
                "tools/w.sh",
                "a/b",
                "x/y.py"
            ]
        );
        assert!(named.patterns.is_empty());
    }
}
