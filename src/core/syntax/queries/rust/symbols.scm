; Rust symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-rust's tags.scm). An `impl` block is named
; by its head (`impl Type`, `impl Trait for Type`); its items' paths are
; what people write (`Type::method`, `<Type as Trait>::method`: see
; generic.rs); a trait's methods are `Trait::method`. Attributes
; (`#[derive]`) and doc comments above an item belong to it. When two
; patterns give the same range, the earlier pattern wins.

; Functions in an impl block or a trait are methods.
(impl_item
  body: (declaration_list
    (function_item
      name: (identifier) @name) @definition.method))

(trait_item
  body: (declaration_list
    [(function_item
       name: (identifier) @name)
     (function_signature_item
       name: (identifier) @name)] @definition.method))

(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.union

(enum_item
  name: (type_identifier) @name) @definition.enum

(type_item
  name: (type_identifier) @name) @definition.type

(trait_item
  name: (type_identifier) @name) @definition.trait

(impl_item
  type: (_) @name) @definition.impl

(mod_item
  name: (identifier) @name) @definition.module

(macro_definition
  name: (identifier) @name) @definition.macro

(const_item
  name: (identifier) @name) @definition.constant

(static_item
  name: (identifier) @name) @definition.constant

; Associated types of a trait (`type Item;`), as ctags lists them.
(associated_type
  name: (type_identifier) @name) @definition.type
