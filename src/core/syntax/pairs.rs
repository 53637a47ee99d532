//! Pairs: a C or C++ function declared once (a prototype, a method
//! declared in its class) and defined later in the same file is one
//! declaration and its definition — paths `f` and `f#def` — rather than
//! two look-alike overloads `f` and `f#2`. Overloads still number as
//! before: a definition pairs with the declaration whose parameter types
//! match, or with the only one of the same arity.

use std::collections::HashMap;

use tree_sitter::Node;

use super::text::{fold, slice};

/// The suffix of a definition's path after its declaration's path.
pub(super) const DEF_SUFFIX: &str = "#def";

/// The function declarations seen so far, by base path.
#[derive(Default)]
pub(super) struct Declarations {
    by_base: HashMap<String, Vec<Declared>>,
}

struct Declared {
    path: String,
    params: Option<Vec<String>>,
    paired: bool,
}

impl Declarations {
    /// Remember a declaration (not a definition) at `path`.
    pub(super) fn record(&mut self, base: &str, path: &str, params: Option<Vec<String>>) {
        self.by_base
            .entry(base.to_string())
            .or_default()
            .push(Declared {
                path: path.to_string(),
                params,
                paired: false,
            });
    }

    /// The path of the definition of an unpaired declaration with this
    /// base path and these parameter types, if there is one (which is
    /// then paired).
    pub(super) fn pair(&mut self, base: &str, params: Option<&[String]>) -> Option<String> {
        let list = self.by_base.get_mut(base)?;
        let params = params?;
        let open = |d: &&mut Declared| !d.paired && d.params.is_some();
        let exact = list
            .iter_mut()
            .filter(open)
            .position(|d| d.params.as_deref() == Some(params));
        let index = match exact {
            Some(_) => list
                .iter()
                .position(|d| !d.paired && d.params.as_deref() == Some(params)),
            None => {
                let same_arity: Vec<usize> = list
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| {
                        !d.paired && d.params.as_ref().is_some_and(|p| p.len() == params.len())
                    })
                    .map(|(i, _)| i)
                    .collect();
                (same_arity.len() == 1).then(|| same_arity[0])
            }
        }?;
        let declared = list.get_mut(index)?;
        declared.paired = true;
        Some(format!("{}{DEF_SUFFIX}", declared.path))
    }
}

/// The parameter types of a function node (`function_definition`,
/// `declaration`, `field_declaration`): each parameter's type with the
/// `*`, `&` and `[]` of its declarator, names left out. `(void)` is no
/// parameter.
pub(super) fn parameter_types(core: Node, source: &str) -> Option<Vec<String>> {
    let mut node = core.child_by_field_name("declarator")?;
    for _ in 0..16 {
        if node.kind() == "function_declarator" {
            let list = node.child_by_field_name("parameters")?;
            let mut cursor = list.walk();
            let types: Vec<String> = list
                .named_children(&mut cursor)
                .filter(|p| p.kind() != "comment")
                .map(|p| parameter_type(p, source))
                .collect();
            return Some(match types.as_slice() {
                [only] if only == "void" => Vec::new(),
                _ => types,
            });
        }
        node = node
            .child_by_field_name("declarator")
            .or_else(|| node.named_child(0))?;
    }
    None
}

fn parameter_type(param: Node, source: &str) -> String {
    let ty = param.child_by_field_name("type").map_or_else(
        || slice(source, param.byte_range()),
        |t| slice(source, t.byte_range()),
    );
    let marks: String = param
        .child_by_field_name("declarator")
        .map(|d| slice(source, d.byte_range()))
        .unwrap_or("")
        .chars()
        .filter(|c| matches!(c, '*' | '&' | '['))
        .collect();
    format!("{}{marks}", fold(ty))
}
