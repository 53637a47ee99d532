//! A rule's fixed head: how many characters every secret it finds
//! begins with that its regex fixes (`ghp_`, `gh[pousr]_`, a webhook's
//! host and path), read from the pattern's syntax once per rule. What
//! [`super::shown`] asks of a rendering that shows a secret in part is
//! that head and a few characters more.

use regex_syntax::ast::{self, Ast, ClassSet, ClassSetItem, RepetitionKind, RepetitionRange};

/// A bracketed class of at most this many single characters (`[pousr]`
/// in `gh[pousr]_`) is part of a secret's fixed beginning.
const SMALL_CLASS: usize = 8;

/// How many characters every secret of `pattern` begins with that are
/// fixed by the rule (literals and small classes), at most: the largest
/// over its groups named `secret…`. `0` when the pattern does not parse.
pub(super) fn fixed_head(pattern: &str) -> usize {
    let Ok(ast) = ast::parse::Parser::new().parse(pattern) else {
        return 0;
    };
    let mut best = 0;
    let mut stack = vec![&ast];
    while let Some(node) = stack.pop() {
        match node {
            Ast::Group(group) => {
                let secret = matches!(
                    &group.kind,
                    ast::GroupKind::CaptureName { name, .. } if name.name.starts_with("secret")
                );
                if secret {
                    best = best.max(head(&group.ast).0);
                }
                stack.push(&group.ast);
            }
            Ast::Repetition(rep) => stack.push(&rep.ast),
            Ast::Alternation(alt) => stack.extend(alt.asts.iter()),
            Ast::Concat(concat) => stack.extend(concat.asts.iter()),
            _ => {}
        }
    }
    best
}

/// The fixed characters `node` begins with, at most, and whether all of
/// it is fixed (so what follows it may add more).
fn head(node: &Ast) -> (usize, bool) {
    match node {
        Ast::Empty(_) | Ast::Flags(_) | Ast::Assertion(_) => (0, true),
        Ast::Literal(_) => (1, true),
        Ast::ClassBracketed(class) => (usize::from(small(class)), small(class)),
        Ast::Group(group) => head(&group.ast),
        Ast::Repetition(rep) => match (&rep.op.kind, head(&rep.ast)) {
            (RepetitionKind::Range(RepetitionRange::Exactly(n)), (len, true)) => {
                (len * *n as usize, true)
            }
            // An optional part (`(?:proj-)?`) may be there: counted, and
            // nothing after it is.
            (RepetitionKind::ZeroOrOne, (len, _)) => (len, false),
            _ => (0, false),
        },
        Ast::Concat(concat) => {
            let mut total = 0;
            for item in &concat.asts {
                let (len, fixed) = head(item);
                total += len;
                if !fixed {
                    return (total, false);
                }
            }
            (total, true)
        }
        Ast::Alternation(alt) => alt
            .asts
            .iter()
            .map(head)
            .fold((0, true), |acc, h| (acc.0.max(h.0), acc.1 && h.1)),
        _ => (0, false),
    }
}

/// A class of a few single characters, not negated (`[pousr]`).
fn small(class: &ast::ClassBracketed) -> bool {
    let items = match &class.kind {
        ClassSet::Item(ClassSetItem::Union(union)) => union.items.iter().collect(),
        ClassSet::Item(item) => vec![item],
        ClassSet::BinaryOp(_) => return false,
    };
    !class.negated
        && items.len() <= SMALL_CLASS
        && items.iter().all(|i| matches!(i, ClassSetItem::Literal(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rules_fixed_head_is_read_from_its_secret_group() {
        assert_eq!(
            fixed_head(r"(?-u:\b)(?P<secret>gh[pousr]_[0-9A-Za-z]{36,255})"),
            4
        );
        assert_eq!(
            fixed_head(
                r"(?P<secret>hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{20,})"
            ),
            26
        );
        assert_eq!(
            fixed_head(r"(?P<secret>sk-(?:proj-|svcacct-|admin-)?[0-9A-Za-z_-]{32,})"),
            11
        );
        // The largest over the groups; a value of any characters has none.
        assert_eq!(
            fixed_head(r"x(?P<secret>[0-9a-f]{8}-[0-9a-f]{4})|(?P<secret2>HRKU-[0-9A-Za-z_-]{60})"),
            5
        );
        assert_eq!(fixed_head(r#"password=(?P<secret>[^"'\s]{8,200})"#), 0);
        assert_eq!(
            fixed_head(r"(?P<secret>(?:AKIA|ASIA|A3T[A-Z0-9])[A-Z0-9]{16})"),
            4
        );
        assert_eq!(fixed_head("(unclosed"), 0);
    }
}
