//! Languages at run time: the compiled symbol query of each [`Lang`] (its
//! row in `languages`; a query may inherit another's with `; inherits: c`),
//! and a
//! per-thread parser pool. A run over thousands of files
//! compiles each query once (process-wide) and creates one parser per
//! language per thread. Each parse has a deadline ([`parse_deadline`]) of
//! its own CPU time (and ten times that by the clock): tree-sitter's error
//! recovery is quadratic on some malformed lines, and a parse past it is
//! stopped (its caller shows the plain text instead).

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tree_sitter::{Language, ParseOptions, ParseState, Parser, Point, Query, Tree};

use super::allocator;
use super::languages::{ROWS, by_name};
use super::parse_waste;
use super::{Lang, SymbolKind};

/// What one capture of a symbol query means.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Capture {
    /// `@name`: the symbol's name.
    Name,
    /// `@definition.<kind>`: the defining node.
    Definition(SymbolKind),
    /// `@_…`: a node only a predicate reads (`#not-match? @_constructor`).
    Predicate,
    /// Anything else (ignored; a typo the tests catch).
    Other,
}

/// A compiled symbol query and the meaning of each capture index.
pub(super) struct SymbolQuery {
    pub query: Query,
    pub captures: Vec<Capture>,
}

/// How many languages there are (rows of `languages::ROWS`).
const COUNT: usize = ROWS.len();

impl Lang {
    fn index(self) -> usize {
        self as usize
    }

    /// The tree-sitter grammar.
    pub(super) fn grammar(self) -> Language {
        (self.row().grammar)()
    }

    /// The query file as written (`queries/<lang>/symbols.scm`).
    pub(super) fn query_file(self) -> &'static str {
        self.row().symbols
    }

    /// The text of the symbol query: the query file with each `;
    /// inherits: <lang>` line replaced by that language's query, as
    /// helix's queries do (C++ builds on C, TSX on TypeScript).
    pub(super) fn query_source(self) -> String {
        inherit(self.query_file(), 0)
    }

    /// The compiled symbol query, or `None` if the embedded query does not
    /// compile against the grammar (a build defect the tests catch; the
    /// program then sees no symbols instead of panicking).
    pub(super) fn symbol_query(self) -> Option<&'static SymbolQuery> {
        static QUERIES: [OnceLock<Option<SymbolQuery>>; COUNT] = [const { OnceLock::new() }; COUNT];
        QUERIES[self.index()]
            .get_or_init(|| compile_query(self).ok())
            .as_ref()
    }
}

/// `text` with its `; inherits: a, b` lines expanded (at most a few
/// levels deep, so a cycle cannot recurse forever).
fn inherit(text: &str, depth: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let parents = line
            .trim()
            .strip_prefix("; inherits:")
            .filter(|_| depth < 4);
        match parents {
            Some(names) => {
                for row in names.split(',').filter_map(|n| by_name(n.trim())) {
                    out.push_str(&inherit(row.symbols, depth + 1));
                }
            }
            None => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// An embedded symbol query that does not compile against its grammar (a
/// build defect the tests catch). tree-sitter's message names the row and
/// column, counted in the query with its `; inherits:` lines expanded.
/// Shown, not chained, like the core's other one-line causes.
#[derive(Debug, thiserror::Error)]
#[error("the {lang:?} symbol query: {error}")]
pub struct QueryError {
    /// The language whose query failed.
    pub lang: Lang,
    /// tree-sitter's own error, with the line and column.
    pub error: tree_sitter::QueryError,
}

/// Compile the query of `lang` and classify its captures.
pub(super) fn compile_query(lang: Lang) -> Result<SymbolQuery, QueryError> {
    let query = Query::new(&lang.grammar(), &lang.query_source())
        .map_err(|error| QueryError { lang, error })?;
    let captures = query
        .capture_names()
        .iter()
        .map(|name| classify_capture(name))
        .collect();
    Ok(SymbolQuery { query, captures })
}

fn classify_capture(name: &str) -> Capture {
    if name == "name" {
        return Capture::Name;
    }
    if name.starts_with('_') {
        return Capture::Predicate;
    }
    match name
        .strip_prefix("definition.")
        .and_then(SymbolKind::from_name)
    {
        Some(kind) => Capture::Definition(kind),
        None => Capture::Other,
    }
}

thread_local! {
    /// One parser per language, created on first use in each thread.
    static PARSERS: RefCell<[Option<Parser>; COUNT]> = const { RefCell::new([const { None }; COUNT]) };
    /// Whether this thread's last parse was stopped at its deadline.
    static STOPPED: Cell<bool> = const { Cell::new(false) };
}

#[cfg(test)]
thread_local! {
    /// How many budgets this thread has started: the tests count the
    /// deadlines one file's symbols get.
    pub(super) static BUDGETS_STARTED: Cell<usize> = const { Cell::new(0) };
}

/// How much CPU time one parse of up to 512 KiB may take (a larger file as
/// much per 512 KiB): `CTXCURATE_PARSE_TIMEOUT` (seconds, a fraction
/// allowed), 3 s by default. A megabyte of well-formed code
/// parses in a fraction of a second; a malformed 120 KB TypeScript line
/// took 11 s before this.
pub fn parse_deadline() -> Duration {
    static DEADLINE: OnceLock<Duration> = OnceLock::new();
    *DEADLINE.get_or_init(|| {
        std::env::var("CTXCURATE_PARSE_TIMEOUT")
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s > 0.0)
            .map_or(Duration::from_secs(3), |s| {
                Duration::from_secs_f64(s.min(86_400.0))
            })
    })
}

/// The deadline of a parse of `len` bytes: `base` per 512 KiB, at least
/// `base`. A large well-formed file on a loaded machine is no runaway
/// parse, and a quadratic one still stops.
fn deadline_for(base: Duration, len: usize) -> Duration {
    base.mul_f64((len as f64 / 524_288.0).max(1.0))
}

/// Tree-sitter reads well-formed code at megabytes a second. A finished
/// parse slower than this rate (plus [`SLOW_SLACK`]) is malformed code
/// its error recovery labours over, and counts to the allowance
/// ([`parse_waste`]) …
const SLOW_BYTES_PER_SECOND: f64 = 256.0 * 1024.0;
const SLOW_SLACK: Duration = Duration::from_millis(10);

/// … and once the allowance is spent, a parse gets what reading at this
/// rate takes (at least [`SHORTENED_FLOOR`], at most a tenth of its
/// deadline): a floor of a second, then of a quarter, still let hundreds
/// of small malformed files each take a quarter of a second (250 Lua
/// files of 21 KB: 61 s of CPU, recheck 15 F1b).
const SHORTENED_BYTES_PER_SECOND: f64 = 1024.0 * 1024.0;
const SHORTENED_FLOOR: Duration = Duration::from_millis(50);

/// What a finished parse of `len` bytes may take before it is slow.
fn slow_after(deadline: Duration, len: usize) -> Duration {
    (SLOW_SLACK + Duration::from_secs_f64(len as f64 / SLOW_BYTES_PER_SECOND))
        .min(deadline / parse_waste::SHORTENED_BY)
}

/// `deadline` for `len` bytes, or what [`SHORTENED_BYTES_PER_SECOND`]
/// gives them once stopped or slow parses have cost the process more than
/// their allowance lately ([`parse_waste`]).
fn shortened(deadline: Duration, len: usize) -> Duration {
    if parse_waste::over_allowance(parse_deadline()) {
        (SLOW_SLACK + Duration::from_secs_f64(len as f64 / SHORTENED_BYTES_PER_SECOND))
            .min(deadline / parse_waste::SHORTENED_BY)
            .max(SHORTENED_FLOOR)
            .min(deadline)
    } else {
        deadline
    }
}

/// Whether the last [`parse_tree`] on this thread was stopped at its
/// deadline (its `None` is then no grammar failure).
pub(super) fn last_parse_stopped() -> bool {
    STOPPED.with(Cell::get)
}

/// Parse `source` with the thread's parser for `lang`, within what is
/// left of `budget` (the file's one deadline, shared with the steps after
/// the parse). `None` if the grammar cannot be loaded (ABI mismatch),
/// tree-sitter gives up, or the budget ran out ([`last_parse_stopped`]
/// says so).
pub(super) fn parse_tree(lang: Lang, source: &str, budget: &mut Budget) -> Option<Tree> {
    STOPPED.with(|s| s.set(false));
    PARSERS.with(|cell| {
        let mut parsers = cell.try_borrow_mut().ok()?;
        let slot = &mut parsers[lang.index()];
        if slot.is_none() {
            let mut parser = Parser::new();
            parser.set_language(&lang.grammar()).ok()?;
            *slot = Some(parser);
        }
        let parser = slot.as_mut()?;
        let mut stopped = false;
        let mut progress = |_: &ParseState| {
            if budget.spent() {
                stopped = true;
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let bytes = source.as_bytes();
        let mut read = |offset: usize, _: Point| bytes.get(offset..).unwrap_or_default();
        let options = ParseOptions::new().progress_callback(&mut progress);
        let cpu_before = thread_cpu();
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if tree.is_none() {
            parser.reset();
        } else {
            budget.charge_if_slow(
                cpu_before
                    .zip(thread_cpu())
                    .map(|(a, b)| b.saturating_sub(a)),
            );
        }
        STOPPED.with(|s| s.set(stopped && tree.is_none()));
        tree
    })
}

/// The time the symbols of `len` bytes of source may take, every step
/// together (the parses, the query over the tree): [`parse_deadline`] per
/// 512 KiB of this thread's CPU time, and ten times that by the clock.
/// One budget per file, handed from step to step: each gets what the
/// steps before it left, so the whole stays within the deadline.
pub(super) struct Budget {
    started: Instant,
    cpu_started: Option<Duration>,
    deadline: Duration,
    /// What tree-sitter held for this thread when the step began, and how
    /// much more it may take ([`memory_bound`]).
    memory_started: isize,
    memory_bound: isize,
    /// Whether what the step cost once spent was added to the process's
    /// debt of stopped parses ([`parse_waste`]).
    charged: bool,
    /// A parse that finishes but takes more CPU than this is slow
    /// ([`slow_after`]): what it cost is added to the debt too, so files
    /// that each parse just under their deadline are not free (24
    /// malformed 75 KB Lua files: `map` 59 s of CPU, recheck 15 F1).
    /// Well-formed code parses far within it.
    slow: Duration,
}

/// How much more memory tree-sitter may take for one parse of `len`
/// bytes: 64 MiB and 256 bytes a byte. Well-formed code takes about a
/// hundred (a 1 MB header, 100–120 MB); malformed C++ took 1,700.
fn memory_bound(len: usize) -> isize {
    let bound = len.saturating_mul(256).saturating_add(64 << 20);
    isize::try_from(bound).unwrap_or(isize::MAX)
}

/// The most tree-sitter may hold in the whole process: every thread's
/// parse stops past it (one per core each within its own bound would
/// still add up).
const PROCESS_MEMORY_BOUND: isize = 1 << 30;

impl Budget {
    /// The budget of a step over `len` bytes, from now.
    pub(super) fn for_len(len: usize) -> Self {
        #[cfg(test)]
        BUDGETS_STARTED.with(|n| n.set(n.get() + 1));
        Budget {
            started: Instant::now(),
            cpu_started: thread_cpu(),
            deadline: shortened(deadline_for(parse_deadline(), len), len),
            slow: slow_after(deadline_for(parse_deadline(), len), len),
            memory_started: allocator::thread_bytes(),
            memory_bound: memory_bound(len),
            charged: false,
        }
    }

    /// A budget with nothing left (for tests of what a step does then).
    #[cfg(test)]
    pub(super) fn spent_already() -> Self {
        Budget {
            started: Instant::now(),
            cpu_started: None,
            deadline: Duration::ZERO,
            memory_started: 0,
            memory_bound: 0,
            charged: true,
            slow: Duration::ZERO,
        }
    }

    /// Add a finished parse's CPU time `cpu` to the process's debt when
    /// it was slow ([`Budget::slow`]).
    fn charge_if_slow(&mut self, cpu: Option<Duration>) {
        if let Some(cpu) = cpu
            && cpu > self.slow
            && !self.charged
        {
            self.charged = true;
            parse_waste::charge(cpu);
        }
    }

    /// Whether the step is past its deadline, or tree-sitter past its
    /// memory bound (for this parse, or in the whole process).
    pub(super) fn spent(&mut self) -> bool {
        let spent = self.spent_now();
        if spent && !self.charged {
            self.charged = true;
            let worked = self
                .cpu_started
                .zip(thread_cpu())
                .map_or(self.started.elapsed(), |(from, now)| {
                    now.saturating_sub(from)
                });
            parse_waste::charge(worked);
        }
        spent
    }

    fn spent_now(&self) -> bool {
        if allocator::installed()
            && (allocator::thread_bytes().saturating_sub(self.memory_started) > self.memory_bound
                || allocator::process_bytes() > PROCESS_MEMORY_BOUND)
        {
            return true;
        }
        let wall = self.started.elapsed();
        if wall <= self.deadline {
            return false;
        }
        // Past the deadline by the clock, the step's own CPU time
        // decides: a loaded machine slows the clock's parse, not its
        // work (a 1.4 MB file parsed in a debug build on a busy
        // machine was stopped). Ten deadlines by the clock stop it
        // all the same.
        let worked = self
            .cpu_started
            .zip(thread_cpu())
            .map_or(wall, |(from, now)| now.saturating_sub(from));
        worked > self.deadline || wall > self.deadline.saturating_mul(10)
    }
}

/// The CPU time this thread has used, where the system says.
fn thread_cpu() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec for the call to fill.
        let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u32::try_from(ts.tv_nsec).ok()?;
        ok.then(|| Duration::new(secs, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Whether C-or-C++ text uses constructs only C++ has. Checked on line
/// starts so comments and strings that mention them rarely count.
pub(super) fn looks_like_cpp(source: &str) -> bool {
    let mut in_comment = false;
    let mut continued = false;
    source.lines().any(|line| {
        let directive = continued || line.trim_start().starts_with('#');
        continued = directive && line.ends_with('\\');
        let code = code_of(line, &mut in_comment);
        is_cpp_line(line) || (!directive && uses_cpp(&code))
    })
}

/// The code of `line`: comments and literals blanked; `in_comment`
/// carries a block comment over lines.
fn code_of(line: &str, in_comment: &mut bool) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < bytes.len() {
        if *in_comment {
            if bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/') {
                *in_comment = false;
                i += 1;
            }
            i += 1;
            continue;
        }
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => break,
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                *in_comment = true;
                i += 1;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                out.push(' ');
            }
            b => out.push(if b.is_ascii() { b as char } else { ' ' }),
        }
        i += 1;
    }
    out
}

/// Whether code outside comments, literals and directives uses what C
/// has not: a qualified name (`google::int32`, not C23's `[[gnu::cold]]`),
/// `noexcept` (nanobind's `NB_SLOT(void, f, (...) noexcept)`, a header
/// whose C++ is all in declarations other headers expand) or a member
/// function's `const` (`Ch Peek() const {`).
fn uses_cpp(code: &str) -> bool {
    if const_member(code) {
        return true;
    }
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = code.as_bytes();
    let qualified = code.match_indices("::").any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        let after = bytes.get(at + 2).copied();
        let attribute = code[..at]
            .rfind("[[")
            .is_some_and(|o| !code[o..at].contains("]]"));
        before.is_some_and(ident)
            && after.is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && !attribute
    });
    qualified
        || code
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == "noexcept")
}

/// `) const` then `{`, `;`, `=` (`= 0`, `= default`), `&`, `override`
/// or `final`: a member function's qualifier. In C a `const` after `)`
/// starts a type (`FOO(1) const char *f`).
fn const_member(code: &str) -> bool {
    code.match_indices("const").any(|(at, _)| {
        let before = code[..at].trim_end();
        let rest = &code[at + "const".len()..];
        let after = rest.trim_start();
        before.ends_with(')')
            && rest.len() > after.len()
            && (after.starts_with(['{', ';', '=', '&'])
                || after.starts_with("override")
                || after.starts_with("final"))
    })
}

fn is_cpp_line(line: &str) -> bool {
    const PREFIXES: [&str; 7] = [
        "namespace ",
        "template <",
        "template<",
        "using namespace ",
        "public:",
        "private:",
        "protected:",
    ];
    let line = line.trim_start();
    PREFIXES.iter().any(|p| line.starts_with(p))
        || (line.starts_with("class ") && !line.ends_with(';'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parse_may_take_the_base_deadline_per_512_kib() {
        let base = Duration::from_secs(3);
        assert_eq!(deadline_for(base, 0), base);
        assert_eq!(deadline_for(base, 300_000), base);
        assert_eq!(deadline_for(base, 1_048_576), Duration::from_secs(6));
        assert_eq!(deadline_for(base, 1_400_000).as_millis(), 8010);
    }
}
