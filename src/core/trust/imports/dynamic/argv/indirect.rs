//! The program-running calls a Python file reaches other than by a plain
//! import or attribute (consent round 7): `getattr(subprocess, "run")`,
//! `__import__("subprocess").run`, `importlib.import_module("os")`, a
//! module bound by assignment (`sp = subprocess`), a name bound to one of
//! those (`run = getattr(sp, "run")`), and `functools.partial(
//! subprocess.run, cmd)` with the names bound to it (`p = partial(…)`;
//! `p()` is read with the partial's arguments first). Each is read as the
//! call it names. A function of a program-running module chosen by a
//! name known only as it runs (`getattr(subprocess, name)`) is a refusal.
//! Text, not a parse: an odd spelling is not read (see the round's
//! report for what is left).

use super::super::{arguments, is_identifier, literal};
use super::{CALLS, Form, MODULE_OF};

/// The modules whose functions [`CALLS`] reads.
const MODULES: &[&str] = &["subprocess", "os", "pty", "asyncio"];

/// The most places of one construct (`getattr(`, `partial(`, …) read.
const MAX_PLACES: usize = 512;

/// One way a file names a call of [`CALLS`]: the text matched (up to
/// and with its `(`), how it hands over what it runs, whether it is a
/// bare name (`obj.name(` is then another function), and the arguments
/// that come before the call's own (a `functools.partial`'s).
#[derive(Clone)]
pub(super) struct Called {
    pub(super) call: String,
    pub(super) form: Form,
    pub(super) bare: bool,
    pub(super) extra: Vec<String>,
}

impl Called {
    pub(super) fn new(call: String, form: Form, bare: bool) -> Called {
        Called {
            call,
            form,
            bare,
            extra: Vec::new(),
        }
    }
}

/// The functions of `module` that [`CALLS`] reads, each with its form.
fn functions_of(module: &str) -> Vec<(&'static str, Form)> {
    let mut out = Vec::new();
    for (call, form) in CALLS {
        let name = call.trim_end_matches('(');
        match name.split_once('.') {
            Some((m, bare)) if m == module => out.push((bare, *form)),
            None if MODULE_OF.iter().any(|(n, m)| *n == name && *m == module) => {
                out.push((name, *form))
            }
            _ => {}
        }
    }
    out
}

/// Where the call whose `(` is at `open` ends (just past its `)`),
/// strings and brackets inside passed over.
fn call_end(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    for (i, c) in code[open..].char_indices().take(super::super::MAX_ARGS) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(open + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The places `name(` is called in `code` as a function of its own (no
/// longer name's end, no method), or as `prefix.name(`.
fn places<'a>(code: &'a str, name: &'a str, prefix: &'a str) -> impl Iterator<Item = usize> + 'a {
    code.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let before = &code[..at];
            let prev = before.chars().next_back();
            !prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                || before.ends_with(prefix)
                    && !before[..before.len() - prefix.len()]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .take(MAX_PLACES)
}

/// The texts that stand for a program-running module in `code`: its
/// name, an alias an import gives it, `__import__("m")` and
/// `import_module("m")` as written, and a name bound to any of these.
fn module_texts(code: &str, imported: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = MODULES
        .iter()
        .map(|m| (m.to_string(), m.to_string()))
        .collect();
    out.extend(
        imported
            .iter()
            .filter(|(_, m)| MODULES.contains(&m.as_str()))
            .cloned(),
    );
    for loader in ["__import__(", "import_module("] {
        for at in places(code, loader, "importlib.") {
            let open = at + loader.len() - 1;
            let Some(end) = call_end(code, open) else {
                continue;
            };
            let args = arguments(&code[open + 1..]);
            let Some(module) = args.first().and_then(|a| literal(a.trim())) else {
                continue;
            };
            if MODULES.contains(&module) {
                let text = code[at..end].to_string();
                if !out.iter().any(|(t, _)| *t == text) {
                    out.push((text, module.to_string()));
                }
            }
        }
    }
    // `sys.modules["subprocess"]`, `sys.modules.get("os")` as written
    // (round 8).
    for table in ["sys.modules[", "sys.modules.get("] {
        for at in places(code, table, "").filter(|&at| code[at..].starts_with(table)) {
            let open = at + table.len() - 1;
            let Some(end) = call_end(code, open) else {
                continue;
            };
            let key = arguments(&code[open + 1..]);
            let Some(module) = key.first().and_then(|k| literal(k.trim())) else {
                continue;
            };
            let text = code[at..end].to_string();
            if MODULES.contains(&module) && !out.iter().any(|(t, _)| *t == text) {
                out.push((text, module.to_string()));
            }
        }
    }
    // `sp = subprocess`, `sp = importlib.import_module("subprocess")`,
    // `sp, o = subprocess, os` (round 8), and once more (`q = sp`).
    for _ in 0..2 {
        for line in code.lines().take(super::MAX_LINES) {
            for (name, value) in bindings(line) {
                let value = value.strip_prefix("importlib.").unwrap_or(value);
                let Some(module) = out.iter().find(|(t, _)| t == value).map(|(_, m)| m.clone())
                else {
                    continue;
                };
                if !out.iter().any(|(t, _)| t == name) {
                    out.push((name.to_string(), module));
                }
            }
        }
    }
    out
}

/// The names a line binds, each with its value's text: `a = b`, and
/// `a, b = c, d` (or in parentheses) pair by pair.
fn bindings(line: &str) -> Vec<(&str, &str)> {
    let Some((names, values)) = line.trim().split_once('=') else {
        return Vec::new();
    };
    if values.starts_with('=') || names.ends_with(['!', '<', '>', '=']) {
        return Vec::new();
    }
    let strip = |t: &'_ str| -> String {
        let t = t.trim();
        t.strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t)
            .to_string()
    };
    let (names_text, values_text) = (strip(names), strip(values));
    if !names_text.contains(',') {
        let name = names.trim();
        return match is_identifier(name) {
            true => vec![(name, values.trim())],
            false => Vec::new(),
        };
    }
    let names: Vec<&str> = names.trim().trim_matches(['(', ')']).split(',').collect();
    let values: Vec<&str> = values.trim().trim_matches(['(', ')']).split(',').collect();
    if names.len() != values.len() || values_text.is_empty() {
        return Vec::new();
    }
    names
        .into_iter()
        .zip(values)
        .map(|(n, v)| (n.trim(), v.trim()))
        .filter(|(n, _)| is_identifier(n))
        .collect()
}

/// What [`add`] finds besides calls: the places of a program-running
/// module's function chosen by a computed name, each with the module.
pub(super) type Chosen = Vec<(usize, String)>;

/// Adds to `out` the calls `code` reaches through a module's other
/// texts (`__import__("subprocess").run(`, `sp.run(` after `sp =
/// subprocess`) and `getattr(module, "run")(`; `imported` holds the
/// import aliases of those modules (local name, module). Returns the
/// places of a function chosen by a computed name.
pub(super) fn add(code: &str, imported: &[(String, String)], out: &mut Vec<Called>) -> Chosen {
    let texts = module_texts(code, imported);
    let push = |out: &mut Vec<Called>, call: String, form: Form| {
        if !out.iter().any(|c| c.call == call) {
            out.push(Called::new(call, form, false));
        }
    };
    for (text, module) in &texts {
        if text == module {
            continue;
        }
        for (name, form) in functions_of(module) {
            push(out, format!("{text}.{name}("), form);
        }
    }
    let mut chosen = Vec::new();
    tables(code, &texts, out, &mut chosen);
    methodcallers(code, &texts, out, &mut chosen);
    for at in places(code, "getattr(", "builtins.") {
        let open = at + "getattr".len();
        let Some(end) = call_end(code, open) else {
            continue;
        };
        let args = arguments(&code[open + 1..]);
        let (Some(object), Some(name)) = (args.first(), args.get(1)) else {
            continue;
        };
        let object = object.trim();
        let Some(module) = texts.iter().find(|(t, _)| t == object).map(|(_, m)| m) else {
            // `getattr(sys.modules[name], "run")`: a module chosen as it
            // runs, given a program-running function's name or a
            // computed one (round 8).
            let table =
                object.starts_with("sys.modules[") || object.starts_with("sys.modules.get(");
            let runs = literal(name.trim()).is_none_or(|n| {
                MODULES
                    .iter()
                    .any(|m| functions_of(m).iter().any(|(f, _)| *f == n))
            });
            if table && runs {
                chosen.push((at, object.to_string()));
            }
            continue;
        };
        match literal(name.trim()) {
            Some(name) => {
                if let Some((_, form)) = functions_of(module).into_iter().find(|(n, _)| *n == name)
                {
                    push(out, format!("{}(", &code[at..end]), form);
                }
            }
            None => chosen.push((at, module.clone())),
        }
    }
    chosen
}

/// A module's table of functions (round 8): `vars(subprocess)`,
/// `subprocess.__dict__`, and a name bound to one (`d = vars(sp)`),
/// each with the module.
fn table_texts(code: &str, texts: &[(String, String)]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (text, module) in texts {
        out.push((format!("vars({text})"), module.clone()));
        out.push((format!("{text}.__dict__"), module.clone()));
    }
    for line in code.lines().take(super::MAX_LINES) {
        for (name, value) in bindings(line) {
            if let Some(module) = out.iter().find(|(t, _)| t == value).map(|(_, m)| m.clone())
                && !out.iter().any(|(t, _)| t == name)
            {
                out.push((name.to_string(), module));
            }
        }
    }
    out
}

/// Adds to `out` a function taken from a module's table by a literal
/// key (`vars(subprocess)["run"](`, `subprocess.__dict__.get("run")(`);
/// a key known only as it runs is `chosen`.
fn tables(code: &str, texts: &[(String, String)], out: &mut Vec<Called>, chosen: &mut Chosen) {
    for (table, module) in table_texts(code, texts) {
        for taken in [format!("{table}["), format!("{table}.get(")] {
            let bare = is_identifier(&table);
            let prefix = "";
            for at in places(code, &taken, prefix).filter(|&at| {
                !bare
                    || !code[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            }) {
                let open = at + taken.len() - 1;
                let Some(end) = call_end(code, open) else {
                    continue;
                };
                let key = arguments(&code[open + 1..]);
                let Some(key) = key.first().map(|k| k.trim()) else {
                    continue;
                };
                match literal(key) {
                    Some(name) => {
                        if let Some((_, form)) =
                            functions_of(&module).into_iter().find(|(n, _)| *n == name)
                        {
                            let call = format!("{}(", &code[at..end]);
                            if !out.iter().any(|c| c.call == call) {
                                out.push(Called::new(call, form, false));
                            }
                        }
                    }
                    None => chosen.push((at, module.clone())),
                }
            }
        }
    }
}

/// Adds to `out` `operator.methodcaller("system", line)` applied to a
/// program-running module (`(os)` after it, or a name bound to it called
/// with one: `m = methodcaller(…)`, `m(os)`): read as `os.system(line)`
/// where it is written. A computed name so applied is `chosen`.
fn methodcallers(
    code: &str,
    texts: &[(String, String)],
    out: &mut Vec<Called>,
    chosen: &mut Chosen,
) {
    for at in places(code, "methodcaller(", "operator.") {
        let open = at + "methodcaller".len();
        let Some(end) = call_end(code, open) else {
            continue;
        };
        let args = arguments(&code[open + 1..]);
        let Some(first) = args.first().map(|a| a.trim()) else {
            continue;
        };
        let applied = |rest: &str| -> Option<String> {
            let rest = rest.trim_start().strip_prefix('(')?;
            let object = arguments(rest).into_iter().next()?;
            texts
                .iter()
                .find(|(t, _)| t == object.trim())
                .map(|(_, m)| m.clone())
        };
        // `(os)` right after, or `m = methodcaller(…)` then `m(os)`.
        let mut module = applied(&code[end..]);
        let line_start = code[..at].rfind('\n').map_or(0, |s| s + 1);
        let before = code[line_start..at].trim_end_matches("operator.").trim();
        if module.is_none()
            && let Some(name) = before.strip_suffix('=').map(str::trim)
            && is_identifier(name)
        {
            module = places(code, name, "")
                .filter(|&p| p != line_start + code[line_start..].find(name).unwrap_or(0))
                .find_map(|p| applied(&code[p + name.len()..]));
        }
        let Some(module) = module else { continue };
        match literal(first) {
            Some(name) => {
                if let Some((_, form)) = functions_of(&module).into_iter().find(|(n, _)| *n == name)
                {
                    // Its arguments after the name are the call's.
                    let call = &code[at..open + 1 + args[0].len() + 1];
                    if args.len() > 1 && !out.iter().any(|c| c.call == call) {
                        out.push(Called::new(call.to_string(), form, false));
                    }
                }
            }
            None => chosen.push((at, module)),
        }
    }
}

/// Adds to `out` the places that call a function of `out` through
/// `functools.partial(f, args…)`: the partial itself read as `f(args…)`,
/// and a name bound to it (`p = partial(f, a)`) read as `f(a, …)` where
/// it is called.
pub(super) fn add_partials(code: &str, out: &mut Vec<Called>) {
    // A partial of a partial (`q = partial(p, w)`, round 8): once more.
    for _ in 0..3 {
        let before = out.len();
        add_partials_once(code, out);
        if out.len() == before {
            break;
        }
    }
}

fn add_partials_once(code: &str, out: &mut Vec<Called>) {
    let mut found = Vec::new();
    for at in places(code, "partial(", "functools.") {
        let open = at + "partial".len();
        let args = arguments(&code[open + 1..]);
        let Some(first) = args.first() else { continue };
        let function = first.trim();
        // `check_call(` is read wherever it is written: also as
        // `subprocess.check_call`.
        let same = |call: &str| {
            let called = call.trim_end_matches('(');
            called == function
                || !called.contains(['.', '(']) && function.ends_with(&format!(".{called}"))
        };
        let Some(called) = out.iter().find(|c| same(&c.call)) else {
            continue;
        };
        let form = called.form;
        // A partial's own arguments come first (`partial(p, w)`).
        let inner = called.extra.clone();
        if args.len() > 1 {
            // `partial(subprocess.run,` as written: its arguments follow.
            let call = &code[at..open + 1 + first.len() + 1];
            found.push(Called {
                call: call.to_string(),
                form,
                bare: false,
                extra: inner.clone(),
            });
        }
        let line_start = code[..at].rfind('\n').map_or(0, |s| s + 1);
        let before = code[line_start..at].trim_end_matches("functools.").trim();
        if let Some(name) = before.strip_suffix('=').map(str::trim)
            && is_identifier(name)
        {
            let extra = inner
                .iter()
                .cloned()
                .chain(args[1..].iter().map(|a| a.trim().to_string()))
                .filter(|a| !a.is_empty())
                .collect();
            found.push(Called {
                call: format!("{name}("),
                form,
                bare: true,
                extra,
            });
        }
    }
    for called in found {
        if !out.iter().any(|c| c.call == called.call) {
            out.push(called);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calls(code: &str) -> Vec<String> {
        let mut out = Vec::new();
        add(code, &[], &mut out);
        add_partials(code, &mut out);
        out.into_iter().map(|c| c.call).collect()
    }

    #[test]
    fn a_module_s_other_texts_and_getattr_of_a_literal_name_give_its_calls() {
        let found = calls(
            "sp = subprocess\nq = sp\ngetattr(os, 'system')('x')\n\
             m = importlib.import_module('subprocess')\n__import__(\"os\").popen('x')\n",
        );
        for call in [
            "sp.run(",
            "q.check_call(",
            "getattr(os, 'system')(",
            "m.Popen(",
            "__import__(\"os\").system(",
            "import_module('subprocess').run(",
        ] {
            assert!(found.iter().any(|c| c == call), "{call}: {found:?}");
        }
        // Another object's attribute, another module: none.
        let none = calls("getattr(job, 'run')()\ngetattr(os, 'getcwd')()\nx = json\n");
        assert!(none.is_empty(), "{none:?}");
        // Another module's alias is none of them.
        let mut none = Vec::new();
        let m = [("m".to_string(), "importlib.machinery".to_string())];
        assert!(add("getattr(m, name)\nm.run(x)\n", &m, &mut none).is_empty());
        assert!(none.iter().all(|c| !c.call.starts_with("m.")));
    }

    /// Round 8: tables, `sys.modules`, tuple unpacking, methodcaller.
    #[test]
    fn a_module_s_table_sys_modules_unpacking_and_methodcaller_give_its_calls() {
        let found = calls(
            "vars(subprocess)[\"run\"](x)\nsubprocess.__dict__['call'](x)\n\
             getattr(sys.modules['subprocess'], 'run')(x)\nsp, o = subprocess, os\n\
             d = vars(o)\nd.get('system')(x)\n\
             operator.methodcaller('system', x)(os)\nm = methodcaller('popen', y)\nm(o)\n",
        );
        for call in [
            "vars(subprocess)[\"run\"](",
            "subprocess.__dict__['call'](",
            "getattr(sys.modules['subprocess'], 'run')(",
            "sp.run(",
            "o.system(",
            "d.get('system')(",
            "methodcaller('system',",
            "methodcaller('popen',",
        ] {
            assert!(found.iter().any(|c| c == call), "{call}: {found:?}");
        }
        let mut out = Vec::new();
        let chosen = add(
            "vars(subprocess)[n](x)\ngetattr(sys.modules[m], 'run')(x)\n\
             methodcaller(n, x)(os)\n",
            &[],
            &mut out,
        );
        assert_eq!(chosen.len(), 3, "{chosen:?}");
        // Another object's methodcaller, another table: none.
        let none = calls("methodcaller('run', x)(job)\nvars(job)['run']()\nx, y = 1, 2\n");
        assert!(none.is_empty(), "{none:?}");
    }

    #[test]
    fn a_partial_of_a_partial_carries_both_arguments() {
        let mut out = vec![Called::new("subprocess.run(".into(), Form::Argv(0), false)];
        add_partials(
            "p = partial(subprocess.run, ['sh', w])\nq = partial(p, check=True)\n",
            &mut out,
        );
        let q = out.iter().find(|c| c.call == "q(").expect("q");
        assert_eq!(q.extra, ["['sh', w]", "check=True"]);
    }

    #[test]
    fn a_computed_name_is_chosen_and_a_partial_is_read_as_its_function() {
        let mut out = vec![
            Called::new("subprocess.run(".into(), Form::Argv(0), false),
            Called::new("check_call(".into(), Form::Argv(0), false),
        ];
        let chosen = add(
            "getattr(subprocess, name)(x)\ngetattr(os, n, None)\n",
            &[],
            &mut out,
        );
        assert_eq!(chosen.len(), 2);
        add_partials(
            "p = functools.partial(subprocess.run, ['sh', w], check=True)\n\
             q = partial(subprocess.run)\nr = partial(print, 'x')\n",
            &mut out,
        );
        let p = out.iter().find(|c| c.call == "p(").expect("p");
        assert_eq!(p.extra, ["['sh', w]", "check=True"]);
        assert!(out.iter().any(|c| c.call == "partial(subprocess.run,"));
        assert!(out.iter().any(|c| c.call == "q(" && c.extra.is_empty()));
        assert!(!out.iter().any(|c| c.call == "r("));
        add_partials("c = partial(subprocess.check_call, shell=True)\n", &mut out);
        assert!(
            out.iter()
                .any(|c| c.call == "c(" && c.extra == ["shell=True"])
        );
    }
}
