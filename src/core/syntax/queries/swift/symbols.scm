; Swift symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-swift's tags.scm). Attributes and modifiers
; are part of the declaration; the `///` comment above it is its leading
; comment. Paths nest with dots: `Outer.Inner.method`. An extension is named
; after its type (path `extension Point`, its methods `extension
; Point.scaled`), like a Rust `impl` block; a function is named by its
; `name` field, which an operator (`static func +`) fills with a token
; rather than an identifier (see `kotlin_swift`).

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: "extension"
  name: (_) @name) @definition.impl

(class_declaration
  name: (type_identifier) @name) @definition.class

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(typealias_declaration
  name: (type_identifier) @name) @definition.type

(function_declaration
  "func" @name) @definition.function

(protocol_function_declaration
  "func" @name) @definition.method

(init_declaration
  "init" @name) @definition.method

(deinit_declaration
  "deinit" @name) @definition.method

(subscript_declaration
  "subscript" @name) @definition.method

; A property with a body (`var area: Double { ... }`) is computed: a
; definition with a body.
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  computed_value: (computed_property)) @definition.function
