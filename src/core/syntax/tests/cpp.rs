//! C++: namespaces, templates, methods in and out of class, overloads.

use insta::assert_snapshot;

use super::{listing, masked, names_and_lines, paths};
use crate::core::model::MaskState::{Agg, Def, Hide, Sig};
use crate::core::syntax::{Lang, SymbolKind, outline, parse, skeleton};

const SHAPES: &str = r#"// shapes.hpp - shape hierarchy.
#pragma once
#include <vector>

namespace geo {

/// A 2D shape.
template <typename T>
class Shape : public Base {
public:
    Shape() : area_(0) {}
    virtual ~Shape();
    /// The area.
    T area() const override { return area_; }
    void scale(T f);
    void scale(T f, T g);
    bool operator==(const Shape &o) const;
    static Shape *make(int n);
private:
    T area_;
};

struct Point { int x, y; };

enum class Kind : int { Circle, Square };

using Points = std::vector<Point>;

int count(const Points &p);

}  // namespace geo

namespace geo {
template <typename T>
void Shape<T>::scale(T f) {
    area_ *= f;
}

int count(const Points &p) { return p.size(); }
}

void geo::Shape<int>::scale(int f, int g) {}

int &get_ref();
int main(int argc, char **argv) {
    struct Local { int a; };
    return 0;
}
"#;

#[test]
fn symbols_have_paths_kinds_and_lines() {
    let tree = parse(Lang::Cpp, SHAPES);
    assert_eq!(
        paths(&tree),
        [
            "geo",
            "geo::Shape",
            "geo::Shape::Shape",
            "geo::Shape::~Shape",
            "geo::Shape::area",
            "geo::Shape::scale",
            "geo::Shape::scale#2",
            "geo::Shape::operator==",
            "geo::Shape::make",
            "geo::Point",
            "geo::Kind",
            "geo::Points",
            "geo::count",
            "geo#2",
            "geo::Shape::scale#def",
            "geo::count#def",
            "geo::Shape::scale#2#def",
            "get_ref",
            "main",
            "main::Local",
        ]
    );
    assert_eq!(
        tree.module_doc.as_deref(),
        Some("shapes.hpp - shape hierarchy.")
    );
    assert_snapshot!(listing(&tree));
}

#[test]
fn out_of_line_definitions_are_methods_and_namespace_functions_are_not() {
    let tree = parse(Lang::Cpp, SHAPES);
    let kind = |path: &str| tree.find(path).map(|s| s.kind);
    assert_eq!(kind("geo::Shape::scale#def"), Some(SymbolKind::Method));
    assert_eq!(kind("geo::Shape::scale#2#def"), Some(SymbolKind::Method));
    assert_eq!(kind("geo::count#def"), Some(SymbolKind::Function));
    assert_eq!(kind("geo::Shape"), Some(SymbolKind::Class));
    assert_eq!(kind("geo::Point"), Some(SymbolKind::Struct));
    assert_eq!(kind("geo::Points"), Some(SymbolKind::Typedef));
    let template = tree.definition(SHAPES, "geo::Shape").unwrap_or("");
    assert!(template.starts_with("template <typename T>\nclass Shape"));
    assert!(template.ends_with("};"));
}

#[test]
fn skeleton_elides_inline_and_out_of_line_bodies() {
    let tree = parse(Lang::Cpp, SHAPES);
    assert_snapshot!(skeleton(&tree, SHAPES));
}

#[test]
fn outline_nests_namespaces_and_classes() {
    let tree = parse(Lang::Cpp, SHAPES);
    assert_snapshot!(outline(&tree));
}

#[test]
fn mask_def_and_sig_everywhere() {
    assert_eq!(masked(Lang::Cpp, SHAPES, Def, &[]), SHAPES);
    let tree = parse(Lang::Cpp, SHAPES);
    assert_eq!(masked(Lang::Cpp, SHAPES, Sig, &[]), skeleton(&tree, SHAPES));
}

#[test]
fn mask_agg_everywhere() {
    assert_snapshot!(masked(Lang::Cpp, SHAPES, Agg, &[]));
}

#[test]
fn mask_class_sig_with_one_method_in_full() {
    let out = masked(
        Lang::Cpp,
        SHAPES,
        Hide,
        &[
            ("geo::Shape", Sig),
            ("geo::Shape::area", Def),
            ("geo::Shape::make", Hide),
            ("geo::Point", Agg),
        ],
    );
    assert_snapshot!(out);
}

#[test]
fn hidden_namespace_and_class_keep_their_braces_around_visible_children() {
    let out = masked(
        Lang::Cpp,
        SHAPES,
        Hide,
        &[("geo::Shape::area", Def), ("geo::Shape::scale#def", Sig)],
    );
    assert_snapshot!(out);
}

#[test]
fn an_inline_friend_defined_in_its_class_is_no_syntax_error() {
    // Catch2's `inline friend std::ostream& operator << (...)`:
    // tree-sitter-cpp reads `friend inline` alone.
    let src = "class Column {\n\tinline friend std::ostream& operator << (std::ostream& os, Column const& col) {\n\t\treturn os;\n\t}\n\tauto width() const -> size_t { return m_width; }\n};\n";
    let tree = parse(Lang::Cpp, src);
    assert!(!tree.has_errors, "{:?}", tree.error_line);
    let names = names_and_lines(&tree);
    assert_eq!(
        names,
        [
            ("Column".to_string(), 1),
            ("operator <<".to_string(), 2),
            ("width".to_string(), 5)
        ]
    );
}

#[test]
fn a_pack_of_pointers_is_a_parameter_pack() {
    // nanobind's `stl/chrono.h`: `Args*... args`, which tree-sitter-cpp
    // reads with a reference (`Args&&... args`) but not with a pointer.
    let src = "template <class... Args>\nauto can_localtime_s(Args*... args) ->\n    decltype((localtime_s(args...), std::true_type{}));\nstd::false_type can_localtime_s(...);\n\ntemplate <class... Args>\nvoid g(const Args **... args, int n) {\n    return (args * ...);\n}\n";
    let tree = parse(Lang::Cpp, src);
    assert!(!tree.has_errors, "{:?}", tree.error_line);
    let names = names_and_lines(&tree);
    assert_eq!(
        names,
        [
            ("can_localtime_s".to_string(), 1),
            ("can_localtime_s".to_string(), 4),
            ("g".to_string(), 6)
        ]
    );
}

#[test]
fn a_greater_or_equal_comparison_among_template_arguments_is_no_syntax_error() {
    let src = "template <typename CT, typename T>\nstruct IsMoreConst\n    : AndExpr<IsSame<typename RemoveConst<CT>::Type, typename RemoveConst<T>::Type>,\n              BoolType<IsConst<CT>::Value >= IsConst<T>::Value> >::Type {};\n\nclass JSONInputArchive {\n  public:\n    template <class T> inline\n    typename std::enable_if<std::is_same<T, long>::value &&\n                            sizeof(T) >= sizeof(std::int64_t) &&\n                            !std::is_same<T, std::int64_t>::value, void>::type\n    loadValue( T & t ){ loadLong(t); }\n\n    bool operator>=(const JSONInputArchive &other) const;\n    int shift(int x) { x >>= 1; return x >= 2; }\n  private:\n    template <class T>\n    void loadLong(T & t);\n};\n";
    let tree = parse(Lang::Cpp, src);
    assert_eq!(tree.error_line, None);
    assert_eq!(
        names_and_lines(&tree),
        [
            ("IsMoreConst".to_string(), 1),
            ("JSONInputArchive".to_string(), 6),
            ("loadValue".to_string(), 8),
            ("operator>=".to_string(), 14),
            ("shift".to_string(), 15),
            ("loadLong".to_string(), 17),
        ]
    );
}

#[test]
fn an_out_of_line_conversion_operator_of_a_class_template_is_a_method() {
    // nanobind's nb_types.h: `template <typename Derived> NB_INLINE
    // api<Derived>::operator handle() const {`.
    let src = "template <typename Derived> class api {\npublic:\n    operator handle() const;\n    handle type() const;\n};\n\ntemplate <typename Derived> inline api<Derived>::operator handle() const {\n    return derived().ptr();\n}\n\ntemplate <typename Derived> inline handle api<Derived>::type() const {\n    return handle();\n}\n";
    let tree = parse(Lang::Cpp, src);
    assert_eq!(tree.error_line, None);
    assert_eq!(
        names_and_lines(&tree),
        [
            ("api".to_string(), 1),
            ("operator handle".to_string(), 3),
            ("type".to_string(), 4),
            ("operator handle".to_string(), 7),
            ("type".to_string(), 11),
        ]
    );
}
