//! Masked: each symbol rendered by its mask state (see `core::views`).
//!
//! A symbol's state is its entry in the mask, else its parent's state,
//! else the file default. `def` shows the definition, `sig` elides a
//! function's body as the skeleton does, `agg` folds the symbol into one
//! summary line, `hide` drops it. Containers (classes, structs,
//! namespaces) in `def`/`sig` show their own text with each child replaced
//! by the child's rendering. Text outside every symbol is kept unless the
//! default is `hide`.
//!
//! The rule for a person: **a symbol's own entry always wins over its
//! parent's.** A parent that would fold its body away (`hide`, `agg`, or a
//! function's `sig`) opens when a descendant has its own entry that shows
//! more than the parent's state (order `hide` < `agg` < `sig` < `def`): a
//! hidden container shows just its header, those descendants and its
//! closing brace; an `agg` container (or a `sig` function) shows its text
//! with each child rendered by its own state, the others folded by the
//! parent's. So a method masked `def` inside a class masked `agg` shows in
//! full, between its siblings' summary lines, and the symbols pane, which
//! lists each symbol's state by the same rule ([`state_of`]), says `def`.
//! Under `sig` and `agg`, Python data tables in that text (and in the
//! constants shown) become one-line stand-ins, as in the skeleton; `def`
//! shows them whole.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use crate::core::model::MaskState;

use super::literals::{LargeLiteral, collapse};
use super::skeleton::{elided, placeholder};
use super::text::{
    blank_line_before, doc_from_comment, doc_from_string, indent_before, indent_start, slice, tidy,
};
use super::{Lang, Symbol, SymbolKind, SymbolTree};

/// See [`super::masked`].
pub(super) fn render(
    tree: &SymbolTree,
    source: &str,
    default: MaskState,
    mask: &BTreeMap<String, MaskState>,
) -> String {
    let masker = Masker {
        lang: tree.lang,
        source,
        mask,
        literals: &tree.large_literals,
    };
    let out = if default == MaskState::Hide {
        let shown: Vec<String> = tree
            .symbols
            .iter()
            .map(|s| masker.ungrouped(s, masker.render(s, masker.state(s, default))))
            .filter(|r| !r.trim().is_empty())
            .collect();
        shown.join("\n\n")
    } else {
        masker.splice(0..source.len(), &tree.symbols, default)
    };
    tidy(&out)
}

struct Masker<'a> {
    lang: Lang,
    source: &'a str,
    mask: &'a BTreeMap<String, MaskState>,
    literals: &'a [LargeLiteral],
}

/// The mask rule, stated once: a symbol's own entry in `mask`, else the
/// state it inherits from its parent in the symbol tree (the file's
/// default at the top). The masked view renders by it and the symbols
/// pane shows it (`core::curation::mask_states`).
pub fn state_of(
    mask: &BTreeMap<String, MaskState>,
    symbol: &Symbol,
    inherited: MaskState,
) -> MaskState {
    symbol.own_entry(mask).unwrap_or(inherited)
}

impl Masker<'_> {
    /// `source[range]` as shown under `state`: data tables collapsed unless
    /// the state is `def`.
    fn text(&self, range: Range<usize>, state: MaskState) -> Cow<'_, str> {
        match state {
            MaskState::Def | MaskState::Hide => Cow::Borrowed(slice(self.source, range)),
            MaskState::Sig | MaskState::Agg => collapse(self.source, range, self.literals),
        }
    }

    /// The symbol's state under the mask rule ([`state_of`]).
    fn state(&self, symbol: &Symbol, inherited: MaskState) -> MaskState {
        state_of(self.mask, symbol, inherited)
    }

    /// The text that replaces the symbol (leading comment included).
    fn render(&self, symbol: &Symbol, state: MaskState) -> String {
        let opens = || self.opens(symbol, state);
        match state {
            MaskState::Hide if opens() => self.shell(symbol),
            MaskState::Hide => String::new(),
            MaskState::Agg if opens() => self.full(symbol, state),
            MaskState::Agg => self.agg_line(symbol),
            MaskState::Sig
                if symbol.kind.is_function() && symbol.spans.elide.is_some() && !opens() =>
            {
                elided(symbol, self.lang, self.source)
            }
            // A function that opens shows in full (own-entry-wins); a
            // Markdown section keeps its heading and its subsections.
            MaskState::Sig if !symbol.kind.is_function() && symbol.spans.elide.is_some() => {
                self.own_text_elided(symbol)
            }
            MaskState::Def | MaskState::Sig => self.full(symbol, state),
        }
    }

    /// A top-level symbol shown without the text around it (`hide` the
    /// default) as the declaration it stands for: a Go type out of a
    /// `type ( … )` group gets its `type` back on its first line of code,
    /// the lines of its leading comment before it.
    fn ungrouped(&self, symbol: &Symbol, rendered: String) -> String {
        let code = slice(self.source, symbol.range.clone()).trim_start();
        if self.lang != Lang::Go
            || symbol.kind.is_function()
            || code.starts_with("type")
            || rendered.trim().is_empty()
        {
            return rendered;
        }
        let mut out = String::with_capacity(rendered.len() + 5);
        let mut in_block = false;
        let mut done = false;
        for line in rendered.split_inclusive('\n') {
            if done {
                out.push_str(line);
                continue;
            }
            // The code after the block comment the line opens or ends.
            let mut rest = line.trim_start();
            if in_block || rest.starts_with("/*") {
                match rest.find("*/") {
                    Some(end) => {
                        in_block = false;
                        rest = rest[end + 2..].trim_start();
                    }
                    None => {
                        in_block = true;
                        rest = "";
                    }
                }
            }
            if rest.trim().is_empty() || rest.starts_with("//") || rest.starts_with("/*") {
                out.push_str(line);
            } else {
                out.push_str(line[..line.len() - rest.len()].trim_start_matches([' ', '\t']));
                out.push_str("type ");
                out.push_str(rest);
                done = true;
            }
        }
        out
    }

    /// Whether a descendant of `symbol` has its own entry that shows more
    /// than `state`, so `symbol` must open rather than fold it away (the
    /// own-entry-wins rule of the module header).
    fn opens(&self, symbol: &Symbol, state: MaskState) -> bool {
        symbol.children.iter().any(|c| {
            c.own_entry(self.mask)
                .is_some_and(|own| shows_more(own, state))
                || self.opens(c, state)
        })
    }

    /// The symbol's text with every child replaced by its rendering.
    fn full(&self, symbol: &Symbol, state: MaskState) -> String {
        let whole = symbol.spans.lead..symbol.range.end;
        match &symbol.spans.inner {
            Some(inner) if self.lang == Lang::Python => {
                let body = self.splice(inner.clone(), &symbol.children, state);
                let mut out = slice(self.source, whole.start..inner.start).to_string();
                out.push_str(&python_nonempty(body));
                out.push_str(slice(self.source, inner.end..whole.end));
                out
            }
            _ => self.splice(whole, &symbol.children, state),
        }
    }

    /// A symbol whose own text before its children is elided (a Markdown
    /// section under `sig`: its heading, then its subsections as they are
    /// masked).
    fn own_text_elided(&self, symbol: &Symbol) -> String {
        let Some(own) = symbol.spans.elide.clone() else {
            return self.full(symbol, MaskState::Sig);
        };
        let mut out = slice(self.source, symbol.spans.lead..own.start).to_string();
        out.push_str(placeholder(self.lang));
        out.push_str(&self.splice(own.end..symbol.range.end, &symbol.children, MaskState::Sig));
        out
    }

    /// `source[region]` with each child's span replaced by its rendering.
    /// A child that renders to nothing takes its whole lines with it.
    fn splice(&self, region: Range<usize>, children: &[Symbol], inherited: MaskState) -> String {
        let mut out = String::new();
        let mut cursor = region.start;
        for (i, child) in children.iter().enumerate() {
            let span = child.spans.lead.max(cursor)..child.range.end.min(region.end);
            if span.start > span.end {
                continue;
            }
            let rendered = self.render(child, self.state(child, inherited));
            let span = if rendered.is_empty() {
                whole_lines(
                    self.source,
                    span,
                    cursor..next_lead(children, i, region.end),
                )
            } else {
                span
            };
            out.push_str(&self.text(cursor..span.start, inherited));
            out.push_str(&rendered);
            cursor = span.end;
        }
        out.push_str(&self.text(cursor..region.end, inherited));
        out
    }

    /// A hidden container around visible descendants: its header, those
    /// descendants at their own indentation, and its closing (`};`).
    fn shell(&self, symbol: &Symbol) -> String {
        let Some(inner) = &symbol.spans.inner else {
            return String::new();
        };
        // Descendants outside the body (a Kotlin property's `get()` and
        // `set()`, the body being the first accessor's): the header and
        // the closing would hold them again, so the symbol's text shows
        // with each of them as masked.
        let outside = |c: &Symbol| c.spans.lead < inner.start || c.range.end > inner.end;
        // Descendants inside a block that is no symbol (Ruby's `class <<
        // self`): without its opening they would read as other symbols
        // (a class method as an instance one), so the text holds it.
        let mut from = inner.start;
        let wrapped = symbol.children.iter().any(|c| {
            let between = slice(self.source, from.min(c.spans.lead)..c.spans.lead);
            from = from.max(c.range.end);
            let state = self.state(c, MaskState::Hide);
            let shown = state != MaskState::Hide || self.opens(c, state);
            shown && (between.contains("class << self") || between.contains("class <<self"))
        });
        if wrapped || symbol.children.iter().any(outside) {
            return self.splice(
                symbol.spans.lead..symbol.range.end,
                &symbol.children,
                MaskState::Hide,
            );
        }
        let mut out = slice(self.source, symbol.range.start..inner.start)
            .trim_end()
            .to_string();
        let mut previous_multiline = None;
        for child in &symbol.children {
            let rendered = self.render(child, self.state(child, MaskState::Hide));
            if rendered.is_empty() {
                continue;
            }
            let multiline = rendered.contains('\n');
            if previous_multiline.is_some_and(|p| p || multiline) {
                out.push('\n');
            }
            out.push('\n');
            out.push_str(indent_before(self.source, child.spans.lead));
            out.push_str(&rendered);
            previous_multiline = Some(multiline);
        }
        let closing = slice(self.source, inner.end..symbol.range.end).trim();
        if !closing.is_empty() {
            out.push('\n');
            out.push_str(indent_before(self.source, symbol.range.start));
            out.push_str(closing);
        }
        out
    }

    /// The symbol as one line: its signature and a summary comment with
    /// the first doc line and the body's line count. A one-line symbol
    /// without a body (tables collapsed) is already that line.
    fn agg_line(&self, symbol: &Symbol) -> String {
        // A constant holding a data table is one line once the table is
        // collapsed: that line says more than a line count.
        let text = self.text(symbol.range.clone(), MaskState::Agg);
        if symbol.spans.body.is_none() && !text.contains('\n') {
            return text.into_owned();
        }
        let summary = self.summary(symbol);
        let signature = &symbol.signature;
        match (self.lang, symbol.kind) {
            (Lang::Python, SymbolKind::Constant) => format!("{} = ...  # {summary}", symbol.name),
            (Lang::Python, _) => format!("{signature}: ...  # {summary}"),
            (_, SymbolKind::Namespace) => format!("{signature} {{ /* {summary} */ }}"),
            // Ruby's and Lua's `end`, Markdown's comment: the row says.
            // (An empty `def f\n end` too: the keyword closes it.)
            (lang, _) if lang.row().bodies.fold().is_some() => {
                let fold = lang.row().bodies.fold().unwrap_or_default();
                let summary = summary.replace("-->", "-- >").replace("]]", "] ]");
                fill(fold, signature, &summary)
            }
            // The shell has no `/* */` comment, and a `#` one would
            // swallow what follows the function on its line: the summary
            // is the argument of the no-op `:`, single-quoted.
            (Lang::Bash, _) => {
                let quoted = summary.replace('\'', "'\\''");
                format!("{signature} {{ : '{quoted}'; }}")
            }
            // The brace languages added as data fold a body into braces
            // with the summary inside, which still parses.
            (lang, _) if !lang.is_c_family() && symbol.spans.body.is_some() => {
                format!("{signature} {{ /* {summary} */ }}")
            }
            (_, SymbolKind::Constant) => format!("{signature} /* {summary} */"),
            _ => format!("{signature}; /* {summary} */"),
        }
    }

    /// `First doc line. (12 lines)` or `12 lines`.
    fn summary(&self, symbol: &Symbol) -> String {
        let counted = symbol.spans.body.clone().unwrap_or(symbol.range.clone());
        let lines = slice(self.source, counted).lines().count().max(1);
        let count = if lines == 1 {
            "1 line".to_string()
        } else {
            format!("{lines} lines")
        };
        let doc = symbol
            .spans
            .doc
            .clone()
            .and_then(|d| doc_line(slice(self.source, d)));
        match doc {
            Some(doc) if self.lang == Lang::Python => format!("{doc} ({count})"),
            Some(doc) => format!("{} ({count})", doc.replace("*/", "* /")),
            None => count,
        }
    }
}

/// Whether `a` shows more of a symbol than `b`: `hide` < `agg` < `sig`
/// < `def`.
pub fn shows_more(a: MaskState, b: MaskState) -> bool {
    fn rank(m: MaskState) -> u8 {
        match m {
            MaskState::Hide => 0,
            MaskState::Agg => 1,
            MaskState::Sig => 2,
            MaskState::Def => 3,
        }
    }
    rank(a) > rank(b)
}

/// `template` with its `{signature}` and then its `{summary}` filled in
/// (once each, so a signature that holds `{summary}` stays as written).
fn fill(template: &str, signature: &str, summary: &str) -> String {
    let Some((before, after)) = template.split_once("{signature}") else {
        return template.to_string();
    };
    let after = match after.split_once("{summary}") {
        Some((a, b)) => format!("{a}{summary}{b}"),
        None => after.to_string(),
    };
    format!("{before}{signature}{after}")
}

/// The first line of a docstring or leading comment.
fn doc_line(text: &str) -> Option<String> {
    if text.starts_with(['#', '/', '-']) {
        doc_from_comment(text)
    } else {
        doc_from_string(text)
    }
}

/// A Python block that lost all its statements still needs one: `...`
/// (after the colon, or below the comments left in it).
fn python_nonempty(body: String) -> String {
    let has_code = body.lines().any(|l| {
        let l = l.trim();
        !l.is_empty() && !l.starts_with('#')
    });
    if has_code {
        return body;
    }
    if body.trim().is_empty() {
        return " ...".to_string();
    }
    let indent: String = body
        .lines()
        .find(|l| !l.trim().is_empty())
        .map(|l| l.chars().take_while(|c| *c == ' ' || *c == '\t').collect())
        .unwrap_or_default();
    format!("{}\n{indent}...", body.trim_end())
}

/// A removed span widened to the whole lines it occupies (when nothing
/// else is on them), plus the blank lines after it when a blank line
/// already precedes it or it comes first in its region, so removing a
/// block leaves one separator at most. `bounds` ends where the next
/// sibling begins (or the region ends): text after the span on its last
/// line that reaches neither, and closes no bracket opened before it
/// (`;` after a C++ class, `\u{fffd}sum()` after a Kotlin function the
/// grammar ended early), is the symbol's tail and goes with it, so no
/// fragment is left on a line of its own.
pub(super) fn whole_lines(source: &str, span: Range<usize>, bounds: Range<usize>) -> Range<usize> {
    let rest = slice(source, span.end..bounds.end);
    let Some(start) = indent_start(source, span.start).filter(|s| *s >= bounds.start) else {
        return span;
    };
    let Some(tail) = rest.find('\n').filter(|&at| is_own_tail(&rest[..at])) else {
        return span;
    };
    let mut end = span.end + tail + 1;
    let first_in_region = slice(source, bounds.start..start).trim().is_empty();
    if first_in_region || blank_line_before(source, start, bounds.start) {
        end = skip_blank_lines(source, end, bounds.end);
    }
    start..end
}

/// Whether `text`, the rest of a symbol's last line, is its own: blank,
/// or closing no bracket it did not open (not part of an enclosing call
/// or block) and opening no string or block comment that goes on.
fn is_own_tail(text: &str) -> bool {
    if text.contains(['"', '\'', '`']) || text.contains("/*") && !text.contains("*/") {
        return false;
    }
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {}
        }
    }
    true
}

/// Where the sibling after `children[i]` begins (its lead), else `end`.
pub(super) fn next_lead(children: &[Symbol], i: usize, end: usize) -> usize {
    children
        .get(i + 1)
        .map_or(end, |next| next.spans.lead.min(end))
}

/// Past the whole blank lines starting at `from` (not beyond `limit`).
fn skip_blank_lines(source: &str, mut from: usize, limit: usize) -> usize {
    while let Some(rest) = source.get(from..limit) {
        let Some(newline) = rest.find('\n') else {
            break;
        };
        if !rest[..newline].trim().is_empty() {
            break;
        }
        from += newline + 1;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::syntax::parse;
    use MaskState::{Agg, Def, Hide, Sig};

    const PY: &str = "class App:\n    \"\"\"The app.\"\"\"\n\n    def run(self):\n        \"\"\"Run it.\"\"\"\n        return 1\n\n    def stop(self):\n        return 2\n";

    fn masked(src: &str, lang: Lang, default: MaskState, own: &[(&str, MaskState)]) -> String {
        let tree = parse(lang, src);
        let mask = own.iter().map(|(p, m)| (p.to_string(), *m)).collect();
        render(&tree, src, default, &mask)
    }

    /// Fuzzing (round 22): a hidden Ruby class or method around a visible
    /// method of `class << self` kept the method without the block, so
    /// the view read it as an instance method (`Shape#registry`).
    #[test]
    fn a_hidden_ruby_container_keeps_the_singleton_block_of_a_visible_method() {
        let rb = "class Shape\n  X = 1\n\n  class << self\n    def registry\n      @r ||= []\n    end\n  end\nend\n";
        let out = masked(rb, Lang::Ruby, Hide, &[("Shape.registry", Def)]);
        assert!(out.contains("class << self"), "{out}");
        let again = crate::core::syntax::parse(Lang::Ruby, &out);
        assert!(!again.has_errors, "{out}");
        let paths: Vec<&str> = again
            .symbols
            .iter()
            .flat_map(|s| s.children.iter())
            .map(|c| c.path.as_str())
            .collect();
        assert_eq!(paths, ["Shape.registry"], "{out}");
    }

    #[test]
    fn the_order_of_what_a_state_shows() {
        assert!(shows_more(Def, Sig) && shows_more(Sig, Agg) && shows_more(Agg, Hide));
        assert!(!shows_more(Agg, Agg) && !shows_more(Hide, Agg) && !shows_more(Sig, Def));
    }

    /// An `agg` class with a method of its own `def`: the class opens,
    /// the method in full, its sibling folded to its summary line.
    #[test]
    fn an_own_def_inside_an_agg_class_shows() {
        assert_eq!(
            masked(PY, Lang::Python, Def, &[("App", Agg), ("App.run", Def)]),
            "class App:\n    \"\"\"The app.\"\"\"\n\n    def run(self):\n        \"\"\"Run it.\"\"\"\n        return 1\n\n    def stop(self): ...  # 1 line\n"
        );
        // A sig of its own shows too; an agg of its own is what the class
        // already says: the class stays one line.
        assert_eq!(
            masked(PY, Lang::Python, Def, &[("App", Agg), ("App.run", Sig)]),
            "class App:\n    \"\"\"The app.\"\"\"\n\n    def run(self):\n        \"\"\"Run it.\"\"\"\n        ...\n\n    def stop(self): ...  # 1 line\n"
        );
        assert_eq!(
            masked(PY, Lang::Python, Def, &[("App", Agg), ("App.run", Agg)]),
            "class App: ...  # The app. (8 lines)\n"
        );
        // The file default agg opens the same way.
        assert_eq!(
            masked(PY, Lang::Python, Agg, &[("App.run", Def)]),
            masked(PY, Lang::Python, Def, &[("App", Agg), ("App.run", Def)]),
        );
    }

    /// `hide` behaves as before: the class's header and the visible
    /// method; an own `hide` inside a shown class drops just that method.
    #[test]
    fn hide_keeps_an_own_visible_method_and_own_hide_drops_one() {
        assert_eq!(
            masked(PY, Lang::Python, Def, &[("App", Hide), ("App.stop", Agg)]),
            "class App:\n    def stop(self): ...  # 1 line\n"
        );
        assert_eq!(
            masked(PY, Lang::Python, Def, &[("App.stop", Hide)]),
            "class App:\n    \"\"\"The app.\"\"\"\n\n    def run(self):\n        \"\"\"Run it.\"\"\"\n        return 1\n"
        );
    }

    /// A `sig` function folds its body unless a nested function has its
    /// own `def`.
    #[test]
    fn a_sig_function_opens_for_an_own_def_inside() {
        let src = "def outer(x):\n    def inner(y):\n        return y\n    return inner(x)\n";
        assert_eq!(
            masked(src, Lang::Python, Sig, &[]),
            "def outer(x):\n    ...\n"
        );
        assert_eq!(masked(src, Lang::Python, Sig, &[("outer.inner", Def)]), src);
    }

    /// The same rule in a brace language: a C++ class folded `agg` opens
    /// for its member of its own `def`.
    #[test]
    fn cpp_agg_class_opens_for_an_own_def() {
        let src = "class C {\npublic:\n  int f() { return 1; }\n  int g() { return 2; }\n};\n";
        let out = masked(src, Lang::Cpp, Def, &[("C", Agg), ("C::g", Def)]);
        assert_eq!(
            out,
            "class C {\npublic:\n  int f(); /* 1 line */\n  int g() { return 2; }\n};\n"
        );
        let folded = masked(src, Lang::Cpp, Def, &[("C", Agg)]);
        assert!(!folded.contains("return 2"), "{folded}");
    }

    /// What follows a hidden symbol on its last line goes with it when it
    /// is the symbol's own tail (the `;` after a C++ class; text a grammar
    /// left outside a Kotlin function that it ended early, found by the
    /// `views` fuzz target), and stays when it closes an enclosing call.
    #[test]
    fn a_hidden_symbol_takes_its_own_tail_on_its_last_line() {
        let kt = "fun a() = b { c }\u{FFFD}sum()\n\nfun main() {\n    println(1)\n}\n";
        let out = masked(kt, Lang::Kotlin, Def, &[("a", Hide)]);
        assert_eq!(out, "fun main() {\n    println(1)\n}\n");
        let cpp = "class C {\n    int x;\n};\nint y;\n";
        assert_eq!(masked(cpp, Lang::Cpp, Def, &[("C", Hide)]), "int y;\n");
        let js = "app.get('/',\n  function handler(req) {\n    return 1;\n  }, other);\n";
        let out = masked(js, Lang::JavaScript, Def, &[("handler", Hide)]);
        assert!(
            out.contains(", other);") && !out.contains("return 1"),
            "{out}"
        );
        let kt_two = "fun a() = 1; fun b() = 2\nfun c() = 3\n";
        let out = masked(kt_two, Lang::Kotlin, Def, &[("a", Hide)]);
        assert!(
            out.contains("fun b() = 2") && out.contains("fun c() = 3"),
            "{out}"
        );
    }

    /// A hidden Kotlin property with a visible accessor shows its text
    /// once, each accessor as masked (the `views` fuzz target found the
    /// header and the closing holding the accessors again: `get() {`
    /// twice, `set(value)` after the closing).
    #[test]
    fn a_hidden_property_with_a_visible_accessor_shows_once() {
        let src = "class P {\n    var label: String = \"\"\n        get() {\n            return field\n        }\n        set(value) {\n            field = value.trim()\n        }\n}\n";
        let out = masked(
            src,
            Lang::Kotlin,
            Def,
            &[
                ("P.label", Hide),
                ("P.label.get", Def),
                ("P.label.set", Sig),
            ],
        );
        assert_eq!(out.matches("get()").count(), 1, "{out}");
        assert_eq!(out.matches("set(value)").count(), 1, "{out}");
        assert!(
            out.contains("return field") && !out.contains("value.trim()"),
            "{out}"
        );
        assert!(parse(Lang::Kotlin, &out).symbols.len() == 1, "{out}");
    }
}
