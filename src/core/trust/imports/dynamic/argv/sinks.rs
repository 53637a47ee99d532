//! The project functions that run their parameter (sinks: `def
//! run(cmd): os.system(cmd)`), and the calls of them: a caller's
//! argument is read as the argv or line the sink runs (consent round 5,
//! item 4). Round 6: a parameter wrapped whole in a call (pip's
//! `Popen(reveal_command_args(cmd))`) makes a sink, and a call is matched
//! by module where the file's imports tell (`other.run(` with `import
//! other` is not a call of `util`'s `run`).

use super::super::py_names::{self, Names};
use super::super::{Bound, arguments};
use super::{Call, Form, Runs, call_sites, keyword, names_at};

/// A function that runs its parameter: `def run(cmd):
/// subprocess.run(cmd, shell=True)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::core::trust::imports) struct Sink {
    pub(in crate::core::trust::imports) name: String,
    /// The parameter's place among the positional ones (`self` and
    /// `cls` not counted), and its name (for `run(cmd=…)`).
    pub(super) index: usize,
    param: String,
    /// Whether it is a shell line (else an argv, or a lone program).
    pub(super) shell: bool,
    /// The module that defines it (`util` of `tools/util.py`, a
    /// package's folder for its `__init__.py`); empty when not known.
    module: String,
}

impl Sink {
    /// Function `name`, which runs its parameter `param` (at `index`),
    /// a shell line when `shell`.
    pub(super) fn new(name: String, index: usize, param: String, shell: bool) -> Sink {
        Sink {
            name,
            index,
            param,
            shell,
            module: String::new(),
        }
    }

    /// The sink, defined in module `module`.
    pub(in crate::core::trust::imports) fn in_module(mut self, module: &str) -> Sink {
        self.module = module.to_string();
        self
    }
}

/// The most sinks kept for one command.
pub(in crate::core::trust::imports) const MAX_SINKS: usize = 256;

/// The calls of `code` (the file of module `stem`) to a function of
/// `sinks` whose argument (the argv or line it runs) is known only as it
/// runs, read as [`python`] reads a call of `subprocess.run`. A call of
/// a function another module defines under the same name (`other.run(`
/// with `import other`, `run(` with `from other import run`) is not one.
pub(in crate::core::trust::imports) fn sink_calls(
    code: &str,
    sinks: &[Sink],
    stem: &str,
    defined: &Defined,
) -> Runs {
    let file = Names::read(code, Bound::read(code, super::super::Lang::Python));
    let imports = py_names::imports(code);
    let mut scopes = std::collections::HashMap::new();
    let mut out = Runs::default();
    for sink in sinks {
        let call_text = format!("{}(", sink.name);
        for at in call_sites(code, &call_text, false) {
            if !reaches(code, at, sink, &imports, (stem, defined)) {
                continue;
            }
            let names = names_at(code, at, &file, &mut scopes);
            let args = arguments(&code[at + call_text.len()..]);
            let positional: Vec<String> = args
                .iter()
                .filter(|a| keyword(a.trim()).is_none())
                .cloned()
                .collect();
            let given = positional.get(sink.index).cloned().or_else(|| {
                args.iter().find_map(|a| {
                    keyword(a.trim())
                        .filter(|(k, _)| *k == sink.param)
                        .map(|(_, v)| v.to_string())
                })
            });
            let Some(given) = given else { continue };
            out.hands_a_shell |= sink.shell;
            let shell = match sink.shell {
                true => vec!["shell=True".to_string()],
                false => Vec::new(),
            };
            let one: Vec<String> = std::iter::once(given).chain(shell).collect();
            let call = Call {
                args: &one,
                bound: names,
            };
            if !call.known(Form::Argv(0)) {
                out.note(code, at, call.handed(Form::Argv(0)));
            }
            for why in call.refusals(Form::Argv(0)) {
                out.refuse(code, at, why);
            }
        }
    }
    out
}

/// The functions each Python module read defines at its top level (by
/// the module's last name, as [`Sink::module`]): `other.run(` is not a
/// call of `util`'s sink `run` only when `other` defines a `run` of its
/// own (a module that takes `run` from `util` and hands it on is read as
/// `util`).
pub(in crate::core::trust::imports) type Defined = std::collections::HashSet<(String, String)>;

/// Whether the call at `at` of `sink`'s name may call `sink`: not when
/// it is qualified by a module the file imports that is not the sink's
/// and defines that name itself (`other.run(`), nor, bare, when the file
/// takes that name from such a module (`from other import run`) and is
/// not the sink's own. `here`: the file's module, and [`Defined`].
fn reaches(
    code: &str,
    at: usize,
    sink: &Sink,
    imports: &[py_names::Import],
    here: (&str, &Defined),
) -> bool {
    let (stem, defined) = here;
    let own = |module: &str| defined.contains(&(module.to_string(), sink.name.clone()));
    if sink.module.is_empty() {
        return true;
    }
    let before = &code[..at];
    if let Some(qualified) = before.strip_suffix('.') {
        let chain: String = qualified
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
            .collect::<Vec<char>>()
            .into_iter()
            .rev()
            .collect();
        let first = chain.split('.').next().unwrap_or("");
        let Some(import) = imports.iter().find(|i| i.local == first) else {
            // An object (`self.run(`, `A().run(`): may be the sink.
            return true;
        };
        // The module the chain names: its first part put back to what
        // the import binds (`u` of `import util as u` → `util`).
        let target = match &import.name {
            Some(name) => format!("{}.{name}", import.module),
            None if import.module.split('.').next() != Some(first) => import.module.clone(),
            None => first.to_string(),
        };
        let named = match chain.split_once('.') {
            Some((_, rest)) => format!("{target}.{rest}"),
            None => target,
        };
        let last = named.rsplit('.').next().unwrap_or("");
        return last.is_empty() || last == sink.module || !own(last);
    }
    if stem == sink.module {
        return true;
    }
    let taken: Vec<&py_names::Import> = imports
        .iter()
        .filter(|i| i.local == sink.name && i.name.is_some())
        .collect();
    taken.is_empty()
        || taken.iter().any(|i| {
            i.module_stem().is_empty() || i.module_stem() == sink.module || !own(i.module_stem())
        })
}

/// The name a call of a function wraps whole (pip's
/// `Popen(reveal_command_args(cmd))`, `list(cmd)`): read as that name, so
/// a parameter wrapped so makes a sink whose callers are judged. What the
/// wrapper does with it is the wrapper's own code, covered as any; a
/// function that reads what it runs from elsewhere (`open(path)`,
/// `os.getenv(name)`) is no wrapper.
pub(super) fn wrapped(expr: &str) -> Option<&str> {
    const READS: &[&str] = &[
        "open",
        "input",
        "eval",
        "getenv",
        "get",
        "load",
        "loads",
        "read",
        "read_text",
        "readlines",
        "environ",
        "which",
    ];
    let (func, rest) = expr.split_once('(')?;
    let inner = rest.strip_suffix(')')?.trim();
    let func = func.trim();
    let last = func.rsplit('.').next()?;
    (func.split('.').all(super::super::is_identifier)
        && !READS.contains(&last)
        && super::super::is_identifier(inner))
    .then_some(inner)
}
