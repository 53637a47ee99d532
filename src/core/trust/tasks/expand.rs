//! Make's expansion of makefile text, for review: variables (`$(X)`,
//! `${X}`, `$X`), substitution references (`$(X:.c=.o)`) and make's
//! functions (`call`, `foreach`, `if`, `patsubst`, …), so a recipe's
//! `$(call RUN,tools/x.sh)` names the script it runs. `$(eval …)` text
//! and `$(shell …)` commands are handed back to be read. Bounded in
//! depth, bytes and steps: past a bound the caller keeps the text as
//! written, which still names what it could not expand
//! ([`names_unexpanded`]), so a goal reaching it cannot be consented to.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// How deep references nest (a variable naming a variable, calls in
/// calls) before an expansion stops.
const MAX_DEPTH: usize = 32;

/// The most words one `foreach` goes over.
const MAX_WORDS: usize = 4096;

/// The functions this expansion evaluates. One still in a text after
/// its expansion was stopped by a bound, except `shell` (its output is
/// not known: the call stays, its command read as a task line).
const FUNCTIONS: &[&str] = &[
    "abspath",
    "addprefix",
    "addsuffix",
    "and",
    "basename",
    "call",
    "dir",
    "error",
    "eval",
    "filter",
    "filter-out",
    "findstring",
    "firstword",
    "flavor",
    "foreach",
    "if",
    "info",
    "join",
    "lastword",
    "notdir",
    "or",
    "origin",
    "patsubst",
    "realpath",
    "shell",
    "sort",
    "strip",
    "subst",
    "suffix",
    "value",
    "warning",
    "wildcard",
    "word",
    "wordlist",
    "words",
];

/// Functions whose result is not known here (`$(file <x)` reads a file
/// into the text, `$(guile …)` runs code): a line naming one is not
/// reviewed.
const OPAQUE: &[&str] = &["file", "guile", "let", "intcmp"];

/// Whether make sets `name` itself and a makefile's text names it for
/// what make runs (`$(MAKE) -C sub`, `$(CC)`, `$(RM)`, the programs
/// [`super::MAKE_PROGRAMS`] reads): kept as written when the makefile
/// does not set it, where another unset variable is empty.
fn built_in(name: &str) -> bool {
    matches!(name, "MAKE" | "RM") || super::MAKE_PROGRAMS.contains(&name)
}

/// One expansion over a makefile's variables.
pub(super) struct Expansion<'a> {
    variables: &'a HashMap<String, String>,
    /// Variables set to more than was kept: naming one stops it.
    dropped: &'a HashSet<String>,
    /// A variable not set (the environment's, the command line's) was
    /// named since this was last cleared.
    unknown: bool,
    /// The most bytes any text being built may reach.
    room: usize,
    /// References and calls it may still evaluate.
    pub(super) steps: usize,
    /// Bytes of values it may still read (a reference to a large value
    /// costs its size, whatever it yields).
    pub(super) work: usize,
    /// The arguments of each `call` being made, innermost last.
    calls: Vec<Vec<String>>,
    /// Each `foreach` variable with its word, innermost last.
    loops: Vec<(String, String)>,
    /// The makefile variables being expanded, outermost first.
    active: Vec<String>,
    /// A variable given another value for this expansion (one branch of
    /// a conditional that set it).
    pub(super) overriding: Option<(String, String)>,
    /// The makefile variables named, each once (at most 64).
    pub(super) named: Vec<String>,
    /// The commands of the `$(shell …)` calls met, expanded.
    pub(super) shells: Vec<String>,
    /// The texts of the `$(eval …)` calls met, expanded: makefile lines.
    pub(super) evals: Vec<String>,
    /// A bound stopped it: its result is not to be used.
    pub(super) stopped: bool,
}

impl<'a> Expansion<'a> {
    /// An expansion over `variables` that builds no text past `room`
    /// bytes (nor hands back more), evaluates at most `steps` references
    /// and reads at most `work` bytes of values.
    pub(super) fn new(
        variables: &'a HashMap<String, String>,
        dropped: &'a HashSet<String>,
        room: usize,
        steps: usize,
        work: usize,
    ) -> Expansion<'a> {
        Expansion {
            variables,
            dropped,
            unknown: false,
            room,
            steps,
            work,
            calls: Vec::new(),
            loops: Vec::new(),
            active: Vec::new(),
            overriding: None,
            named: Vec::new(),
            shells: Vec::new(),
            evals: Vec::new(),
            stopped: false,
        }
    }

    /// `text` expanded: each reference to a variable set put in, each
    /// function evaluated; a variable not set is empty, as make has it
    /// (but make's own programs, [`built_in`], kept as written), and `$$`
    /// stays `$$` (the shell's `$`). Empty when [`Self::stopped`].
    pub(super) fn expand(&mut self, text: &str) -> String {
        let out = self.text(text, 0);
        if self.stopped { String::new() } else { out }
    }

    fn text(&mut self, text: &str, depth: usize) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            rest = &rest[at..];
            let taken = match rest.as_bytes().get(1) {
                Some(b'(' | b'{') => match closing(rest) {
                    Some(end) => {
                        let expanded = self.reference(&rest[2..end], &rest[..=end], depth);
                        out.push_str(&expanded);
                        end + 1
                    }
                    // Unclosed: make stops there; kept as written.
                    None => {
                        out.push_str(rest);
                        rest.len()
                    }
                },
                Some(b'$') => {
                    out.push_str("$$");
                    2
                }
                Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => {
                    let expanded = self.reference(&rest[1..2], &rest[..2], depth);
                    out.push_str(&expanded);
                    2
                }
                _ => {
                    out.push('$');
                    1
                }
            };
            rest = &rest[taken..];
            if self.stopped {
                return String::new();
            }
            if out.len() > self.room {
                self.stopped = true;
                return String::new();
            }
        }
        out.push_str(rest);
        out
    }

    /// What reference `inner` (written `whole`) expands to.
    fn reference(&mut self, inner: &str, whole: &str, depth: usize) -> String {
        if depth >= MAX_DEPTH || self.steps == 0 {
            self.stopped = true;
            return String::new();
        }
        self.steps -= 1;
        if let Some((name, args)) = inner.split_once([' ', '\t']) {
            if FUNCTIONS.contains(&name) {
                return self.function(name, args, whole, depth);
            }
            // Not known here: kept, so the line names it.
            if OPAQUE.contains(&name) {
                // Said for what it is (recheck 26: only "past what can be
                // read" was said).
                super::refuse(format!(
                    "uses make's `$({name} …)`, whose result is known only as make runs"
                ));
                return whole.to_string();
            }
        }
        // A substitution reference: `$(X:.c=.o)`, `$(X:%.c=%.o)`.
        let (name, replace) = match substitution(inner) {
            Some((name, from, to)) => (name, Some((from, to))),
            None => (inner, None),
        };
        // A computed name: `$($(X)_FLAGS)`.
        let name = self.text(name, depth + 1);
        let Some(value) = self.lookup(&name) else {
            if self.dropped.contains(&name) {
                self.stopped = true;
                return String::new();
            }
            self.unknown = true;
            // `$(@D)`, `$(<F)`: the goal's, filled in later.
            let kept = built_in(&name) || automatic(whole);
            return match kept || name.contains('$') {
                true => whole.to_string(),
                false => String::new(),
            };
        };
        // A variable that names itself, through others: make stops with
        // an error, and here one only comes of a variable set in both
        // branches of a conditional (`X ?= $(Y)` in one, `Y ?= $(X)` in
        // the other), each branch's value kept.
        let global = !self.local(&name);
        if global && self.active.contains(&name) {
            return String::new();
        }
        if global && !self.named.contains(&name) && self.named.len() < 64 {
            self.named.push(name.clone());
        }
        // Too large to fit, whatever it expands to, or to read.
        if value.len() > self.room || value.len() > self.work {
            self.stopped = true;
            return String::new();
        }
        self.work -= value.len();
        if global {
            self.active.push(name);
        }
        let value = self.text(&value, depth + 1);
        if global {
            self.active.pop();
        }
        match replace {
            Some((from, to)) => {
                let from = self.text(from, depth + 1);
                let to = self.text(to, depth + 1);
                let (from, to) = match from.contains('%') {
                    true => (from, to),
                    false => (format!("%{from}"), format!("%{to}")),
                };
                patsubst(&from, &to, &value)
            }
            None => value,
        }
    }

    /// Whether `name` is a `call`'s argument or a `foreach` word here.
    fn local(&self, name: &str) -> bool {
        (!self.calls.is_empty() && !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
            || self.loops.iter().any(|(v, _)| v == name)
    }

    /// The value of variable `name`: a `call`'s numbered argument (empty
    /// past those given), a `foreach` word, or a makefile's variable.
    fn lookup(&self, name: &str) -> Option<Cow<'a, str>> {
        if let Some(args) = self.calls.last()
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_digit())
        {
            let n: usize = name.parse().unwrap_or(usize::MAX);
            return Some(Cow::Owned(args.get(n).cloned().unwrap_or_default()));
        }
        if let Some((_, word)) = self.loops.iter().rev().find(|(v, _)| v == name) {
            return Some(Cow::Owned(word.clone()));
        }
        if let Some((_, value)) = self.overriding.as_ref().filter(|(v, _)| v == name) {
            return Some(Cow::Owned(value.clone()));
        }
        let variables: &'a HashMap<String, String> = self.variables;
        variables.get(name).map(|v| Cow::Borrowed(v.as_str()))
    }

    /// What function `name` with `args` (as written) expands to.
    fn function(&mut self, name: &str, args: &str, whole: &str, depth: usize) -> String {
        let d = depth + 1;
        let most = match name {
            "call" | "and" | "or" => usize::MAX,
            "foreach" | "if" | "patsubst" | "subst" | "wordlist" => 3,
            "addprefix" | "addsuffix" | "filter" | "filter-out" | "findstring" | "join"
            | "word" => 2,
            _ => 1,
        };
        let args = arguments(args, most);
        let arg = |i: usize| args.get(i).copied().unwrap_or("");
        match name {
            "call" => self.call(&args, d),
            "foreach" => self.foreach(arg(0), arg(1), arg(2), d),
            "if" => {
                let known = std::mem::take(&mut self.unknown);
                let condition = self.text(arg(0), d);
                let condition = condition.trim();
                let unknown = std::mem::replace(&mut self.unknown, known);
                if unknown || condition.contains('$') {
                    // Not known here (the environment's): either branch.
                    let then = self.text(arg(1), d);
                    let otherwise = self.text(arg(2), d);
                    format!("{then} {otherwise}")
                } else if condition.is_empty() {
                    self.text(arg(2), d)
                } else {
                    self.text(arg(1), d)
                }
            }
            "and" | "or" => {
                let mut last = String::new();
                for a in &args {
                    last = self.text(a, d);
                    if (name == "and") == last.trim().is_empty() {
                        break;
                    }
                }
                last
            }
            "eval" => {
                let text = self.text(arg(0), d);
                self.hand_back(text.len());
                self.evals.push(text.replace("$$", "$"));
                String::new()
            }
            "shell" => {
                let command = self.text(arg(0), d);
                self.hand_back(command.len());
                self.shells.push(command.clone());
                format!("$(shell {command})")
            }
            "value" => {
                let name = self.text(arg(0), d);
                self.lookup(name.trim()).unwrap_or_default().into_owned()
            }
            "origin" | "flavor" => {
                let variable = self.text(arg(0), d);
                match (self.lookup(variable.trim()).is_some(), name == "origin") {
                    (false, _) => "undefined".to_string(),
                    (true, true) => "file".to_string(),
                    (true, false) => "recursive".to_string(),
                }
            }
            "info" | "warning" | "error" => String::new(),
            _ => {
                let values: Vec<String> = args.iter().map(|a| self.text(a, d)).collect();
                // Over a goal's `$<`, `$^`, …: known when the recipe runs
                // (the caller fills them in and expands again).
                if values.iter().any(|v| automatic(v)) {
                    return format!("$({name} {})", values.join(","));
                }
                text_function(name, &values).unwrap_or_else(|| whole.to_string())
            }
        }
    }

    /// Count `bytes` more handed back (evals, shells): all together at
    /// most the room.
    fn hand_back(&mut self, bytes: usize) {
        self.room = match self.room.checked_sub(bytes) {
            Some(left) => left,
            None => {
                self.stopped = true;
                0
            }
        };
    }

    /// `$(call NAME,ARG1,…)`: the variable NAME with `$(1)`, … its
    /// arguments (expanded), `$(0)` its name.
    fn call(&mut self, args: &[&str], depth: usize) -> String {
        let Some((name, rest)) = args.split_first() else {
            return String::new();
        };
        let name = self.text(name, depth);
        let name = name.trim();
        let mut values = vec![name.to_string()];
        for a in rest {
            values.push(self.text(a, depth));
        }
        let variables: &'a HashMap<String, String> = self.variables;
        let Some(body) = variables.get(name) else {
            return String::new();
        };
        self.calls.push(values);
        let out = self.text(body, depth);
        self.calls.pop();
        out
    }

    /// `$(foreach VAR,LIST,TEXT)`: TEXT for each word of LIST, VAR that
    /// word.
    fn foreach(&mut self, var: &str, list: &str, body: &str, depth: usize) -> String {
        let var = self.text(var, depth).trim().to_string();
        let list = self.text(list, depth);
        let mut out: Vec<String> = Vec::new();
        let mut size = 0;
        for (n, word) in list.split_whitespace().enumerate() {
            if n >= MAX_WORDS || size > self.room {
                self.stopped = true;
                return String::new();
            }
            self.loops.push((var.clone(), word.to_string()));
            let text = self.text(body, depth);
            self.loops.pop();
            if self.stopped {
                return String::new();
            }
            size += text.len() + 1;
            out.push(text);
        }
        out.join(" ")
    }
}

/// The functions on words and text alone, `args` expanded; `None` for
/// a name this does not evaluate.
fn text_function(name: &str, args: &[String]) -> Option<String> {
    let arg = |i: usize| args.get(i).map_or("", String::as_str);
    let words = |i: usize| arg(i).split_whitespace();
    let each = |f: &dyn Fn(&str) -> String| words(0).map(f).collect::<Vec<_>>().join(" ");
    Some(match name {
        "subst" => match arg(0) {
            "" => arg(2).to_string(),
            from => arg(2).replace(from, arg(1)),
        },
        "patsubst" => patsubst(arg(0), arg(1), arg(2)),
        "strip" => words(0).collect::<Vec<_>>().join(" "),
        "findstring" => match arg(1).contains(arg(0)) {
            true => arg(0).to_string(),
            false => String::new(),
        },
        "filter" | "filter-out" => {
            let patterns: Vec<&str> = words(0).collect();
            let keep = name == "filter";
            words(1)
                .filter(|w| patterns.iter().any(|p| matches(p, w)) == keep)
                .collect::<Vec<_>>()
                .join(" ")
        }
        "sort" => {
            let mut all: Vec<&str> = words(0).collect();
            all.sort_unstable();
            all.dedup();
            all.join(" ")
        }
        "word" => {
            let n: usize = arg(0).trim().parse().unwrap_or(0);
            words(1)
                .nth(n.wrapping_sub(1))
                .unwrap_or_default()
                .to_string()
        }
        "wordlist" => {
            let from: usize = arg(0).trim().parse().unwrap_or(1).max(1);
            let to: usize = arg(1).trim().parse().unwrap_or(0);
            words(2)
                .skip(from - 1)
                .take((to + 1).saturating_sub(from))
                .collect::<Vec<_>>()
                .join(" ")
        }
        "words" => words(0).count().to_string(),
        "firstword" => words(0).next().unwrap_or_default().to_string(),
        "lastword" => words(0).last().unwrap_or_default().to_string(),
        "dir" => each(&|w| match w.rfind('/') {
            Some(at) => w[..=at].to_string(),
            None => "./".to_string(),
        }),
        "notdir" => each(&|w| w.rsplit('/').next().unwrap_or(w).to_string()),
        "suffix" => words(0)
            .filter_map(|w| suffix_at(w).map(|at| w[at..].to_string()))
            .collect::<Vec<_>>()
            .join(" "),
        "basename" => each(&|w| w[..suffix_at(w).unwrap_or(w.len())].to_string()),
        "addprefix" => words(1)
            .map(|w| format!("{}{w}", arg(0).trim()))
            .collect::<Vec<_>>()
            .join(" "),
        "addsuffix" => words(1)
            .map(|w| format!("{w}{}", arg(0).trim()))
            .collect::<Vec<_>>()
            .join(" "),
        "join" => {
            let (a, b): (Vec<&str>, Vec<&str>) = (words(0).collect(), words(1).collect());
            (0..a.len().max(b.len()))
                .map(|i| format!("{}{}", a.get(i).unwrap_or(&""), b.get(i).unwrap_or(&"")))
                .collect::<Vec<_>>()
                .join(" ")
        }
        // A pattern stays a pattern (a file added later would match it);
        // paths stay as written.
        "wildcard" | "abspath" | "realpath" => arg(0).trim().to_string(),
        _ => return None,
    })
}

/// Whether `text` names one of make's automatic variables (`$@`, `$<`,
/// `$^`, `$+`, `$?`, `$*`, `$%`, `$(@D)`, `${<F}`, …).
pub(super) fn automatic(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        let after = &rest.as_bytes()[at + 1..];
        let name = match after.first() {
            Some(b'(' | b'{') => after.get(1),
            Some(b'$') => {
                rest = &rest[at + 2..];
                continue;
            }
            other => other,
        };
        if name.is_some_and(|c| b"@<^+?*%".contains(c)) {
            return true;
        }
        rest = &rest[at + 1..];
    }
    false
}

/// `line` with each call left over a goal's variables (`$(word 2,$^)`)
/// written `$<`: what decides whether the line runs a prerequisite.
pub(super) fn stand_ins(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for (open, close) in references(line) {
        let inner = &line[open + 2..close];
        if open < at || !automatic(inner) || !inner.contains([' ', '\t']) {
            continue;
        }
        out.push_str(&line[at..open]);
        out.push_str("$<");
        at = close + 1;
    }
    out.push_str(&line[at..]);
    out
}

/// Whether makefile line `line` starts with a function call
/// (`$(error …)`, `$(foreach …)`, `${info …}`).
pub(super) fn called(line: &str) -> bool {
    let Some(inner) = line.strip_prefix("$(").or_else(|| line.strip_prefix("${")) else {
        return false;
    };
    inner
        .split_once([' ', '\t'])
        .is_some_and(|(name, _)| FUNCTIONS.contains(&name))
}

/// Each reference of `text` (`$(…)`, `${…}`, not the shell's `$$(…)`)
/// as where its `$` is and where it closes, in order, found in one pass
/// (a text of many unclosed references costs no more).
pub(super) fn references(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut opened: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let mut out = Vec::new();
    let mut dollars = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        let kind = match b {
            b'(' | b')' => 0,
            b'{' | b'}' => 1,
            b'$' => {
                dollars += 1;
                continue;
            }
            _ => {
                dollars = 0;
                continue;
            }
        };
        // Opened right after an odd run of `$`: a reference.
        let reference = dollars % 2 == 1;
        dollars = 0;
        if b == b'(' || b == b'{' {
            opened[kind].push(if reference { i } else { usize::MAX });
        } else if let Some(open) = opened[kind].pop()
            && open != usize::MAX
        {
            out.push((open - 1, i));
        }
    }
    out.sort_unstable();
    out
}

/// Where the suffix of file name `word` starts (its last `.` after the
/// last `/`).
fn suffix_at(word: &str) -> Option<usize> {
    let at = word.rfind('.')?;
    (!word[at..].contains('/')).then_some(at)
}

/// Whether `word` matches make pattern `pattern` (one `%` matching any
/// text, else the word itself).
fn matches(pattern: &str, word: &str) -> bool {
    match pattern.split_once('%') {
        Some((prefix, suffix)) => {
            word.len() >= prefix.len() + suffix.len()
                && word.starts_with(prefix)
                && word.ends_with(suffix)
        }
        None => pattern == word,
    }
}

/// `$(patsubst FROM,TO,TEXT)`: each word of `text` matching `from` made
/// `to`, its `%` the part `from`'s `%` matched.
fn patsubst(from: &str, to: &str, text: &str) -> String {
    let from = from.trim();
    let to = to.trim();
    text.split_whitespace()
        .map(|word| match from.split_once('%') {
            Some((prefix, suffix)) if matches(from, word) => {
                let stem = &word[prefix.len()..word.len() - suffix.len()];
                to.replacen('%', stem, 1)
            }
            None if word == from => to.to_string(),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where the reference opening `text` (`$(` or `${`) closes: make counts
/// nested parentheses of the kind it opened with.
fn closing(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let (open, close) = match bytes.get(1)? {
        b'(' => (b'(', b')'),
        _ => (b'{', b'}'),
    };
    let mut depth = 0usize;
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        if b == open {
            depth += 1;
        } else if b == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The arguments of a function, split at the commas outside nested
/// references, at most `most` (the last keeps its commas).
fn arguments(text: &str, most: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 && out.len() + 1 < most => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// A substitution reference `NAME:FROM=TO`, split, or `None` (the `:`
/// outside nested references).
fn substitution(inner: &str) -> Option<(&str, &str, &str)> {
    let mut depth = 0usize;
    for (i, b) in inner.bytes().enumerate() {
        match b {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 0 => {
                let (from, to) = inner[i + 1..].split_once('=')?;
                return Some((&inner[..i], from, to));
            }
            _ => {}
        }
    }
    None
}

/// Whether `text` (expanded) still holds a reference a bound left
/// unexpanded: to a variable `set` says the makefiles set, or a call of
/// a function this expansion evaluates (`$(call …)`, `$(foreach …)`, …)
/// or cannot (`$(file …)`, `$(guile …)`). What it holds is unread.
pub(super) fn names_unexpanded(text: &str, set: &dyn Fn(&str) -> bool) -> bool {
    references(text).into_iter().any(|(open, close)| {
        let inner = &text[open + 2..close];
        let function = inner.split([' ', '\t']).next().unwrap_or("");
        let evaluated = function != "shell"
            && FUNCTIONS.contains(&function)
            && inner.len() > function.len()
            // Over a goal's variables: made when the recipe runs.
            && !automatic(inner);
        set(inner) || OPAQUE.contains(&function) || evaluated
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(variables: &[(&str, &str)], text: &str) -> String {
        let variables: HashMap<String, String> = variables
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let dropped = HashSet::new();
        let mut e = Expansion::new(&variables, &dropped, 1 << 16, 10_000, 1 << 20);
        let out = e.expand(text);
        assert!(!e.stopped, "{text}");
        out
    }

    #[test]
    fn variables_and_substitution_references_are_put_in() {
        let vars = [
            ("SRC", "a.c b.c"),
            ("X", "$(Y)"),
            ("Y", "tools/y.sh"),
            ("a_FLAGS", "-O2"),
            ("K", "a"),
            ("T", "t.sh"),
        ];
        assert_eq!(
            expand(&vars, "sh $(X) ${Y} $T"),
            "sh tools/y.sh tools/y.sh t.sh"
        );
        assert_eq!(
            expand(&vars, "$(SRC:.c=.o) $(SRC:%.c=o/%.o)"),
            "a.o b.o o/a.o o/b.o"
        );
        assert_eq!(expand(&vars, "$($(K)_FLAGS)"), "-O2");
        // Not set: empty, as make has it, but make's own programs; the
        // automatic variables and the shell's: kept.
        assert_eq!(
            expand(&vars, "$(NOPE)$(MAKE) $(CC) $@ $< $$HOME $$(pwd)"),
            "$(MAKE) $(CC) $@ $< $$HOME $$(pwd)"
        );
        assert_eq!(expand(&vars, "$(unclosed x"), "$(unclosed x");
    }

    #[test]
    fn a_variable_naming_itself_through_both_branches_ends() {
        // micropython's ports/unix: `ifdef VARIANT_DIR` … `else` … `endif`.
        let vars = [
            ("VARIANT", "$(notdir $(VARIANT_DIR:/=)) standard"),
            ("VARIANT_DIR", "variants/$(VARIANT)"),
        ];
        assert_eq!(expand(&vars, "$(VARIANT_DIR)"), "variants/ standard");
    }

    #[test]
    fn call_foreach_and_if_name_what_they_run() {
        let vars = [
            ("RUN", "sh $(1) $(2) $(3)"),
            ("SCRIPTS", "tools/a.sh tools/b.sh"),
            ("TWICE", "$(call RUN,$(1))-$(call RUN,$(1),x)"),
        ];
        assert_eq!(expand(&vars, "$(call RUN,tools/x.sh)"), "sh tools/x.sh  ");
        assert_eq!(expand(&vars, "$(call TWICE,t)"), "sh t  -sh t x ");
        assert_eq!(
            expand(&vars, "$(foreach s,$(SCRIPTS),sh $(s);)"),
            "sh tools/a.sh; sh tools/b.sh;"
        );
        assert_eq!(
            expand(&vars, "$(if $(SCRIPTS),yes,no) $(if ,yes,no)"),
            "yes no"
        );
        // A condition from the environment: either branch.
        assert_eq!(
            expand(&vars, "$(if $(FAST),sh f.sh,sh s.sh)"),
            "sh f.sh sh s.sh"
        );
        assert_eq!(expand(&vars, "$(call NOPE,x)"), "");
    }

    #[test]
    fn text_functions_work_on_words() {
        let vars = [("SRC", "src/a.c src/b.h x.c")];
        for (text, want) in [
            ("$(patsubst %.c,%.o,$(SRC))", "src/a.o src/b.h x.o"),
            ("$(subst src/,lib/,$(SRC))", "lib/a.c lib/b.h x.c"),
            ("$(filter %.c,$(SRC))", "src/a.c x.c"),
            ("$(filter-out %.c,$(SRC))", "src/b.h"),
            ("$(notdir $(SRC))", "a.c b.h x.c"),
            ("$(dir $(SRC))", "src/ src/ ./"),
            ("$(basename $(SRC))", "src/a src/b x"),
            ("$(suffix $(SRC))", ".c .h .c"),
            ("$(addprefix t/,a b)", "t/a t/b"),
            ("$(addsuffix .sh,a b)", "a.sh b.sh"),
            ("$(word 2,$(SRC)) $(word 9,$(SRC)) $(word x,a)", "src/b.h  "),
            ("$(wordlist 2,3,$(SRC))", "src/b.h x.c"),
            (
                "$(words $(SRC)) $(firstword $(SRC)) $(lastword $(SRC))",
                "3 src/a.c x.c",
            ),
            ("$(sort b a b)", "a b"),
            ("$(strip  a   b )", "a b"),
            ("$(join a b,1 2 3)", "a1 b2 3"),
            ("$(findstring b.h,$(SRC))", "b.h"),
            ("$(wildcard tools/*.sh)", "tools/*.sh"),
            ("$(origin SRC) $(origin NO)", "file undefined"),
            ("$(info hi)$(warning x)", ""),
        ] {
            assert_eq!(expand(&vars, text), want, "{text}");
        }
    }

    #[test]
    fn functions_over_a_goals_variables_wait_for_them() {
        let vars = [("RUN", "sh $(1)")];
        assert_eq!(
            expand(&vars, "$(word 2,$^) $(call RUN,$<)"),
            "$(word 2,$^) sh $<"
        );
        assert_eq!(expand(&vars, "$(notdir $(@D)) $$@"), "$(notdir $(@D)) $$@");
        assert!(automatic("a $(<F)") && automatic("$*") && !automatic("$$< $(X)"));
        assert_eq!(
            stand_ins("sh $(firstword $^) $(X) $$(a $<)"),
            "sh $< $(X) $$(a $<)"
        );
        assert!(!names_unexpanded("cc $(word 2,$^) $(dir $@)", &|_| false));
        assert_eq!(references("$(a ${b} (c)) $$(d) $(e $(f"), [(0, 12), (4, 7)]);
    }

    #[test]
    fn eval_and_shell_are_handed_back() {
        let variables: HashMap<String, String> =
            [("T".to_string(), "$(1): ; sh $$(TOOL) $(1).sh".to_string())].into();
        let none = HashSet::new();
        let mut e = Expansion::new(&variables, &none, 1 << 16, 10_000, 1 << 20);
        let out = e.expand("$(foreach p,a b,$(eval $(call T,$(p))))$(shell sh $(T))");
        assert_eq!(e.evals, ["a: ; sh $(TOOL) a.sh", "b: ; sh $(TOOL) b.sh"]);
        assert_eq!(e.shells.len(), 1);
        assert!(out.starts_with(" $(shell sh "), "{out}");
    }

    #[test]
    fn bounds_stop_an_expansion() {
        // Endless, doubling (past the room), and a loop in a loop (past
        // the steps).
        let mut vars: HashMap<String, String> = [
            ("X".to_string(), "$(call X)$(call X)".to_string()),
            ("D0".to_string(), "d".repeat(100)),
            ("L".to_string(), "w ".repeat(1500)),
        ]
        .into();
        for n in 1..24 {
            vars.insert(format!("D{n}"), format!("$(D{0})$(D{0})", n - 1));
        }
        for text in [
            "$(call X)",
            "$(D23)",
            "$(foreach a,$(L),$(foreach b,$(L),))",
            "$(foreach a,$(L),$(eval $(L)))",
            "$(foreach a,$(L),$(foreach b,$(L),$(words $(L))))",
        ] {
            let none = HashSet::new();
            let mut e = Expansion::new(&vars, &none, 1 << 16, 200_000, 1 << 30);
            assert_eq!(e.expand(text), "", "{text}");
            assert!(e.stopped, "{text}");
        }
        let words: HashMap<String, String> = [("W".to_string(), "w ".repeat(MAX_WORDS + 1))].into();
        let none = HashSet::new();
        let mut e = Expansion::new(&words, &none, 1 << 30, 1_000_000, 1 << 30);
        e.expand("$(foreach a,$(W),$(foreach b,$(W),x))");
        assert!(e.stopped);
        let set = |name: &str| name == "X";
        for unexpanded in [
            "$(X)",
            "a $(call RUN,x)",
            "${foreach a,b,c}",
            "$(file <tools/x.sh)",
            "$(eval x)",
        ] {
            assert!(names_unexpanded(unexpanded, &set), "{unexpanded}");
        }
        for expanded in ["$(Y) $$(X) $(shell sh x) $(call)", "plain"] {
            assert!(!names_unexpanded(expanded, &set), "{expanded}");
        }
    }
}
