//! Symbols: run the language's `.scm` query over the syntax tree, keep one
//! definition per range, nest definitions by byte range and give each its
//! stable path (`Class.method`, `struct Point`, `ns::Class::f#2`, and
//! `ns::Class::f#def` for the definition of a declared C/C++ function, see
//! `pairs`). This is
//! the first step of every view; the rest of the module reads the
//! resulting [`SymbolTree`].

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use std::ops::ControlFlow;

use tree_sitter::{Node, QueryCursor, QueryCursorOptions, StreamingIterator};

use super::c_defs;
use super::errors;
use super::generic;
use super::lang::Capture;
use super::lang::{Budget, last_parse_stopped, parse_tree};
use super::licence;
use super::literals;
use super::macros::CMacros;
use super::pairs::{Declarations, parameter_types};
use super::preproc;
use super::python_defs;
use super::sections;
use super::spans::{self, Analysis, Found};
use super::text::{LineIndex, doc_from_comment, doc_from_string, fold, slice};
use super::{Lang, Symbol, SymbolKind, SymbolTree};

/// Definitions nested deeper than this are not symbols: it bounds every
/// recursion over the tree, whatever the input.
pub(super) const MAX_DEPTH: usize = 48;

/// The deepest syntax node where a definition may start. Each symbol level
/// takes a few syntax levels (class, body, template, ...), so this is far
/// past [`MAX_DEPTH`] symbols for real code; it keeps the query and the
/// node walks linear on pathological nesting (3000 nested structs).
const MAX_START_DEPTH: u32 = 4 * MAX_DEPTH as u32;

/// Parse `source` and build its symbol tree (see [`super::parse`]).
pub(super) fn extract(lang: Lang, source: &str, user: &CMacros) -> SymbolTree {
    extract_with(lang, source, user, Finder::Fastest)
}

/// How definitions are found: by a walk over the tree (Python's
/// statements, see `python_defs`; every C/C++ node, see `c_defs`), or by
/// the language's query (the specification the walks are tested against).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Finder {
    Fastest,
    /// Only the tests ask for the queries.
    #[cfg_attr(not(test), allow(dead_code))]
    Query,
}

/// The tree of a file that could not be read for symbols: none, an error
/// at line 1, and whether a deadline stopped the parse.
fn unread(lang: Lang, parse_stopped: bool) -> SymbolTree {
    SymbolTree {
        lang,
        symbols: Vec::new(),
        module_doc: None,
        licence: Vec::new(),
        has_errors: true,
        large_literals: Vec::new(),
        error_line: Some(1),
        parse_stopped,
    }
}

/// [`extract`], finding the definitions as `finder` says.
pub(super) fn extract_with(lang: Lang, source: &str, user: &CMacros, finder: Finder) -> SymbolTree {
    // Only C and C++ need the pre-pass (macros, conditionals); Python's
    // returns the source as is, and the data-driven languages skip it.
    // One deadline for the file: the parses and the query share it. The
    // project's macros are read before it starts.
    if lang.is_c_family() {
        user.load();
    }
    // One file's parses at a time per core in the process; the tree is
    // held until this returns.
    let _slot = super::parse_slots::take();
    let mut budget = Budget::for_len(source.len());
    let parsed = if lang.is_c_family() || lang == Lang::Python {
        preproc::parse(lang, source, user, &mut budget)
    } else {
        parse_tree(lang, source, &mut budget).map(|tree| (tree, Cow::Borrowed(source)))
    };
    let Some((tree, parsed)) = parsed else {
        return unread(lang, last_parse_stopped());
    };
    let root = tree.root_node();
    let Some(found) = find_definitions(lang, root, &parsed, source, finder, &mut budget) else {
        // The query ran past what the parse left of the deadline (deep
        // nesting makes each of its steps walk the whole depth): stopped
        // like a slow parse.
        return unread(lang, true);
    };
    let placed = nest(lang, found);
    let error_line = errors::first_line(lang, root);
    let (module_doc, licence) = module_doc(lang, root, source);
    SymbolTree {
        lang,
        symbols: build(lang, &placed, source),
        module_doc,
        licence,
        has_errors: error_line.is_some(),
        error_line,
        large_literals: literals::find(lang, root, source),
        parse_stopped: false,
    }
}

/// Analyse one found definition, by the reader of its language.
fn analyze(lang: Lang, found: &Found, source: &str) -> Analysis {
    match lang {
        Lang::Python | Lang::C | Lang::Cpp => spans::analyze(lang, found, source),
        Lang::Markdown => sections::analyze(found, source),
        _ => generic::analyze(lang, found, source),
    }
}

/// Every definition, one per range (for the same range the earlier
/// pattern of the query wins), sorted by start, outer before inner. The
/// query's text predicates read `parsed`, the text the tree was built from.
/// `None` when the query ran past what is left of `budget`.
fn find_definitions<'t>(
    lang: Lang,
    root: Node<'t>,
    parsed: &str,
    source: &str,
    finder: Finder,
    budget: &mut Budget,
) -> Option<Vec<Found<'t>>> {
    let mut found = match (lang, finder) {
        (Lang::Python, Finder::Fastest) => python_defs::definitions(root, parsed, MAX_START_DEPTH),
        (Lang::C | Lang::Cpp, Finder::Fastest) => c_defs::definitions(lang, root, MAX_START_DEPTH),
        _ => query_definitions(lang, root, parsed, budget)?,
    };
    if lang != Lang::Python {
        let aliases: Vec<(usize, Found)> = found
            .iter()
            .flat_map(|(pattern, f)| typedef_names(f, source).map(move |t| (*pattern, t)))
            .collect();
        found.extend(aliases);
    }
    let guard = include_guard(source);
    found.retain(|(_, f)| wanted(f, guard, source));
    if lang == Lang::Markdown {
        sections::extend(&mut found, source.len());
    }
    found.sort_by_key(|(pattern, f)| (f.first.start_byte(), Reverse(f.end), *pattern));
    found.dedup_by_key(|(_, f)| (f.first.start_byte(), f.end));
    Some(found.into_iter().map(|(_, f)| f).collect())
}

/// Every match of the language's query, with its pattern index; `None`
/// when the query ran past what the parse left of the file's budget
/// (`lang::Budget`): on a tree nested thousands deep (300 KB of `(`) each
/// step of the cursor walks the whole depth, and the query took minutes.
fn query_definitions<'t>(
    lang: Lang,
    root: Node<'t>,
    parsed: &str,
    budget: &mut Budget,
) -> Option<Vec<(usize, Found<'t>)>> {
    let Some(symbol_query) = lang.symbol_query() else {
        return Some(Vec::new());
    };
    let mut cursor = QueryCursor::new();
    cursor.set_max_start_depth(Some(MAX_START_DEPTH));
    let stopped = std::cell::Cell::new(false);
    let mut progress = |_: &tree_sitter::QueryCursorState| {
        if budget.spent() {
            stopped.set(true);
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = QueryCursorOptions::new().progress_callback(&mut progress);
    let mut matches =
        cursor.matches_with_options(&symbol_query.query, root, parsed.as_bytes(), options);
    let mut found = Vec::new();
    while let Some(m) = matches.next() {
        let mut definition = None;
        let mut name = None;
        for capture in m.captures() {
            match symbol_query.captures.get(capture.index as usize) {
                Some(Capture::Name) => name = Some(capture.node),
                Some(Capture::Definition(kind)) => definition = Some((*kind, capture.node)),
                _ => {}
            }
        }
        if let (Some((kind, core)), Some(name)) = (definition, name) {
            found.push((m.pattern_index, Found::new(kind, core, name)));
        }
    }
    drop(matches);
    (!stopped.get()).then_some(found)
}

/// The typedef names of a tagged type defined in a typedef (`Name` and
/// `PName` of `typedef struct tag { ... } Name, *PName;`): symbols of
/// their own, spanning the declarator, nested in the type (whose symbol is
/// `struct tag`). A name equal to the tag adds nothing. Of a plain
/// typedef with several names (`typedef PVOID CV, *PCV;`), the names after
/// the first, likewise.
fn typedef_names<'t>(found: &Found<'t>, source: &str) -> impl Iterator<Item = Found<'t>> {
    let tagged = matches!(
        found.core.kind(),
        "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier"
    ) && found.outer.kind() == "type_definition";
    let tag = found
        .core
        .child_by_field_name("name")
        .map(|n| slice(source, n.byte_range()));
    // `typedef PVOID CONDITION_VARIABLE, *PCONDITION_VARIABLE;`: the
    // query names the first declarator, the others are typedefs too.
    let plain =
        !tagged && found.kind == SymbolKind::Typedef && found.outer.kind() == "type_definition";
    let mut cursor = found.outer.walk();
    let declarators: Vec<Node<'t>> = if tagged || plain {
        found
            .outer
            .children_by_field_name("declarator", &mut cursor)
            .skip(usize::from(plain))
            .collect()
    } else {
        Vec::new()
    };
    declarators.into_iter().filter_map(move |declarator| {
        let mut name = declarator;
        // Through pointers and arrays to the name (bounded like the query).
        for _ in 0..4 {
            if name.kind() == "type_identifier" {
                break;
            }
            name = name.child_by_field_name("declarator")?;
        }
        let is_new =
            name.kind() == "type_identifier" && Some(slice(source, name.byte_range())) != tag;
        is_new.then_some(Found {
            kind: SymbolKind::Typedef,
            core: declarator,
            outer: declarator,
            first: declarator,
            name,
            end: declarator.end_byte(),
        })
    })
}

/// `typedef struct tag Name` for the typedef name of a tagged type, and
/// `typedef PVOID *PCV` for a plain typedef's later name (see
/// [`typedef_names`]), whose own node is only the declarator.
fn alias_signature(found: &Found, source: &str) -> Option<String> {
    let definition = found.core.parent()?;
    if found.kind != SymbolKind::Typedef || definition.kind() != "type_definition" {
        return None;
    }
    let tagged = definition.child_by_field_name("type")?;
    let Some(keyword) = tagged.kind().strip_suffix("_specifier") else {
        // A plain typedef's later name: `typedef PVOID *PCV`.
        return Some(format!(
            "typedef {} {}",
            fold(slice(source, tagged.byte_range())),
            fold(slice(source, found.core.byte_range()))
        ));
    };
    let tag = tagged.child_by_field_name("name")?;
    Some(format!(
        "typedef {keyword} {} {}",
        fold(slice(source, tag.byte_range())),
        fold(slice(source, found.core.byte_range()))
    ))
}

/// Drop nameless matches (error recovery) and the include guard.
fn wanted(found: &Found, guard: Option<&str>, source: &str) -> bool {
    let name = slice(source, found.name.byte_range()).trim();
    let is_guard = found.kind == SymbolKind::Constant && guard == Some(name);
    !name.is_empty() && !is_guard
}

/// `X` when the file's first two directives are `#ifndef X` and
/// `#define X`.
fn include_guard(source: &str) -> Option<&str> {
    let mut directives = directive_lines(source);
    let first = directives.next()?;
    let name = first
        .strip_prefix("ifndef")
        .or_else(|| first.strip_prefix("if !defined"))?
        .trim()
        .trim_matches(['(', ')'])
        .trim();
    let second = directives.next()?.strip_prefix("define")?;
    (second.split_whitespace().next() == Some(name)).then_some(name)
}

/// The directive lines outside block comments, without their `#`.
fn directive_lines(source: &str) -> impl Iterator<Item = &str> {
    let mut in_comment = false;
    source.lines().filter_map(move |line| {
        let line = line.trim();
        if in_comment {
            in_comment = !line.contains("*/");
            return None;
        }
        if line.starts_with("/*") && !line.contains("*/") {
            in_comment = true;
            return None;
        }
        line.strip_prefix('#').map(str::trim_start)
    })
}

/// A definition with the index of the definition it sits in.
struct Placed<'t> {
    found: Found<'t>,
    parent: Option<usize>,
}

/// Nest sorted definitions by containment of their ranges.
fn nest(lang: Lang, found: Vec<Found>) -> Vec<Placed> {
    let mut placed: Vec<Placed> = Vec::with_capacity(found.len());
    let mut stack: Vec<usize> = Vec::new();
    for f in found {
        let end = f.end;
        while let Some(&top) = stack.last() {
            if placed[top].found.end >= end {
                break;
            }
            stack.pop();
        }
        let parent = stack.last().copied();
        if stack.len() >= MAX_DEPTH {
            continue;
        }
        if parent.is_some_and(|p| is_local_declaration(lang, &placed[p].found, &f)) {
            continue;
        }
        placed.push(Placed { found: f, parent });
        stack.push(placed.len() - 1);
    }
    placed
}

/// C/C++ prototypes, functions and macros inside a function body are
/// local details, not symbols: C has no nested functions, C++'s most
/// vexing parse makes some variables look like prototypes, and a macro
/// statement such as `JSON_CATCH (...) { ... }` reads as a definition.
/// Python and the data-driven languages keep nested definitions (ctags
/// lists a JavaScript function's inner functions too).
fn is_local_declaration(lang: Lang, parent: &Found, child: &Found) -> bool {
    if !lang.is_c_family() {
        return false;
    }
    parent.kind.is_function() && (child.kind == SymbolKind::Constant || child.kind.is_function())
}

/// Name, kind and path of every placed definition, assembled into a tree.
fn build(lang: Lang, placed: &[Placed], source: &str) -> Vec<Symbol> {
    let lines = LineIndex::new(source);
    let namespaces = namespace_names(placed, source);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut declarations = Declarations::default();
    let mut flat: Vec<Symbol> = Vec::with_capacity(placed.len());
    // Each symbol's path as it was before Rust paths followed what people
    // write: a mask written with one still applies (`Symbol::legacy`).
    let mut before: Vec<String> = Vec::with_capacity(placed.len());
    let mut seen_before: HashMap<String, usize> = HashMap::new();
    for p in placed {
        let parent = p.parent.and_then(|i| flat.get(i));
        let (name, qualified) = generic::own_name(lang, &p.found, source)
            .unwrap_or_else(|| names(p.found.name, source));
        let kind = refine_kind(lang, &p.found, parent, &qualified, &namespaces);
        let mut base = base_path(lang, kind, p.found.name, parent, &qualified, &name);
        let mut legacy = None;
        if lang == Lang::Rust {
            let (new, old) = rust_paths(placed, &flat, &before, p, &qualified, source);
            if let Some(new) = new {
                base = new;
            }
            legacy = Some(unique_path(&mut seen_before, old));
        }
        let path = if lang.is_c_family() && kind.is_function() {
            let params = parameter_types(p.found.core, source);
            if p.found.core.kind() == "function_definition" {
                declarations
                    .pair(&base, params.as_deref())
                    .unwrap_or_else(|| unique_path(&mut seen, base))
            } else {
                let path = unique_path(&mut seen, base.clone());
                declarations.record(&base, &path, params);
                path
            }
        } else {
            unique_path(&mut seen, base)
        };
        if let Some(old) = &legacy {
            before.push(old.clone());
        } else {
            before.push(path.clone());
        }
        let legacy = legacy.filter(|old| *old != path);
        let mut analysis = analyze(lang, &p.found, source);
        if let Some(signature) = alias_signature(&p.found, source) {
            analysis.signature = signature;
        }
        flat.push(Symbol {
            path,
            name,
            kind,
            start_line: lines.line_of(analysis.range.start),
            end_line: lines.line_of(analysis.range.end.saturating_sub(1)),
            signature: analysis.signature,
            range: analysis.range,
            children: Vec::new(),
            spans: analysis.spans,
            legacy,
        });
    }
    assemble(flat, placed)
}

/// A Rust item's path where it is not its parent's path and its name (an
/// item of an `impl` block: `Type::item`, `<Type as Trait>::item`), and
/// its path before duplicate numbering as it was before paths followed
/// what people write (`impl Type::item`: the block's old path and the
/// name), for `Symbol::legacy`. `flat` and `before` hold the symbols
/// placed so far and their old paths.
fn rust_paths(
    placed: &[Placed],
    flat: &[Symbol],
    before: &[String],
    p: &Placed,
    qualified: &str,
    source: &str,
) -> (Option<String>, String) {
    let parent = p
        .parent
        .and_then(|i| Some((i, flat.get(i)?, before.get(i)?)));
    let old = generic::base_path(
        Lang::Rust,
        parent.map(|(_, parent, old)| match parent.kind {
            SymbolKind::Namespace => old.split('#').next().unwrap_or(old),
            _ => old.as_str(),
        }),
        qualified,
    );
    let new = parent
        .filter(|(_, parent, _)| parent.kind == SymbolKind::Impl)
        .and_then(|(i, block, _)| {
            let scope = generic::rust_impl_scope(placed.get(i)?.found.core, source)?;
            Some(format!(
                "{}{scope}::{qualified}",
                generic::rust_impl_prefix(&block.path)
            ))
        });
    (new, old)
}

/// Attach every symbol to its parent. Children have larger indices than
/// their parent, so walking backwards finishes each child first.
fn assemble(flat: Vec<Symbol>, placed: &[Placed]) -> Vec<Symbol> {
    let mut slots: Vec<Option<Symbol>> = flat.into_iter().map(Some).collect();
    let mut roots = Vec::new();
    for i in (0..slots.len()).rev() {
        let Some(mut symbol) = slots[i].take() else {
            continue;
        };
        symbol.children.reverse();
        match placed[i].parent.and_then(|p| slots.get_mut(p)) {
            Some(Some(parent)) => parent.children.push(symbol),
            _ => roots.push(symbol),
        }
    }
    roots.reverse();
    roots
}

/// The plain name and the qualified name (`Class::f` for an out-of-line
/// C++ definition; template arguments of the scope dropped).
fn names(node: Node, source: &str) -> (String, String) {
    let mut segments = Vec::new();
    let mut current = node;
    while current.kind() == "qualified_identifier" {
        let (Some(scope), Some(name)) = (
            current.child_by_field_name("scope"),
            current.child_by_field_name("name"),
        ) else {
            break;
        };
        let scope = match scope.kind() {
            "template_type" => scope.child_by_field_name("name").unwrap_or(scope),
            _ => scope,
        };
        segments.push(fold(slice(source, scope.byte_range())));
        current = name;
    }
    let last = match current.kind() {
        "operator_cast" => operator_cast_name(current, source),
        _ => fold(slice(source, current.byte_range())),
    };
    segments.push(last.clone());
    let plain = match current.kind() {
        "template_type" | "template_function" => current
            .child_by_field_name("name")
            .map_or(last, |n| fold(slice(source, n.byte_range()))),
        _ => last,
    };
    (plain, segments.join("::"))
}

/// `operator const std::locale&` for `operator const std::locale&() const`:
/// the text before the conversion's `()`.
fn operator_cast_name(node: Node, source: &str) -> String {
    let text = slice(source, node.byte_range());
    let cut = node
        .child_by_field_name("declarator")
        .and_then(|d| {
            let offset = d.start_byte().checked_sub(node.start_byte())?;
            let paren = text.get(offset..)?.find('(')?;
            Some(offset + paren)
        })
        .unwrap_or(text.len());
    fold(text.get(..cut).unwrap_or(text))
}

/// The names of the file's namespaces, segment by segment.
fn namespace_names(placed: &[Placed], source: &str) -> HashSet<String> {
    let mut set: HashSet<String> = HashSet::from(["std".to_string()]);
    for p in placed
        .iter()
        .filter(|p| p.found.kind == SymbolKind::Namespace)
    {
        let text = slice(source, p.found.name.byte_range());
        set.extend(text.split("::").map(|s| s.trim().to_string()));
    }
    set
}

/// Functions in a class, and C++ out-of-line definitions whose scope is
/// not a namespace, are methods.
fn refine_kind(
    lang: Lang,
    found: &Found,
    parent: Option<&Symbol>,
    qualified: &str,
    namespaces: &HashSet<String>,
) -> SymbolKind {
    if found.kind != SymbolKind::Function {
        return found.kind;
    }
    // A Kotlin or Swift interface, enum or extension holds methods too
    // (with bodies: default methods, enum methods); a Ruby `def` in a
    // module is an instance method of the module.
    let members = matches!(lang, Lang::Kotlin | Lang::Swift);
    let in_type = parent.is_some_and(|p| {
        matches!(
            p.kind,
            SymbolKind::Class | SymbolKind::Struct | SymbolKind::Union
        ) || (members
            && matches!(
                p.kind,
                SymbolKind::Interface | SymbolKind::Enum | SymbolKind::Impl
            ))
            || (lang == Lang::Ruby && p.kind == SymbolKind::Module)
    });
    let scope = qualified.rsplit_once("::").map(|(scope, _)| scope);
    let out_of_line = lang == Lang::Cpp
        && scope.is_some_and(|s| {
            let last = s.rsplit("::").next().unwrap_or(s);
            !last.is_empty() && !namespaces.contains(last)
        });
    if in_type || out_of_line {
        SymbolKind::Method
    } else {
        SymbolKind::Function
    }
}

/// The path before duplicate numbering. C has one flat namespace for
/// functions and one for tags (`struct Point`); Python and C++ nest. A
/// reopened namespace is the same scope, so its `#n` is not inherited.
fn base_path(
    lang: Lang,
    kind: SymbolKind,
    name_node: Node,
    parent: Option<&Symbol>,
    qualified: &str,
    name: &str,
) -> String {
    // The typedef name of a tagged type (`typedef struct tag {...} Name;`)
    // lives beside the type, in the type's scope.
    let alias = kind == SymbolKind::Typedef
        && name_node
            .parent()
            .is_some_and(|n| n.kind() != "alias_declaration")
        && parent.is_some_and(|p| {
            matches!(
                p.kind,
                SymbolKind::Struct | SymbolKind::Union | SymbolKind::Enum | SymbolKind::Class
            ) && p.range.end >= name_node.end_byte()
                && p.spans
                    .inner
                    .as_ref()
                    .is_none_or(|i| i.end <= name_node.start_byte())
        });
    let parent_path = parent.and_then(|p| match p.kind {
        _ if alias => p.path.rsplit_once("::").map(|(scope, _)| scope),
        SymbolKind::Namespace => Some(p.path.split('#').next().unwrap_or(&p.path)),
        // A reopened Ruby class or module is the same scope too.
        SymbolKind::Class | SymbolKind::Module if lang == Lang::Ruby => {
            Some(without_duplicate_number(&p.path))
        }
        _ => Some(p.path.as_str()),
    });
    match lang {
        Lang::Python => match parent_path {
            Some(p) => format!("{p}.{name}"),
            None => name.to_string(),
        },
        Lang::C => match tag_keyword(kind, name_node) {
            Some(tag) => format!("{tag} {name}"),
            None => name.to_string(),
        },
        Lang::Cpp => match parent_path {
            Some(p) => format!("{p}::{qualified}"),
            None => qualified.to_string(),
        },
        _ => generic::base_path(lang, parent_path, qualified),
    }
}

/// A path without its trailing `#n` (`Foo#2` is `Foo`; `Foo#bar` stays).
fn without_duplicate_number(path: &str) -> &str {
    match path.rsplit_once('#') {
        Some((head, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => head,
        _ => path,
    }
}

/// `struct`/`union`/`enum` when the name is the type's own tag (not the
/// typedef name of an anonymous type).
fn tag_keyword(kind: SymbolKind, name_node: Node) -> Option<&'static str> {
    let is_tag = name_node.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "struct_specifier" | "union_specifier" | "enum_specifier"
        )
    });
    match kind {
        SymbolKind::Struct if is_tag => Some("struct"),
        SymbolKind::Union if is_tag => Some("union"),
        SymbolKind::Enum if is_tag => Some("enum"),
        _ => None,
    }
}

/// `base` the first time, then `base#2`, `base#3`, ...
fn unique_path(seen: &mut HashMap<String, usize>, base: String) -> String {
    let count = seen.entry(base.clone()).or_insert(0);
    *count += 1;
    if *count == 1 {
        base
    } else {
        format!("{base}#{count}")
    }
}

/// A comment that tells the interpreter something (Ruby's `#
/// frozen_string_literal: true`, `# -*- coding: utf-8 -*-`), not the
/// reader.
fn is_magic_comment(text: &str) -> bool {
    let body = text.trim_start_matches('#').trim().to_ascii_lowercase();
    body.starts_with("-*-")
        || [
            "frozen_string_literal:",
            "encoding:",
            "coding:",
            "warn_indent:",
        ]
        .iter()
        .any(|m| body.starts_with(m))
}

/// First line of the module docstring (Python) or of the comment block
/// the file starts with (the other languages), licence blocks skipped;
/// and those blocks' ranges (`licence`).
fn module_doc(lang: Lang, root: Node, source: &str) -> (Option<String>, Vec<Range<usize>>) {
    let mut cursor = root.walk();
    let children: Vec<Node> = root.named_children(&mut cursor).collect();
    let comments: Vec<Node> = children
        .iter()
        .copied()
        .skip_while(|n| {
            matches!(n.kind(), "hash_bang_line" | "php_tag")
                || slice(source, n.byte_range()).starts_with("#!")
        })
        .take_while(|n| lang.row().comments.contains(&n.kind()))
        .filter(|n| !is_magic_comment(slice(source, n.byte_range())))
        .collect();
    let leading = licence::split(&comments, source);
    if lang == Lang::Python {
        let doc = children
            .iter()
            .find(|n| n.kind() != "comment")
            .filter(|n| n.kind() == "expression_statement")
            .and_then(|n| n.named_child(0))
            .filter(|s| matches!(s.kind(), "string" | "concatenated_string"))
            .map(|s| slice(source, s.byte_range()))
            // A docstring that is the licence says nothing of the module.
            .filter(|text| !licence::is_licence(text))
            .and_then(doc_from_string);
        return (doc, leading.licence);
    }
    (doc_from_comment(&leading.rest.join("\n")), leading.licence)
}
