; C# symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-c-sharp's tags.scm). Attributes and
; modifiers are part of the declaration; the `///` comment above it is its
; leading comment. Paths nest with dots: `Ns.Class.Method`.

(namespace_declaration
  name: (_) @name) @definition.namespace

(file_scoped_namespace_declaration
  name: (_) @name) @definition.namespace

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(delegate_declaration
  name: (identifier) @name) @definition.type

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(local_function_statement
  name: (identifier) @name) @definition.function

; Operators are methods too. They have no identifier: the symbol is named by
; its operator token (`==`) or, for a conversion, by its target type
; (`implicit operator JSValue` is `JSValue`); ctags says `operator ==`.
(operator_declaration
  operator: _ @name) @definition.method

(conversion_operator_declaration
  type: (_) @name) @definition.method

(destructor_declaration
  name: (identifier) @name) @definition.method
