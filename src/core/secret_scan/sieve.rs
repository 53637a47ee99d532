//! A rule's sieve: its pattern with every long counted repetition opened
//! (`[^"'\s]{8,200}` becomes `[^"'\s]{8,}`). The sieve matches wherever
//! the rule can (its language holds the rule's), and compiles about ten
//! times faster: a Unicode class repeated 200 times is 200 copies of its
//! UTF-8 automaton. A line that wakes a rule by its keyword but that the
//! sieve does not match never compiles the rule; on the standard library
//! the generic rules' sieves pass only the lines the rules match.

use regex_syntax::ast::{self, Ast, RepetitionKind, RepetitionRange};

/// A repetition whose bounds differ by more than this is opened.
const OPEN_PAST: u32 = 8;

/// `pattern` with its long counted repetitions opened; `None` when it has
/// none (the rule is its own sieve) or does not parse.
pub(super) fn widened(pattern: &str) -> Option<String> {
    let ast = ast::parse::Parser::new().parse(pattern).ok()?;
    let mut cuts = Vec::new();
    let mut stack = vec![&ast];
    while let Some(node) = stack.pop() {
        match node {
            Ast::Repetition(rep) => {
                if let RepetitionKind::Range(RepetitionRange::Bounded(min, max)) = rep.op.kind
                    && max.saturating_sub(min) > OPEN_PAST
                {
                    cuts.push((rep.op.span.start.offset, rep.op.span.end.offset, min));
                }
                stack.push(&rep.ast);
            }
            Ast::Group(group) => stack.push(&group.ast),
            Ast::Alternation(alt) => stack.extend(alt.asts.iter()),
            Ast::Concat(concat) => stack.extend(concat.asts.iter()),
            _ => {}
        }
    }
    if cuts.is_empty() {
        return None;
    }
    cuts.sort_unstable();
    let mut out = String::with_capacity(pattern.len());
    let mut at = 0;
    for (start, end, min) in cuts {
        out.push_str(pattern.get(at..start)?);
        // The op's span holds the `?` of a lazy repetition: keep it.
        let lazy = pattern.get(start..end)?.ends_with('?');
        out.push_str(&format!("{{{min},}}"));
        if lazy {
            out.push('?');
        }
        at = end;
    }
    out.push_str(pattern.get(at..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_counted_repetitions_are_opened() {
        assert_eq!(widened(r"a[^\s]{8,200}b").as_deref(), Some(r"a[^\s]{8,}b"));
        assert_eq!(
            widened(r"(?i)x[a-z_]{0,40}?y").as_deref(),
            Some(r"(?i)x[a-z_]{0,}?y")
        );
        // Nested, in groups and alternations, each once.
        assert_eq!(
            widened(r"(?:(?P<s>\w{4,128})|z{1,2}|(?:q{0,30}){2,50})").as_deref(),
            Some(r"(?:(?P<s>\w{4,})|z{1,2}|(?:q{0,}){2,})")
        );
        // Short ranges, exact counts, escaped braces and classes stay.
        assert_eq!(widened(r"a{2,4}b{36}\{1,99\}[{]"), None);
        assert_eq!(widened(r"(unclosed"), None);
    }

    /// Every built-in rule with a long range has a sieve, and it compiles.
    #[test]
    fn the_builtin_sieves_compile() {
        let rules = super::super::rules::RuleSet::compile_builtin();
        let sieves: Vec<String> = rules
            .rules
            .iter()
            .filter_map(|r| widened(r.pattern()))
            .collect();
        assert!(sieves.len() >= 10, "{}", sieves.len());
        for sieve in sieves {
            assert!(regex::Regex::new(&sieve).is_ok(), "{sieve}");
        }
    }
}
