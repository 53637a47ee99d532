; Java symbols.
;
; Each pattern captures a defining node as @definition.<kind> and its name as
; @name (started from tree-sitter-java's tags.scm). Annotations and
; modifiers are part of the declaration; the Javadoc above it is its leading
; comment. Paths nest with dots: `Outer.Inner.method`, constructors are
; methods named like their class.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(compact_constructor_declaration
  name: (identifier) @name) @definition.method
