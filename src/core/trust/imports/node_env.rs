//! The variables a Node script gives its children's environment a value
//! known only as it runs (`process.env.RUNNER = w`,
//! `Object.assign(process.env, {RUNNER: w})`, a child's `env:
//! {...process.env, RUNNER: w}`), and the strings it hands a shell, so a
//! shell child that runs `"$RUNNER"` is refused as it is for Python's
//! `os.environ["RUNNER"] = w` (`env_path::unknown_variables`). Text, not
//! a parse: any key of an object written where `env` is named counts
//! (more refusals, never fewer).

use super::env_path::{self, Given};

/// The most lines an `env: {` object is read over.
const MAX_BLOCK: usize = 64;

/// The variables JavaScript `text` gives a value known only as it runs,
/// each with the line that does it (trimmed, at most 80 characters).
pub(super) fn unknown_variables(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    // Lines left of an object opened where `env` is named.
    let mut block = 0usize;
    let mut depth = 0i64;
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let names_env = code.contains("env");
        if !names_env && block == 0 {
            continue;
        }
        block = block.saturating_sub(1);
        for name in candidates(code) {
            let forms = env_path::only_where(code, &name, |before| {
                let trimmed = before.trim_end();
                before.ends_with("process.env.")
                    || before.ends_with(['"', '\''])
                    || trimmed.is_empty()
                    || trimmed.ends_with(['{', ','])
            });
            let unknown = env_path::given(&forms, &name).iter().any(|g| match g {
                Given::Expression(e) => {
                    let e = e.trim().trim_end_matches(',').trim();
                    // `env: {`: an object, whose keys are read.
                    !e.starts_with('{') && env_path::literal(e).is_none_or(|l| l.contains("${"))
                }
                Given::Shell(word) => word.contains(['$', '`']),
            });
            if unknown && !out.iter().any(|(n, _)| *n == name) {
                let shown: String = code.trim().chars().take(80).collect();
                out.push((name, shown));
            }
        }
        // `env: {` (or `env = {`, `Object.assign(process.env, {`) left
        // open: its keys follow on the next lines.
        let opened = code.matches('{').count() as i64 - code.matches('}').count() as i64;
        if names_env && opened > 0 && block == 0 {
            block = MAX_BLOCK;
            depth = opened;
        } else if block > 0 {
            depth += opened;
            if depth <= 0 {
                block = 0;
            }
        }
    }
    out
}

/// The names a line may give a value: after `process.env.`, quoted, or
/// an object's key (`RUNNER:`).
fn candidates(code: &str) -> Vec<String> {
    let mut out: Vec<String> = env_path::literals(code)
        .into_iter()
        .filter(|l| env_path::is_name(l))
        .collect();
    let words =
        code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':'));
    for word in words {
        let word = word.trim_end_matches(':');
        let name = word.strip_prefix("process.env.").unwrap_or(word);
        if env_path::is_name(name) && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// The strings of JavaScript `text` that hold a `$` when the file hands
/// a shell a line: it calls `exec`/`execSync`, passes `shell: true`, or
/// its strings name a shell and then `-c`.
pub(super) fn shell_lines(text: &str) -> Vec<String> {
    if !text.contains('$') {
        return Vec::new();
    }
    let strings: Vec<String> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| {
            // A template's own quotes are no literal of the line.
            let outside: String = l.split('`').step_by(2).collect::<Vec<_>>().join("``");
            env_path::literals(&outside).into_iter().chain(templates(l))
        })
        .collect();
    let with_c = strings.windows(2).any(|w| {
        let name = w[0].rsplit('/').next().unwrap_or(&w[0]);
        super::SHELLS.contains(&name) && w[1].starts_with('-') && w[1].contains('c')
    });
    let calls = ["exec(", "execSync(", "shell: true", "shell:true"];
    if !with_c && !calls.iter().any(|c| text.contains(c)) {
        return Vec::new();
    }
    strings.into_iter().filter(|s| s.contains('$')).collect()
}

/// The texts of a line's template literals (`` `sh "$R"` ``), each
/// `${…}` left as written.
fn templates(line: &str) -> Vec<String> {
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_a_node_script_gives_a_child_a_computed_value_is_named() {
        let names = |text: &str| -> Vec<String> {
            unknown_variables(text)
                .into_iter()
                .map(|(n, _)| n)
                .collect()
        };
        assert_eq!(
            names("process.env.RUNNER = fs.readFileSync(f)\n"),
            ["RUNNER"]
        );
        assert_eq!(names("process.env['RUNNER'] = w\n"), ["RUNNER"]);
        assert_eq!(
            names("Object.assign(process.env, {RUNNER: w})\n"),
            ["RUNNER"]
        );
        assert_eq!(
            names(
                "spawn('sh', ['a.sh'], {\n  env: {\n    ...process.env,\n    RUNNER: w,\n  },\n})\n"
            ),
            ["RUNNER"]
        );
        assert_eq!(
            names("process.env.RUNNER = 'tools/w.sh'\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            names("const x = {a: w}\nif (process.env.CI) {}\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            shell_lines("cp.execSync(`sh \"$RUNNER\"`)\n"),
            ["sh \"$RUNNER\""]
        );
        assert_eq!(
            shell_lines("const re = /\\$x/\nlet s = '$x'\n"),
            Vec::<String>::new()
        );
    }
}
